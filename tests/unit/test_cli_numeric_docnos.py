"""Numeric docnos: the command ranks them by their text, as trec_eval does, whatever it stores them as.

The command reads a docno that is a plain decimal number below 10**9 as a
UInt32 (4 bytes a row, an integer tie-break key): its ties must still be
broken by the docno's text, descending (trec_eval's comp_sim_docno:
strcmp), never by its numeric value; a docno with a leading zero or a sign
keeps the whole column as text. Expected values are worked by hand from
that order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polars_rankmetrics.cli import main

# One query, every document tied on the score: the text order, descending, is 9 > 11 > 100 > 10.
RUN = "q1 Q0 10 1 1.0 r\nq1 Q0 100 2 1.0 r\nq1 Q0 11 3 1.0 r\nq1 Q0 9 4 1.0 r\n"


def _recip_rank(capsys: pytest.CaptureFixture[str], tmp_path: Path, qrels: str, run: str, *flags: str) -> str:
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    assert main([*flags, "-m", "recip_rank", str(tmp_path / "qrels"), str(tmp_path / "run")]) == 0
    return capsys.readouterr().out.split("\t")[-1].strip()


@pytest.mark.parametrize(
    ("relevant", "want"),
    [("9", "1.0000"), ("11", "0.5000"), ("100", "0.3333"), ("10", "0.2500")],  # numeric order: 4, 2, 1, 3
)
def test_tied_numeric_docnos_rank_by_their_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, relevant: str, want: str
) -> None:
    assert _recip_rank(capsys, tmp_path, f"q1 0 {relevant} 1\n", RUN) == want


def test_a_leading_zero_keeps_the_docnos_as_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'09' is not the number 9: text order 9 > 11 > 100 > 10 > 09 puts it last (rank 5)."""
    run = RUN + "q1 Q0 09 5 1.0 r\n"
    assert _recip_rank(capsys, tmp_path, "q1 0 09 1\n", run) == "0.2000"
    assert _recip_rank(capsys, tmp_path, "q1 0 9 1\n", run) == "1.0000"


def test_a_docno_of_ten_digits_keeps_the_docnos_as_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """9999999999 (beyond a UInt32's range) sorts by text: 9999999999 > 9 > 11 > 100 > 10."""
    run = RUN + "q1 Q0 9999999999 5 1.0 r\n"
    assert _recip_rank(capsys, tmp_path, "q1 0 9 1\n", run) == "0.5000"


def test_numeric_docnos_against_trec_eval(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, trec_eval_binary: Path
) -> None:
    """Ties among numeric docnos of several lengths, every measure per query: trec_eval's bytes."""
    import subprocess  # noqa: PLC0415

    lines = [
        f"q{q} Q0 {d} {r} {1.0 - (r // 3) * 0.1:.1f} r"
        for q in (1, 2)
        for r, d in enumerate([5, 50, 500, 7, 70, 0, 1000, 99, 9, 10], 1)
    ]
    judged = [f"q{q} 0 {d} {g}" for q in (1, 2) for d, g in [(50, 1), (7, 2), (0, 1), (10, 0), (123, 1)]]
    (tmp_path / "run").write_text("\n".join(lines) + "\n")
    (tmp_path / "qrels").write_text("\n".join(judged) + "\n")
    argv = ["-q", "-m", "all_trec", str(tmp_path / "qrels"), str(tmp_path / "run")]
    want = subprocess.run([str(trec_eval_binary), *argv], capture_output=True, text=True, check=True).stdout  # noqa: S603
    assert main(argv) == 0
    assert capsys.readouterr().out == want
