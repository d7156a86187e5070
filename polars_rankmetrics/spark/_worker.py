"""The functions Spark runs in its Python workers: one whole partition in, Polars frames out.

Each is a frozen dataclass, pickled by reference to this module (polars and
polars-rankmetrics must be installed on every executor) and called by
``mapInArrow`` with an iterator over a partition's Arrow batches. A query's
rows must reach one call together: the adapter repartitions by (by...,
query) and each call reads its whole partition before computing anything
(Arrow batches alone cut queries in two).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass

import polars as pl
import pyarrow as pa

from polars_rankmetrics import _engine
from polars_rankmetrics._schema import Columns
from polars_rankmetrics.checks import validate
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.exceptions import InvalidDataError
from polars_rankmetrics.spark._arrow import EXACT, arrow_batches, polars_frame, spark_frame

__all__ = ["METRIC", "CountsFinish", "Finish", "Partition", "exact_columns"]

METRIC = "__prm_metric"  # which catalog metric a table row belongs to


@dataclass(frozen=True)
class Partition:
    """One partition's per-query rows (`per_query`), its mergeable states per `by` group, or its tables.

    With `counts`, `requested` holds catalog metrics only and the output is their tables of sums
    over the partition's ranked lists (each query ranks alone, so every partition's lists are
    those of the whole frame).
    """

    requested: _engine.NamedMetrics
    columns: Columns
    by: tuple[str, ...]
    conventions: Conventions
    per_query: bool
    check: bool
    schema_in: pl.Schema  # the Polars schema of the rows Spark sends
    schema_out: pa.Schema | None = None  # the Arrow schema Spark was told (set once derived)
    how: str = "mean"  # evaluate's aggregate=: the statistic the states are for
    counts: bool = False  # the catalog metrics' tables of sums

    def compute(self, df: pl.DataFrame) -> pl.DataFrame:
        """The partition's output frame, in Spark's types; the library's errors on bad data."""
        try:
            return spark_frame(self._compute(df, check=self.check))
        except InvalidDataError:
            if not self.check:
                raise
            # As evaluate does: the exact check names the rows; if it passes, the in-plan
            # error was a hash collision of two item ids: compute unchecked.
            validate(df, columns=self.columns, by=self.by)
            return spark_frame(self._compute(df, check=False))

    def lists_frame(self, df: pl.DataFrame) -> pl.DataFrame:
        """The ranked rows the catalog metrics read, in Polars' types (checked like the rest)."""
        if self.check and not df.is_empty():
            validate(df, columns=self.columns, by=self.by)
        digits = _engine.item_digits(df, self.columns)
        plan = _engine.build(
            df.lazy(), self.columns, self.by, self.conventions, self.requested, item_digits=digits
        )
        assert plan.lists is not None
        return _engine.collect(plan.lists)

    def count_tables(self, df: pl.DataFrame) -> pl.DataFrame:
        """Each counted catalog metric's table of sums on this partition's lists, tagged by its position.

        Rows (METRIC, by..., keys..., sums..., texts...): Spark merges them per key across
        partitions (every list lies whole in one partition), bounded by the groups and the
        distinct items. The metrics' tables stack diagonally: a column a table lacks is null.
        """
        lists = self.lists_frame(df).lazy()
        tables = [
            _engine.catalog_counts(metric, lists, self.by, self.columns.query).select(
                pl.lit(i, dtype=pl.Int32).alias(METRIC), pl.all()
            )
            for i, (_, metric) in enumerate(self.requested)
        ]
        return _engine.collect(pl.concat(tables, how="diagonal"))

    def table_columns(self) -> tuple[tuple[str, ...], ...]:
        """Each counted catalog metric's table columns (no METRIC), in the order of its tag."""
        lists = self.lists_frame(pl.DataFrame(schema=self.schema_in)).lazy()
        return tuple(
            tuple(_engine.catalog_counts(m, lists, self.by, self.columns.query).collect_schema().names())
            for _, m in self.requested
        )

    def _compute(self, df: pl.DataFrame, *, check: bool) -> pl.DataFrame:
        if self.counts:
            return self.count_tables(df)
        digits = _engine.item_digits(df, self.columns)  # the partition's widest item: a narrower key
        request = (self.columns, self.by, self.conventions, self.requested)
        plan = _engine.build(df.lazy(), *request, check=check, item_digits=digits)
        per_q = plan.per_query.filter(_engine.evaluated(self.conventions, judged_frame=plan.judged))
        if self.per_query:
            out = per_q.select(*plan.keys, *(name for name, _ in self.requested))
        else:
            out = _engine.states(per_q, self.requested, self.by, how=self.how)
        return _engine.collect(out)

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        """Spark's side: the whole partition in, the output batches cast to :attr:`schema_out` out."""
        df = polars_frame(batches, self.schema_in)
        if df.is_empty():
            return iter(())
        with warnings.catch_warnings():  # a worker has no one to warn: evaluate warns on the driver
            warnings.simplefilter("ignore")
            out = self.compute(df)
        assert self.schema_out is not None
        return arrow_batches(out, self.schema_out)


@dataclass(frozen=True)
class Finish:
    """The metrics from the states Spark summed per `by` group, in one last Polars call."""

    requested: _engine.NamedMetrics
    by: tuple[str, ...]
    exact: tuple[str, ...]  # the state columns holding Int128 sums (Decimal(38, 0) in Spark)
    schema_in: pl.Schema  # by keys, then the summed states under their names
    schema_out: pa.Schema | None = None
    how: str = "mean"  # evaluate's aggregate=

    def compute(self, summed: pl.DataFrame) -> pl.DataFrame:
        """One row per `by` group: the metrics, as evaluate aggregates them."""
        states = summed.with_columns(pl.col(self.exact).cast(pl.Int128))
        # Spark's global sum gives one row of nulls for no rows: merge drops it, as it drops empty groups.
        merged = _engine.merge(states.lazy(), self.requested, self.by, how=self.how)
        out = _engine.finish(merged, self.requested, self.by, how=self.how).drop(_engine.QUERIES)
        return spark_frame(_engine.collect(out.sort(self.by) if self.by else out))

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        """Spark's side: every summed state in (one partition), the metrics out."""
        assert self.schema_out is not None
        return arrow_batches(self.compute(polars_frame(batches, self.schema_in)), self.schema_out)


@dataclass(frozen=True)
class CountsFinish:
    """The catalog metrics from their tables of sums merged by Spark, in one last Polars call.

    Its input is bounded by each metric's keys (groups, distinct items and list lengths), not by the lists.
    """

    requested: _engine.NamedMetrics  # counted catalog metrics only, in the order of their METRIC tag
    by: tuple[str, ...]
    columns: tuple[tuple[str, ...], ...]  # each metric's table columns (Partition.table_columns)
    schema_in: pl.Schema  # the tables' Polars types (Spark carries unsigned integers as Int64)
    schema_out: pa.Schema | None = None

    def compute(self, summed: pl.DataFrame) -> pl.DataFrame:
        """One row per `by` group: the counted catalog metrics, as evaluate computes them."""
        table = summed.cast(dict(self.schema_in)).lazy()  # type: ignore[arg-type]
        parts = [
            _engine.counted_value(name, metric, table.filter(pl.col(METRIC) == i).select(columns), self.by)
            for i, ((name, metric), columns) in enumerate(zip(self.requested, self.columns, strict=True))
        ]
        return spark_frame(_engine.collect(_engine.aggregated(table, self.requested, self.by, parts)))

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        """Spark's side: every summed count in (one partition), the metrics out."""
        assert self.schema_out is not None
        return arrow_batches(self.compute(polars_frame(batches, self.schema_in)), self.schema_out)


def exact_columns(schema: pl.Schema) -> tuple[str, ...]:
    """The columns of a states frame in Spark's types that hold exact sums."""
    return tuple(name for name, dtype in schema.items() if dtype == EXACT)
