"""Condorcet fusion (Montague & Aslam 2002) and its weighted form, as pairwise counts per query.

ranx orders a query's candidates with Python's sort under the comparison
"x before y when the runs ranking x above y (a run missing an item ranks it
last; a run missing both ranks neither above) hold at least half of the
votes", and scores the i-th candidate (0-based) c - i. When that relation is
a strict order (no cycle, no tie) the score is 1 + the number of candidates
x beats; that is the score here, every pair counted once in one plan (a
self-join per query: c**2 rows for c candidates). Where the relation has a
cycle or a tie ranx's result depends on the order its sort visits the
candidates (a set's order); here a pair that neither or both win counts a
half for each (Copeland's rule).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from polars_rankmetrics.fusion._methods import WEIGHT
from polars_rankmetrics.fusion._normalize import RANK, RUN, VALUE, Layout

__all__ = ["condorcet"]

_W = "__fuse_votes"
_P, _Q = "__fuse_p_x", "__fuse_p_y"
_BOTH, _ABOVE = "__fuse_both", "__fuse_below"
_TOTAL = "__fuse_total"
_Y, _RY = "__fuse_y", "__fuse_rank_y"


def condorcet(lf: pl.LazyFrame, lay: Layout, keys: Sequence[str] = (), *, weighted: bool) -> pl.LazyFrame:
    """One row per (keys..., query, item) with the Condorcet score under the name VALUE."""
    q, i, k = lay.query, lay.item, list(keys)
    votes = pl.col(WEIGHT) if weighted else pl.lit(1.0)
    lf = lf.select(*k, RUN, q, i, RANK, votes.cast(pl.Float64).alias(_W))
    runs = lf.select(*k, RUN, _W).unique()
    total = (
        runs.group_by(k).agg(pl.col(_W).sum().alias(_TOTAL))
        if k
        else runs.select(pl.col(_W).sum().alias(_TOTAL))
    )
    present = lf.group_by(*k, q, i).agg(pl.col(_W).sum().alias(_P))
    other = lf.select(*k, RUN, q, pl.col(i).alias(_Y), pl.col(RANK).alias(_RY))
    # Per pair listed together: the votes of the runs listing both, and of those ranking x below y.
    together = (
        lf.join(other, on=[*k, RUN, q])
        .filter(pl.col(i) != pl.col(_Y))
        .group_by(*k, q, i, _Y)
        .agg(pl.col(_W).sum().alias(_BOTH), pl.col(_W).filter(pl.col(RANK) > pl.col(_RY)).sum().alias(_ABOVE))
    )
    pairs = present.join(present.select(*k, q, pl.col(i).alias(_Y), pl.col(_P).alias(_Q)), on=[*k, q])
    pairs = pairs.filter(pl.col(i) != pl.col(_Y)).join(together, on=[*k, q, i, _Y], how="left")
    pairs = pairs.join(total, on=k, how="left") if k else pairs.join(total, how="cross")
    both, below = pl.col(_BOTH).fill_null(0.0), pl.col(_ABOVE).fill_null(0.0)
    x_votes = pl.col(_P) - below  # runs ranking x above y: listing x, and not below y
    y_votes = pl.col(_Q) - (both - below)
    x_first = x_votes >= pl.col(_TOTAL) - x_votes
    y_first = y_votes >= pl.col(_TOTAL) - y_votes
    point = pl.when(x_first & ~y_first).then(1.0).when(x_first == y_first).then(0.5).otherwise(0.0)
    wins = pairs.group_by(*k, q, i).agg(point.sum().alias(VALUE))
    return present.join(wins, on=[*k, q, i], how="left").select(
        *k, q, i, (pl.col(VALUE).fill_null(0.0) + 1.0).alias(VALUE)
    )
