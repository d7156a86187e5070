"""Catalog-scope popularity parity: ranking-based statistical parity and equal opportunity.

Zhu and Caverlee's Pop-RSP and Pop-REO in Elliot's definitions: the relative
spread of the rates at which head and tail items reach the top-k lists, each
out of the items a user could be recommended (those outside the user's
training items; for Pop-REO, those of them the user finds relevant).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import ITEM, NUM_RET, REL, Rows
from polars_rankmetrics._spec import SUMMED, CatalogSpec, CountState, Interval, Metric
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.metrics._core import PREPARED, keep_retrieved, keep_within, within
from polars_rankmetrics.metrics._count_tables import state
from polars_rankmetrics.metrics._popularity_side import (
    BAD_ROW,
    HEAD,
    USER,
    check_sources,
    flagged,
    interactions_frame,
    joined,
    user_ids,
)
from polars_rankmetrics.metrics._side import (
    BAD,
    SideColumns,
    columns_of,
    finish,
    keyed,
    same_dtype,
    top_rows,
)

__all__ = ["pop_reo", "pop_rsp"]


def _training(metric: Metric, query_dtype: pl.DataType, item_dtype: pl.DataType) -> pl.LazyFrame:
    """The distinct (USER, ITEM) training pairs, ids in the frame's dtypes."""
    frame, user, item = interactions_frame(metric.side("interactions"), columns_of(metric))
    schema = frame.collect_schema()
    users = user_ids(pl.col(user), schema[user], query_dtype, "interactions")
    items = same_dtype(pl.col(item), schema[item], item_dtype, "interactions")
    return frame.select(users.alias(USER), items.alias(ITEM)).unique()


def _heads(metric: Metric, item_dtype: pl.DataType) -> pl.LazyFrame:
    """The head items (ITEM)."""
    return flagged(metric, item_dtype).filter(pl.col(HEAD)).select(ITEM)


def _universe(metric: Metric, lists: pl.LazyFrame, training: pl.LazyFrame) -> pl.LazyFrame:
    """The items of the training, ranked anywhere in `lists`, or in the head: each once."""
    head = _heads(metric, lists.collect_schema()[ITEM])
    return pl.concat([training.select(ITEM), lists.select(ITEM), head]).unique()


def _checked(metric: Metric) -> Metric:
    if metric.side("interactions") is None:
        remedy = f"prm.{metric.name}(10, interactions=train)"
        raise InvalidParameterError.needs(metric.name, "the training interactions", remedy)
    check_sources(metric, need_popularity=False)
    return metric


_ITEMS = "__prm_item_row"  # a key: the row names an item ranked in a list (Pop-RSP's universe), not a group
_H, _T = SUMMED + "_h", SUMMED + "_t"  # head and tail items recommended (Pop-REO: relevant ones)
_USERS = SUMMED + "_users"
_H_SEEN, _T_SEEN = SUMMED + "_h_seen", SUMMED + "_t_seen"  # the users' head and tail training items
_H_DEN, _T_DEN = SUMMED + "_h_den", SUMMED + "_t_den"  # relevant head and tail items outside the training


def _rsp_sums(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """Per group: the sums of Pop-RSP's rates; and its universe's items (:func:`_universe`), each once."""
    _checked(metric)  # a metric parsed from its name has no side input yet
    schema = lists.collect_schema()
    training = _training(metric, schema[query], schema[ITEM])
    heads = flagged(metric, schema[ITEM]).filter(pl.col(HEAD)).select(ITEM, HEAD)
    per_user = (
        training.join(heads, on=ITEM, how="left")
        .group_by(USER)
        .agg(pl.col(HEAD).fill_null(value=False).sum().alias("__prm_h_train"), pl.len().alias("__prm_train"))
    )
    frame, keys = keyed(lists, by)
    rows = joined(metric, top_rows(frame.with_columns(pl.col(query).alias(USER)), [*keys, USER], metric.k),
                  need_popularity=False)  # fmt: skip
    per_list = rows.group_by(*keys, USER).agg(
        pl.col(HEAD).sum().alias("__prm_h"), (~pl.col(HEAD)).sum().alias("__prm_t"), pl.col(BAD_ROW).min()
    )
    per_list = per_list.join(per_user, on=USER, how="left").with_columns(
        pl.col("__prm_h_train", "__prm_train").fill_null(0)
    )
    h_train, t_train = pl.col("__prm_h_train"), pl.col("__prm_train") - pl.col("__prm_h_train")
    per_group = per_list.group_by(keys).agg(
        pl.col("__prm_h").sum().cast(pl.Int64).alias(_H),
        pl.col("__prm_t").sum().cast(pl.Int64).alias(_T),
        pl.len().cast(pl.Int64).alias(_USERS),
        h_train.sum().cast(pl.Int64).alias(_H_SEEN),
        t_train.sum().cast(pl.Int64).alias(_T_SEEN),
        pl.col(BAD_ROW).min().alias(BAD),
    )
    items = _universe(metric, lists, training).with_columns(pl.lit(value=True).alias(_ITEMS))
    groups = state(per_group, by, keys).with_columns(pl.lit(value=False).alias(_ITEMS))
    return pl.concat([groups, items], how="diagonal")


def _pop_rsp(metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    heads = _heads(metric, table.collect_schema()[ITEM]).unique().select(pl.len().alias("__prm_heads"))
    sizes = table.filter(pl.col(_ITEMS)).select(pl.len().alias("__prm_items")).join(heads, how="cross")
    per_group = table.filter(~pl.col(_ITEMS)).join(sizes, how="cross")
    users, n_head = pl.col(_USERS), pl.col("__prm_heads")
    n_tail = pl.col("__prm_items") - n_head
    # P(R@k | g) = recommended items of g / the items of g outside each user's training items.
    p_head = pl.col(_H) / (users * n_head - pl.col(_H_SEEN))
    p_tail = pl.col(_T) / (users * n_tail - pl.col(_T_SEEN))
    return finish(per_group, by, _spread(p_head, p_tail), BAD)


def _spread(p_head: pl.Expr, p_tail: pl.Expr) -> pl.Expr:
    """The ratio std / mean of two rates (population std), |a - b| / (a + b); null when undefined."""
    return pl.when(p_head.is_finite() & p_tail.is_finite() & (p_head + p_tail > 0)).then(
        (p_head - p_tail).abs() / (p_head + p_tail)
    )


def _reo_sums(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """Per group with a list: the sums of Pop-REO's rates (null when no user of it has a relevant item)."""
    _checked(metric)
    schema = lists.collect_schema()
    training = _training(metric, schema[query], schema[ITEM]).with_columns(
        pl.lit(value=True).alias("__prm_seen")
    )
    heads = flagged(metric, schema[ITEM]).filter(pl.col(HEAD)).select(ITEM, HEAD)
    frame, keys = keyed(lists, by)
    # The relevant rows of the users with a list, retrieved or not (the lists carry the unretrieved
    # ones for this family: CatalogSpec.unretrieved).
    relevant = frame.filter(pl.col(REL) & (pl.col(NUM_RET) > 0)).select(
        *keys,
        pl.col(query).alias(USER),
        ITEM,
        within(PREPARED, metric.k).fill_null(value=False).alias("__prm_top"),
    )
    rows = (
        relevant.join(heads, on=ITEM, how="left")
        .join(training, on=[USER, ITEM], how="left")
        .with_columns(pl.col(HEAD, "__prm_seen").fill_null(value=False))
    )
    top, head, unseen = pl.col("__prm_top"), pl.col(HEAD), ~pl.col("__prm_seen")
    per_group = rows.group_by(keys).agg(
        (top & head).sum().cast(pl.Int64).alias(_H),
        (top & ~head).sum().cast(pl.Int64).alias(_T),
        (head & unseen).sum().cast(pl.Int64).alias(_H_DEN),
        (~head & unseen).sum().cast(pl.Int64).alias(_T_DEN),
    )
    # Every group with a list has a row: null when no user of it has a relevant item.
    listed = frame.filter(pl.col(NUM_RET) > 0).select(keys).unique()
    return state(per_group.join(listed, on=keys, how="right"), by, keys)


def _pop_reo(_metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    # P(R@k | g, y=1) = relevant items of g in the top k / relevant items of g outside the training.
    p_head = pl.col(_H) / pl.col(_H_DEN)
    p_tail = pl.col(_T) / pl.col(_T_DEN)
    return finish(table, by, _spread(p_head, p_tail))


def _keep_reo(metric: Metric, rows: Rows) -> pl.Expr:
    """The top-k rows and every relevant row: the relevant items no list ranked count."""
    return keep_within(rows, metric.k) | rows.rel


# keep_retrieved: the items ranked in any list, past the cutoff too, are part of the tail's size.
_RSP = CountState(_rsp_sums, _pop_rsp)
_REO = CountState(_reo_sums, _pop_reo)
POP_RSP = CatalogSpec(
    name="pop_rsp", aliases=("PopRSP",), keep=keep_retrieved, catalog=_RSP.catalog, counts=_RSP,
    )  # fmt: skip
POP_REO = CatalogSpec(
    name="pop_reo", aliases=("PopREO",), keep=_keep_reo, catalog=_REO.catalog, counts=_REO, unretrieved=True,
    )  # fmt: skip


@constructor(POP_RSP, check=_checked)
def pop_rsp(
    k: int | None = None,
    *,
    interactions: pl.DataFrame | pl.LazyFrame | None = None,
    head: pl.DataFrame | pl.LazyFrame | pl.Series | Sequence[object] | None = None,
    head_share: Annotated[float, Interval(low=0.0, high=1.0, low_open=True)] = 0.2,
    columns: SideColumns = None,
) -> Metric:
    """Popularity-based ranking-based statistical parity (Pop-RSP; Zhu and Caverlee, 2020).

    For each group ``g`` of items (the popular head ``H`` and the long tail
    ``T``, as for :func:`aplt`),
    ``P(R@k | g) = sum_u |L_u & g| / sum_u |g minus I_u|``, with ``L_u`` user
    ``u``'s top-`k` list and ``I_u`` its training items; then
    ``Pop-RSP = std(P(R@k | H), P(R@k | T)) / mean(...)`` (population
    standard deviation), which for two groups is ``|P_H - P_T| / (P_H + P_T)``.
    0 when head and tail items are recommended at the same rate; higher
    means a stronger bias towards one group (Elliot's ``PopRSP``).

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    interactions
        The training interactions (user id first, item id second): the
        popularity, the head and each user's training items. The users are
        matched to the frame's query ids; a user without interactions has
        none to exclude.
    head, head_share
        As for :func:`aplt`.

    columns
        Column names for the ``user`` and ``item`` of `interactions` and the ``item`` of `head`, where
        not the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``pop_rsp@k``, one value per `by` group (catalog scope); null when a
        group's rates are undefined (an empty head or tail) or both 0.

    Raises
    ------
    InvalidParameterError
        No `interactions`.
    InvalidDataError
        Null ids in eager interactions or head.

    Notes
    -----
    The items are those of `interactions`, of the head and ranked in any
    list (Elliot takes the items of its whole dataset); the tail is every
    item outside the head.

    References
    ----------
    Zhu and Caverlee (2020), "Measuring and mitigating item
    under-recommendation bias in personalized ranking systems", SIGIR.

    Examples
    --------
    Items ``a``..``d``; the head is ``a``. User 1 trained on ``a``, user 2 on ``b``:

    >>> train = pl.DataFrame({"user": [1, 2], "item": ["a", "b"]})
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["b", "c", "a", "c"],
    ...     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> prm.evaluate(df, [prm.pop_rsp(1, interactions=train, head=["a"]),
    ...     prm.pop_rsp(2, interactions=train, head=["a"])]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌───────────┬───────────┐
    │ pop_rsp@1 ┆ pop_rsp@2 │
    │ ---       ┆ ---       │
    │ f64       ┆ f64       │
    ╞═══════════╪═══════════╡
    │ 0.5       ┆ 0.0       │
    └───────────┴───────────┘
    """


@constructor(POP_REO, check=_checked)
def pop_reo(
    k: int | None = None,
    *,
    interactions: pl.DataFrame | pl.LazyFrame | None = None,
    head: pl.DataFrame | pl.LazyFrame | pl.Series | Sequence[object] | None = None,
    head_share: Annotated[float, Interval(low=0.0, high=1.0, low_open=True)] = 0.2,
    columns: SideColumns = None,
) -> Metric:
    """Popularity-based ranking-based equal opportunity (Pop-REO; Zhu and Caverlee, 2020).

    For each group ``g`` of items (the popular head ``H`` and the long tail
    ``T``, as for :func:`pop_rsp`),
    ``P(R@k | g, y=1) = sum_u |L_u & Y_u & g| / sum_u |(Y_u & g) minus I_u|``,
    with ``L_u`` user ``u``'s top-`k` list, ``Y_u`` its relevant items
    (retrieved or not) and ``I_u`` its training items; then
    ``Pop-REO = std(P(R@k | H, y=1), P(R@k | T, y=1)) / mean(...)``
    (population standard deviation): ``|P_H - P_T| / (P_H + P_T)``. 0 when
    the relevant head and tail items reach the lists at the same rate;
    higher means a stronger bias towards one group (Elliot's ``PopREO``).

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    interactions, head, head_share
        As for :func:`pop_rsp`.

    columns
        Column names for the ``user`` and ``item`` of `interactions` and the ``item`` of `head`, where
        not the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``pop_reo@k``, one value per `by` group (catalog scope); null when a
        group's rates are undefined (no relevant head or tail item outside
        the training items) or both 0.

    Raises
    ------
    InvalidParameterError
        No `interactions`.
    InvalidDataError
        Null ids in eager interactions or head.
    ColumnNotFoundError
        A frame without a relevance column.

    Notes
    -----
    It reads the judged items the lists did not retrieve: build the frame
    with :func:`join_run_qrels` (or pass ``qrels=``). As Elliot, the users
    are those with a list and at least one relevant item, and a relevant
    item the user trained on counts in the numerator when recommended but
    not in the denominator. The tail is every item outside the head, cold
    items included (Elliot's tail holds only its training items).

    References
    ----------
    Zhu and Caverlee (2020), "Measuring and mitigating item
    under-recommendation bias in personalized ranking systems", SIGIR.

    Examples
    --------
    The head is ``a``; user 1 likes ``a`` and ``c``, user 2 ``b`` (never ranked):

    >>> train = pl.DataFrame({"user": [3], "item": ["a"]})
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "c", "d", "d", "b"],
    ...     "score": [3.0, 2.0, 1.0, 1.0, None], "relevance": [1, 1, 0, 0, 1]})
    >>> prm.evaluate(df, [prm.pop_reo(1, interactions=train, head=["a"]),
    ...     prm.pop_reo(2, interactions=train, head=["a"])]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌───────────┬───────────┐
    │ pop_reo@1 ┆ pop_reo@2 │
    │ ---       ┆ ---       │
    │ f64       ┆ f64       │
    ╞═══════════╪═══════════╡
    │ 1.0       ┆ 0.3333    │
    └───────────┴───────────┘
    """


SPECS = (spec_of(pop_rsp), spec_of(pop_reo))
