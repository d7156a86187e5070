"""Catalog-scope distribution metrics: coverage, the Gini index and the entropy of recommendation counts.

Each is one value per `by` group from every ranked list (judged or not), from per-item counts;
every node of the plan streams.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import ITEM, RANK, exact_sum, power
from polars_rankmetrics._spec import OPEN_UNIT, CatalogSpec, CountState, Metric, Spellings
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.metrics._core import PREPARED, keep_retrieved, keep_top, within
from polars_rankmetrics.metrics._count_tables import COUNTED, ranked_counts, top_counts, weighted_sum
from polars_rankmetrics.metrics._side import (
    BAD,
    COUNT,
    SideColumns,
    as_lazy,
    check_eager,
    columns_of,
    finish,
    first_column,
    item_text,
    keyed,
    same_dtype,
)

__all__ = ["coverage", "entropy", "exposure_gini", "gini"]


_CATALOG_KINDS = "None, 'group', a frame, a sequence of item ids or a positive integer"


def _catalog(value: object, columns: object = None) -> int | pl.LazyFrame | str | None:
    """None (the items ranked in any group), "group" (in the group), a size, or a frame of (ITEM), unique."""
    if value is None or (isinstance(value, str) and value == "group"):
        return value  # None or "group"
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            raise InvalidParameterError.out_of_domain("catalog", _CATALOG_KINDS, value)
        return value
    if isinstance(value, str):
        raise InvalidParameterError.out_of_domain("catalog", _CATALOG_KINDS, value)
    frame = as_lazy(value, "catalog")
    item = first_column(frame, "catalog", columns)
    check_eager(frame, value, item, "catalog", unique=False)
    return frame.select(pl.col(item).alias(ITEM)).unique()


def _catalog_items(catalog: pl.LazyFrame, lists: pl.LazyFrame) -> pl.LazyFrame:
    """The catalog's distinct ids in the frame's item dtype, flagged as present."""
    item_dtype = lists.collect_schema()[ITEM]
    ids = same_dtype(pl.col(ITEM), catalog.collect_schema()[ITEM], item_dtype, "catalog")
    return catalog.select(ids, pl.lit(value=True).alias("__prm_in_catalog"))


def _item_counts(metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> tuple[pl.LazyFrame, list[str]]:
    """Per (group, ranked item): how many top-k lists hold it (0 if ranked only below k).

    From the summed :func:`ranked_counts` table; with a catalog frame, recommended items
    outside it are flagged in `BAD`.
    """
    frame, keys = keyed(table, by)
    counts = frame.select(*keys, ITEM, pl.col(COUNTED).alias(COUNT))
    catalog = _catalog(metric.side("catalog"), columns_of(metric))
    if isinstance(catalog, pl.LazyFrame):
        counts = counts.join(_catalog_items(catalog, table), on=ITEM, how="left")
        outside = (pl.col(COUNT) > 0) & pl.col("__prm_in_catalog").is_null()
        bad = pl.when(outside).then(pl.format("item {} is recommended but not in `catalog`", item_text()))
        counts = counts.with_columns(bad.alias(BAD)).drop("__prm_in_catalog")
    else:
        counts = counts.with_columns(pl.lit(None, dtype=pl.String).alias(BAD))
    return counts, keys


def _catalog_size(
    metric: Metric, per_group: pl.LazyFrame, lists: pl.LazyFrame
) -> tuple[pl.LazyFrame, pl.Expr]:
    """`per_group` with the catalog size as an expression.

    By default n is the number of distinct items ranked in any group (one catalog shared by every
    `by` group, so groups compare on one scale); with ``catalog="group"``, those ranked in the group.
    """
    catalog = _catalog(metric.side("catalog"), columns_of(metric))
    if isinstance(catalog, str):  # "group"
        return per_group, pl.col("__prm_ranked")
    if catalog is None:
        size = lists.select(pl.col(ITEM).n_unique().alias("__prm_catalog"))
        return per_group.join(size, how="cross"), pl.col("__prm_catalog")
    if isinstance(catalog, int):
        too_small = pl.col("__prm_recommended") > catalog
        bad = pl.when(too_small).then(
            pl.format(
                "{} distinct items are recommended but `catalog` is {} items",
                "__prm_recommended",
                pl.lit(catalog),
            )
        )
        return per_group.with_columns(pl.coalesce(BAD, bad).alias(BAD)), pl.lit(catalog, dtype=pl.Int64)
    size = _catalog_items(catalog, lists).select(pl.len().alias("__prm_catalog"))
    return per_group.join(size, how="cross"), pl.col("__prm_catalog")


def _coverage(metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    counts, keys = _item_counts(metric, table, by)
    per_group = counts.group_by(keys).agg(
        (pl.col(COUNT) > 0).sum().alias("__prm_recommended"),
        pl.len().alias("__prm_ranked"),
        pl.col(BAD).min(),
    )
    per_group, n = _catalog_size(metric, per_group, table)
    value = pl.col("__prm_recommended").cast(pl.Float64) / n.cast(pl.Float64)
    return finish(per_group, by, value, BAD)


def _gini(metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    counts, keys = _item_counts(metric, table, by)
    # Twice the (average) rank of each count among the group's ranked items, ascending: an integer.
    twice_rank = (pl.col(COUNT).rank("average").over(keys) * 2).cast(pl.Int128)
    counts = counts.with_columns(twice_rank.alias("__prm_twice_rank"))  # a window outside the agg streams
    per_group = counts.group_by(keys).agg(
        (pl.col("__prm_twice_rank") * pl.col(COUNT).cast(pl.Int128)).sum().alias("__prm_a"),
        pl.col(COUNT).cast(pl.Int128).sum().alias("__prm_total"),
        (pl.col(COUNT) > 0).sum().alias("__prm_recommended"),
        pl.len().alias("__prm_ranked"),
        pl.col(BAD).min(),
    )
    per_group, n = _catalog_size(metric, per_group, table)
    # Sorted ascending c_1 <= ... <= c_n over the catalog: G = sum (2i - n - 1) c_i / (n sum c).
    # Catalog items never ranked count 0 and sit below every ranked item: shift ranks by their number.
    n = n.cast(pl.Int128)
    total = pl.col("__prm_total")
    a = pl.col("__prm_a") + 2 * (n - pl.col("__prm_ranked").cast(pl.Int128)) * total
    numerator = (a - (n + 1) * total).cast(pl.Float64)
    value = pl.when(total > 0).then(numerator / (n * total).cast(pl.Float64))
    return finish(per_group, by, value, BAD)


def _entropy(_metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    # From the summed top_counts table: an item's top-k slots, over every list length.
    frame, keys = keyed(table, by)
    counts = frame.group_by(*keys, ITEM).agg(pl.col(COUNTED).sum().cast(pl.Float64).alias(COUNT))
    c = pl.col(COUNT)
    per_group = counts.group_by(keys).agg(
        c.sum().alias("__prm_total"), exact_sum(c * c.log(2)).alias("__prm_clogc")
    )
    # H = -sum p log2 p with p = c / C, which is log2 C - sum(c log2 c) / C.
    total = pl.col("__prm_total")
    value = pl.max_horizontal(total.log(2) - pl.col("__prm_clogc") / total, pl.lit(0.0))
    return finish(per_group, by, value)


POSITION = "__prm_position"  # a ranked item's position within the cutoff (null below it)


def _position_counts(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], _query: str) -> pl.LazyFrame:
    """Per (group, ranked item, position within k): the lists holding it there (a null position below k)."""
    frame, keys = keyed(lists, by)
    position = pl.when(within(PREPARED, metric.k)).then(pl.col(RANK)).cast(pl.UInt32).alias(POSITION)
    table = frame.group_by(*keys, ITEM, position).agg(pl.len().cast(pl.Int64).alias(COUNTED))
    return table.select(*by, ITEM, POSITION, COUNTED)


def _exposure_gini(metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    # LensKit's ExposureGini (lenskit/metrics/ranking/_gini.py 121-138): each item's exposure, the sum
    # over the lists of p ** (position - 1) within the top k, then lenskit.stats.gini over the catalog.
    frame, keys = keyed(table, by)
    exposure = weighted_sum(power(metric.number("p"), pl.col(POSITION).cast(pl.Float64) - 1.0).fill_null(0.0))
    per_item = frame.group_by(*keys, ITEM).agg(exposure.alias(COUNTED))
    counts, keys = _item_counts(metric, per_item, by)
    e = pl.col(COUNT)
    twice_rank = e.rank("average").over(keys) * 2.0  # a window outside the agg streams
    counts = counts.with_columns(twice_rank.alias("__prm_twice_rank"))
    per_group = counts.group_by(keys).agg(
        exact_sum(pl.col("__prm_twice_rank") * e).alias("__prm_a"),
        exact_sum(e).alias("__prm_total"),
        (e > 0).sum().alias("__prm_recommended"),
        pl.len().alias("__prm_ranked"),
        pl.col(BAD).min(),
    )
    per_group, n = _catalog_size(metric, per_group, table)
    # G = sum (2i - n - 1) e_i / (n sum e) over the catalog sorted ascending; unranked items are 0.
    n, total = n.cast(pl.Float64), pl.col("__prm_total")
    a = pl.col("__prm_a") + 2.0 * (n - pl.col("__prm_ranked").cast(pl.Float64)) * total
    value = pl.when(total > 0).then(pl.max_horizontal((a - (n + 1.0) * total) / (n * total), pl.lit(0.0)))
    return finish(per_group, by, value, BAD)


# Each from a count table that Spark sums across partitions (CountState).
_COVERAGE, _GINI, _ENTROPY = (
    CountState(ranked_counts, _coverage),
    CountState(ranked_counts, _gini),
    CountState(top_counts, _entropy),
)
COVERAGE = CatalogSpec(
    name="coverage",
    catalog=_COVERAGE.catalog,
    counts=_COVERAGE,
    keep=keep_retrieved,
    saturates=True,
    spellings=Spellings(recommenders=("ItemCoverage", "CatalogCoverage", "Coverage")),
)
GINI = CatalogSpec(
    name="gini",
    aliases=("gini_index",),
    catalog=_GINI.catalog,
    counts=_GINI,
    keep=keep_retrieved,
    spellings=Spellings(recommenders=("GiniIndex",)),
)
_EXPOSURE_GINI = CountState(_position_counts, _exposure_gini)
EXPOSURE_GINI = CatalogSpec(
    name="exposure_gini",
    needs=frozenset({"rank"}),  # the positions themselves, not only "within the top k"
    catalog=_EXPOSURE_GINI.catalog,
    counts=_EXPOSURE_GINI,
    keep=keep_retrieved,
    spellings=Spellings(recommenders=("ExposureGini",)),
)
ENTROPY = CatalogSpec(
    name="entropy", aliases=("shannon_entropy",), catalog=_ENTROPY.catalog, counts=_ENTROPY, keep=keep_top
)

Catalog = pl.DataFrame | pl.LazyFrame | pl.Series | Sequence[object] | int | Literal["group"] | None


@constructor(COVERAGE, check=lambda metric: _catalog(metric.side("catalog"), columns_of(metric)))
def coverage(k: int | None = None, *, catalog: Catalog = None, columns: SideColumns = None) -> Metric:
    """Catalog coverage: the share of the catalog that appears in at least one top-`k` list.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    catalog
        The items that could be recommended: a Series or a sequence of item
        ids, a DataFrame or LazyFrame whose ``item`` column (else its first) holds them
        (duplicates count once, nulls are an error), or the catalog's size as
        an int. None (the default) takes the distinct items ranked anywhere,
        at any rank, in any list of the frame: one catalog shared by every
        `by` group, so that groups (models) are compared on one scale.
        ``"group"`` takes each `by` group's own ranked items instead (a
        model that ranks few distinct items then covers its own small
        catalog well).

    columns
        Column names for the ``item`` of `catalog`, where not the [default names][side-frames]: a
        ``{role: name}`` mapping or a :class:`~polars_rankmetrics.Columns`.

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


@constructor(GINI, check=lambda metric: _catalog(metric.side("catalog"), columns_of(metric)))
def gini(k: int | None = None, *, catalog: Catalog = None, columns: SideColumns = None) -> Metric:
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
        in any list of the frame, shared by every `by` group (those ranked
        only below `k`, or only by other groups, count 0); ``"group"`` the
        items ranked in the group's own lists.

    columns
        Column names for the ``item`` of `catalog`, where not the [default names][side-frames]: a
        ``{role: name}`` mapping or a :class:`~polars_rankmetrics.Columns`.

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


@constructor(ENTROPY)
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


@constructor(EXPOSURE_GINI, check=lambda metric: _catalog(metric.side("catalog"), columns_of(metric)))
def exposure_gini(
    k: int | None = None,
    *,
    p: Annotated[float, OPEN_UNIT] = 0.85,
    catalog: Catalog = None,
    columns: SideColumns = None,
) -> Metric:
    """Gini index of the catalog items' exposure in the top `k` (LensKit's ``ExposureGini``).

    Each item's exposure is the sum, over the lists that rank it within the
    top `k`, of RBP's geometric weight ``p ** (position - 1)``. With the
    catalog's exposures sorted ascending ``e_1 <= ... <= e_n`` (items never
    recommended have 0), ``G = sum_i (2i - n - 1) e_i / (n sum_i e_i)``
    (at least 0, as ``lenskit.stats.gini``): 0 when every item is equally
    exposed, ``1 - 1/n`` at most. :func:`gini` is the same index of the
    counts (LensKit's ``ListGini``).

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    p
        The patience of the geometric weight (LensKit's
        ``GeometricRankWeight``, default 0.85).
    catalog
        As for :func:`gini`: LensKit's ``items``, the catalog's size (an
        int) or its items; the default takes the items ranked anywhere in
        any list of the frame, shared by every `by` group.
    columns
        Column names for the ``item`` of `catalog`, where not the [default names][side-frames]: a
        ``{role: name}`` mapping or a :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``exposure_gini@k`` (``exposure_gini(p=0.5)@k``), one value per
        `by` group (catalog scope); lower is more even.

    Notes
    -----
    LensKit sums the weights in 32-bit floats: its values differ from these
    exact sums by about 1e-7.

    References
    ----------
    LensKit, ``lenskit/metrics/ranking/_gini.py`` (``ExposureGini``).

    Examples
    --------
    Item a is first in both lists (exposure 2), b and c second (0.5 each);
    in the top 1 of a catalog of 4 items, only a is exposed:

    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "c"],
    ...     "score": [0.9, 0.5, 0.8, 0.1]})
    >>> prm.evaluate(df, [prm.exposure_gini(p=0.5), prm.exposure_gini(1, p=0.5, catalog=4)])
    shape: (1, 2)
    ┌──────────────────────┬────────────────────────┐
    │ exposure_gini(p=0.5) ┆ exposure_gini(p=0.5)@1 │
    │ ---                  ┆ ---                    │
    │ f64                  ┆ f64                    │
    ╞══════════════════════╪════════════════════════╡
    │ 0.333333             ┆ 0.75                   │
    └──────────────────────┴────────────────────────┘
    """


SPECS = (spec_of(coverage), spec_of(gini), spec_of(exposure_gini), spec_of(entropy))
