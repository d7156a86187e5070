"""Plots for comparing systems with Altair: per-query wins and losses, metric@k curves.

Altair is an optional dependency: ``pip install "polars-rankmetrics[plot]"``
(with ``vl-convert-python`` to save PNG and SVG). As in
:mod:`polars_rankmetrics.plots`, each function computes its numbers with
Polars, returns an Altair chart and, given a `path`, saves it there
(``.png``, ``.svg``, ``.html`` or ``.json``, by the file's suffix).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import ColumnsLike, recalled
from polars_rankmetrics.exceptions import ColumnNotFoundError, InvalidInputError, InvalidParameterError
from polars_rankmetrics.significance._deps import require
from polars_rankmetrics.significance._roles import read

if TYPE_CHECKING:
    import altair as alt

    from polars_rankmetrics.significance._paired import MissingPolicy, Paired

__all__ = ["asl_curve", "deltas", "metric_at_k"]

_OUTCOMES = ["win", "tie", "loss"]
_SUFFIXES = (".png", ".svg", ".html", ".json")
_COLOURS = ["#2ca02c", "#9e9e9e", "#d62728"]


def save(chart: alt.TopLevelMixin, path: str | Path | None) -> None:
    """Save `chart` at `path` if given, in the format its suffix names (PNG and SVG through vl-convert)."""
    if path is None:
        return
    if not isinstance(path, (str, Path)):
        raise InvalidInputError.from_type("path", "a file name (a str or a pathlib.Path)", path)
    if Path(path).suffix.lower() not in _SUFFIXES:
        raise InvalidParameterError.out_of_domain(
            "path", f"a file name ending in {', '.join(_SUFFIXES)}", str(path)
        )
    if Path(path).suffix.lower() in (".png", ".svg"):
        require("vl_convert", f"saving a chart as {Path(path).suffix.lower()}", extra="plot")
    chart.save(str(path))


LABELLED_QUERIES = 30  # up to this many queries, the delta chart names each query on its axis


def deltas(  # noqa: PLR0913
    per_query: pl.DataFrame | pl.LazyFrame,
    *,
    by: str | None = None,
    baseline: object,
    metric: str,
    query: str | None = None,
    columns: ColumnsLike = None,
    missing: MissingPolicy = "error",
    title: str | None = None,
    path: str | Path | None = None,
) -> alt.FacetChart:
    """Plot each query's delta against the baseline for one metric, sorted: the win/loss chart.

    Parameters
    ----------
    per_query
        One row per (system, query), as for :func:`~polars_rankmetrics.significance`.
    by
        The column naming the system; None takes the one `by` key of
        the frame :func:`evaluate` returned.
    baseline
        The system the others are compared with.
    metric
        The metric column.
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
        The policy for a query some system lacks, as for
        :func:`~polars_rankmetrics.significance`.
    title
        The chart's title; None writes the metric and the baseline.
    path
        Where to save the chart (``.png``, ``.svg``, ``.html``, ``.json``).

    Returns
    -------
    altair.FacetChart
        One row of bars per system other than the baseline: a bar per query,
        its height the system's value minus the baseline's, queries sorted
        from the largest win to the largest loss; green for a win, red for a
        loss, and a grey diamond on the axis for a tie (a delta of 0 has no
        bar). Up to 30 queries, each bar is labelled with its query; beyond,
        only positions. The tooltip gives the query, both values and the
        delta.

    Raises
    ------
    ImportError
        Altair (or numpy) is not installed.
    RankMetricsError
        As :func:`~polars_rankmetrics.significance` for the same arguments.

    Examples
    --------
    >>> from polars_rankmetrics import plots
    >>> per_query = pl.DataFrame({"run": ["a"] * 3 + ["b"] * 3, "query": ["q1", "q2", "q3"] * 2,
    ...     "map": [0.125, 0.5, 0.25, 0.5, 0.25, 0.25]})
    >>> chart = plots.deltas(per_query, by="run", baseline="a", metric="map")
    >>> pl.DataFrame(chart.data.values)  # what the bars show; chart.save("wins.png") draws them
    shape: (3, 7)
    ┌────────┬───────┬───────┬────────────────┬───────┬──────────┬─────────┐
    │ system ┆ query ┆ value ┆ baseline_value ┆ delta ┆ position ┆ outcome │
    │ ---    ┆ ---   ┆ ---   ┆ ---            ┆ ---   ┆ ---      ┆ ---     │
    │ str    ┆ str   ┆ f64   ┆ f64            ┆ f64   ┆ i64      ┆ str     │
    ╞════════╪═══════╪═══════╪════════════════╪═══════╪══════════╪═════════╡
    │ b      ┆ q1    ┆ 0.5   ┆ 0.125          ┆ 0.375 ┆ 1        ┆ win     │
    │ b      ┆ q3    ┆ 0.25  ┆ 0.25           ┆ 0.0   ┆ 2        ┆ tie     │
    │ b      ┆ q2    ┆ 0.25  ┆ 0.5            ┆ -0.25 ┆ 3        ┆ loss    │
    └────────┴───────┴───────┴────────────────┴───────┴──────────┴─────────┘
    """
    altair = require("altair", "plots.deltas", extra="plot")
    require("numpy", "plots.deltas")
    from polars_rankmetrics.significance._paired import pair  # noqa: PLC0415  (needs numpy)

    if not isinstance(metric, str):
        raise InvalidInputError.from_type("metric", "a column name (a string)", metric)
    per_query, by, query = read(per_query, by, query, columns, "plots.deltas", [metric])
    paired = pair(per_query, by=by, query=query, metrics=[metric], missing=missing)
    few = paired.queries.len() <= LABELLED_QUERIES
    chart = _delta_chart(altair, _delta_table(paired, baseline), metric, baseline, few=few)
    chart = chart.properties(title=title or f"{metric}: per-query delta against {baseline}")
    if few:
        chart = chart.resolve_scale(x="independent")
    save(chart, path)
    return chart


def _delta_table(paired: Paired, baseline: object) -> pl.DataFrame:
    """One row per (system, query) but the baseline: both values, the delta, its position and outcome."""
    base = paired.index(baseline)
    values = paired.values[0]  # (queries, systems)
    systems = paired.systems.to_list()
    frames = [
        pl.DataFrame(
            {
                "system": [str(systems[s])] * paired.queries.len(),
                "query": paired.queries.cast(pl.String),
                "value": values[:, s],
                "baseline_value": values[:, base],
                "delta": values[:, s] - values[:, base],
            }
        )
        for s in range(len(systems))
        if s != base
    ]
    return (
        pl.concat(frames)
        .sort(["system", "delta", "query"], descending=[False, True, False])
        .with_columns(
            pl.int_range(1, pl.len() + 1).over("system").alias("position"),
            pl.when(pl.col("delta") > 0)
            .then(pl.lit("win"))
            .when(pl.col("delta") < 0)
            .then(pl.lit("loss"))
            .otherwise(pl.lit("tie"))
            .alias("outcome"),
        )
    )


def _delta_chart(
    altair: Any,  # noqa: ANN401  (the module, typed only where altair is installed)
    table: pl.DataFrame,
    metric: str,
    baseline: object,
    *,
    few: bool,
) -> alt.FacetChart:
    """Bars of the deltas, a diamond on the axis for each tie, one facet row per system."""
    # Few queries: each bar is labelled with its query (each system's row has its own order); many:
    # the positions alone. Ties (a delta of 0 has no bar) are marked by a grey diamond on the axis.
    x = (
        altair.X(
            "query:N",
            sort=altair.EncodingSortField("position", op="min", order="ascending"),
            title="queries, largest win first",
            axis=altair.Axis(labelAngle=-45),
        )
        if few
        else altair.X(
            "position:O", title="queries, largest win first", axis=altair.Axis(labels=False, ticks=False)
        )
    )
    tooltip = [
        "query:N",
        "system:N",
        altair.Tooltip("value:Q", format=".4f", title=metric),
        altair.Tooltip("baseline_value:Q", format=".4f", title=f"{metric} of {baseline}"),
        altair.Tooltip("delta:Q", format="+.4f"),
    ]
    colour = altair.Color("outcome:N", scale=altair.Scale(domain=_OUTCOMES, range=_COLOURS), title=None)
    bars = altair.Chart().mark_bar().encode(x=x, y=altair.Y("delta:Q", title=f"{metric} minus {baseline}"))
    bars = bars.encode(color=colour, tooltip=tooltip)
    ties = (
        altair.Chart()
        .transform_filter(altair.datum.outcome == "tie")
        .mark_point(shape="diamond", filled=True, size=60)
        .encode(x=x, y="delta:Q", color=colour, tooltip=tooltip)
    )
    chart: alt.FacetChart = (
        altair.layer(bars, ties, data=altair.Data(values=table.to_dicts()))
        .properties(width=480, height=160)
        .facet(row=altair.Row("system:N", title=None))
    )
    return chart


def metric_at_k(
    evaluation: pl.DataFrame | pl.LazyFrame,
    metric: str = "ndcg",
    *,
    by: str | None = None,
    title: str | None = None,
    path: str | Path | None = None,
) -> alt.Chart:
    """Plot a metric against its cutoff k, one line per system: ``ndcg@1``, ..., ``ndcg@k``.

    Parameters
    ----------
    evaluation
        An aggregated evaluation, one row per system: the `by` column and
        columns ``{metric}@{k}``, as ``prm.evaluate(frame, ["ndcg@1", ...,
        "ndcg@20"], by=by)`` returns.
    metric
        The metric's name before ``@`` (``"ndcg"``, ``"precision"``,
        ``"recall"``...). Every column ``{metric}@{k}`` is plotted.
    by
        The column naming the system.
    title
        The chart's title; None writes ``{metric}@k``.
    path
        Where to save the chart (``.png``, ``.svg``, ``.html``, ``.json``).

    Returns
    -------
    altair.Chart
        The metric (y) against k (x), a line with a point per cutoff for
        each system; the tooltip gives the system, k and the value.

    Raises
    ------
    ImportError
        Altair is not installed.
    ColumnNotFoundError
        `by` is not a column, or no column is named ``{metric}@{k}`` (the
        message lists the columns).
    InvalidParameterError
        `metric` is empty.

    Examples
    --------
    >>> from polars_rankmetrics import plots
    >>> evaluation = pl.DataFrame({"run": ["a", "b"], "ndcg@1": [0.2, 0.4], "ndcg@5": [0.3, 0.5]})
    >>> pl.DataFrame(plots.metric_at_k(evaluation, by="run").data.values)  # the points plotted
    shape: (4, 3)
    ┌────────┬─────┬───────┐
    │ system ┆ k   ┆ value │
    │ ---    ┆ --- ┆ ---   │
    │ str    ┆ i64 ┆ f64   │
    ╞════════╪═════╪═══════╡
    │ a      ┆ 1   ┆ 0.2   │
    │ a      ┆ 5   ┆ 0.3   │
    │ b      ┆ 1   ┆ 0.4   │
    │ b      ┆ 5   ┆ 0.5   │
    └────────┴─────┴───────┘
    """
    altair = require("altair", "plots.metric_at_k", extra="plot")
    if not isinstance(metric, str) or not metric:
        raise InvalidParameterError.out_of_domain(
            "metric", "a metric's name before '@', such as 'ndcg'", metric
        )
    lf = as_polars(evaluation, "evaluation").lazy()
    names = lf.collect_schema().names()
    pattern = re.compile(rf"{re.escape(metric)}@(\d+)")
    cutoffs = {c: int(m.group(1)) for c in names if (m := pattern.fullmatch(c))}
    made = recalled(evaluation)
    by = by if by is not None else made[0][0] if made is not None and len(made[0]) == 1 else "system"
    if by not in names:
        raise ColumnNotFoundError.from_missing_and_available(by, "by", names)
    if not cutoffs:
        raise ColumnNotFoundError.pattern(f"{metric}@k", names)
    long = (
        lf.select(pl.col(by).cast(pl.String).alias("system"), *cutoffs)
        .unpivot(index="system", on=list(cutoffs), variable_name="column", value_name="value")
        .with_columns(pl.col("column").replace_strict(cutoffs, return_dtype=pl.Int64).alias("k"))
        .sort("system", "k")
        .select("system", "k", "value")
        .collect()
    )
    chart: alt.Chart = (
        altair.Chart(altair.Data(values=long.to_dicts()))
        .mark_line(point=True)
        .encode(
            x=altair.X("k:Q", title="k (cutoff)"),
            y=altair.Y("value:Q", title=f"{metric}@k"),
            color=altair.Color("system:N", title=by),
            tooltip=["system:N", "k:Q", altair.Tooltip("value:Q", format=".4f", title=f"{metric}@k")],
        )
        .properties(title=title or f"{metric}@k", width=420, height=280)
    )
    save(chart, path)
    return chart


def asl_curve(
    discrimination: pl.DataFrame,
    *,
    alpha: float | None = None,
    title: str | None = None,
    path: str | Path | None = None,
) -> alt.LayerChart:
    """Plot each metric's achieved significance levels, sorted: Sakai's ASL curves.

    Parameters
    ----------
    discrimination
        The frame :func:`polars_rankmetrics.discriminative_power` returns:
        ``metric`` and ``asl`` (each pair's p-value, ascending).
    alpha
        The significance level drawn as a horizontal rule; None takes the
        frame's ``alpha``.
    title
        The chart's title; None writes ``ASL curves``.
    path
        Where to save the chart (``.png``, ``.svg``, ``.html``, ``.json``).

    Returns
    -------
    altair.LayerChart
        The p-value (y) of each system pair against its rank (x), one line
        per metric, and the rule at `alpha`: a metric whose curve stays
        lower for longer tells more pairs apart (Sakai, 2006).

    Raises
    ------
    ImportError
        Altair is not installed.
    ColumnNotFoundError
        `discrimination` lacks ``metric`` or ``asl``.

    Examples
    --------
    >>> from polars_rankmetrics import plots
    >>> power = pl.DataFrame({"metric": ["ndcg", "p@5"], "asl": [[0.01, 0.2], [0.04, 0.6]],
    ...     "alpha": [0.05, 0.05]})
    >>> pl.DataFrame(plots.asl_curve(power).layer[0].data.values)  # the points plotted
    shape: (4, 3)
    ┌────────┬──────┬─────────┐
    │ metric ┆ pair ┆ p_value │
    │ ---    ┆ ---  ┆ ---     │
    │ str    ┆ i64  ┆ f64     │
    ╞════════╪══════╪═════════╡
    │ ndcg   ┆ 1    ┆ 0.01    │
    │ ndcg   ┆ 2    ┆ 0.2     │
    │ p@5    ┆ 1    ┆ 0.04    │
    │ p@5    ┆ 2    ┆ 0.6     │
    └────────┴──────┴─────────┘
    """
    altair = require("altair", "plots.asl_curve", extra="plot")
    if not isinstance(discrimination, pl.DataFrame) or not {"metric", "asl"} <= set(discrimination.columns):
        present = discrimination.columns if isinstance(discrimination, pl.DataFrame) else []
        lacking = [c for c in ("metric", "asl") if c not in present]
        raise ColumnNotFoundError.not_output_of("discrimination", "prm.discriminative_power", lacking)
    if alpha is None:
        levels = discrimination.get_column("alpha").unique() if "alpha" in discrimination.columns else None
        alpha = float(levels[0]) if levels is not None and levels.len() == 1 else 0.05
    long = (
        discrimination.select("metric", pl.col("asl").alias("p_value"))
        .explode("p_value")
        .with_columns(pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("metric").alias("pair"))
        .select("metric", "pair", "p_value")
    )
    lines = (
        altair.Chart(altair.Data(values=long.to_dicts()))
        .mark_line(point=True)
        .encode(
            x=altair.X("pair:Q", title="system pairs, sorted by p-value"),
            y=altair.Y("p_value:Q", title="achieved significance level (p-value)"),
            color=altair.Color("metric:N", title="metric"),
            tooltip=["metric:N", "pair:Q", altair.Tooltip("p_value:Q", format=".4f")],
        )
    )
    rule = (
        altair.Chart(altair.Data(values=[{"alpha": alpha}])).mark_rule(strokeDash=[4, 4]).encode(y="alpha:Q")
    )
    chart: alt.LayerChart = altair.layer(lines, rule).properties(
        title=title or "ASL curves", width=420, height=280
    )
    save(chart, path)
    return chart
