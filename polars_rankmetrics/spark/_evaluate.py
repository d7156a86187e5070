"""evaluate() on a Spark DataFrame: Spark moves rows and sums states, Polars computes every number."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import polars as pl
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F  # noqa: N812  (pyspark's own convention)
from pyspark.sql.pandas.types import to_arrow_schema
from pyspark.sql.types import StructType

from polars_rankmetrics import _engine
from polars_rankmetrics._engine import MetricLike
from polars_rankmetrics._request import request
from polars_rankmetrics._schema import Columns
from polars_rankmetrics._spec import merged_as
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.spark._arrow import polars_schema, positional, spark_schema
from polars_rankmetrics.spark._join import joined
from polars_rankmetrics.spark._worker import CountsFinish, Finish, Partition, exact_columns

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from polars_rankmetrics._request import EvaluateOptions

__all__ = ["run"]


def col(name: str) -> Column:
    """A column by its exact name (dots and backticks in it quoted)."""
    return F.col("`" + name.replace("`", "``") + "`")


def _needed(sdf: DataFrame, cols: Columns, by: tuple[str, ...], inputs: Sequence[str] = ()) -> list[str]:
    """The input columns the evaluation reads (the families' per-row inputs too): only they are shuffled."""
    wanted = [*by, cols.query, cols.item, cols.score, cols.rank, cols.relevance, cols.intent, *inputs]
    return [name for name in dict.fromkeys(wanted) if name in sdf.columns]


def run(
    sdf: DataFrame,
    metrics: MetricLike | Sequence[MetricLike],
    *,
    buckets: int | None,
    **options: Unpack[EvaluateOptions],
) -> DataFrame:
    """The lazy Spark plan of :func:`polars_rankmetrics.spark.evaluate` (see there)."""
    if not isinstance(sdf, DataFrame):
        raise InvalidParameterError.out_of_domain("sdf", "a pyspark.sql.DataFrame", type(sdf).__name__)
    if buckets is not None and (isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 1):
        raise InvalidParameterError.out_of_domain("buckets", "a positive integer or None", buckets)
    req = request(metrics, None, "on Spark, from its partitions", **options)
    cols, keys_by, resolved, requested = req.columns, req.by, req.conventions, req.metrics
    per_query, check, aggregate = req.per_query, req.check, req.aggregate
    if req.qrels is not None:
        sdf = joined(sdf, req.qrels, cols, keys_by)
    catalogs = _engine.catalog_names(requested)
    scoped = [(n, m) for n, m in requested if n not in catalogs]
    # Catalog metrics: every family has a mergeable state, tables of sums Spark merges.
    catalog = [(n, m) for n, m in requested if n in catalogs]
    inputs = _engine.input_columns(scoped)
    sdf = sdf.select(*(col(name) for name in _needed(sdf, cols, keys_by, inputs)))
    schema_in = polars_schema(sdf.schema)
    # The dry runs come first: a bad request fails here, before Spark sees a plan.
    workers = []
    if scoped or not catalogs:
        workers.append(
            _dry_run(Partition(scoped, cols, keys_by, resolved, per_query, check, schema_in, how=aggregate))
        )
    if catalog:
        part = Partition(catalog, cols, keys_by, resolved, per_query, check, schema_in, counts=True)
        workers.append(_dry_run(part))
    keys = [col(name) for name in (*keys_by, cols.query)]
    parts = positional(sdf.repartition(buckets, *keys) if buckets else sdf.repartition(*keys))
    with _driver_python(sdf):
        results = [_route(w)(parts, w, schema) for w, schema in workers]
    out = results[0]
    for other in results[1:]:
        # Catalog metrics cover every ranked list, so a group may lack query-scope results.
        out = out.join(other, on=list(keys_by), how="full") if keys_by else out.crossJoin(other)
    if len(results) > 1:
        out = out.select(*(col(name) for name in (*keys_by, *(name for name, _ in requested))))
        out = out.orderBy(*(col(name) for name in keys_by)) if keys_by else out
    return out


def _route(worker: Partition) -> Callable[[DataFrame, Partition, StructType], DataFrame]:
    """How a worker's output becomes the metrics: merged states, or merged tables of sums."""
    return _counted if worker.counts else _scoped


@contextlib.contextmanager
def _driver_python(sdf: DataFrame) -> Iterator[None]:
    """On a local master, the plan's Python workers run the driver's interpreter.

    Spark starts them with ``PYSPARK_PYTHON``, else ``python3`` on the PATH:
    a script run as ``venv/bin/python script.py`` without activating the venv
    would fail in the workers with "No module named polars". Unless the user
    chose an interpreter (``PYSPARK_PYTHON`` or ``spark.pyspark.python``),
    the functions this plan ships name ``sys.executable``; the session's
    setting is restored after, so nothing else of the user's changes.
    """
    context = sdf.sparkSession.sparkContext
    chosen = os.environ.get("PYSPARK_PYTHON") or context.getConf().get("spark.pyspark.python")
    if chosen or not str(context.master).startswith("local"):
        yield
        return
    before = context.pythonExec
    context.pythonExec = sys.executable
    try:
        yield
    finally:
        context.pythonExec = before


def _dry_run(worker: Partition) -> tuple[Partition, StructType]:
    """The worker on no rows, on the driver, and the output's Spark schema.

    It raises the library's schema, metric and parameter errors before any job.
    """
    schema = spark_schema(worker.compute(pl.DataFrame(schema=worker.schema_in)))
    return dataclasses.replace(worker, schema_out=to_arrow_schema(schema)), schema


def _scoped(parts: DataFrame, worker: Partition, out_schema: StructType) -> DataFrame:
    """Per-query rows, or the query-scope metrics per `by` group from states Spark sums."""
    mapped = parts.mapInArrow(worker, out_schema)
    if worker.per_query:
        return mapped
    keys_by = worker.by
    # States: every partition's rows, merged by one Polars finish (evaluate's own merge: a
    # mean's banded sums merge by their top band, which no Spark sum does). The states are
    # few: one row per `by` group and partition. repartition(1), not coalesce(1): a coalesce
    # would pull the workers' evaluation into that one task too.
    states = polars_schema(out_schema)
    finish = Finish(worker.requested, keys_by, exact_columns(states), states, how=worker.how)
    final_schema = spark_schema(finish.compute(pl.DataFrame(schema=finish.schema_in)))
    finish = dataclasses.replace(finish, schema_out=to_arrow_schema(final_schema))
    return positional(mapped.repartition(1)).mapInArrow(finish, final_schema)


def _counted(parts: DataFrame, worker: Partition, tables_schema: StructType) -> DataFrame:
    """The catalog metrics per `by` group: tables of sums per partition, merged by Spark, then Polars.

    Spark's groupBy merges the partitions' tables per (metric, keys...): sums, and the least
    error text (:func:`merged_as`). Its shuffle and the last task carry those keys, bounded by
    the groups and distinct items, never the lists.
    """
    tables = worker.count_tables(pl.DataFrame(schema=worker.schema_in))  # Polars' own types
    mapped = parts.mapInArrow(worker, tables_schema)
    merged = {"sum": F.sum, "min": F.min}
    keys = [name for name in mapped.columns if merged_as(name) == "key"]
    rest = [merged[merged_as(name)](col(name)).alias(name) for name in mapped.columns if name not in keys]
    summed = mapped.groupBy(*(col(name) for name in keys)).agg(*rest)
    finish = CountsFinish(worker.requested, worker.by, worker.table_columns(), tables.schema)
    final_schema = spark_schema(finish.compute(tables))
    finish = dataclasses.replace(finish, schema_out=to_arrow_schema(final_schema))
    # The sums, few, in one partition: repartition(1), as the other finishes.
    return positional(summed.select(*(col(name) for name in tables.columns)).repartition(1)).mapInArrow(
        finish, final_schema
    )
