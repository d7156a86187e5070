"""The tables of the catalog families' mergeable states (:class:`CountState`), and their sums.

A table holds one row per (by..., item, list length) with an Int64 count:
the tables of disjoint sets of whole lists add up to the table of all the
lists, so a distributed evaluation sums them (bounded by the distinct items
and lengths) instead of gathering the lists. A family's value reads the
summed table; a sum over rows becomes ``count x term`` per row of the
table, the same integers (:func:`weighted_sum`). Families whose value is
a mean over lists, or a ratio of sums over rows, keep per `by` group
(:func:`state`) the fixed-point sums (:func:`~polars_rankmetrics._kernel.fixed_point_sum`, read back by
:func:`exact`) and the counts, which add up the same way.
"""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._kernel import ITEM, fixed_point, from_fixed_point
from polars_rankmetrics._spec import COUNTED, SUMMED, Metric
from polars_rankmetrics.metrics._core import PREPARED, within
from polars_rankmetrics.metrics._side import SIZE, keyed, top_rows

__all__ = ["COUNTED", "SUMMED", "exact", "ranked_counts", "state", "top_counts", "weighted_sum"]


def _unkeyed(table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    """The table's columns (by..., ITEM, SIZE, COUNTED): keyed's stand-in group key dropped."""
    return table.select(*by, ITEM, pl.col(SIZE).cast(pl.UInt32), pl.col(COUNTED).cast(pl.Int64))


def top_counts(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], _query: str) -> pl.LazyFrame:
    """Per (group, item, list length within the cutoff): the top-`k` lists of that length holding it."""
    frame, keys = keyed(lists, by)
    table = top_rows(frame, keys, metric.k).group_by(*keys, ITEM, SIZE).agg(pl.len().alias(COUNTED))
    return _unkeyed(table, by)


def ranked_counts(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], _query: str) -> pl.LazyFrame:
    """Per (group, ranked item): the top-`k` lists holding it, 0 if it is ranked only below `k`.

    The list length is not kept (a null SIZE): the families reading this table do not weigh lists.
    """
    frame, keys = keyed(lists, by)
    table = frame.group_by(*keys, ITEM).agg(within(PREPARED, metric.k).sum().alias(COUNTED))
    return _unkeyed(table.with_columns(pl.lit(None, dtype=pl.UInt32).alias(SIZE)), by)


def weighted_sum(term: pl.Expr) -> pl.Expr:
    """exact_sum of `term` over the rows a table counts: count x fixed_point(term), the same integers."""
    return from_fixed_point((pl.col(COUNTED).cast(pl.Int128) * fixed_point(term)).sum())


def state(table: pl.LazyFrame, by: tuple[str, ...], keys: list[str]) -> pl.LazyFrame:
    """A table of sums per `keys` (:func:`keyed`'s) as (by..., the rest): the stand-in group key dropped."""
    return table.select(*by, pl.exclude(keys))


def exact(name: str) -> pl.Expr:
    """The float of a summed fixed-point column: :func:`exact_sum` of the terms it holds, the same bits."""
    return from_fixed_point(pl.col(name))
