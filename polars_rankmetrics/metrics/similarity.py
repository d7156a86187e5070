"""Catalog-scope similarity metrics: personalization and intra-list similarity.

Both come from per-item and per-list sums, never from a users x users or items x items
matrix: linear in the rows, exact (see each function's Notes).
"""

from __future__ import annotations

import operator
from functools import reduce

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import ITEM, exact_sum, exact_sum_horizontal, fixed_point_sum
from polars_rankmetrics._spec import SUMMED, CatalogSpec, CountState, Metric
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)
from polars_rankmetrics.metrics._core import PREPARED, keep_top, within
from polars_rankmetrics.metrics._count_tables import exact, state, top_counts, weighted_sum
from polars_rankmetrics.metrics._side import (
    BAD,
    DUP,
    FEATURE,
    NONZERO,
    SIDE_ROLES,
    SIZE,
    SideColumns,
    by_role,
    check_eager,
    columns_of,
    finish,
    item_text,
    keyed,
    same_dtype,
)

__all__ = ["intra_list_similarity", "personalization"]


def _personalization(_metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    frame, keys = keyed(table, by)
    size = pl.col(SIZE).cast(pl.Float64)
    # Per item i: a_i = sum over lists holding i of |L|^-1/2, b_i = sum of |L|^-1. Then the sum over
    # pairs u < v of |Lu & Lv| / sqrt(|Lu| |Lv|) is sum_i (a_i^2 - b_i) / 2, and sum_i b_i counts lists.
    # Lists of one length share their terms: the summed top_counts table counts the lists per
    # (item, length), and weighted_sum adds count x (the term's fixed-point value), the same
    # integers as a sum over every row.
    per_item = frame.group_by(*keys, ITEM).agg(
        weighted_sum(size.pow(-0.5)).alias("__prm_a"), weighted_sum(1.0 / size).alias("__prm_b")
    )
    a, b = pl.col("__prm_a"), pl.col("__prm_b")
    per_group = per_item.group_by(keys).agg(
        exact_sum((a * a - b) / 2.0).alias("__prm_pairs_sum"), exact_sum(b).round().alias("__prm_lists")
    )
    users = pl.col("__prm_lists")
    pairs = users * (users - 1.0) / 2.0
    mean_similarity = pl.col("__prm_pairs_sum") / pairs
    value = pl.when(users >= 2).then((1.0 - mean_similarity).clip(0.0, 1.0))  # one list: no pair, null
    return finish(per_group, by, value)


# --- intra-list similarity -------------------------------------------------------------------------

_NUMERIC_LIST = (pl.List, pl.Array)


def _vector_column(value: pl.DataFrame | pl.LazyFrame, column: str, dtype: pl.DataType) -> list[pl.Expr]:
    """One expression per element of a List or Array feature column."""
    inner = dtype.inner  # type: ignore[attr-defined]
    if not inner.is_numeric():
        raise ColumnTypeError.from_dtype(column, "feature", "numbers", dtype, verb="hold")
    if isinstance(dtype, pl.Array):
        return [pl.col(column).arr.get(j, null_on_oob=True) for j in range(dtype.size)]
    if not isinstance(value, pl.DataFrame):
        expected = (
            "an Array in a LazyFrame, not a List of unknown length "
            f"(write pl.col({column!r}).list.to_array(width), or one column per feature)"
        )
        raise ColumnTypeError.from_dtype(column, "feature", expected, dtype)
    lengths = value[column].list.len().drop_nulls().unique()
    if len(lengths) > 1:
        why = f"holds lists of different lengths {sorted(lengths.to_list())} in its column {column!r}"
        raise InvalidDataError.unusable("features", why)
    width = int(lengths[0]) if len(lengths) else 0
    return [pl.col(column).list.get(j, null_on_oob=True) for j in range(width)]


def _feature_vectors(value: object, columns: object = None) -> tuple[pl.LazyFrame, str, list[pl.Expr]]:
    """The features frame, its item column and one Float64 expression per feature (nulls as 0)."""
    if not isinstance(value, (pl.DataFrame, pl.LazyFrame)):
        expected = (
            "a polars DataFrame or LazyFrame: the item id first, then either one List/Array column "
            "of numbers or numeric columns"
        )
        raise InvalidParameterError.from_type("features", expected, value)
    frame = value.lazy()
    schema = frame.collect_schema()
    names = schema.names()
    needed = "the item id (read by name: item, or columns=) and features in the others"
    if len(names) < 2:
        raise ColumnNotFoundError.layout("`features`", needed, names)
    item = by_role(names, "features", SIDE_ROLES["features"], columns)[0]
    rest = [n for n in names if n != item]
    check_eager(frame, value, item, "features", unique=True)
    if len(rest) == 1 and isinstance(schema[rest[0]], _NUMERIC_LIST):
        vectors = _vector_column(value, rest[0], schema[rest[0]])
    else:
        for column in rest:
            if not (schema[column].is_numeric() or schema[column] == pl.Null):
                raise ColumnTypeError.from_dtype(column, "feature", "numeric", schema[column])
        vectors = [pl.col(c) for c in rest]
    if not vectors:
        raise InvalidDataError.unusable("features", "holds vectors of length 0")
    return frame, item, [v.cast(pl.Float64).fill_null(0.0) for v in vectors]


def _unit_features(
    value: object, item_dtype: pl.DataType, columns: object = None
) -> tuple[pl.LazyFrame, int]:
    """One row per item: the item, its unit-length feature vector (zeros stay zeros), duplicates."""
    frame, item, vectors = _feature_vectors(value, columns)
    ids = same_dtype(pl.col(item), frame.collect_schema()[item], item_dtype, "features")
    names = [f"{FEATURE}{j}" for j in range(len(vectors))]
    raw = frame.select(
        ids.alias(ITEM),
        *(v.alias(n) for v, n in zip(vectors, names, strict=True)),
        pl.len().over(item).alias(DUP),
    )
    # The norm is its own column: written inside every feature's expression it would make the
    # plan quadratic in the number of features. A chain of additions in a fixed order gives the
    # same bits on every engine (and, unlike a fixed-point sum, keeps tiny features exact).
    squares = reduce(operator.add, (pl.col(n) * pl.col(n) for n in names))
    with_norm = raw.with_columns(squares.sqrt().alias("__prm_norm"))
    norm = pl.col("__prm_norm")
    unit = [pl.when(norm > 0).then(pl.col(n) / norm).otherwise(0.0).alias(n) for n in names]
    out = with_norm.select(ITEM, *unit, (norm > 0).cast(pl.Float64).alias(NONZERO), DUP)
    return out, len(vectors)


_SIMILARITY = SUMMED + "_similarity"  # the fixed-point sum of the lists' similarities
_PAIRED = SUMMED + "_paired"  # the lists with at least two items


def _similarity_sums(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """Per group: the fixed-point sum of the lists' mean pairwise similarities, the lists with a pair."""
    value = metric.side("features")
    if value is None:
        remedy = "use prm.intra_list_similarity(k, features=frame)"
        raise InvalidParameterError.needs("intra_list_similarity", "item features", remedy)
    features, width = _unit_features(value, lists.collect_schema()[ITEM], columns_of(metric))
    frame, keys = keyed(lists, by)
    top = frame.filter(within(PREPARED, metric.k)) if metric.k is not None else frame
    joined = top.select(*keys, query, ITEM).join(features, on=ITEM, how="left")
    missing = pl.when(pl.col(NONZERO).is_null()).then(
        pl.format("item {} of the ranked lists has no row in `features`", item_text())
    )
    duplicated = pl.when(pl.col(DUP) > 1).then(
        pl.format("`features` holds item {} more than once", item_text())
    )
    sums = [exact_sum(pl.col(f"{FEATURE}{j}")).alias(f"{FEATURE}{j}") for j in range(width)]
    per_list = joined.group_by(*keys, query).agg(
        *sums,
        pl.col(NONZERO).sum().alias(NONZERO),
        pl.len().alias(SIZE),
        pl.coalesce(missing, duplicated).min().alias(BAD),
    )
    # Over the pairs of a list of unit (or zero) vectors v: sum of cos = (||sum v||^2 - sum ||v||^2) / 2.
    # ||sum v||^2, summed exactly: a float horizontal sum can differ in its last bits between engines.
    squared = exact_sum_horizontal([pl.col(f"{FEATURE}{j}") ** 2 for j in range(width)])
    # A zero vector's cosine is 0/0: its pairs are left out (it adds nothing to either sum), so the
    # mean is over the pairs of the n non-zero vectors.
    n = pl.col(NONZERO)
    similarity = pl.when(n >= 2).then((squared - n) / (n * (n - 1.0)))  # sum / (n(n-1)/2) / 2
    per_group = per_list.group_by(keys).agg(
        fixed_point_sum(similarity).alias(_SIMILARITY),
        (pl.col(NONZERO) >= 2).sum().cast(pl.Int64).alias(_PAIRED),
        pl.col(BAD).min(),
    )
    return state(per_group, by, keys)


def _intra_list_similarity(_metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    # From the summed table: the mean over the lists with a pair.
    paired = pl.col(_PAIRED)
    value = pl.when(paired > 0).then(exact(_SIMILARITY) / paired.cast(pl.Float64))
    return finish(table, by, value, BAD)


# --- novelty ---------------------------------------------------------------------------------------


_PERSONALIZATION = CountState(top_counts, _personalization)  # Spark sums the table across partitions
PERSONALIZATION = CatalogSpec(
    name="personalization", catalog=_PERSONALIZATION.catalog, counts=_PERSONALIZATION, keep=keep_top
)
_INTRA_LIST_SIMILARITY = CountState(_similarity_sums, _intra_list_similarity)
INTRA_LIST_SIMILARITY = CatalogSpec(
    name="intra_list_similarity", per_list=True, aliases=("ils",),
    catalog=_INTRA_LIST_SIMILARITY.catalog, counts=_INTRA_LIST_SIMILARITY, keep=keep_top,
)  # fmt: skip


@constructor(PERSONALIZATION)
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
        group with a single list is null: with no pair of lists the mean
        similarity is undefined (recmetrics divides by zero there).

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


def _check_features(metric: Metric) -> None:
    features = metric.side("features")
    if features is not None:
        _feature_vectors(features, columns_of(metric))


@constructor(INTRA_LIST_SIMILARITY, check=_check_features)
def intra_list_similarity(
    k: int | None = None,
    *,
    features: pl.DataFrame | pl.LazyFrame | None = None,
    columns: SideColumns = None,
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
        One row per item: the item id (its ``item`` column, else its
        first), then in the other columns either one
        List or Array column of numbers or one numeric column per feature
        (null features count as 0, as recmetrics' ``fillna(0)``). A LazyFrame
        needs an Array column or numeric columns (a List's width is unknown
        without reading it).
    columns
        Column names for the ``item`` of `features`, where not the [default names][side-frames]: a
        ``{role: name}`` mapping or a :class:`~polars_rankmetrics.Columns`.

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
    A zero vector's cosine with any vector is 0/0, undefined: its pairs are
    left out of its list's mean (scikit-learn's ``cosine_similarity``, and
    so recmetrics, count them 0, which lowers the mean by an artefact).
    Lists with fewer than two non-zero vectors have no pair and are left out
    of the mean; a group with no list left gives null. Each
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


SPECS = (spec_of(personalization), spec_of(intra_list_similarity))
