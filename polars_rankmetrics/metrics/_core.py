"""Per-query building blocks over a :class:`Rows` view, shared by every family."""

from __future__ import annotations

import math
from collections.abc import Callable

import polars as pl

from polars_rankmetrics._kernel import Rows
from polars_rankmetrics._spec import Metric

PREPARED = Rows.prepared()
"""The prepared frame's columns, for catalog metrics that read that frame directly."""


def within(rows: Rows, k: int | None) -> pl.Expr:
    """Retrieved within the top `k` (all retrieved when `k` is None)."""
    return rows.rank.is_not_null() if k is None else rows.rank <= k


def relevant_within(rows: Rows, k: int | None) -> pl.Expr:
    """Number of relevant items retrieved within the top `k`."""
    return (rows.rel & within(rows, k)).sum()


def ap_denominator(rows: Rows, k: int | None) -> pl.Expr:
    """What average precision at `k` divides by, by the conventions' ``ap_denominator``.

    R (trec_eval), min(k, R) (Microsoft Recommenders' map_at_k, ``map_capped@k``), the
    relevant items retrieved within `k` (torchmetrics' RetrievalMAP), k (RecTools'
    ``divide_by_k``) or min(R, the items listed within k) (LensKit's AveragePrecision).
    """
    if rows.ap_denominator == "found":
        return relevant_within(rows, k)
    if rows.ap_denominator == "min_k_relevant" and k is not None:
        return pl.min_horizontal(num_relevant(rows), pl.lit(k, dtype=pl.UInt32))
    if rows.ap_denominator == "k" and k is not None:  # RecTools' MAP(divide_by_k=True)
        return pl.lit(k, dtype=pl.UInt32)
    if rows.ap_denominator == "min_length_relevant":  # LensKit: min(R, the items listed within k)
        return pl.min_horizontal(num_relevant(rows), num_retrieved(rows, k).cast(pl.UInt32))
    return num_relevant(rows)


def num_relevant(rows: Rows) -> pl.Expr:
    """R: the number of relevant items of the query, retrieved or not."""
    return rows.num_rel.first()


def num_retrieved(rows: Rows, k: int | None = None) -> pl.Expr:
    """Number of retrieved items (at most `k`), from the per-query count: rows may be filtered."""
    n = rows.num_ret.first()
    return n if k is None else pl.min_horizontal(n, pl.lit(k, dtype=pl.UInt32))


# Row predicates for a spec's keep: the rows a family reads (prepare drops the others).


def keep_relevant(_m: object, rows: Rows) -> pl.Expr:
    """Keep the relevant rows (hits and the relevant items missed)."""
    return rows.rel


def keep_none(_m: object, _rows: Rows) -> pl.Expr:
    """Keep no row: the family reads only the per-query counts."""
    return pl.lit(value=False)


def keep_within(rows: Rows, k: int | None) -> pl.Expr:
    """Keep the retrieved rows within the top `k` (all retrieved when `k` is None)."""
    return within(rows, k).fill_null(value=False)


def keep_top(m: Metric, rows: Rows) -> pl.Expr:
    """Keep the retrieved rows within the metric's own cutoff."""
    return keep_within(rows, m.k)


def keep_retrieved(_m: object, rows: Rows) -> pl.Expr:
    """Keep every retrieved row, whatever the cutoff."""
    return keep_within(rows, None)


def keep_grade(predicate: Callable[[pl.Expr], pl.Expr]) -> Callable[[object, Rows], pl.Expr]:
    """Keep the rows whose grade satisfies `predicate` (null grades never do)."""
    return lambda _m, rows: predicate(rows.grade).fill_null(value=False)


def discount(positions: pl.Expr, kind: str = "log2") -> pl.Expr:
    """DCG's discount at 1-based `positions`: ``log2(position + 1)``, or ``max(1, log2 position)``.

    `kind` is the conventions' ``discount``: ``"log2"`` or ``"log2_clipped"`` (LensKit's
    LogRankWeight: positions 1 and 2 both discount by 1).
    """
    if kind == "log2_clipped":
        return pl.max_horizontal(positions.cast(pl.Float64), pl.lit(2.0)).log(2)
    return (positions.cast(pl.Float64) + 1.0).log(2)


def discount_sum(k: int, kind: str = "log2") -> float:
    """The sum of ``1 / discount`` over positions 1..k (the DCG of k slots of gain 1)."""
    if kind == "log2_clipped":
        return math.fsum(1.0 / max(1.0, math.log2(r)) for r in range(1, k + 1))
    return math.fsum(1.0 / math.log2(r + 1) for r in range(1, k + 1))
