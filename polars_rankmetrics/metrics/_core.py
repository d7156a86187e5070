"""Per-query building blocks over the prepared columns, shared by every family."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from polars_rankmetrics._kernel import GRADE, NUM_REL, NUM_RET, RANK, REL
from polars_rankmetrics._spec import Metric

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


def keep_top(m: Metric, _g: object) -> pl.Expr:
    """Keep the retrieved rows within the metric's own cutoff."""
    return keep_within(m.k)


def keep_retrieved(_m: object, _g: object) -> pl.Expr:
    """Keep every retrieved row, whatever the cutoff."""
    return keep_within(None)


def keep_grade(predicate: Callable[[pl.Expr], pl.Expr]) -> Callable[[object, object], pl.Expr]:
    """Keep the rows whose grade satisfies `predicate` (null grades never do)."""
    return lambda _m, _g: predicate(pl.col(GRADE)).fill_null(value=False)
