"""Plots with Altair: popularity's long tail, coverage against k, the precision-recall curve, comparisons.

``deltas`` (per-query wins and losses against a baseline), ``means`` (each
system's mean with its interval, from ``summarize``) and ``metric_at_k``
(metric@k curves) live in :mod:`polars_rankmetrics.significance._plots`; they are
here too, beside the others.

Altair is an optional dependency: ``pip install "polars-rankmetrics[plot]"``
(it brings ``altair`` and, to save PNG files, ``vl-convert-python``). Each
function computes its numbers with Polars, returns an ``altair.Chart`` and,
given a `path`, saves it there (``.png``, ``.svg``, ``.html`` or ``.json``,
by the file's suffix).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from polars_rankmetrics._engine import collect
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns, ColumnsLike, normalise_by
from polars_rankmetrics.curves import cutoffs
from polars_rankmetrics.curves import pr_curve as pr_curve_frame
from polars_rankmetrics.evaluation import evaluate
from polars_rankmetrics.exceptions import ColumnNotFoundError, ColumnTypeError, InvalidParameterError
from polars_rankmetrics.exceptions._parameters import is_finite
from polars_rankmetrics.metrics.distribution import Catalog
from polars_rankmetrics.metrics.distribution import coverage as coverage_metric
from polars_rankmetrics.significance._means_plot import means
from polars_rankmetrics.significance._plots import asl_curve, deltas, metric_at_k, save

if TYPE_CHECKING:
    import altair as alt

__all__ = ["asl_curve", "coverage", "deltas", "long_tail", "means", "metric_at_k", "pr_curve"]


def _altair() -> Any:  # noqa: ANN401  (the module, typed only where altair is installed)
    try:
        import altair as alt  # noqa: PLC0415  (an optional dependency)
    except ImportError:
        msg = 'polars_rankmetrics.plots needs altair: pip install "polars-rankmetrics[plot]"'
        raise ImportError(msg) from None
    return alt


def long_tail(  # noqa: PLR0913
    data: pl.DataFrame | pl.LazyFrame,
    *,
    item: str | None = None,
    count: str | None = None,
    head_share: float = 0.8,
    log_y: bool | None = None,
    columns: ColumnsLike = None,
    title: str = "Long tail of item popularity",
    path: str | Path | None = None,
) -> alt.LayerChart:
    """Plot each item's popularity, most popular first, with the head and the long tail apart.

    Parameters
    ----------
    data
        Either interactions (or any frame with one row per interaction, such
        as an evaluation frame): each row counts once for its item; or, with
        `count`, one row per item and its count.
    item
        The item column; None takes the ``item`` of `columns` (``"item"``).
    count
        The column holding each item's count; None counts the rows per item.
        The y axis is labelled with what it shows: `count`'s name, or the
        rows per item.
    head_share
        The head is the fewest most popular items that together hold at least
        this share of all interactions (recmetrics' ``percentage``); the
        rest is the long tail. The default 0.8 splits off the few items
        holding 80% of the volume.
    log_y
        A logarithmic y axis. None (the default) takes one when the most
        popular item's volume is at least 100 times the least popular's (on a
        linear axis the tail of a real catalog lies on the axis); items of
        volume 0 then keep the axis linear.
    columns
        The frame's columns (a :class:`Columns` or a ``{"item": name}``
        mapping), as :func:`evaluate` takes them: its ``item`` is the item
        column when `item` is None.
    title
        The chart's title.
    path
        Where to save the chart (``.png``, ``.svg``, ``.html``, ``.json``).

    Returns
    -------
    altair.LayerChart
        An area per part (head, tail) over the item's popularity rank, with
        the number of items in each part in the legend, and a rule at the
        split.

    Raises
    ------
    ImportError
        Altair is not installed.
    ColumnNotFoundError
        `item` or `count` is not a column of `data`.
    InvalidParameterError
        `head_share` outside (0, 1], or ``log_y=True`` with an item of volume 0.

    Examples
    --------
    >>> pop = pl.DataFrame({"movie": ["a", "b", "c", "d"], "plays": [5000, 300, 20, 1]})
    >>> chart = prm.plots.long_tail(pop, count="plays", columns={"item": "movie"})
    >>> y = chart.to_dict()["layer"][0]["encoding"]["y"]  # labelled with what it shows, on a log axis
    >>> y["title"], y["scale"]["type"]
    ('plays', 'log')
    """
    altair = _altair()
    if not is_finite(head_share) or not 0 < float(head_share) <= 1:
        raise InvalidParameterError.out_of_domain("head_share", "in (0, 1]", head_share)
    head_share = float(head_share)
    item = Columns.of(columns).item if item is None else item
    lf = as_polars(data, "data").lazy()
    names = lf.collect_schema().names()
    for role, column in (("item", item), ("count", count)):
        if column is not None and column not in names:
            fix = f"name it with {role}=..." + (" or columns=prm.Columns(item=...)" if role == "item" else "")
            raise ColumnNotFoundError.from_missing_and_available(
                column, role, names, where="`data`", remedy=fix
            )
    schema = lf.collect_schema()
    if count is not None and not schema[count].is_numeric():
        raise ColumnTypeError.from_dtype(count, "count", "numeric", schema[count])
    table, n_head = _head_and_tail(lf, item, count, head_share)
    what = count if count is not None else f"rows per {item}"
    log = _log_axis(table.get_column("volume"), log_y)
    chart = _tail_chart(altair, table, n_head, item, what, log=log).properties(
        title=f"{title} (head: {head_share:.0%} of {what})", width=480, height=280
    )
    save(chart, path)
    return chart


def _log_axis(volume: pl.Series, log_y: bool | None) -> bool:
    """Whether the y axis is logarithmic: as asked, else when the head is 100x the tail."""
    if log_y is not None and not isinstance(log_y, bool):
        raise InvalidParameterError.out_of_domain("log_y", "True, False or None", log_y)
    lowest, highest = volume.min(), volume.max()
    if log_y is None:
        return bool(volume.len() and lowest > 0 and highest >= LOG_RATIO * lowest)  # type: ignore[operator]
    if log_y and volume.len() and not lowest > 0:  # type: ignore[operator]
        raise InvalidParameterError.out_of_domain(
            "log_y", "False for items of volume 0 (no logarithm)", log_y
        )
    return log_y


LOG_RATIO = 100
"""long_tail's y axis is logarithmic by default when the head's largest volume is this times the tail's."""


def _tail_chart(  # noqa: PLR0913
    altair: Any,  # noqa: ANN401  (the module)
    table: pl.DataFrame,
    n_head: int,
    item: str,
    what: str,
    *,
    log: bool,
) -> alt.LayerChart:
    head_label = f"head: {n_head} items"
    tail_label = f"tail: {len(table) - n_head} items"
    # Item i spans [i, i + 1) (step-after): close each part with a point at its end, so the head's
    # last item has its width and the tail begins where the head ends.
    rows = table.to_dicts()
    for last in (n_head, len(rows)):
        if last and last <= len(rows):
            rows.append({**rows[last - 1], "popularity_rank": rows[last - 1]["popularity_rank"] + 1})
    base = altair.Chart(altair.Data(values=rows))
    scale = altair.Scale(type="log") if log else altair.Scale(type="linear")
    area = base.mark_area(opacity=0.45, interpolate="step-after", line=True).encode(
        x=altair.X(
            "popularity_rank:Q",
            title="items, most popular first",
            scale=altair.Scale(domain=[1, len(table) + 1]),
        ),
        y=altair.Y("volume:Q", title=what, stack=None, scale=scale),  # the parts side by side, not stacked
        color=altair.Color(
            "part:N",
            scale=altair.Scale(domain=[head_label, tail_label], range=["#1f77b4", "#ff7f0e"]),
            title=None,
        ),
        tooltip=[
            f"{item}:N",
            altair.Tooltip("volume:Q", title=what),
            "popularity_rank:Q",
            altair.Tooltip("cumulative_share:Q", format=".1%"),
        ],
    )
    split = (
        altair.Chart(altair.Data(values=[{"x": n_head + 1}]))
        .mark_rule(color="red", strokeDash=[6, 4])
        .encode(x="x:Q")
    )
    chart: alt.LayerChart = altair.layer(area, split)
    return chart


def _head_and_tail(
    lf: pl.LazyFrame, item: str, count: str | None, head_share: float
) -> tuple[pl.DataFrame, int]:
    """Items by volume, most popular first, each labelled head or tail; and the head's size."""
    if count is None:
        volume = lf.group_by(item).agg(pl.len().alias("volume"))
    else:
        volume = lf.group_by(item).agg(pl.col(count).sum().alias("volume"))
    table = (
        volume.sort(["volume", item], descending=[True, False])
        .with_columns(
            pl.int_range(1, pl.len() + 1).alias("popularity_rank"),
            (pl.col("volume").cum_sum() / pl.col("volume").sum()).alias("cumulative_share"),
            pl.col(item).cast(pl.String),
        )
        .collect()
    )
    # An item is in the head while the volume before it is still short of the share.
    before = table["cumulative_share"] - table["volume"] / table["volume"].sum()
    in_head = before < head_share
    n_head = int(in_head.sum())
    n_tail = len(table) - n_head
    head_label, tail_label = f"head: {n_head} items", f"tail: {n_tail} items"
    parts = pl.Series("part", [head_label if h else tail_label for h in in_head], dtype=pl.String)
    return table.with_columns(parts), n_head


def coverage(  # noqa: PLR0913
    frame: pl.DataFrame | pl.LazyFrame,
    ks: Sequence[int] = (1, 5, 10, 20, 50, 100),
    *,
    by: str | Sequence[str] | None = None,
    catalog: Catalog = None,
    columns: ColumnsLike = None,
    title: str = "Catalog coverage",
    path: str | Path | None = None,
) -> alt.Chart:
    """Plot catalog coverage against the cutoff k, one line per `by` group.

    Parameters
    ----------
    frame
        The evaluation frame (query, item, score or rank; no relevance needed).
    ks
        The cutoffs, computed together in one :func:`evaluate` call.
    by
        Grouping keys (a model, a run): one line each.
    catalog
        As for :func:`~polars_rankmetrics.coverage`.
    columns
        Column names of the frame; defaults to ``Columns()``.
    title
        The chart's title.
    path
        Where to save the chart (``.png``, ``.svg``, ``.html``, ``.json``).

    Returns
    -------
    altair.Chart
        Coverage (y, a share) against k (x), with a point at each cutoff.

    Raises
    ------
    ImportError
        Altair is not installed.
    InvalidParameterError
        An empty `ks`, or a cutoff that is not a positive integer.
    """
    altair = _altair()
    ks = cutoffs(ks)
    keys = list(normalise_by(by))
    names = [f"coverage@{k}" for k in ks]
    metrics = [coverage_metric(k, catalog=catalog) for k in ks]
    result = collect(evaluate(as_polars(frame).lazy(), metrics, by=keys or None, columns=columns))
    long = result.unpivot(index=keys, on=names, variable_name="metric", value_name="coverage").with_columns(
        pl.col("metric").str.split("@").list.get(1).cast(pl.Int64).alias("k")
    )
    if keys:
        long = long.with_columns(
            pl.concat_str([pl.col(c).cast(pl.String) for c in keys], separator=" / ").alias("group")
        )
    encoding: dict[str, Any] = {
        # A log scale once the cutoffs span more than a decade and a bit.
        "x": altair.X(
            "k:Q", title="k (cutoff)", scale=altair.Scale(type="log" if ks[-1] >= 20 * ks[0] else "linear")
        ),
        "y": altair.Y("coverage:Q", title="share of the catalog recommended", axis=altair.Axis(format="%")),
        "tooltip": ["k:Q", altair.Tooltip("coverage:Q", format=".2%"), *(["group:N"] if keys else [])],
    }
    if keys:
        encoding["color"] = altair.Color("group:N", title=" / ".join(keys))
    data = long.select("k", "coverage", *(["group"] if keys else [])).to_dicts()
    chart: alt.Chart = (
        altair.Chart(altair.Data(values=data))
        .mark_line(point=True)
        .encode(**encoding)
        .properties(title=title, width=420, height=280)
    )
    save(chart, path)
    return chart


def pr_curve(  # noqa: PLR0913
    frame: pl.DataFrame | pl.LazyFrame,
    ks: Sequence[int] = (1, 2, 3, 5, 10, 20, 50, 100),
    *,
    by: str | Sequence[str] | None = None,
    columns: ColumnsLike = None,
    title: str = "Precision-recall curve",
    path: str | Path | None = None,
) -> alt.LayerChart:
    """Plot mean precision@k against mean recall@k over the cutoffs `ks`, one line per `by` group.

    Parameters
    ----------
    frame
        The evaluation frame, as for :func:`~polars_rankmetrics.evaluate`.
    ks
        The cutoffs, computed together by :func:`~polars_rankmetrics.pr_curve`.
    by
        Grouping keys (a model, a run): one line each.
    columns
        Column names of the frame; defaults to ``Columns()``.
    title
        The chart's title.
    path
        Where to save the chart (``.png``, ``.svg``, ``.html``, ``.json``).

    Returns
    -------
    altair.LayerChart
        Precision (y) against recall (x), a point at each cutoff, labelled
        ``k=...`` beside it (and in the tooltip).

    Raises
    ------
    ImportError
        Altair is not installed.
    RankMetricsError
        An empty `ks` or a cutoff that is not a positive integer.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "d"],
    ...     "score": [0.9, 0.5, 0.1, 0.8, None], "relevance": [0, 1, 1, 1, 1]})
    >>> chart = prm.plots.pr_curve(df, ks=[1, 2, 3])
    >>> pl.DataFrame(chart.data.values)
    shape: (3, 3)
    ┌─────┬───────────┬────────┐
    │ k   ┆ precision ┆ recall │
    │ --- ┆ ---       ┆ ---    │
    │ i64 ┆ f64       ┆ f64    │
    ╞═════╪═══════════╪════════╡
    │ 1   ┆ 0.5       ┆ 0.25   │
    │ 2   ┆ 0.5       ┆ 0.5    │
    │ 3   ┆ 0.5       ┆ 0.75   │
    └─────┴───────────┴────────┘
    """
    altair = _altair()
    keys = list(normalise_by(by))
    curve = collect(pr_curve_frame(as_polars(frame).lazy(), ks, by=keys or None, columns=columns))
    if keys:
        curve = curve.with_columns(
            pl.concat_str([pl.col(c).cast(pl.String) for c in keys], separator=" / ").alias("group")
        )
    encoding: dict[str, Any] = {
        "x": altair.X("recall:Q", title="recall@k", scale=altair.Scale(domain=[0, 1])),
        "y": altair.Y("precision:Q", title="precision@k", scale=altair.Scale(domain=[0, 1])),
        "order": "k:Q",
        "tooltip": [
            "k:Q",
            altair.Tooltip("precision:Q", format=".3f"),
            altair.Tooltip("recall:Q", format=".3f"),
            *(["group:N"] if keys else []),
        ],
    }
    if keys:
        encoding["color"] = altair.Color("group:N", title=" / ".join(keys))
    data = curve.select("k", "precision", "recall", *(["group"] if keys else [])).to_dicts()
    line = altair.Chart().mark_line(point=True).encode(**encoding)
    # Each point names its cutoff: "k=10" beside it, in the line's colour.
    labels = (
        altair.Chart()
        .transform_calculate(label="'k=' + datum.k")
        .mark_text(align="left", dx=5, dy=-6, fontSize=10)
        .encode(
            x="recall:Q",
            y="precision:Q",
            text="label:N",
            **({"color": altair.Color("group:N", legend=None)} if keys else {}),
        )
    )
    chart: alt.LayerChart = altair.layer(line, labels, data=altair.Data(values=data)).properties(
        title=title, width=420, height=280
    )
    save(chart, path)
    return chart
