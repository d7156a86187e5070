"""The expressions benchmark runs at a small size: its checks (values equal to evaluate's, no Python) pass."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_expr  # noqa: E402


def test_bench_expr_runs_and_reports_every_path(tmp_path: Path) -> None:
    out = tmp_path / "expr.md"
    assert bench_expr.main(["--rows", "5000", "--repeat", "1", "--out", str(out)]) == 0
    text = out.read_text()
    for path in ("evaluate(DataFrame, per_query=True)", "DataFrame.group_by('query').agg(rx...)"):
        assert f"| 5,000 | {path} |" in text
    assert "LazyFrame.group_by('query').agg(rx...).collect(engine='streaming')" in text
