"""Catalog-scope novelty: the mean self-information of recommended items (popularity from a frame)."""

from __future__ import annotations

from typing import Annotated, Literal

import polars as pl

from polars_rankmetrics._declare import SIDE, constructor, spec_of
from polars_rankmetrics._kernel import ITEM
from polars_rankmetrics._spec import CatalogSpec, CountState, Metric, Spellings
from polars_rankmetrics.exceptions import (
    InvalidDataError,
    InvalidParameterError,
)
from polars_rankmetrics.exceptions._parameters import check_choice
from polars_rankmetrics.metrics._core import keep_top
from polars_rankmetrics.metrics._count_tables import COUNTED, top_counts, weighted_sum
from polars_rankmetrics.metrics._popularity_side import popularity_columns
from polars_rankmetrics.metrics._side import (
    BAD,
    COUNT,
    DUP,
    INFO,
    SIDE_ROLES,
    SIZE,
    SideColumns,
    as_lazy,
    by_role,
    columns_of,
    finish,
    item_text,
    keyed,
    same_dtype,
)

__all__ = ["novelty"]


def _from_interactions(interactions: object, columns: object) -> tuple[pl.LazyFrame, pl.DataType]:
    """(item id, its user count, the users) from (user, item) interactions, and the item dtype."""
    frame = as_lazy(interactions, "interactions")
    schema = frame.collect_schema()
    names = schema.names()
    user, item = by_role(names, "interactions", SIDE_ROLES["interactions"], columns)
    pairs = frame.select(user, item).unique()
    counts = pairs.group_by(item).agg(pl.len().alias(COUNT))
    users = frame.select(pl.col(user).n_unique().alias("__prm_users"))
    table = counts.join(users, how="cross").select(pl.col(item).alias("__prm_id"), COUNT, "__prm_users")
    return table, schema[item]


def _from_popularity(
    popularity: object, n_users: object, columns: object
) -> tuple[pl.LazyFrame, pl.DataType]:
    """(item id, its count, n_users) from a popularity table, checked when eager, and the item dtype."""
    if popularity is None or n_users is None:
        remedy = (
            "use prm.novelty(k, popularity=frame_of_item_and_count, n_users=...) or "
            "prm.novelty(k, interactions=frame_of_user_and_item)"
        )
        raise InvalidParameterError.needs("novelty", "item popularity", remedy)
    if isinstance(n_users, bool) or not isinstance(n_users, int) or n_users < 1:
        raise InvalidParameterError.out_of_domain("n_users", "a positive integer", n_users, metric="novelty")
    frame, item, count = popularity_columns(popularity, columns)
    if isinstance(popularity, pl.DataFrame):
        bad = popularity.filter((pl.col(count) <= 0) | (pl.col(count) > n_users) | pl.col(count).is_null())
        if len(bad):
            rule = (
                f"every count must be between 1 and n_users={n_users} (an item nobody interacted "
                "with has infinite self-information)"
            )
            raise InvalidDataError.out_of_range(
                "popularity", "item", bad[item][0], "count", bad[count][0], rule=rule
            )
    table = frame.select(
        pl.col(item).alias("__prm_id"), pl.col(count).alias(COUNT), pl.lit(n_users).alias("__prm_users")
    )
    return table, frame.collect_schema()[item]


def _popularity(metric: Metric, item_dtype: pl.DataType | None) -> pl.LazyFrame:
    """One row per item: the item, its self-information -log2(count / n_users), duplicates and errors."""
    popularity, n_users, interactions = (metric.side(n) for n in ("popularity", "n_users", "interactions"))
    if interactions is not None:
        if popularity is not None or n_users is not None:
            raise InvalidParameterError.not_both(
                "`interactions`", "`popularity` with `n_users`", owner="novelty"
            )
        table, side_dtype = _from_interactions(interactions, columns_of(metric))
    else:
        table, side_dtype = _from_popularity(popularity, n_users, columns_of(metric))
    ids = pl.col("__prm_id")
    if item_dtype is not None:  # None: checking the inputs before any frame is known
        ids = same_dtype(ids, side_dtype, item_dtype, "popularity")
    n_item, n_all = pl.col(COUNT).cast(pl.Float64), pl.col("__prm_users").cast(pl.Float64)
    count_error = pl.when(n_item.is_null() | (n_item <= 0) | (n_item > n_all)).then(
        pl.format(
            "item {} has popularity count {} outside [1, n_users={}]", item_text(ids), COUNT, "__prm_users"
        )
    )
    # recmetrics: self-information -log2(pop[i] / u) of each recommended item.
    return table.select(
        ids.alias(ITEM),
        (-(n_item / n_all).log(2)).alias(INFO),
        pl.len().over("__prm_id").alias(DUP),
        count_error.alias("__prm_count_error"),
    )


def _novelty(metric: Metric, counts: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    # From the summed top_counts table: a sum over the top-k rows is a weighted_sum over its rows.
    table = _popularity(metric, counts.collect_schema()[ITEM])
    frame, keys = keyed(counts, by)
    joined = frame.join(table, on=ITEM, how="left")
    source = "`popularity`" if metric.side("popularity") is not None else "`interactions`"
    missing = pl.when(pl.col(DUP).is_null()).then(
        pl.format(
            f"item {{}} of the ranked lists has no row in {source} (a cold-start item: its "
            "self-information is undefined; drop it from the lists or add its interactions)",
            item_text(),
        )
    )
    duplicated = pl.when(pl.col(DUP) > 1).then(
        pl.format("`popularity` holds item {} more than once", item_text())
    )
    # per="list": each list's mean (an item weighs 1/|L|), then the mean over lists;
    # per="item": the mean over every recommended item (Microsoft Recommenders).
    if metric.side("per") == "list":
        size = pl.col(SIZE).cast(pl.Float64)
        total, count = weighted_sum(pl.col(INFO) / size), weighted_sum(1.0 / size).round()
    else:
        total, count = weighted_sum(pl.col(INFO)), pl.col(COUNTED).sum().cast(pl.Float64)
    per_group = joined.group_by(keys).agg(
        total.alias("__prm_sum"),
        count.alias("__prm_lists"),
        pl.coalesce(missing, duplicated, "__prm_count_error").min().alias(BAD),
    )
    value = pl.col("__prm_sum") / pl.col("__prm_lists")
    return finish(per_group, by, value, BAD)


_NOVELTY = CountState(top_counts, _novelty)  # Spark sums the table across partitions
NOVELTY = CatalogSpec(
    name="novelty", per_list=True, catalog=_NOVELTY.catalog, counts=_NOVELTY, keep=keep_top,
    spellings=Spellings(recommenders=("MeanInvUserFreq",)),
)  # fmt: skip


def _check(metric: Metric) -> None:
    check_choice(metric.side("per"), "per", ("list", "item"))
    _popularity(metric, None)  # the inputs now, the item dtype with the frame


@constructor(NOVELTY, check=_check)
def novelty(  # noqa: PLR0913  (a parameter per side input, and their columns)
    k: int | None = None,
    *,
    popularity: pl.DataFrame | pl.LazyFrame | None = None,
    n_users: Annotated[int | None, SIDE] = None,
    interactions: pl.DataFrame | pl.LazyFrame | None = None,
    per: Literal["list", "item"] = "list",
    columns: SideColumns = None,
) -> Metric:
    """Novelty: the mean self-information ``-log2(p_i)`` of the recommended items.

    ``p_i`` is item ``i``'s popularity: the share of users who interacted
    with it. Each list's mean over its top-`k` items, then the mean over
    lists (Zhou et al., 2010; recmetrics' ``novelty``). Higher means less
    popular, more novel recommendations.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    popularity
        One row per item: the item id, then its count of interacting users
        (recmetrics' ``pop``); give `n_users` with it.
    n_users
        The number of users the counts are out of (recmetrics' ``u``).
    interactions
        Instead of `popularity` and `n_users`: a frame of (user, item)
        interactions, read by name: ``user`` and ``item`` columns (else the
        first two, in that order). An item's count is its number of distinct users; `n_users`
        the number of distinct users.
    per
        ``"list"``: each list's mean, then the mean over lists (recmetrics);
        ``"item"``: the mean over every recommended item, so longer lists
        weigh more (Microsoft Recommenders' ``novelty``; the name shows it,
        ``novelty(per=item)@k``).

    columns
        Column names for the ``item`` and ``count`` of `popularity` and the ``user`` and ``item`` of
        `interactions`, where not the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``novelty@k``, one value per `by` group (catalog scope).

    Raises
    ------
    InvalidParameterError
        Neither `popularity` with `n_users` nor `interactions`, or both.
    InvalidDataError
        A popularity DataFrame with null or duplicate items or a count
        outside ``[1, n_users]``. Found when the plan runs: a ranked item
        without popularity, or (for a LazyFrame) such a count or duplicate;
        the message names the item.

    Notes
    -----
    recmetrics divides each list's sum by the requested list length ``n``;
    here it is divided by the list's own length within `k`. The two agree
    whenever every list holds `k` items, recmetrics' assumption.

    Microsoft Recommenders' ``novelty(train, reco)`` takes an item's
    popularity as its share of the training rows (the item choice model):
    ``prm.novelty(k, popularity=train.group_by("item").len(),
    n_users=train.height, per="item")`` gives its value.

    References
    ----------
    Zhou, Kuscsik, Liu, Medo, Wakeling and Zhang (2010), "Solving the
    apparent diversity-accuracy dilemma of recommender systems", PNAS 107(10).

    Examples
    --------
    Of 8 users, 4 interacted with ``a``, 2 with ``b`` and 1 with ``c``:

    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "c"],
    ...     "score": [0.9, 0.5, 0.8, 0.1]})
    >>> pop = pl.DataFrame({"item": ["a", "b", "c"], "users": [4, 2, 1]})
    >>> prm.evaluate(df, [prm.novelty(1, popularity=pop, n_users=8),
    ...     prm.novelty(2, popularity=pop, n_users=8)])
    shape: (1, 2)
    ┌───────────┬───────────┐
    │ novelty@1 ┆ novelty@2 │
    │ ---       ┆ ---       │
    │ f64       ┆ f64       │
    ╞═══════════╪═══════════╡
    │ 1.0       ┆ 1.75      │
    └───────────┴───────────┘
    """


SPECS = (spec_of(novelty),)
