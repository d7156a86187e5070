"""The means-with-intervals chart of :func:`polars_rankmetrics.summarize`'s frame."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from polars_rankmetrics.exceptions import ColumnNotFoundError
from polars_rankmetrics.significance._deps import require
from polars_rankmetrics.significance._summary import SUMMARY_COLUMNS

if TYPE_CHECKING:
    import altair as alt

__all__ = ["means"]

_REPLICATES = ("n_replicates", "replicate_std")


def means(
    summary: pl.DataFrame,
    *,
    metrics: str | list[str] | None = None,
    title: str | None = None,
    path: str | Path | None = None,
) -> alt.FacetChart:
    """Plot each system's mean of each metric with its interval: a point and a bar per system.

    Parameters
    ----------
    summary
        The frame :func:`polars_rankmetrics.summarize` returns: the system
        column, ``metric``, ``n``, ``mean``, ``ci_low``, ``ci_high``.
    metrics
        The metrics to draw, one panel each; None draws every metric.
    title
        The chart's title; None writes what the bars are (the interval's
        level is the one ``summarize`` was given).
    path
        Where to save the chart (``.png``, ``.svg``, ``.html``, ``.json``).

    Returns
    -------
    altair.FacetChart
        One panel per metric, one row per system: the mean as a point, the
        interval as a bar from ``ci_low`` to ``ci_high`` (none where the
        interval is null: one query). The tooltip gives the system, the
        mean, the interval and the number of queries.

    Raises
    ------
    ImportError
        Altair is not installed.
    ColumnNotFoundError
        `summary` is not a frame ``summarize`` returned.

    Examples
    --------
    >>> from polars_rankmetrics import plots
    >>> per_query = pl.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "query": [1, 2, 3, 4] * 2,
    ...     "ndcg@10": [0.2, 0.4, 0.1, 0.5, 0.5, 0.6, 0.3, 0.7]})
    >>> chart = plots.means(prm.summarize(per_query, by="model"))
    >>> pl.DataFrame(chart.data.values).select("model", "metric", "mean", "ci_low").with_columns(
    ...     pl.col(pl.Float64).round(4))
    shape: (2, 4)
    ┌───────┬─────────┬───────┬────────┐
    │ model ┆ metric  ┆ mean  ┆ ci_low │
    │ ---   ┆ ---     ┆ ---   ┆ ---    │
    │ str   ┆ str     ┆ f64   ┆ f64    │
    ╞═══════╪═════════╪═══════╪════════╡
    │ a     ┆ ndcg@10 ┆ 0.3   ┆ 0.0095 │
    │ b     ┆ ndcg@10 ┆ 0.525 ┆ 0.2532 │
    └───────┴─────────┴───────┴────────┘
    """
    altair = require("altair", "plots.means", extra="plot")
    present = summary.columns if isinstance(summary, pl.DataFrame) else []
    systems = [c for c in present if c not in SUMMARY_COLUMNS and c not in _REPLICATES]
    lacking = [c for c in ("metric", "n", "mean", "ci_low", "ci_high") if c not in present]
    if lacking or len(systems) != 1:
        raise ColumnNotFoundError.not_output_of("summary", "prm.summarize", lacking or ["the system column"])
    by = systems[0]
    frame = (
        summary if metrics is None else summary.filter(pl.col("metric").is_in(pl.Series([metrics]).explode()))
    )
    rows = frame.select(pl.col(by).cast(pl.String), "metric", "n", "mean", "ci_low", "ci_high").to_dicts()
    base = altair.Chart().encode(y=altair.Y(f"{by}:N", title=by, sort=None))
    bars = base.mark_rule(strokeWidth=2).encode(
        x=altair.X("ci_low:Q", title="mean and interval", scale=altair.Scale(zero=False)), x2="ci_high:Q"
    )
    points = base.mark_point(filled=True, size=60).encode(
        x="mean:Q",
        tooltip=[
            f"{by}:N",
            "metric:N",
            altair.Tooltip("mean:Q", format=".4f"),
            "ci_low:Q",
            "ci_high:Q",
            "n:Q",
        ],
    )
    chart: alt.FacetChart = (
        altair.layer(bars, points, data=altair.Data(values=rows))
        .facet(facet=altair.Facet("metric:N", title=None), columns=2)
        .resolve_scale(x="independent")
        .properties(title=title or f"Mean of each {by} with its interval (prm.summarize)")
    )
    if path is not None:
        chart.save(str(path))
    return chart
