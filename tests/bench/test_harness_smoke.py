"""CI smoke run of the benchmark harnesses: they run, their plans stay pure, every tool agrees.

Nothing here is timed or compared with a time: the regression guard is that
the harness's own checks pass (identical values across our input forms and
engines, pytrec_eval within 1e-9, ranx within 1e-9 where no score ties, no
Python UDF and no in-memory fallback in the plans it times).
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_core  # noqa: E402
import bench_scale  # noqa: E402


@pytest.fixture(scope="module")
def smoke_report(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("scale")
    out = tmp / "scale.md"
    status = bench_scale.main(["--smoke", "--data", str(tmp / "data"), "--out", str(out)])
    text = out.read_text()
    assert status == 0, text
    return text


def test_scale_harness_plans_have_no_udf_and_no_fallback(smoke_report: str) -> None:
    assert (
        "- plans (evaluate over the scan, one chunk's plan): no Python UDF, no in-memory fallback"
        in smoke_report
    )


@pytest.mark.parametrize("metric_set", ["narrow", "wide"])
def test_scale_harness_every_tool_agrees(smoke_report: str, metric_set: str) -> None:
    section = smoke_report.split(f"### {metric_set}:")[1].split("###", maxsplit=1)[0]
    agreement = [line for line in section.splitlines() if line.startswith("- agreement:")]
    methods = [line.split(":")[1].split(" vs ")[0].strip() for line in agreement]
    assert methods == [
        "prm_df_check",
        "prm_scan_streaming",
        "prm_scan_in_memory",
        "prm_chunked",
        "pytrec",
        "ranx",
    ]
    assert all(line.endswith("OK)") for line in agreement), agreement


def test_scale_harness_reports_every_row_and_the_recommender_run(smoke_report: str) -> None:
    for label in [
        *bench_scale.LABELS.values(),
        "pytrec_eval native",
        "ranx native",
        "ranx numba JIT warm-up",
    ]:
        assert label in smoke_report
    assert "the same values on both engines and every run: yes" in smoke_report


def test_scale_dataset_is_sorted_seeded_and_well_formed(tmp_path: Path) -> None:
    where = bench_scale.dataset(tmp_path, 3_000, int_ids=False)
    frame = pl.read_parquet(sorted(where.glob("*.parquet")))
    assert frame.height == 3_000
    assert frame["query"].is_sorted()
    assert frame.select("query", "item").is_unique().all()
    assert frame.filter(pl.col("score").is_null() & pl.col("relevance").is_null()).is_empty()
    again = bench_scale.dataset(tmp_path / "again", 3_000, int_ids=False)
    assert frame.equals(pl.read_parquet(sorted(again.glob("*.parquet"))))


def test_a_disagreement_is_caught() -> None:
    want = pl.DataFrame({"query": ["a", "b"], "m": [0.5, 1.0]})
    diff, n, missing = bench_scale.compare(want, pl.DataFrame({"query": ["a", "b"], "m": [0.5, 0.9]}))
    assert (round(diff, 12), n, missing) == (0.1, 2, 0)
    assert bench_scale.compare(want, pl.DataFrame({"query": ["a"], "m": [0.5]}))[2] == 1


@pytest.mark.parametrize("int_ids", [False, True], ids=["string_ids", "int_ids"])
def test_core_benchmark_frame_agrees_with_pytrec_eval(int_ids: bool) -> None:
    frame = bench_core.make_frame(bench_core.SMOKE_ROWS, int_ids=int_ids)
    assert frame.height == bench_core.SMOKE_ROWS
    assert bench_core.max_abs_diff(frame) < bench_core.TOLERANCE


def test_core_benchmark_smoke_runs(tmp_path: Path) -> None:
    out = tmp_path / "core.md"
    assert bench_core.main(["--smoke", "--profile", "--no-memory", "--out", str(out)]) == 0
    text = out.read_text()
    assert "agreement with pytrec_eval" in text
    assert "## Where the time goes" in text


def test_perf_harness_runs_every_row_and_its_checks_pass(tmp_path: Path) -> None:
    import bench_perf  # noqa: PLC0415

    out = tmp_path / "perf.md"
    status = bench_perf.main(["--smoke", "--data", str(tmp_path / "data"), "--out", str(out)])
    text = out.read_text()
    assert status == 0, text
    for heading in ("## Rows 1-2", "## Row 3", "## Row 4", "## Row 5"):
        assert heading in text
    assert "max abs diff" in text
    assert "(< 1e-09: OK)" in text  # all_trec against pytrec_eval, per query
    assert "the same values from sorted and unsorted files: yes" in text
