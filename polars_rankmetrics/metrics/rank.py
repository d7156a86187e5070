"""Metrics of where the relevant items sit: reciprocal rank and average precision."""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows, exact_sum, ratio
from polars_rankmetrics._spec import TREC_CUTOFFS, Metric, QuerySpec, Spellings, TieSupport, TrecMeasure
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.metrics._core import ap_denominator, keep_relevant, num_relevant, within
from polars_rankmetrics.metrics._ties import TIE_BEFORE, TIE_FIRST, TIE_REL, TIE_SIZE, TIE_START

__all__ = ["average_precision", "binary_cost_gain", "gm_map", "reciprocal_rank"]


def _mrr(m: Metric, rows: Rows) -> pl.Expr:
    first = rows.rank.filter(rows.rel & within(rows, m.k)).min()
    return (1.0 / first.cast(pl.Float64)).fill_null(0.0)


def _expected_mrr(m: Metric, rows: Rows) -> pl.Expr:
    return exact_sum(pl.when(within(rows, m.k)).then(pl.col(TIE_FIRST) / rows.rank.cast(pl.Float64)))


MRR = QuerySpec(
    name="mrr",
    measures=(TrecMeasure("recip_rank", 9),),
    spellings=Spellings(
        recommenders=("MRR", "RecipRank", "retrieval_reciprocal_rank"),
        ir_measures=("RR",),
        torchmetrics=("RetrievalMRR",),
    ),
    top_k_only=True,
    aliases=("reciprocal_rank",),
    trec=("recip_rank",),
    keep=keep_relevant,
    value=_mrr,
    ties=TieSupport(extremal=True, average=_expected_mrr),
)


def precision_at_hit(rows: Rows) -> pl.Expr:
    """Precision at each retrieved relevant item: (its rank among the hits) / (its rank); null elsewhere.

    AP sums it (one fixed-point term for every cutoff); interpolated precision takes maxima of it.
    """
    return rows.hit_rank.cast(pl.Float64) / rows.rank.cast(pl.Float64)


def precision_at_hits(rows: Rows, k: int | None) -> pl.Expr:
    """Sum over the relevant items in the top `k` of the precision at their rank: AP's numerator."""
    # A masked sum, not filter: a filter beside the window's first() falls back to the in-memory engine.
    return rows.exact_sum(precision_at_hit(rows), within(rows, k))


def _map(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(precision_at_hits(rows, m.k), ap_denominator(rows, m.k))


def _expected_map(m: Metric, rows: Rows) -> pl.Expr:
    # E[rel(p) * (1 + relevant above p)] / p at each position p of a group (s, n, r):
    # rho * (1 + H) from the groups above, plus (p - s) * r (r - 1) / (n (n - 1)) from the group itself.
    rho, n = pl.col(TIE_REL), pl.col(TIE_SIZE).cast(pl.Float64)
    r = rho * n
    pair = pl.when(n > 1).then(r * (r - 1.0) / (n * (n - 1.0))).otherwise(0.0)
    above = (rows.rank.cast(pl.Float64) - pl.col(TIE_START).cast(pl.Float64)) * pair
    term = (rho * (1.0 + pl.col(TIE_BEFORE).cast(pl.Float64)) + above) / rows.rank.cast(pl.Float64)
    # R and min(k, R) do not depend on the order; the relevant items found do (refused at a cutoff).
    return ratio(exact_sum(pl.when(within(rows, m.k) & (rho > 0)).then(term)), ap_denominator(rows, m.k))


def _map_refuses(m: Metric, conventions: Conventions) -> str | None:
    # The relevant items found in the top k vary with the order of a tie across the cutoff:
    # the expectation of the ratio has no closed form, and pushing a relevant item past the
    # cutoff can raise the ratio, so the grade order is no extreme either.
    if m.k is not None and conventions.ap_denominator == "found":
        return (
            "with ap_denominator='found' the relevant items found at the cutoff depend on the order "
            "of the ties; average precision without a cutoff takes it"
        )
    return None


MAP = QuerySpec(
    name="map",
    measures=(TrecMeasure("map", 5), TrecMeasure("map_cut", 26, "cutoffs", TREC_CUTOFFS)),
    spellings=Spellings(
        recommenders=("MAP", "AveragePrecision", "retrieval_average_precision"),
        ir_measures=("AP",),
        torchmetrics=("RetrievalMAP",),
    ),
    top_k_only=True,
    unretrieved=True,
    aliases=("ap", "average_precision"),
    needs=frozenset({"hit_rank"}),
    trec=("map_cut_{k}",),
    keep=keep_relevant,
    value=_map,
    ties=TieSupport(extremal=True, average=_expected_map, refuse=_map_refuses),
)


def _gm_map(_m: Metric, rows: Rows) -> pl.Expr:
    # Per query the average precision; over queries the geometric mean (floor 1e-5).
    return ratio(precision_at_hits(rows, None), num_relevant(rows))


GM_MAP = QuerySpec(
    name="gm_map",
    measures=(TrecMeasure("gm_map", 6, per_query=False, average="gm"),),
    unretrieved=True,
    aggregate="gmean",
    needs=frozenset({"hit_rank"}),
    trec=("gm_map",),
    keep=keep_relevant,
    value=_gm_map,
    ties=TieSupport(extremal=True),
)


def _bing(_m: Metric, rows: Rows) -> pl.Expr:
    # trec_eval's binG: sum over relevant retrieved items of 1 / log2(2 + nonrelevant above), over R.
    found = rows.rel & within(rows, None)
    above = (rows.rank - rows.hit_rank).cast(pl.Float64)
    return ratio(exact_sum(pl.when(found).then(1.0 / (above + 2.0).log(2))), num_relevant(rows))


BING = QuerySpec(
    name="binary_cost_gain",
    measures=(TrecMeasure("binG", 19),),
    aliases=("bing", "binG"),
    needs=frozenset({"hit_rank"}),
    trec=("binG",),
    keep=keep_relevant,
    value=_bing,
    ties=TieSupport(extremal=True),
)


@constructor(MRR)
def reciprocal_rank(k: int | None = None) -> Metric:
    """Reciprocal rank of the first relevant item in the top `k`; 0 if none.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.

    Returns
    -------
    Metric
        ``mrr`` or ``mrr@k``, averaged over queries (the mean reciprocal
        rank); trec_eval name ``recip_rank``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "d"],
    ...     "score": [0.9, 0.5, 0.1, 0.8, None], "relevance": [0, 1, 1, 0, 1]})
    >>> prm.evaluate(df, [prm.reciprocal_rank()], per_query=True)
    shape: (2, 2)
    ┌───────┬─────┐
    │ query ┆ mrr │
    │ ---   ┆ --- │
    │ i64   ┆ f64 │
    ╞═══════╪═════╡
    │ 1     ┆ 0.5 │
    │ 2     ┆ 0.0 │
    └───────┴─────┘
    """


@constructor(MAP)
def average_precision(k: int | None = None) -> Metric:
    """Average precision: mean of the precision at each relevant item, over R.

    The sum of precision at every relevant item retrieved in the top `k`,
    divided by R, the query's number of relevant items retrieved or not (as
    trec_eval's ``map`` and ``map_cut_k``); 0 when R is 0.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.

    Returns
    -------
    Metric
        ``map`` or ``map@k``, averaged over queries; trec_eval names ``map``
        and ``map_cut_k``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [0.9, 0.5, 0.1, None], "relevance": [1, 0, 1, 1]})
    >>> prm.evaluate(df, [prm.average_precision()]).with_columns(pl.col("map").round(4))
    shape: (1, 1)
    ┌────────┐
    │ map    │
    │ ---    │
    │ f64    │
    ╞════════╡
    │ 0.5556 │
    └────────┘
    """


@constructor(GM_MAP)
def gm_map() -> Metric:
    """Geometric mean average precision: AP per query, geometric mean over queries (trec_eval ``gm_map``).

    Each query's AP is floored at 1e-5 before the mean of logs, as trec_eval does.

    Returns
    -------
    Metric
        ``gm_map``; per query it is the query's AP.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "b"],
    ...     "score": [0.9, 0.5, 0.8, 0.1], "relevance": [0, 1, 1, 0]})
    >>> prm.evaluate(df, [prm.gm_map(), "map"]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌────────┬──────┐
    │ gm_map ┆ map  │
    │ ---    ┆ ---  │
    │ f64    ┆ f64  │
    ╞════════╪══════╡
    │ 0.7071 ┆ 0.75 │
    └────────┴──────┘
    """


@constructor(BING)
def binary_cost_gain() -> Metric:
    """trec_eval's ``binG``: per relevant retrieved item ``1 / log2(2 + non-relevant above)``.

    Summed over the relevant retrieved items and divided by R.

    Returns
    -------
    Metric
        ``binary_cost_gain``, averaged over queries; trec_eval name ``binG`` (``bing`` parses too).

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [0.9, 0.5, None], "relevance": [0, 1, 1]})
    >>> prm.evaluate(df, [prm.binary_cost_gain()]).with_columns(pl.all().round(4))
    shape: (1, 1)
    ┌──────────────────┐
    │ binary_cost_gain │
    │ ---              │
    │ f64              │
    ╞══════════════════╡
    │ 0.3155           │
    └──────────────────┘
    """


SPECS = (spec_of(reciprocal_rank), spec_of(average_precision), spec_of(gm_map), spec_of(binary_cost_gain))
