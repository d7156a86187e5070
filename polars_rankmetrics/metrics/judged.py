"""Measures for incomplete judgments: bpref, infAP and the share of unjudged items.

They tell judged non-relevant items (grade ``>= 0`` and below the
relevance level) from unjudged ones (null grade: outside the pool; negative
grade: pooled but not judged), as trec_eval does.
"""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows, exact_sum, ratio
from polars_rankmetrics._spec import ORDER_FREE, Metric, QuerySpec, Spellings, TieSupport, TrecMeasure
from polars_rankmetrics.metrics._core import keep_grade, num_relevant, num_retrieved, within

__all__ = ["bpref", "gm_bpref", "infap", "num_nonrel_judged_ret", "unjudged"]

_INFAP_EPSILON = 1e-5  # trec_eval's INFAP_EPSILON
_BPREF_NEEDS = frozenset({"hit_rank", "judged_rank", "num_rel", "num_nonrel"})


def _bpref_terms(rows: Rows) -> pl.Expr:
    """Per relevant retrieved item: the share of the top R non-relevant items ranked below it."""
    hit_rank = rows.hit_rank
    nonrel_above = (rows.judged_rank - hit_rank).cast(pl.Float64)
    n_rel, n_nonrel = rows.num_rel.cast(pl.Float64), rows.num_nonrel.cast(pl.Float64)
    term = 1.0 - pl.min_horizontal(nonrel_above, n_rel) / pl.min_horizontal(n_nonrel, n_rel)
    return pl.when(hit_rank.is_null()).then(None).when(nonrel_above > 0).then(term).otherwise(1.0)


_keep_judged = keep_grade(lambda grade: grade >= 0)
_keep_pooled = keep_grade(lambda grade: grade.is_not_null())


def _bpref(_m: Metric, rows: Rows) -> pl.Expr:
    return ratio(exact_sum(_bpref_terms(rows)), num_relevant(rows))


BPREF = QuerySpec(
    name="bpref",
    measures=(TrecMeasure("bpref", 8),),
    spellings=Spellings(ir_measures=("Bpref",)),
    unretrieved=True,
    needs=_BPREF_NEEDS,
    trec=("bpref",),
    keep=_keep_judged,
    value=_bpref,
    ties=TieSupport(extremal=True),
)


GM_BPREF = QuerySpec(
    name="gm_bpref",
    measures=(TrecMeasure("gm_bpref", 15, per_query=False, average="gm"),),
    unretrieved=True,
    aggregate="gmean",
    needs=_BPREF_NEEDS,
    trec=("gm_bpref",),
    keep=_keep_judged,
    value=_bpref,
    ties=TieSupport(extremal=True),
)


def _infap(_m: Metric, rows: Rows) -> pl.Expr:
    # Yilmaz and Aslam (2006), as trec_eval computes it at each relevant retrieved item.
    hit_rank = rows.hit_rank
    j = (rows.rank - 1).cast(pl.Float64)  # 0-based position
    rel_above = (hit_rank - 1).cast(pl.Float64)
    nonrel_above = (rows.judged_rank - hit_rank).cast(pl.Float64)
    unjudged_above = (rows.pool_rank - rows.judged_rank).cast(pl.Float64)
    term = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((rel_above + nonrel_above + unjudged_above) / j) * (
        (rel_above + _INFAP_EPSILON) / (rel_above + nonrel_above + 2 * _INFAP_EPSILON)
    )
    terms = pl.when(hit_rank.is_null()).then(None).when(j == 0).then(1.0).otherwise(term)
    return ratio(exact_sum(terms), num_relevant(rows))


INFAP = QuerySpec(
    name="infap",
    measures=(TrecMeasure("infAP", 14),),
    unretrieved=True,
    aliases=("infAP",),
    needs=frozenset({"hit_rank", "judged_rank", "pool_rank"}),
    trec=("infAP",),
    keep=_keep_pooled,
    value=_infap,
    ties=TieSupport(why="an estimate that is not monotone in the order of the tied items"),
)


def _unjudged(m: Metric, rows: Rows) -> pl.Expr:
    # Null grade (outside the pool) or negative grade (pooled, not judged), over k as trec_eval:
    # the items within k less the judged ones, read from the judged rows alone (the unjudged
    # are most of a run; keeping the top k of every query cost the all_trec set a tenth).
    judged = ((rows.grade >= 0) & within(rows, m.k)).fill_null(value=False).sum().cast(pl.Int64)
    return ratio(num_retrieved(rows, m.k).cast(pl.Int64) - judged, pl.lit(m.k))


UNJUDGED = QuerySpec(
    name="unjudged",
    measures=(TrecMeasure("unj", 37, "cutoffs", (5, 10, 20)),),
    aliases=("unj",),
    needs=frozenset({"grade"}),
    trec=("unj_{k}",),
    keep=_keep_judged,
    value=_unjudged,
    ties=TieSupport(why="it counts unjudged items, which no grade order puts first or last"),
)


def _num_nonrel_judged_ret(_m: Metric, rows: Rows) -> pl.Expr:
    return ((rows.grade >= 0) & ~rows.rel & within(rows, None)).sum()


NUM_NONREL_JUDGED_RET = QuerySpec(
    name="num_nonrel_judged_ret",
    measures=(TrecMeasure("num_nonrel_judged_ret", 34, average="sum"),),
    aggregate="sum",
    kind="int",
    needs=frozenset({"grade"}),
    trec=("num_nonrel_judged_ret",),
    keep=_keep_judged,
    value=_num_nonrel_judged_ret,
    ties=TieSupport(
        average=ORDER_FREE, order_free_with_depth=False, why="a count of non-relevant items, not a score"
    ),
)


@constructor(BPREF)
def bpref() -> Metric:
    """Binary preference (Buckley and Voorhees, 2004): robust to missing judgments.

    For each relevant retrieved item, the share of the first R judged
    non-relevant items ranked below it; summed and divided by R. Unjudged
    items are ignored.

    Returns
    -------
    Metric
        ``bpref``, averaged over queries; trec_eval name ``bpref``
        (``gm_bpref`` for the geometric mean).

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [4.0, 3.0, 2.0, 1.0], "relevance": [0, None, 1, 1]})
    >>> prm.evaluate(df, [prm.bpref()])
    shape: (1, 1)
    ┌───────┐
    │ bpref │
    │ ---   │
    │ f64   │
    ╞═══════╡
    │ 0.0   │
    └───────┘
    """


@constructor(INFAP)
def infap() -> Metric:
    """Inferred average precision (Yilmaz and Aslam, 2006), trec_eval's ``infAP``.

    Estimates average precision when the judgment pool was sampled: pooled
    but unjudged items (negative grades) are assumed relevant in the same
    proportion as the judged ones; items outside the pool count as
    non-relevant.

    Returns
    -------
    Metric
        ``infap``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [3.0, 2.0, 1.0], "relevance": [1, 0, 1]})
    >>> prm.evaluate(df, [prm.infap()]).with_columns(pl.col("infap").round(4))
    shape: (1, 1)
    ┌────────┐
    │ infap  │
    │ ---    │
    │ f64    │
    ╞════════╡
    │ 0.8333 │
    └────────┘
    """


@constructor(UNJUDGED)
def unjudged(k: int) -> Metric:
    """Share of the top `k` that is unjudged (null or negative grade), over `k`.

    Parameters
    ----------
    k
        Cutoff.

    Returns
    -------
    Metric
        ``unjudged@k``, averaged over queries; trec_eval name ``unj_k``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [3.0, 2.0, 1.0], "relevance": [1, None, -1]})
    >>> prm.evaluate(df, [prm.unjudged(4)])
    shape: (1, 1)
    ┌────────────┐
    │ unjudged@4 │
    │ ---        │
    │ f64        │
    ╞════════════╡
    │ 0.5        │
    └────────────┘
    """


@constructor(GM_BPREF)
def gm_bpref() -> Metric:
    """Bpref per query, geometric mean over queries (trec_eval ``gm_bpref``; values floored at 1e-5).

    Returns
    -------
    Metric
        ``gm_bpref``; per query it is the query's bpref.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "b"],
    ...     "score": [0.9, 0.5, 0.8, 0.1], "relevance": [0, 1, 1, 0]})
    >>> prm.evaluate(df, [prm.gm_bpref(), "bpref"]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌──────────┬───────┐
    │ gm_bpref ┆ bpref │
    │ ---      ┆ ---   │
    │ f64      ┆ f64   │
    ╞══════════╪═══════╡
    │ 0.0032   ┆ 0.5   │
    └──────────┴───────┘
    """


@constructor(NUM_NONREL_JUDGED_RET)
def num_nonrel_judged_ret() -> Metric:
    """Judged non-relevant items retrieved, summed over queries (trec_eval ``num_nonrel_judged_ret``).

    Returns
    -------
    Metric
        ``num_nonrel_judged_ret``, an integer count summed over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [0.9, 0.5, 0.1], "relevance": [0, 1, None]})
    >>> prm.evaluate(df, [prm.num_nonrel_judged_ret()])
    shape: (1, 1)
    ┌───────────────────────┐
    │ num_nonrel_judged_ret │
    │ ---                   │
    │ i64                   │
    ╞═══════════════════════╡
    │ 1                     │
    └───────────────────────┘
    """


SPECS = (spec_of(bpref), spec_of(gm_bpref), spec_of(infap), spec_of(unjudged), spec_of(num_nonrel_judged_ret))
