"""The supervised fusion methods: each trained on judgments, then a CombSUM of per-run terms.

Training reads each run's ranking (after normalisation) and the judgments
(relevant: grade >= 1); Q is the number of queries the runs hold (a run
without a list for a query counts as an empty list, as ranx's runs share
their queries), p an item's 0-based position in its run's list of length n.
Definitions are ranx's (``ranx.fusion``):

=============  =====================================================================
``posfuse``    P_r(p), the share of the run's lists of length > p with a relevant
               item at p; term P_r(p) (0 past the training lists)     (Lillis et al.)
``slidefuse``  the mean of P_r over positions [max(p - w, 0), min(p + w, n - 1)]
               (positions past the training lists count 0)            (Lillis et al. 2008)
``probfuse``   n_segments segments of ceil(n / n_segments) positions; P_r(k) the mean
               over queries of the share of relevant items in segment k (Q in the
               denominator); term P_r(k) / (k + 1)                    (Lillis et al. 2006)
``segfuse``    fixed segments [0, 5), [5, 15), [15, 35) ... (sizes 10 * 2**(k-1), 5 first);
               P_r(k) as probfuse's; term P_r(k) * (s + 1), s the normalised
               score, 0 past position 5115                            (Shokouhi 2007)
``bayesfuse``  segments cut at 5, 10, 15, 20, 30, 100, 200, 500, 1000; the log odds
               log(P / (1 - P)) of the segment's mean precision P (P = 0 read as
               0.001, 1 as 0.999); a run missing the item, or listing it past
               position 1000, gives log(0.001 / 0.999)                (Aslam & Montague 2001)
``mapfuse``    MAP_r / (p + 1), MAP_r the run's mean average precision over the Q
               queries                                                (Lillis et al. 2010)
=============  =====================================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from polars_rankmetrics._kernel import exact_sum, fixed_point, from_fixed_point
from polars_rankmetrics.fusion._methods import MIN_ODD, TERM
from polars_rankmetrics.fusion._normalize import LEN, RANK, RUN, VALUE, Layout

__all__ = ["supervised_terms"]

_HIT = "__fuse_hit"
_PROB = "__fuse_prob"
_SEG = "__fuse_segment"
_QUERIES = "__fuse_queries"
_SEGFUSE_CUTS = (0, 5, 15, 35, 75, 155, 315, 635, 1275, 2555, 5115)
_BAYES_CUTS = (0, 5, 10, 15, 20, 30, 100, 200, 500, 1000)


def _with_hit_flags(lf: pl.LazyFrame, qrels: pl.LazyFrame, relevance: str, lay: Layout) -> pl.LazyFrame:
    """The ranked runs with HIT (judged relevant) and QUERIES (the number of queries)."""
    q, i = lay.query, lay.item
    relevant = qrels.filter(pl.col(relevance) >= 1).select(q, i, pl.lit(1.0).alias(_HIT)).unique()
    return lf.join(relevant, on=[q, i], how="left").with_columns(
        pl.col(_HIT).fill_null(0.0), pl.col(q).n_unique().alias(_QUERIES)
    )


def _segment(position: pl.Expr, cuts: Sequence[int]) -> pl.Expr:
    """The index of the segment [cuts[k], cuts[k + 1]) holding `position`; len(cuts) - 1 past the last."""
    return pl.sum_horizontal([(position >= c).cast(pl.Int64) for c in cuts[1:]])


def _size(segment: pl.Expr, cuts: Sequence[int]) -> pl.Expr:
    size = pl.lit(None, dtype=pl.Float64)
    for k in range(len(cuts) - 1):
        size = pl.when(segment == k).then(float(cuts[k + 1] - cuts[k])).otherwise(size)
    return size


def _per_position(hits: pl.LazyFrame) -> pl.LazyFrame:
    """Posfuse's P_r(p): (RUN, RANK, PROB)."""
    return hits.group_by(RUN, RANK).agg(pl.col(_HIT).mean().alias(_PROB))


def _slide(lf: pl.LazyFrame, hits: pl.LazyFrame, w: pl.Expr) -> pl.LazyFrame:
    """Slidefuse's term: the window mean of P_r from its prefix sums C_r(m) = P_r(0) + ... + P_r(m - 1).

    The prefix sums are exact (fixed point, :func:`fixed_point`), so two
    windows holding the same probabilities give the same term, bit for bit,
    as ranx's direct sums do: a tie stays a tie.
    """
    probs = _per_position(hits)
    exact = fixed_point(pl.col(_PROB)).cum_sum().over(RUN, order_by=RANK)
    prefix = probs.select(RUN, RANK, exact.alias(_PROB))
    zero = (
        probs.select(RUN)
        .unique()
        .with_columns(pl.lit(0, dtype=pl.Int64).alias(RANK), pl.lit(0, dtype=pl.Int128).alias(_PROB))
    )
    prefix = pl.concat([prefix.with_columns(pl.col(RANK).cast(pl.Int64)), zero])
    longest = probs.group_by(RUN).agg(pl.col(RANK).max().cast(pl.Int64).alias("__fuse_longest"))
    p, w = pl.col(RANK) - 1, w.cast(pl.Int64)
    lo, hi = pl.max_horizontal(p - w, 0), pl.min_horizontal(p + w, pl.col(LEN) - 1)
    top = pl.col("__fuse_longest")
    lf = lf.join(longest, on=RUN, how="left").with_columns(
        pl.min_horizontal(hi + 1, top).alias("__fuse_hi"), pl.min_horizontal(lo, top).alias("__fuse_lo"),
        (hi - lo + 1).alias("__fuse_width"),
    )  # fmt: skip
    for end in ("hi", "lo"):
        at = prefix.select(RUN, pl.col(RANK).alias(f"__fuse_{end}"), pl.col(_PROB).alias(f"__fuse_c{end}"))
        lf = lf.join(at, on=[RUN, f"__fuse_{end}"], how="left")
    return lf.with_columns(
        (from_fixed_point(pl.col("__fuse_chi") - pl.col("__fuse_clo")) / pl.col("__fuse_width")).alias(TERM)
    )


def _segmented(
    lf: pl.LazyFrame, hits: pl.LazyFrame, n_segments: pl.Expr, lay: Layout, keys: Sequence[str]
) -> pl.LazyFrame:
    """Probfuse's term P_r(k) / (k + 1), k = p // ceil(n / n_segments), trained per `keys` (candidate)."""
    m = n_segments.cast(pl.Int64)
    segment = ((pl.col(RANK) - 1) // ((pl.col(LEN) + m - 1) // m)).alias(_SEG)
    per_query = (
        hits.with_columns(segment)
        .group_by(*keys, RUN, lay.query, _SEG)
        .agg(pl.col(_HIT).mean(), pl.col(_QUERIES).first())
    )
    probs = per_query.group_by(*keys, RUN, _SEG).agg(
        # An exact sum: the bits never depend on how the rows arrive (a float sum's do, by thread).
        (exact_sum(pl.col(_HIT)) / pl.col(_QUERIES).first()).alias(_PROB)
    )
    lf = lf.with_columns(segment).join(probs, on=[*keys, RUN, _SEG], how="left")
    return lf.with_columns((pl.col(_PROB).fill_null(0.0) / (pl.col(_SEG) + 1)).alias(TERM))


def _fixed_segments(hits: pl.LazyFrame, cuts: Sequence[int]) -> pl.LazyFrame:
    """(RUN, SEG, PROB): the mean over queries of the share of relevant items in each fixed segment."""
    seg = _segment(pl.col(RANK) - 1, cuts)
    share = pl.col(_HIT).sum() / _size(pl.col(_SEG).first(), cuts) / pl.col(_QUERIES).first()
    return (
        hits.with_columns(seg.alias(_SEG))
        .filter(pl.col(_SEG) < len(cuts) - 1)
        .group_by(RUN, _SEG)
        .agg(share.alias(_PROB))
    )


def _segfuse(lf: pl.LazyFrame, hits: pl.LazyFrame) -> pl.LazyFrame:
    probs = _fixed_segments(hits, _SEGFUSE_CUTS)
    lf = lf.with_columns(_segment(pl.col(RANK) - 1, _SEGFUSE_CUTS).alias(_SEG)).join(
        probs, on=[RUN, _SEG], how="left"
    )
    return lf.with_columns((pl.col(_PROB).fill_null(0.0) * (pl.col(VALUE) + 1)).alias(TERM))


def _bayesfuse(lf: pl.LazyFrame, hits: pl.LazyFrame) -> pl.LazyFrame:
    p = pl.col(_PROB)
    p = pl.when(p == 0).then(0.001).otherwise(p)
    q = pl.when(p == 1).then(0.001).otherwise(1 - p)
    odds = _fixed_segments(hits, _BAYES_CUTS).with_columns((p / q).log().alias(_PROB))
    lf = lf.with_columns(_segment(pl.col(RANK) - 1, _BAYES_CUTS).alias(_SEG)).join(
        odds, on=[RUN, _SEG], how="left"
    )
    return lf.with_columns(pl.col(_PROB).fill_null(MIN_ODD).alias(TERM))


def _mapfuse(lf: pl.LazyFrame, hits: pl.LazyFrame, relevant: pl.LazyFrame, lay: Layout) -> pl.LazyFrame:
    """MAP_r / (p + 1): AP = sum over relevant listed items of (their rank among them) / p, / |relevant|."""
    q = lay.query
    found = hits.filter(pl.col(_HIT) > 0)
    precision = pl.col(RANK).rank("ordinal").over(RUN, q) / pl.col(RANK)
    ap = (
        found.with_columns(precision.alias(_PROB))
        .group_by(RUN, q)
        .agg(exact_sum(pl.col(_PROB)), pl.col(_QUERIES).first())  # exact: the same bits in any order
        .join(relevant, on=q, how="left")
    )
    mean_ap = ap.group_by(RUN).agg(
        exact_sum(pl.col(_PROB) / pl.col("__fuse_relevant") / pl.col(_QUERIES)).alias(_PROB)
    )
    lf = lf.join(mean_ap, on=RUN, how="left")
    return lf.with_columns((pl.col(_PROB).fill_null(0.0) / pl.col(RANK)).alias(TERM))


def supervised_terms(  # noqa: PLR0913
    lf: pl.LazyFrame,
    method: str,
    qrels: pl.LazyFrame,
    *,
    relevance: str,
    params: Mapping[str, pl.Expr],
    lay: Layout,
    keys: Sequence[str] = (),
    train: pl.LazyFrame | None = None,
) -> pl.LazyFrame:
    """`lf` (ranked) with each run's TERM, trained on `qrels` (query, item, `relevance`).

    `train` holds the ranked runs without the candidates (`keys`) of a grid
    search: the training that does not depend on the candidate's parameter
    reads it once.
    """
    hits = _with_hit_flags(lf if train is None or method == "probfuse" else train, qrels, relevance, lay)
    if method == "posfuse":
        probs = _per_position(hits)
        return lf.join(probs, on=[RUN, RANK], how="left").with_columns(
            pl.col(_PROB).fill_null(0.0).alias(TERM)
        )
    if method == "slidefuse":
        return _slide(lf, hits, params["w"])
    if method == "probfuse":
        return _segmented(lf, hits, params["n_segments"], lay, keys)
    if method == "segfuse":
        return _segfuse(lf, hits)
    if method == "bayesfuse":
        return _bayesfuse(lf, hits)
    relevant = (
        qrels.filter(pl.col(relevance) >= 1)
        .group_by(lay.query)
        .agg(pl.col(lay.item).n_unique().alias("__fuse_relevant"))
    )
    return _mapfuse(lf, hits, relevant, lay)
