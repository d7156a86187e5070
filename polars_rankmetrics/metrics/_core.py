"""Per-query building blocks over the prepared columns, shared by every family."""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._prepare import RANK, REL

rank = pl.col(RANK)
relevant = pl.col(REL)


def within(k: int | None) -> pl.Expr:
    """Retrieved within the top `k` (all retrieved when `k` is None)."""
    return rank.is_not_null() if k is None else rank <= k


def hits(k: int | None) -> pl.Expr:
    """Number of relevant items retrieved within the top `k`."""
    return (relevant & within(k)).sum()


def num_relevant() -> pl.Expr:
    """R: the number of relevant items of the query, retrieved or not."""
    return relevant.sum()


def num_retrieved(k: int | None = None) -> pl.Expr:
    """Number of retrieved items (at most `k`)."""
    n = rank.count()
    return n if k is None else pl.min_horizontal(n, pl.lit(k, dtype=pl.UInt32))


_FIXED_POINT = 2.0**64


def exact_sum(terms: pl.Expr) -> pl.Expr:
    """Sum of floats that does not depend on row order, engine or partitioning.

    A float sum depends on the order of its terms, and neither a group_by
    nor the streaming engine keeps row order. Each term is scaled by 2**64
    and truncated to an Int128 (error below 2**-64 per term), the integers
    are summed exactly, and the total is converted back: the same rows give
    the same bits, whatever their order.
    """
    scaled = (terms.cast(pl.Float64) * _FIXED_POINT).cast(pl.Int128)
    return scaled.sum().cast(pl.Float64) / _FIXED_POINT


def ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """``numerator / denominator`` as Float64, 0 where the denominator is 0."""
    den = denominator.cast(pl.Float64)
    return pl.when(den > 0).then(numerator.cast(pl.Float64) / den).otherwise(0.0)
