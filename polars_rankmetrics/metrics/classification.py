"""Metrics borrowed from classification: F-beta, fall-out, ROC AUC, recall at a fixed precision.

Each reads a query's ranking as a ranked classifier's output: the top `k`
(or a threshold on the ranking) is the predicted positive set, relevant
judged items (grade ``>= relevance_level``) the positives, judged
non-relevant items (grade ``>= 0`` and below the level) the negatives.
Unjudged items (null or negative grade) are neither, as trec_eval counts them.
"""

from __future__ import annotations

from typing import Annotated

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows, exact_sum, ratio
from polars_rankmetrics._spec import POSITIVE, UNIT, Interval, Metric, QuerySpec, TieSupport
from polars_rankmetrics.metrics._core import (
    hits,
    keep_grade,
    keep_relevant,
    num_relevant,
    num_retrieved,
    within,
)
from polars_rankmetrics.metrics._ties import expected_hits

__all__ = ["auroc", "f_beta", "fallout", "recall_at_precision", "set_f"]


def _judged_nonrel(rows: Rows) -> pl.Expr:
    return (rows.grade >= 0).fill_null(value=False) & ~rows.rel


def _f_beta(m: Metric, rows: Rows) -> pl.Expr:
    # (1 + b^2) P R / (b^2 P + R) with P = h/n and R = h/R_q simplifies to (1 + b^2) h / (b^2 R_q + n).
    b2 = m.number("beta") ** 2
    n = num_retrieved(rows) if m.k is None else pl.lit(m.k)
    return ratio((1.0 + b2) * hits(rows, m.k).cast(pl.Float64), b2 * num_relevant(rows).cast(pl.Float64) + n)


def _expected_f_beta(m: Metric, rows: Rows) -> pl.Expr:
    # Linear in the hits: (1 + b^2) E[hits@k] / (b^2 R + n).
    b2 = m.number("beta") ** 2
    n = num_retrieved(rows) if m.k is None else pl.lit(m.k)
    return ratio((1.0 + b2) * expected_hits(rows, m.k), b2 * num_relevant(rows).cast(pl.Float64) + n)


F_BETA = QuerySpec(
    name="f_beta",
    unretrieved=True,
    aliases=("fbeta", "F_beta"),
    keep=keep_relevant,
    value=_f_beta,
    ties=TieSupport(extremal=True, average=_expected_f_beta),
)


def _set_f(m: Metric, rows: Rows) -> pl.Expr:
    # trec_eval's arithmetic (m_set_F.c), operation for operation so that the bits agree:
    # P = h/n, R = h/R_q, (x + 1) P R / (x P + R); 0 when nothing relevant is retrieved.
    x = m.number("beta")
    h = hits(rows, None).cast(pl.Float64)
    precision = h / num_retrieved(rows).cast(pl.Float64)
    recall = h / num_relevant(rows).cast(pl.Float64)
    value = pl.lit(x + 1.0) * precision * recall / (pl.lit(x) * precision + recall)
    return pl.when(h > 0).then(value).otherwise(pl.lit(0.0))


def _expected_set_f(m: Metric, rows: Rows) -> pl.Expr:
    # Linear in the hits too: (1 + x) E[hits] / (x R + n), trec_eval's weight x unsquared.
    x = m.number("beta")
    expected = (1.0 + x) * expected_hits(rows, None)
    return ratio(expected, x * num_relevant(rows).cast(pl.Float64) + num_retrieved(rows))


SET_F = QuerySpec(
    name="set_f",
    keep=keep_relevant,
    value=_set_f,
    ties=TieSupport(extremal=True, average=_expected_set_f),
)


def _fallout(m: Metric, rows: Rows) -> pl.Expr:
    found = (_judged_nonrel(rows) & within(rows, m.k)).sum()
    return ratio(found, rows.num_nonrel.first())


def _keep_fallout(m: Metric, rows: Rows) -> pl.Expr:
    return (_judged_nonrel(rows) & within(rows, m.k)).fill_null(value=False)


_FALLOUT_TIES = (
    "lower is better, and the grade order ranks judged non-relevant items above unjudged ones, so "
    "neither grade order gives its best or worst value; its expectation over tie orders is not "
    "implemented"
)
FALLOUT = QuerySpec(
    name="fallout",
    unretrieved=True,
    aliases=("FallOut", "fall_out"),
    needs=frozenset({"grade", "num_nonrel"}),
    keep=_keep_fallout,
    value=_fallout,
    ties=TieSupport(why=_FALLOUT_TIES),
)


def _auroc(m: Metric, rows: Rows) -> pl.Expr:
    # Mann-Whitney: twice the pairs (relevant above non-relevant) plus the tied pairs, counted in
    # integers. A retrieved relevant item is above every judged non-relevant item but those retrieved
    # before it (judged_rank - hit_rank of them); unretrieved judged items tie below every retrieved one.
    retrieved = rows.rank.is_not_null()
    n_nonrel = rows.num_nonrel.first().cast(pl.Int64)
    n_rel = num_relevant(rows).cast(pl.Int64)
    rel_ret = (rows.rel & retrieved).sum().cast(pl.Int64)
    nonrel_ret = (_judged_nonrel(rows) & retrieved).sum().cast(pl.Int64)
    nonrel_above = (rows.judged_rank - rows.hit_rank).cast(pl.Int64)
    max_fpr = m.number("max_fpr")
    if max_fpr < 1.0:
        return _partial_auroc(rows, max_fpr, (n_rel, n_nonrel, rel_ret, nonrel_ret), nonrel_above)
    # Per-row arithmetic only (the count on every row, not its first()): mixing a group's scalar with
    # row values inside the aggregation sends the streaming engine to its in-memory fallback.
    below = rows.num_nonrel.cast(pl.Int64) - nonrel_above
    above = pl.when(rows.rel & retrieved).then(below)
    twice = 2 * above.sum() + (n_rel - rel_ret) * (n_nonrel - nonrel_ret)
    return ratio(twice, 2 * n_rel * n_nonrel)


def _partial_auroc(
    rows: Rows, f: float, counts: tuple[pl.Expr, pl.Expr, pl.Expr, pl.Expr], nonrel_above: pl.Expr
) -> pl.Expr:
    """scikit-learn's roc_auc_score(max_fpr=f): the ROC area over fpr <= f, McClish-standardised.

    The ROC curve of the ranking climbs 1/P at each retrieved relevant item (at fpr = non-relevant
    above / N) and runs right 1/N at each retrieved non-relevant one; the unretrieved judged items,
    tied, join (N_ret/N, P_ret/P) to (1, 1) by a straight line, as sklearn's one threshold for them.
    """
    n_rel, n_nonrel, rel_ret, nonrel_ret = (c.cast(pl.Float64) for c in counts)
    at = nonrel_above.cast(pl.Float64) / rows.num_nonrel.cast(pl.Float64)  # each climb's fpr
    climbing = rows.rel & rows.rank.is_not_null() & (rows.num_nonrel > 0)  # no ROC curve without N
    climbs = exact_sum(pl.when(climbing).then((f - at).clip(lower_bound=0.0)))
    x0, y0 = nonrel_ret / n_nonrel, rel_ret / n_rel
    slope = (1.0 - y0) / (1.0 - x0)
    tail = pl.when((x0 < f) & (x0 < 1.0)).then(slope * (f - x0) * (f - x0) / 2.0).otherwise(0.0)
    area = climbs / n_rel + tail
    low, high = f * f / 2.0, f
    standardised = 0.5 * (1.0 + (area - low) / (high - low))
    return pl.when((n_rel > 0) & (n_nonrel > 0)).then(standardised).otherwise(0.0)


AUROC = QuerySpec(
    name="auroc",
    unretrieved=True,
    needs=frozenset({"grade", "num_nonrel", "hit_rank", "judged_rank"}),
    keep=keep_grade(lambda grade: grade >= 0),
    value=_auroc,
    ties=TieSupport(
        extremal=True,
        extremal_with_depth=False,
        why="its expectation over tie orders (ties counting one half) is not implemented",
    ),
)


def _recall_at_precision(m: Metric, rows: Rows) -> pl.Expr:
    # Recall grows with the cutoff, precision h/j is highest at a hit: the best cutoff j <= k with
    # precision >= p is the deepest hit whose own precision hit_rank / rank reaches p.
    precision = rows.hit_rank.cast(pl.Float64) / rows.rank.cast(pl.Float64)
    ok = rows.rel & within(rows, m.k) & (precision >= m.number("precision"))
    best = pl.when(ok).then(rows.hit_rank).max().fill_null(0)
    return ratio(best, num_relevant(rows))


RECALL_AT_PRECISION = QuerySpec(
    name="recall_at_precision",
    unretrieved=True,
    needs=frozenset({"hit_rank"}),
    keep=keep_relevant,
    value=_recall_at_precision,
    ties=TieSupport(
        extremal=True, why="a maximum over cutoffs, whose expectation over tie orders has no closed form"
    ),
)


@constructor(F_BETA)
def f_beta(k: int | None = None, *, beta: Annotated[float, POSITIVE] = 1.0) -> Metric:
    """F-beta: the weighted harmonic mean of precision@k and recall@k.

    ``(1 + beta**2) * P * R / (beta**2 * P + R)`` with P = hits@k / k and
    R = hits@k / R_q, which is ``(1 + beta**2) * hits@k / (beta**2 * R_q + k)``;
    0 when both are 0 (van Rijsbergen, *Information Retrieval*, 1979, ch. 7;
    scikit-learn's ``fbeta_score``). ``beta=1`` is F1. With ``k=None`` P
    divides by the number retrieved: trec_eval's ``set_F`` and ir_measures'
    ``SetF``, whose parameter weighs recall by x, not x squared:
    ``SetF(beta=x)`` (``-m set_F.x``) is ``f_beta(beta=sqrt(x))``.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.
    beta
        Weight of recall against precision (> 0): 2 favours recall, 0.5 precision.

    Returns
    -------
    Metric
        ``f_beta(beta=...)@k``, averaged over queries; also spelled
        ``fbeta`` and ``F_beta``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [0.9, 0.5, 0.1, None], "relevance": [0, 1, 1, 1]})
    >>> prm.evaluate(df, [prm.f_beta(2, beta=2.0), prm.f_beta(2)])
    shape: (1, 2)
    ┌──────────────────┬──────────┐
    │ f_beta(beta=2)@2 ┆ f_beta@2 │
    │ ---              ┆ ---      │
    │ f64              ┆ f64      │
    ╞══════════════════╪══════════╡
    │ 0.357143         ┆ 0.4      │
    └──────────────────┴──────────┘
    """


@constructor(SET_F)
def set_f(*, beta: Annotated[float, Interval(low=0.0)] = 1.0) -> Metric:
    """trec_eval's ``set_F``: the F measure of the retrieved set, its weight `beta` unsquared.

    ``(1 + beta) * P * R / (beta * P + R)`` with P = h / n (n retrieved) and
    R = h / R_q, which is ``(1 + beta) * h / (beta * R_q + n)``; 0 when no
    relevant item is retrieved. trec_eval 10.0's ``-m set_F.x`` and
    ir_measures' ``SetF(beta=x)`` (m_set_F.c; van Rijsbergen's F with
    ``beta**2`` written as ``beta``): ``set_f(beta=x)`` is
    ``f_beta(beta=sqrt(x))``, and ``set_f()`` is ``f1()``, up to rounding:
    it computes as trec_eval does, operation for operation, so that its
    doubles are trec_eval's.

    Parameters
    ----------
    beta
        trec_eval's weight of recall (>= 0): 0 gives precision, 1 F1.

    Returns
    -------
    Metric
        ``set_f(beta=...)``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [0.9, 0.5, 0.1, None], "relevance": [0, 1, 1, 0]})
    >>> prm.evaluate(df, [prm.set_f(beta=0.5), prm.set_f(), prm.f1()])
    shape: (1, 3)
    ┌─────────────────┬───────┬─────┐
    │ set_f(beta=0.5) ┆ set_f ┆ f1  │
    │ ---             ┆ ---   ┆ --- │
    │ f64             ┆ f64   ┆ f64 │
    ╞═════════════════╪═══════╪═════╡
    │ 0.75            ┆ 0.8   ┆ 0.8 │
    └─────────────────┴───────┴─────┘
    """


@constructor(FALLOUT)
def fallout(k: int | None = None) -> Metric:
    """Fall-out: the share of the query's judged non-relevant items retrieved in the top `k`.

    ``nonrel_ret@k / N``, N counting every judged non-relevant item (grade
    ``>= 0`` below the relevance level) of the query, retrieved or not;
    unjudged items count for nothing; 0 when the query has no judged
    non-relevant item (torchmetrics' ``RetrievalFallOut`` on fully judged
    lists, with ``empty_target_action="neg"``).

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.

    Returns
    -------
    Metric
        ``fallout@k``, averaged over queries; lower is better.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [0.9, 0.5, 0.1, None], "relevance": [0, 1, 0, 0]})
    >>> prm.evaluate(df, [prm.fallout(2), prm.fallout()]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌───────────┬─────────┐
    │ fallout@2 ┆ fallout │
    │ ---       ┆ ---     │
    │ f64       ┆ f64     │
    ╞═══════════╪═════════╡
    │ 0.3333    ┆ 0.6667  │
    └───────────┴─────────┘
    """


@constructor(AUROC)
def auroc(*, max_fpr: Annotated[float, Interval(low=0.0, high=1.0, low_open=True)] = 1.0) -> Metric:
    """Area under the ROC curve of each query's ranking, averaged over queries.

    The probability that a relevant judged item is ranked above a judged
    non-relevant one, ties counting one half (the Mann-Whitney statistic;
    Hanley and McNeil, *Radiology* 143, 1982): scikit-learn's
    ``roc_auc_score`` per query with the ranking as the score. Items are
    ordered as every metric orders them (score, then the item id for
    ties); judged items never retrieved tie below every retrieved one;
    unjudged items are left out. 0 when the query lacks relevant or judged
    non-relevant items (torchmetrics' ``RetrievalAUROC``, its default
    ``empty_target_action="neg"``).

    Parameters
    ----------
    max_fpr
        Below 1, the area over false-positive rates up to `max_fpr` only,
        standardised as scikit-learn's ``roc_auc_score(max_fpr=...)`` (McClish
        1989): 0.5 for a random ranking, 1 for a perfect one.

    Returns
    -------
    Metric
        ``auroc`` or ``auroc(max_fpr=...)``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1, 1], "item": ["a", "b", "c", "d", "e"],
    ...     "score": [0.9, 0.5, 0.1, None, 0.3], "relevance": [1, 0, 1, 0, None]})
    >>> prm.evaluate(df, [prm.auroc(), prm.auroc(max_fpr=0.5)], per_query=True)
    shape: (1, 3)
    ┌───────┬───────┬────────────────────┐
    │ query ┆ auroc ┆ auroc(max_fpr=0.5) │
    │ ---   ┆ ---   ┆ ---                │
    │ i64   ┆ f64   ┆ f64                │
    ╞═══════╪═══════╪════════════════════╡
    │ 1     ┆ 0.75  ┆ 0.666667           │
    └───────┴───────┴────────────────────┘
    """


@constructor(RECALL_AT_PRECISION)
def recall_at_precision(k: int | None = None, precision: Annotated[float | None, UNIT] = None) -> Metric:
    """Recall at a fixed precision: the highest recall@j, j <= k, whose precision@j reaches `precision`.

    ``max {hits@j / R : j <= k, hits@j / j >= precision}``, 0 when no
    cutoff reaches the precision or the query has no relevant item;
    torchmetrics' ``RetrievalRecallAtFixedPrecision`` (its ``max_k`` is
    `k`), with R counting the relevant items never retrieved, as every
    recall here does.

    Parameters
    ----------
    k
        The deepest cutoff considered; None allows the whole list.
    precision
        The minimum precision, in [0, 1]; required.

    Returns
    -------
    Metric
        ``recall_at_precision(precision=...)@k``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1, 1], "item": ["a", "b", "c", "d", "e"],
    ...     "score": [0.9, 0.5, 0.4, 0.1, None], "relevance": [1, 0, 1, 1, 1]})
    >>> at_70, at_50 = prm.recall_at_precision(precision=0.7), prm.recall_at_precision(3, precision=0.5)
    >>> str(at_70), str(at_50)
    ('recall_at_precision(precision=0.7)', 'recall_at_precision(precision=0.5)@3')
    >>> prm.evaluate(df, [at_70, at_50]).rename({str(at_70): "at_70", str(at_50): "at_50@3"})
    shape: (1, 2)
    ┌───────┬─────────┐
    │ at_70 ┆ at_50@3 │
    │ ---   ┆ ---     │
    │ f64   ┆ f64     │
    ╞═══════╪═════════╡
    │ 0.75  ┆ 0.5     │
    └───────┴─────────┘
    """


SPECS = (spec_of(f_beta), spec_of(set_f), spec_of(fallout), spec_of(auroc), spec_of(recall_at_precision))
