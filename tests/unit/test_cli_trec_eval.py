"""trec_eval 10.0's arithmetic and behaviours the command reproduces, on small cases.

Each expected output is what NIST trec_eval 10.0 (built from its v10.0 tag) prints for the same
files and flags; ``tests/conformance/test_trec_eval_differential.py`` compares against the binary
itself on random collections when one is available.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.cli import main
from polars_rankmetrics.cli._replay import near_tie
from polars_rankmetrics.cli._values import lround

QRELS, RUN = str(prm.demo_path("qrels.test")), str(prm.demo_path("results.test"))
TRUNC, GRADED = str(prm.demo_path("results.trunc")), str(prm.demo_path("qrels.rel_level"))


def _run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_all_line_is_trec_evals_running_sum_not_the_exact_mean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """P_1000 of 0.006, 0.003, 0.006, 0: trec_eval's double sum rounds up, the exact mean down."""
    judged = {"a": 6, "b": 3, "c": 6, "d": 1}
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("".join(f"{q} 0 {q}{i} 1\n" for q, n in judged.items() for i in range(n)))
    lines = [f"{q} Q0 {q}{i} {i + 1} {10 - i} r\n" for q in "abc" for i in range(judged[q])]
    run.write_text("".join(lines) + "d Q0 other 1 1 r\n")
    assert _run(capsys, qrels, run, "-m", "P.1000") == (0, "P_1000                \tall\t0.0038\n", "")
    frame = prm.join_run_qrels(prm.read_trec_run(run).drop("run"), prm.read_trec_qrels(qrels))
    assert f"{prm.evaluate(frame, ['P_1000']).item():.4f}" == "0.0037"  # the library's exact mean


def test_geometric_means_with_complete(capsys: pytest.CaptureFixture[str]) -> None:
    """gm_map and gm_bpref: exp of the mean of log(max(value, 1e-5)), a missing query included."""
    out = _run(capsys, QRELS, TRUNC, "-c", "-m", "gm_map", "-m", "gm_bpref")[1]
    assert out == "gm_map                \tall\t0.0045\ngm_bpref              \tall\t0.0074\n"


@pytest.mark.parametrize(
    ("qrels", "run", "flags", "want"),
    [
        (GRADED, TRUNC, ["-q", "-c", "-l", "2"], 559),  # every grade above 0, not only >= 2
        (QRELS, RUN, ["-c", "-l", "3"], 561),  # no grade reaches 3; num_rel counts grades > 0 anyway
    ],
)
def test_complete_num_rel_counts_every_judgment_above_zero(
    capsys: pytest.CaptureFixture[str], qrels: str, run: str, flags: list[str], want: int
) -> None:
    """With -c, the all line's num_rel ignores -l (m_num_rel.c); per query it follows -l."""
    out = _run(capsys, qrels, run, *flags, "-m", "num_rel")[1]
    assert out.splitlines()[-1] == f"num_rel               \tall\t{want}"


def test_judged_only_empty_ranking_prints_nan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """-J leaving a query nothing: trec_eval's 0/0 at the levels that round to no relevant document."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 a 1\nq1 0 b 0\nq2 0 c 1\nq2 0 d 1\n")
    run.write_text("q1 Q0 a 1 2.0 r\nq1 Q0 x 2 1.0 r\nq2 Q0 y 1 1.0 r\n")
    flags = ["-J", "-q", "-m", "num_ret", "-m", "iprec_at_recall.0,0.5", "-m", "11pt_avg"]
    assert _run(capsys, qrels, run, *flags)[1] == (
        "num_ret               \tq1\t1\n"
        "iprec_at_recall_0.00  \tq1\t1.0000\n"
        "iprec_at_recall_0.50  \tq1\t1.0000\n"
        "11pt_avg              \tq1\t1.0000\n"
        "num_ret               \tq2\t0\n"
        "iprec_at_recall_0.00  \tq2\t  -nan\n"
        "iprec_at_recall_0.50  \tq2\t0.0000\n"
        "11pt_avg              \tq2\t  -nan\n"
        "num_ret               \tall\t1\n"
        "iprec_at_recall_0.00  \tall\t  -nan\n"
        "iprec_at_recall_0.50  \tall\t0.5000\n"
        "11pt_avg              \tall\t  -nan\n"
    )
    # Without -J the unjudged document stays: no empty ranking, no NaN.
    assert "nan" not in _run(capsys, qrels, run, *flags[1:])[1]


def test_set_f_weight_is_trec_evals_unsquared_beta(capsys: pytest.CaptureFixture[str]) -> None:
    """-m set_F.x: (1 + x) P R / (x P + R); the first spec with parameters wins, as in trec_eval."""
    assert (
        _run(capsys, QRELS, RUN, "-m", "set_F.0.5", "-m", "set_F")[1]
        == "set_F_0.5             \tall\t0.1045\n"
    )
    assert _run(capsys, QRELS, RUN, "-q", "-m", "set_F.2")[1] == (
        "set_F_2               \t301\t0.1471\n"
        "set_F_2               \t302\t0.2294\n"
        "set_F_2               \t303\t0.0577\n"
        "set_F_2               \tall\t0.1447\n"
    )


def test_refuse_missing_stops_as_trec_eval_does(capsys: pytest.CaptureFixture[str]) -> None:
    """results.trunc lacks 302: trec_eval 10.0 prints 301 and exits 4; the default evaluates 301 and 303."""
    code, out, err = _run(capsys, QRELS, TRUNC, "-q", "-m", "map", "--refuse-missing")
    assert (code, out) == (4, "map                   \t301\t0.0324\n")
    assert "result qid '302' not found in qrels" in err
    code, out, _ = _run(capsys, QRELS, TRUNC, "-q", "-m", "map")
    assert code == 0
    assert [line.split("\t")[1] for line in out.splitlines()] == ["301", "303", "all"]
    # -c evaluates the missing query: nothing to refuse.
    assert _run(capsys, QRELS, TRUNC, "-c", "-m", "num_q", "--refuse-missing")[:2] == (
        0, "num_q                 \tall\t3\n",
    )  # fmt: skip


def _piped(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(  # noqa: S603
        [sys.executable, "-m", "polars_rankmetrics", *args], input=stdin, capture_output=True, check=False
    )


def test_dash_reads_the_run_from_standard_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'-' as the run reads standard input; a malformed line there names '-' and the line."""
    piped = _piped(Path(RUN).read_bytes(), QRELS, "-", "-q", "-m", "all_trec")
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.decode() == _run(capsys, QRELS, RUN, "-q", "-m", "all_trec")[1]
    bad = _piped(b"301 Q0 a 1 2.0 r\n301 Q0 b 2\n", QRELS, "-")
    assert bad.returncode == 1
    assert bad.stdout == b""
    assert bad.stderr.decode().startswith("rankmetrics: -: line 2")
    assert str(tmp_path) not in bad.stderr.decode()


@pytest.mark.parametrize(
    ("x", "want"),
    [(0.5, 1), (1.5, 2), (2.5, 3), (0.49999999999999994, 0), (-0.5, -1), (0.3 * 5, 2), (0.0, 0)],
)
def test_lround_rounds_halves_away_from_zero(x: float, want: int) -> None:
    """C's lround, which trec_eval applies to level * num_rel."""
    assert lround(x) == want


def test_ap_on_an_exact_tie_prints_trec_evals_digit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """AP = 71/160 = 0.44375 exactly: trec_eval's double sum lands above the tie, the exact value below."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(
        "q 0 d1 0\n" + "".join(f"q 0 {d} 1\n" for d in ["d2", "d3", "d4", "d5", "d6", "e1", "e2", "e3"])
    )
    run.write_text("".join(f"q Q0 d{i} {i} {7 - i} r\n" for i in range(1, 7)))
    assert _run(capsys, qrels, run, "-q", "-m", "map", "-m", "map_cut.5,10")[1] == (
        "map                   \tq\t0.4438\n"
        "map_cut_5             \tq\t0.3396\n"
        "map_cut_10            \tq\t0.4438\n"
        "map                   \tall\t0.4438\n"
        "map_cut_5             \tall\t0.3396\n"
        "map_cut_10            \tall\t0.4438\n"
    )
    frame = prm.join_run_qrels(prm.read_trec_run(run).drop("run"), prm.read_trec_qrels(qrels))
    assert f"{prm.evaluate(frame, ['map']).item():.4f}" == "0.4437"  # the library's exact value


def test_rbp_resid_mean_on_an_exact_tie_prints_trec_evals_digit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rbp_resid of 0.7371 and 1 (exactly): trec_eval's running powers of p put the mean above 0.86855."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 a 0\nq1 0 b 3\nq1 0 d 0\nq2 0 z 1\n")
    q1 = ["q1 Q0 a 1 4 r", "q1 Q0 b 2 3 r", "q1 Q0 u 3 2 r", "q1 Q0 d 4 1 r"]
    run.write_text(
        "".join(f"{line}\n" for line in [*q1, *(f"q2 Q0 v{i} {i} {6 - i} r" for i in range(1, 6))])
    )
    assert _run(capsys, qrels, run, "-q", "-m", "rbp_resid")[1] == (
        "rbp_resid             \tq1\t0.7371\n"
        "rbp_resid             \tq2\t1.0000\n"
        "rbp_resid             \tall\t0.8686\n"
    )
    frame = prm.join_run_qrels(prm.read_trec_run(run).drop("run"), prm.read_trec_qrels(qrels))
    assert f"{prm.evaluate(frame, ['rbp_resid']).item():.4f}" == "0.8685"  # the library's exact mean


@pytest.mark.parametrize(
    ("value", "want"),
    [(0.44375, True), (0.443749, False), (0.4437, False), (1.00005, True), (0.0, False)],
)
def test_near_tie(value: float, want: bool) -> None:
    assert near_tie(value) is want


def _written(tmp_path: Path, qrels_text: str, run_text: str) -> tuple[Path, Path]:
    """The qrels and run files of a test, written under `tmp_path`."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run.write_text(run_text)
    return qrels, run


def _files(tmp_path: Path) -> tuple[Path, Path]:
    """q: grade 1 of top grade 2 at rank 4 (rbp at p=0.5 is 0.5 * 0.5 ** 4 = 1/32); r: every grade 0."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q 0 x 2\nq 0 y 2\nq 0 e 1\nr 0 x 0\nr 0 y 0\n")
    q = [f"q Q0 {d} {i} {6 - i} r\n" for i, d in enumerate(["u0", "u1", "u2", "e"], start=1)]
    run.write_text("".join(q) + "r Q0 x 1 2 r\nr Q0 y 2 1 r\n")
    return qrels, run


def test_rbp_on_an_exact_tie_prints_trec_evals_digit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rbp(p=0.5) = 0.5 ** 5 = 0.03125, a double: trec_eval's arithmetic lands on it and rounds to even."""
    qrels, run = _files(tmp_path)
    assert _run(capsys, qrels, run, "-q", "-m", "rbp.p=0.5")[1] == (
        "rbp_p=0.5             \tq\t0.0312\n"
        "rbp_p=0.5             \tr\t0.0000\n"
        "rbp_p=0.5             \tall\t0.0156\n"
    )
    frame = prm.join_run_qrels(prm.read_trec_run(run).drop("run"), prm.read_trec_qrels(qrels))
    library = prm.evaluate(frame, [prm.rbp(0.5)], per_query=True).sort("query")["rbp(p=0.5)"][0]
    assert f"{library:.4f}" == "0.0313"  # the library's exact sum is a hair above


def test_rndcg_without_a_positive_gain_prints_nan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rndcg of a query with relevant documents but no positive gain: trec_eval's 0/0."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q 0 a 0\nq 0 b 0\nq 0 c 0\nq 0 d 0\nq 0 e 1\nr 0 x 0\nr 0 y 0\n")
    q = [f"q Q0 {d} {i} {6 - i} r\n" for i, d in enumerate("abcde", start=1)]
    run.write_text("".join(q) + "r Q0 x 1 2 r\nr Q0 y 2 1 r\n")
    assert _run(capsys, qrels, run, "-q", "-l", "0", "-m", "Rndcg")[1] == (
        "Rndcg                 \tq\t0.1934\n"
        "Rndcg                 \tr\t  -nan\n"
        "Rndcg                 \tall\t  -nan\n"
    )
    assert _run(capsys, qrels, run, "-q", "-m", "Rndcg.1=0")[1] == (
        "Rndcg_1=0             \tq\t  -nan\n"
        "Rndcg_1=0             \tr\t0.0000\n"
        "Rndcg_1=0             \tall\t  -nan\n"
    )
    assert "nan" not in _run(capsys, qrels, run, "-q", "-m", "Rndcg")[1]  # -l 1: r has nothing relevant


# Judged documents only (bpref skips the others): the queries whose bpref makes the mean 1.15 / 8 = 0.14375.
_BPREF_QRELS = """\
q164_1 0 d20 1
q164_28 0 d6 2
q164_1 0 d3 3
q164_28 0 d3 0
q164_1 0 d18 0
q164_1 0 d26 3
q164_1 0 d7 2
q164_1 0 d58 2
q164_28 0 d41 -1
q164_1 0 d11 1
q164_1 0 d13 3
q164_28 0 d5 0
q164_1 0 d41 2
q164_28 0 d11 3
q164_1 0 d8 1
q164_1 0 d10 1
16514 0 23 1
16514 0 53 2
16514 0 8 0
16514 0 3 0
16514 0 15 2
z1 0 a 0
z2 0 a 0
z3 0 a 0
z4 0 a 0
z5 0 a 0
"""
_BPREF_RUN = """\
q164_1 Q0 d3 9 6.969 r
q164_28 Q0 d6 16 1.0 r
q164_1 Q0 d41 16 -0.626 r
q164_28 Q0 d3 13 -1.25 r
q164_1 Q0 d8 2 15.921 r
q164_1 Q0 d10 1 -1.563 r
q164_1 Q0 d11 13 13.492 r
q164_28 Q0 d41 15 2.0 r
q164_1 Q0 d18 17 8.498 r
q164_1 Q0 d26 6 3.293 r
q164_1 Q0 d58 8 14.379 r
q164_28 Q0 d11 14 -1.25 r
q164_1 Q0 d7 4 0.454 r
q164_28 Q0 d5 19 2.5 r
16514 Q0 3 3 -1.25 r
16514 Q0 8 1 -1.25 r
16514 Q0 15 7 -1.25 r
16514 Q0 23 8 2.0 r
16514 Q0 53 4 2.0 r
z1 Q0 a 1 1 r
z2 Q0 a 1 1 r
z3 Q0 a 1 1 r
z4 Q0 a 1 1 r
z5 Q0 a 1 1 r
"""


_ELEVEN_QRELS = """\
16619 0 10 -1
16607 0 23 3
16607 0 50 3
16619 0 53 -1
16619 0 57 0
16607 0 14 1
16619 0 21 0
16619 0 9 -1
16619 0 18 -1
16619 0 50 -1
16619 0 47 -1
16619 0 48 -1
16619 0 41 -1
16619 0 12 0
16701 0 32 3
16702 0 24 0
16702 0 59 1
16701 0 25 -1
16701 0 19 3
16701 0 21 -1
16701 0 23 0
16701 0 14 1
16701 0 55 0
"""
_ELEVEN_RUN = """\
16607 Q0 32 7 2.5 r
16619 Q0 41 8 5.664 r
16619 Q0 21 2 0.708 r
16607 Q0 21 4 2.5 r
16619 Q0 47 4 -2.901 r
16607 Q0 23 1 1.0 r
16619 Q0 50 3 16.05 r
16619 Q0 18 6 -3.881 r
16607 Q0 50 3 2.0 r
16607 Q0 7 6 1.0 r
16619 Q0 56 9 6.103 r
16607 Q0 55 8 2.5 r
16607 Q0 30 2 2.0 r
16619 Q0 23 1 -4.592 r
16607 Q0 14 5 1.0 r
16619 Q0 57 7 13.167 r
16619 Q0 48 5 17.064 r
16701 Q0 32 3 6.598 r
16701 Q0 21 1 12.07 r
16701 Q0 25 4 0.249 r
16701 Q0 u0 10 -2.91 r
16701 Q0 14 7 5.092 r
16701 Q0 53 5 11.076 r
16701 Q0 55 6 -4.904 r
16701 Q0 23 8 6.708 r
16702 Q0 u0 2 -2.139 r
16701 Q0 19 2 -1.548 r
16702 Q0 u1 3 11.765 r
16701 Q0 u1 11 11.996 r
16702 Q0 59 1 2.231 r
16701 Q0 u2 12 -4.662 r
16701 Q0 36 9 12.881 r
16701 Q0 u3 13 1.156 r
16702 Q0 u2 4 0.884 r
"""


@pytest.mark.parametrize(
    ("files", "flags", "digits"),
    [
        # bpref 0.5, 0.4, 0.25 and five zeros (-c -l 2), mean 1.15 / 8: trec_eval's 0.4 is a running sum.
        ((_BPREF_QRELS, _BPREF_RUN), ("-c", "-l", "2", "-m", "bpref"), ("0.1437", "0.1438")),
        # 11pt_avg of 0.375, 0, 0.3 and 0.5, mean 0.29375: trec_eval's 0.3 is 3.3 / 11.
        ((_ELEVEN_QRELS, _ELEVEN_RUN), ("-m", "11pt_avg"), ("0.2937", "0.2938")),
    ],
    ids=["bpref", "11pt_avg"],
)
def test_a_mean_on_an_exact_tie_prints_trec_evals_digit(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    files: tuple[str, str],
    flags: tuple[str, ...],
    digits: tuple[str, str],
) -> None:
    """The all line's exact mean lies on a tie of the fourth decimal: trec_eval 10.0's digit (its output).

    `digits`: what trec_eval 10.0 prints, and the library's exact mean to four decimals.
    """
    printed, exact = digits
    qrels, run = _written(tmp_path, *files)
    assert _run(capsys, qrels, run, *flags)[1] == f"{flags[-1]:<22}\tall\t{printed}\n"
    frame = prm.join_run_qrels(prm.read_trec_run(run).drop("run"), prm.read_trec_qrels(qrels))
    level = int(flags[flags.index("-l") + 1]) if "-l" in flags else 1
    value = prm.evaluate(frame, [flags[-1]], relevance_level=level).item()
    assert f"{value:.4f}" == exact  # the library's exact mean


_MISSING_QRELS = """\
q54_37 0 d34 0
q54_37 0 d8 3
q54_37 0 d56 -1
q55_26 0 d7 0
q55_26 0 d55 3
q55_26 0 d47 0
q55_26 0 d56 0
q55_26 0 d57 -1
z1 0 a 0
z2 0 a 0
z3 0 a 0
z4 0 a 0
z5 0 a 0
z6 0 a 0
"""
_MISSING_RUN = """\
q55_26 Q0 u3 10 -1.25 STANDARD
q55_26 Q0 u0 7 2.0 STANDARD
q55_26 Q0 d57 6 0.5 STANDARD
q55_26 Q0 u2 9 1.0 STANDARD
q55_26 Q0 d46 5 0.5 STANDARD
q55_26 Q0 u1 8 1.0 STANDARD
q55_26 Q0 d56 3 2.0 STANDARD
q55_26 Q0 d55 2 2.0 STANDARD
q55_26 Q0 d47 4 2.5 STANDARD
q55_26 Q0 d24 1 0.5 STANDARD
z1 Q0 a 1 1 r
z2 Q0 a 1 1 r
z3 Q0 a 1 1 r
z4 Q0 a 1 1 r
z5 Q0 a 1 1 r
z6 Q0 a 1 1 r
"""


def test_a_query_the_run_lacks_keeps_its_zero_when_the_mean_is_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """-c: q54_37 has no run line; the all line's 0.25 / 8 is a tie, replayed; q54_37 stays 0 (not 0/0)."""
    qrels, run = _written(tmp_path, _MISSING_QRELS, _MISSING_RUN)
    printed = _run(capsys, qrels, run, "-q", "-c", "-m", "11pt_avg")[1].splitlines()
    # trec_eval 10.0's own lines
    assert printed[0] == "11pt_avg              \tq54_37\t0.0000"
    assert printed[1] == "11pt_avg              \tq55_26\t0.2500"
    assert printed[-1] == "11pt_avg              \tall\t0.0312"


_INFAP_QRELS = """\
6129 0 39 0
6129 0 37 3
6129 0 32 3
6129 0 13 -1
6129 0 47 0
6129 0 17 1
6129 0 33 2
6129 0 38 3
6129 0 41 1
6129 0 22 -1
6129 0 19 2
6129 0 10 0
6129 0 56 2
6129 0 18 -1
6129 0 15 -1
6129 0 44 0
"""
_INFAP_RUN = """\
6129 Q0 55 5 17.42 STANDARD
6129 Q0 26 1 6.08 STANDARD
6129 Q0 39 6 16.745 STANDARD
6129 Q0 u0 13 6.883 STANDARD
6129 Q0 33 4 0.124 STANDARD
6129 Q0 18 12 0.262 STANDARD
6129 Q0 47 8 1.066 STANDARD
6129 Q0 41 10 17.554 STANDARD
6129 Q0 15 9 9.386 STANDARD
6129 Q0 21 7 16.857 STANDARD
6129 Q0 38 2 8.02 STANDARD
6129 Q0 9 3 -4.754 STANDARD
6129 Q0 40 11 5.322 STANDARD
"""


def test_infap_on_an_exact_tie_prints_trec_evals_digit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """InfAP = 0.21875 exactly for this query: trec_eval 10.0's arithmetic prints 0.2187 (its output)."""
    qrels, run = _written(tmp_path, _INFAP_QRELS, _INFAP_RUN)
    assert _run(capsys, qrels, run, "-q", "-m", "infAP")[1] == (
        "infAP                 \t6129\t0.2187\ninfAP                 \tall\t0.2187\n"
    )
    frame = prm.join_run_qrels(prm.read_trec_run(run).drop("run"), prm.read_trec_qrels(qrels))
    assert f"{prm.evaluate(frame, ['infAP']).item():.4f}" == "0.2188"  # the library's exact value


def test_a_cutoff_past_a_long_saturates_as_atol_does(capsys: pytest.CaptureFixture[str]) -> None:
    """trec_eval reads cutoffs with atol: 10**23 is LONG_MAX (trec_eval 10.0 prints this line)."""
    printed = _run(capsys, QRELS, RUN, "-m", "P.100000000000000000000000")[1]
    assert printed == "P_9223372036854775807 \tall\t0.0000\n"


def test_the_program_exits_with_its_status_once_its_output_is_flushed(tmp_path: Path) -> None:
    """``python -m polars_rankmetrics`` (the ``rankmetrics`` program) flushes, then ends with main's status.

    A reader that goes away after one line (``| head -1``) stops it quietly
    with status 1, as trec_eval; a whole run's output reaches a reader that stays.
    """
    qrels, run = (
        tmp_path / "qrels",
        tmp_path / "run",
    )  # 200 queries: 600 KB of -q output, more than a pipe holds
    qrels.write_text("".join(f"q{q} 0 d{d} {d % 3}\n" for q in range(200) for d in range(0, 20, 2)))
    run.write_text("".join(f"q{q} Q0 d{d} {d} {20 - d} r\n" for q in range(200) for d in range(20)))
    argv = [sys.executable, "-m", "polars_rankmetrics", "-q", "-m", "all_trec", str(qrels), str(run)]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as program:  # noqa: S603
        assert program.stdout is not None
        assert program.stderr is not None
        first = program.stdout.readline()
        program.stdout.close()  # the reader goes away with most of the output unread
        status = program.wait(timeout=60)
        error = program.stderr.read()
    assert first.startswith(b"num_ret")
    assert status == 1
    assert error == b""  # no traceback, no message
    whole = subprocess.run(argv, capture_output=True, check=False, timeout=60)  # noqa: S603
    assert whole.returncode == 0
    assert whole.stdout.count(b"\n") > 200 * 90
    assert whole.stdout.endswith(b"\n")
