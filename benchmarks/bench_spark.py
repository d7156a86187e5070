"""The Spark adapter against evaluate on the same Parquet, and against Spark's own floor.

One local Spark session (``local[2]`` unless ``--master``), Python workers
limited to one Polars thread each (``spark.executorEnv.POLARS_MAX_THREADS``).
Four paths over one Parquet file, alternated within each repetition so that
a noisy machine hurts all alike; the best time of each is reported:

- ``evaluate``: ``prm.collect(prm.evaluate(pl.scan_parquet(path), METRICS))``;
- Spark's floor: read, ``repartition(n, query)``, an identity ``mapInArrow``
  (the JVM to Arrow to Python hop every adapter pays), written to Spark's
  ``noop`` sink;
- the adapter per query, written to the ``noop`` sink;
- the adapter aggregated (states summed by Spark, the Polars finish), collected.

It also checks that the adapter's means equal evaluate's bit for bit, and
reads the shuffle bytes Spark wrote (its status store).

``--table peer`` times the adapter against Spark's own
``pyspark.ml.evaluation.RankingEvaluator`` on one integer-id frame
(:mod:`bench_spark_peer`); ``--table both`` (the default) runs both tables
in one session::

    python benchmarks/bench_spark.py                    # 1M rows -> results/spark.md
    python benchmarks/bench_spark.py --rows 10000000    # the optional large run
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import polars as pl
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).parent))
from bench_core import make_frame
from bench_spark_peer import peer_table

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark

METRICS = ["ndcg@10", "map", "recip_rank", "P_10", "recall_100"]
RESULTS = Path(__file__).parent / "results" / "spark.md"


def identity(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """Spark's floor: every batch back unchanged."""
    yield from batches


def _timed(work: Callable[[], object], times: list[float]) -> object:
    start = time.perf_counter()
    out = work()
    times.append(time.perf_counter() - start)
    return out


def _shuffle_bytes(spark: object) -> int:
    """Shuffle bytes written by every completed stage so far (Spark UI's REST API)."""
    sc = spark.sparkContext  # type: ignore[attr-defined]
    url = f"{sc.uiWebUrl}/api/v1/applications/{sc.applicationId}/stages?status=complete"
    with urllib.request.urlopen(url) as response:  # noqa: S310  (the local UI)
        return sum(stage["shuffleWriteBytes"] for stage in json.load(response))


def main() -> None:
    """Time the four paths; write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--buckets",
        type=int,
        default=8,
        help="partitions of the repartition by query (spark.sql.shuffle.partitions too); 0: Spark's defaults",
    )
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--table", choices=("floor", "peer", "both"), default="both")
    args = parser.parse_args()
    if args.buckets == 0 and args.table != "peer":
        parser.error("--buckets 0 (Spark's defaults) is for --table peer only")
    warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas")

    from pyspark.sql import SparkSession  # noqa: PLC0415  (after the warning filter)

    # The adapter's plans run the driver's interpreter on a local master; the floor's and
    # RankingEvaluator's Python (none) need the same one.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    builder = (
        SparkSession.builder.master(args.master)
        .config("spark.executorEnv.POLARS_MAX_THREADS", "1")
        .config("spark.driver.memory", "4g")
        .config("spark.ui.showConsoleProgress", "false")
    )
    if args.buckets:  # else Spark's 200 shuffle partitions (adaptive execution coalesces them)
        builder = builder.config("spark.sql.shuffle.partitions", str(args.buckets))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    tmp = Path(tempfile.mkdtemp(prefix="bench_spark_"))
    load = os.getloadavg()
    lines = [
        "# The Spark adapter: against Spark's RankingEvaluator, evaluate and Spark's own floor",
        "",
        (
            f"`python benchmarks/bench_spark.py --rows {args.rows} --repeat {args.repeat} "
            f"--buckets {args.buckets} --table {args.table}`: master {args.master}, "
            f"POLARS_MAX_THREADS=1 in the workers; pyspark {spark.version}, polars {pl.__version__}, "
            f"Python {platform.python_version()}, {os.cpu_count()} cores shared with other work "
            f"(load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the start)."
        ),
        "",
    ]
    if args.table != "floor":
        lines += peer_table(spark, tmp / "peer.parquet", args.rows, args.repeat, args.buckets or None)
    if args.table != "peer":
        lines += floor_table(spark, tmp / "frame.parquet", args)
    load = os.getloadavg()
    lines.append(f"Load average at the end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}.")
    lines.append("")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}")
    spark.stop()


def floor_table(spark: object, file: Path, args: argparse.Namespace) -> list[str]:
    """The adapter against evaluate and Spark's floor (string ids): the table's Markdown lines."""
    path = str(file)
    make_frame(args.rows).write_parquet(path, row_group_size=250_000)
    sdf = spark.read.parquet(path)  # type: ignore[attr-defined]

    def floor() -> None:
        sdf.repartition(args.buckets, "query").mapInArrow(identity, sdf.schema).write.format("noop").mode(
            "overwrite"
        ).save()

    def adapter_per_query() -> None:
        prm_spark.evaluate(sdf, METRICS, per_query=True, buckets=args.buckets).write.format("noop").mode(
            "overwrite"
        ).save()

    paths: dict[str, Callable[[], object]] = {
        "evaluate(pl.scan_parquet) (Polars alone, all cores)": lambda: prm.collect(
            prm.evaluate(pl.scan_parquet(path), METRICS)
        ),
        "Spark floor: repartition + identity mapInArrow": floor,
        "spark.evaluate(per_query=True) -> noop sink": adapter_per_query,
        "spark.evaluate (means) -> collect": lambda: prm_spark.collect(
            prm_spark.evaluate(sdf, METRICS, buckets=args.buckets)
        ),
    }
    floor()  # warm-up: the JVM's code paths and the Python workers start once, for every path
    times: dict[str, list[float]] = {label: [] for label in paths}
    shuffle: dict[str, int] = {}
    results: dict[str, object] = {}
    for _ in range(args.repeat):
        for label, run in paths.items():
            before = _shuffle_bytes(spark)
            results[label] = _timed(run, times[label])
            time.sleep(1.0)  # the status store is updated by a listener, shortly after the job
            shuffle[label] = _shuffle_bytes(spark) - before
    means = results["spark.evaluate (means) -> collect"]
    assert isinstance(means, pl.DataFrame)
    assert means.equals(results["evaluate(pl.scan_parquet) (Polars alone, all cores)"]), "means differ"  # type: ignore[arg-type]

    best = {label: min(t) for label, t in times.items()}
    floor_s = best["Spark floor: repartition + identity mapInArrow"]
    for label, t in best.items():
        print(f"{label}: {t:.2f} s, {t / floor_s:.2f}x floor, shuffle {shuffle[label] / args.rows:.1f} B/row")
    return [
        "## Against evaluate and Spark's own floor",
        "",
        (
            f"{args.rows:,} rows ({args.rows // 100:,} queries x 100, string ids) in one Parquet file, "
            f"metrics {', '.join(METRICS)}; best of {args.repeat} alternating runs. The adapter's "
            "means were checked equal to evaluate's, bit for bit."
        ),
        "",
        "| path | best (s) | / Spark floor | shuffle write (bytes/row) |",
        "| --- | ---: | ---: | ---: |",
        *(
            f"| {label} | {t:.2f} | {t / floor_s:.2f} | {shuffle[label] / args.rows:.1f} |"
            for label, t in best.items()
        ),
        "",
    ]


if __name__ == "__main__":
    main()
