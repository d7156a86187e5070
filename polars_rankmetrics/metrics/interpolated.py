"""Precision at recall levels and at multiples of R: iprec_at_recall, 11pt_avg, Rprec_mult."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows, exact_sum_horizontal, ratio
from polars_rankmetrics._spec import (
    FIFTHS,
    POSITIVE,
    TENTHS,
    UNIT,
    Metric,
    Param,
    QuerySpec,
    TieSupport,
    TrecMeasure,
)
from polars_rankmetrics.exceptions import UnknownMetricError
from polars_rankmetrics.metrics._core import keep_relevant
from polars_rankmetrics.metrics.rank import precision_at_hit

__all__ = ["eleven_point_average", "iprec_at_recall", "rprec_mult"]


ELEVEN_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def interpolated_precision(rows: Rows, recall: float) -> pl.Expr:
    """Highest precision at any rank whose recall is at least `recall` (0 if none).

    As trec_eval 10.0: the recall level is ``round(recall * R)`` relevant
    items (half away from zero; trec_eval 9.x's ``int(recall * R + 0.9)``
    under the ``iprec_rule="trec_eval_9"`` convention); precision peaks at
    relevant items, so the maximum runs over relevant retrieved items from
    that one on.
    """
    level = pl.lit(recall) * rows.num_rel.cast(pl.Float64)
    if rows.iprec_rule == "trec_eval_9":
        needed = (level + 0.9).floor()  # C's (long) truncation; x * R + 0.9 is never negative
    else:
        needed = level.round(0, mode="half_away_from_zero")
    hit_rank = rows.hit_rank
    # One precision column for every level; when/then, not filter: a filter is aggregated group by group.
    precision = rows.term(precision_at_hit(rows))
    reached = hit_rank.is_not_null() & (hit_rank.cast(pl.Float64) >= pl.max_horizontal(needed, 1.0))
    return pl.when(reached).then(precision).max().fill_null(0.0)


def _iprec_at_recall(m: Metric, rows: Rows) -> pl.Expr:
    return interpolated_precision(rows, m.number("recall"))


IPREC_AT_RECALL = QuerySpec(
    name="iprec_at_recall",
    measures=(TrecMeasure("iprec_at_recall", 10, "levels", TENTHS, empty_nan=True),),
    unretrieved=True,
    k="none",
    needs=frozenset({"hit_rank", "num_rel"}),
    trec=("iprec_at_recall_{x}",),
    params=(Param("recall", 0.0, domain=UNIT),),
    keep=keep_relevant,
    value=_iprec_at_recall,
    ties=TieSupport(extremal=True),
)


def _eleven_point(m: Metric, rows: Rows) -> pl.Expr:
    levels = m.numbers("recalls")
    return ratio(exact_sum_horizontal([interpolated_precision(rows, x) for x in levels]), pl.lit(len(levels)))


def _eleven_point_measure(levels: tuple[float, ...]) -> Metric:
    """trec_eval's ``11pt_avg.l1,l2,...``: the levels in increasing order."""
    if list(levels) != sorted(levels):
        # trec_eval's 11pt_avg scans the levels assuming increasing order; its value for others differs.
        raise UnknownMetricError.bad_measure(None, "the recall levels must be in increasing order")
    return eleven_point_average(levels)


ELEVEN_POINT_AVERAGE = QuerySpec(
    name="11pt_avg",
    measures=(TrecMeasure("11pt_avg", 18, "numbers", TENTHS, empty_nan=True, build=_eleven_point_measure),),
    unretrieved=True,
    aliases=("eleven_point_average",),
    needs=frozenset({"hit_rank", "num_rel"}),
    trec=("11pt_avg",),
    keep=keep_relevant,
    value=_eleven_point,
    ties=TieSupport(extremal=True),
)


def _rprec_mult(m: Metric, rows: Rows) -> pl.Expr:
    # Precision at rank int(x * R + 0.9), as trec_eval computes the cutoff.
    def cutoff(num_rel: pl.Expr) -> pl.Expr:
        return (pl.lit(m.number("multiple")) * num_rel.cast(pl.Float64) + 0.9).floor()

    found = (rows.rel & (rows.rank.cast(pl.Float64) <= cutoff(rows.num_rel))).sum()
    return ratio(found, cutoff(rows.num_rel.first()))


RPREC_MULT = QuerySpec(
    name="rprec_mult",
    measures=(TrecMeasure("Rprec_mult", 16, "levels", FIFTHS),),
    unretrieved=True,
    k="none",
    aliases=("Rprec_mult",),
    needs=frozenset({"num_rel"}),
    trec=("Rprec_mult_{x}",),
    params=(Param("multiple", 1.0, domain=POSITIVE),),
    keep=keep_relevant,
    value=_rprec_mult,
    ties=TieSupport(extremal=True),
)


def iprec_at_recall(recall: float) -> Metric:
    """Interpolated precision at a recall level: the highest precision at any recall >= it.

    Parameters
    ----------
    recall
        Recall level in [0, 1].

    Returns
    -------
    Metric
        ``iprec_at_recall(x)``, averaged over queries; trec_eval name
        ``iprec_at_recall_0.10``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [4.0, 3.0, 2.0, 1.0], "relevance": [0, 1, 0, 1]})
    >>> prm.evaluate(df, [prm.iprec_at_recall(0.5), prm.iprec_at_recall(1.0)])
    shape: (1, 2)
    ┌─────────────────────────────┬───────────────────────────┐
    │ iprec_at_recall(recall=0.5) ┆ iprec_at_recall(recall=1) │
    │ ---                         ┆ ---                       │
    │ f64                         ┆ f64                       │
    ╞═════════════════════════════╪═══════════════════════════╡
    │ 0.5                         ┆ 0.5                       │
    └─────────────────────────────┴───────────────────────────┘
    """
    return Metric(IPREC_AT_RECALL, recall=recall)


@constructor(ELEVEN_POINT_AVERAGE)
def eleven_point_average(recalls: Annotated[Sequence[float], UNIT] = ELEVEN_POINTS) -> Metric:
    """Interpolated precision averaged over recall levels (11-point average by default).

    Parameters
    ----------
    recalls
        The recall levels; trec_eval's default is 0.0, 0.1, ..., 1.0.

    Returns
    -------
    Metric
        ``11pt_avg``, averaged over queries; trec_eval name ``11pt_avg``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["a", "b"],
    ...     "score": [2.0, 1.0], "relevance": [1, 0]})
    >>> prm.evaluate(df, [prm.eleven_point_average()])
    shape: (1, 1)
    ┌──────────┐
    │ 11pt_avg │
    │ ---      │
    │ f64      │
    ╞══════════╡
    │ 1.0      │
    └──────────┘
    """


def rprec_mult(multiple: float) -> Metric:
    """Precision at a multiple of R: at rank ``int(multiple * R + 0.9)``.

    Parameters
    ----------
    multiple
        The multiple of R, the query's number of relevant items.

    Returns
    -------
    Metric
        ``rprec_mult(x)``, averaged over queries; trec_eval name
        ``Rprec_mult_0.20``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [4.0, 3.0, 2.0, 1.0], "relevance": [1, 0, 0, 1]})
    >>> prm.evaluate(df, [prm.rprec_mult(2.0)])
    shape: (1, 1)
    ┌────────────────────────┐
    │ rprec_mult(multiple=2) │
    │ ---                    │
    │ f64                    │
    ╞════════════════════════╡
    │ 0.5                    │
    └────────────────────────┘
    """
    return Metric(RPREC_MULT, multiple=multiple)


SPECS = (IPREC_AT_RECALL, spec_of(eleven_point_average), RPREC_MULT)
