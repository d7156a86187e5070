"""One-off probe: where personalization@10 + coverage@10 spend their time, rank given, streaming.

Usage: ``python benchmarks/scripts/catalog_ranking.py [USERS]`` (default 1M users x 10 items,
bench_recsys's data). Quoted in benchmarks/results/perf.md.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_recsys
import polars as pl

import polars_rankmetrics as prm

run = bench_recsys.make_data(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)["run"]
lf = (
    run.with_columns(pl.col("score").rank("ordinal", descending=True).over("query").alias("rank"))
    .drop("score")
    .lazy()
)


def _t(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def t(label: str, fn: Callable[[], object], n: int = 3) -> None:
    """Print the minimum of `n` timings of `fn`."""
    best = min(_t(fn) for _ in range(n))
    print(f"{label}: {best:.2f}s", flush=True)


r, it = pl.col("rank"), pl.col("item").cast(pl.String)
win = (
    pl.when(r.is_not_null())
    .then(pl.struct((-r.cast(pl.Int64)).alias("k"), it.alias("i")))
    .rank("ordinal", descending=True)
    .over("query")
)
t("ours", lambda: prm.evaluate(lf, [prm.personalization(10), prm.coverage(10)]).collect(engine="streaming"))
t("the ranking window alone", lambda: lf.select(win.alias("w")).collect(engine="streaming"))
t("item cast to text alone", lambda: lf.select(it.alias("w")).collect(engine="streaming"))
t(
    "int rank over query alone (no text)",
    lambda: lf.select(r.rank("ordinal").over("query").alias("w")).collect(engine="streaming"),
)
t(
    "floor: two counts",
    lambda: [
        lf.group_by("query").len().collect(engine="streaming"),
        lf.group_by("item").len().collect(engine="streaming"),
    ],
)
