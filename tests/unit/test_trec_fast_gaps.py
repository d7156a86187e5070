"""A small file separated by tabs or runs of spaces takes the fast path, and reads as the strict parser.

The fast path makes such a file plain (one space per run of spaces and
tabs) before Polars' CSV reader reads it. The oracle is the strict line
parser itself: the same file read with the fast path switched off must
give the same frame (names, dtypes, rows in order), or the same error.
"""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm
from polars_rankmetrics import _trec_fast
from tests.strategies import LINE_SHAPES, shaped_line

TREC_EVAL_FILES = Path(__file__).resolve().parents[2] / "polars_rankmetrics" / "data"

_WORD = st.text(alphabet="abqd0123456789-_.", min_size=1, max_size=6)
_SCORE = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: f"{x:.6f}"),
    st.sampled_from(["1e3", "-0", ".5", "5.", "+2", "inf", "nan", "abc"]),
)
_RELEVANCE = st.one_of(st.integers(-2, 4).map(str), st.sampled_from(["+1", "1.0", "x", "007"]))
_GAP = st.sampled_from(["\t", "\t", " ", "  ", "\t ", " \t  ", "\t\t"])
_EDGE = st.sampled_from([""] * 8 + [" ", "\t", " \t"])  # before or after a line's fields


@st.composite
def _file(draw: st.DrawFn, kind: str) -> str:
    """Half the files are well formed (the fast path reads them); the others have odd lines and values."""
    odd = draw(st.booleans())
    score = _SCORE if odd else st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: f"{x:.6f}")
    relevance = _RELEVANCE if odd else st.integers(-2, 4).map(str)
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        if kind == "run":
            fields = [draw(_WORD), "Q0", draw(_WORD), draw(_WORD), draw(score), draw(_WORD)]
        else:
            fields = [draw(_WORD), "0", draw(_WORD), draw(relevance)]
        shapes = ["whole"] * 6 + list(LINE_SHAPES) if odd else ["whole"]
        shape = draw(st.sampled_from(shapes))
        fields = shaped_line(fields, shape)
        edge = _EDGE if odd else st.just("")
        line = draw(edge) + (fields[0] if fields else "")
        for field in fields[1:]:
            line += draw(_GAP) + field
        lines.append(line + draw(edge))
    return "\n".join(lines) + ("\n" if lines and draw(st.booleans()) else "")


def _read(path: Path, kind: str) -> tuple[pl.Schema, list[tuple[object, ...]]] | str:
    reader = prm.read_trec_run if kind == "run" else prm.read_trec_qrels
    try:
        frame = reader(path)
    except prm.TrecFormatError as err:
        return str(err)
    return frame.schema, frame.rows()


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["run", "qrels"]).flatmap(lambda kind: st.tuples(st.just(kind), _file(kind))))
def test_a_file_with_tabs_reads_as_the_strict_parser_reads_it(case: tuple[str, str]) -> None:
    kind, text = case
    with TemporaryDirectory() as folder:
        path = Path(folder) / "trec.txt"
        path.write_text(text)
        fast = _read(path, kind)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_trec_fast, "read", lambda *_: None)  # the strict parser alone
            strict = _read(path, kind)
    assert fast == strict


@pytest.mark.parametrize(("name", "kind"), [("results.test", "run"), ("qrels.test", "qrels")])
def test_trec_evals_test_files_take_the_fast_path(
    name: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = prm.demo_path(name)
    assert b"\t" in path.read_bytes() or kind == "qrels"
    assert _trec_fast.read(path, kind) is not None  # type: ignore[arg-type]
    fast = _read(path, kind)
    monkeypatch.setattr(_trec_fast, "read", lambda *_: None)
    assert fast == _read(path, kind)


def test_a_large_file_keeps_the_strict_parser(tmp_path: Path) -> None:
    path = tmp_path / "run"
    line = b"q\tQ0\td\t1\t0.5\tr\n"
    path.write_bytes(line * (_trec_fast.SMALL // len(line) + 1))
    assert _trec_fast.read(path, "run") is None
