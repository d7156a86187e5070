"""The tie-group columns ``ties="average"`` reads (``metrics/_ties.py`` holds the formulas).

Added to the one ranking only under that policy: a tie group is the
retrieved items of a query that share a score. The first stage gives each
retrieved row its group's start position s, size n, share of relevant items
rho and mean gains (windows over the query and the score); the second, over
the rows kept, the relevant items in the groups before (H) and the
probability that the row's position holds the ranking's first relevant item.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from polars_rankmetrics._kernel import RANK, REL
from polars_rankmetrics.metrics._ties import TIE_BEFORE, TIE_FIRST, TIE_GAIN, TIE_REL, TIE_SIZE, TIE_START

__all__ = ["groups", "keep", "start", "within_groups"]


def start(key: pl.Expr, retrieved: pl.Expr, keys: tuple[str, ...]) -> pl.Expr:
    """s: each retrieved row's first position in its tie group (1 + the retrieved rows above it)."""
    return (
        pl.when(retrieved).then(key).rank("min", descending=True).over(keys).cast(pl.UInt32).alias(TIE_START)
    )


def groups(
    key: pl.Expr,
    retrieved: pl.Expr,
    relevant: pl.Expr,
    keys: tuple[str, ...],
    gains: Sequence[tuple[pl.Expr, str]],
) -> list[pl.Expr]:
    """The first stage's tie columns: s, n, rho and each gain's group mean (named after its column)."""
    tied = pl.when(retrieved).then(key)  # null for rows not retrieved: never in a group
    # One window computes every sum of the group (a struct; Polars computes the repeated
    # expression once): separate windows over the same computed partition each group again.
    sums = [retrieved.sum().alias("n"), (relevant & retrieved).sum().alias("r")]
    sums += [gain.sum().alias(f"g{i}") for i, (gain, _) in enumerate(gains)]
    group = pl.struct(*sums).over([*keys, tied])
    size = group.struct.field("n").cast(pl.Float64)
    out = [
        start(key, retrieved, keys),
        pl.when(retrieved).then(size).cast(pl.UInt32).alias(TIE_SIZE),
        pl.when(retrieved).then(group.struct.field("r") / size).alias(TIE_REL),
    ]
    out.extend(
        pl.when(retrieved).then(group.struct.field(f"g{i}") / size).alias(name + TIE_GAIN)
        for i, (_, name) in enumerate(gains)
    )
    return out


def keep(gain_columns: Sequence[str]) -> pl.Expr:
    """Keep every row of a group holding a relevant item or a gain: each stands for a position."""
    held = [pl.col(TIE_REL) > 0, *(pl.col(name + TIE_GAIN) != 0 for name in gain_columns)]
    return pl.any_horizontal(held).fill_null(value=False)


def within_groups(frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    """The second stage: H (relevant items in the groups before) and the first-hit probability."""
    start, rho = pl.col(TIE_START), pl.col(TIE_REL)
    # H of a relevant row: the relevant retrieved rows of earlier groups (smaller start); then
    # every row of the group takes it (a group without relevant items reads no H).
    hits_before = pl.when(pl.col(REL) & start.is_not_null()).then(start).rank("min").over(keys) - 1
    frame = frame.with_columns(hits_before.cast(pl.UInt32).alias(TIE_BEFORE))
    frame = frame.with_columns(pl.col(TIE_BEFORE).min().over([*keys, start]))
    # In the first group holding relevant items (H = 0, r > 0): position j = rank - s + 1 holds the
    # first relevant item when the j - 1 before it are not relevant: prod_{t < j} (n - r - t + 1) /
    # (n - t + 1), times r / (n - j + 1). The rows in rank order are the positions in order.
    n = pl.col(TIE_SIZE).cast(pl.Float64)
    r = (rho * n).round(0)
    j = pl.col(RANK).cast(pl.Float64) - start.cast(pl.Float64) + 1.0
    miss = ((n - r - j + 1.0) / (n - j + 1.0)).clip(lower_bound=0.0)
    in_order = pl.col(RANK).fill_null(2**31)  # rows past the depth last (Polars sorts nulls first)
    none_before = miss.cum_prod().shift(1, fill_value=1.0).over([*keys, start], order_by=in_order)
    first_group = (pl.col(TIE_BEFORE) == 0) & (rho > 0) & pl.col(RANK).is_not_null()
    return frame.with_columns(pl.when(first_group).then(none_before * r / (n - j + 1.0)).alias(TIE_FIRST))
