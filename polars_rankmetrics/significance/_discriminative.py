"""discriminative_power(): how many system pairs each metric tells apart (Sakai, 2006)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import polars as pl

from polars_rankmetrics._schema import ColumnsLike
from polars_rankmetrics.exceptions._parameters import check_choice
from polars_rankmetrics.significance._compare import compare

if TYPE_CHECKING:
    from polars_rankmetrics.significance._paired import MissingPolicy

__all__ = ["discriminative_power"]

DiscriminativeTest = Literal["tukey", "bootstrap", "randomization", "t"]


def discriminative_power(  # noqa: PLR0913
    per_query: pl.DataFrame | pl.LazyFrame,
    *,
    by: str | None = None,
    metrics: str | Sequence[str] | None = None,
    test: DiscriminativeTest = "tukey",
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    seed: int | None = None,
    query: str | None = None,
    columns: ColumnsLike = None,
    missing: MissingPolicy = "error",
) -> pl.DataFrame:
    """Discriminative power: the share of system pairs each metric finds significantly different.

    Every pair of systems is tested on every metric (as :func:`compare`
    with ``baseline=None`` and no correction: ``"tukey"`` controls the
    family-wise error over the pairs itself, the other tests are each
    pair's own). A metric's discriminative power is the share of pairs
    whose p-value (the achieved significance level, ASL) is below `alpha`;
    its ASL curve is every pair's p-value, sorted (Sakai, 2006, plots them
    against the pairs' rank, lower curves discriminating more):
    :func:`polars_rankmetrics.plots.asl_curve` draws it.

    Parameters
    ----------
    per_query
        One row per (system, query), one column per metric.
    by
        The column naming the system; None takes the one `by` key of
        the frame :func:`evaluate` returned.
    metrics
        The metric columns; None takes every numeric column but `by` and `query`.
    test
        ``"tukey"`` (randomised Tukey HSD), ``"bootstrap"``,
        ``"randomization"`` or ``"t"``: the tests of :func:`compare`.
    alpha
        The significance level.
    n_resamples, seed
        Of the resampling tests, as :func:`compare`.
    query
        The query column.
    columns
        The frame's columns as :func:`evaluate` took them (a
        :class:`Columns` or a ``{"query": name}`` mapping): its ``query``
        names the query column. With neither `query` nor `columns`, the
        frame :func:`evaluate` returned knows its own, else a column
        ``query``, else the one column neither the system, a float nor a
        metric named.
    missing
        Queries some system lacks: as :func:`compare`.

    Returns
    -------
    pl.DataFrame
        One row per metric, in the order of `metrics`: ``metric``,
        ``pairs`` (the system pairs), ``significant`` (the pairs with
        ``p < alpha``), ``discriminative_power`` (their share), ``asl``
        (the pairs' p-values, ascending: the ASL curve), ``test``,
        ``alpha``.

    Raises
    ------
    InvalidParameterError, InvalidDataError, ColumnNotFoundError, ModuleNotFoundError
        As :func:`compare`.

    References
    ----------
    Sakai (2006), Evaluating evaluation metrics based on the bootstrap, SIGIR.

    Examples
    --------
    >>> per_query = pl.DataFrame({
    ...     "run": ["a"] * 5 + ["b"] * 5 + ["c"] * 5,
    ...     "query": list(range(5)) * 3,
    ...     "ndcg": [0.1, 0.2, 0.3, 0.2, 0.1, 0.5, 0.6, 0.7, 0.6, 0.5, 0.5, 0.7, 0.6, 0.6, 0.6],
    ...     "p@5": [0.2, 0.2, 0.4, 0.2, 0.0, 0.2, 0.4, 0.4, 0.2, 0.2, 0.4, 0.4, 0.2, 0.2, 0.2],
    ... })
    >>> prm.discriminative_power(per_query, by="run", test="t").select(
    ...     "metric", "pairs", "significant", "discriminative_power"
    ... )
    shape: (2, 4)
    ┌────────┬───────┬─────────────┬──────────────────────┐
    │ metric ┆ pairs ┆ significant ┆ discriminative_power │
    │ ---    ┆ ---   ┆ ---         ┆ ---                  │
    │ str    ┆ u32   ┆ u32         ┆ f64                  │
    ╞════════╪═══════╪═════════════╪══════════════════════╡
    │ ndcg   ┆ 3     ┆ 2           ┆ 0.666667             │
    │ p@5    ┆ 3     ┆ 0           ┆ 0.0                  │
    └────────┴───────┴─────────────┴──────────────────────┘
    """
    check_choice(test, "test", ("tukey", "bootstrap", "randomization", "t"))
    tested = compare(
        per_query,
        by=by,
        metrics=metrics,
        query=query,
        columns=columns,
        test=test,
        correction=None,
        alpha=alpha,
        n_resamples=n_resamples,
        seed=seed,
        missing=missing,
    )
    return (
        tested.group_by("metric", maintain_order=True)
        .agg(
            pl.len().alias("pairs"),
            (pl.col("p_value") < pl.col("alpha")).sum().alias("significant"),
            pl.col("p_value").sort().alias("asl"),
            pl.col("test").first(),
            pl.col("alpha").first(),
        )
        .select(
            "metric",
            "pairs",
            "significant",
            (pl.col("significant") / pl.col("pairs")).alias("discriminative_power"),
            "asl",
            "test",
            "alpha",
        )
    )
