"""Per-query building blocks over the prepared columns, shared by every family."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from polars_rankmetrics._prepare import NUM_REL, NUM_RET, RANK, REL

rank = pl.col(RANK)
relevant = pl.col(REL)


def within(k: int | None) -> pl.Expr:
    """Retrieved within the top `k` (all retrieved when `k` is None)."""
    return rank.is_not_null() if k is None else rank <= k


def hits(k: int | None) -> pl.Expr:
    """Number of relevant items retrieved within the top `k`."""
    return (relevant & within(k)).sum()


def num_relevant() -> pl.Expr:
    """R: the number of relevant items of the query, retrieved or not (a window column)."""
    return pl.col(NUM_REL).first()


def num_retrieved(k: int | None = None) -> pl.Expr:
    """Number of retrieved items (at most `k`), from the window column: rows may be filtered."""
    n = pl.col(NUM_RET).first()
    return n if k is None else pl.min_horizontal(n, pl.lit(k, dtype=pl.UInt32))


# Row predicates for Family.keep: the rows a family reads (prepare drops the others).


def keep_relevant(_m: object, _g: object) -> pl.Expr:
    """Keep the relevant rows (hits and the relevant items missed)."""
    return relevant


def keep_none(_m: object, _g: object) -> pl.Expr:
    """Keep no row: the family reads only the per-query window counts."""
    return pl.lit(value=False)


def keep_within(k: int | None) -> pl.Expr:
    """Keep the retrieved rows within the top `k` (all retrieved when `k` is None)."""
    return within(k).fill_null(value=False)


def keep_grade(predicate: Callable[[pl.Expr], pl.Expr]) -> Callable[[object, object], pl.Expr]:
    """Keep the rows whose grade satisfies `predicate` (null grades never do)."""
    from polars_rankmetrics._prepare import GRADE  # noqa: PLC0415

    return lambda _m, _g: predicate(pl.col(GRADE)).fill_null(value=False)


_FIXED_POINT = 2.0**64


def exact_sum(terms: pl.Expr) -> pl.Expr:
    """Sum of floats that does not depend on row order, engine or partitioning.

    A float sum depends on the order of its terms, and neither a group_by
    nor the streaming engine keeps row order. Each term is scaled by 2**64
    and truncated to an Int128 (error below 2**-64 per term), the integers
    are summed exactly, and the total is converted back: the same rows give
    the same bits, whatever their order. Null terms are skipped: mask terms
    with ``pl.when(mask).then(term)``, not ``term.filter(mask)``, which makes
    the streaming engine fall back to the in-memory one.
    """
    scaled = (terms.cast(pl.Float64) * _FIXED_POINT).cast(pl.Int128)
    return scaled.sum().cast(pl.Float64) / _FIXED_POINT


def exact_sum_horizontal(terms: list[pl.Expr]) -> pl.Expr:
    """Row-wise sum of float columns, exact and independent of the engine (see :func:`exact_sum`)."""
    scaled = [(t.cast(pl.Float64) * _FIXED_POINT).cast(pl.Int128) for t in terms]
    return pl.sum_horizontal(scaled).cast(pl.Float64) / _FIXED_POINT


def ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """``numerator / denominator`` as Float64, 0 where the denominator is 0."""
    den = denominator.cast(pl.Float64)
    return pl.when(den > 0).then(numerator.cast(pl.Float64) / den).otherwise(0.0)
