"""Position-based exposure of item groups: the plan pieces of the exposure-fairness family.

A browsing model gives each rank ``r`` of a top-`k` list an attention
``w(r)``: ``1 / log2(r + 1)`` (nDCG's discount, ``"log2"``) or ``p**(r - 1)``
(rank-biased precision's patient user, ``"rbp"``). An item's groups come
as a side input of (item, group) rows; an item in several groups shares its
attention equally among them. Group labels are compared as text.
"""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._kernel import (
    ITEM,
    NUM_RET,
    RANK,
    REL,
    exact_sum,
    fixed_point_sum,
    from_fixed_point,
    power,
)
from polars_rankmetrics._spec import Metric
from polars_rankmetrics.exceptions import (
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)
from polars_rankmetrics.metrics._core import PREPARED, within
from polars_rankmetrics.metrics._popularity_side import USER
from polars_rankmetrics.metrics._side import (
    BAD,
    LABEL,
    SHARE,
    SIDE_ROLES,
    as_lazy,
    by_role,
    columns_of,
    finish,
    item_text,
    keyed,
    memberships,
)

__all__ = [
    "ALL",
    "ATTENTION",
    "BAD_TARGET",
    "GROUP",
    "IN",
    "MEMBER",
    "RBP",
    "TARGET",
    "attention_rows",
    "check_groups",
    "check_target",
    "finish_ratio",
    "given",
    "group_shares",
    "groups",
    "missing",
    "relevance_sums",
    "relevance_targets",
    "targets",
    "with_totals",
]  # fmt: skip

GROUP = LABEL  # a group label, as text
MEMBER = SHARE  # the item's share of one of its groups: 1 / its number of groups
ATTENTION = "__prm_attention"  # w(rank) of a row
TARGET = "__prm_target"  # a group's target share
RBP = "_rbp"  # the suffix of the families with the rbp browsing model
ALL = "__prm_all"  # the attention of every top-k row of a group key (or of a list)
IN = "__prm_in"  # the attention a group receives
BAD_TARGET = BAD + "_target"  # the text of a bad row of `target`, or null


def check_groups(value: object, item_dtype: pl.DataType | None, columns: object = None) -> pl.LazyFrame:
    """Distinct (ITEM, GROUP) rows with each item's MEMBER share, labels as text; nulls refused when eager."""
    if value is None:
        remedy = "give groups=frame of (item, group), e.g. a provider"
        raise InvalidParameterError.needs("an exposure metric", "the items' groups", remedy)
    members = memberships(value, "groups", "group", item_dtype, columns)
    return members.with_columns(pl.col(LABEL).cast(pl.String))


def groups(metric: Metric, item_dtype: pl.DataType) -> pl.LazyFrame:
    """The metric's (ITEM, GROUP, MEMBER) rows, ids in the frame's item dtype."""
    return check_groups(metric.side("groups"), item_dtype, columns_of(metric))


def check_target(value: object, columns: object = None) -> pl.LazyFrame | None:
    """(GROUP, raw weight) rows of a `target` frame, checked when eager; None without one."""
    if value is None:
        return None
    frame = as_lazy(value, "target")
    schema = frame.collect_schema()
    names = schema.names()
    needed = "a group column and a numeric weight column (read by name: group and weight, or columns=)"
    group, weight = by_role(names, "target", SIDE_ROLES["target"], columns)
    if not schema[weight].is_numeric():
        raise ColumnTypeError.layout("`target`", needed, dict(schema))
    if isinstance(value, pl.DataFrame):
        bad = value.filter(
            pl.col(group).is_null()
            | pl.col(weight).is_null()
            | pl.col(weight).is_nan()
            | (pl.col(weight) < 0)
        )
        if len(bad):
            raise InvalidDataError.out_of_range("target", "group", bad[group][0], "weight", bad[weight][0])
        if value[group].is_duplicated().any():
            twice = value[group].filter(value[group].is_duplicated())[0]
            raise InvalidDataError.repeated_value("`target`", "group", twice)
        if not value[weight].sum() > 0:
            raise InvalidDataError.unusable(
                "target", "weights sum to 0: give at least one group a positive weight"
            )
    return frame.select(
        pl.col(group).cast(pl.String).alias(GROUP), pl.col(weight).cast(pl.Float64).alias(TARGET)
    )


def targets(metric: Metric, members: pl.LazyFrame) -> pl.LazyFrame:
    """(GROUP, TARGET, BAD): each group's target share, summing to 1.

    The `target` weights over their sum, or by default each group's share of
    the catalog: ``sum_i member(i, g) / n``, over the ``n`` items of `groups`.
    """
    given = check_target(metric.side("target"), columns_of(metric))
    if given is None:
        n = members.select(pl.col(ITEM).n_unique().cast(pl.Float64).alias("__prm_n"))
        shares = members.group_by(GROUP).agg(exact_sum(pl.col(MEMBER)).alias("__prm_in"))
        return shares.join(n, how="cross").select(
            GROUP,
            (pl.col("__prm_in") / pl.col("__prm_n")).alias(TARGET),
            pl.lit(None, dtype=pl.String).alias(BAD),
        )
    weight = pl.col(TARGET)
    wrong = pl.col(GROUP).is_null() | weight.is_null() | weight.is_nan() | (weight < 0)
    text = pl.format("`target` gives group '{}' the weight {}: weights must be >= 0", GROUP, weight)
    per_group = (
        given.with_columns(pl.when(wrong).then(text).alias("__prm_wrong"), pl.when(~wrong).then(weight))
        .group_by(GROUP)
        .agg(exact_sum(weight).alias(TARGET), pl.len().alias("__prm_dup"), pl.col("__prm_wrong").min())
    )
    total = per_group.select(exact_sum(weight).alias("__prm_total"))
    bad = pl.coalesce(
        "__prm_wrong",
        pl.when(pl.col("__prm_dup") > 1).then(pl.format("`target` holds group '{}' more than once", GROUP)),
        pl.when(pl.col("__prm_total") <= 0).then(pl.lit("`target` weights sum to 0")),
    )
    return per_group.join(total, how="cross").select(
        GROUP, (weight / pl.col("__prm_total")).alias(TARGET), bad.alias(BAD)
    )


def attention(metric: Metric) -> pl.Expr:
    """The browsing model's attention at each row's rank: 1 / log2(rank + 1), or p**(rank - 1)."""
    rank = pl.col(RANK).cast(pl.Float64)
    if metric.name.endswith(RBP):
        return power(metric.number("p"), rank - 1.0)
    return 1.0 / (rank + 1.0).log(2)


def attention_rows(
    metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str
) -> tuple[pl.LazyFrame, list[str]]:
    """The top-k rows (keys..., USER, ITEM, ATTENTION) and the group keys."""
    frame, keys = keyed(lists, by)
    top = frame.filter(within(PREPARED, metric.k))
    return top.select(*keys, pl.col(query).alias(USER), ITEM, attention(metric).alias(ATTENTION)), keys


def missing(
    rows: pl.LazyFrame, members: pl.LazyFrame, keys: list[str], where: str = "ranked lists"
) -> pl.LazyFrame:
    """Per group key: the text of an item of `rows` (the `where`) without a group, or null.

    An empty `groups` (a LazyFrame: an empty DataFrame is refused when the metric is built) gives
    every key the message the DataFrame gets, so the evaluation fails instead of giving no row.
    """
    absent = rows.join(members.select(ITEM).unique(), on=ITEM, how="anti")
    none = members.select(pl.len().alias("__prm_n_members"))
    empty = str(InvalidParameterError.empty("groups", "give one (item, group) row per ranked item"))
    text = (
        pl.when(pl.col("__prm_n_members") == 0)
        .then(pl.lit(empty))
        .otherwise(pl.format("item {} of the {} has no row in `groups`", item_text(), pl.lit(where)))
    )
    return absent.join(none, how="cross").group_by(keys).agg(text.min().alias(BAD))


def relevance_sums(
    lists: pl.LazyFrame, members: pl.LazyFrame, by: tuple[str, ...], summed: str
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Per (keys..., GROUP): the fixed-point sum `summed` of the group's shares of the relevant items.

    Each relevant (user, item) pair, retrieved or not, of a user with a list counts once,
    shared among the item's groups. Also the per-key text of a relevant item without a group.
    """
    frame, keys = keyed(lists, by)
    relevant = frame.filter(pl.col(REL) & (pl.col(NUM_RET) > 0)).select(*keys, ITEM)
    per_group = (
        relevant.join(members, on=ITEM, how="inner")
        .group_by(*keys, GROUP)
        .agg(fixed_point_sum(pl.col(MEMBER)).alias(summed))
    )
    return per_group, missing(relevant, members, keys, "relevant items")


def relevance_targets(sums: pl.LazyFrame, keys: list[str], summed: str) -> pl.LazyFrame:
    """Per (keys..., GROUP): the group's share of the relevant items (:func:`relevance_sums`), as TARGET."""
    per_group = sums.select(*keys, GROUP, from_fixed_point(pl.col(summed)).alias("__prm_r"))
    total = per_group.group_by(keys).agg(exact_sum(pl.col("__prm_r")).alias("__prm_r_total"))
    return per_group.join(total, on=keys, how="inner").select(
        *keys, GROUP, (pl.col("__prm_r") / pl.col("__prm_r_total")).alias(TARGET)
    )


def group_shares(
    total: pl.LazyFrame, received: pl.LazyFrame, targets: pl.LazyFrame, on: list[str]
) -> pl.LazyFrame:
    """Per (keys..., GROUP) of `received`: the share "__prm_a" of the attention, and the TARGET.

    `total` holds ALL per key (or list), `received` IN per key and GROUP, `targets` TARGET per `on`.
    """
    at = [name for name in total.collect_schema().names() if name != ALL]
    return (
        received.join(total, on=at, how="inner")
        .join(targets.select(*on, TARGET), on=on, how="left")
        .select(*at, GROUP, (pl.col(IN) / pl.col(ALL)).alias("__prm_a"), pl.col(TARGET).fill_null(0.0))
    )


def given(metric: Metric, members: pl.LazyFrame) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """The `target` (or the catalog's) shares per GROUP; their total and bad-row text, in one row."""
    tables = targets(metric, members)
    return tables, tables.select(
        exact_sum(pl.col(TARGET)).alias("__prm_t_total"), pl.col(BAD).min().alias(BAD_TARGET)
    )


def finish_ratio(
    per_key: pl.LazyFrame, bad: pl.LazyFrame, keys: list[str], by: tuple[str, ...]
) -> pl.LazyFrame:
    """(by..., VALUE) of "__prm_sum" / "__prm_count" per key, failing on a missing item or a bad target."""
    out = per_key.join(bad, on=keys, how="full", coalesce=True)  # a key with no value still fails
    if BAD_TARGET in out.collect_schema().names():
        out = out.with_columns(pl.coalesce(BAD, BAD_TARGET).alias(BAD))
    return finish(out, by, pl.col("__prm_sum") / pl.col("__prm_count").cast(pl.Float64), BAD)


def with_totals(per_key: pl.LazyFrame, totals: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """`per_key` with the targets' total: one for every key, or per key (null without a target)."""
    if keys and all(k in totals.collect_schema().names() for k in keys):
        return per_key.join(totals, on=keys, how="left")
    return per_key.join(totals, how="cross")
