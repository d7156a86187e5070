"""Probe: rows 1-2's floor, a bare Polars plan doing only the five core metrics' unavoidable work.

trec_eval's order (the struct window over score and item text per query),
the per-query counts (retrieved, relevant), the ranks among the hits (AP),
the ideal order of the gains (IDCG), each per-row term as a column, then ONE
group_by of the quantities ndcg@10, map, mrr@10, P_10 and recall_100 read.
No data checks, no exact (Int128) sums, no per-metric arithmetic: a bound,
not a replacement. Timed beside ours (``evaluate(..., per_query=True)``,
default check=True, and with ``num_ret`` alone: the ranking, the counts and
one group_by), pytrec_eval from native dicts, each the minimum of
alternating repetitions in one process.

Usage: ``python benchmarks/scripts/core_floor.py [DATA_DIR] [REPEAT]`` (default bench_perf's
10M-row data set, string ids; written by ``bench_perf.py --only core``). Quoted in
benchmarks/results/perf.md.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import polars as pl
from bench_core import alternating_minima, to_pytrec
from bench_scale import NARROW, NARROW_PYTREC, NARROW_PYTREC_EXTRA

import polars_rankmetrics as prm

DATA = (
    Path(sys.argv[1])
    if len(sys.argv) > 1
    else Path(tempfile.gettempdir()) / "prm-bench-data/rows_10000000_seed0"
)
REPEAT = int(sys.argv[2]) if len(sys.argv) > 2 else 3


def floor_plan(frame: pl.DataFrame) -> pl.LazyFrame:
    """The one ranking, the counts, the ranks among hits and ideal order, one group_by."""
    q = "query"
    score, grade = pl.col("score"), pl.col("relevance").cast(pl.Float64)
    rel = (grade >= 1).fill_null(value=False)
    gain = pl.when(grade > 0).then(grade).otherwise(0.0)
    order = pl.struct(score.alias("k"), pl.col("item").cast(pl.String).alias("i"))
    ranked = frame.lazy().select(
        q,
        pl.when(score.is_not_null()).then(order).rank("ordinal", descending=True).over(q).alias("rank"),
        rel.alias("rel"),
        gain.alias("gain"),
        rel.sum().over(q).alias("R"),
        score.is_not_null().sum().over(q).alias("ret"),
    )
    rank, r, g = pl.col("rank"), pl.col("rel"), pl.col("gain")
    # Only relevant or positive-gain rows are read past this point (what the metrics keep).
    ranked = ranked.filter(r | (g > 0) | (rank == 1)).with_columns(
        pl.when(r & rank.is_not_null()).then(rank).rank("ordinal").over(q).alias("hit"),
        pl.when(g > 0).then(g).rank("ordinal", descending=True).over(q).alias("ideal"),
    )
    rk = rank.cast(pl.Float64)
    terms = {
        "dcg_10": pl.when(rank <= 10).then(g / (rk + 1.0).log(2)),
        "idcg_10": pl.when(pl.col("ideal") <= 10).then(g / (pl.col("ideal").cast(pl.Float64) + 1.0).log(2)),
        "ap": pl.col("hit").cast(pl.Float64) / rk,
        "hits_10": (r & (rank <= 10)).fill_null(value=False),
        "hits_100": (r & (rank <= 100)).fill_null(value=False),
        "rr_10": pl.when(r & (rank <= 10)).then(1.0 / rk),
    }
    ranked = ranked.with_columns(**terms)
    aggs = [pl.col("R").first(), pl.col("ret").first(), pl.col("rr_10").max()]
    aggs += [pl.col(name).sum() for name in terms if name != "rr_10"]
    return ranked.group_by(q).agg(aggs)


def main() -> None:
    """Time the floor, ours and pytrec_eval alternately; print the minima and the ratios."""
    import pytrec_eval  # noqa: PLC0415

    frame = pl.read_parquet(sorted(DATA.glob("*.parquet")))
    qrels, run = to_pytrec(frame)
    measures = {*NARROW_PYTREC.values(), *NARROW_PYTREC_EXTRA}
    plan = floor_plan(frame)
    forms: dict[str, Callable[[], object]] = {
        "floor": plan.collect,
        "ours": lambda: prm.evaluate(frame, NARROW, per_query=True),
        "ours_num_ret_alone": lambda: prm.evaluate(frame, ["num_ret"], per_query=True),
        "pytrec_eval_native": lambda: pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run),
    }
    best = alternating_minima(forms, REPEAT)
    print(f"{frame.height:,} rows, {frame['query'].n_unique():,} queries")
    for name, seconds in best.items():
        print(f"{name}: {seconds:.2f} s, {best['pytrec_eval_native'] / seconds:.2f}x pytrec_eval native")


if __name__ == "__main__":
    main()
