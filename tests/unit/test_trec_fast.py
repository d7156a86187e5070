"""The readers' fast path (plain files through Polars' CSV reader) against a Python line parser.

The oracle splits each line on whitespace, as trec_eval does, skipping blank
and ``#`` lines; scores parse with Python's ``float`` and relevances with
``int``. Plain files and files that only look plain (comments, two spaces,
tabs, a sixth field too many) must read the same as the oracle, and a
malformed line in an otherwise plain file is still named by file and line.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from tempfile import TemporaryDirectory

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm
from tests.strategies import LINE_SHAPES, shaped_line


def _oracle(text: str, kind: str) -> list[tuple[object, ...]] | None:
    """Rows as trec_eval reads them, made strict; None when some line is malformed."""
    rows: list[tuple[object, ...]] = []
    for line in text.split("\n"):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if kind == "run":
            if len(fields) < 6:
                return None
            try:
                score = float(fields[4])
            except ValueError:
                return None
            if not math.isfinite(score):
                return None
            rows.append((fields[0], fields[2], score, fields[5]))
        else:
            if len(fields) != 4 or not re.fullmatch(r"[+-]?[0-9]+", fields[3]):
                return None
            rows.append((fields[0], fields[2], int(fields[3])))
    return rows


_WORD = st.text(alphabet="abqd0123456789-_.", min_size=1, max_size=6)
_SCORE = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: f"{x:.4f}"),
    st.sampled_from(["1e3", "-0", ".5", "5.", "+2", "inf", "nan", "abc", "1e", "0x1"]),
)
_RELEVANCE = st.one_of(st.integers(-2, 4).map(str), st.sampled_from(["+1", "1.0", "x", "007"]))
_GAP = st.sampled_from([" "] * 8 + ["  ", "\t"])


@st.composite
def _file(draw: st.DrawFn, kind: str) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        if kind == "run":
            fields = [draw(_WORD), "Q0", draw(_WORD), "1", draw(_SCORE), draw(_WORD)]
        else:
            fields = [draw(_WORD), "0", draw(_WORD), draw(_RELEVANCE)]
        shape = draw(st.sampled_from(["plain"] * 6 + list(LINE_SHAPES)))
        fields = shaped_line(fields, shape)
        line = fields[0] if fields else ""
        for field in fields[1:]:
            line += draw(_GAP) + field
        lines.append(line)
    return "\n".join(lines) + ("\n" if lines and draw(st.booleans()) else "")


def _read(text: str, kind: str) -> list[tuple[object, ...]] | str:
    """The rows read, or the error's message."""
    with TemporaryDirectory() as folder:
        path = Path(folder) / "trec.txt"
        path.write_text(text)
        reader = prm.read_trec_run if kind == "run" else prm.read_trec_qrels
        try:
            return reader(path).rows()
        except prm.TrecFormatError as err:
            return str(err)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["run", "qrels"]).flatmap(lambda kind: st.tuples(st.just(kind), _file(kind))))
def test_readers_agree_with_a_line_parser(case: tuple[str, str]) -> None:
    kind, text = case
    read, expected = _read(text, kind), _oracle(text, kind)
    if expected is None:
        assert isinstance(read, str)
        assert re.search(r"trec\.txt: line \d+: malformed TREC line", read), read
    else:
        assert read == expected


def test_a_plain_file_keeps_the_dtypes_and_names(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.write_text("7 Q0 12 1 0.5 bm25\n7 Q0 13 2 0.25 bm25\n")
    frame = prm.read_trec_run(run, columns=prm.Columns(query="q", item="doc", score="s"))
    assert frame.schema == pl.Schema({"q": pl.String, "doc": pl.String, "s": pl.Float64, "run": pl.String})
    assert frame.rows() == [("7", "12", 0.5, "bm25"), ("7", "13", 0.25, "bm25")]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            "q 0 d 1\nq 0 e 2\nq 0 f one\n",
            r"q\.txt: line 3: malformed TREC line: expected a numeric relevance",
        ),
        ("q 0 d 1\nq 0 e\n", r"q\.txt: line 2: malformed TREC line: expected 'query iteration docno"),
        ("q 0 d 1\nq 0 e 1 x\nq 0 f 1\n", r"q\.txt: line 2: .*got 5 field"),
    ],
)
def test_a_plain_file_with_a_bad_line_names_it(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "q.txt"
    path.write_text(text)
    with pytest.raises(prm.TrecFormatError, match=match):
        prm.read_trec_qrels(path)


def test_a_name_that_looks_like_a_pattern_is_one_file(tmp_path: Path) -> None:
    (tmp_path / "q[1].txt").write_text("q 0 d 1\n")
    (tmp_path / "q1.txt").write_text("r 0 e 2\n")
    assert prm.read_trec_qrels(tmp_path / "q[1].txt").rows() == [("q", "d", 1)]
