# ruff: noqa: INP001  (a script directory, not a package)
"""Smoke test of the core benchmark: our numbers match pytrec_eval and the script runs.

No timing is asserted. Run with ``python -m pytest benchmarks/test_smoke.py``.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

pytest.importorskip("pytrec_eval")

import bench_core  # benchmarks/ is on sys.path: pytest's default (prepend) import mode


@pytest.mark.parametrize("int_ids", [False, True], ids=["string_ids", "int_ids"])
def test_bench_core_agrees_with_pytrec_eval(int_ids: bool) -> None:
    """The benchmark's frame: prm and pytrec_eval agree on every query and metric."""
    frame = bench_core.make_frame(bench_core.SMOKE_ROWS, int_ids=int_ids)
    assert frame.height == bench_core.SMOKE_ROWS
    assert bench_core.max_abs_diff(frame) < bench_core.TOLERANCE


def test_bench_core_frame_is_seeded_and_well_formed() -> None:
    """Same seed, same frame; unique (query, item); null scores only on judged rows."""
    a = bench_core.make_frame(2_000, seed=3)
    assert a.equals(bench_core.make_frame(2_000, seed=3))
    assert a.select("query", "item").is_unique().all()
    # Every null score is on a judged row (judged but not retrieved).
    assert a.filter(pl.col("score").is_null() & pl.col("relevance").is_null()).is_empty()


def test_bench_core_smoke_runs(tmp_path: Path) -> None:
    """`--smoke` runs end to end and writes its report (no timing is asserted)."""
    out = tmp_path / "core.md"
    assert bench_core.main(["--smoke", "--profile", "--no-memory", "--out", str(out)]) == 0
    text = out.read_text()
    assert "agreement with pytrec_eval" in text
    assert "pytrec_eval native" in text
    assert "## Where the time goes" in text
