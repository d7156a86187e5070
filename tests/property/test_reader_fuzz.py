"""Fuzzing the TREC readers: any bytes give a correct frame or the library's TrecFormatError.

Never another exception, never a silently skipped line: a frame that comes
back has one row per line that is neither blank nor a ``#`` comment, with
the fields of that line.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import example, given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

_TOKEN = st.one_of(
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from(
        ["q1", "Q0", "0", "1", "-1", "2.5", "1e3", "nan", "inf", "d" * 300, "#", "\ufeff", "1.0"]
    ),
)
_SEP = st.sampled_from([" ", "\t", "  ", " \t "])
_LINE = st.lists(_TOKEN, min_size=0, max_size=8).flatmap(
    lambda tokens: _SEP.map(lambda sep: sep.join(tokens))
)
_END = st.sampled_from(["\n", "\r\n"])


@st.composite
def _files(draw: st.DrawFn) -> bytes:
    """Text made of plausible and implausible TREC lines, or arbitrary bytes."""
    if draw(st.booleans()):
        lines = draw(st.lists(_LINE, max_size=12))
        end = draw(_END)
        text = end.join(lines) + (end if draw(st.booleans()) else "")
        data = text.encode()
        if draw(st.booleans()):
            data = b"\xef\xbb\xbf" + data
        if draw(st.booleans()) and data:
            cut = draw(st.integers(0, len(data)))
            data = data[:cut]  # a truncated file
        return data
    return draw(st.binary(max_size=200))


def _expected_rows(data: bytes) -> int:
    text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
    lines = text.replace("\r\n", "\n").split("\n")  # the readers split lines at \n only
    return sum(1 for line in lines if line.strip() and not line.strip().startswith("#"))


def _check(data: bytes, read: object) -> None:
    with TemporaryDirectory() as folder:
        path = Path(folder) / "trec.txt"
        path.write_bytes(data)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                frame = read(path)  # type: ignore[operator]
            except prm.TrecFormatError:
                return
        # The one warning a reader gives: a carriage return inside a line (CR-only line ends), which
        # joins lines as trec_eval joins them; never on a file without a lone CR.
        lone_cr = re.search(rb"\r(?!\n)", data) is not None
        for found in caught:
            assert issubclass(found.category, prm.RankMetricsWarning), found
            assert "carriage return" in str(found.message), found
            assert lone_cr, found
        assert frame.height == _expected_rows(data)
        assert frame["query"].null_count() == 0
        assert frame["item"].null_count() == 0


@settings(max_examples=150, deadline=None)
@given(_files())
@example(b"\r\x01")  # a lone CR before text: the reader warns (found by hypothesis)
def test_qrels_reader_gives_a_frame_or_our_error(data: bytes) -> None:
    _check(data, prm.read_trec_qrels)


@settings(max_examples=150, deadline=None)
@given(_files())
@example(b"q1 Q0 d1 1 2.5 r\rq2 Q0 d2 1 1.0 r\n")  # CR-only line ends: one line, and a warning
def test_run_reader_gives_a_frame_or_our_error(data: bytes) -> None:
    _check(data, prm.read_trec_run)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["q1", "301", "x-9"]), st.integers(-2, 4)), min_size=1, max_size=20)
)
def test_well_formed_qrels_round_trip(rows: list[tuple[str, int]]) -> None:
    data = "".join(f"{q} 0 doc{i} {r}\n" for i, (q, r) in enumerate(rows)).encode()
    with TemporaryDirectory() as folder:
        path = Path(folder) / "qrels"
        path.write_bytes(data)
        frame = prm.read_trec_qrels(path)
    assert frame.rows() == [(q, f"doc{i}", r) for i, (q, r) in enumerate(rows)]
