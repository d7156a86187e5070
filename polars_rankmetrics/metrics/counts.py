"""Counts: num_ret, num_rel, num_rel_ret and num_q summed over queries (trec_eval), hits@k averaged (ranx)."""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows, ratio
from polars_rankmetrics._spec import ORDER_FREE, Metric, QuerySpec, Spellings, TieSupport, TrecMeasure
from polars_rankmetrics.metrics._core import (
    keep_none,
    keep_relevant,
    keep_top,
    num_relevant,
    num_retrieved,
    relevant_within,
    within,
)
from polars_rankmetrics.metrics._ties import expected_hits

__all__ = [
    "covered_users", "hits", "num_q", "num_rel", "num_rel_ret", "num_ret", "sufficient_reco",
    "sufficient_reco_deep",
]  # fmt: skip


def _num_ret(_m: Metric, rows: Rows) -> pl.Expr:
    return num_retrieved(rows)


NUM_RET = QuerySpec(
    name="num_ret",
    measures=(TrecMeasure("num_ret", 2, average="sum"),),
    spellings=Spellings(ir_measures=("NumRet",)),
    aggregate="sum",
    kind="int",
    trec=("num_ret",),
    keep=keep_none,
    value=_num_ret,
    ties=TieSupport(extremal=True, average=ORDER_FREE),
)


def _num_rel(_m: Metric, rows: Rows) -> pl.Expr:
    return num_relevant(rows)


NUM_REL = QuerySpec(
    name="num_rel",
    measures=(TrecMeasure("num_rel", 3, average="num_rel"),),
    spellings=Spellings(ir_measures=("NumRel",)),
    unretrieved=True,
    aggregate="sum",
    kind="int",
    trec=("num_rel",),
    keep=keep_none,
    value=_num_rel,
    ties=TieSupport(extremal=True, average=ORDER_FREE),
)


def _num_rel_ret(_m: Metric, rows: Rows) -> pl.Expr:
    return relevant_within(rows, None)


NUM_REL_RET = QuerySpec(
    name="num_rel_ret",
    measures=(TrecMeasure("num_rel_ret", 4, average="sum"),),
    spellings=Spellings(ir_measures=("NumRelRet",)),
    aggregate="sum",
    kind="int",
    trec=("num_rel_ret",),
    keep=keep_relevant,
    value=_num_rel_ret,
    ties=TieSupport(extremal=True, average=ORDER_FREE, order_free_with_depth=False),
)


def _num_q(_m: Metric, _rows: Rows) -> pl.Expr:
    return pl.lit(1, dtype=pl.Int64)


NUM_Q = QuerySpec(
    name="num_q",
    measures=(TrecMeasure("num_q", 1, per_query=False, average="count"),),
    spellings=Spellings(ir_measures=("NumQ",)),
    aggregate="sum",
    kind="int",
    trec=("num_q",),
    keep=keep_none,
    value=_num_q,
    ties=TieSupport(extremal=True, average=ORDER_FREE),
)


def _hits(m: Metric, rows: Rows) -> pl.Expr:
    return relevant_within(rows, m.k).cast(pl.Float64)


def _expected(m: Metric, rows: Rows) -> pl.Expr:
    return expected_hits(rows, m.k)


HITS = QuerySpec(
    name="hits",
    top_k_only=True,
    keep=keep_relevant,
    value=_hits,
    ties=TieSupport(extremal=True, average=_expected),
)


@constructor(HITS)
def hits(k: int | None = None) -> Metric:
    """Hits: the number of relevant items in the top `k`, averaged over queries (ranx's ``hits``).

    Unlike :func:`num_rel_ret` (trec_eval's count, summed over queries), a
    mean: the expected number of relevant items a user finds in the first
    `k` places.

    Parameters
    ----------
    k
        Cutoff; None counts every retrieved item.

    Returns
    -------
    Metric
        ``hits@k``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "b"],
    ...     "score": [3.0, 2.0, 1.0, 2.0, 1.0], "relevance": [1, 0, 1, 0, 1]})
    >>> prm.evaluate(df, [prm.hits(2), prm.hits()], per_query=True)
    shape: (2, 3)
    ┌───────┬────────┬──────┐
    │ query ┆ hits@2 ┆ hits │
    │ ---   ┆ ---    ┆ ---  │
    │ i64   ┆ f64    ┆ f64  │
    ╞═══════╪════════╪══════╡
    │ 1     ┆ 1.0    ┆ 2.0  │
    │ 2     ┆ 1.0    ┆ 1.0  │
    └───────┴────────┴──────┘
    """


@constructor(NUM_RET)
def num_ret() -> Metric:
    """Number of retrieved items (within `depth`), summed over queries.

    Returns
    -------
    Metric
        ``num_ret``, an integer; trec_eval name ``num_ret``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2], "item": ["a", "b", "a"],
    ...     "score": [0.9, None, 0.3], "relevance": [1, 1, 0]})
    >>> prm.evaluate(df, [prm.num_ret(), prm.num_rel(), prm.num_rel_ret(), prm.num_q()])
    shape: (1, 4)
    ┌─────────┬─────────┬─────────────┬───────┐
    │ num_ret ┆ num_rel ┆ num_rel_ret ┆ num_q │
    │ ---     ┆ ---     ┆ ---         ┆ ---   │
    │ i64     ┆ i64     ┆ i64         ┆ i64   │
    ╞═════════╪═════════╪═════════════╪═══════╡
    │ 2       ┆ 2       ┆ 1           ┆ 2     │
    └─────────┴─────────┴─────────────┴───────┘
    """


@constructor(NUM_REL)
def num_rel() -> Metric:
    """Number of relevant items, retrieved or not, summed over queries.

    Returns
    -------
    Metric
        ``num_rel``, an integer; trec_eval name ``num_rel``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["a", "b"],
    ...     "score": [0.9, None], "relevance": [1, 2]})
    >>> prm.evaluate(df, [prm.num_rel()])
    shape: (1, 1)
    ┌─────────┐
    │ num_rel │
    │ ---     │
    │ i64     │
    ╞═════════╡
    │ 2       │
    └─────────┘
    """


@constructor(NUM_REL_RET)
def num_rel_ret() -> Metric:
    """Number of relevant items retrieved (within `depth`), summed over queries.

    Returns
    -------
    Metric
        ``num_rel_ret``, an integer; trec_eval name ``num_rel_ret``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["a", "b"],
    ...     "score": [0.9, None], "relevance": [1, 2]})
    >>> prm.evaluate(df, [prm.num_rel_ret()])
    shape: (1, 1)
    ┌─────────────┐
    │ num_rel_ret │
    │ ---         │
    │ i64         │
    ╞═════════════╡
    │ 1           │
    └─────────────┘
    """


@constructor(NUM_Q)
def num_q() -> Metric:
    """Number of evaluated queries (1 per query; summed over queries).

    Returns
    -------
    Metric
        ``num_q``, an integer; trec_eval name ``num_q``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 2, 3], "item": ["a", "a", "a"],
    ...     "score": [0.9, 0.1, 0.5], "relevance": [1, 0, None]})
    >>> prm.evaluate(df, [prm.num_q()])
    shape: (1, 1)
    ┌───────┐
    │ num_q │
    │ ---   │
    │ i64   │
    ╞═══════╡
    │ 2     │
    └───────┘
    """


def _covered(m: Metric, rows: Rows) -> pl.Expr:
    return within(rows, m.k).fill_null(value=False).any().cast(pl.Float64)


COVERED_USERS = QuerySpec(
    name="covered_users",
    aliases=("CoveredUsers",),
    keep=keep_top,
    value=_covered,
    ties=TieSupport(extremal=True, average=ORDER_FREE),
)


@constructor(COVERED_USERS)
def covered_users(k: int) -> Metric:
    """Share of judged users with at least one recommendation in the top `k` (RecTools' ``CoveredUsers``).

    Per user 1 when an item is listed within the top `k` (a rank column read
    with ``ranks="given"`` can leave the top k empty), else 0; averaged over
    the judged users: with ``missing="zero"`` (``preset="rectools"`` sets
    it) those without a list count 0; the default ``missing="skip"`` leaves
    them out (:func:`population` counts them).

    Parameters
    ----------
    k
        Cutoff.

    Returns
    -------
    Metric
        ``covered_users@k``, averaged over users.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 3, 4], "item": [1, 2, 1, 1, 1],
    ...     "score": [2.0, 1.0, 1.0, None, None], "relevance": [1, None, 1, 1, 1]})
    >>> prm.evaluate(df, [prm.covered_users(1)], preset="rectools")
    shape: (1, 1)
    ┌─────────────────┐
    │ covered_users@1 │
    │ ---             │
    │ f64             │
    ╞═════════════════╡
    │ 0.5             │
    └─────────────────┘
    """


def _listed_within(m: Metric, rows: Rows) -> pl.Expr:
    """The items listed within the top k: under ``ranks="given"``, those whose rank is at most k."""
    return within(rows, m.k).fill_null(value=False).sum().cast(pl.Float64)


def _sufficient(m: Metric, rows: Rows) -> pl.Expr:
    # RecTools' dq.py 130-137 (SufficientReco): the rows of rank <= k, at least k of them (deep=False)
    # or their share of k, at most 1 (deep=True).
    listed, k = _listed_within(m, rows), float(m.k or 0)
    if m.name == "sufficient_reco_deep":
        return pl.min_horizontal(ratio(listed, pl.lit(k)), pl.lit(1.0))  # a true quotient, alone or not
    return (listed >= k).cast(pl.Float64)


SUFFICIENT_RECO = QuerySpec(
    name="sufficient_reco", spellings=Spellings(recommenders=("SufficientReco",)), judgments=False,
    keep=keep_top, value=_sufficient, ties=TieSupport(extremal=True, average=ORDER_FREE),
)  # fmt: skip
SUFFICIENT_RECO_DEEP = QuerySpec(
    name="sufficient_reco_deep", judgments=False, keep=keep_top, value=_sufficient,
    ties=TieSupport(extremal=True, average=ORDER_FREE),
)  # fmt: skip


@constructor(SUFFICIENT_RECO)
def sufficient_reco(k: int) -> Metric:
    """Share of users whose list fills the top `k` (RecTools' ``SufficientReco``).

    Per user 1 when at least `k` items are listed within the top `k`, else
    0: ``[n_k >= k]`` with ``n_k`` the items of rank at most `k` (under
    ``ranks="given"`` a gapped rank column can leave positions empty);
    averaged over users. It reads no judgments: a frame without a relevance
    column counts every user with a list (RecTools' users of the
    recommendations); with judgments, the users the evaluation counts.
    :func:`sufficient_reco_deep` is the share of the `k` positions filled.

    Parameters
    ----------
    k
        The number of recommendations each user needs.

    Returns
    -------
    Metric
        ``sufficient_reco@k``, averaged over users; RecTools' spelling
        ``SufficientReco@k``.

    References
    ----------
    RecTools, ``rectools/metrics/dq.py`` (``SufficientReco``).

    Examples
    --------
    RecTools' own example: lists of 2, 3 and 5 items.

    >>> df = pl.DataFrame({"query": [1, 1, 2, 2, 2, 3, 3, 3, 3, 3], "item": [1, 2, 1, 2, 3, 1, 2, 3, 4, 5],
    ...     "score": [2.0, 1, 3, 2, 1, 5, 4, 3, 2, 1], "relevance": 0})
    >>> prm.evaluate(df, [prm.sufficient_reco(1), prm.sufficient_reco(4), prm.sufficient_reco_deep(4)],
    ...     per_query=True)
    shape: (3, 4)
    ┌───────┬───────────────────┬───────────────────┬────────────────────────┐
    │ query ┆ sufficient_reco@1 ┆ sufficient_reco@4 ┆ sufficient_reco_deep@4 │
    │ ---   ┆ ---               ┆ ---               ┆ ---                    │
    │ i64   ┆ f64               ┆ f64               ┆ f64                    │
    ╞═══════╪═══════════════════╪═══════════════════╪════════════════════════╡
    │ 1     ┆ 1.0               ┆ 0.0               ┆ 0.5                    │
    │ 2     ┆ 1.0               ┆ 0.0               ┆ 0.75                   │
    │ 3     ┆ 1.0               ┆ 1.0               ┆ 1.0                    │
    └───────┴───────────────────┴───────────────────┴────────────────────────┘
    """


@constructor(SUFFICIENT_RECO_DEEP)
def sufficient_reco_deep(k: int) -> Metric:
    """Share of the top `k` positions a list fills (RecTools' ``SufficientReco(deep=True)``).

    Per user ``min(n_k / k, 1)`` with ``n_k`` the items of rank at most `k`
    (under ``ranks="given"`` tied ranks can put more than `k` there);
    averaged over users. It reads no judgments (see :func:`sufficient_reco`).

    Parameters
    ----------
    k
        The number of recommendations each user needs.

    Returns
    -------
    Metric
        ``sufficient_reco_deep@k``, averaged over users.

    References
    ----------
    RecTools, ``rectools/metrics/dq.py`` (``SufficientReco``, ``deep=True``).

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2], "item": [1, 2, 1], "score": [2.0, 1.0, 1.0], "relevance": 0})
    >>> prm.evaluate(df, [prm.sufficient_reco_deep(4), prm.sufficient_reco(2)])
    shape: (1, 2)
    ┌────────────────────────┬───────────────────┐
    │ sufficient_reco_deep@4 ┆ sufficient_reco@2 │
    │ ---                    ┆ ---               │
    │ f64                    ┆ f64               │
    ╞════════════════════════╪═══════════════════╡
    │ 0.375                  ┆ 0.5               │
    └────────────────────────┴───────────────────┘
    """


SPECS = (
    spec_of(num_ret), spec_of(num_rel), spec_of(num_rel_ret), spec_of(num_q), spec_of(hits),
    spec_of(covered_users), spec_of(sufficient_reco), spec_of(sufficient_reco_deep),
)  # fmt: skip
