"""Counts, summed over queries: num_ret, num_rel, num_rel_ret, num_q."""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows
from polars_rankmetrics._spec import ORDER_FREE, Metric, QuerySpec, Ties
from polars_rankmetrics.metrics._core import hits, keep_none, keep_relevant, num_relevant, num_retrieved

__all__ = ["num_q", "num_rel", "num_rel_ret", "num_ret"]


def _num_ret(_m: Metric, rows: Rows) -> pl.Expr:
    return num_retrieved(rows)


NUM_RET = QuerySpec(
    name="num_ret",
    aggregate="sum",
    kind="int",
    trec=("num_ret",),
    keep=keep_none,
    value=_num_ret,
    ties=Ties(extremal=True, average=ORDER_FREE),
)


def _num_rel(_m: Metric, rows: Rows) -> pl.Expr:
    return num_relevant(rows)


NUM_REL = QuerySpec(
    name="num_rel",
    unretrieved=True,
    aggregate="sum",
    kind="int",
    trec=("num_rel",),
    keep=keep_none,
    value=_num_rel,
    ties=Ties(extremal=True, average=ORDER_FREE),
)


def _num_rel_ret(_m: Metric, rows: Rows) -> pl.Expr:
    return hits(rows, None)


NUM_REL_RET = QuerySpec(
    name="num_rel_ret",
    aggregate="sum",
    kind="int",
    trec=("num_rel_ret",),
    keep=keep_relevant,
    value=_num_rel_ret,
    ties=Ties(extremal=True, average=ORDER_FREE, order_free_with_depth=False),
)


def _num_q(_m: Metric, _rows: Rows) -> pl.Expr:
    return pl.lit(1, dtype=pl.Int64)


NUM_Q = QuerySpec(
    name="num_q",
    aggregate="sum",
    kind="int",
    trec=("num_q",),
    keep=keep_none,
    value=_num_q,
    ties=Ties(extremal=True, average=ORDER_FREE),
)


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


SPECS = (spec_of(num_ret), spec_of(num_rel), spec_of(num_rel_ret), spec_of(num_q))
