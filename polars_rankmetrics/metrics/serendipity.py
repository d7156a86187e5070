"""Catalog-scope serendipity as Microsoft Recommenders computes it: relevance x dissimilarity to the history.

The similarity of two items is the cosine of their feature vectors
(`features`), or their co-occurrence cosine in the histories
``c(i, j) / sqrt(n_i n_j)`` (Zhang et al. 2012); never an items x items
matrix beyond the pairs a user's list and history hold.
"""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._kernel import ITEM, REL, exact_sum, exact_sum_horizontal, fixed_point_sum
from polars_rankmetrics._spec import SUMMED, CatalogSpec, CountState, Metric, Param
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.metrics._core import PREPARED, keep_top, within
from polars_rankmetrics.metrics._count_tables import exact, state
from polars_rankmetrics.metrics._popularity_side import USER, interactions_frame, user_ids
from polars_rankmetrics.metrics._side import (
    BAD,
    DUP,
    FEATURE,
    NONZERO,
    SideColumns,
    columns_of,
    finish,
    item_text,
    keyed,
    same_dtype,
)
from polars_rankmetrics.metrics.similarity import _feature_vectors, _unit_features

__all__ = ["serendipity"]

OTHER = "__prm_other"  # the history item of a (recommended, history) pair
SIM = "__prm_similarity"


def _history(metric: Metric, query_dtype: pl.DataType | None, item_dtype: pl.DataType | None) -> pl.LazyFrame:
    """The distinct (USER, ITEM) pairs of the history."""
    value = metric.side("history")
    if value is None:
        remedy = "prm.serendipity(10, history=train)"
        raise InvalidParameterError.needs("serendipity", "each user's history", remedy)
    frame, user, item = interactions_frame(value, columns_of(metric), "history")
    schema = frame.collect_schema()
    items = (
        pl.col(item) if item_dtype is None else same_dtype(pl.col(item), schema[item], item_dtype, "history")
    )
    return frame.select(
        user_ids(pl.col(user), schema[user], query_dtype, "history").alias(USER), items.alias(ITEM)
    ).unique()


def _cooccurrence(rows: pl.LazyFrame, history: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """Per (keys, USER, ITEM) of the lists: the sum over the user's history items of their similarity."""
    counts = history.group_by(ITEM).agg(pl.len().cast(pl.Float64).alias("__prm_n"))
    recommended = history.join(rows.select(ITEM).unique(), on=ITEM, how="semi")
    pairs = (
        recommended.join(history.rename({ITEM: OTHER}), on=USER, how="inner")
        .group_by(ITEM, OTHER)
        .agg(pl.len().cast(pl.Float64).alias("__prm_c"))
        .join(counts, on=ITEM, how="inner")
        .join(counts.rename({ITEM: OTHER, "__prm_n": "__prm_m"}), on=OTHER, how="inner")
    )
    # Recommenders: count / (sqrt(n_i) * sqrt(n_j)); pairs never seen together are 0.
    sims = pairs.select(
        ITEM, OTHER, (pl.col("__prm_c") / (pl.col("__prm_n").sqrt() * pl.col("__prm_m").sqrt())).alias(SIM)
    )
    return (
        rows.join(history.rename({ITEM: OTHER}), on=USER, how="inner")
        .join(sims, on=[ITEM, OTHER], how="left")
        .group_by(*keys, USER, ITEM)
        .agg(exact_sum(pl.col(SIM).fill_null(0.0)).alias("__prm_sim_sum"), pl.len().alias("__prm_seen"),
             pl.col(REL).first(), pl.lit(None, dtype=pl.String).alias(BAD))
    )  # fmt: skip


def _by_features(metric: Metric, rows: pl.LazyFrame, history: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """As :func:`_cooccurrence` with feature cosines: the item's unit vector . the sum of the history's."""
    features, width = _unit_features(metric.side("features"), rows.collect_schema()[ITEM], columns_of(metric))
    names = [f"{FEATURE}{j}" for j in range(width)]
    missing = pl.when(pl.col(NONZERO).is_null()).then(
        pl.format("item {} has no row in `features`", item_text())
    )
    duplicated = pl.when(pl.col(DUP) > 1).then(
        pl.format("`features` holds item {} more than once", item_text())
    )
    bad = pl.coalesce(missing, duplicated)
    profiles = (
        history.join(features, on=ITEM, how="left")
        .group_by(USER)
        .agg(*(exact_sum(pl.col(n).fill_null(0.0)).alias(f"__prm_p{j}") for j, n in enumerate(names)),
             pl.len().alias("__prm_seen"), bad.min().alias("__prm_bad_history"))
    )  # fmt: skip
    joined = rows.join(profiles, on=USER, how="inner").join(features, on=ITEM, how="left")
    dot = exact_sum_horizontal(
        [pl.col(n).fill_null(0.0) * pl.col(f"__prm_p{j}") for j, n in enumerate(names)]
    )
    return joined.select(*keys, USER, ITEM, dot.alias("__prm_sim_sum"), "__prm_seen", REL,
                         pl.coalesce(bad, "__prm_bad_history").alias(BAD))  # fmt: skip


_SUM = SUMMED + "_serendipity"  # the fixed-point sum of the users' serendipity
_USERS = SUMMED + "_users"  # the users with a history


def _serendipity_sums(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """Per group: the fixed-point sum of each user's serendipity, the users with a history."""
    schema = lists.collect_schema()
    history = _history(metric, schema[query], schema[ITEM])
    frame, keys = keyed(lists, by)
    top = frame.filter(within(PREPARED, metric.k)) if metric.k is not None else frame
    rows = top.select(*keys, pl.col(query).alias(USER), ITEM, REL)
    if metric.side("features") is None:
        per_item = _cooccurrence(rows, history, keys)
    else:
        per_item = _by_features(metric, rows, history, keys)
    relevance = pl.lit(1.0) if metric.name == "serendipity_unweighted" else pl.col(REL).cast(pl.Float64)
    # Per recommended item: (1 - the mean similarity to the history) x relevance; users without
    # history have no value (Recommenders' inner join).
    value = (1.0 - pl.col("__prm_sim_sum") / pl.col("__prm_seen").cast(pl.Float64)) * relevance
    per_user = per_item.group_by(*keys, USER).agg(
        (exact_sum(value) / pl.len().cast(pl.Float64)).alias("__prm_per_user"), pl.col(BAD).min()
    )
    per_group = per_user.group_by(keys).agg(
        fixed_point_sum(pl.col("__prm_per_user")).alias(_SUM),
        pl.len().cast(pl.Int64).alias(_USERS),
        pl.col(BAD).min(),
    )
    return state(per_group.join(rows.select(keys).unique(), on=keys, how="right"), by, keys)


def _serendipity(_metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    # From the summed table: a group whose lists have no user with a history has no value.
    return finish(table, by, exact(_SUM) / pl.col(_USERS).cast(pl.Float64), BAD)


_SERENDIPITY = CountState(_serendipity_sums, _serendipity)
_PARAMS = (Param("history", None, "side"), Param("features", None, "side"), Param("columns", None, "side"))
SERENDIPITY = CatalogSpec(
    name="serendipity", per_list=True, keep=keep_top, catalog=_SERENDIPITY.catalog, counts=_SERENDIPITY,
    params=_PARAMS,
    grades="serendipity(..., relevance=False) counts every item relevant, as Microsoft Recommenders does "
    "without a relevance column",
)  # fmt: skip
SERENDIPITY_UNWEIGHTED = CatalogSpec(
    name="serendipity_unweighted", function="serendipity", keep=keep_top, catalog=_SERENDIPITY.catalog,
    per_list=True,
    counts=_SERENDIPITY, params=_PARAMS,
)  # fmt: skip
SPECS = (SERENDIPITY, SERENDIPITY_UNWEIGHTED)


def serendipity(
    k: int | None = None,
    *,
    history: pl.DataFrame | pl.LazyFrame | None = None,
    features: pl.DataFrame | pl.LazyFrame | None = None,
    relevance: bool = True,
    columns: SideColumns = None,
) -> Metric:
    """Serendipity (Microsoft Recommenders' ``serendipity``): relevant items unlike the user's history.

    For user ``u`` and recommended item ``i``,
    ``s(u, i) = (1 - 1/|H_u| sum_{j in H_u} sim(i, j)) rel(u, i)``, with
    ``H_u`` the user's history; the user's value is the mean of ``s(u, i)``
    over the top-`k` list, the metric the mean over users with a history.
    ``sim`` is the cosine of the items' feature vectors (`features`) or,
    without features, their co-occurrence cosine in the histories
    ``c(i, j) / sqrt(n_i n_j)`` (``c`` users hold both, ``n_i`` hold ``i``;
    Recommenders' ``item_cooccurrence_count``); pairs never seen together
    have similarity 0.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    history
        The users' histories: a frame of (user, item), user id first; users
        are matched to the frame's query ids.
    features
        Item features as for :func:`intra_list_similarity` (zero vectors
        have similarity 0); None uses co-occurrence.
    relevance
        True: ``rel(u, i)`` is 1 for a relevant item, 0 otherwise
        (Recommenders' ``col_relevance``): the frame must have a relevance
        column (without one it is refused: every value would be 0). False:
        1 for every item (``serendipity_unweighted``: Recommenders without a
        relevance column).

    columns
        Column names for the ``user`` and ``item`` of `history` and the ``item`` of `features`, where
        not the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``serendipity@k`` (or ``serendipity_unweighted@k``), one value per
        `by` group (catalog scope); null for a group without a user with a
        history.

    Raises
    ------
    InvalidParameterError
        No `history`.
    ColumnNotFoundError
        `relevance` True and the frame has no relevance column.
    InvalidDataError
        Null ids in an eager history; when the plan runs, an item (ranked or
        in a history) without features.

    Notes
    -----
    A history holds each (user, item) once: Recommenders assumes so.

    References
    ----------
    Zhang, Séaghdha, Quercia and Jambor (2012), "Auralist: introducing
    serendipity into music recommendation", WSDM.

    Examples
    --------
    >>> history = pl.DataFrame({"user": [1, 1, 2, 2, 3], "item": ["a", "b", "a", "b", "c"]})
    >>> df = pl.DataFrame({"query": [1, 1, 3], "item": ["c", "d", "a"], "score": [2.0, 1.0, 1.0],
    ...     "relevance": [1, 0, 1]})
    >>> prm.evaluate(df, [prm.serendipity(2, history=history),
    ...     prm.serendipity(2, history=history, relevance=False)])
    shape: (1, 2)
    ┌───────────────┬──────────────────────────┐
    │ serendipity@2 ┆ serendipity_unweighted@2 │
    │ ---           ┆ ---                      │
    │ f64           ┆ f64                      │
    ╞═══════════════╪══════════════════════════╡
    │ 0.75          ┆ 1.0                      │
    └───────────────┴──────────────────────────┘
    """
    metric = Metric(
        SERENDIPITY if relevance else SERENDIPITY_UNWEIGHTED,
        k,
        history=history,
        features=features,
        columns=columns,
    )
    _history(metric, None, None)
    if features is not None:
        _feature_vectors(features, columns_of(metric))
    return metric
