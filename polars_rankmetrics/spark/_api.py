"""The adapter's public names: evaluate (a lazy Spark DataFrame) and collect (to Polars)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl
from pyspark.sql import DataFrame

from polars_rankmetrics._engine import Aggregation, MetricLike
from polars_rankmetrics._schema import ColumnsLike
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.spark._errors import reraised
from polars_rankmetrics.spark._evaluate import run

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from polars_rankmetrics.conventions import ConventionOptions

__all__ = ["collect", "evaluate"]


def evaluate(  # noqa: PLR0913
    sdf: DataFrame,
    metrics: MetricLike | Sequence[MetricLike],
    *,
    by: str | Sequence[str] | None = None,
    per_query: bool = False,
    columns: ColumnsLike = None,
    conventions: Conventions | str | None = None,
    check: bool = True,
    buckets: int | None = None,
    aggregate: Aggregation = "mean",
    qrels: DataFrame | None = None,
    **overrides: Unpack[ConventionOptions],
) -> DataFrame:
    """Evaluate rankings held in a Spark DataFrame, bit for bit as :func:`polars_rankmetrics.evaluate`.

    Spark repartitions the rows by (by..., query), so that each query's rows
    land in one partition; each partition is read whole by one Python call
    (``mapInArrow``) that runs the library's Polars plan on it. Per query,
    that call's rows are the result. Aggregated, each call returns
    mergeable states per `by` group (counts, and exact integer sums as
    ``Decimal(38, 0)``, with :func:`polars_rankmetrics.evaluate`'s precision
    bound, see its Notes), and one last Polars call, on one partition, merges
    them exactly (a mean's sums by their top band) and turns them into the
    metrics. Nothing runs until an
    action: the result is a lazy Spark DataFrame to join, write or collect.

    Parameters
    ----------
    sdf
        One row per (query, item), with the columns of :func:`polars_rankmetrics.evaluate`'s
        frame contract (query, item, score or rank, relevance; see :class:`Columns`).
        Only the columns the evaluation reads are shuffled.
    metrics
        Names or :class:`Metric` objects, as for :func:`polars_rankmetrics.evaluate`.
        Catalog metrics come from small tables of sums (counts per item
        and list length, or fixed-point and integer sums per `by` group)
        that each partition writes and Spark merges, bounded by the groups
        and the distinct items, never by the lists; one last Polars call
        computes the metrics from them, as :func:`polars_rankmetrics.evaluate`
        does (the same bits).
    by, per_query, columns, conventions, **overrides
        As for :func:`polars_rankmetrics.evaluate`.
    check
        Check the data in each partition, as :func:`polars_rankmetrics.evaluate` does
        (null ids, NaN scores, duplicate (by..., query, item) rows: a
        duplicate's copies share their partition). A failed check fails the
        Spark job; :func:`collect` raises it as :class:`InvalidDataError`.
    buckets
        How many partitions the rows are spread over (each one is read whole
        into one Python worker's memory); None uses ``spark.sql.shuffle.partitions``.
    aggregate
        As for :func:`polars_rankmetrics.evaluate`: ``"mean"`` (each metric's
        own rule), ``"min"``, ``"max"`` (Spark merges the partitions'
        extremes) or ``"std"`` (ddof=1, from exact integer sums of the values
        and their squares, summed by Spark as ``Decimal(38, 0)``): the bits of
        :func:`polars_rankmetrics.evaluate`; values too large for those sums
        (about 2e9 over the queries times the largest |value|) raise
        :class:`InvalidDataError` instead of a wrapped number. ``"median"`` raises
        :class:`InvalidParameterError`: a median is no mergeable state (the
        median of the partitions' medians is not the median); evaluate with
        ``per_query=True`` and take the median of its rows.
    qrels
        The judgments (query, item, relevance) as a Spark DataFrame, when
        `sdf` is the run alone: Spark joins them to it as
        :func:`polars_rankmetrics.join_run_qrels` does (a full outer join on
        (by..., query, item), every `by` group judged against all of them),
        so the numbers equal those of :func:`polars_rankmetrics.evaluate` on
        ``join_run_qrels(run, qrels, by=by)``. A pair judged twice is
        reported by the check as a duplicate row.

    Returns
    -------
    pyspark.sql.DataFrame
        Per query: by-keys, query, then the metrics, one row per evaluated
        (by..., query), in no particular order. Aggregated: one row per `by`
        group (a single partition, sorted by `by`). Column types are those of
        :func:`polars_rankmetrics.evaluate` in Spark's terms (Float64 as double, Int64 as bigint).

    Raises
    ------
    RankMetricsError
        Before any Spark job: missing or mistyped columns, a bad parameter,
        an unknown metric, a catalog metric with `per_query` (a dry run of the
        worker on no rows, on the driver).

    Examples
    --------
    >>> from pyspark.sql import SparkSession
    >>> from polars_rankmetrics import spark as prm_spark
    >>> session = SparkSession.builder.master("local[2]").getOrCreate()
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "d"],
    ...     "score": [0.9, 0.5, 0.1, 0.8, 0.2], "relevance": [0, 1, 1, 1, None]})
    >>> sdf = session.createDataFrame(df.to_arrow())
    >>> result = prm_spark.evaluate(sdf, ["ndcg@10", "P_1", "recip_rank"])
    >>> prm_spark.collect(result).with_columns(pl.all().round(4))
    shape: (1, 3)
    ┌─────────┬─────┬────────────┐
    │ ndcg@10 ┆ P_1 ┆ recip_rank │
    │ ---     ┆ --- ┆ ---        │
    │ f64     ┆ f64 ┆ f64        │
    ╞═════════╪═════╪════════════╡
    │ 0.8467  ┆ 0.5 ┆ 0.75       │
    └─────────┴─────┴────────────┘
    """
    return run(
        sdf,
        metrics,
        by=by,
        per_query=per_query,
        columns=columns,
        conventions=conventions,
        check=check,
        buckets=buckets,
        aggregate=aggregate,
        qrels=qrels,
        **overrides,
    )


def collect(sdf: DataFrame) -> pl.DataFrame:
    """Collect a Spark DataFrame into Polars, raising a worker's library error as the library's class.

    A failed check inside a Spark worker fails the job with pyspark's
    ``PythonException`` (the worker's traceback as text); this raises the
    library's error (:class:`InvalidDataError` ...) with its message alone.

    Parameters
    ----------
    sdf
        Typically what :func:`evaluate` returned.

    Returns
    -------
    pl.DataFrame

    Raises
    ------
    RankMetricsError
        A worker raised it (bad data found by `check`).

    Examples
    --------
    >>> from pyspark.sql import SparkSession
    >>> from polars_rankmetrics import spark as prm_spark
    >>> session = SparkSession.builder.master("local[2]").getOrCreate()
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["a", "a"], "score": [0.9, 0.5], "relevance": [1, 0]})
    >>> prm_spark.collect(prm_spark.evaluate(session.createDataFrame(df.to_arrow()), ["map"]))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    polars_rankmetrics.exceptions.InvalidDataError: ...duplicate...
    """
    table = reraised(sdf.toArrow)
    out = pl.from_arrow(table)
    assert isinstance(out, pl.DataFrame)
    return out
