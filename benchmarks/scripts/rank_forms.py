"""One-off probe: forms of trec_eval's order (score desc, item text desc) per query, timed alone.

Usage: ``python benchmarks/scripts/rank_forms.py DATA_DIR [REPEAT]`` where DATA_DIR holds
bench_scale's Parquet parts (e.g. /tmp/prm-bench-data/rows_10000000_seed0). Prints the minimum
of REPEAT runs of each form, and checks that the exact alternative equals the struct rank.
Figures quoted in benchmarks/results/perf.md.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import polars as pl


def main(argv: Sequence[str]) -> None:
    """Time each form on the data set `argv[0]`, `argv[1]` times (default 3)."""
    frame = pl.read_parquet(f"{argv[0]}/*.parquet")
    repeat = int(argv[1]) if len(argv) > 1 else 3
    keys = ["query"]
    score, item = pl.col("score"), pl.col("item").cast(pl.String)

    def timed(label: str, expr: pl.Expr) -> pl.Series:
        best, out = float("inf"), pl.DataFrame()
        for _ in range(repeat):
            start = time.perf_counter()
            out = frame.lazy().select(expr.alias("r")).collect()
            best = min(best, time.perf_counter() - start)
        print(f"{label}: {best:.2f} s", flush=True)
        return out["r"]

    struct = pl.when(score.is_not_null()).then(pl.struct(score.alias("k"), item.alias("i")))
    exact = timed("struct rank (what prepare does)", struct.rank("ordinal", descending=True).over(keys))
    timed(
        "float ordinal rank (ties by row order: not exact)", score.rank("ordinal", descending=True).over(keys)
    )
    timed("float min rank", score.rank("min", descending=True).over(keys))
    tie_break = item.rank("ordinal", descending=True).over([*keys, "score"])
    other = timed(
        "min rank + text rank inside (query, score)",
        score.rank("min", descending=True).over(keys) + tie_break - 1,
    )
    same = ((exact == other) | (exact.is_null() & other.is_null())).all()
    print(f"  equal to the struct rank: {same}")
    start = time.perf_counter()
    frame.sort(["query", "score", "item"], descending=[False, True, True], nulls_last=True)
    print(f"global sort (query, score desc, item desc): {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
