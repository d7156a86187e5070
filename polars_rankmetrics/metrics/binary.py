"""Set-based metrics over binary relevance: precision, recall, F1, hit rate, R-precision."""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows, exact_sum, ratio
from polars_rankmetrics._spec import (
    ORDER_FREE,
    TREC_CUTOFFS,
    Metric,
    Param,
    QuerySpec,
    Spellings,
    TieSupport,
    TrecMeasure,
)
from polars_rankmetrics.exceptions import UnknownMetricError
from polars_rankmetrics.metrics._core import (
    keep_relevant,
    num_relevant,
    num_retrieved,
    relevant_within,
    within,
)
from polars_rankmetrics.metrics._ties import TIE_FIRST, TIE_REL, expected_hits, room

__all__ = ["f1", "hit_rate", "precision", "r_precision", "recall", "relative_precision", "set_map", "utility"]


def _precision_denominator(rows: Rows, k: int | None) -> pl.Expr:
    # trec_eval P_k divides by k even when fewer than k items were retrieved; LensKit's Precision
    # (precision_denominator="length") by the items listed within k.
    if k is None or rows.conventions.precision_denominator == "length":
        return num_retrieved(rows, k)
    return pl.lit(k)


def _recall_denominator(rows: Rows, k: int | None) -> pl.Expr:
    # R; LensKit's Recall (recall_denominator="min_k_relevant") min(k, R).
    if k is not None and rows.conventions.recall_denominator == "min_k_relevant":
        return pl.min_horizontal(num_relevant(rows), pl.lit(k, dtype=pl.UInt32))
    return num_relevant(rows)


def _expected_precision(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(expected_hits(rows, m.k), _precision_denominator(rows, m.k))


def _precision(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(relevant_within(rows, m.k), _precision_denominator(rows, m.k))


PRECISION = QuerySpec(
    name="precision",
    measures=(TrecMeasure("P", 11, "cutoffs", TREC_CUTOFFS), TrecMeasure("set_P", 29)),
    spellings=Spellings(
        recommenders=("Precision", "retrieval_precision"),
        ir_measures=("SetP",),
        torchmetrics=("RetrievalPrecision",),
    ),
    top_k_only=True,
    aliases=("P", "p"),
    trec=("P_{k}", "set_P"),
    keep=keep_relevant,
    value=_precision,
    ties=TieSupport(extremal=True, average=_expected_precision),
)


def _expected_recall(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(expected_hits(rows, m.k), _recall_denominator(rows, m.k))


def _recall(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(relevant_within(rows, m.k), _recall_denominator(rows, m.k))


RECALL = QuerySpec(
    name="recall",
    measures=(TrecMeasure("recall", 13, "cutoffs", TREC_CUTOFFS), TrecMeasure("set_recall", 31)),
    spellings=Spellings(
        recommenders=("Recall", "retrieval_recall"),
        ir_measures=("R", "SetR"),
        torchmetrics=("RetrievalRecall",),
    ),
    top_k_only=True,
    unretrieved=True,
    trec=("recall_{k}", "set_recall"),
    keep=keep_relevant,
    value=_recall,
    ties=TieSupport(extremal=True, average=_expected_recall),
)


def _f1(m: Metric, rows: Rows) -> pl.Expr:
    k = m.k
    # 2PR / (P + R) with P = h/n and R = h/R simplifies to 2h / (n + R).
    n = num_retrieved(rows) if k is None else pl.lit(k)
    return ratio(2 * relevant_within(rows, k), n + num_relevant(rows))


def _expected_f1(m: Metric, rows: Rows) -> pl.Expr:
    n = num_retrieved(rows) if m.k is None else pl.lit(m.k)
    return ratio(2 * expected_hits(rows, m.k), n + num_relevant(rows))


F1 = QuerySpec(
    name="f1",
    spellings=Spellings(ir_measures=("SetF",)),
    top_k_only=True,
    unretrieved=True,
    aliases=("F1",),
    trec=("set_F",),
    keep=keep_relevant,
    value=_f1,
    ties=TieSupport(extremal=True, average=_expected_f1),
)


def _expected_hit_rate(m: Metric, rows: Rows) -> pl.Expr:
    # P(the first relevant item lies within k): the first-hit probabilities of the positions within k.
    return exact_sum(pl.when(within(rows, m.k)).then(pl.col(TIE_FIRST))).clip(0.0, 1.0)


def _hit_rate(m: Metric, rows: Rows) -> pl.Expr:
    return (relevant_within(rows, m.k) > 0).cast(pl.Float64)


HIT_RATE = QuerySpec(
    name="hit_rate",
    measures=(TrecMeasure("success", 28, "cutoffs", (1, 5, 10)),),
    spellings=Spellings(
        recommenders=("HR", "HitRate", "Hit", "retrieval_hit_rate"),
        ir_measures=("Success",),
        ranx=("hit-rate",),
        torchmetrics=("RetrievalHitRate",),
    ),
    top_k_only=True,
    aliases=("success",),
    trec=("success_{k}",),
    keep=keep_relevant,
    value=_hit_rate,
    ties=TieSupport(extremal=True, average=_expected_hit_rate),
)


def _expected_relative_precision(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(expected_hits(rows, m.k), pl.min_horizontal(room(rows, m.k), num_relevant(rows)))


def _relative_precision(m: Metric, rows: Rows) -> pl.Expr:
    # hits@k over the most relevant items k positions could hold: min(k, R).
    k = m.k
    return ratio(relevant_within(rows, k), pl.min_horizontal(room(rows, k), num_relevant(rows)))


RELATIVE_PRECISION = QuerySpec(
    name="relative_precision",
    measures=(TrecMeasure("relative_P", 27, "cutoffs", TREC_CUTOFFS), TrecMeasure("set_relative_P", 30)),
    unretrieved=True,
    aliases=("relative_P",),
    trec=("relative_P_{k}", "set_relative_P"),
    keep=keep_relevant,
    value=_relative_precision,
    ties=TieSupport(extremal=True, average=_expected_relative_precision),
)


def _set_map(_m: Metric, rows: Rows) -> pl.Expr:
    # set precision x set recall: num_rel_ret^2 / (num_ret * R)
    found = relevant_within(rows, None).cast(pl.Float64)
    n, r = num_retrieved(rows).cast(pl.Float64), num_relevant(rows).cast(pl.Float64)
    return ratio(found * found, n * r)


SET_MAP = QuerySpec(
    name="set_map",
    measures=(TrecMeasure("set_map", 32),),
    unretrieved=True,
    trec=("set_map",),
    keep=keep_relevant,
    value=_set_map,
    ties=TieSupport(extremal=True, average=ORDER_FREE, order_free_with_depth=False),
)


def _utility(m: Metric, rows: Rows) -> pl.Expr:
    # a*rel_ret + b*nonrel_ret + c*rel_missed + d*nonrel_missed, with trec_eval's
    # collection size left at 0 (its -N default).
    a, b, c, d = m.numbers("coefficients")
    found = relevant_within(rows, None).cast(pl.Float64)
    n, r = num_retrieved(rows).cast(pl.Float64), num_relevant(rows).cast(pl.Float64)
    return a * found + b * (n - found) + c * (r - found) + d * (found - n - r)


def _utility_measure(numbers: tuple[float, ...]) -> Metric:
    """trec_eval's ``utility.a,b,c,d``: exactly four coefficients."""
    if len(numbers) != 4:
        raise UnknownMetricError.bad_measure(None, f"utility takes 4 coefficients, got {len(numbers)}")
    return utility(*numbers)


_UTILITY_TIES = "its coefficients say whether relevant items first raise or lower it"
UTILITY = QuerySpec(
    name="utility",
    measures=(TrecMeasure("utility", 17, "numbers", (1, -1, 0, 0), build=_utility_measure),),
    k="none",
    trec=("utility",),
    params=(Param("coefficients", (1.0, -1.0, 0.0, 0.0), "floats", length=4),),
    keep=keep_relevant,
    value=_utility,
    ties=TieSupport(average=ORDER_FREE, order_free_with_depth=False, why=_UTILITY_TIES),
)


def _r_precision(_m: Metric, rows: Rows) -> pl.Expr:
    # Precision at rank R; R is a per-row count, so the agg stays streamable.
    return ratio((rows.rel & (rows.rank <= rows.num_rel)).sum(), num_relevant(rows))


def _expected_r_precision(_m: Metric, rows: Rows) -> pl.Expr:
    top = rows.rank <= rows.num_rel
    return ratio(exact_sum(pl.when(top).then(pl.col(TIE_REL))), num_relevant(rows))


R_PRECISION = QuerySpec(
    name="r_precision",
    measures=(TrecMeasure("Rprec", 7),),
    spellings=Spellings(
        recommenders=("retrieval_r_precision",),
        ir_measures=("Rprec",),
        ranx=("r-precision", "r_precision"),
        torchmetrics=("RetrievalRPrecision",),
    ),
    unretrieved=True,
    needs=frozenset({"num_rel"}),
    aliases=("rprec",),
    trec=("Rprec",),
    keep=keep_relevant,
    value=_r_precision,
    ties=TieSupport(extremal=True, average=_expected_r_precision),
)


@constructor(PRECISION)
def precision(k: int | None = None) -> Metric:
    """Precision: the share of the top `k` that is relevant.

    ``hits@k / k``; with ``k=None``, ``hits / num_ret`` (trec_eval ``set_P``).

    Parameters
    ----------
    k
        Cutoff. A list shorter than `k` counts the missing positions as
        non-relevant, as trec_eval's ``P_k`` does.

    Returns
    -------
    Metric
        ``precision@k``, averaged over queries; trec_eval name ``P_k``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "d"],
    ...     "score": [0.9, 0.5, 0.1, 0.8, None], "relevance": [0, 1, 1, 0, 1]})
    >>> prm.evaluate(df, [prm.precision(2)], per_query=True)
    shape: (2, 2)
    ┌───────┬─────────────┐
    │ query ┆ precision@2 │
    │ ---   ┆ ---         │
    │ i64   ┆ f64         │
    ╞═══════╪═════════════╡
    │ 1     ┆ 0.5         │
    │ 2     ┆ 0.0         │
    └───────┴─────────────┘
    """


@constructor(RECALL)
def recall(k: int | None = None) -> Metric:
    """Recall: the share of the query's relevant items found in the top `k`.

    ``hits@k / R``, where R counts every relevant judged item of the query,
    retrieved or not; 0 when R is 0.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list (trec_eval ``set_recall``).

    Returns
    -------
    Metric
        ``recall@k``, averaged over queries; trec_eval name ``recall_k``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "d"],
    ...     "score": [0.9, 0.5, 0.1, 0.8, None], "relevance": [0, 1, 1, 0, 1]})
    >>> prm.evaluate(df, [prm.recall(2)], per_query=True)
    shape: (2, 2)
    ┌───────┬──────────┐
    │ query ┆ recall@2 │
    │ ---   ┆ ---      │
    │ i64   ┆ f64      │
    ╞═══════╪══════════╡
    │ 1     ┆ 0.5      │
    │ 2     ┆ 0.0      │
    └───────┴──────────┘
    """


@constructor(F1)
def f1(k: int | None = None) -> Metric:
    """F1: harmonic mean of precision@k and recall@k.

    ``2 * hits@k / (k + R)``; with ``k=None`` it is trec_eval's ``set_F``
    (``2 * hits / (num_ret + R)``). 0 when both are 0.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.

    Returns
    -------
    Metric
        ``f1@k``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [0.9, 0.5, 0.1], "relevance": [0, 1, 1]})
    >>> prm.evaluate(df, [prm.f1(2)]).with_columns(pl.col("f1@2").round(4))
    shape: (1, 1)
    ┌──────┐
    │ f1@2 │
    │ ---  │
    │ f64  │
    ╞══════╡
    │ 0.5  │
    └──────┘
    """


@constructor(HIT_RATE)
def hit_rate(k: int | None = None) -> Metric:
    """Hit rate (success): 1 if any relevant item is in the top `k`, else 0.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.

    Returns
    -------
    Metric
        ``hit_rate@k``, averaged over queries; trec_eval name ``success_k``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "b"],
    ...     "score": [0.9, 0.5, 0.8, 0.1], "relevance": [0, 1, 1, 0]})
    >>> prm.evaluate(df, [prm.hit_rate(1)], per_query=True)
    shape: (2, 2)
    ┌───────┬────────────┐
    │ query ┆ hit_rate@1 │
    │ ---   ┆ ---        │
    │ i64   ┆ f64        │
    ╞═══════╪════════════╡
    │ 1     ┆ 0.0        │
    │ 2     ┆ 1.0        │
    └───────┴────────────┘
    """


@constructor(RELATIVE_PRECISION)
def relative_precision(k: int | None = None) -> Metric:
    """Relative precision: hits in the top `k` over ``min(k, R)``, the most possible.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list (trec_eval ``set_relative_P``).

    Returns
    -------
    Metric
        ``relative_precision@k``, averaged over queries; trec_eval name
        ``relative_P_k``. 0 when R is 0.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [3.0, 2.0, None], "relevance": [1, 0, 0]})
    >>> prm.evaluate(df, [prm.relative_precision(2), prm.precision(2)])
    shape: (1, 2)
    ┌──────────────────────┬─────────────┐
    │ relative_precision@2 ┆ precision@2 │
    │ ---                  ┆ ---         │
    │ f64                  ┆ f64         │
    ╞══════════════════════╪═════════════╡
    │ 1.0                  ┆ 0.5         │
    └──────────────────────┴─────────────┘
    """


def utility(a: float = 1.0, b: float = -1.0, c: float = 0.0, d: float = 0.0) -> Metric:
    """Linear utility: ``a*rel_ret + b*nonrel_ret + c*rel_missed + d*nonrel_missed``.

    trec_eval's ``utility.a,b,c,d``; the collection size is taken as 0 (its
    default), so `d` multiplies ``rel_ret - num_ret - R``.

    Parameters
    ----------
    a, b, c, d
        The coefficients; the default scores +1 per relevant and -1 per
        non-relevant retrieved item.

    Returns
    -------
    Metric
        ``utility``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [3.0, 2.0, 1.0], "relevance": [1, 0, None]})
    >>> prm.evaluate(df, [prm.utility(), prm.utility(2, -1, 0, 0)])
    shape: (1, 2)
    ┌─────────┬────────────────────────────────┐
    │ utility ┆ utility(coefficients=2,-1,0,0) │
    │ ---     ┆ ---                            │
    │ f64     ┆ f64                            │
    ╞═════════╪════════════════════════════════╡
    │ -1.0    ┆ 0.0                            │
    └─────────┴────────────────────────────────┘
    """
    return Metric(UTILITY, coefficients=(a, b, c, d))


@constructor(R_PRECISION)
def r_precision() -> Metric:
    """R-precision: precision at rank R, R being the query's number of relevant items.

    Returns
    -------
    Metric
        ``r_precision``, averaged over queries; trec_eval name ``Rprec``.
        0 for queries without relevant items.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [0.9, 0.5, 0.1, None], "relevance": [1, 0, 1, 1]})
    >>> prm.evaluate(df, [prm.r_precision()]).with_columns(pl.col("r_precision").round(4))
    shape: (1, 1)
    ┌─────────────┐
    │ r_precision │
    │ ---         │
    │ f64         │
    ╞═════════════╡
    │ 0.6667      │
    └─────────────┘
    """


@constructor(SET_MAP)
def set_map() -> Metric:
    """Set MAP: set precision times set recall, ``num_rel_ret**2 / (num_ret * R)`` (trec_eval ``set_map``).

    Returns
    -------
    Metric
        ``set_map``, averaged over queries; 0 when nothing relevant was retrieved.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [0.9, 0.5, 0.1, None], "relevance": [1, 0, 1, 1]})
    >>> prm.evaluate(df, [prm.set_map()]).with_columns(pl.col("set_map").round(4))
    shape: (1, 1)
    ┌─────────┐
    │ set_map │
    │ ---     │
    │ f64     │
    ╞═════════╡
    │ 0.4444  │
    └─────────┘
    """


SPECS = (
    spec_of(precision),
    spec_of(recall),
    spec_of(f1),
    spec_of(hit_rate),
    spec_of(relative_precision),
    spec_of(set_map),
    UTILITY,
    spec_of(r_precision),
)
