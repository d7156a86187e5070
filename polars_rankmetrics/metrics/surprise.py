"""Catalog-scope surprise: RePlay's surprisal (normalised self-information) and unexpectedness.

Both are a mean over the group's lists of a per-list sum over its top `k`
divided by `k`, as RePlay computes them.
"""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import ITEM
from polars_rankmetrics._spec import SUMMED, CatalogSpec, CountState, Metric
from polars_rankmetrics.exceptions import ColumnTypeError, InvalidParameterError
from polars_rankmetrics.metrics._core import keep_top
from polars_rankmetrics.metrics._count_tables import state, top_counts, weighted_sum
from polars_rankmetrics.metrics._popularity_side import USER, interactions_frame, user_ids
from polars_rankmetrics.metrics._side import (
    BAD,
    SIDE_ROLES,
    SIZE,
    SideColumns,
    as_lazy,
    by_role,
    check_eager,
    columns_of,
    finish,
    keyed,
    same_dtype,
    top_rows,
)

__all__ = ["surprisal", "unexpectedness"]

WEIGHT = "__prm_surprisal"


def _item_weights(metric: Metric, item_dtype: pl.DataType | None) -> pl.LazyFrame:
    """RePlay's item weights log2(N / u_i) / log2(N), with N users and u_i the item's users."""
    value = metric.side("interactions")
    if value is None:
        remedy = "prm.surprisal(10, interactions=train)"
        raise InvalidParameterError.needs("surprisal", "the training interactions", remedy)
    frame, user, item = interactions_frame(value, columns_of(metric))
    side_dtype = frame.collect_schema()[item]
    pairs = frame.select(user, item).unique()
    users = pairs.select(pl.col(user).n_unique().cast(pl.Float64).alias("__prm_users"))
    counts = pairs.group_by(item).agg(pl.len().cast(pl.Float64).alias("__prm_count")).join(users, how="cross")
    n, count = pl.col("__prm_users"), pl.col("__prm_count")
    ids = (
        pl.col(item)
        if item_dtype is None
        else same_dtype(pl.col(item), side_dtype, item_dtype, "interactions")
    )
    return counts.select(
        ids.alias(ITEM), ((n / count).log(2) / n.log(2)).alias(WEIGHT), n.alias("__prm_users")
    )


def _surprisal(metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    # From the summed top_counts table: a sum over the top-k rows is a weighted_sum over its rows.
    weights = _item_weights(metric, table.collect_schema()[ITEM])
    rows, keys = keyed(table, by)
    users = weights.select(pl.col("__prm_users").first())
    # Cold items weigh 1 (as if one user had them); one user in all gives 0 / 0: undefined.
    joined = rows.join(weights.drop("__prm_users"), on=ITEM, how="left").join(users, how="cross")
    single = pl.when(pl.col("__prm_users") <= 1).then(
        pl.lit("surprisal needs at least two users in `interactions`")
    )
    joined = joined.with_columns(pl.col(WEIGHT).fill_null(1.0), single.alias(BAD))
    per_group = joined.group_by(keys).agg(
        weighted_sum(pl.col(WEIGHT)).alias("__prm_sum"),
        weighted_sum(1.0 / pl.col(SIZE).cast(pl.Float64)).round().alias("__prm_lists"),
        pl.col(BAD).min(),
    )
    k = float(metric.k or 1)
    return finish(per_group, by, pl.col("__prm_sum") / k / pl.col("__prm_lists"), BAD)


def _baseline(
    metric: Metric, query_dtype: pl.DataType | None, item_dtype: pl.DataType | None
) -> pl.LazyFrame:
    """The baseline's top-k (USER, ITEM): by score descending, ties by item id ascending."""
    value = metric.side("baseline")
    if value is None:
        remedy = "prm.unexpectedness(10, baseline=frame)"
        raise InvalidParameterError.needs("unexpectedness", "the baseline's lists", remedy)
    frame = as_lazy(value, "baseline")
    schema = frame.collect_schema()
    names = schema.names()
    needed = "user, item and numeric score columns (read by name: user, item and score, or columns=)"
    user, item, score = by_role(names, "baseline", SIDE_ROLES["baseline"], columns_of(metric))
    if not schema[score].is_numeric():
        raise ColumnTypeError.layout("`baseline`", needed, dict(schema))
    check_eager(frame, value, item, "baseline", unique=False)
    users = user_ids(pl.col(user), schema[user], query_dtype, "baseline")
    items = (
        pl.col(item) if item_dtype is None else same_dtype(pl.col(item), schema[item], item_dtype, "baseline")
    )
    base = frame.select(users.alias(USER), items.alias(ITEM), pl.col(score).alias("__prm_score")).unique()
    # A position without relying on row order: items scored higher, then the item's rank among its ties.
    above = pl.col("__prm_score").rank("min", descending=True).over(USER)
    among = pl.col(ITEM).rank("ordinal").over(USER, "__prm_score")
    position = above.cast(pl.Int64) - 1 + among.cast(pl.Int64)
    return base.filter(position <= metric.k).select(USER, ITEM, pl.lit(value=True).alias("__prm_in_base"))


_BASED = SUMMED + "_based"  # the lists whose user has a baseline
_SHARED = SUMMED + "_shared"  # the top-k items the lists share with their baseline, summed
_LISTS = SUMMED + "_lists"  # the group's lists


def _overlap_sums(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """Per group: the lists with a baseline, the items they share with it, the lists."""
    schema = lists.collect_schema()
    base = _baseline(metric, schema[query], schema[ITEM])
    has_base = base.select(USER).unique().with_columns(pl.lit(value=True).alias("__prm_has_base"))
    frame, keys = keyed(lists, by)
    rows = top_rows(frame.with_columns(pl.col(query).alias(USER)), [*keys, USER], metric.k)
    per_list = (
        rows.join(base, on=[USER, ITEM], how="left")
        .group_by(*keys, USER)
        .agg(pl.col("__prm_in_base").count().alias("__prm_shared"))
        .join(has_base, on=USER, how="left")
    )
    per_group = per_list.group_by(keys).agg(
        pl.col("__prm_has_base").count().cast(pl.Int64).alias(_BASED),
        pl.col("__prm_shared").sum().cast(pl.Int64).alias(_SHARED),
        pl.len().cast(pl.Int64).alias(_LISTS),
    )
    return state(per_group, by, keys)


def _unexpectedness(metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    # The mean over lists of 1 - |L_k & B_k| / k, a user without baseline scoring 0 (RePlay).
    k = float(metric.k or 1)
    based, shared = pl.col(_BASED).cast(pl.Float64), pl.col(_SHARED).cast(pl.Float64)
    return finish(table, by, (based - shared / k) / pl.col(_LISTS).cast(pl.Float64))


_SURPRISAL = CountState(top_counts, _surprisal)  # Spark sums the table across partitions
_UNEXPECTEDNESS = CountState(_overlap_sums, _unexpectedness)
SURPRISAL = CatalogSpec(
    name="surprisal", aliases=("Surprisal",), keep=keep_top, catalog=_SURPRISAL.catalog, counts=_SURPRISAL,
    per_list=True,
    )  # fmt: skip
UNEXPECTEDNESS = CatalogSpec(
    name="unexpectedness", aliases=("Unexpectedness",), keep=keep_top, catalog=_UNEXPECTEDNESS.catalog,
    per_list=True,
    counts=_UNEXPECTEDNESS)  # fmt: skip


@constructor(SURPRISAL, check=lambda metric: _item_weights(metric, None))
def surprisal(
    k: int, *, interactions: pl.DataFrame | pl.LazyFrame | None = None, columns: SideColumns = None
) -> Metric:
    """Surprisal (RePlay's ``Surprisal``): the mean normalised self-information of the top `k`.

    An item's surprisal is ``log2(N / u_i) / log2(N)``, with ``u_i`` its
    number of distinct users in the training interactions and ``N`` their
    number of users: 0 for an item every user had, 1 for an item one user
    had; a cold item (absent from the interactions) counts 1. Per list, the
    sum over its top `k` divided by `k`; then the mean over lists.

    Parameters
    ----------
    k
        Cutoff (required).
    interactions
        The training interactions: user id first, item id second.

    columns
        Column names for the ``user`` and ``item`` of `interactions`, where not the
        [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``surprisal@k``, one value per `by` group (catalog scope).

    Raises
    ------
    InvalidParameterError
        No `interactions`.
    InvalidDataError
        Null ids in eager interactions; found when the plan runs: fewer than
        two users (``log2(N)`` is then 0).

    Notes
    -----
    As RePlay, a list shorter than `k` is divided by `k` all the same.
    :func:`novelty` is the unnormalised mean ``-log2(u_i / N)``.

    References
    ----------
    Vasilev et al. (2021), "RePlay: a recommendation framework for
    experimentation and production use"; Zhou et al. (2010), PNAS 107(10).

    Examples
    --------
    Of 4 users, 4 had ``a``, 2 ``b``, 1 ``c``; ``d`` is cold:

    >>> train = pl.DataFrame({"user": [1, 2, 3, 4, 1, 2, 3], "item": ["a", "a", "a", "a", "b", "b", "c"]})
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "c", "d"],
    ...     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> prm.evaluate(df, [prm.surprisal(1, interactions=train), prm.surprisal(2, interactions=train)])
    shape: (1, 2)
    ┌─────────────┬─────────────┐
    │ surprisal@1 ┆ surprisal@2 │
    │ ---         ┆ ---         │
    │ f64         ┆ f64         │
    ╞═════════════╪═════════════╡
    │ 0.5         ┆ 0.625       │
    └─────────────┴─────────────┘
    """


@constructor(UNEXPECTEDNESS, check=lambda metric: _baseline(metric, None, None))
def unexpectedness(
    k: int, *, baseline: pl.DataFrame | pl.LazyFrame | None = None, columns: SideColumns = None
) -> Metric:
    """Unexpectedness (RePlay's ``Unexpectedness``): the share of the top `k` a baseline does not recommend.

    Per list, ``1 - |L_k & B_k| / k``, with ``L_k`` the user's top `k` and
    ``B_k`` the baseline model's top `k` for the same user; 0 for a user the
    baseline has no list for; then the mean over lists.

    Parameters
    ----------
    k
        Cutoff (required).
    baseline
        The baseline's recommendations: a frame of (user, item, score), in
        that column order, higher scores first (ties by item id); users are
        matched to the frame's query ids.

    columns
        Column names for the ``user``, ``item`` and ``score`` of `baseline`, where not the
        [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``unexpectedness@k``, one value per `by` group (catalog scope).

    Raises
    ------
    InvalidParameterError
        No `baseline`.
    ColumnNotFoundError
        A baseline without a numeric third column.
    InvalidDataError
        Null item ids in an eager baseline.

    References
    ----------
    Vasilev et al. (2021), "RePlay: a recommendation framework for
    experimentation and production use"; Murakami et al. (2008),
    "Metrics for evaluating the serendipity of recommendation lists".

    Examples
    --------
    RePlay's own example:

    >>> recs = pl.DataFrame({"query": [1] * 5 + [2] * 5 + [3] * 3,
    ...     "item": [3, 7, 10, 11, 2, 5, 8, 11, 1, 3, 4, 9, 2],
    ...     "score": [0.6, 0.5, 0.4, 0.3, 0.2, 0.6, 0.5, 0.4, 0.3, 0.2, 1.0, 0.5, 0.1]})
    >>> base = pl.DataFrame({"user": [1, 1, 1, 2, 2, 2, 3, 3], "item": [3, 7, 2, 5, 8, 3, 4, 9],
    ...     "score": [0.5, 0.5, 0.7, 0.6, 0.6, 0.3, 1.0, 0.5]})
    >>> prm.evaluate(recs, [prm.unexpectedness(2, baseline=base), prm.unexpectedness(4, baseline=base)])
    shape: (1, 2)
    ┌──────────────────┬──────────────────┐
    │ unexpectedness@2 ┆ unexpectedness@4 │
    │ ---              ┆ ---              │
    │ f64              ┆ f64              │
    ╞══════════════════╪══════════════════╡
    │ 0.166667         ┆ 0.5              │
    └──────────────────┴──────────────────┘
    """


SPECS = (spec_of(surprisal), spec_of(unexpectedness))
