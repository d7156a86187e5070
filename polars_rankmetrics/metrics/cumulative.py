"""Gain measures that compare the ranking with the ideal one position by position.

trec_eval's G, ndcg_rel and Rndcg walk the ranking and the ideal ranking in
step, reading cumulative gains of one at positions of the other. Here that is
one frame of events per query, no join: each item of non-zero gain once where
the ranking puts it (an actual event) and once where the ideal ranking does
(an ideal event, positive gains only), with each side's running sums taken in
position order over both kinds. An event then reads the other side's running
sum at its own position: the ideal sums at a ranked item's position are the
ideal ones at ``min(position, L)`` (no ideal event lies past L), the actual
sums at an ideal position ``j`` those at ``min(j, n)``. Items of zero gain add
0.0 to every running sum, so leaving them out keeps the bits, and the three
measures read only the rows of non-zero gain (their ``keep``).
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import (
    NUM_REL,
    NUM_RET,
    RANK,
    VALUE,
    GainColumns,
    exact_sum,
    from_scaled,
    scaled_terms,
)
from polars_rankmetrics._spec import Metric, TableSpec, TieSupport, TrecMeasure
from polars_rankmetrics.metrics._core import discount
from polars_rankmetrics.metrics.graded import judged_ideal_only, keep_gain

__all__ = ["cost_gain", "ndcg_rel", "rndcg"]


_NEEDS = frozenset({"gain", "ideal_rank"})
_ACTUAL, _IDEAL = 0, 1  # the two kinds of event

_POS, _KIND, _L, _N, _R = "__pos", "__kind", "__L", "__n", "__R"
_GAIN, _IDEAL_GAIN, _NEXT_GAIN = "__gain", "__ideal_gain", "__next_gain"
_GAIN_SUM, _DCG, _COST, _IDCG = "__gain_sum", "__dcg", "__cost", "__idcg"
_LAST = "__last"
_SCALE = "__scale"  # the query's gain scale, where gains can be tiny (GainColumns.scale)


def _gain_sum(g: GainColumns, terms: pl.Expr) -> pl.Expr:
    """The exact sum of gain terms: at the query's gain scale where gains can be tiny (Rows.gain_sum)."""
    if g.scale is None:
        return exact_sum(terms)
    factor = pl.col(_SCALE)
    return from_scaled(scaled_terms(terms, factor).sum(), factor.first())


def _events(frame: pl.LazyFrame, keys: tuple[str, ...], g: GainColumns) -> pl.LazyFrame:
    """Per query, the actual and ideal events of the items of non-zero gain, with running sums.

    Running sums of the ranking's side (gain, DCG) are ordered actual-first at a
    shared position, so an ideal event at ``j`` sees the ranked item at ``j``;
    those of the ideal side (cost, IDCG) ideal-first, so a ranked item at ``p``
    sees the ideal item at ``p``. Each is the same sequence of float additions
    as a running sum over that side alone (the other side adds 0.0).
    """
    gain, ideal, rank = pl.col(g.gain), pl.col(g.ideal_rank), pl.col(RANK)
    base = frame.filter(gain != 0)
    zero = pl.lit(0.0)
    counts: tuple[pl.Expr, ...] = (pl.col(NUM_RET).alias(_N), pl.col(NUM_REL).alias(_R))
    if g.scale is not None:
        counts = (*counts, pl.col(g.scale).alias(_SCALE))
    actual = base.filter(rank.is_not_null()).select(
        *keys,
        rank.cast(pl.UInt32).alias(_POS),
        pl.lit(_ACTUAL, dtype=pl.UInt8).alias(_KIND),
        gain.alias(_GAIN),
        (gain / discount(rank)).alias(_DCG),
        zero.alias(_COST),
        zero.alias(_IDCG),
        pl.lit(None, dtype=pl.Float64).alias(_IDEAL_GAIN),
        pl.lit(None, dtype=pl.Float64).alias(_NEXT_GAIN),
        *counts,
    )
    ideal_side = base.filter(ideal.is_not_null()).select(
        *keys,
        ideal.cast(pl.UInt32).alias(_POS),
        pl.lit(_IDEAL, dtype=pl.UInt8).alias(_KIND),
        zero.alias(_GAIN),
        zero.alias(_DCG),
        pl.max_horizontal(gain, 1.0).alias(_COST),  # trec_eval's G: at least 1 per ideal position
        (gain / discount(ideal)).alias(_IDCG),
        gain.alias(_IDEAL_GAIN),
        gain.shift(-1).over(keys, order_by=ideal).alias(_NEXT_GAIN),
        *counts,
    )
    events = pl.concat([actual, ideal_side])
    twice = pl.col(_POS).cast(pl.UInt64) * 2
    kind = pl.col(_KIND).cast(pl.UInt64)
    actual_first, ideal_first = twice + kind, twice + (1 - kind)
    return events.with_columns(
        (pl.col(_KIND) == _IDEAL).sum().over(keys).cast(pl.UInt32).alias(_L),
        pl.col(_GAIN).cum_sum().over(keys, order_by=actual_first).alias(_GAIN_SUM),
        pl.col(_DCG).cum_sum().over(keys, order_by=actual_first),
        pl.col(_COST).cum_sum().over(keys, order_by=ideal_first),
        pl.col(_IDCG).cum_sum().over(keys, order_by=ideal_first),
        # The last event in actual-first order: its running DCG is the ranking's whole DCG.
        (actual_first == actual_first.max().over(keys)).alias(_LAST),
    )


def _g_table(_m: Metric, g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    actual, pos = pl.col(_KIND) == _ACTUAL, pl.col(_POS)
    # Ideal cost so far: max(ideal gain, 1) per ideal position, then 1 per position past the ideal list.
    cost = pl.col(_COST) + (pos - pl.min_horizontal(pos, pl.col(_L))).cast(pl.Float64)
    term = pl.col(_GAIN) / (2.0 + cost - pl.col(_GAIN_SUM)).log(2)
    out = (
        _events(frame, keys, g)
        .group_by(keys)
        .agg(
            _gain_sum(g, pl.when(actual).then(term)).alias("__g"),
            _gain_sum(g, pl.col(_IDEAL_GAIN)).alias("__best"),
        )
    )
    value = pl.when(pl.col("__best") > 0).then(pl.col("__g") / pl.col("__best"))
    return out.select(*keys, value.otherwise(0.0).alias(VALUE))


def _ndcg_rel_table(_m: Metric, g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    actual, ideal = pl.col(_KIND) == _ACTUAL, pl.col(_KIND) == _IDEAL
    positive = actual & (pl.col(_GAIN) > 0)
    out = (
        _events(frame, keys, g)
        .group_by(keys)
        .agg(
            exact_sum(pl.when(positive).then(pl.col(_DCG) / pl.col(_IDCG))).alias("__sum"),
            positive.sum().alias("__found"),
            _gain_sum(g, pl.when(actual).then(pl.col(_GAIN) / discount(pl.col(_POS)))).alias("__dcg_all"),
            pl.col(_L).first(),
            _gain_sum(g, pl.when(ideal).then(pl.col(_IDEAL_GAIN) / discount(pl.col(_POS)))).alias(
                "__idcg_all"
            ),
        )
    )
    # Relevant items never retrieved count at the final nDCG, as trec_eval does.
    missed = (pl.col(_L) - pl.col("__found")).cast(pl.Float64) * pl.col("__dcg_all") / pl.col("__idcg_all")
    total = pl.col("__sum") + missed
    value = pl.when((pl.col(_L) > 0) & (total > 0)).then(total / pl.col(_L).cast(pl.Float64))
    return out.select(*keys, value.otherwise(0.0).alias(VALUE))


def _rndcg_table(_m: Metric, g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    # Average nDCG at each position where the ideal gain steps down (ends of grade runs),
    # plus at the end of the ranking when it runs past the ideal list.
    next_gain = pl.col(_NEXT_GAIN)
    end = (pl.col(_KIND) == _IDEAL) & (next_gain.is_null() | (next_gain != pl.col(_IDEAL_GAIN)))
    out = (
        _events(frame, keys, g)
        .group_by(keys)
        .agg(
            exact_sum(pl.when(end).then(pl.col(_DCG) / pl.col(_IDCG))).alias("__sum"),
            end.sum().alias("__count"),
            pl.col(_L, _N, _R).first(),
            pl.when(end).then(pl.col(_IDCG)).max().alias("__idcg_all"),
            pl.when(pl.col(_LAST)).then(pl.col(_DCG)).max().alias("__dcg_all"),
        )
    )
    # trec_eval's first loop stops one position past the ideal list; only a ranking longer
    # than that (L + 1 < n) adds the final nDCG.
    tail = pl.col(_L) + 1 < pl.col(_N)
    total = pl.col("__sum") + pl.when(tail).then(pl.col("__dcg_all") / pl.col("__idcg_all")).otherwise(0.0)
    count = pl.col("__count") + tail.cast(pl.UInt32)
    # trec_eval returns 0 for a query without relevant items (by relevance level), whatever the gains.
    value = pl.when((pl.col(_R) > 0) & (pl.col("__count") > 0)).then(total / count.cast(pl.Float64))
    return out.select(*keys, value.otherwise(0.0).alias(VALUE))


G = TableSpec(
    name="cost_gain",
    measures=(TrecMeasure("G", 20, "pairs"),),
    unretrieved=True,
    aliases=("g", "G"),
    needs=_NEEDS,
    trec=("G",),
    keep=keep_gain,
    table=_g_table,
    refuse=judged_ideal_only,
    ties=TieSupport(
        why="trec_eval's G discounts by the gain found so far, so a larger gain first can lower it"
    ),
)
NDCG_REL = TableSpec(
    name="ndcg_rel",
    measures=(TrecMeasure("ndcg_rel", 23, "pairs"),),
    unretrieved=True,
    needs=_NEEDS,
    trec=("ndcg_rel",),
    keep=keep_gain,
    table=_ndcg_rel_table,
    refuse=judged_ideal_only,
    ties=TieSupport(extremal=True),
)
RNDCG = TableSpec(
    name="rndcg",
    measures=(TrecMeasure("Rndcg", 24, "pairs"),),
    unretrieved=True,
    aliases=("Rndcg",),
    needs=_NEEDS,
    trec=("Rndcg",),
    keep=keep_gain,
    table=_rndcg_table,
    refuse=judged_ideal_only,
    ties=TieSupport(extremal=True),
)


@constructor(G)
def cost_gain(*, gain: Mapping[float, float] | None = None) -> Metric:
    """trec_eval's G: normalised cumulative gain, each gain discounted by the ideal gain accumulated so far.

    Per retrieved item ``gain / log2(2 + ideal_cost - gain_so_far)``, where the ideal cost adds
    ``max(ideal gain, 1)`` per ideal position; summed and divided by the ideal list's total gain.

    Parameters
    ----------
    gain
        A ``{grade: gain}`` mapping for this metric alone; None uses the
        evaluation's ``gain`` convention.

    Returns
    -------
    Metric
        ``cost_gain``, averaged over queries; trec_eval name ``G`` (``g`` parses too).

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [0.9, 0.5, None], "relevance": [0, 2, 1]})
    >>> prm.evaluate(df, [prm.cost_gain()]).with_columns(pl.all().round(4))
    shape: (1, 1)
    ┌───────────┐
    │ cost_gain │
    │ ---       │
    │ f64       │
    ╞═══════════╡
    │ 0.4206    │
    └───────────┘
    """


@constructor(NDCG_REL)
def ndcg_rel(*, gain: Mapping[float, float] | None = None) -> Metric:
    """trec_eval's ndcg_rel: nDCG averaged over the ranks of the relevant items.

    nDCG at each retrieved item of positive gain (DCG there over the ideal DCG at that position,
    capped at the ideal list's length), relevant items never retrieved counting the final nDCG;
    divided by the number of items of positive gain.

    Parameters
    ----------
    gain
        A ``{grade: gain}`` mapping for this metric alone; None uses the
        evaluation's ``gain`` convention.

    Returns
    -------
    Metric
        ``ndcg_rel``, averaged over queries; trec_eval name ``ndcg_rel``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [0.9, 0.5, None], "relevance": [0, 2, 1]})
    >>> prm.evaluate(df, [prm.ndcg_rel()]).with_columns(pl.all().round(4))
    shape: (1, 1)
    ┌──────────┐
    │ ndcg_rel │
    │ ---      │
    │ f64      │
    ╞══════════╡
    │ 0.4796   │
    └──────────┘
    """


@constructor(RNDCG)
def rndcg(*, gain: Mapping[float, float] | None = None) -> Metric:
    """trec_eval's Rndcg: nDCG averaged over the positions where the ideal gain steps down.

    The ends of the ideal list's runs of equal grade, and the end of the ranking when it runs
    past the ideal list; 0 for a query without relevant items.

    Parameters
    ----------
    gain
        A ``{grade: gain}`` mapping for this metric alone; None uses the
        evaluation's ``gain`` convention.

    Returns
    -------
    Metric
        ``rndcg``, averaged over queries; trec_eval name ``Rndcg``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [0.9, 0.5, None], "relevance": [0, 2, 1]})
    >>> prm.evaluate(df, [prm.rndcg()]).with_columns(pl.all().round(4))
    shape: (1, 1)
    ┌────────┐
    │ rndcg  │
    │ ---    │
    │ f64    │
    ╞════════╡
    │ 0.2398 │
    └────────┘
    """


SPECS = (spec_of(cost_gain), spec_of(ndcg_rel), spec_of(rndcg))
