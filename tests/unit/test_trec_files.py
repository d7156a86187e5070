"""Strict TREC readers (issue 11, point 2): a malformed line is a TrecFormatError naming file and line."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.cli import main

RUN, QRELS = prm.demo_path("results.test"), prm.demo_path("qrels.test")


def _write(tmp_path: Path, text: str | bytes, name: str = "file") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            "q1 0 d1 1\nq1 0 d2\n",
            r"line 2: malformed TREC line: expected 'query iteration docno relevance' \(4 fields\), got 3",
        ),
        ("q1 0 d1 1 extra\n", r"line 1: .*got 5 field"),
        (
            "q1 0 d1 1.5\n",
            r"line 1: malformed TREC line: expected a numeric relevance \(4th field\), an integer",
        ),
        ("q1 0 d1 high\n", r"line 1: malformed TREC line: expected a numeric relevance.*q1 0 d1 high"),
        ("q1 Q0 d1 1 2.5 run\n", r"got 6 field\(s\); this looks like a run file: pass it as the run"),
    ],
)
def test_qrels_lines_are_strict(tmp_path: Path, text: str, match: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(prm.TrecFormatError, match=match):
        prm.read_trec_qrels(path)
    with pytest.raises(prm.TrecFormatError, match=match):
        prm.collect(prm.scan_trec_qrels(path))


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            "q1 Q0 d1 1 2.5\n",
            r"line 1: malformed TREC line: expected 'query Q0 docno rank score runid' \(6 fields or more\)",
        ),
        ("q1 Q0 d1 1 high R\n", r"line 1: malformed TREC line: expected a numeric score \(5th field\)"),
        ("q1 Q0 d1 1 nan R\n", r"expected a finite score \(5th field\)"),
        ("q1 0 d1 1\n", r"got 4 field\(s\); this looks like a qrels file: pass it as the qrels"),
    ],
)
def test_run_lines_are_strict(tmp_path: Path, text: str, match: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(prm.TrecFormatError, match=match):
        prm.read_trec_run(path)
    with pytest.raises(prm.TrecFormatError, match=match):
        prm.collect(prm.scan_trec_run(path))


def test_the_first_bad_line_is_named(tmp_path: Path) -> None:
    good = "q1 0 d 1\n" * 5000
    path = _write(tmp_path, good + "bad line\n" + good + "also bad\n")
    with pytest.raises(prm.TrecFormatError, match="line 5001: "):
        prm.read_trec_qrels(path)


def test_crlf_bom_tabs_blank_lines_and_comments_are_read(tmp_path: Path) -> None:
    path = _write(tmp_path, b"\xef\xbb\xbfq1\t0  d1\t1\r\n\r\n# a comment\r\nq1 0 d2 0\r\n")
    qrels = prm.read_trec_qrels(path)
    assert qrels.rows() == [("q1", "d1", 1), ("q1", "d2", 0)]


def test_non_utf8_bytes_are_named_by_line(tmp_path: Path) -> None:
    path = _write(tmp_path, b"q1 0 d1 1\nq1 0 d\xff2 1\n")
    with pytest.raises(prm.TrecFormatError, match="line 2: malformed TREC line: not UTF-8 text"):
        prm.read_trec_qrels(path)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(prm.TrecFormatError, match="not a readable file"):
        prm.read_trec_run(tmp_path / "nope")


def test_run_passed_as_qrels_fails_in_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """It printed ``map all 1.0000`` and exited 0: the rank column was read as relevance."""
    assert main([str(RUN), str(RUN), "-m", "map"]) != 0
    err = capsys.readouterr().err
    assert "this looks like a run file" in err
    assert "line 1:" in err


def test_the_bundled_collection_still_reads() -> None:
    assert prm.read_trec_run(RUN).height == 1500
    assert prm.read_trec_qrels(QRELS).height == 3681
    assert prm.read_trec_qrels(QRELS).schema == pl.Schema(
        {"query": pl.String, "item": pl.String, "relevance": pl.Int64}
    )
