"""Probe: row 3's floor written as per-row columns and bare sums (all_trec_floor.py is the other form).

One ranking (trec_eval's order: the struct window over (score, item text)), the
per-query counts and ranks among subsets (relevant hits, judged non-relevant
items, the ideal order of the gains), then ONE group_by computing each
distinct per-query quantity the all_trec set reads, once: hits at trec_eval's
cutoffs (P_k, recall_k, success_k, relative_P_k share them), precision-at-hit
sums (AP, AP at the cutoffs), DCG and IDCG at the cutoffs, the first hit,
judged counts at 5/10/20, hits within R and its multiples, the bpref/infAP/RBP
sums, and interpolated precision at the 11 recall levels. No per-metric
arithmetic after it, no checks, no exact (Int128) sums: a bound, not a
replacement. Timed beside ours (`evaluate(..., per_query=True)` with the 99
metrics, default check=True) and pytrec_eval from native dicts (all its
measures), each the minimum of alternating repetitions in one process.

Usage: ``python benchmarks/scripts/all_trec_floor_columns.py [DATA_DIR] [REPEAT]`` (default bench_perf's
1M-row data set, string ids; written by ``bench_perf.py --only all_trec``). Quoted in
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
from bench_perf import all_trec_metrics

import polars_rankmetrics as prm

DATA = (
    Path(sys.argv[1])
    if len(sys.argv) > 1
    else Path(tempfile.gettempdir()) / "prm-bench-data/rows_1000000_seed0"
)
REPEAT = int(sys.argv[2]) if len(sys.argv) > 2 else 3
CUTOFFS = (1, 5, 10, 15, 20, 30, 100, 200, 500, 1000)
MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
LEVELS = tuple(i / 10 for i in range(11))


def floor_plan(frame: pl.DataFrame, *, complete: bool = False) -> pl.LazyFrame:
    """The one ranking, the ranks among subsets, one group_by of the distinct quantities.

    With `complete`, also the work the bare floor leaves out and the set's values need:
    float sums made order-independent (each float term cast once to an Int128 fixed-point
    column, every masked sum over it: a plain float sum's bits depend on the engine's row
    order), the three table measures G, ndcg_rel and Rndcg (the events of the items of
    non-zero gain, two running-sum windows, one group_by, joined per query) and rbp_resid's
    sums over the unjudged ranks (windows over every row).
    """
    q = "query"
    score, grade = pl.col("score"), pl.col("relevance").cast(pl.Float64)
    retrieved = score.is_not_null()
    judged, rel = (grade >= 0).fill_null(value=False), (grade >= 1).fill_null(value=False)
    order = pl.struct(score.alias("k"), pl.col("item").cast(pl.String).alias("i"))
    gain = pl.when(grade > 0).then(grade).otherwise(0.0)
    ranked = frame.lazy().select(
        q,
        pl.when(retrieved).then(order).rank("ordinal", descending=True).over(q).alias("rank"),
        rel.alias("rel"),
        judged.alias("judged"),
        gain.alias("gain"),
        rel.sum().over(q).alias("R"),
        retrieved.sum().over(q).alias("ret"),
        (judged & ~rel).sum().over(q).alias("N"),
    )
    rank, r = pl.col("rank"), pl.col("rel")
    if complete:  # rbp_resid: the unjudged ranks' discounts, summed over every row of the query
        unjudged = rank.is_not_null() & ~pl.col("judged")
        discount = (pl.when(unjudged).then(0.9 ** (rank.cast(pl.Float64) - 1.0)) * 2.0**64).cast(pl.Int128)
        ranked = ranked.with_columns(
            discount.sum().over(q).alias("unjudged_sum"), unjudged.any().over(q).alias("has_unjudged")
        )
    ranked = ranked.with_columns(
        pl.when(r & rank.is_not_null()).then(rank).rank("ordinal").over(q).alias("hit"),
        pl.when(pl.col("judged") & ~r & rank.is_not_null())
        .then(rank)
        .rank("ordinal")
        .over(q)
        .alias("nonrel"),
        pl.when(pl.col("gain") > 0)
        .then(pl.col("gain"))
        .rank("ordinal", descending=True)
        .over(q)
        .alias("ideal"),
    )
    hit, rk, g = pl.col("hit"), rank.cast(pl.Float64), pl.col("gain")
    prec = hit.cast(pl.Float64) / rk  # precision at each hit (null elsewhere)
    dcg = g / (rk + 1.0).log(2)
    idcg = g / (pl.col("ideal").cast(pl.Float64) + 1.0).log(2)
    big_r = pl.col("R").cast(pl.Float64)
    # Every per-row term as a column (elementwise, vectorised), then plain sums/maxima per query:
    # Polars aggregates a bare column per group without evaluating an expression group by group.
    terms = {
        "prec": prec,
        "dcg": dcg,
        "idcg": idcg,
        "bpref": pl.col("nonrel").fill_null(0).cast(pl.Float64),
        "rbp": r.cast(pl.Float64) * 0.8 ** (rk - 1.0),
        "judged_ret": (pl.col("judged") & rank.is_not_null()).cast(pl.UInt32),
    }
    for k in CUTOFFS:
        terms[f"hits_{k}"] = (hit <= k).fill_null(value=False).cast(pl.UInt32)
        terms[f"ap_{k}"] = pl.when(rank <= k).then(prec)
        terms[f"dcg_{k}"] = pl.when(rank <= k).then(dcg)
        terms[f"idcg_{k}"] = pl.when(pl.col("ideal") <= k).then(idcg)
    for k in (5, 10, 20):
        terms[f"judged_{k}"] = (pl.col("judged") & (rank <= k)).fill_null(value=False).cast(pl.UInt32)
    for x in MULTIPLES:
        terms[f"rprec_{x}"] = (r & (rank.cast(pl.Float64) <= (big_r * x).round())).fill_null(value=False)
    for x in LEVELS:
        terms[f"iprec_{x}"] = pl.when(hit.cast(pl.Float64) >= (big_r * x).round()).then(prec)
    if complete:
        scaled = {name: (terms[name] * 2.0**64).cast(pl.Int128) for name in ("prec", "dcg", "idcg", "rbp")}
        for name, base in (("ap", "prec"), ("dcg", "dcg"), ("idcg", "idcg")):
            for k in CUTOFFS:
                mask = (pl.col("ideal") if name == "idcg" else rank) <= k
                terms[f"{name}_{k}"] = pl.when(mask).then(pl.col(f"fp_{base}"))
        for name in scaled:
            terms[name] = pl.col(f"fp_{name}")
        ranked = ranked.with_columns(**{f"fp_{n}": e for n, e in scaled.items()})
    ranked = ranked.with_columns(**terms)
    aggs = [
        pl.col("R").first(),
        pl.col("ret").first(),
        hit.max().alias("rel_ret"),
        pl.when(r).then(rank).min().alias("first_hit"),
        *(pl.col(name).max() if name.startswith("iprec") else pl.col(name).sum() for name in terms),
    ]
    if complete:
        ranked = ranked.cache()  # read twice: the per-query sums and the tables
    per_query = ranked.group_by(q).agg(aggs)
    if not complete:
        return per_query
    return per_query.join(_tables(ranked.filter(pl.col("gain") != 0)), on=q, how="left")


def _tables(rows: pl.LazyFrame) -> pl.LazyFrame:
    """G, ndcg_rel and Rndcg's sums from the events of the items of non-zero gain (no join)."""
    q, gain, rank, ideal = "query", pl.col("gain"), pl.col("rank"), pl.col("ideal")
    zero = pl.lit(0.0)
    actual = rows.filter(rank.is_not_null()).select(
        q, rank.alias("pos"), pl.lit(0, pl.UInt64).alias("kind"), gain.alias("g"), gain.alias("a"),
        (gain / (rank.cast(pl.Float64) + 1.0).log(2)).alias("d"), zero.alias("c"), zero.alias("i"),
    )  # fmt: skip
    ideals = rows.filter(ideal.is_not_null()).select(
        q, ideal.alias("pos"), pl.lit(1, pl.UInt64).alias("kind"), zero.alias("g"), zero.alias("a"),
        zero.alias("d"), pl.max_horizontal(gain, 1.0).alias("c"),
        (gain / (ideal.cast(pl.Float64) + 1.0).log(2)).alias("i"),
    )  # fmt: skip
    twice = pl.col("pos").cast(pl.UInt64) * 2
    events = pl.concat([actual, ideals]).with_columns(
        pl.col("a", "d").cum_sum().over(q, order_by=twice + pl.col("kind")),
        pl.col("c", "i").cum_sum().over(q, order_by=twice + 1 - pl.col("kind")),
    )
    a = pl.col("kind") == 0
    g_term = pl.when(a).then(pl.col("g") / (2.0 + pl.col("c") - pl.col("a")).log(2))
    return events.group_by(q).agg(
        (g_term * 2.0**64).cast(pl.Int128).sum().alias("g"),
        (pl.when(a).then(pl.col("d") / pl.col("i")) * 2.0**64).cast(pl.Int128).sum().alias("ndcg_rel"),
        (pl.when(~a).then(pl.col("d") / pl.col("i")) * 2.0**64).cast(pl.Int128).sum().alias("rndcg"),
    )


def main() -> None:
    """Time floor, ours and pytrec_eval alternately; print the minima and the ratios."""
    import pytrec_eval  # noqa: PLC0415

    frame = pl.read_parquet(sorted(DATA.glob("*.parquet")))
    metrics = all_trec_metrics()
    qrels, run = to_pytrec(frame)
    measures = set(pytrec_eval.supported_measures)
    plan = floor_plan(frame)
    complete = floor_plan(frame, complete=True)
    columns = len(plan.collect_schema())
    forms: dict[str, Callable[[], object]] = {
        "floor": plan.collect,
        "floor_streaming": lambda: plan.collect(engine="streaming"),
        "floor_complete": complete.collect,
        "ours": lambda: prm.evaluate(frame, metrics, per_query=True),
        "ours_check_false": lambda: prm.evaluate(frame, metrics, per_query=True, check=False),
        "pytrec_eval": lambda: pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run),
    }
    best = alternating_minima(forms, REPEAT)
    print(f"{frame.height:,} rows, {frame['query'].n_unique():,} queries; floor: {columns} columns per query")
    for name, seconds in best.items():
        print(f"{name}: {seconds:.2f} s, {best['pytrec_eval'] / seconds:.2f}x pytrec_eval")


if __name__ == "__main__":
    main()
