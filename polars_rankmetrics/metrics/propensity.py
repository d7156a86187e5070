"""Propensity-scored metrics for missing labels: PSP@k, PSnDCG@k, PSrecall@k (Jain, Prabhu and Varma, 2016).

In extreme classification and long-tail recommendation most relevant labels
are never observed, and the observed ones are the popular ones. Each relevant
item counts ``1 / p_l`` instead of 1, ``p_l`` its propensity (the chance that
its relevance is observed), so a rare relevant item found weighs more than a
popular one. The propensities come from a side frame (item, propensity), a
column of the frame, or a training-count frame (item, count) with the number
of training instances ``n`` through Jain et al.'s model
``p_l = 1 / (1 + C (N_l + B)^-A)``, ``C = (ln N - 1)(B + 1)^A`` (A = 0.55,
B = 1.5; ``dataset="wikipedia"`` 0.5 / 0.4 and ``"amazon"`` 0.6 / 2.6).

Two normalisations, one parameter: ``normalize="query"`` (the default) is the
paper's per-query value averaged over queries; ``normalize="oracle"`` is
pyxclib's (``xclib/evaluation/xc_metrics.py``): the mean of the per-query
values over the mean of the same values for the oracle ranking (each query's
relevant items by decreasing ``1 / p``), which is why it can fall below
precision. Per query it is the query's value over its oracle value; over
queries the ratio of the sums (a ``weighted`` aggregate, each query weighted by
its oracle value). The name shows it: ``psp(normalize=oracle)@5``.

Relevance is binary (``relevance >= relevance_level``), as in the paper. Every
relevant item of an evaluated query needs a propensity (the oracle and recall's
denominators read them all); an item missing from a ``counts`` frame has count 0.
"""

from __future__ import annotations

from typing import Annotated, Literal

import polars as pl

from polars_rankmetrics._declare import SIDE, constructor, spec_of
from polars_rankmetrics._kernel import Rows, ratio
from polars_rankmetrics._spec import POSITIVE, Metric, QuerySpec, RowInput, TieSupport
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.exceptions._parameters import check_choice
from polars_rankmetrics.metrics._core import keep_relevant, num_relevant, within
from polars_rankmetrics.metrics._propensity_side import (
    check_sources,
    coefficients,
    propensity_input,
    training_size,
)
from polars_rankmetrics.metrics._side import SideColumns, side_param

__all__ = ["psndcg", "psp", "psrecall"]

_ORACLE = "__prm_oracle_rank_"  # + the propensity column: a relevant item's place by decreasing 1 / p


def inverse(rows: Rows, source: RowInput) -> pl.Expr:
    """``1 / p`` of each relevant row; null on the others (their propensity is never read)."""
    # Null where the propensity is missing or out of range: the value's error names that row.
    return pl.when(rows.rel & rows.input(source.bad).is_null()).then(1.0 / rows.input(source.name))


def guarded(rows: Rows, source: RowInput, value: pl.Expr) -> pl.Expr:
    """`value`, or the plan's error naming the first relevant row whose input is missing or out of range."""
    bad = pl.when(rows.rel).then(rows.input(source.bad)).min()
    return pl.coalesce(_errors.in_plan(bad), value)


def _oracle_rank(rows: Rows, source: RowInput) -> pl.Expr:
    order = inverse(rows, source).rank("ordinal", descending=True)
    return order if rows.keys is None else order.over(list(rows.keys))


def oracle_rank(rows: Rows, source: RowInput) -> pl.Expr:
    """A relevant row's position in the oracle ranking: relevant items by decreasing ``1 / p``."""
    return rows.column(_ORACLE + source.name, _oracle_rank(rows, source))


def _rows(m: Metric, rows: Rows) -> list[pl.Expr]:
    source = propensity_input(m)
    return [_oracle_rank(rows, source).alias(_ORACLE + source.name)]


def _log_discount(position: pl.Expr) -> pl.Expr:
    return (position.cast(pl.Float64) + 1.0).log(2)


def _scores(m: Metric, rows: Rows) -> tuple[pl.Expr, pl.Expr]:
    """The query's (value, oracle value) under the paper's per-query definition."""
    source = propensity_input(m)
    k = m.k
    assert k is not None  # the families take a required cutoff
    inv = inverse(rows, source)
    hit = rows.rel & within(rows, k)
    top = rows.rel & (oracle_rank(rows, source) <= k)
    if m.name == "psndcg":
        found = rows.exact_sum(inv / _log_discount(rows.rank), hit)
        best = rows.exact_sum(inv / _log_discount(oracle_rank(rows, source)), top)
        # Jain et al.: PSDCG@k over the DCG of min(k, R) unit gains, sum_{l <= min(k, R)} 1 / log2(l + 1).
        ideal = rows.exact_sum(1.0 / _log_discount(oracle_rank(rows, source)), top)
        return ratio(found, ideal), ratio(best, ideal)
    found, best = rows.exact_sum(inv, hit), rows.exact_sum(inv, top)
    if m.name == "psp":
        return ratio(found, pl.lit(float(k))), ratio(best, pl.lit(float(k)))
    n_rel = num_relevant(rows).cast(pl.Float64)
    return ratio(found, n_rel), ratio(best, n_rel)


def _value(m: Metric, rows: Rows) -> pl.Expr:
    found, best = _scores(m, rows)
    value = ratio(found, best) if side_param(m, "normalize") == "oracle" else found
    return guarded(rows, propensity_input(m), value)


def _weight(m: Metric, rows: Rows) -> pl.Expr:
    """1 per query (the mean over queries), or the oracle value (pyxclib's ratio of means)."""
    if side_param(m, "normalize") == "oracle":
        return _scores(m, rows)[1]
    return pl.lit(1.0)


def _inputs(m: Metric) -> tuple[RowInput, ...]:
    return (propensity_input(m),)


def _check(m: Metric) -> None:
    check_sources(m, "propensities", "counts")
    check_choice(side_param(m, "normalize"), "normalize", ("query", "oracle"))
    if side_param(m, "counts") is not None:
        training_size(m)
        coefficients(m)
    elif (
        side_param(m, "n") is not None
        or side_param(m, "dataset") is not None
        or (m.number("a"), m.number("b")) != (0.55, 1.5)
    ):
        why = "apply to `counts` only (Jain et al.'s model of propensities from training counts)"
        raise InvalidParameterError.refused("`n`, `a`, `b` and `dataset`", why)
    propensity_input(m, eager=True)  # the side frame's columns and, when a DataFrame, its rows


_TIES = TieSupport(why="its expectation over tie orders is not implemented")


def _spec(name: str) -> QuerySpec:
    return QuerySpec(
        name=name, aggregate="weighted", k="optional", keep=keep_relevant, value=_value, weight=_weight,
        rows=_rows, inputs=_inputs, ties=_TIES,
    )  # fmt: skip


@constructor(_spec("psp"), check=_check)
def psp(  # noqa: PLR0913  (the propensities' sources and the model's coefficients)
    k: int,
    *,
    propensities: pl.DataFrame | pl.LazyFrame | str | None = None,
    counts: pl.DataFrame | pl.LazyFrame | None = None,
    n: Annotated[int | None, SIDE] = None,
    a: Annotated[float, POSITIVE] = 0.55,
    b: Annotated[float, POSITIVE] = 1.5,
    dataset: Literal["jain", "wikipedia", "amazon"] | None = None,
    normalize: Literal["query", "oracle"] = "query",
    columns: SideColumns = None,
) -> Metric:
    r"""Propensity-scored precision: ``(1/k) * sum over the top k of rel_l / p_l`` (Jain et al., 2016).

    Each relevant item in the top `k` counts the inverse of its propensity
    ``p_l`` (the chance its relevance is observed); averaged over queries.
    With ``normalize="oracle"``, pyxclib's ``psprecision``: the mean over
    queries divided by the mean of the oracle ranking's values (each
    query's relevant items by decreasing ``1 / p_l``).

    Parameters
    ----------
    k
        Cutoff: the top `k` retrieved items count.
    propensities
        The propensities: a frame of (item, propensity) read by name (an
        ``item`` column, a ``propensity`` or ``p`` column, and optionally a
        ``query`` column for per-(query, item) values), or the name of a
        column of the evaluation frame. Each in (0, 1].
    counts
        Instead of `propensities`: training counts, a frame of (item, count)
        read by name; with `n`, `a`, `b` (or `dataset`) they give Jain et
        al.'s ``p_l = 1 / (1 + C (N_l + B)^-A)``, ``C = (ln N - 1)(B + 1)^A``.
        An item without a row has count 0.
    n
        The number of training instances ``N`` (at least 3).
    a, b
        The model's ``A`` and ``B`` (0.55 and 1.5, Jain et al.'s default).
    dataset
        Named ``(A, B)`` of the published data sets: ``"wikipedia"`` (0.5,
        0.4), ``"amazon"`` (0.6, 2.6), ``"jain"`` (the default, 0.55, 1.5).
    normalize
        ``"query"``: the per-query value, averaged over queries (the paper);
        ``"oracle"``: divided by the oracle ranking's value (pyxclib), per
        query and, over queries, as the ratio of the sums.
    columns
        Column names for the ``query``, ``item`` and ``propensity`` of `propensities` and the
        ``query``, ``item`` and ``count`` of `counts`, where not the [default names][side-frames]: a
        ``{role: name}`` mapping or a :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``psp@k`` (``psp(normalize=oracle)@k``), one value per query.

    Raises
    ------
    InvalidParameterError
        Neither or both of `propensities` and `counts`; `n` below 3; an
        unknown `dataset` or `normalize`.
    InvalidDataError
        A propensity outside (0, 1], a duplicate item or a negative count in
        a DataFrame side input (when built, naming the item); when the plan
        runs: a relevant item without a propensity, or such a value in a
        LazyFrame or column, naming the item and the query.

    Notes
    -----
    Relevance is binary (``relevance >= relevance_level``). PSP is not
    bounded by 1: a rare relevant item found counts ``1 / p_l > 1``. A query
    without a relevant item scores 0 (and weighs 0 under ``"oracle"``).
    pyxclib's value is equal to 1e-12 (``tests/reference/test_propensity_oracle.py``
    transcribes its functions); pyxclib counts every test instance, so evaluate with
    ``missing="zero"`` to count the judged queries that retrieved nothing as it does.

    References
    ----------
    Jain, Prabhu and Varma (2016), "Extreme multi-label loss functions for
    recommendation, tagging, ranking and other missing label applications",
    KDD. pyxclib: ``xclib/evaluation/xc_metrics.py`` (``psprecision``,
    ``compute_inv_propesity``).

    See Also
    --------
    psndcg, psrecall : The other propensity-scored metrics.
    ips_precision : Inverse-propensity-weighted precision, IPS and SNIPS.

    Examples
    --------
    Item ``c`` is rare (propensity 0.25): finding it counts 4.

    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "c"],
    ...     "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
    ...     "p": [0.5, 0.8, 0.25, 0.5, 0.25]})
    >>> prm.evaluate(df, prm.psp(2, propensities="p"), per_query=True)
    shape: (2, 2)
    ┌───────┬───────────────────────┐
    │ query ┆ psp(propensities=p)@2 │
    │ ---   ┆ ---                   │
    │ i64   ┆ f64                   │
    ╞═══════╪═══════════════════════╡
    │ 1     ┆ 1.0                   │
    │ 2     ┆ 2.0                   │
    └───────┴───────────────────────┘

    The same propensities as a side frame, and pyxclib's ratio to the oracle ranking
    (query 1 could have scored 3 by ranking ``c`` and ``a`` first: (1 + 2) / (3 + 2)):

    >>> props = pl.DataFrame({"item": ["a", "b", "c"], "propensity": [0.5, 0.8, 0.25]})
    >>> prm.evaluate(df, [prm.psp(2, propensities=props),
    ...     prm.psp(2, propensities=props, normalize="oracle")])
    shape: (1, 2)
    ┌───────┬─────────────────────────┐
    │ psp@2 ┆ psp(normalize=oracle)@2 │
    │ ---   ┆ ---                     │
    │ f64   ┆ f64                     │
    ╞═══════╪═════════════════════════╡
    │ 1.5   ┆ 0.6                     │
    └───────┴─────────────────────────┘
    """


@constructor(_spec("psndcg"), check=_check)
def psndcg(  # noqa: PLR0913  (the propensities' sources and the model's coefficients)
    k: int,
    *,
    propensities: pl.DataFrame | pl.LazyFrame | str | None = None,
    counts: pl.DataFrame | pl.LazyFrame | None = None,
    n: Annotated[int | None, SIDE] = None,
    a: Annotated[float, POSITIVE] = 0.55,
    b: Annotated[float, POSITIVE] = 1.5,
    dataset: Literal["jain", "wikipedia", "amazon"] | None = None,
    normalize: Literal["query", "oracle"] = "query",
    columns: SideColumns = None,
) -> Metric:
    r"""Propensity-scored nDCG: ``PSDCG@k / sum_{l <= min(k, R)} 1 / log2(l + 1)`` (Jain et al., 2016).

    ``PSDCG@k = sum over the top k of rel_l / (p_l log2(rank + 1))``: DCG
    with each relevant item's gain the inverse of its propensity, over the
    DCG of ``min(k, R)`` unit gains (``R`` relevant items). With
    ``normalize="oracle"``, pyxclib's ``psndcg``: the mean over queries
    divided by the mean of the oracle ranking's values.

    Parameters
    ----------
    k
        Cutoff: the top `k` retrieved items count.
    propensities, counts, n, a, b, dataset, normalize, columns
        As :func:`psp`'s.

    Returns
    -------
    Metric
        ``psndcg@k`` (``psndcg(normalize=oracle)@k``), one value per query.

    Raises
    ------
    InvalidParameterError, InvalidDataError
        As :func:`psp`.

    Notes
    -----
    The normaliser is the unweighted ideal DCG of the paper (and pyxclib), so
    the value is not bounded by 1. pyxclib keeps its per-cutoff means in
    float32 (``_ndcg``): its values agree with these to float32's precision,
    and its float64 formula to 1e-12.

    References
    ----------
    Jain, Prabhu and Varma (2016), KDD; pyxclib ``xclib/evaluation/xc_metrics.py`` (``psndcg``, ``_ndcg``).

    See Also
    --------
    psp, psrecall : The other propensity-scored metrics.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "c"],
    ...     "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
    ...     "p": [0.5, 0.8, 0.25, 0.5, 0.25]})
    >>> out = prm.evaluate(df, prm.psndcg(2, propensities="p"), per_query=True)
    >>> out.with_columns(pl.col("psndcg(propensities=p)@2").round(4))
    shape: (2, 2)
    ┌───────┬──────────────────────────┐
    │ query ┆ psndcg(propensities=p)@2 │
    │ ---   ┆ ---                      │
    │ i64   ┆ f64                      │
    ╞═══════╪══════════════════════════╡
    │ 1     ┆ 1.2263                   │
    │ 2     ┆ 2.5237                   │
    └───────┴──────────────────────────┘
    """


@constructor(_spec("psrecall"), check=_check)
def psrecall(  # noqa: PLR0913  (the propensities' sources and the model's coefficients)
    k: int,
    *,
    propensities: pl.DataFrame | pl.LazyFrame | str | None = None,
    counts: pl.DataFrame | pl.LazyFrame | None = None,
    n: Annotated[int | None, SIDE] = None,
    a: Annotated[float, POSITIVE] = 0.55,
    b: Annotated[float, POSITIVE] = 1.5,
    dataset: Literal["jain", "wikipedia", "amazon"] | None = None,
    normalize: Literal["query", "oracle"] = "query",
    columns: SideColumns = None,
) -> Metric:
    r"""Propensity-scored recall: ``sum over the top k of rel_l / p_l``, over ``R`` (pyxclib's ``psrecall``).

    Each relevant item in the top `k` counts the inverse of its propensity,
    and the sum is divided by the query's number of relevant items ``R``.
    With ``normalize="oracle"``, pyxclib's value: the mean over queries
    divided by the mean of the oracle ranking's values.

    Parameters
    ----------
    k
        Cutoff: the top `k` retrieved items count.
    propensities, counts, n, a, b, dataset, normalize, columns
        As :func:`psp`'s.

    Returns
    -------
    Metric
        ``psrecall@k`` (``psrecall(normalize=oracle)@k``), one value per query.

    Raises
    ------
    InvalidParameterError, InvalidDataError
        As :func:`psp`.

    Notes
    -----
    0 for a query without a relevant item (pyxclib divides by 1 there).

    References
    ----------
    Jain, Prabhu and Varma (2016), KDD; pyxclib ``xclib/evaluation/xc_metrics.py``
    (``psrecall``, ``_recall``).

    See Also
    --------
    psp, psndcg : The other propensity-scored metrics.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "c"],
    ...     "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
    ...     "p": [0.5, 0.8, 0.25, 0.5, 0.25]})
    >>> prm.evaluate(df, prm.psrecall(2, propensities="p"), per_query=True)
    shape: (2, 2)
    ┌───────┬────────────────────────────┐
    │ query ┆ psrecall(propensities=p)@2 │
    │ ---   ┆ ---                        │
    │ i64   ┆ f64                        │
    ╞═══════╪════════════════════════════╡
    │ 1     ┆ 1.0                        │
    │ 2     ┆ 4.0                        │
    └───────┴────────────────────────────┘

    Propensities from training counts (100 training instances; ``c`` seen twice):

    >>> counts = pl.DataFrame({"item": ["a", "b", "c"], "count": [40, 25, 2]})
    >>> out = prm.evaluate(df, prm.psrecall(2, counts=counts, n=100), per_query=True)
    >>> out.with_columns(pl.col("psrecall@2").round(4))
    shape: (2, 2)
    ┌───────┬────────────┐
    │ query ┆ psrecall@2 │
    │ ---   ┆ ---        │
    │ i64   ┆ f64        │
    ╞═══════╪════════════╡
    │ 1     ┆ 0.8844     │
    │ 2     ┆ 3.9961     │
    └───────┴────────────┘
    """


SPECS = (spec_of(psp), spec_of(psndcg), spec_of(psrecall))
