"""Gain measures that compare the ranking with the ideal one position by position.

trec_eval's G, ndcg_rel and Rndcg walk the ranking and the ideal ranking in
step, reading cumulative gains of one at positions of the other. Here that is
two projections of the prepared frame (the retrieved items with cumulative
sums in rank order, the ideal items with cumulative sums in ideal order)
joined on position. Because they read the prepared frame twice, the
streaming engine buffers it; only these three measures pay for that.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from polars_rankmetrics._kernel import NUM_REL, NUM_RET, RANK, VALUE, GainColumns, exact_sum
from polars_rankmetrics._spec import Metric, TableSpec
from polars_rankmetrics.metrics.graded import GAIN_MAP

_NEEDS = frozenset({"gain", "ideal_rank"})


def _discount(position: pl.Expr) -> pl.Expr:
    return (position.cast(pl.Float64) + 1.0).log(2)


def _sides(frame: pl.LazyFrame, keys: tuple[str, ...], g: GainColumns) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """(retrieved items with running sums, ideal items with running sums), per query."""
    gain, ideal = pl.col(g.gain), pl.col(g.ideal_rank)
    base = frame.with_columns(
        ideal.count().over(keys).alias("__L"),  # ideal list length: items of positive gain
        pl.col(NUM_RET).alias("__n"),  # number retrieved
        pl.col(NUM_REL).alias("__R"),  # number relevant
    )
    actual = base.filter(pl.col(RANK).is_not_null()).select(
        *keys,
        pl.col(RANK).alias("__pos"),
        gain.alias("__gain"),
        "__L",
        "__n",
        gain.cum_sum().over(keys, order_by=RANK).alias("__gain_sum"),
        (gain / _discount(pl.col(RANK))).cum_sum().over(keys, order_by=RANK).alias("__dcg"),
    )
    ideal_side = base.filter(ideal.is_not_null()).select(
        *keys,
        ideal.alias("__pos"),
        gain.alias("__ideal_gain"),
        "__L",
        "__n",
        "__R",
        pl.max_horizontal(gain, 1.0).cum_sum().over(keys, order_by=ideal).alias("__cost"),
        (gain / _discount(ideal)).cum_sum().over(keys, order_by=ideal).alias("__idcg"),
        gain.shift(-1).over(keys, order_by=ideal).alias("__next_gain"),
    )
    return actual, ideal_side


def _g_table(_m: Metric, g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    actual, ideal = _sides(frame, keys, g)
    at = pl.min_horizontal(pl.col("__pos"), pl.col("__L"))
    joined = actual.with_columns(at.alias("__at")).join(
        ideal.select(*keys, pl.col("__pos").alias("__at"), "__cost"), on=[*keys, "__at"], how="left"
    )
    # Ideal cost so far: max(ideal gain, 1) per ideal position, then 1 per position past the ideal list.
    cost = pl.col("__cost").fill_null(0.0) + (pl.col("__pos") - pl.col("__at")).cast(pl.Float64)
    term = pl.col("__gain") / (2.0 + cost - pl.col("__gain_sum")).log(2)
    found = joined.group_by(keys).agg(exact_sum(pl.when(pl.col("__gain") != 0).then(term)).alias("__g"))
    best = ideal.group_by(keys).agg(exact_sum(pl.col("__ideal_gain")).alias("__best"))
    out = best.join(found, on=list(keys), how="left")
    value = pl.when(pl.col("__best") > 0).then(pl.col("__g").fill_null(0.0) / pl.col("__best"))
    return out.select(*keys, value.otherwise(0.0).alias(VALUE))


def _ndcg_rel_table(_m: Metric, g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    actual, ideal = _sides(frame, keys, g)
    at = pl.min_horizontal(pl.col("__pos"), pl.col("__L"))
    joined = actual.with_columns(at.alias("__at")).join(
        ideal.select(*keys, pl.col("__pos").alias("__at"), "__idcg"), on=[*keys, "__at"], how="left"
    )
    positive = pl.col("__gain") > 0
    per_query = joined.group_by(keys).agg(
        exact_sum(pl.when(positive).then(pl.col("__dcg") / pl.col("__idcg"))).alias("__sum"),
        positive.sum().alias("__found"),
        exact_sum(pl.col("__gain") / _discount(pl.col("__pos"))).alias("__dcg_all"),
    )
    ideal_total = ideal.group_by(keys).agg(
        pl.col("__L").first().alias("__L"),
        exact_sum(pl.col("__ideal_gain") / _discount(pl.col("__pos"))).alias("__idcg_all"),
    )
    out = ideal_total.join(per_query, on=list(keys), how="left").with_columns(
        pl.col("__sum", "__dcg_all").fill_null(0.0), pl.col("__found").fill_null(0)
    )
    # Relevant items never retrieved count at the final nDCG, as trec_eval does.
    missed = (pl.col("__L") - pl.col("__found")).cast(pl.Float64) * pl.col("__dcg_all") / pl.col("__idcg_all")
    total = pl.col("__sum") + missed
    value = pl.when(total > 0).then(total / pl.col("__L").cast(pl.Float64)).otherwise(0.0)
    return out.select(*keys, value.alias(VALUE))


def _rndcg_table(_m: Metric, g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    actual, ideal = _sides(frame, keys, g)
    # Average nDCG at each position where the ideal gain steps down (ends of grade runs),
    # plus at the end of the ranking when it runs past the ideal list.
    ends = ideal.filter(pl.col("__next_gain").is_null() | (pl.col("__next_gain") != pl.col("__ideal_gain")))
    ends = ends.with_columns(pl.min_horizontal(pl.col("__pos"), pl.col("__n")).alias("__at"))
    at_ends = ends.join(
        actual.select(*keys, pl.col("__pos").alias("__at"), "__dcg"), on=[*keys, "__at"], how="left"
    ).with_columns(pl.col("__dcg").fill_null(0.0))
    step_sum = at_ends.group_by(keys).agg(
        exact_sum(pl.col("__dcg") / pl.col("__idcg")).alias("__sum"),
        pl.len().alias("__count"),
        pl.col("__L").first(),
        pl.col("__n").first(),
        pl.col("__idcg").max().alias("__idcg_all"),
        pl.col("__R").first(),
    )
    last = actual.filter(pl.col("__pos") == pl.col("__n")).select(*keys, pl.col("__dcg").alias("__dcg_all"))
    out = step_sum.join(last, on=list(keys), how="left")
    # trec_eval's first loop stops one position past the ideal list; only a ranking longer
    # than that (L + 1 < n) adds the final nDCG.
    tail = pl.col("__L") + 1 < pl.col("__n")
    total = pl.col("__sum") + pl.when(tail).then(pl.col("__dcg_all") / pl.col("__idcg_all")).otherwise(0.0)
    count = pl.col("__count") + tail.cast(pl.UInt32)
    # trec_eval returns 0 for a query without relevant items (by relevance level), whatever the gains.
    value = pl.when(pl.col("__R") > 0).then(total / count.cast(pl.Float64)).otherwise(0.0)
    return out.select(*keys, value.alias(VALUE))


G = TableSpec(
    name="g", k="none", aliases=("G",), needs=_NEEDS, trec=("G",), params=(GAIN_MAP,), table=_g_table
)
NDCG_REL = TableSpec(
    name="ndcg_rel", k="none", needs=_NEEDS, trec=("ndcg_rel",), params=(GAIN_MAP,), table=_ndcg_rel_table
)
RNDCG = TableSpec(
    name="rndcg",
    k="none",
    aliases=("Rndcg",),
    needs=_NEEDS,
    trec=("Rndcg",),
    params=(GAIN_MAP,),
    table=_rndcg_table,
)


def g(*, gain: Mapping[float, float] | None = None) -> Metric:
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
        ``g``, averaged over queries; trec_eval name ``G``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [0.9, 0.5, None], "relevance": [0, 2, 1]})
    >>> prm.evaluate(df, [prm.g()]).with_columns(pl.all().round(4))
    shape: (1, 1)
    ┌────────┐
    │ g      │
    │ ---    │
    │ f64    │
    ╞════════╡
    │ 0.4206 │
    └────────┘
    """
    return Metric(G, gain=gain)


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
    return Metric(NDCG_REL, gain=gain)


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
    return Metric(RNDCG, gain=gain)


SPECS = (G, NDCG_REL, RNDCG)
