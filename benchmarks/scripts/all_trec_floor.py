"""Issue 17, row 3: what a bare Polars plan doing only the all_trec set's unavoidable work costs.

The floor is one ranking (trec_eval's struct order), one ideal-order window
over the gains, and one ``group_by(query).agg`` computing every distinct
per-query quantity the all_trec set reads (counts, hits at each trec_eval
cutoff, AP's precision-at-hit sum, the first hit, DCG and IDCG at each
cutoff, R-precision's hits, bpref's non-relevant-above counts); each
trec_eval measure is then arithmetic on one row per query. It is timed
beside ``prm.evaluate(frame, all_trec, per_query=True)`` and pytrec_eval
(native dicts, every measure it supports) in the same process, alternating,
min of ``--repeat``.

Usage::

    python benchmarks/scripts/all_trec_floor.py --rows 1000000 --repeat 3
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_core import to_pytrec
from bench_perf import all_trec_metrics
from bench_scale import dataset

import polars_rankmetrics as prm

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def floor_plan(frame: pl.DataFrame) -> pl.LazyFrame:
    """The unavoidable work of the all_trec set per query, as one bare Polars plan."""
    score, grade = pl.col("score"), pl.col("relevance")
    rel = (grade >= 1).fill_null(value=False)
    order = pl.when(score.is_not_null()).then(pl.struct(score.alias("k"), pl.col("item").alias("i")))
    gain = pl.when(grade > 0).then(grade).otherwise(0).cast(pl.Float64)
    ranked = frame.lazy().with_columns(
        order.rank("ordinal", descending=True).over("query").alias("r"),
        rel.alias("rel"),
        gain.alias("g"),
        pl.when(gain > 0).then(gain).rank("ordinal", descending=True).over("query").alias("ir"),
    )
    r, hit = pl.col("r"), pl.col("rel") & pl.col("r").is_not_null()
    hit_rank = hit.cast(pl.UInt32).cum_sum()  # rows are not in rank order: an upper bound of the work
    discount = 1.0 / (r.cast(pl.Float64) + 1.0).log(2)
    ideal = 1.0 / (pl.col("ir").cast(pl.Float64) + 1.0).log(2)
    num_rel = pl.col("rel").sum()
    aggs = [
        r.count().alias("num_ret"),
        num_rel.alias("num_rel"),
        hit.sum().alias("num_rel_ret"),
        pl.when(hit).then(hit_rank / r).sum().alias("ap_sum"),
        r.filter(hit).min().alias("first_hit"),
        (hit & (r <= num_rel)).sum().alias("rprec_hits"),
        pl.when(hit).then(r - hit_rank).sum().alias("bpref_above"),
        (pl.col("g") * discount).sum().alias("dcg"),
        (pl.col("g") * ideal).sum().alias("idcg"),
    ]
    for k in CUTOFFS:
        aggs += [
            (hit & (r <= k)).sum().alias(f"hits_{k}"),
            pl.when(r <= k).then(pl.col("g") * discount).sum().alias(f"dcg_{k}"),
            pl.when(pl.col("ir") <= k).then(pl.col("g") * ideal).sum().alias(f"idcg_{k}"),
            pl.when(hit & (r <= k)).then(hit_rank / r).sum().alias(f"ap_sum_{k}"),
        ]
    return ranked.group_by("query").agg(aggs)


def _best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Time the floor, ours and pytrec_eval on one data set; print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "prm-bench-data")
    args = parser.parse_args()
    import pytrec_eval  # noqa: PLC0415

    frame = pl.read_parquet(sorted(dataset(args.data, args.rows, int_ids=False).glob("*.parquet")))
    metrics = all_trec_metrics()
    qrels, run = to_pytrec(frame)
    measures = set(pytrec_eval.supported_measures)
    jobs = {
        "floor: one ranking + one group_by of the distinct quantities": lambda: floor_plan(frame).collect(),
        f"ours: prm.evaluate(all_trec, {len(metrics)} metrics, per_query=True)": lambda: prm.evaluate(
            frame, metrics, per_query=True
        ),
        "pytrec_eval native, every measure": lambda: pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(
            run
        ),
    }
    best = {name: float("inf") for name in jobs}
    for _ in range(args.repeat):  # alternate the methods
        for name, job in jobs.items():
            best[name] = min(best[name], _best(job, 1))
    pytrec = best["pytrec_eval native, every measure"]
    print(f"{args.rows:,} rows, min of {args.repeat} alternating runs\n")
    print("| method | s | / pytrec_eval |\n| --- | ---: | ---: |")
    for name, seconds in best.items():
        print(f"| {name} | {seconds:.2f} | {seconds / pytrec:.2f} |")


if __name__ == "__main__":
    main()
