"""Item popularity and the popular head, from a side input: the plan pieces of the popularity-bias family.

An item's popularity is its number of distinct users in `interactions` (a
(user, item) frame), or the count a `popularity` frame gives it. The head is
an explicit `head` set, or the most popular items, taken in decreasing
popularity while the items before them hold less than a share `head_share`
of all interactions (Elliot's short head, whose ``pop_ratio`` is this share);
items tied in popularity are in the head together.
"""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._kernel import ITEM
from polars_rankmetrics._spec import Metric
from polars_rankmetrics.exceptions import (
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)
from polars_rankmetrics.metrics._side import (
    DUP,
    SIDE_ROLES,
    as_lazy,
    by_role,
    check_eager,
    columns_of,
    first_column,
    item_text,
    same_dtype,
    side_param,
)

POP = "__prm_popularity"  # the item's popularity (Float64)
HEAD = "__prm_head"  # the item is in the popular head
COLD = "__prm_cold"  # the item has no row in the side input (a cold item)
ERROR = "__prm_side_error"  # text of a bad side-input row, or null
USER = "__prm_user"
TOTAL = "__prm_total"
BAD_ROW = "__prm_bad_row"  # a ranked row's error text, or null
DUPLICATED = "`popularity` holds item {} more than once"


def user_ids(side: pl.Expr, side_dtype: pl.DataType, query_dtype: pl.DataType | None, what: str) -> pl.Expr:
    """A side input's user ids in the frame's query dtype, or a clear error (None: not known yet)."""
    if query_dtype is None:
        return side
    try:
        return same_dtype(side, side_dtype, query_dtype, what)
    except ColumnTypeError:
        first, second = (
            f"the user ids of `{what}` are {side_dtype}",
            f"the frame's query ids are {query_dtype}",
        )
        raise ColumnTypeError.mismatch(first, second) from None


def interactions_frame(
    value: object, columns: object = None, what: str = "interactions"
) -> tuple[pl.LazyFrame, str, str]:
    """The interactions (or a history) as a LazyFrame, its user and item column names; checked when eager."""
    frame = as_lazy(value, what)
    names = frame.collect_schema().names()
    user, item = by_role(names, what, SIDE_ROLES[what], columns)
    if isinstance(value, pl.DataFrame):
        for column in (user, item):
            if value[column].null_count():
                raise InvalidDataError.nulls_in(f"`{what}`", column, "null ids")
    return frame, user, item


def popularity_columns(value: object, columns: object = None) -> tuple[pl.LazyFrame, str, str]:
    """A popularity table as a LazyFrame with its item and count column names; ids checked when eager."""
    frame = as_lazy(value, "popularity")
    schema = frame.collect_schema()
    names = schema.names()
    needed = "the item id and a numeric count column (read by name: item and count, or columns=)"
    item, count = by_role(names, "popularity", SIDE_ROLES["popularity"], columns)
    if not schema[count].is_numeric():
        raise ColumnTypeError.layout("`popularity`", needed, dict(schema))
    check_eager(frame, value, item, "popularity", unique=True)
    return frame, item, count


def _popularity_frame(value: object, columns: object = None) -> tuple[pl.LazyFrame, str, str]:
    frame, item, count = popularity_columns(value, columns)
    if isinstance(value, pl.DataFrame):
        bad = value.filter(pl.col(count).is_null() | (pl.col(count) < 0) | pl.col(count).is_nan())
        if len(bad):
            raise InvalidDataError.out_of_range("popularity", "item", bad[item][0], "count", bad[count][0])
    return frame, item, count


def check_sources(metric: Metric, *, need_popularity: bool) -> None:
    """Check the side inputs' combination and the eager ones, before any frame is known."""
    interactions, popularity, head = (side_param(metric, n) for n in ("interactions", "popularity", "head"))
    if interactions is not None and popularity is not None:
        raise InvalidParameterError.not_both("`interactions`", "`popularity`", owner=metric.name)
    if interactions is None and popularity is None and (need_popularity or head is None):
        what = "`interactions` or `popularity`" + ("" if need_popularity else " (or an explicit `head`)")
        example = f"prm.{metric.spec.python_name}(10, interactions=train) with train a (user, item) frame"
        raise InvalidParameterError.needs(metric.name, "item popularity", f"give {what}, e.g. {example}")
    columns = columns_of(metric)
    if interactions is not None:
        interactions_frame(interactions, columns)
    if popularity is not None:
        _popularity_frame(popularity, columns)
    if head is not None:
        frame = as_lazy(head, "head")
        check_eager(frame, head, first_column(frame, "head", columns), "head", unique=False)


def popularity(metric: Metric, item_dtype: pl.DataType) -> pl.LazyFrame | None:
    """One row per item of the side input: ITEM, POP (Float64), DUP and ERROR; None without one."""
    interactions, counts = side_param(metric, "interactions"), side_param(metric, "popularity")
    if interactions is not None:
        frame, user, item = interactions_frame(interactions, columns_of(metric))
        side_dtype = frame.collect_schema()[item]
        table = (
            frame.select(user, item)
            .unique()
            .group_by(item)
            .agg(pl.len().cast(pl.Float64).alias(POP))
            .select(pl.col(item).alias("__prm_id"), POP)
        )
        what = "interactions"
    elif counts is not None:
        frame, item, count = _popularity_frame(counts, columns_of(metric))
        side_dtype = frame.collect_schema()[item]
        table = frame.select(pl.col(item).alias("__prm_id"), pl.col(count).cast(pl.Float64).alias(POP))
        what = "popularity"
    else:
        return None
    ids = same_dtype(pl.col("__prm_id"), side_dtype, item_dtype, what)
    bad = pl.col(POP).is_null() | pl.col(POP).is_nan() | (pl.col(POP) < 0)
    error = pl.when(bad).then(pl.format("`popularity` gives item {} the count {}: counts must be >= 0",
                                        item_text(ids), pl.col(POP)))  # fmt: skip
    return table.select(ids.alias(ITEM), POP, pl.len().over("__prm_id").alias(DUP), error.alias(ERROR))


def head_items(metric: Metric, table: pl.LazyFrame | None, item_dtype: pl.DataType) -> pl.LazyFrame:
    """The distinct items of the head: the explicit `head`, or the popular head of `table`."""
    head = side_param(metric, "head")
    if head is not None:
        frame = as_lazy(head, "head")
        item = first_column(frame, "head", columns_of(metric))
        ids = same_dtype(pl.col(item), frame.collect_schema()[item], item_dtype, "head")
        return frame.select(ids.alias(ITEM)).unique()
    assert table is not None  # check_sources: popularity or a head
    share = metric.number("head_share")
    # Per distinct popularity: the interactions of every strictly more popular item (exact integers
    # for counts; the sort is over the distinct values of the side input, never the lists).
    values = (
        table.group_by(POP)
        .agg(pl.len().alias("__prm_items"))
        .sort(POP, descending=True)
        .with_columns((pl.col(POP) * pl.col("__prm_items")).cum_sum().alias("__prm_through"))
    )
    total = values.select(pl.col("__prm_through").max().alias(TOTAL))
    before = pl.col("__prm_through") - pl.col(POP) * pl.col("__prm_items")
    heads = values.join(total, how="cross").filter((pl.col(POP) > 0) & (before < share * pl.col(TOTAL)))
    return table.join(heads.select(POP), on=POP, how="semi").select(ITEM).unique()


def flagged(metric: Metric, item_dtype: pl.DataType) -> pl.LazyFrame:
    """One row per item known to the side inputs: ITEM, POP, HEAD, DUP, ERROR (nulls where unknown)."""
    table = popularity(metric, item_dtype)
    if table is not None and not any(p.name == "head_share" for p in metric.spec.params):
        return table.with_columns(pl.lit(value=False).alias(HEAD))  # a family without a head
    head = head_items(metric, table, item_dtype).with_columns(pl.lit(value=True).alias(HEAD))
    if table is None:
        return head.with_columns(
            pl.lit(None, dtype=pl.Float64).alias(POP),
            pl.lit(1, dtype=pl.UInt32).alias(DUP),
            pl.lit(None, dtype=pl.String).alias(ERROR),
        )
    return table.join(head, on=ITEM, how="full", coalesce=True)


def joined(metric: Metric, rows: pl.LazyFrame, *, need_popularity: bool) -> pl.LazyFrame:
    """`rows` with the item's POP (0 for a cold item of `interactions`), its HEAD flag and a bad-row text.

    With `need_popularity`, a ranked item without a row in a `popularity` frame is an error.
    """
    item_dtype = rows.collect_schema()[ITEM]
    table = flagged(metric, item_dtype).with_columns(pl.lit(value=False).alias(COLD))
    out = rows.join(table, on=ITEM, how="left")
    cold = pl.col(COLD).is_null() | pl.col(POP).is_null()
    pop = pl.col(POP).fill_null(0.0)
    missing: pl.Expr = pl.lit(None, dtype=pl.String)
    if need_popularity and side_param(metric, "popularity") is not None:
        missing = pl.when(cold).then(
            pl.format("item {} of the ranked lists has no row in `popularity` (give it a count, 0 if cold)",
                      item_text())
        )  # fmt: skip
    duplicated = pl.when(pl.col(DUP) > 1).then(
        pl.format("`popularity` holds item {} more than once", item_text())
    )
    return out.with_columns(
        pop.alias(POP),
        pl.col(HEAD).fill_null(value=False).alias(HEAD),
        pl.coalesce(missing, duplicated, ERROR).alias(BAD_ROW),
    )
