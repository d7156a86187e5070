"""Probe: where row 3's time goes, by leaving families of the all_trec set out (quoted in results/perf.md).

G, ndcg_rel and Rndcg are the all_trec measures computed as frames of their
own (events per query of the items of non-zero gain, running sums of the
ranking and of the ideal ranking); before 2026-11-23 they joined the two
rankings row by row and kept every row, so every other metric read every
row too (1.55 s of which they cost 0.88 s alone, now 0.25 s).

Usage: ``python benchmarks/scripts/all_trec_parts.py [DATA_DIR]``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import polars as pl
from bench_perf import all_trec_metrics

import polars_rankmetrics as prm

DATA = (
    Path(sys.argv[1])
    if len(sys.argv) > 1
    else Path(tempfile.gettempdir()) / "prm-bench-data/rows_1000000_seed0"
)
frame = pl.read_parquet(sorted(DATA.glob("*.parquet")))
metrics = all_trec_metrics()
UNFILTERED = {"g", "ndcg_rel", "rndcg"}


def t(label: str, subset: list[prm.Metric], n: int = 2) -> None:
    """Print the minimum of `n` timings of evaluating `subset` per query."""
    best = float("inf")
    for _ in range(n):
        start = time.perf_counter()
        prm.evaluate(frame, subset, per_query=True)
        best = min(best, time.perf_counter() - start)
    print(f"{label}: {best:.2f} s", flush=True)


t(f"all {len(metrics)}", metrics)
t("without G, ndcg_rel, Rndcg", [m for m in metrics if m.spec.name not in UNFILTERED])
t("G, ndcg_rel, Rndcg alone", [m for m in metrics if m.spec.name in UNFILTERED])
t("num_ret alone (the ranking and the counts)", [prm.parse("num_ret")])
