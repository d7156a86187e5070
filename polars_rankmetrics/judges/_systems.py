"""system_agreement() and system_swaps(): whether the systems rank the same under two sets of judgments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Unpack

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns
from polars_rankmetrics._spec import Metric
from polars_rankmetrics.conventions import ConventionOptions
from polars_rankmetrics.evaluation import collect, evaluate
from polars_rankmetrics.exceptions import InvalidDataError, InvalidParameterError
from polars_rankmetrics.exceptions._parameters import check_k
from polars_rankmetrics.significance import rank_correlation

__all__ = ["SYSTEM_AGREEMENT_COLUMNS", "system_agreement", "system_swaps"]

SYSTEM_AGREEMENT_COLUMNS = ("metric", "systems", "tau_b", "tau_ap", "top_k_overlap", "swaps", "pairs")
_A, _B = "__prm_under_a", "__prm_under_b"
_SUFFIX = "__prm_b"  # a metric's column under `qrels_b`


def _means(  # noqa: PLR0913, PLR0917  (the run, both judgments, the metrics, the system, the options)
    run: object,
    qrels_a: object,
    qrels_b: object,
    metrics: str | Metric | Sequence[str | Metric],
    by: str,
    columns: Columns | Mapping[str, str] | None,
    options: ConventionOptions,
) -> tuple[list[str], pl.DataFrame]:
    """Each system's mean of each metric under `qrels_a` and under `qrels_b`, side by side."""
    cols = Columns.of(columns)
    frame = as_polars(run, "run").lazy()
    under: list[pl.DataFrame] = [
        collect(evaluate(frame, metrics, by=by, qrels=qrels, columns=cols, **options))
        for qrels in (qrels_a, qrels_b)
    ]
    names = [c for c in under[0].columns if c != by]
    listed = frame.select(pl.col(by).unique()).collect()
    if listed.height < 2:
        shown = ", ".join(map(repr, listed.get_column(by).to_list()))
        why = f"column {by!r} names {listed.height} system(s) ({shown})"
        raise InvalidDataError.too_few(why, "system agreement")
    renamed = under[1].rename({name: name + _SUFFIX for name in names})
    means = listed.join(under[0], on=by, how="left").join(renamed, on=by, how="left")
    return names, means.sort(by)


def _orders(means: pl.DataFrame, by: str, x: str, y: str) -> pl.DataFrame:
    """Each system's place under each judgment set: 1 the best, ties broken by the system's name."""
    place = pl.struct(pl.col(x).neg(), pl.col(by).cast(pl.String))
    other = pl.struct(pl.col(y).neg(), pl.col(by).cast(pl.String))
    return means.select(
        by,
        pl.col(x).alias(_A),
        pl.col(y).alias(_B),
        place.rank("ordinal").alias("__prm_pa"),
        other.rank("ordinal").alias("__prm_pb"),
    )


def _swapped(orders: pl.DataFrame, by: str) -> pl.DataFrame:
    """The system pairs the two judgment sets order oppositely (a tie on either side is no swap)."""
    right = orders.rename({c: f"{c}__prm_2" for c in orders.columns})
    da = pl.col(_A) - pl.col(f"{_A}__prm_2")
    db = pl.col(_B) - pl.col(f"{_B}__prm_2")
    return (
        orders.join(right, how="cross")
        .filter((da > 0) & (db < 0))
        .select(
            pl.col(by).alias("higher_under_a"),
            pl.col(f"{by}__prm_2").alias("higher_under_b"),
            pl.col("__prm_pa").alias("place_a"),
            pl.col("__prm_pb__prm_2").alias("place_b"),
            da.alias("delta_a"),
            (-db).alias("delta_b"),
        )
    )


def _tau(means: pl.DataFrame, by: str, x: str, y: str, method: str) -> float | None:
    """rank_correlation, or null where the orders leave it undefined (one value for all, ties for tau_ap)."""
    if (
        method == "tau_ap"
        and means.select(pl.col(x).is_duplicated().any() | pl.col(y).is_duplicated().any()).item()
    ):
        return None
    if means.select((pl.col(x).n_unique() == 1) | (pl.col(y).n_unique() == 1)).item():
        return None
    return rank_correlation(means, x=x, y=y, by=by, method=method)  # type: ignore[arg-type]


def _one_metric(means: pl.DataFrame, by: str, name: str, k: int) -> tuple[dict[str, object], pl.DataFrame]:
    x, y = name, name + _SUFFIX
    for column in (x, y):
        missing = means.filter(pl.col(column).is_null())
        if missing.height:
            where = f"system {missing.get_column(by)[0]!r}"
            under = "`qrels_a`" if column == x else "`qrels_b`"
            raise InvalidDataError.not_finite(f"metric {name!r} under {under}", missing.height, where)
    orders = _orders(means, by, x, y)
    swaps = _swapped(orders, by)
    n = orders.height
    top = min(k, n)
    overlap = (
        orders.filter(pl.col("__prm_pa") <= top)
        .join(orders.filter(pl.col("__prm_pb") <= top).select(by), on=by)
        .height
    )
    row = {
        "metric": name,
        "systems": n,
        "tau_b": _tau(means, by, x, y, "tau_b"),
        "tau_ap": _tau(means, by, x, y, "tau_ap"),
        "top_k_overlap": overlap / top,
        "swaps": swaps.height,
        "pairs": n * (n - 1) // 2,
    }
    return row, swaps.with_columns(pl.lit(name).alias("metric"))


def _checked_k(k: object) -> int:
    checked = check_k(k)
    if checked is None:
        raise InvalidParameterError.out_of_domain("k", "a positive integer", k)
    return checked


def system_agreement(  # noqa: PLR0913  (the run, both judgments, the metrics, then keywords)
    run: pl.DataFrame | pl.LazyFrame,
    qrels_a: pl.DataFrame | pl.LazyFrame,
    qrels_b: pl.DataFrame | pl.LazyFrame,
    metrics: str | Metric | Sequence[str | Metric],
    *,
    by: str = "system",
    k: int = 5,
    columns: Columns | Mapping[str, str] | None = None,
    **conventions: Unpack[ConventionOptions],
) -> pl.DataFrame:
    r"""Whether the systems rank the same under two sets of judgments, metric by metric.

    Every metric is evaluated for every system (:func:`evaluate` with `by`)
    under `qrels_a` and under `qrels_b`; the two orders of the systems are
    then compared (:func:`rank_correlation`), `qrels_a` the reference:

    - ``tau_b``: Kendall's tau-b of the two columns of means.
    - ``tau_ap``: the AP rank correlation, `qrels_a`'s order the truth
      (swaps near the top cost more); null when either order ties systems.
    - ``top_k_overlap``: ``|top_k(a) ∩ top_k(b)| / min(k, systems)``, the
      systems ordered by their mean, best first, ties broken by the name.
    - ``swaps``: the system pairs the two orders put the other way round
      (a tie on either side is not a swap), of ``pairs = n (n - 1) / 2``;
      :func:`system_swaps` lists them.

    A tau is null where it is undefined (one value for every system).
    The usual reading: ``tau_b >= 0.9`` and the systems rank "the same".
    In the example, the model's grades reverse the people's order of
    ``ndcg@2`` for two of the three pairs (s1 first under the people, last
    under the model); ``p@1`` ties every system under the model.

    Parameters
    ----------
    run
        The systems' rankings: query, item, score or rank and the `by` column.
    qrels_a, qrels_b
        The two sets of judgments (query, item, relevance): people's, a model's.
    metrics
        Metric names or objects, as :func:`evaluate` takes them.
    by
        The column of `run` naming the system.
    k
        The cutoff of ``top_k_overlap``.
    columns
        The column names, as :func:`evaluate` takes them.
    **conventions
        Convention overrides or ``preset=``, as :func:`evaluate` takes them.

    Returns
    -------
    pl.DataFrame
        One row per metric: ``metric``, ``systems``, ``tau_b``, ``tau_ap``,
        ``top_k_overlap``, ``swaps``, ``pairs``.

    Raises
    ------
    InvalidDataError
        Fewer than 2 systems; a system without a value under either set of
        judgments (no query of it judged); what :func:`evaluate` raises.
    InvalidParameterError
        `k` not a positive integer.

    See Also
    --------
    system_swaps : which systems swap.
    agreement : how far the judgments themselves agree.
    rank_correlation : the correlations, from means already computed.

    Examples
    --------
    >>> run = pl.DataFrame({"system": ["s1"] * 2 + ["s2"] * 2 + ["s3"] * 2,
    ...     "query": [1] * 6, "item": ["a", "b", "b", "c", "c", "a"], "score": [2.0, 1.0] * 3})
    >>> people = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"], "relevance": [2, 1, 0]})
    >>> model = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"], "relevance": [1, 1, 2]})
    >>> prm.system_agreement(run, people, model, ["ndcg@2", "p@1"], k=1)
    shape: (2, 7)
    ┌────────┬─────────┬───────────┬────────┬───────────────┬───────┬───────┐
    │ metric ┆ systems ┆ tau_b     ┆ tau_ap ┆ top_k_overlap ┆ swaps ┆ pairs │
    │ ---    ┆ ---     ┆ ---       ┆ ---    ┆ ---           ┆ ---   ┆ ---   │
    │ str    ┆ i64     ┆ f64       ┆ f64    ┆ f64           ┆ i64   ┆ i64   │
    ╞════════╪═════════╪═══════════╪════════╪═══════════════╪═══════╪═══════╡
    │ ndcg@2 ┆ 3       ┆ -0.333333 ┆ -0.5   ┆ 0.0           ┆ 2     ┆ 3     │
    │ p@1    ┆ 3       ┆ null      ┆ null   ┆ 1.0           ┆ 0     ┆ 3     │
    └────────┴─────────┴───────────┴────────┴───────────────┴───────┴───────┘
    """
    top = _checked_k(k)
    names, means = _means(run, qrels_a, qrels_b, metrics, by, columns, conventions)
    rows = [_one_metric(means, by, name, top)[0] for name in names]
    schema = {
        "metric": pl.String,
        "systems": pl.Int64,
        "tau_b": pl.Float64,
        "tau_ap": pl.Float64,
        "top_k_overlap": pl.Float64,
        "swaps": pl.Int64,
        "pairs": pl.Int64,
    }
    return pl.DataFrame(rows, schema=schema)


def system_swaps(  # noqa: PLR0913  (the run, both judgments, the metrics, then keywords)
    run: pl.DataFrame | pl.LazyFrame,
    qrels_a: pl.DataFrame | pl.LazyFrame,
    qrels_b: pl.DataFrame | pl.LazyFrame,
    metrics: str | Metric | Sequence[str | Metric],
    *,
    by: str = "system",
    columns: Columns | Mapping[str, str] | None = None,
    **conventions: Unpack[ConventionOptions],
) -> pl.DataFrame:
    """Which systems swap: the pairs two sets of judgments order the other way round, per metric.

    A pair swaps when `qrels_a` gives one system the higher mean and
    `qrels_b` the other (a tie on either side is no swap); the count per
    metric is :func:`system_agreement`'s ``swaps``.

    Parameters
    ----------
    run, qrels_a, qrels_b, metrics, by, columns, **conventions
        As :func:`system_agreement`.

    Returns
    -------
    pl.DataFrame
        One row per swapped pair and metric: ``metric``, ``higher_under_a``
        and ``higher_under_b`` (the systems), ``place_a`` (the first one's
        place under `qrels_a`, 1 the best), ``place_b`` (the second one's
        under `qrels_b`), ``delta_a`` and ``delta_b`` (the winner's lead under
        each, > 0); sorted by metric and ``place_a``.

    Raises
    ------
    InvalidDataError
        As :func:`system_agreement`.

    See Also
    --------
    system_agreement : the correlations and counts.

    Examples
    --------
    >>> run = pl.DataFrame({"system": ["s1"] * 2 + ["s2"] * 2 + ["s3"] * 2,
    ...     "query": [1] * 6, "item": ["a", "b", "b", "c", "c", "a"], "score": [2.0, 1.0] * 3})
    >>> people = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"], "relevance": [2, 1, 0]})
    >>> model = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"], "relevance": [1, 1, 2]})
    >>> prm.system_swaps(run, people, model, "ndcg@2").drop("delta_a", "delta_b")
    shape: (2, 5)
    ┌────────┬────────────────┬────────────────┬─────────┬─────────┐
    │ metric ┆ higher_under_a ┆ higher_under_b ┆ place_a ┆ place_b │
    │ ---    ┆ ---            ┆ ---            ┆ ---     ┆ ---     │
    │ str    ┆ str            ┆ str            ┆ u32     ┆ u32     │
    ╞════════╪════════════════╪════════════════╪═════════╪═════════╡
    │ ndcg@2 ┆ s1             ┆ s3             ┆ 1       ┆ 1       │
    │ ndcg@2 ┆ s1             ┆ s2             ┆ 1       ┆ 2       │
    └────────┴────────────────┴────────────────┴─────────┴─────────┘
    """
    names, means = _means(run, qrels_a, qrels_b, metrics, by, columns, conventions)
    tables = [_one_metric(means, by, name, 1)[1] for name in names]
    return pl.concat(tables).select("metric", pl.exclude("metric")).sort("metric", "place_a", "place_b")
