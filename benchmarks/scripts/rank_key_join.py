"""One-off probe: an exact trec_eval order from one Int64 key a row instead of a struct window.

The key is (position of the score among distinct scores, position of the item's text among
distinct items), found by unique + sort + join; one integer window ranks it per query.
Usage: ``python benchmarks/scripts/rank_key_join.py DATA_DIR`` (bench_scale's Parquet parts).
Quoted in benchmarks/results/perf.md.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import polars as pl

frame = pl.read_parquet(f"{sys.argv[1]}/*.parquet")


def t(label: str, fn: Callable[[], pl.DataFrame], n: int = 2) -> pl.DataFrame:
    """Print the minimum of `n` timings of `fn`; return its last result."""
    best, out = 1e9, pl.DataFrame()
    for _ in range(n):
        s = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - s)
    print(f"{label}: {best:.2f}s", flush=True)
    return out


score, item = pl.col("score"), pl.col("item")
struct = (
    pl.when(score.is_not_null())
    .then(pl.struct(score.alias("k"), item.alias("i")))
    .rank("ordinal", descending=True)
    .over("query")
)
a = t(
    "struct rank (today)",
    lambda: frame.lazy().select("query", "item", struct.alias("r")).collect(engine="streaming"),
)


def keyed() -> pl.DataFrame:
    """The order from one Int64 key: score position, item text position."""
    lf = frame.lazy()
    items = lf.select(item.unique()).sort("item").with_row_index("ipos")  # text order of distinct items
    scores = lf.select(score.drop_nulls().unique()).sort("score").with_row_index("spos")
    j = lf.join(items, on="item", how="left").join(scores, on="score", how="left")
    key = pl.col("spos").cast(pl.Int64) * (1 << 32) + pl.col("ipos").cast(pl.Int64)
    return j.select("query", "item", key.rank("ordinal", descending=True).over("query").alias("r")).collect(
        engine="streaming"
    )


b = t("int64 key (unique+sort+join of items and scores), one int window", keyed)
m = a.join(b, on=["query", "item"], suffix="_b")
print("  equal:", ((m["r"] == m["r_b"]) | (m["r"].is_null() & m["r_b"].is_null())).all(), m.height)
