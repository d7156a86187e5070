"""``rankmetrics compare``: trec_eval's means in the table, scipy's p-values, the formats and the errors.

The oracle of the means is trec_eval's reference output on the bundled test
collection: ``out.test.aq`` (results.test) and ``out.test.aqc`` (results.trunc
with ``-c``: query 302, which the truncated run lacks, scores 0).
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from scipy import stats

import polars_rankmetrics as prm
from polars_rankmetrics.cli import main

REFERENCE = Path(__file__).parents[1] / "data" / "trec_eval"
QRELS, FULL, TRUNC = (str(prm.demo_path(n)) for n in ("qrels.test", "results.test", "results.trunc"))


def _reference(name: str) -> dict[tuple[str, str], float]:
    """trec_eval's output file: (measure, query) -> value."""
    out = {}
    for line in (REFERENCE / name).read_text().splitlines():
        measure, query, value = line.split()
        if measure in ("map", "P_10"):
            out[measure, query] = float(value)
    return out


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_csv_means_are_trec_evals_and_p_values_scipys(capsys: pytest.CaptureFixture[str]) -> None:
    """--format csv: the comparison frame; means equal trec_eval's, the t test's p equals ttest_rel's."""
    argv = ["compare", QRELS, FULL, TRUNC, "-m", "map", "-m", "P.10", "--missing", "zero", "--format", "csv"]
    status, out, err = _run(argv, capsys)
    assert (status, err) == (0, "")
    comparison = pl.read_csv(io.StringIO(out))
    full, trunc = _reference("out.test.aq"), _reference("out.test.aqc")
    per_query = {
        name: {q: ref[m, q] for (m, q) in ref if m == "map" and q != "all"}
        for name, ref in (("f", full), ("t", trunc))
    }
    for row in comparison.iter_rows(named=True):
        assert (row["run"], row["baseline"]) == ("results.trunc", "results.test")
        assert row["mean"] == pytest.approx(trunc[row["metric"], "all"], abs=5e-5)
        assert row["baseline_mean"] == pytest.approx(full[row["metric"], "all"], abs=5e-5)
        assert row["n"] == 3
    queries = sorted(per_query["f"])
    deltas = [per_query["t"][q] - per_query["f"][q] for q in queries]
    p_map = comparison.filter(pl.col("metric") == "map")["p_value"].item()
    assert p_map == pytest.approx(stats.ttest_1samp(deltas, 0.0).pvalue, rel=1e-2)  # 4-digit reference


def test_markdown_is_the_default_and_names_the_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The table: one row per run (its file name and letter), one column per measure, the footnote."""
    status, out, _ = _run(["compare", QRELS, FULL, TRUNC, "-m", "map", "--missing", "zero"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split("|")[1:3] == [" run               ", " map        "]
    assert lines[2].startswith("| results.test (a)  | **0.1785**")
    assert lines[3].startswith("| results.trunc (b) | 0.1016")
    assert "paired t test, Holm correction" in out


def test_options_reach_compare(capsys: pytest.CaptureFixture[str]) -> None:
    """--test, --correction none, --alpha, --seed, --resamples, --baseline (by path) appear in the output."""
    argv = [
        "compare", QRELS, FULL, TRUNC, "-m", "map", "--missing", "intersect", "--test", "randomization",
        "--correction", "none", "--alpha", "0.1", "--seed", "7", "--resamples", "500", "--baseline", TRUNC,
        "--format", "csv",
    ]  # fmt: skip
    status, out, _ = _run(argv, capsys)
    assert status == 0
    row = pl.read_csv(io.StringIO(out)).row(0, named=True)
    assert (row["run"], row["baseline"], row["metric"], row["n"]) == (
        "results.test",
        "results.trunc",
        "map",
        2,
    )
    assert (row["test"], row["correction"], row["alpha"]) == ("randomization", None, 0.1)
    # Queries 301 and 303 (302 is dropped): map deltas 0 and 0.0858 - 0.2723 (out.test, out.test.aqc).
    # With one delta 0, all 4 sign vectors (enumerated: 4 <= 500) reach the observed |mean|: p = 1.
    assert row["p_value"] == 1.0
    assert row["delta"] == pytest.approx((0.0858 - 0.2723) / 2, abs=1e-4)


@pytest.mark.parametrize(("output", "marker"), [("latex", r"\begin{tabular"), ("html", "<table")])
def test_latex_and_html(output: str, marker: str, capsys: pytest.CaptureFixture[str]) -> None:
    """great_tables renders the same table as LaTeX and HTML."""
    status, out, _ = _run(["compare", QRELS, FULL, TRUNC, "--missing", "zero", "--format", output], capsys)
    assert status == 0
    assert marker in out
    assert "results.trunc (b)" in out


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        ([QRELS, FULL, TRUNC], 1, "system 'results.trunc' has no row for 1 of the 3 queries: '302'"),
        ([QRELS, FULL, TRUNC, "-m", "mapp", "--missing", "zero"], 1, "measure 'mapp'"),
        (
            [QRELS, FULL, TRUNC, "--baseline", "bm25", "--missing", "zero"],
            1,
            "baseline 'bm25' is not in column",
        ),
        ([QRELS, FULL, FULL], 1, "a run is given twice"),
        ([QRELS, FULL, "/nonexistent/run"], 1, "/nonexistent/run"),
        ([QRELS, FULL], 2, "compare needs at least two runs"),
        ([QRELS, FULL, TRUNC, "--test", "anova"], 2, "invalid choice: 'anova'"),
        ([QRELS, FULL, TRUNC, "--format", "pdf"], 2, "invalid choice: 'pdf'"),
        ([QRELS, FULL, TRUNC, "--alpha", "2", "--missing", "zero"], 1, "`alpha` must be in (0, 1), got 2.0"),
    ],
)
def test_errors_exit_with_a_message(
    argv: list[str], status: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad file, measure, baseline or option: exit 1 (2 for usage), a message on stderr, no stdout."""
    got, out, err = _run(["compare", *argv], capsys)
    assert (got, out) == (status, "")
    assert message in err
    assert err.splitlines()[-1].startswith("rankmetrics")  # after argparse's usage line, if any


def test_the_console_script_runs_compare() -> None:
    """`python -m polars_rankmetrics.cli compare ...` prints the table and exits 0."""
    code = "import sys; from polars_rankmetrics.cli import main; sys.exit(main())"
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code, "compare", QRELS, FULL, TRUNC, "-m", "P.10", "--missing", "zero"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "| results.test (a)  | **0.3000** |" in done.stdout


def test_top_level_help_names_the_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    """`rankmetrics --help` tells of `rankmetrics compare`."""
    status, out, _ = _run(["--help"], capsys)
    assert status == 0
    assert "rankmetrics compare QRELS RUN RUN" in out


def test_docs_compare_example_is_what_the_command_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comparing guide's `rankmetrics compare` example, run beside the bundled data, prints that."""
    page = Path(__file__).parents[2] / "docs" / "guides" / "comparing.md"
    if not page.is_file():
        pytest.skip("docs/guides/comparing.md not found beside the tests")
    text = page.read_text(encoding="utf-8")
    found = re.search(r"```\n\$ rankmetrics compare (.*)\n((?:.*\n)*?)```", text)
    assert found is not None
    flags, shown = found.groups()
    monkeypatch.chdir(prm.demo_path("qrels.test").parent)
    status, out, _ = _run(["compare", *flags.split()], capsys)
    assert (status, out) == (0, shown)


def test_missing_zero_counts_every_judged_query_as_trec_eval_c(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A judged query that no run retrieved: with --missing zero it scores 0 for both (n = 4), as -c does."""
    qrels = tmp_path / "qrels"
    qrels.write_text(Path(QRELS).read_text() + "999 0 nowhere 1\n")
    argv = ["compare", str(qrels), FULL, TRUNC, "-m", "map", "--missing", "zero", "--format", "csv"]
    status, out, err = _run(argv, capsys)
    assert (status, err) == (0, "")
    row = pl.read_csv(io.StringIO(out)).row(0, named=True)
    assert row["n"] == 4
    full, trunc = _reference("out.test.aq"), _reference("out.test.aqc")
    # trec_eval -c averages over the 4 judged queries: the 3 queries' sum over 4.
    assert row["baseline_mean"] == pytest.approx(3 * full["map", "all"] / 4, abs=1e-4)
    assert row["mean"] == pytest.approx(3 * trunc["map", "all"] / 4, abs=1e-4)
