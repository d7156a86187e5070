"""Catalog-scope metrics: one value per `by` group from every ranked list, judged or not.

Coverage, the Gini index and the entropy of the recommendation counts,
personalization, intra-list similarity and novelty describe a whole set of
recommendation lists (recmetrics' "beyond accuracy" metrics), not one query:
they need no relevance column, and ``evaluate(..., per_query=True)`` refuses
them. Each is computed from per-item or per-list sums, never from a
users x users or items x items matrix (DESIGN.md section 4), and every node
of its plan runs on the streaming engine.

Side inputs (a catalog, item features, item popularity) are data beside the
frame. A DataFrame or Series side input is checked when the metric is built;
what can only be checked against the ranked lists (an item without features
or popularity, an item outside the catalog) is checked inside the lazy plan:
the evaluation then fails with a Polars ``InvalidOperationError`` whose
message starts with ``polars_rankmetrics:`` and names an example item.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import reduce

import polars as pl

from polars_rankmetrics._prepare import ITEM, NUM_RET, RANK
from polars_rankmetrics._registry import Metric, Param, SideInput, register
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)
from polars_rankmetrics.metrics._core import exact_sum, exact_sum_horizontal, keep_within
from polars_rankmetrics.metrics.cumulative import VALUE

__all__ = ["coverage", "entropy", "gini", "intra_list_similarity", "novelty", "personalization"]

_GROUP = "__prm_group"  # a constant key standing in for `by` when there is none
_COUNT = "__prm_count"  # top-k lists holding an item
_SIZE = "__prm_size"  # a list's length within the cutoff
_BAD = "__prm_bad"  # text of an offending item (data error) or null
_DUP = "__prm_dup"  # rows of a side input with the same item id
_NONZERO = "__prm_nonzero"  # the item's feature vector is not all zeros
_INFO = "__prm_self_information"
_FEATURE = "__prm_feature_"  # + index: a feature, normalised to unit length
_ERROR = "polars_rankmetrics: "


# --- shared plan pieces ----------------------------------------------------------------------------


def _frame(lists: pl.LazyFrame, by: tuple[str, ...]) -> tuple[pl.LazyFrame, list[str], str]:
    """The lists with a group key column, the group keys, and the query column's name.

    With no `by`, a constant column stands in as the key: a global rank or
    aggregation would fall back to the in-memory engine, a keyed one streams.
    """
    names = lists.collect_schema().names()
    query = [c for c in names if c not in by and not c.startswith("__prm_")]
    if len(query) != 1:  # the prepared frame holds by keys, the query column, internal columns
        msg = f"cannot tell the query column of the prepared lists from {names}"
        raise InvalidParameterError(msg)
    if by:
        return lists, list(by), query[0]
    return lists.with_columns(pl.lit(value=True).alias(_GROUP)), [_GROUP], query[0]


def _within(k: int | None) -> pl.Expr:
    # A column, never a literal: a literal's sum in an aggregation counts 1, not the rows.
    return pl.col(RANK).is_not_null() if k is None else pl.col(RANK) <= k


def _top(lists: pl.LazyFrame, keys: list[str], k: int | None) -> pl.LazyFrame:
    """The top-k rows of every list, with the list's length within the cutoff on each row.

    The length is ``min(k, NUM_RET)``, the prepared per-list count of retrieved items (within
    depth): no second window over the lists.
    """
    top = lists.filter(_within(k)) if k is not None else lists
    size = pl.col(NUM_RET) if k is None else pl.min_horizontal(pl.col(NUM_RET), pl.lit(k, dtype=pl.UInt32))
    return top.select(*keys, ITEM, size.alias(_SIZE))


def _item_text(item: pl.Expr | None = None) -> pl.Expr:
    """An item id as quoted text, for messages."""
    return pl.format("'{}'", (pl.col(ITEM) if item is None else item).cast(pl.String))


def _fail(message: pl.Expr) -> pl.Expr:
    """Null where `message` is null; elsewhere the evaluation fails with the message.

    Polars has no expression that raises, so a strict cast of the message to
    a number raises instead; its error quotes the message. Check first with
    ``coalesce(_fail(bad), value)``.
    """
    return (pl.lit(_ERROR) + message).cast(pl.Float64, strict=True)


def _finish(out: pl.LazyFrame, by: tuple[str, ...], value: pl.Expr, *bad: str) -> pl.LazyFrame:
    """The (by..., VALUE) frame, failing on the first group that names an offending item."""
    if bad:
        value = pl.coalesce(_fail(pl.coalesce(*(pl.col(b) for b in bad))), value)
    return out.select(*by, value.cast(pl.Float64).alias(VALUE))


def _lazy(value: object, what: str) -> pl.LazyFrame:
    if isinstance(value, pl.LazyFrame):
        return value
    if isinstance(value, pl.DataFrame):
        return value.lazy()
    if isinstance(value, pl.Series):
        return value.to_frame().lazy()
    if isinstance(value, (list, tuple, set, frozenset)):
        return pl.Series(what, list(value)).to_frame().lazy()
    msg = f"`{what}` must be a polars DataFrame, LazyFrame or Series, got {type(value).__name__}"
    raise InvalidParameterError(msg)


def _first_column(frame: pl.LazyFrame, what: str) -> str:
    names = frame.collect_schema().names()
    if not names:
        msg = f"`{what}` has no columns: its first column must hold the item ids"
        raise ColumnNotFoundError(msg)
    return names[0]


def _same_dtype(side: pl.Expr, side_dtype: pl.DataType, item_dtype: pl.DataType, what: str) -> pl.Expr:
    """The side input's item ids in the frame's item dtype, or a clear error."""
    if side_dtype == item_dtype:
        return side
    both_int = side_dtype.is_integer() and item_dtype.is_integer()
    both_text = side_dtype in (pl.String, pl.Categorical) and item_dtype in (pl.String, pl.Categorical)
    if both_int or both_text:
        return side.cast(item_dtype)
    msg = f"the item ids of `{what}` are {side_dtype} but the frame's items are {item_dtype}"
    raise ColumnTypeError(msg)


def _check_eager(frame: pl.LazyFrame, value: object, item: str, what: str, *, unique: bool) -> None:
    """Check a side input given as a DataFrame or Series now: null ids, duplicate ids."""
    if not isinstance(value, (pl.DataFrame, pl.Series)):
        return
    ids = frame.select(item).collect()[item]
    if ids.null_count():
        msg = f"`{what}` holds null item ids in its first column {item!r}"
        raise InvalidDataError(msg)
    if unique and ids.is_duplicated().any():
        example = ids.filter(ids.is_duplicated())[0]
        msg = f"`{what}` holds item {example!r} more than once; give one row per item"
        raise InvalidDataError(msg)


def _wrap(value: object) -> SideInput | None:
    return None if value is None else SideInput(value)


def _side(metric: Metric, name: str) -> object:
    value = metric.param(name)
    return value.value if isinstance(value, SideInput) else value


# --- coverage, gini, entropy -----------------------------------------------------------------------

_CATALOG = Param("catalog", None, "side")


def _catalog(value: object) -> int | pl.LazyFrame | None:
    """None (the items ranked in the group), a catalog size, or a frame of (ITEM) without duplicates."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            msg = f"`catalog` as a size must be a positive integer, got {value}"
            raise InvalidParameterError(msg)
        return value
    frame = _lazy(value, "catalog")
    item = _first_column(frame, "catalog")
    _check_eager(frame, value, item, "catalog", unique=False)
    return frame.select(pl.col(item).alias(ITEM)).unique()


def _catalog_items(catalog: pl.LazyFrame, lists: pl.LazyFrame) -> pl.LazyFrame:
    """The catalog's distinct ids in the frame's item dtype, flagged as present."""
    item_dtype = lists.collect_schema()[ITEM]
    ids = _same_dtype(pl.col(ITEM), catalog.collect_schema()[ITEM], item_dtype, "catalog")
    return catalog.select(ids, pl.lit(value=True).alias("__prm_in_catalog"))


def _item_counts(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...]) -> tuple[pl.LazyFrame, list[str]]:
    """Per (group, ranked item): how many top-k lists hold it (0 if ranked only below k).

    With a catalog frame, recommended items outside it are flagged in `_BAD`.
    """
    frame, keys, _ = _frame(lists, by)
    counts = frame.group_by(*keys, ITEM).agg(_within(metric.k).sum().alias(_COUNT))
    catalog = _catalog(_side(metric, "catalog"))
    if isinstance(catalog, pl.LazyFrame):
        counts = counts.join(_catalog_items(catalog, lists), on=ITEM, how="left")
        outside = (pl.col(_COUNT) > 0) & pl.col("__prm_in_catalog").is_null()
        bad = pl.when(outside).then(pl.format("item {} is recommended but not in `catalog`", _item_text()))
        counts = counts.with_columns(bad.alias(_BAD)).drop("__prm_in_catalog")
    else:
        counts = counts.with_columns(pl.lit(None, dtype=pl.String).alias(_BAD))
    return counts, keys


def _catalog_size(
    metric: Metric, per_group: pl.LazyFrame, lists: pl.LazyFrame
) -> tuple[pl.LazyFrame, pl.Expr]:
    """`per_group` with the catalog size as an expression (n: items ranked in the group by default)."""
    catalog = _catalog(_side(metric, "catalog"))
    if catalog is None:
        return per_group, pl.col("__prm_ranked")
    if isinstance(catalog, int):
        too_small = pl.col("__prm_recommended") > catalog
        bad = pl.when(too_small).then(
            pl.format(
                "{} distinct items are recommended but `catalog` is {} items",
                "__prm_recommended",
                pl.lit(catalog),
            )
        )
        return per_group.with_columns(pl.coalesce(_BAD, bad).alias(_BAD)), pl.lit(catalog, dtype=pl.Int64)
    size = _catalog_items(catalog, lists).select(pl.len().alias("__prm_catalog"))
    return per_group.join(size, how="cross"), pl.col("__prm_catalog")


def _coverage(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    counts, keys = _item_counts(metric, lists, by)
    per_group = counts.group_by(keys).agg(
        (pl.col(_COUNT) > 0).sum().alias("__prm_recommended"),
        pl.len().alias("__prm_ranked"),
        pl.col(_BAD).min(),
    )
    per_group, n = _catalog_size(metric, per_group, lists)
    value = pl.col("__prm_recommended").cast(pl.Float64) / n.cast(pl.Float64)
    return _finish(per_group, by, value, _BAD)


def _gini(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    counts, keys = _item_counts(metric, lists, by)
    # Twice the (average) rank of each count among the group's ranked items, ascending: an integer.
    twice_rank = (pl.col(_COUNT).rank("average").over(keys) * 2).cast(pl.Int128)
    counts = counts.with_columns(twice_rank.alias("__prm_twice_rank"))  # a window outside the agg streams
    per_group = counts.group_by(keys).agg(
        (pl.col("__prm_twice_rank") * pl.col(_COUNT).cast(pl.Int128)).sum().alias("__prm_a"),
        pl.col(_COUNT).cast(pl.Int128).sum().alias("__prm_total"),
        (pl.col(_COUNT) > 0).sum().alias("__prm_recommended"),
        pl.len().alias("__prm_ranked"),
        pl.col(_BAD).min(),
    )
    per_group, n = _catalog_size(metric, per_group, lists)
    # Sorted ascending c_1 <= ... <= c_n over the catalog: G = sum (2i - n - 1) c_i / (n sum c).
    # Catalog items never ranked count 0 and sit below every ranked item: shift ranks by their number.
    n = n.cast(pl.Int128)
    total = pl.col("__prm_total")
    a = pl.col("__prm_a") + 2 * (n - pl.col("__prm_ranked").cast(pl.Int128)) * total
    numerator = (a - (n + 1) * total).cast(pl.Float64)
    value = pl.when(total > 0).then(numerator / (n * total).cast(pl.Float64))
    return _finish(per_group, by, value, _BAD)


def _entropy(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    frame, keys, _ = _frame(lists, by)
    top = frame.filter(_within(metric.k)) if metric.k is not None else frame
    counts = top.group_by(*keys, ITEM).agg(pl.len().cast(pl.Float64).alias(_COUNT))
    c = pl.col(_COUNT)
    per_group = counts.group_by(keys).agg(
        c.sum().alias("__prm_total"), exact_sum(c * c.log(2)).alias("__prm_clogc")
    )
    # H = -sum p log2 p with p = c / C, which is log2 C - sum(c log2 c) / C.
    total = pl.col("__prm_total")
    value = pl.max_horizontal(total.log(2) - pl.col("__prm_clogc") / total, pl.lit(0.0))
    return _finish(per_group, by, value)


# --- personalization -------------------------------------------------------------------------------


def _personalization(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    frame, keys, _ = _frame(lists, by)
    size = pl.col(_SIZE).cast(pl.Float64)
    # Per item i: a_i = sum over lists holding i of |L|^-1/2, b_i = sum of |L|^-1. Then the sum over
    # pairs u < v of |Lu & Lv| / sqrt(|Lu| |Lv|) is sum_i (a_i^2 - b_i) / 2, and sum_i b_i counts lists.
    per_item = (
        _top(frame, keys, metric.k)
        .group_by(*keys, ITEM)
        .agg(exact_sum(size.pow(-0.5)).alias("__prm_a"), exact_sum(1.0 / size).alias("__prm_b"))
    )
    a, b = pl.col("__prm_a"), pl.col("__prm_b")
    per_group = per_item.group_by(keys).agg(
        exact_sum((a * a - b) / 2.0).alias("__prm_pairs_sum"), exact_sum(b).round().alias("__prm_lists")
    )
    users = pl.col("__prm_lists")
    pairs = users * (users - 1.0) / 2.0
    mean_similarity = pl.col("__prm_pairs_sum") / pairs
    value = pl.when(users >= 2).then((1.0 - mean_similarity).clip(0.0, 1.0)).otherwise(0.0)
    return _finish(per_group, by, value)


# --- intra-list similarity -------------------------------------------------------------------------

_NUMERIC_LIST = (pl.List, pl.Array)


def _vector_column(value: pl.DataFrame | pl.LazyFrame, column: str, dtype: pl.DataType) -> list[pl.Expr]:
    """One expression per element of a List or Array feature column."""
    inner = dtype.inner  # type: ignore[attr-defined]
    if not inner.is_numeric():
        msg = f"feature column {column!r} must hold numbers, got {dtype}"
        raise ColumnTypeError(msg)
    if isinstance(dtype, pl.Array):
        return [pl.col(column).arr.get(j, null_on_oob=True) for j in range(dtype.size)]
    if not isinstance(value, pl.DataFrame):
        msg = (
            f"feature column {column!r} of a LazyFrame is a List of unknown length: give an Array "
            f"(pl.col({column!r}).list.to_array(width)) or one column per feature"
        )
        raise ColumnTypeError(msg)
    lengths = value[column].list.len().drop_nulls().unique()
    if len(lengths) > 1:
        msg = f"feature column {column!r} holds lists of different lengths {sorted(lengths.to_list())}"
        raise InvalidDataError(msg)
    width = int(lengths[0]) if len(lengths) else 0
    return [pl.col(column).list.get(j, null_on_oob=True) for j in range(width)]


def _feature_vectors(value: object) -> tuple[pl.LazyFrame, str, list[pl.Expr]]:
    """The features frame, its item column and one Float64 expression per feature (nulls as 0)."""
    if not isinstance(value, (pl.DataFrame, pl.LazyFrame)):
        msg = (
            "`features` must be a polars DataFrame or LazyFrame: the item id first, then either one "
            f"List/Array column of numbers or numeric columns; got {type(value).__name__}"
        )
        raise InvalidParameterError(msg)
    frame = value.lazy()
    schema = frame.collect_schema()
    names = schema.names()
    if len(names) < 2:
        msg = (
            f"`features` needs the item id in its first column and features after it; it has columns {names}"
        )
        raise ColumnNotFoundError(msg)
    item, rest = names[0], names[1:]
    _check_eager(frame, value, item, "features", unique=True)
    if len(rest) == 1 and isinstance(schema[rest[0]], _NUMERIC_LIST):
        vectors = _vector_column(value, rest[0], schema[rest[0]])
    else:
        for column in rest:
            if not (schema[column].is_numeric() or schema[column] == pl.Null):
                msg = f"feature column {column!r} must be numeric, got {schema[column]}"
                raise ColumnTypeError(msg)
        vectors = [pl.col(c) for c in rest]
    if not vectors:
        msg = "`features` holds vectors of length 0"
        raise InvalidDataError(msg)
    return frame, item, [v.cast(pl.Float64).fill_null(0.0) for v in vectors]


def _unit_features(value: object, item_dtype: pl.DataType) -> tuple[pl.LazyFrame, int]:
    """One row per item: the item, its unit-length feature vector (zeros stay zeros), duplicates."""
    frame, item, vectors = _feature_vectors(value)
    ids = _same_dtype(pl.col(item), frame.collect_schema()[item], item_dtype, "features")
    names = [f"{_FEATURE}{j}" for j in range(len(vectors))]
    raw = frame.select(
        ids.alias(ITEM),
        *(v.alias(n) for v, n in zip(vectors, names, strict=True)),
        pl.len().over(item).alias(_DUP),
    )
    # The norm is its own column: written inside every feature's expression it would make the
    # plan quadratic in the number of features. A chain of additions in a fixed order gives the
    # same bits on every engine (and, unlike a fixed-point sum, keeps tiny features exact).
    squares = reduce(operator.add, (pl.col(n) * pl.col(n) for n in names))
    with_norm = raw.with_columns(squares.sqrt().alias("__prm_norm"))
    norm = pl.col("__prm_norm")
    unit = [pl.when(norm > 0).then(pl.col(n) / norm).otherwise(0.0).alias(n) for n in names]
    out = with_norm.select(ITEM, *unit, (norm > 0).cast(pl.Float64).alias(_NONZERO), _DUP)
    return out, len(vectors)


def _intra_list_similarity(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    value = _side(metric, "features")
    if value is None:
        msg = "intra_list_similarity needs item features: use prm.intra_list_similarity(k, features=frame)"
        raise InvalidParameterError(msg)
    features, width = _unit_features(value, lists.collect_schema()[ITEM])
    frame, keys, query = _frame(lists, by)
    top = frame.filter(_within(metric.k)) if metric.k is not None else frame
    joined = top.select(*keys, query, ITEM).join(features, on=ITEM, how="left")
    missing = pl.when(pl.col(_NONZERO).is_null()).then(
        pl.format("item {} of the ranked lists has no row in `features`", _item_text())
    )
    duplicated = pl.when(pl.col(_DUP) > 1).then(
        pl.format("`features` holds item {} more than once", _item_text())
    )
    sums = [exact_sum(pl.col(f"{_FEATURE}{j}")).alias(f"{_FEATURE}{j}") for j in range(width)]
    per_list = joined.group_by(*keys, query).agg(
        *sums,
        pl.col(_NONZERO).sum().alias(_NONZERO),
        pl.len().alias(_SIZE),
        pl.coalesce(missing, duplicated).min().alias(_BAD),
    )
    # Over the pairs of a list of unit (or zero) vectors v: sum of cos = (||sum v||^2 - sum ||v||^2) / 2.
    # ||sum v||^2, summed exactly: a float horizontal sum can differ in its last bits between engines.
    squared = exact_sum_horizontal([pl.col(f"{_FEATURE}{j}") ** 2 for j in range(width)])
    n = pl.col(_SIZE).cast(pl.Float64)
    similarity = pl.when(n >= 2).then((squared - pl.col(_NONZERO)) / (n * (n - 1.0)))  # sum / (n(n-1)/2) / 2
    per_group = per_list.group_by(keys).agg(
        exact_sum(similarity).alias("__prm_sum"),
        (pl.col(_SIZE) >= 2).sum().alias("__prm_lists"),
        pl.col(_BAD).min(),
    )
    lists_with_pairs = pl.col("__prm_lists")
    value_expr = pl.when(lists_with_pairs > 0).then(pl.col("__prm_sum") / lists_with_pairs.cast(pl.Float64))
    return _finish(per_group, by, value_expr, _BAD)


# --- novelty ---------------------------------------------------------------------------------------


def _popularity(metric: Metric, item_dtype: pl.DataType | None) -> pl.LazyFrame:
    """One row per item: the item, its self-information -log2(count / n_users), duplicates and errors."""
    popularity, n_users, interactions = (_side(metric, n) for n in ("popularity", "n_users", "interactions"))
    if interactions is not None:
        if popularity is not None or n_users is not None:
            msg = "give novelty either `interactions` or `popularity` with `n_users`, not both"
            raise InvalidParameterError(msg)
        frame = _lazy(interactions, "interactions")
        names = frame.collect_schema().names()
        if len(names) < 2:
            msg = f"`interactions` needs a user column then an item column; it has columns {names}"
            raise ColumnNotFoundError(msg)
        user, item = names[0], names[1]
        pairs = frame.select(user, item).unique()
        counts = pairs.group_by(item).agg(pl.len().alias(_COUNT))
        users = frame.select(pl.col(user).n_unique().alias("__prm_users"))
        table = counts.join(users, how="cross").select(pl.col(item).alias("__prm_id"), _COUNT, "__prm_users")
        side_dtype = frame.collect_schema()[item]
    else:
        if popularity is None or n_users is None:
            msg = (
                "novelty needs item popularity: use prm.novelty(k, popularity=frame_of_item_and_count, "
                "n_users=...) or prm.novelty(k, interactions=frame_of_user_and_item)"
            )
            raise InvalidParameterError(msg)
        if isinstance(n_users, bool) or not isinstance(n_users, int) or n_users < 1:
            msg = f"`n_users` must be a positive integer, got {n_users!r}"
            raise InvalidParameterError(msg)
        frame = _lazy(popularity, "popularity")
        schema = frame.collect_schema()
        names = schema.names()
        if len(names) < 2 or not schema[names[1]].is_numeric():
            msg = f"`popularity` needs the item id then a numeric count column; it has schema {dict(schema)}"
            raise ColumnTypeError(msg)
        item, count = names[0], names[1]
        _check_eager(frame, popularity, item, "popularity", unique=True)
        if isinstance(popularity, pl.DataFrame):
            bad = popularity.filter(
                (pl.col(count) <= 0) | (pl.col(count) > n_users) | pl.col(count).is_null()
            )
            if len(bad):
                msg = (
                    f"`popularity` gives item {bad[item][0]!r} the count {bad[count][0]!r}: every count "
                    f"must be between 1 and n_users={n_users} (an item nobody interacted with has "
                    "infinite self-information)"
                )
                raise InvalidDataError(msg)
        table = frame.select(
            pl.col(item).alias("__prm_id"), pl.col(count).alias(_COUNT), pl.lit(n_users).alias("__prm_users")
        )
        side_dtype = schema[item]
    ids = pl.col("__prm_id")
    if item_dtype is not None:  # None: checking the inputs before any frame is known
        ids = _same_dtype(ids, side_dtype, item_dtype, "popularity")
    n_item, n_all = pl.col(_COUNT).cast(pl.Float64), pl.col("__prm_users").cast(pl.Float64)
    count_error = pl.when(n_item.is_null() | (n_item <= 0) | (n_item > n_all)).then(
        pl.format(
            "item {} has popularity count {} outside [1, n_users={}]", _item_text(ids), _COUNT, "__prm_users"
        )
    )
    # recmetrics: self-information -log2(pop[i] / u) of each recommended item.
    return table.select(
        ids.alias(ITEM),
        (-(n_item / n_all).log(2)).alias(_INFO),
        pl.len().over("__prm_id").alias(_DUP),
        count_error.alias("__prm_count_error"),
    )


def _novelty(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    table = _popularity(metric, lists.collect_schema()[ITEM])
    frame, keys, _ = _frame(lists, by)
    joined = _top(frame, keys, metric.k).join(table, on=ITEM, how="left")
    missing = pl.when(pl.col(_DUP).is_null()).then(
        pl.format("item {} of the ranked lists has no row in the popularity data", _item_text())
    )
    duplicated = pl.when(pl.col(_DUP) > 1).then(
        pl.format("`popularity` holds item {} more than once", _item_text())
    )
    size = pl.col(_SIZE).cast(pl.Float64)
    # Mean self-information per list (each item weighs 1/|L|), then the mean over lists.
    per_group = joined.group_by(keys).agg(
        exact_sum(pl.col(_INFO) / size).alias("__prm_sum"),
        exact_sum(1.0 / size).round().alias("__prm_lists"),
        pl.coalesce(missing, duplicated, "__prm_count_error").min().alias(_BAD),
    )
    value = pl.col("__prm_sum") / pl.col("__prm_lists")
    return _finish(per_group, by, value, _BAD)


# --- registration ----------------------------------------------------------------------------------


def _catalog_scope(m: Metric, _g: object) -> pl.Expr:
    msg = f"metric {m.name!r} describes a set of lists (catalog scope), not one query"
    raise NotImplementedError(msg)


def _keep_ranked(_m: Metric, _g: object) -> pl.Expr:
    # The default catalog is every item ranked in the group, at any rank.
    return keep_within(None)


def _keep_top(m: Metric, _g: object) -> pl.Expr:
    return keep_within(m.k)


register("coverage", params=(_CATALOG,), catalog=_coverage, keep=_keep_ranked)(_catalog_scope)
register("gini", aliases=("gini_index",), params=(_CATALOG,), catalog=_gini,
         keep=_keep_ranked)(_catalog_scope)  # fmt: skip
register("entropy", aliases=("shannon_entropy",), catalog=_entropy, keep=_keep_top)(_catalog_scope)
register("personalization", catalog=_personalization, keep=_keep_top)(_catalog_scope)
register("intra_list_similarity", aliases=("ils",), params=(Param("features", None, "side"),),
         catalog=_intra_list_similarity, keep=_keep_top)(_catalog_scope)  # fmt: skip
register("novelty", params=(Param("popularity", None, "side"), Param("n_users", None, "side"),
         Param("interactions", None, "side")), catalog=_novelty, keep=_keep_top)(_catalog_scope)  # fmt: skip


# --- constructors ----------------------------------------------------------------------------------

Catalog = pl.DataFrame | pl.LazyFrame | pl.Series | Sequence[object] | int | None


def coverage(k: int | None = None, *, catalog: Catalog = None) -> Metric:
    """Catalog coverage: the share of the catalog that appears in at least one top-`k` list.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    catalog
        The items that could be recommended: a Series or a sequence of item
        ids, a DataFrame or LazyFrame whose first column holds them
        (duplicates count once, nulls are an error), or the catalog's size as
        an int. None (the default) takes the distinct items ranked anywhere,
        at any rank, in the lists of the `by` group.

    Returns
    -------
    Metric
        ``coverage@k``, one value in [0, 1] per `by` group (catalog scope).

    Raises
    ------
    InvalidParameterError
        A catalog size below 1, or a catalog that is not a frame, Series or size.
    InvalidDataError
        A catalog frame with null ids.

    Notes
    -----
    A recommended item outside a catalog frame is an error, found when the
    plan runs (its message names the item); a catalog size smaller than the
    number of distinct items recommended is too. This is recmetrics'
    ``prediction_coverage`` as a share rather than a rounded percentage.

    References
    ----------
    Ge, Delgado-Battenfeld and Jannach (2010), "Beyond accuracy: evaluating
    recommender systems by coverage and serendipity", RecSys.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "c"],
    ...     "score": [0.9, 0.5, 0.8, 0.1]})
    >>> catalog = pl.Series(["a", "b", "c", "d"])
    >>> prm.evaluate(df, [prm.coverage(1), prm.coverage(2, catalog=catalog)]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌────────────┬────────────┐
    │ coverage@1 ┆ coverage@2 │
    │ ---        ┆ ---        │
    │ f64        ┆ f64        │
    ╞════════════╪════════════╡
    │ 0.3333     ┆ 0.75       │
    └────────────┴────────────┘
    """
    _catalog(catalog)
    return Metric("coverage", k, (_wrap(catalog),))


def gini(k: int | None = None, *, catalog: Catalog = None) -> Metric:
    """Gini index of how often each catalog item is recommended in the top `k`.

    With the catalog's recommendation counts sorted ascending
    ``c_1 <= ... <= c_n`` (items never recommended count 0),
    ``G = sum_i (2i - n - 1) c_i / (n sum_i c_i)``: 0 when every item is
    recommended equally often, ``1 - 1/n`` when one item takes every slot.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    catalog
        As for :func:`coverage`: the default takes the items ranked anywhere
        in the group's lists (those ranked only below `k` count 0).

    Returns
    -------
    Metric
        ``gini@k``, one value per `by` group (catalog scope); lower is more
        even.

    Notes
    -----
    The positions ``i`` come from a rank of the counts (ties take their
    average rank, which leaves G unchanged), not from a sort. The formula is
    RecBole's ``GiniIndex`` (no ``n / (n - 1)`` correction).

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "c"],
    ...     "score": [0.9, 0.5, 0.8, 0.1]})
    >>> prm.evaluate(df, [prm.gini(1), prm.gini(2)]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌────────┬────────┐
    │ gini@1 ┆ gini@2 │
    │ ---    ┆ ---    │
    │ f64    ┆ f64    │
    ╞════════╪════════╡
    │ 0.6667 ┆ 0.1667 │
    └────────┴────────┘
    """
    _catalog(catalog)
    return Metric("gini", k, (_wrap(catalog),))


def entropy(k: int | None = None) -> Metric:
    """Shannon entropy, in bits, of the distribution of top-`k` recommendations over items.

    ``H = -sum_i p_i log2 p_i`` with ``p_i`` the share of all top-`k` slots
    that item ``i`` fills; items never recommended add nothing, so no catalog
    is needed. ``log2(n)`` when ``n`` items are recommended equally often, 0
    when one item takes every slot.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.

    Returns
    -------
    Metric
        ``entropy@k``, one value per `by` group (catalog scope); higher is
        more diverse.

    Notes
    -----
    RecBole's ``ShannonEntropy`` is another quantity: natural logarithm,
    divided by the number of distinct items recommended.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "c"],
    ...     "score": [0.9, 0.5, 0.8, 0.1]})
    >>> prm.evaluate(df, [prm.entropy(1), prm.entropy(2)])
    shape: (1, 2)
    ┌───────────┬───────────┐
    │ entropy@1 ┆ entropy@2 │
    │ ---       ┆ ---       │
    │ f64       ┆ f64       │
    ╞═══════════╪═══════════╡
    │ 0.0       ┆ 1.5       │
    └───────────┴───────────┘
    """
    return Metric("entropy", k)


def personalization(k: int | None = None) -> Metric:
    """Personalization: 1 - the mean cosine similarity of users' top-`k` item sets, over all pairs.

    Each list is a binary vector over items; the cosine of two lists is
    ``|Lu & Lv| / sqrt(|Lu| |Lv|)``, so lists of different lengths compare
    correctly. 1 when no two lists share an item, 0 when all lists are the
    same (recmetrics' ``personalization``).

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.

    Returns
    -------
    Metric
        ``personalization@k``, one value per `by` group (catalog scope). A
        group with a single list scores 0.0: there is no pair to differ
        (recmetrics divides by zero there).

    Notes
    -----
    Computed from per-item sums, never a users x users matrix: the sum over
    pairs ``u < v`` of their cosine is
    ``sum_i ((sum_{u holds i} |Lu|^-1/2)^2 - sum_{u holds i} |Lu|^-1) / 2``.

    Examples
    --------
    recmetrics' example: three lists sharing three items of four.

    >>> df = pl.DataFrame({"query": [1] * 4 + [2] * 4 + [3] * 4,
    ...     "item": list("ABCD") + list("ABCX") + list("ABCZ"), "score": [4.0, 3, 2, 1] * 3})
    >>> prm.evaluate(df, [prm.personalization(4), prm.personalization(3)]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌───────────────────┬───────────────────┐
    │ personalization@4 ┆ personalization@3 │
    │ ---               ┆ ---               │
    │ f64               ┆ f64               │
    ╞═══════════════════╪═══════════════════╡
    │ 0.25              ┆ 0.0               │
    └───────────────────┴───────────────────┘
    """
    return Metric("personalization", k)


def intra_list_similarity(
    k: int | None = None, *, features: pl.DataFrame | pl.LazyFrame | None = None
) -> Metric:
    """Intra-list similarity: the mean pairwise cosine similarity of the items in each list.

    For each list, the mean over its pairs of items of the cosine similarity
    of their feature vectors; then the mean over lists (recmetrics'
    ``intra_list_similarity``). Lower means more diverse lists.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    features
        One row per item: the item id in the first column, then either one
        List or Array column of numbers or one numeric column per feature
        (null features count as 0, as recmetrics' ``fillna(0)``). A LazyFrame
        needs an Array column or numeric columns (a List's width is unknown
        without reading it).

    Returns
    -------
    Metric
        ``intra_list_similarity@k``, one value per `by` group (catalog
        scope); alias ``ils``.

    Raises
    ------
    InvalidParameterError
        No `features`.
    ColumnTypeError, ColumnNotFoundError
        Features that are not numbers, or a frame without feature columns.
    InvalidDataError
        A features DataFrame with null or duplicate item ids, or lists of
        different lengths. For a LazyFrame, duplicates among the ranked items
        fail when the plan runs, as does a ranked item without features (the
        message names it).

    Notes
    -----
    A zero vector has similarity 0 with every vector (as scikit-learn's
    ``cosine_similarity``). Lists with fewer than two items have no pair and
    are left out of the mean; a group with no such list gives null. Each
    list's sum over pairs comes from the sum of its unit vectors,
    ``(||sum v||^2 - sum ||v||^2) / 2``, never an items x items matrix.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "c"],
    ...     "score": [3.0, 2.0, 1.0, 2.0, 1.0]})
    >>> features = pl.DataFrame({"item": ["a", "b", "c"], "x": [1.0, 1.0, 0.0], "y": [0.0, 1.0, 1.0]})
    >>> prm.evaluate(df, [prm.intra_list_similarity(2, features=features),
    ...     prm.intra_list_similarity(3, features=features)]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────────────────┬─────────────────────────┐
    │ intra_list_similarity@2 ┆ intra_list_similarity@3 │
    │ ---                     ┆ ---                     │
    │ f64                     ┆ f64                     │
    ╞═════════════════════════╪═════════════════════════╡
    │ 0.3536                  ┆ 0.2357                  │
    └─────────────────────────┴─────────────────────────┘
    """
    if features is not None:
        _feature_vectors(features)
    return Metric("intra_list_similarity", k, (_wrap(features),))


def novelty(
    k: int | None = None,
    *,
    popularity: pl.DataFrame | pl.LazyFrame | None = None,
    n_users: int | None = None,
    interactions: pl.DataFrame | pl.LazyFrame | None = None,
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
        interactions, the user id in the first column and the item id in the
        second. An item's count is its number of distinct users; `n_users`
        the number of distinct users.

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
    metric = Metric("novelty", k, (_wrap(popularity), _wrap(n_users), _wrap(interactions)))
    _popularity(metric, None)  # checks the inputs now; the item dtype is checked with the frame
    return metric
