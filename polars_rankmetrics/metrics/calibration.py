"""Catalog-scope category metrics: Steck's miscalibration, RePlay's categorical diversity, LensKit's RBE.

Item categories come as a side input of (item, category) rows; an item in
several categories shares its weight equally among them (Steck 2018).
"""

from __future__ import annotations

from typing import Annotated

import polars as pl

from polars_rankmetrics._declare import SIDE, constructor, spec_of
from polars_rankmetrics._kernel import ITEM, RANK, exact_sum, fixed_point_sum, power
from polars_rankmetrics._spec import (
    OPEN_UNIT,
    SUMMED,
    CatalogSpec,
    CountState,
    Interval,
    Metric,
    Param,
    Spellings,
)
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions._parameters import check_choice
from polars_rankmetrics.metrics._core import PREPARED, keep_top, within
from polars_rankmetrics.metrics._count_tables import exact, state
from polars_rankmetrics.metrics._popularity_side import USER, interactions_frame, user_ids
from polars_rankmetrics.metrics._side import (
    BAD,
    LABEL,
    SHARE,
    SideColumns,
    columns_of,
    finish,
    item_text,
    keyed,
    memberships,
    same_dtype,
)

__all__ = ["category_diversity", "miscalibration", "rank_biased_entropy"]

CAT = LABEL  # an item's category
MISSING = "item {} of the {} has no row in `categories`"


def _no_history() -> InvalidParameterError:
    """Miscalibration given no history (its constructor and its plan refuse it)."""
    remedy = "prm.miscalibration(10, history=train, categories=...)"
    return InvalidParameterError.needs("miscalibration", "each user's history", remedy)


def _categories(metric: Metric, item_dtype: pl.DataType | None) -> pl.LazyFrame:
    """Distinct (ITEM, CAT) rows with each item's SHARE, checked (nulls) when eager."""
    value = metric.side("categories")
    if value is None:
        remedy = "give categories=frame of (item, category)"
        raise InvalidParameterError.needs(metric.spec.python_name, "item categories", remedy)
    return memberships(value, "categories", "category", item_dtype, columns_of(metric))


def _ranked(
    metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str
) -> tuple[pl.LazyFrame, list[str]]:
    """The top-k rows (keys..., USER, ITEM, RANK) and the group keys."""
    frame, keys = keyed(lists, by)
    top = frame.filter(within(PREPARED, metric.k)) if metric.k is not None else frame
    return top.select(*keys, pl.col(query).alias(USER), ITEM, RANK), keys


def _missing(rows: pl.LazyFrame, categories: pl.LazyFrame, keys: list[str], where: str) -> pl.LazyFrame:
    """Per group (or one row without keys): the text of an item of `rows` without categories, or null."""
    absent = rows.join(categories.select(ITEM).unique(), on=ITEM, how="anti")
    text = pl.format(MISSING, item_text(), pl.lit(where)).min().alias(BAD)
    return absent.group_by(keys).agg(text) if keys else absent.select(text)


_DISTINCT = SUMMED + "_distinct"  # the lists' numbers of distinct categories, summed
_LISTS = SUMMED + "_lists"  # the group's lists (category diversity), or those with a history (miscalibration)
_KL = SUMMED + "_kl"  # the fixed-point sum of the lists' divergences
_BAD_HISTORY = BAD + "_history"  # the text of a history item without categories


def _diversity_sums(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """Per group: the lists' distinct categories, summed, and the lists."""
    categories = _categories(metric, lists.collect_schema()[ITEM])
    rows, keys = _ranked(metric, lists, by, query)
    per_list = (
        rows.join(categories, on=ITEM, how="inner")
        .group_by(*keys, USER)
        .agg(pl.col(CAT).n_unique().alias("__prm_distinct"))
    )
    lists_of = rows.group_by(keys).agg(pl.col(USER).n_unique().cast(pl.Int64).alias(_LISTS))
    per_group = (
        per_list.group_by(keys)
        .agg(pl.col("__prm_distinct").sum().cast(pl.Int64).alias(_DISTINCT))
        .join(lists_of, on=keys, how="right")
        .join(_missing(rows, categories, keys, "ranked lists"), on=keys, how="left")
    )
    return state(per_group, by, keys)


def _category_diversity(metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    k = float(metric.k or 1)
    value = pl.col(_DISTINCT).fill_null(0).cast(pl.Float64) / k / pl.col(_LISTS).cast(pl.Float64)
    return finish(table, by, value, BAD)


def _history(
    metric: Metric, query_dtype: pl.DataType, categories: pl.LazyFrame
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """p(g | u) per (USER, CAT) as "__prm_p", and the text of a history item without categories."""
    value = metric.side("history")
    if value is None:
        raise _no_history()
    frame, user, item = interactions_frame(value, columns_of(metric), "history")
    schema = frame.collect_schema()
    item_dtype = categories.collect_schema()[ITEM]
    pairs = frame.select(
        user_ids(pl.col(user), schema[user], query_dtype, "history").alias(USER),
        same_dtype(pl.col(item), schema[item], item_dtype, "history").alias(ITEM),
    ).unique()
    sizes = pairs.group_by(USER).agg(pl.len().cast(pl.Float64).alias("__prm_n"))
    p = (
        pairs.join(categories, on=ITEM, how="inner")
        .group_by(USER, CAT)
        .agg(exact_sum(pl.col(SHARE)).alias("__prm_p_sum"))
        .join(sizes, on=USER, how="inner")
        .select(USER, CAT, (pl.col("__prm_p_sum") / pl.col("__prm_n")).alias("__prm_p"))
    )
    return p, _missing(pairs, categories, [], "history")


def _miscalibration_sums(
    metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str
) -> pl.LazyFrame:
    """Per group: the fixed-point sum of the lists' divergences, the lists with a history."""
    schema = lists.collect_schema()
    categories = _categories(metric, schema[ITEM])
    p, history_missing = _history(metric, schema[query], categories)
    rows, keys = _ranked(metric, lists, by, query)
    # w(i): 1, or nDCG's 1 / log2(1 + rank) for the rank-weighted variant.
    weight = (
        1.0 / (pl.col(RANK).cast(pl.Float64) + 1.0).log(2) if metric.name.endswith("_rank") else pl.lit(1.0)
    )
    rows = rows.with_columns(weight.alias("__prm_w"))
    total = rows.group_by(*keys, USER).agg(exact_sum(pl.col("__prm_w")).alias("__prm_w_sum"))
    q = (
        rows.join(categories, on=ITEM, how="inner")
        .group_by(*keys, USER, CAT)
        .agg(exact_sum(pl.col("__prm_w") * pl.col(SHARE)).alias("__prm_q_sum"))
    )
    alpha = metric.number("alpha")
    q_of = (pl.col("__prm_q_sum").fill_null(0.0) / pl.col("__prm_w_sum")).alias("__prm_q")
    p_of, mixed = pl.col("__prm_p"), (1.0 - alpha) * pl.col("__prm_q") + alpha * pl.col("__prm_p")
    # KL(p || (1 - alpha) q + alpha p) over the categories of the history (p > 0); users without
    # history have no p and no value.
    per_list = (
        total.join(p, on=USER, how="inner")
        .join(q, on=[*keys, USER, CAT], how="left")
        .with_columns(q_of)
        .group_by(*keys, USER)
        .agg(exact_sum(p_of * (p_of / mixed).log()).alias("__prm_kl"))
    )
    per_group = (
        per_list.group_by(keys)
        .agg(fixed_point_sum(pl.col("__prm_kl")).alias(_KL), pl.len().cast(pl.Int64).alias(_LISTS))
        .join(rows.select(keys).unique(), on=keys, how="right")
        .join(_missing(rows, categories, keys, "ranked lists"), on=keys, how="left")
        .join(history_missing.rename({BAD: _BAD_HISTORY}), how="cross")
    )
    return state(per_group, by, keys)


def _miscalibration(_metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    value = exact(_KL) / pl.col(_LISTS).cast(pl.Float64)
    return finish(table.with_columns(pl.coalesce(BAD, _BAD_HISTORY).alias(BAD)), by, value, BAD)


_DIVERSITY = CountState(_diversity_sums, _category_diversity)
_CALIBRATED = CountState(_miscalibration_sums, _miscalibration)
_CATEGORIES = Param("categories", None, "side")
_CALIBRATION = (
    Param("history", None, "side"),
    _CATEGORIES,
    Param("alpha", 0.01, domain=Interval(0.0, 1.0, low_open=True)),
    Param("columns", None, "side"),
)
CATEGORY_DIVERSITY = CatalogSpec(
    name="category_diversity", per_list=True, aliases=("CategoricalDiversity",), keep=keep_top,
    catalog=_DIVERSITY.catalog, counts=_DIVERSITY)  # fmt: skip
MISCALIBRATION = CatalogSpec(
    name="miscalibration", keep=keep_top, catalog=_CALIBRATED.catalog, counts=_CALIBRATED,
    params=_CALIBRATION, per_list=True,
)  # fmt: skip
MISCALIBRATION_RANK = CatalogSpec(
    name="miscalibration_rank", function="miscalibration", keep=keep_top, catalog=_CALIBRATED.catalog,
    per_list=True,
    counts=_CALIBRATED, params=_CALIBRATION, needs=frozenset({"rank"}),
)  # fmt: skip


@constructor(CATEGORY_DIVERSITY, check=lambda metric: _categories(metric, None))
def category_diversity(
    k: int, *, categories: pl.DataFrame | pl.LazyFrame | None = None, columns: SideColumns = None
) -> Metric:
    """Categorical diversity (RePlay's ``CategoricalDiversity``): distinct categories in the top `k` over `k`.

    Per list, the number of distinct categories among its top-`k` items
    divided by `k`; then the mean over lists.

    Parameters
    ----------
    k
        Cutoff (required).
    categories
        The items' categories: a frame of (item, category) rows, an item in
        as many rows as it has categories (or a List column of categories).

    columns
        Column names for the ``item`` and ``category`` of `categories`, where not the
        [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``category_diversity@k``, one value per `by` group (catalog scope).

    Raises
    ------
    InvalidParameterError
        No `categories`.
    InvalidDataError
        Nulls in eager categories; found when the plan runs: a ranked item
        without categories (the message names it).

    Notes
    -----
    As RePlay, a list shorter than `k` is divided by `k` all the same.

    References
    ----------
    Vasilev et al. (2021), "RePlay: a recommendation framework for
    experimentation and production use".

    Examples
    --------
    RePlay's example, as items with one category each:

    >>> recs = pl.DataFrame({"query": [1] * 5 + [2] * 5 + [3] * 3, "item": list(range(13)),
    ...     "score": [0.6, 0.5, 0.4, 0.3, 0.2, 0.6, 0.5, 0.4, 0.3, 0.2, 1.0, 0.5, 0.1]})
    >>> cats = pl.DataFrame({"item": list(range(13)), "category": [3, 7, 10, 11, 2, 5, 8, 11, 1, 3, 4, 9, 2]})
    >>> prm.evaluate(recs, [prm.category_diversity(3, categories=cats),
    ...     prm.category_diversity(5, categories=cats)])
    shape: (1, 2)
    ┌──────────────────────┬──────────────────────┐
    │ category_diversity@3 ┆ category_diversity@5 │
    │ ---                  ┆ ---                  │
    │ f64                  ┆ f64                  │
    ╞══════════════════════╪══════════════════════╡
    │ 1.0                  ┆ 0.866667             │
    └──────────────────────┴──────────────────────┘
    """


def miscalibration(  # noqa: PLR0913  (a parameter per side input, and their columns)
    k: int | None = None,
    *,
    history: pl.DataFrame | pl.LazyFrame | None = None,
    categories: pl.DataFrame | pl.LazyFrame | None = None,
    alpha: float = 0.01,
    weights: str = "uniform",
    columns: SideColumns = None,
) -> Metric:
    """Miscalibration (Steck, 2018): how far a list's category mix is from the user's history.

    ``C_KL = KL(p || q~) = sum_g p(g|u) ln(p(g|u) / q~(g|u))``, with
    ``q~ = (1 - alpha) q + alpha p``. ``p(g|u) = sum_{i in H_u} p(g|i) / |H_u|``
    is the category distribution of the user's history ``H_u`` and
    ``q(g|u) = sum_{i in L_u} w(i) p(g|i) / sum_{i in L_u} w(i)`` that of the
    top-`k` list, where ``p(g|i)`` is ``1 / (number of categories of i)`` for
    each of the item's categories. The mean over the lists of users with a
    history; 0 when the list matches the history exactly, higher is worse.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    history
        The users' histories: a frame of (user, item), user id first; users
        are matched to the frame's query ids (each item once per user).
    categories
        The items' categories, as for :func:`category_diversity`.
    alpha
        The weight of ``p`` in ``q~``, in (0, 1]: it keeps the divergence
        finite when the list misses a category of the history.
    weights
        ``"uniform"`` (``w = 1``) or ``"rank"``: ``w = 1 / log2(1 + rank)``,
        the rank discount of nDCG, for the paper's rank-weighted variant
        (``miscalibration_rank``).

    columns
        Column names for the ``user`` and ``item`` of `history` and the ``item`` and ``category`` of
        `categories`, where not the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``miscalibration@k`` (or ``miscalibration_rank@k``), one value per
        `by` group (catalog scope); null for a group without a user with a
        history.

    Raises
    ------
    InvalidParameterError
        No `history` or `categories`, an unknown `weights`, `alpha` outside (0, 1].
    InvalidDataError
        Nulls in eager side inputs; found when the plan runs: an item of the
        lists or the histories without categories (the message names it).

    Notes
    -----
    The divergence is in nats (natural logarithm). Steck weights history
    items by recency; here each history item weighs the same.

    References
    ----------
    Steck (2018), "Calibrated recommendations", RecSys.

    Examples
    --------
    User 1 watched two dramas and a comedy; the list is all comedy:

    >>> history = pl.DataFrame({"user": [1, 1, 1], "item": ["d1", "d2", "c1"]})
    >>> cats = pl.DataFrame({"item": ["d1", "d2", "c1", "c2", "c3"],
    ...     "genre": ["drama", "drama", "comedy", "comedy", "comedy"]})
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["c2", "c3"], "score": [2.0, 1.0]})
    >>> metric = prm.miscalibration(2, history=history, categories=cats)
    >>> prm.evaluate(df, [metric]).with_columns(pl.all().round(4))
    shape: (1, 1)
    ┌──────────────────┐
    │ miscalibration@2 │
    │ ---              │
    │ f64              │
    ╞══════════════════╡
    │ 2.7061           │
    └──────────────────┘
    """
    check_choice(weights, "weights", ("uniform", "rank"))
    spec = MISCALIBRATION if weights == "uniform" else MISCALIBRATION_RANK
    metric = Metric(spec, k, history=history, categories=categories, alpha=alpha, columns=columns)
    _categories(metric, None)
    if history is None:
        raise _no_history()
    interactions_frame(history, columns_of(metric), "history")
    return metric


# --- rank-biased entropy (LensKit) ------------------------------------------------------------------------

_RBE = SUMMED + "_rbe"  # the fixed-point sum of the lists' entropies
_SMOOTHING = 1e-6  # LensKit's matrix_column_entropy adds it to every category's weight


def _rbe_sums(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """Per group: the fixed-point sum of the lists' rank-biased entropies, and the lists."""
    categories = _categories(metric, lists.collect_schema()[ITEM]).select(ITEM, CAT)
    vocabulary = categories.select(pl.col(CAT).n_unique().cast(pl.Float64).alias("__prm_c"))
    rows, keys = _ranked(metric, lists, by, query)
    weight = power(metric.number("p"), pl.col(RANK).cast(pl.Float64) - 1.0)
    # LensKit's _entropy.py 63-72 and 93-102: each category's summed weight over the top-k items
    # holding it, plus 1e-6 for every category of the matrix; the entropy in bits of their shares.
    per_category = (
        rows.with_columns(weight.alias("__prm_w"))
        .join(categories, on=ITEM, how="inner")
        .group_by(*keys, USER, CAT)
        .agg(exact_sum(pl.col("__prm_w")).alias("__prm_s"))
    )
    every_list = rows.select(*keys, USER).unique()
    totals = (
        per_category.group_by(*keys, USER)
        .agg(exact_sum(pl.col("__prm_s")).alias("__prm_total"), pl.len().cast(pl.Float64).alias("__prm_held"))
        .join(every_list, on=[*keys, USER], how="right")
        .join(vocabulary, how="cross")
        .with_columns(
            (pl.col("__prm_total").fill_null(0.0) + _SMOOTHING * pl.col("__prm_c")).alias("__prm_v"),
            pl.col("__prm_held").fill_null(0.0),
        )
    )
    q = (pl.col("__prm_s") + _SMOOTHING) / pl.col("__prm_v")
    held = (
        per_category.join(totals.select(*keys, USER, "__prm_v"), on=[*keys, USER])
        .group_by(*keys, USER)
        .agg(exact_sum(q * q.log(2)).alias("__prm_qlogq"))
    )
    q0 = _SMOOTHING / pl.col("__prm_v")
    rest = (pl.col("__prm_c") - pl.col("__prm_held")) * q0 * q0.log(2)  # the categories the list lacks
    entropy = -(pl.col("__prm_qlogq").fill_null(0.0) + rest)
    per_list = totals.join(held, on=[*keys, USER], how="left").select(*keys, entropy.alias("__prm_h"))
    per_group = per_list.group_by(keys).agg(
        fixed_point_sum(pl.col("__prm_h")).alias(_RBE), pl.len().cast(pl.Int64).alias(_LISTS)
    )
    return state(per_group, by, keys)


def _rank_biased_entropy(_metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    return finish(table, by, exact(_RBE) / pl.col(_LISTS).cast(pl.Float64))


_ENTROPY = CountState(_rbe_sums, _rank_biased_entropy)
RANK_BIASED_ENTROPY = CatalogSpec(
    name="rank_biased_entropy", aliases=("rbe",), spellings=Spellings(recommenders=("RankBiasedEntropy",)),
    per_list=True, keep=keep_top, needs=frozenset({"rank"}), catalog=_ENTROPY.catalog, counts=_ENTROPY,
)  # fmt: skip


@constructor(RANK_BIASED_ENTROPY, check=lambda metric: _categories(metric, None))
def rank_biased_entropy(
    k: int | None = None,
    *,
    p: Annotated[float, OPEN_UNIT] = 0.85,
    categories: Annotated[pl.DataFrame | pl.LazyFrame | None, SIDE] = None,
    columns: SideColumns = None,
) -> Metric:
    """Rank-biased entropy of a list's categories (LensKit's ``rank_biased_entropy``).

    Each category ``c`` of the `categories` frame weighs
    ``v_c = sum_{i in top k, i in c} p^(rank_i - 1) + 1e-6`` in a list (RBP's
    geometric weight per item holding it; LensKit's smoothing of 1e-6 for
    every category); with ``q_c = v_c / sum_c v_c``::

        RBE@k = - sum_c q_c log2 q_c

    in bits, over every category of the frame (those the list lacks weigh
    1e-6); the mean over lists. Higher is more diverse: a list whose top
    items share one category scores near 0, one spreading its weight evenly
    over ``m`` categories near ``log2 m``. An item in several categories
    counts fully in each (LensKit's item-category matrix of ones); an item
    without a category adds nothing.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists (LensKit's ``n``).
    p
        The patience of the geometric weight (LensKit's default
        ``GeometricRankWeight(0.85)``).
    categories
        The items' categories: a frame of (item, category) rows, an item in
        as many rows as it has categories (or a List column of categories);
        its distinct categories are the matrix's columns.
    columns
        Column names for the ``item`` and ``category`` of `categories`, where not the
        [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``rank_biased_entropy@k`` (``rank_biased_entropy(p=0.5)@k``), one
        value per `by` group (catalog scope), per list with
        ``per_query=True``; alias ``rbe``.

    Raises
    ------
    InvalidParameterError
        No `categories`, or `p` outside (0, 1).
    InvalidDataError
        Nulls in eager categories.

    References
    ----------
    LensKit, ``lenskit/metrics/ranking/_entropy.py`` (``rank_biased_entropy``,
    ``matrix_column_entropy``).

    Examples
    --------
    Two lists over two genres: the first weighs x 1 + 0.25 and y 0.5, the second
    holds x alone.

    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "d"],
    ...     "score": [3.0, 2.0, 1.0, 2.0, 1.0]})
    >>> cats = pl.DataFrame({"item": ["a", "b", "c", "d"], "genre": ["x", "y", "x", "x"]})
    >>> metric = prm.rank_biased_entropy(categories=cats, p=0.5)
    >>> prm.evaluate(df, [metric], per_query=True).with_columns(pl.col(str(metric)).round(4))
    shape: (2, 2)
    ┌───────┬────────────────────────────┐
    │ query ┆ rank_biased_entropy(p=0.5) │
    │ ---   ┆ ---                        │
    │ i64   ┆ f64                        │
    ╞═══════╪════════════════════════════╡
    │ 1     ┆ 0.8631                     │
    │ 2     ┆ 0.0                        │
    └───────┴────────────────────────────┘
    """


SPECS = (spec_of(category_diversity), MISCALIBRATION, MISCALIBRATION_RANK, spec_of(rank_biased_entropy))
