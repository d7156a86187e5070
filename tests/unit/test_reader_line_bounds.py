"""Bounded reading (issue 39 pt 4): a TREC file of more lines than its size can hold is refused first.

A line costs the readers about 64 bytes besides its text; a file whose lines average under 8 bytes
(shorter than the shortest TREC line, ``q 0 d 1``), such as a file of blank lines, would need more
than 8 times its size: refused, from a count of its line feeds, before Polars reads it. A file of
the shortest lines still reads (or names its bad line) within a bounded multiple of its size.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import _trec_files
from polars_rankmetrics.curves import MAX_CUTOFFS

READERS = [prm.read_trec_run, prm.read_trec_qrels, prm.scan_trec_run, prm.scan_trec_qrels]
SIZE = 24 << 20  # past the 16 MiB allowance of line overhead any file has


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
@pytest.mark.parametrize("line", [b"\n", b"a\n", b" \r\n", b"q 0 d\n"], ids=["blank", "a", "crlf", "short"])
def test_a_file_of_short_lines_is_refused_before_reading(tmp_path: Path, reader: object, line: bytes) -> None:
    path = tmp_path / "f"
    path.write_bytes(line * (SIZE // len(line)))
    lines = SIZE // len(line)
    with pytest.raises(prm.TrecFormatError, match=f"{lines:,} lines in .* bytes: its lines average under 8"):
        reader(path)  # type: ignore[operator]


def test_the_limit_is_the_documented_one() -> None:
    assert _trec_files.LINE_COST // _trec_files.MEMORY_FACTOR == 8
    size = 100 << 20
    limit = (_trec_files.MEMORY_FACTOR * size + _trec_files.ALLOWANCE) // _trec_files.LINE_COST
    _trec_files.check_lines("f", size, limit)  # at the limit: read
    with pytest.raises(prm.TrecFormatError, match="8 times its size"):
        _trec_files.check_lines("f", size, limit + 1)


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_small_files_of_blank_lines_still_read(tmp_path: Path, reader: object) -> None:
    path = tmp_path / "f"
    text = b"\n" * 1000 + (b"q1 Q0 d1 1 2.0 r\n" if "run" in reader.__name__ else b"q1 0 d1 1\n")  # type: ignore[attr-defined]
    path.write_bytes(text)
    out = reader(path)  # type: ignore[operator]
    assert prm.collect(out.lazy()).height == 1


_PEAK = """
import resource, sys, polars_rankmetrics as prm
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    prm.collect(prm.{reader}(sys.argv[1]).lazy())
except prm.TrecFormatError:
    pass
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB is Linux's")
@pytest.mark.parametrize(
    ("reader", "line"),
    [
        ("read_trec_qrels", b"1 0 a 1\n"),
        ("read_trec_run", b"1 0 a 1\n"),
        ("read_trec_run", b"q Q0 d 1 1 r\n"),
    ],
)
def test_the_shortest_lines_read_in_a_bounded_multiple_of_the_file(
    tmp_path: Path, reader: str, line: bytes
) -> None:
    """Measured: 32 MiB of 8-byte lines peaked at 256-349 MiB (8-11x); the bound tested is 12x + 64 MiB."""
    path = tmp_path / "f"
    path.write_bytes(line * (SIZE // len(line)))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", _PEAK.format(reader=reader), str(path)],
        capture_output=True, text=True, check=True, env=env, timeout=120,
    )  # fmt: skip
    assert int(done.stdout) <= 12 * SIZE + (64 << 20), done.stdout


def test_pr_curve_refuses_more_cutoffs_than_its_limit_before_work() -> None:
    frame = pl.DataFrame({"query": ["q"], "item": ["a"], "score": [1.0], "relevance": [1]})
    with pytest.raises(prm.InvalidParameterError, match="at most 10,000 cutoffs"):
        prm.pr_curve(frame, range(1, 10**9))
    with pytest.raises(prm.InvalidParameterError, match="at most 10,000 cutoffs"):
        prm.pr_curve(frame, list(range(1, MAX_CUTOFFS + 2)))
