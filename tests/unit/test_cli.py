"""The ``rankmetrics`` command against trec_eval 10.0's own outputs.

The oracle is the reference output that ships with trec_eval (its ``test/``
folder, kept in ``../shared/reference/trec_eval``); the inputs are the copies
bundled with the package, so only the comparisons need that folder.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.cli import MEASURES, main, parse_measures

REFERENCE = Path(__file__).parents[2].parent / "shared/reference/trec_eval"
needs_reference = pytest.mark.skipif(
    not REFERENCE.is_dir(), reason=f"trec_eval reference outputs not found at {REFERENCE}"
)

_BY_NAME = {m.name: m for m in MEASURES}


def _family(line_name: str) -> str | None:
    """The supported measure a trec_eval output line belongs to, or None."""
    measure = _BY_NAME.get(line_name)
    if measure is not None and not measure.cutoffs:
        return measure.name
    base, _, k = line_name.rpartition("_")
    measure = _BY_NAME.get(base)
    if measure is not None and measure.cutoffs and k.isdigit():
        return measure.name
    return None


def _reference(name: str, families: set[str] | None = None) -> list[str]:
    """Lines of a reference output for supported measures (or only `families`), in order."""
    out = []
    for line in (REFERENCE / name).read_text().splitlines():
        family = _family(line.split("\t")[0].rstrip())
        if family is not None and (families is None or family in families):
            out.append(line)
    return out


def _run(capsys: pytest.CaptureFixture[str], qrels: str, run: str, *flags: str) -> list[str]:
    code = main([str(prm.demo_path(qrels)), str(prm.demo_path(run)), *flags])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.err == ""
    return captured.out.splitlines()


@needs_reference
def test_cli_default_matches_trec_eval(capsys: pytest.CaptureFixture[str]) -> None:
    got = _run(capsys, "qrels.test", "results.test")
    assert got == _reference("out.test")
    assert got[0] == "runid                 \tall\tSTANDARD"


@needs_reference
def test_cli_all_trec_summary_matches_trec_eval(capsys: pytest.CaptureFixture[str]) -> None:
    got = _run(capsys, "qrels.test", "results.test", "-m", "all_trec")
    assert got == _reference("out.test.a")


@needs_reference
@pytest.mark.parametrize(
    ("reference", "qrels", "run", "flags"),
    [
        ("out.test.aq", "qrels.test", "results.test", ["-q"]),
        ("out.test.aqc", "qrels.test", "results.trunc", ["-q", "-c"]),
        ("out.test.aqcM", "qrels.test", "results.trunc", ["-q", "-c", "-M100"]),
        ("out.test.aql", "qrels.rel_level", "results.test", ["-q", "-l2"]),
    ],
)
def test_cli_per_query_matches_trec_eval(
    capsys: pytest.CaptureFixture[str], reference: str, qrels: str, run: str, flags: list[str]
) -> None:
    got = _run(capsys, qrels, run, *flags, "-m", "all_trec")
    want = _reference(reference)
    assert len(want) > 100
    assert got == want


@needs_reference
def test_cli_official_per_query_matches_trec_eval(capsys: pytest.CaptureFixture[str]) -> None:
    got = _run(capsys, "qrels.test", "results.test", "-q")
    official = {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "recip_rank", "P"}
    assert got == _reference("out.test.aq", official)


@needs_reference
def test_cli_measure_parameters_match_trec_eval(capsys: pytest.CaptureFixture[str]) -> None:
    # The specs of trec_eval's own command; 23.4 is truncated to a cutoff of 23.
    flags = ["-m", "P.5,7,3", "-m", "recall.20,2000", "-m", "ndcg_cut.10,20,23.4"]
    got = _run(capsys, "qrels.test", "results.test", *flags, "-m", "success.2,5,20", "-q")
    want = _reference("out.test.meas_params", {"P", "recall", "ndcg_cut", "success"})
    assert len(want) == 4 * 11  # three queries and all, eleven lines each
    assert got == want


@needs_reference
def test_cli_order_is_trec_evals_not_the_flags(capsys: pytest.CaptureFixture[str]) -> None:
    got = _run(capsys, "qrels.test", "results.test", "-m", "P.10", "-mrecip_rank", "-m", "map")
    assert got == _reference("out.test", {"map", "recip_rank"}) + [
        line for line in _reference("out.test", {"P"}) if line.startswith("P_10 ")
    ]


@needs_reference
def test_cli_no_summary_prints_only_queries(capsys: pytest.CaptureFixture[str]) -> None:
    got = _run(capsys, "qrels.test", "results.test", "-q", "-n")
    official = {"num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "recip_rank", "P"}
    want = [line for line in _reference("out.test.aq", official) if "\tall\t" not in line]
    assert got == want


def test_cli_no_summary_without_queries_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(capsys, "qrels.test", "results.test", "-n") == []


def test_cli_orders_queries_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("9 0 a 1\n10 0 a 1\n100 0 b 1\n")
    run.write_text("9 Q0 a 1 2.0 r\n10 Q0 a 1 2.0 r\n100 Q0 a 1 1.0 r\n")
    assert main([str(qrels), str(run), "-q", "-m", "num_ret"]) == 0
    queries = [line.split("\t")[1] for line in capsys.readouterr().out.splitlines()]
    assert queries == ["10", "100", "9", "all"]  # trec_eval compares query ids with strcmp


def test_cli_runid_is_the_first_run_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 a 1\n")
    run.write_text("q1 Q0 a 1 2.0 my.run-1\n")
    assert main([str(qrels), str(run), "-m", "runid"]) == 0
    assert capsys.readouterr().out == "runid                 \tall\tmy.run-1\n"


def test_cli_malformed_run_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "bad.run"
    run.write_text("301 Q0 FR940202-2-00150 1 2.1 STANDARD\n301 Q0 FR940202-2-00151 2\n")
    code = main([str(prm.demo_path("qrels.test")), str(run)])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert captured.err.startswith("rankmetrics: ")
    assert str(run) in captured.err
    assert "line 2" in captured.err


def test_cli_malformed_qrels_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qrels = tmp_path / "bad.qrels"
    qrels.write_text("301 0 a 1\n301 0 b 1\n301 0 c x\n")
    code = main([str(qrels), str(prm.demo_path("results.test"))])
    err = capsys.readouterr().err
    assert code == 1
    assert str(qrels) in err
    assert "line 3" in err


@pytest.mark.parametrize("measure", ["foo", "P_5", "bpref", "gm_map"])
def test_cli_unknown_measure_is_named(capsys: pytest.CaptureFixture[str], measure: str) -> None:
    code = main([str(prm.demo_path("qrels.test")), str(prm.demo_path("results.test")), "-m", measure])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert "rankmetrics: " in captured.err
    assert repr(measure) in captured.err
    assert "supported: " in captured.err


@pytest.mark.parametrize("spec", ["map.5", "P.0", "P.x", "P.", "P.inf", "P.nan", "recall.-3"])
def test_cli_bad_measure_parameter(capsys: pytest.CaptureFixture[str], spec: str) -> None:
    code = main([str(prm.demo_path("qrels.test")), str(prm.demo_path("results.test")), "-m", spec])
    assert code == 1
    assert repr(spec) in capsys.readouterr().err


@pytest.mark.parametrize("content", [b"\x7fELF\x1f\x00\x01 x y\n", b"301 0 a 1\x1f2\n"])
def test_cli_unreadable_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    qrels = tmp_path / "odd.qrels"
    qrels.write_bytes(content)
    assert main([str(qrels), str(prm.demo_path("results.test"))]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rankmetrics: ")
    assert str(qrels) in err


def test_cli_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.qrels"
    assert main([str(missing), str(prm.demo_path("results.test"))]) == 1
    assert "nope.qrels" in capsys.readouterr().err


def test_cli_no_query_in_common(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qrels = tmp_path / "qrels"
    qrels.write_text("999 0 a 1\n")
    assert main([str(qrels), str(prm.demo_path("results.test"))]) == 1
    assert "no queries with both results and relevance info" in capsys.readouterr().err


def test_cli_bad_depth_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(prm.demo_path("qrels.test")), str(prm.demo_path("results.test")), "-M", "0"]) == 1
    assert "depth" in capsys.readouterr().err


def test_cli_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage:" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert "trec_eval" in capsys.readouterr().out


def test_parse_measures_merges_and_sorts_cutoffs() -> None:
    got = parse_measures(["P.10,5", "map", "P.5,7", "official"])
    names = [line for _, lines in got for line in lines]
    assert names[:6] == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map"]
    p_lines = [n for n in names if n.startswith("P_")]
    assert p_lines == [f"P_{k}" for k in (5, 7, 10, 15, 20, 30, 100, 200, 500, 1000)]


def test_measure_table_spells_registered_metrics() -> None:
    for measure in MEASURES:
        if measure.metric is None:
            continue
        for name in measure.line_names(measure.cutoffs or (1,)):
            prm.parse(name)  # raises for a spelling the library does not register


def test_cli_demo_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "trec_eval" in out
    for column in ("query", "ndcg@10", "map", "mrr", "P_10", "recall@100", "num_rel_ret"):
        assert column in out
    for query in ("301", "302", "303", "all"):
        assert f"│ {query}" in out


@needs_reference
def test_cli_demo_agrees_with_trec_eval(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    summary = {line.split("\t")[0].rstrip(): line.split("\t")[2] for line in _reference("out.test")}
    all_row = next(line for line in out.splitlines() if line.startswith("│ all"))
    for name in ("map", "recip_rank", "P_10", "num_rel_ret"):
        assert summary[name] in all_row


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "polars_rankmetrics", "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "usage: rankmetrics" in done.stdout


README = Path(__file__).parents[2] / "README.md"


@pytest.mark.skipif(not README.is_file(), reason="README.md not found beside the tests")
def test_readme_python_examples_run_and_print_what_they_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) >= 3
    monkeypatch.chdir(tmp_path)  # the examples write runs.parquet
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102
    printed = capsys.readouterr().out
    shown = re.findall(r"((?:^# (?:shape|[┌│╞└]).*\n)+)", "\n".join(blocks), flags=re.MULTILINE)
    assert len(shown) >= 3
    for table in shown:
        assert re.sub(r"^# ", "", table, flags=re.MULTILINE) in printed
