"""Catalog-scope popularity bias: ARP, APLT, ACLT and RecBole's tail percentage.

Each is the mean over the group's lists of a per-list value read from the
items' popularity (Abdollahpouri et al. 2019, in Elliot's definitions). The
popularity and the head come from a side input (:mod:`._popularity_side`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import ITEM
from polars_rankmetrics._spec import POSITIVE, CatalogSpec, CountState, Interval, Metric, Spellings
from polars_rankmetrics.metrics._core import keep_top
from polars_rankmetrics.metrics._count_tables import top_counts, weighted_sum
from polars_rankmetrics.metrics._popularity_side import (
    BAD_ROW,
    DUPLICATED,
    ERROR,
    HEAD,
    POP,
    check_sources,
    joined,
    popularity,
)
from polars_rankmetrics.metrics._side import (
    BAD,
    DUP,
    SIZE,
    SideColumns,
    finish,
    item_text,
    keyed,
)

__all__ = ["aclt", "aplt", "arp", "mean_pop_rank", "tail_percentage"]

Term = Callable[[Metric], pl.Expr]
Flags = Callable[[Metric, pl.LazyFrame], pl.LazyFrame]

TAIL = "__prm_tail"  # the item is in RecBole's tail
QUANTILE = "__prm_pop_quantile"  # LensKit's popularity rank of the item, as a quantile


def _mean_over_lists(term: Term, flags: Flags, *, per_item: bool) -> CountState:
    """A family's state: the mean over lists of the list's sum of `term` (over its length if `per_item`).

    `flags` adds the item's popularity columns to the rows of the summed top_counts table (one
    per group, item and list length): a sum over the top-k rows is a weighted_sum over them.
    """

    def value(metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
        _checked(metric)  # a metric parsed from its name has no side input yet
        frame, keys = keyed(table, by)
        rows = flags(metric, frame)
        size = pl.col(SIZE).cast(pl.Float64)
        terms = term(metric).cast(pl.Float64)
        per_group = rows.group_by(keys).agg(
            weighted_sum(terms / size if per_item else terms).alias("__prm_sum"),
            weighted_sum(1.0 / size).round().alias("__prm_lists"),
            pl.col(BAD_ROW).min().alias(BAD),
        )
        return finish(per_group, by, pl.col("__prm_sum") / pl.col("__prm_lists"), BAD)

    return CountState(top_counts, value)


def _with_tail(metric: Metric, rows: pl.LazyFrame) -> pl.LazyFrame:
    """`rows` with RecBole's tail flag: a count at most `tail` (> 1), or the share `tail` least popular."""
    table = popularity(metric, rows.collect_schema()[ITEM])
    assert table is not None  # check_sources
    tail = metric.number("tail")
    if tail > 1:
        flags = table.select(ITEM, (pl.col(POP) <= tail).alias(TAIL), DUP, ERROR)
    else:
        # RecBole sorts (count, item id) ascending and keeps the first max(int(n * tail), 1) items.
        cut = (pl.len().cast(pl.Float64) * tail).floor().clip(lower_bound=1.0)
        ranked = table.sort(POP, ITEM).with_row_index("__prm_position")
        in_tail = pl.col("__prm_position").cast(pl.Float64) < cut
        flags = ranked.select(ITEM, in_tail.alias(TAIL), DUP, ERROR)
    out = rows.join(flags, on=ITEM, how="left")
    duplicated = pl.when(pl.col(DUP) > 1).then(pl.format(DUPLICATED, item_text()))
    bad = pl.coalesce(duplicated, ERROR).alias(BAD_ROW)
    return out.with_columns(pl.col(TAIL).fill_null(value=False), bad)


def _with_quantile(metric: Metric, rows: pl.LazyFrame) -> pl.LazyFrame:
    """`rows` with LensKit's popularity quantile of each item (0 for an item of count 0 or without one).

    The average rank of the item's count among the items of positive count, ascending, over
    their number.
    """
    table = popularity(metric, rows.collect_schema()[ITEM])
    assert table is not None  # check_sources
    positive = pl.col(POP) > 0
    quantile = pl.col(POP).rank("average")
    # Items of count 0 take the lowest ranks in a rank over every row: shift them out.
    zeros = (~positive).sum()
    value = pl.when(positive).then((quantile - zeros) / positive.sum()).otherwise(0.0)
    flags = table.select(ITEM, value.alias(QUANTILE), DUP, ERROR)
    out = rows.join(flags, on=ITEM, how="left")
    duplicated = pl.when(pl.col(DUP) > 1).then(pl.format(DUPLICATED, item_text()))
    bad = pl.coalesce(duplicated, ERROR).alias(BAD_ROW)
    return out.with_columns(pl.col(QUANTILE).fill_null(0.0), bad)


def _popular(metric: Metric, rows: pl.LazyFrame) -> pl.LazyFrame:
    return joined(metric, rows, need_popularity=True)


def _headed(metric: Metric, rows: pl.LazyFrame) -> pl.LazyFrame:
    return joined(metric, rows, need_popularity=False)


_ARP = _mean_over_lists(lambda _m: pl.col(POP), _popular, per_item=True)
ARP = CatalogSpec(
    name="arp", per_list=True, aliases=("ARP",), keep=keep_top,
    catalog=_ARP.catalog, counts=_ARP,
    spellings=Spellings(recommenders=("AveragePopularity", "AvgRecPopularity")),
)  # fmt: skip
_APLT = _mean_over_lists(lambda _m: ~pl.col(HEAD), _headed, per_item=True)
APLT = CatalogSpec(
    name="aplt", per_list=True, aliases=("APLT",), keep=keep_top,
    catalog=_APLT.catalog, counts=_APLT,
)  # fmt: skip
_ACLT = _mean_over_lists(lambda _m: ~pl.col(HEAD), _headed, per_item=False)
ACLT = CatalogSpec(
    name="aclt", per_list=True, aliases=("ACLT",), keep=keep_top,
    catalog=_ACLT.catalog, counts=_ACLT,
)  # fmt: skip
_TAIL_PERCENTAGE = _mean_over_lists(lambda _m: pl.col(TAIL), _with_tail, per_item=True)
TAIL_PERCENTAGE = CatalogSpec(
    name="tail_percentage", per_list=True, aliases=("TailPercentage",), keep=keep_top,
    catalog=_TAIL_PERCENTAGE.catalog, counts=_TAIL_PERCENTAGE,
)  # fmt: skip
_MEAN_POP_RANK = _mean_over_lists(lambda _m: pl.col(QUANTILE), _with_quantile, per_item=True)
MEAN_POP_RANK = CatalogSpec(
    name="mean_pop_rank", aliases=("MeanPopRank",), keep=keep_top,
    catalog=_MEAN_POP_RANK.catalog, counts=_MEAN_POP_RANK,
)  # fmt: skip


def _checked(metric: Metric) -> Metric:
    check_sources(metric, need_popularity=metric.name in {"arp", "tail_percentage", "mean_pop_rank"})
    return metric


@constructor(ARP, check=_checked)
def arp(
    k: int | None = None,
    *,
    interactions: pl.DataFrame | pl.LazyFrame | None = None,
    popularity: pl.DataFrame | pl.LazyFrame | None = None,
    columns: SideColumns = None,
) -> Metric:
    """Average recommendation popularity: the mean popularity of the recommended items.

    ``ARP = 1/|U| sum_u sum_{i in L_u} phi(i) / |L_u|``, with ``L_u`` user
    ``u``'s top-`k` list and ``phi(i)`` the popularity of item ``i``: its
    number of distinct users in the training interactions (Yin et al.
    2012; Abdollahpouri et al. 2019; Elliot's ``ARP``). Lower means less
    popularity bias.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    interactions
        The training interactions: a frame of (user, item), read by name:
        ``user`` and ``item`` columns (else the first two, in that order). An item ranked but
        absent from them (a cold item) has popularity 0.
    popularity
        Instead of `interactions`: one row per item, the item id then its
        popularity (a number >= 0); every ranked item needs a row.

    columns
        Column names for the ``user`` and ``item`` of `interactions` and the ``item`` and ``count`` of
        `popularity`, where not the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``arp@k``, one value per `by` group (catalog scope).

    Raises
    ------
    InvalidParameterError
        Neither or both of `interactions` and `popularity`.
    InvalidDataError
        Null ids, duplicate items or negative counts in an eager side input;
        found when the plan runs: a ranked item without a row in
        `popularity`, or (for a LazyFrame) such a duplicate or count.

    References
    ----------
    Abdollahpouri, Burke and Mobasher (2019), "Managing popularity bias in
    recommender systems with personalized re-ranking", FLAIRS.
    Anelli et al. (2021), "Elliot: a comprehensive and rigorous framework
    for reproducible recommender systems evaluation", SIGIR.

    Examples
    --------
    Item ``a`` has 3 users, ``b`` 2, ``c`` 1; ``d`` is cold:

    >>> train = pl.DataFrame({"user": [1, 2, 3, 1, 2, 3], "item": ["a", "a", "a", "b", "b", "c"]})
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "c", "d"],
    ...     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> prm.evaluate(df, [prm.arp(1, interactions=train), prm.arp(2, interactions=train)])
    shape: (1, 2)
    ┌───────┬───────┐
    │ arp@1 ┆ arp@2 │
    │ ---   ┆ ---   │
    │ f64   ┆ f64   │
    ╞═══════╪═══════╡
    │ 2.0   ┆ 1.5   │
    └───────┴───────┘
    """


@constructor(APLT, check=_checked)
def aplt(  # noqa: PLR0913  (a parameter per side input, and their columns)
    k: int | None = None,
    *,
    interactions: pl.DataFrame | pl.LazyFrame | None = None,
    popularity: pl.DataFrame | pl.LazyFrame | None = None,
    head: pl.DataFrame | pl.LazyFrame | pl.Series | Sequence[object] | None = None,
    head_share: Annotated[float, Interval(low=0.0, high=1.0, low_open=True)] = 0.2,
    columns: SideColumns = None,
) -> Metric:
    """Average percentage of long-tail items: the mean share of tail items in a list.

    ``APLT = 1/|U| sum_u |L_u & T| / |L_u|``, with ``T`` the long tail: every
    item outside the popular head ``H`` (Abdollahpouri et al. 2017; Elliot's
    ``APLT``). Higher means more long-tail recommendations.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    interactions, popularity
        The items' popularity, as for :func:`arp`, from which the head is
        drawn. Cold items are in the tail.
    head
        An explicit head instead: a Series, sequence or frame (first column)
        of item ids; then no popularity is needed.
    head_share
        The head is the most popular items, taken in decreasing popularity
        while the items before them hold less than `head_share` of all
        interactions (items tied in popularity join together). Elliot's
        ``pop_ratio`` is this share (its default 0.8).

    columns
        Column names for the ``user`` and ``item`` of `interactions`, the ``item`` and ``count`` of
        `popularity` and the ``item`` of `head`, where not the [default names][side-frames]: a
        ``{role: name}`` mapping or a :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``aplt@k``, one value per `by` group (catalog scope).

    Raises
    ------
    InvalidParameterError
        No popularity and no head, or both `interactions` and `popularity`.
    InvalidDataError
        Null ids or duplicate items in an eager side input.

    References
    ----------
    Abdollahpouri, Burke and Mobasher (2017), "Controlling popularity bias
    in learning-to-rank recommendation", RecSys.

    Examples
    --------
    Item ``a`` holds 3 of the 6 interactions: the head at ``head_share=0.5``.

    >>> train = pl.DataFrame({"user": [1, 2, 3, 1, 2, 3], "item": ["a", "a", "a", "b", "b", "c"]})
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "c", "d"],
    ...     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> prm.evaluate(df, [prm.aplt(2, interactions=train, head_share=0.5),
    ...     prm.aclt(2, interactions=train, head_share=0.5), prm.aplt(2, head=["a", "b"])])
    shape: (1, 3)
    ┌────────────────────────┬────────────────────────┬────────┐
    │ aplt(head_share=0.5)@2 ┆ aclt(head_share=0.5)@2 ┆ aplt@2 │
    │ ---                    ┆ ---                    ┆ ---    │
    │ f64                    ┆ f64                    ┆ f64    │
    ╞════════════════════════╪════════════════════════╪════════╡
    │ 0.75                   ┆ 1.5                    ┆ 0.5    │
    └────────────────────────┴────────────────────────┴────────┘
    """


@constructor(ACLT, check=_checked)
def aclt(  # noqa: PLR0913  (a parameter per side input, and their columns)
    k: int | None = None,
    *,
    interactions: pl.DataFrame | pl.LazyFrame | None = None,
    popularity: pl.DataFrame | pl.LazyFrame | None = None,
    head: pl.DataFrame | pl.LazyFrame | pl.Series | Sequence[object] | None = None,
    head_share: Annotated[float, Interval(low=0.0, high=1.0, low_open=True)] = 0.2,
    columns: SideColumns = None,
) -> Metric:
    """Average coverage of long-tail items: the mean number of tail items in a list.

    ``ACLT = 1/|U| sum_u |L_u & T|``, with ``T`` the long tail as for
    :func:`aplt` (Abdollahpouri et al. 2019; Elliot's ``ACLT``).

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    interactions, popularity, head, head_share
        As for :func:`aplt`.

    columns
        Column names for the ``user`` and ``item`` of `interactions`, the ``item`` and ``count`` of
        `popularity` and the ``item`` of `head`, where not the [default names][side-frames]: a
        ``{role: name}`` mapping or a :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``aclt@k``, one value per `by` group (catalog scope).

    Raises
    ------
    InvalidParameterError, InvalidDataError
        As for :func:`aplt`.

    References
    ----------
    Abdollahpouri, Burke and Mobasher (2019), "Managing popularity bias in
    recommender systems with personalized re-ranking", FLAIRS.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "c", "d"],
    ...     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> prm.evaluate(df, [prm.aclt(1, head=["a"]), prm.aclt(2, head=["a"])])
    shape: (1, 2)
    ┌────────┬────────┐
    │ aclt@1 ┆ aclt@2 │
    │ ---    ┆ ---    │
    │ f64    ┆ f64    │
    ╞════════╪════════╡
    │ 0.5    ┆ 1.5    │
    └────────┴────────┘
    """


@constructor(TAIL_PERCENTAGE, check=_checked)
def tail_percentage(
    k: int | None = None,
    *,
    interactions: pl.DataFrame | pl.LazyFrame | None = None,
    popularity: pl.DataFrame | pl.LazyFrame | None = None,
    tail: Annotated[float, POSITIVE] = 0.1,
    columns: SideColumns = None,
) -> Metric:
    """Tail percentage (RecBole's ``TailPercentage``): the mean share of tail items in a list.

    ``1/|U| sum_u |L_u & T| / |L_u|``, with RecBole's tail ``T``: for
    ``tail > 1``, the items of popularity at most `tail`; for ``tail <= 1``,
    the ``max(int(n * tail), 1)`` least popular of the ``n`` items with a
    popularity, ties broken by item id.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    interactions, popularity
        The items' popularity, as for :func:`arp`. Items without one (cold
        items) are not in the tail, as RecBole counts only the items of its
        training set.
    tail
        RecBole's ``tail_ratio`` (default 0.1).

    columns
        Column names for the ``user`` and ``item`` of `interactions` and the ``item`` and ``count`` of
        `popularity`, where not the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``tail_percentage@k``, one value per `by` group (catalog scope).

    Raises
    ------
    InvalidParameterError, InvalidDataError
        As for :func:`arp`.

    Notes
    -----
    RecBole counts an item's interactions, repeats included; here an item's
    popularity from `interactions` is its number of distinct users (the two
    agree on interactions without repeated pairs). RecBole divides by the
    position in full lists of `k`; here by the list's own length within `k`.

    References
    ----------
    Zhao et al. (2021), "RecBole: towards a unified, comprehensive and
    efficient framework for recommendation algorithms", CIKM.

    Examples
    --------
    >>> pop = pl.DataFrame({"item": ["a", "b", "c", "d"], "count": [9, 5, 2, 1]})
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "c", "d"],
    ...     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> prm.evaluate(df, [prm.tail_percentage(2, popularity=pop, tail=0.5),
    ...     prm.tail_percentage(2, popularity=pop, tail=2)])
    shape: (1, 2)
    ┌─────────────────────────────┬───────────────────────────┐
    │ tail_percentage(tail=0.5)@2 ┆ tail_percentage(tail=2)@2 │
    │ ---                         ┆ ---                       │
    │ f64                         ┆ f64                       │
    ╞═════════════════════════════╪═══════════════════════════╡
    │ 0.5                         ┆ 0.5                       │
    └─────────────────────────────┴───────────────────────────┘
    """


@constructor(MEAN_POP_RANK, check=_checked)
def mean_pop_rank(
    k: int | None = None,
    *,
    interactions: pl.DataFrame | pl.LazyFrame | None = None,
    popularity: pl.DataFrame | pl.LazyFrame | None = None,
    columns: SideColumns = None,
) -> Metric:
    """Mean popularity rank: the mean popularity quantile of the listed items (LensKit's ``MeanPopRank``).

    Each item's quantile ``q_i``: the (average) rank of its popularity among
    the items of positive popularity, ascending, over their number (1 for
    the most popular item); 0 for an item of popularity 0 or absent from the
    side input. Per list the mean of ``q_i`` over its top-`k` items, then the
    mean over lists (Ekstrand et al. 2017's obscurity). Lower means more
    obscure recommendations.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    interactions
        The training interactions, (user, item): an item's popularity is its
        number of distinct users (LensKit's ``count="users"``).
    popularity
        Instead of `interactions`: one row per item, the item id then its
        popularity (``count="interactions"`` gives the interaction counts).

    columns
        Column names for the ``user`` and ``item`` of `interactions` and the ``item`` and ``count`` of
        `popularity`, where not the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``mean_pop_rank@k``, one value per `by` group (catalog scope).

    Examples
    --------
    Item ``a`` has 3 users, ``b`` 2, ``c`` 1 (quantiles 1, 2/3, 1/3); ``d`` is cold (0):
    the lists' means are 5/6 and 1/6.

    >>> train = pl.DataFrame({"user": [1, 2, 3, 1, 2, 3], "item": ["a", "a", "a", "b", "b", "c"]})
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "c", "d"],
    ...     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> prm.evaluate(df, [prm.mean_pop_rank(interactions=train)]).with_columns(pl.all().round(4))
    shape: (1, 1)
    ┌───────────────┐
    │ mean_pop_rank │
    │ ---           │
    │ f64           │
    ╞═══════════════╡
    │ 0.5           │
    └───────────────┘
    """


SPECS = (spec_of(arp), spec_of(aplt), spec_of(aclt), spec_of(tail_percentage), spec_of(mean_pop_rank))
