"""The Spark adapter against Spark's own ``pyspark.ml.evaluation.RankingEvaluator``, on one frame.

Called by ``bench_spark.py --table peer`` (or ``both``), in its session. The
frame is ``bench_core.make_frame(rows, int_ids=True)`` with every score
made unique (a jitter below the rounding): RankingEvaluator reads arrays a
user sorts by score, and a tie's order there (the array sort's) is not
trec_eval's. The five metrics RankingEvaluator shares with us, at k = 10:

==========================  ==========================================
RankingEvaluator            here (gain="binary", ap_denominator="min_k_relevant")
==========================  ==========================================
ndcgAtK                     ndcg@10 (binary gain; ideal over min(R, k))
meanAveragePrecision        map (divides by R, the relevant items)
meanAveragePrecisionAtK     map@10 (divides by min(R, k))
precisionAtK                P@10 (divides by k, whatever was retrieved)
recallAtK                   recall@10
==========================  ==========================================

Every query counts on both sides (a query without a relevant item scores
0: Spark's empty label array, our ``no_relevant="count"``). Paths, alternated
within each repetition:

- the adapter: ``spark.evaluate(sdf, METRICS, ...)`` on the long frame, collected;
- RankingEvaluator end to end: one ``groupBy(query)`` building the arrays
  (predictions sorted by score, labels = the relevant items), cached as a
  user would, then one ``evaluate`` per metric (its API takes one), unpersisted;
- RankingEvaluator from the arrays already cached: the five ``evaluate`` calls;
- Spark's floor on the same frame: repartition + identity ``mapInArrow``, and the
  repartition alone (written to the ``noop`` sink: no Python);
- Spark's own SQL computing the five numbers with no Python at all (:func:`sql_values`): one
  window by query (trec_eval's order: score, then the item's text, descending) and one
  ``groupBy``, the least any evaluation of the long frame does on Spark.

The values are checked equal (within 1e-12: Spark sums a double mean) before timing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import polars as pl
import pyarrow as pa
from bench_core import make_frame

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark

OURS = ["ndcg@10", "map", "map@10", "P@10", "recall@10"]
THEIRS = ["ndcgAtK", "meanAveragePrecision", "meanAveragePrecisionAtK", "precisionAtK", "recallAtK"]
CONVENTIONS = prm.Conventions(gain="binary", ap_denominator="min_k_relevant")
K = 10


def frame(rows: int) -> pl.DataFrame:
    """make_frame's integer-id frame with unique scores (the jitter is below its 3-decimal rounding)."""
    df = make_frame(rows, int_ids=True)
    jitter = pl.int_range(pl.len()).shuffle(seed=1).cast(pl.Float64) / (pl.len() * 10_000.0)
    return df.with_columns(score=pl.col("score") + jitter)


def arrays(sdf: object) -> object:
    """RankingEvaluator's input as a user builds it: one groupBy, predictions by score, relevant labels."""
    from pyspark.sql import functions as F  # noqa: N812, PLC0415

    item = F.col("item").cast("double")
    ranked = F.when(F.col("score").isNotNull(), F.struct(F.col("score"), item.alias("item")))
    return (
        sdf.groupBy("query")  # type: ignore[attr-defined]
        .agg(
            F.sort_array(F.collect_list(ranked), asc=False).alias("ranked"),
            F.collect_list(F.when(F.col("relevance") >= 1, item)).alias("label"),
        )
        .select(F.col("ranked.item").alias("prediction"), "label")
    )


def spark_values(cached: object) -> dict[str, float]:
    """RankingEvaluator's five numbers from the arrays, one evaluate (one job) each."""
    from pyspark.ml.evaluation import RankingEvaluator  # noqa: PLC0415

    out = {}
    for ours, theirs in zip(OURS, THEIRS, strict=True):
        evaluator = RankingEvaluator(predictionCol="prediction", labelCol="label", metricName=theirs, k=K)
        out[ours] = evaluator.evaluate(cached)  # type: ignore[arg-type]
    return out


def sql_values(sdf: object) -> dict[str, float]:
    """The five numbers in Spark's own SQL, no Python worker: one ranking window, one groupBy, the mean.

    Not exact as ours is (double sums in Spark's order): a floor, checked within 1e-12.
    """
    from pyspark.sql import Window  # noqa: PLC0415
    from pyspark.sql import functions as F  # noqa: N812, PLC0415

    order = Window.partitionBy("query").orderBy(
        F.col("score").desc_nulls_last(), F.col("item").cast("string").desc()
    )
    relevant = (F.coalesce(F.col("relevance"), F.lit(-1)) >= 1).cast("int")
    rank = F.col("rank")
    ranked = (
        sdf.select("query", "score", "item", relevant.alias("rel"))  # type: ignore[attr-defined]
        .withColumn("rank", F.when(F.col("score").isNotNull(), F.row_number().over(order)))
        .withColumn(
            "hits", F.sum("rel").over(order.rowsBetween(Window.unboundedPreceding, Window.currentRow))
        )
    )
    hit, top = (F.col("rel") == 1) & rank.isNotNull(), (F.col("rel") == 1) & (rank <= K)
    ideal = f"aggregate(sequence(1, greatest(least(sum(rel), {K}), 1)), 0D, (a, i) -> a + 1D / log2(i + 1D))"
    per_query = ranked.groupBy("query").agg(
        F.sum("rel").alias("R"),
        F.sum(F.when(top, 1.0 / F.log2(rank + 1.0))).alias("dcg"),
        F.expr(ideal).alias("idcg"),
        F.sum(F.when(hit, F.col("hits") / rank)).alias("ap"),
        F.sum(F.when(top, F.col("hits") / rank)).alias("ap_k"),
        F.sum(top.cast("int")).alias("hits_k"),
    )
    n_rel, judged = F.col("R"), F.col("R") > 0

    def share(total: str, of: object) -> object:
        return F.when(judged, F.coalesce(F.col(total), F.lit(0.0)) / of).otherwise(0.0)

    values = per_query.select(
        share("dcg", F.col("idcg")).alias("ndcg@10"),
        share("ap", n_rel).alias("map"),
        share("ap_k", F.least(n_rel, F.lit(K))).alias("map@10"),
        (F.col("hits_k") / float(K)).alias("P@10"),
        share("hits_k", n_rel).alias("recall@10"),
    )
    return values.agg(*(F.avg(name).alias(name) for name in OURS)).collect()[0].asDict()


def tree_cpu() -> float:
    """CPU seconds of this process and all its descendants (the JVM, Spark's Python workers), Linux /proc.

    utime + stime + cutime + cstime of each: a reaped child's time moves into its parent's
    cutime, so the sum only grows. On a loaded machine, CPU time is steadier than wall time.
    """
    ticks = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            stats[int(entry.name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    mine, grew = {os.getpid()}, True
    while grew:
        more = {pid for pid, (parent, _) in stats.items() if parent in mine} - mine
        mine |= more
        grew = bool(more)
    total = sum(stats[pid][1] for pid in mine if pid in stats)
    return total / ticks


Times = dict[str, list[tuple[float, float]]]  # label -> (wall s, CPU s) per run


def _alternate(paths: dict[str, Callable[[], object]], times: Times, repeat: int) -> None:
    """Run every path in turn, `repeat` times, appending each (wall, CPU) time to `times`."""
    for _ in range(repeat):
        for label, run in paths.items():
            cpu, start = tree_cpu(), time.perf_counter()
            run()
            times[label].append((time.perf_counter() - start, tree_cpu() - cpu))


def peer_table(spark: object, path: Path, rows: int, repeat: int, buckets: int | None) -> list[str]:
    """Time the four paths on `rows` rows written to `path`; the table's Markdown lines."""
    frame(rows).write_parquet(path, row_group_size=250_000)
    sdf = spark.read.parquet(str(path))  # type: ignore[attr-defined]

    def ours() -> dict[str, float]:
        out = prm_spark.collect(prm_spark.evaluate(sdf, OURS, conventions=CONVENTIONS, buckets=buckets))
        return out.row(0, named=True)

    def end_to_end() -> dict[str, float]:
        built = arrays(sdf).cache()  # type: ignore[attr-defined]
        try:
            return spark_values(built)
        finally:
            built.unpersist(blocking=True)

    def identity(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        yield from batches  # a local function: pickled by value (workers cannot import this module)

    def floor() -> None:
        moved = sdf.repartition(buckets, "query") if buckets else sdf.repartition("query")
        mapped = moved.mapInArrow(identity, sdf.schema)
        mapped.write.format("noop").mode("overwrite").save()

    def shuffle() -> None:
        moved = sdf.repartition(buckets, "query") if buckets else sdf.repartition("query")
        moved.write.format("noop").mode("overwrite").save()

    mine = "polars_rankmetrics.spark.evaluate (long frame -> collected means)"
    from_cache = "RankingEvaluator from cached arrays (5 evaluates)"
    first: dict[str, Callable[[], object]] = {
        mine: ours,
        "RankingEvaluator end to end (groupBy arrays, cache, 5 evaluates)": end_to_end,
        "Spark floor: repartition + identity mapInArrow": floor,
        "Spark's repartition alone (no Python)": shuffle,
        "Spark's own SQL, no Python: one ranking window + one groupBy (a floor)": lambda: sql_values(sdf),
    }
    expected = prm.evaluate(pl.read_parquet(path), OURS, conventions=CONVENTIONS).row(0, named=True)
    got, theirs = ours(), end_to_end()
    assert got == expected, (got, expected)  # the adapter's means: evaluate's bits
    floor_values = sql_values(sdf)
    for name in OURS:
        assert abs(got[name] - theirs[name]) <= 1e-12, (name, got[name], theirs[name])
        assert abs(got[name] - floor_values[name]) <= 1e-12, (name, got[name], floor_values[name])
    floor()  # warm-up
    times: Times = {label: [] for label in [*first, from_cache]}
    _alternate(first, times, repeat)
    # Apart: Spark's cache matches plans, so the end-to-end path would reuse (and unpersist) these arrays.
    cached = arrays(sdf).cache()  # type: ignore[attr-defined]
    cached.count()
    _alternate({from_cache: lambda: spark_values(cached), mine: ours}, times, repeat)
    cached.unpersist(blocking=True)
    best = {label: min(w for w, _ in t) for label, t in times.items()}
    cpu = {label: min(c for _, c in t) for label, t in times.items()}
    for label, t in best.items():
        runs = ", ".join(f"{w:.2f}" for w, _ in times[label])
        print(f"{label}: {t:.2f} s ({runs}), {t / best[mine]:.2f}x ours; CPU {cpu[label]:.2f} s")
    values = ", ".join(f"{n} {got[n]:.6f}" for n in OURS)
    return [
        "## Against Spark's own RankingEvaluator",
        "",
        (
            f"{rows:,} rows ({rows // 100:,} queries x 100, integer ids, unique scores, about 30% judged "
            f"0-3, relevant = grade >= 1), one Parquet file, `buckets={buckets}` (None: Spark's "
            f"spark.sql.shuffle.partitions, 200 by default, coalesced by adaptive execution). Best of {repeat} "
            "alternating runs in one session: the adapter, RankingEvaluator end to end and the floor "
            f"alternate {repeat} times, then (apart, since Spark's cache matches plans) the cached "
            f"arrays' evaluates and the adapter another {repeat} times. Metrics: ndcg@10, map, map@10, "
            "P@10, recall@10 under `Conventions(gain='binary', ap_denominator='min_k_relevant')`; "
            "RankingEvaluator's ndcgAtK, meanAveragePrecision, meanAveragePrecisionAtK, precisionAtK, "
            f"recallAtK (k=10): checked equal within 1e-12 before timing ({values}); the adapter's "
            "means equal `prm.evaluate`'s bit for bit. CPU: the least CPU seconds of one run, summed "
            "over the driver, the JVM and Spark's Python workers (/proc), steadier than wall time "
            "on a loaded machine."
        ),
        "",
        "| path | best wall (s) | all runs (s) | / ours (wall) | CPU (s) | / ours (CPU) |",
        "| --- | ---: | --- | ---: | ---: | ---: |",
        *(
            f"| {label} | {t:.2f} | {', '.join(f'{w:.2f}' for w, _ in times[label])} | "
            f"{t / best[mine]:.2f} | {cpu[label]:.2f} | {cpu[label] / cpu[mine]:.2f} |"
            for label, t in best.items()
        ),
        "",
    ]
