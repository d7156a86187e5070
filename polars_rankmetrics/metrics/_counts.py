"""The count tables of the catalog families with a mergeable state (:class:`CountState`), and their sums.

A table holds one row per (by..., item, list length) with an Int64 count:
the tables of disjoint sets of whole lists add up to the table of all the
lists, so a distributed evaluation sums them (bounded by the distinct items
and lengths) instead of gathering the lists. A family's value reads the
summed table; a sum over rows becomes ``count x term`` per row of the
table, the same integers (:func:`weighted_sum`).
"""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._kernel import ITEM, fixed_point, from_fixed_point
from polars_rankmetrics._spec import COUNTED, Metric
from polars_rankmetrics.metrics._core import PREPARED, within
from polars_rankmetrics.metrics._side import SIZE, keyed, top_rows

__all__ = ["COUNTED", "ranked_counts", "top_counts", "weighted_sum"]


def _unkeyed(table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    """The table's columns (by..., ITEM, SIZE, COUNTED): keyed's stand-in group key dropped."""
    return table.select(*by, ITEM, pl.col(SIZE).cast(pl.UInt32), pl.col(COUNTED).cast(pl.Int64))


def top_counts(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    """Per (group, item, list length within the cutoff): the top-`k` lists of that length holding it."""
    frame, keys = keyed(lists, by)
    table = top_rows(frame, keys, metric.k).group_by(*keys, ITEM, SIZE).agg(pl.len().alias(COUNTED))
    return _unkeyed(table, by)


def ranked_counts(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    """Per (group, ranked item): the top-`k` lists holding it, 0 if it is ranked only below `k`.

    The list length is not kept (a null SIZE): the families reading this table do not weigh lists.
    """
    frame, keys = keyed(lists, by)
    table = frame.group_by(*keys, ITEM).agg(within(PREPARED, metric.k).sum().alias(COUNTED))
    return _unkeyed(table.with_columns(pl.lit(None, dtype=pl.UInt32).alias(SIZE)), by)


def weighted_sum(term: pl.Expr) -> pl.Expr:
    """exact_sum of `term` over the rows a table counts: count x fixed_point(term), the same integers."""
    return from_fixed_point((pl.col(COUNTED).cast(pl.Int128) * fixed_point(term)).sum())
