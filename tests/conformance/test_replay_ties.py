"""The command's replay of trec_eval's double arithmetic on a printed tie: G (m_G.c).

tests/data/replay/g_tie.{run,qrels} is one query cut from a generated 10M-line collection
(benchmarks/bench_cli.py's alphanumeric one) whose G lies within 1e-12 of a tie of the fourth decimal
(0.06875): the library's sum and trec_eval's left-to-right double sum fall on either side of it,
and trec_eval 10.0 prints 0.0688. Before G was replayed the command printed 0.0687: one line in
9.5M of ``-q -m all_trec`` differed.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
from pathlib import Path

import polars_rankmetrics as prm
from polars_rankmetrics.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "replay"
RUN, QRELS = DATA / "g_tie.run", DATA / "g_tie.qrels"


def _ours(*args: str | Path) -> bytes:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([str(a) for a in args]) == 0
    return out.getvalue().encode()


def test_the_file_holds_a_value_on_a_tie() -> None:
    frame = prm.join_run_qrels(prm.read_trec_run(RUN), prm.read_trec_qrels(QRELS))
    value = prm.evaluate(frame, ["G"]).item()
    assert abs(value * 10000 - 687.5) < 1e-8  # the exact value sits on the tie: rounding decides


def test_g_on_a_printed_tie_is_what_trec_eval_prints() -> None:
    # trec_eval 10.0, built from the shared source, prints these lines for this file.
    expected = b"G                     \ttopic-77478\t0.0688\nG                     \tall\t0.0688\n"
    assert _ours("-q", "-m", "G", QRELS, RUN) == expected


def test_the_file_against_the_binary(trec_eval_binary: Path) -> None:
    for flags in (
        ("-q", "-m", "G"),
        ("-q", "-m", "all_trec"),
        ("-m", "all_trec"),
        ("-q", "-M", "40", "-m", "G"),
    ):
        theirs = subprocess.run(  # noqa: S603
            [str(trec_eval_binary), *flags, str(QRELS), str(RUN)], capture_output=True, check=True, timeout=60
        ).stdout
        assert _ours(*flags, QRELS, RUN) == theirs, flags
