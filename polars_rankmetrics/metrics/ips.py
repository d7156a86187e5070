"""Inverse-propensity-weighted ranking metrics: IPS and self-normalised IPS (SNIPS) forms.

Logged implicit feedback observes the popular items' relevance more often
(Yang et al., RecSys 2018): a metric computed over it rewards accuracy on the
head. The IPS form of a metric counts each observed relevant item ``i`` with a
weight ``w_i``, the inverse of its propensity ``p_i`` to be observed:

    IPS   = sum over relevant i of w_i * c(i)
    SNIPS = IPS / sum over relevant i of w_i

where ``c(i)`` is the item's contribution to the plain metric, which is the
sum of the contributions of its relevant items:

=================  ===========================================================
family             c(i) for a relevant item at rank r_i (0 past the cutoff)
=================  ===========================================================
``ips_precision``  ``1 / k``
``ips_recall``     ``1 / R`` (R: the query's relevant items)
``ips_ndcg``       ``1 / log2(r_i + 1) / IDCG@k``, ``IDCG@k = sum_{j <= min(k, R)} 1 / log2(j + 1)``
``ips_rbp``        ``(1 - p) p^(r_i - 1)`` (binary relevance, as LensKit's RBP)
``ips_mrr``        ``1 / r_i`` for the first relevant item retrieved, 0 for the others
``ips_hit_rate``   ``1`` for the first relevant item retrieved, 0 for the others
=================  ===========================================================

With every weight 1 the IPS form is the plain metric, and SNIPS the plain
metric over R: LensKit's IPS-weighted RBP (``IPSRBP``, its
``self_normalized`` option; LensKit 2026, PR #1182), whose normaliser is the
sum of the weights of every relevant item, retrieved or not, whatever the
cutoff. SNIPS is invariant to the weights' scale, so propensities known only
up to a constant suffice.

The API: one family per metric, each one declaration (``ips_rbp`` beside
``rbp``), rather than a wrapper ``prm.ips(metric)``: a family's name, its
parameters and its spellings are on its own spec; a wrapper would need one
spec made at run time per wrapped family, whose names no parser could list.
Each family takes the weights as ``weights=`` (``w_i``, finite and >= 0) or
``propensities=`` (``p_i`` in (0, 1], ``w_i = 1 / p_i``): a column of the
frame (per row: a logging policy's propensity of that (query, item)) or a
side frame (item, weight), optionally with a query column, read by name (``columns=``
names its columns, as every side input's); and
``estimator="ips"`` (the default) or ``"snips"``, which the name shows:
``ips_rbp(estimator=snips)``.

Relevance is binary (``relevance >= relevance_level``), as in Yang et al.
and LensKit. Weights are read for relevant items only: every
relevant item of an evaluated query needs one.
"""

from __future__ import annotations

from typing import Annotated, Literal

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows, power, ratio
from polars_rankmetrics._spec import OPEN_UNIT, Metric, QuerySpec, RowInput, TieSupport
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.exceptions._parameters import check_choice
from polars_rankmetrics.metrics._core import keep_relevant, num_relevant, within
from polars_rankmetrics.metrics._propensity_side import check_sources, weight_input
from polars_rankmetrics.metrics._side import SideColumns, side_param

__all__ = ["ips_hit_rate", "ips_mrr", "ips_ndcg", "ips_precision", "ips_rbp", "ips_recall"]


def _weights(rows: Rows, source: RowInput) -> pl.Expr:
    """Each relevant row's weight ``w_i`` (``1 / p_i`` from propensities); null on the others."""
    value = rows.input(source.name)
    weight = 1.0 / value if source.what == "propensity" else value
    # Null where the weight is missing or out of range: the value's error names that row.
    return pl.when(rows.rel & rows.input(source.bad).is_null()).then(weight)


_PLACE = "__prm_relevant_place"  # 1..R over a query's relevant items, in any order: the ideal list's slots


def _relevant_place(rows: Rows) -> pl.Expr:
    place = pl.when(rows.rel).then(rows.rank.fill_null(2**31)).rank("ordinal")
    return place if rows.keys is None else place.over(list(rows.keys))


def _rows(m: Metric, rows: Rows) -> list[pl.Expr]:
    return [_relevant_place(rows).alias(_PLACE)] if m.name == "ips_ndcg" else []


def _log_discount(position: pl.Expr) -> pl.Expr:
    return (position.cast(pl.Float64) + 1.0).log(2)


def _weighted(m: Metric, rows: Rows, w: pl.Expr) -> pl.Expr:
    """The family's IPS value: the sum over relevant items of ``w_i c(i)``."""
    k, hits = m.k, rows.rel & within(rows, m.k)
    if m.name == "ips_precision":
        assert k is not None
        return ratio(rows.scaled_sum(w, hits), pl.lit(float(k)))
    if m.name == "ips_recall":
        return ratio(rows.scaled_sum(w, hits), num_relevant(rows))
    if m.name == "ips_ndcg":
        found = rows.scaled_sum(w / _log_discount(rows.rank), hits)
        place = rows.column(_PLACE, _relevant_place(rows))
        ideal = rows.exact_sum(1.0 / _log_discount(place), rows.rel if k is None else rows.rel & (place <= k))
        return ratio(found, ideal)
    if m.name == "ips_rbp":
        p = m.number("p")
        return (1.0 - p) * rows.scaled_sum(w * power(p, rows.rank.cast(pl.Float64) - 1.0), hits)
    # The first relevant item retrieved: the hit ranked first among the hits (a row mask, no per-query
    # comparison with an aggregate, which would leave the streaming engine).
    first = rows.rel & (rows.hit_rank == 1) & within(rows, k)
    w_first = rows.scaled_sum(w, first)
    if m.name == "ips_mrr":
        return rows.scaled_sum(w / rows.rank.cast(pl.Float64), first)
    return w_first  # ips_hit_rate


def _value(m: Metric, rows: Rows) -> pl.Expr:
    source = weight_input(m)
    w = _weights(rows, source)
    value = _weighted(m, rows, w)
    if side_param(m, "estimator") == "snips":
        value = ratio(value, rows.scaled_sum(w, rows.rel))
    bad = pl.when(rows.rel).then(rows.input(source.bad)).min()
    return pl.coalesce(_errors.in_plan(bad), value)


def _inputs(m: Metric) -> tuple[RowInput, ...]:
    return (weight_input(m),)


def _check(m: Metric) -> None:
    check_sources(m, "weights", "propensities")
    check_choice(side_param(m, "estimator"), "estimator", ("ips", "snips"))
    weight_input(m, eager=True)  # the side frame's columns and, when a DataFrame, its rows


_TIES = TieSupport(why="its expectation over tie orders is not implemented")


def _spec(name: str) -> QuerySpec:
    needs = frozenset({"hit_rank"}) if name in ("ips_mrr", "ips_hit_rate") else frozenset()
    return QuerySpec(
        name=name, keep=keep_relevant, value=_value, inputs=_inputs, ties=_TIES, rows=_rows, needs=needs
    )


@constructor(_spec("ips_precision"), check=_check)
def ips_precision(
    k: int,
    *,
    weights: pl.DataFrame | pl.LazyFrame | str | None = None,
    propensities: pl.DataFrame | pl.LazyFrame | str | None = None,
    estimator: Literal["ips", "snips"] = "ips",
    columns: SideColumns = None,
) -> Metric:
    """Inverse-propensity-weighted precision: ``sum over relevant hits in the top k of w_i / k``.

    With ``estimator="snips"``, divided by the sum of the weights of the
    query's relevant items (Yang et al., 2018). With every weight 1 the IPS
    form is precision@k.

    Parameters
    ----------
    k
        Cutoff: the top `k` retrieved items count.
    weights
        Each relevant item's weight ``w_i`` (finite, >= 0): the name of a
        column of the frame, or a side frame read by name (an ``item``
        column, a ``weight`` or ``w`` column, optionally a ``query`` column
        for per-(query, item) weights).
    propensities
        Instead of `weights`: propensities ``p_i`` in (0, 1], ``w_i = 1 / p_i``;
        a column name or a side frame (``propensity`` or ``p`` column).
    estimator
        ``"ips"`` (the default) or ``"snips"``, self-normalised; the name
        shows it: ``ips_precision(estimator=snips)@k``.
    columns
        Column names for the ``query``, ``item`` and ``weight`` of `weights` and the ``query``,
        ``item`` and ``propensity`` of `propensities`, where not the [default names][side-frames]: a
        ``{role: name}`` mapping or a :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``ips_precision@k``, one value per query (mean over queries).

    Raises
    ------
    InvalidParameterError
        Neither or both of `weights` and `propensities`; an unknown `estimator`.
    InvalidDataError
        A NaN, infinite or negative weight, a propensity outside (0, 1], a
        duplicated item in a DataFrame side input (when built, naming the
        item); when the plan runs: a relevant item without a weight, or such
        a value in a LazyFrame or column, naming the item and the query.

    Notes
    -----
    The module :mod:`polars_rankmetrics.metrics.ips` defines every family's
    contribution ``c(i)`` and the estimators.

    References
    ----------
    Yang, Cui, Xiao, Ryu, Kim, Vlachos and Estrin (2018), "Unbiased offline
    recommender evaluation for missing-not-at-random implicit feedback", RecSys.

    See Also
    --------
    ips_recall, ips_ndcg, ips_rbp, ips_mrr, ips_hit_rate : The other weighted families.
    psp : Propensity-scored precision (Jain et al.), with pyxclib's normalisation.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "c"],
    ...     "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
    ...     "w": [2.0, 1.25, 4.0, 2.0, 4.0]})
    >>> prm.evaluate(df, prm.ips_precision(2, weights="w"), per_query=True)
    shape: (2, 2)
    ┌───────┬────────────────────────────┐
    │ query ┆ ips_precision(weights=w)@2 │
    │ ---   ┆ ---                        │
    │ i64   ┆ f64                        │
    ╞═══════╪════════════════════════════╡
    │ 1     ┆ 1.0                        │
    │ 2     ┆ 2.0                        │
    └───────┴────────────────────────────┘
    """


@constructor(_spec("ips_recall"), check=_check)
def ips_recall(
    k: int | None = None,
    *,
    weights: pl.DataFrame | pl.LazyFrame | str | None = None,
    propensities: pl.DataFrame | pl.LazyFrame | str | None = None,
    estimator: Literal["ips", "snips"] = "ips",
    columns: SideColumns = None,
) -> Metric:
    """Inverse-propensity-weighted recall: ``sum over relevant hits in the top k of w_i / R``.

    With ``estimator="snips"``, divided by the sum of the weights of the
    query's relevant items. With every weight 1 the IPS form is recall@k.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.
    weights, propensities, estimator, columns
        As :func:`ips_precision`'s.

    Returns
    -------
    Metric
        ``ips_recall@k``, one value per query.

    Raises
    ------
    InvalidParameterError, InvalidDataError
        As :func:`ips_precision`.

    References
    ----------
    Yang et al. (2018), RecSys.

    See Also
    --------
    ips_precision : The family's module documents every weighted form.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "c"],
    ...     "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
    ...     "w": [2.0, 1.25, 4.0, 2.0, 4.0]})
    >>> prm.evaluate(df, prm.ips_recall(2, weights="w", estimator="snips"), per_query=True)
    shape: (2, 2)
    ┌───────┬─────────────────────────────────┐
    │ query ┆ ips_recall(weights=w,estimator… │
    │ ---   ┆ ---                             │
    │ i64   ┆ f64                             │
    ╞═══════╪═════════════════════════════════╡
    │ 1     ┆ 0.166667                        │
    │ 2     ┆ 1.0                             │
    └───────┴─────────────────────────────────┘
    """


@constructor(_spec("ips_ndcg"), check=_check)
def ips_ndcg(
    k: int | None = None,
    *,
    weights: pl.DataFrame | pl.LazyFrame | str | None = None,
    propensities: pl.DataFrame | pl.LazyFrame | str | None = None,
    estimator: Literal["ips", "snips"] = "ips",
    columns: SideColumns = None,
) -> Metric:
    """Inverse-propensity-weighted nDCG: ``sum over relevant hits of w_i / log2(rank + 1) / IDCG@k``.

    Binary relevance; the ideal DCG is unweighted, ``sum_{j <= min(k, R)} 1 / log2(j + 1)``.
    With ``estimator="snips"``, divided by the sum of the weights of the
    query's relevant items. With every weight 1 the IPS form is nDCG@k with
    binary gains.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.
    weights, propensities, estimator, columns
        As :func:`ips_precision`'s.

    Returns
    -------
    Metric
        ``ips_ndcg@k``, one value per query.

    Raises
    ------
    InvalidParameterError, InvalidDataError
        As :func:`ips_precision`.

    References
    ----------
    Yang et al. (2018), RecSys.

    See Also
    --------
    ips_precision : The family's module documents every weighted form.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "c"],
    ...     "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
    ...     "w": [2.0, 1.25, 4.0, 2.0, 4.0]})
    >>> out = prm.evaluate(df, prm.ips_ndcg(2, weights="w"), per_query=True)
    >>> out.with_columns(pl.col("ips_ndcg(weights=w)@2").round(4))
    shape: (2, 2)
    ┌───────┬───────────────────────┐
    │ query ┆ ips_ndcg(weights=w)@2 │
    │ ---   ┆ ---                   │
    │ i64   ┆ f64                   │
    ╞═══════╪═══════════════════════╡
    │ 1     ┆ 1.2263                │
    │ 2     ┆ 2.5237                │
    └───────┴───────────────────────┘
    """


@constructor(_spec("ips_rbp"), check=_check)
def ips_rbp(  # noqa: PLR0913  (the persistence, the weights' sources, the estimator)
    k: int | None = None,
    *,
    p: Annotated[float, OPEN_UNIT] = 0.85,
    weights: pl.DataFrame | pl.LazyFrame | str | None = None,
    propensities: pl.DataFrame | pl.LazyFrame | str | None = None,
    estimator: Literal["ips", "snips"] = "ips",
    columns: SideColumns = None,
) -> Metric:
    """Inverse-propensity-weighted RBP: ``(1 - p) * sum over relevant hits of w_i p^(rank - 1)`` (LensKit).

    With ``estimator="snips"``, divided by the sum of the weights of the
    query's relevant items, retrieved or not: LensKit's default
    (``self_normalized=True``). With every weight 1 the IPS form is RBP with
    binary relevance.

    Parameters
    ----------
    k
        Cutoff (LensKit's ``n``); None uses the whole list.
    p
        Persistence: the chance the user goes on to the next item (LensKit's
        ``patience``, 0.85 by default as there).
    weights, propensities, estimator, columns
        As :func:`ips_precision`'s.

    Returns
    -------
    Metric
        ``ips_rbp@k``, one value per query.

    Raises
    ------
    InvalidParameterError, InvalidDataError
        As :func:`ips_precision`.

    Notes
    -----
    Equal to LensKit's ``IPSRBP`` (``lenskit/metrics/ranking/_ips.py``) on the
    same lists, weights and patience; LensKit gives a query without relevant
    items NaN (left out of its mean), this library 0 (``no_relevant="skip"``
    leaves it out).

    References
    ----------
    Moffat and Zobel (2008), "Rank-biased precision for measurement of
    retrieval effectiveness", TOIS; Yang et al. (2018), RecSys.

    See Also
    --------
    rbp : The plain metric.
    ips_precision : The family's module documents every weighted form.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "c"],
    ...     "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
    ...     "w": [2.0, 1.25, 4.0, 2.0, 4.0]})
    >>> prm.evaluate(df, prm.ips_rbp(weights="w", p=0.5), per_query=True)
    shape: (2, 2)
    ┌───────┬──────────────────────────┐
    │ query ┆ ips_rbp(p=0.5,weights=w) │
    │ ---   ┆ ---                      │
    │ i64   ┆ f64                      │
    ╞═══════╪══════════════════════════╡
    │ 1     ┆ 1.5                      │
    │ 2     ┆ 1.0                      │
    └───────┴──────────────────────────┘

    The same weights as propensities in a side frame, and LensKit's default,
    self-normalised (query 1: 1.5 over its weights 2 + 4):

    >>> props = pl.DataFrame({"item": ["a", "b", "c"], "propensity": [0.5, 0.8, 0.25]})
    >>> prm.evaluate(df, [prm.ips_rbp(propensities=props, p=0.5),
    ...     prm.ips_rbp(propensities=props, p=0.5, estimator="snips")], per_query=True)
    shape: (2, 3)
    ┌───────┬────────────────┬────────────────────────────────┐
    │ query ┆ ips_rbp(p=0.5) ┆ ips_rbp(p=0.5,estimator=snips) │
    │ ---   ┆ ---            ┆ ---                            │
    │ i64   ┆ f64            ┆ f64                            │
    ╞═══════╪════════════════╪════════════════════════════════╡
    │ 1     ┆ 1.5            ┆ 0.25                           │
    │ 2     ┆ 1.0            ┆ 0.25                           │
    └───────┴────────────────┴────────────────────────────────┘
    """


@constructor(_spec("ips_mrr"), check=_check)
def ips_mrr(
    k: int | None = None,
    *,
    weights: pl.DataFrame | pl.LazyFrame | str | None = None,
    propensities: pl.DataFrame | pl.LazyFrame | str | None = None,
    estimator: Literal["ips", "snips"] = "ips",
    columns: SideColumns = None,
) -> Metric:
    """Inverse-propensity-weighted reciprocal rank: ``w_f / r_f``, ``f`` the first relevant item retrieved.

    Within the top `k`; 0 without one. With ``estimator="snips"``, divided
    by the sum of the weights of the query's relevant items. With every
    weight 1 the IPS form is the reciprocal rank.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.
    weights, propensities, estimator, columns
        As :func:`ips_precision`'s.

    Returns
    -------
    Metric
        ``ips_mrr@k``, one value per query.

    Raises
    ------
    InvalidParameterError, InvalidDataError
        As :func:`ips_precision`.

    References
    ----------
    Yang et al. (2018), RecSys.

    See Also
    --------
    ips_hit_rate : The first hit's weight alone.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "c"],
    ...     "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
    ...     "w": [2.0, 1.25, 4.0, 2.0, 4.0]})
    >>> prm.evaluate(df, prm.ips_mrr(weights="w"), per_query=True)
    shape: (2, 2)
    ┌───────┬────────────────────┐
    │ query ┆ ips_mrr(weights=w) │
    │ ---   ┆ ---                │
    │ i64   ┆ f64                │
    ╞═══════╪════════════════════╡
    │ 1     ┆ 2.0                │
    │ 2     ┆ 2.0                │
    └───────┴────────────────────┘
    """


@constructor(_spec("ips_hit_rate"), check=_check)
def ips_hit_rate(
    k: int | None = None,
    *,
    weights: pl.DataFrame | pl.LazyFrame | str | None = None,
    propensities: pl.DataFrame | pl.LazyFrame | str | None = None,
    estimator: Literal["ips", "snips"] = "ips",
    columns: SideColumns = None,
) -> Metric:
    """Inverse-propensity-weighted hit rate: ``w_f``, ``f`` the first relevant item in the top k.

    0 without one. With ``estimator="snips"``, divided by the sum of the weights of the
    query's relevant items. With every weight 1 the IPS form is the hit rate.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.
    weights, propensities, estimator, columns
        As :func:`ips_precision`'s.

    Returns
    -------
    Metric
        ``ips_hit_rate@k``, one value per query.

    Raises
    ------
    InvalidParameterError, InvalidDataError
        As :func:`ips_precision`.

    References
    ----------
    Yang et al. (2018), RecSys.

    See Also
    --------
    ips_mrr : The first hit's weight over its rank.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "c"],
    ...     "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
    ...     "w": [2.0, 1.25, 4.0, 2.0, 4.0]})
    >>> prm.evaluate(df, prm.ips_hit_rate(1, weights="w"), per_query=True)
    shape: (2, 2)
    ┌───────┬───────────────────────────┐
    │ query ┆ ips_hit_rate(weights=w)@1 │
    │ ---   ┆ ---                       │
    │ i64   ┆ f64                       │
    ╞═══════╪═══════════════════════════╡
    │ 1     ┆ 2.0                       │
    │ 2     ┆ 0.0                       │
    └───────┴───────────────────────────┘
    """


SPECS = tuple(spec_of(f) for f in (ips_precision, ips_recall, ips_ndcg, ips_rbp, ips_mrr, ips_hit_rate))
