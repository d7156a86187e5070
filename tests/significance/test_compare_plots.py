"""compare.plots: per-query win/loss deltas and metric@k curves, with tooltips, saved as PNG/SVG."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import plots
from significance.compare_data import frame

PER_QUERY = frame(
    {
        "base": [0.5, 0.25, 0.75, 0.5, 0.0],
        "x": [0.75, 0.25, 0.5, 1.0, 0.25],  # deltas +0.25, 0, -0.25, +0.5, +0.25
        "y": [0.0, 0.5, 0.75, 0.25, 0.0],  # deltas -0.5, +0.25, 0, -0.25, 0
    },
    metric="map",
)


def _bars(chart: object) -> pl.DataFrame:
    return pl.DataFrame(chart.data.values)  # type: ignore[attr-defined]


def test_deltas_sorted_from_largest_win_to_largest_loss_per_system() -> None:
    """One bar per (system, query): its delta, outcome and position; the baseline has no bars."""
    bars = _bars(plots.deltas(PER_QUERY, by="system", baseline="base", metric="map"))
    x = bars.filter(pl.col("system") == "x")
    assert x["delta"].to_list() == [0.5, 0.25, 0.25, 0.0, -0.25]
    assert x["query"].to_list() == ["q03", "q00", "q04", "q01", "q02"]  # equal deltas: by query
    assert x["outcome"].to_list() == ["win", "win", "win", "tie", "loss"]
    assert x["position"].to_list() == [1, 2, 3, 4, 5]
    y = bars.filter(pl.col("system") == "y")
    assert y["delta"].to_list() == [0.25, 0.0, 0.0, -0.25, -0.5]
    assert y["outcome"].to_list() == ["win", "tie", "tie", "loss", "loss"]
    assert sorted(bars["system"].unique()) == ["x", "y"]
    row = x.row(0, named=True)
    assert (row["value"], row["baseline_value"]) == (1.0, 0.5)


def test_deltas_chart_has_tooltips_and_one_facet_row_per_system() -> None:
    """The spec: bars, faceted by system, colour by outcome, tooltips with query, both values and delta."""
    spec = plots.deltas(PER_QUERY, by="system", baseline="base", metric="map").to_dict()
    assert spec["facet"]["row"]["field"] == "system"
    bars, ties = spec["spec"]["layer"]
    assert bars["mark"]["type"] == "bar"
    tooltip = [t["field"] for t in bars["encoding"]["tooltip"]]
    assert tooltip == ["query", "system", "value", "baseline_value", "delta"]
    assert bars["encoding"]["color"]["scale"]["domain"] == ["win", "tie", "loss"]
    assert spec["title"] == "map: per-query delta against base"
    # Ties have no bar: a diamond marks each on the axis.
    assert ties["mark"]["type"] == "point"
    assert ties["transform"] == [{"filter": "(datum.outcome === 'tie')"}]
    # Few queries: each bar is named by its query, in each system's own order.
    assert bars["encoding"]["x"]["field"] == "query"
    assert bars["encoding"]["x"]["sort"] == {"field": "position", "op": "min", "order": "ascending"}
    assert spec["resolve"]["scale"]["x"] == "independent"


def test_deltas_chart_with_many_queries_shows_positions() -> None:
    many = pl.DataFrame(
        {
            "system": ["base"] * 40 + ["x"] * 40,
            "query": [f"q{i:02}" for i in range(40)] * 2,
            "map": [0.5] * 40 + [i / 40 for i in range(40)],
        }
    )
    spec = plots.deltas(many, by="system", baseline="base", metric="map").to_dict()
    assert spec["spec"]["layer"][0]["encoding"]["x"]["field"] == "position"
    assert "resolve" not in spec


def test_deltas_missing_queries_follow_the_policy() -> None:
    """A query missing for a system: an error naming it, or scored 0 with missing='zero'."""
    gap = PER_QUERY.filter(~((pl.col("system") == "x") & (pl.col("query") == "q03")))
    with pytest.raises(prm.InvalidDataError, match="system 'x' has no row for 1 of the 5 queries: 'q03'"):
        plots.deltas(gap, by="system", baseline="base", metric="map")
    bars = _bars(plots.deltas(gap, by="system", baseline="base", metric="map", missing="zero"))
    assert bars.filter((pl.col("system") == "x") & (pl.col("query") == "q03"))["delta"].to_list() == [-0.5]


def test_deltas_errors_name_the_culprit() -> None:
    """An unknown baseline or metric column: the library's errors."""
    with pytest.raises(prm.InvalidParameterError, match="baseline 'bm25' is not in column 'system'"):
        plots.deltas(PER_QUERY, by="system", baseline="bm25", metric="map")
    with pytest.raises(prm.ColumnNotFoundError, match="metric column 'ndcg' not found"):
        plots.deltas(PER_QUERY, by="system", baseline="base", metric="ndcg")


EVALUATION = pl.DataFrame(
    {
        "run": ["bm25", "dense"],
        "ndcg@1": [0.25, 0.5],
        "ndcg@10": [0.5, 0.75],
        "ndcg@5": [0.375, 0.625],
        "map": [0.1, 0.2],
    }
)


def test_metric_at_k_one_point_per_system_and_cutoff() -> None:
    """Every ndcg@k column, k read as a number (10 after 5), other metrics left out."""
    points = _bars(plots.metric_at_k(EVALUATION, "ndcg", by="run"))
    assert points.rows() == [
        ("bm25", 1, 0.25),
        ("bm25", 5, 0.375),
        ("bm25", 10, 0.5),
        ("dense", 1, 0.5),
        ("dense", 5, 0.625),
        ("dense", 10, 0.75),
    ]


def test_metric_at_k_from_evaluate_with_tooltips() -> None:
    """From prm.evaluate(..., by=...): a line with points per system; tooltips on system, k, value."""
    run = prm.read_trec_run(prm.demo_path("results.test"))
    qrels = prm.read_trec_qrels(prm.demo_path("qrels.test"))
    both = pl.concat(
        [
            run.with_columns(pl.lit("full").alias("run")),
            run.filter(pl.col("score").rank("ordinal", descending=True).over("query") <= 5).with_columns(
                pl.lit("top5").alias("run")
            ),
        ]
    )
    evaluation = prm.evaluate(
        prm.join_run_qrels(both, qrels, by="run"), [f"recall@{k}" for k in (1, 5, 10)], by="run"
    )
    chart = plots.metric_at_k(evaluation, "recall", by="run")
    points = _bars(chart)
    top5 = points.filter(pl.col("system") == "top5")["value"].to_list()
    assert top5[1] == top5[2]  # nothing retrieved below rank 5: recall@10 == recall@5
    spec = chart.to_dict()
    assert spec["mark"] == {"type": "line", "point": True}
    assert [t["field"] for t in spec["encoding"]["tooltip"]] == ["system", "k", "value"]


def test_metric_at_k_errors() -> None:
    """No {metric}@k column, an unknown by column, an empty metric name."""
    with pytest.raises(prm.ColumnNotFoundError, match="a column recall@k not found"):
        plots.metric_at_k(EVALUATION, "recall", by="run")
    with pytest.raises(prm.ColumnNotFoundError, match="by column 'system' not found"):
        plots.metric_at_k(EVALUATION, by="system")
    with pytest.raises(prm.InvalidParameterError, match="`metric` must be"):
        plots.metric_at_k(EVALUATION, "", by="run")


def test_pandas_input() -> None:
    """A pandas frame plots as the Polars frame does."""
    assert _bars(plots.metric_at_k(EVALUATION.to_pandas(), by="run")).equals(
        _bars(plots.metric_at_k(EVALUATION, by="run"))
    )
    pandas_bars = _bars(plots.deltas(PER_QUERY.to_pandas(), by="system", baseline="base", metric="map"))
    assert pandas_bars.equals(_bars(plots.deltas(PER_QUERY, by="system", baseline="base", metric="map")))


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_charts_save_as_png_and_svg_through_vl_convert(tmp_path: Path, suffix: str) -> None:
    """path= writes the image; PNG starts with its signature, SVG is an <svg> document."""
    for name, draw in (
        ("wins", lambda p: plots.deltas(PER_QUERY, by="system", baseline="base", metric="map", path=p)),
        ("curve", lambda p: plots.metric_at_k(EVALUATION, by="run", path=p)),
    ):
        path = tmp_path / f"{name}{suffix}"
        draw(path)
        data = path.read_bytes()
        if suffix == ".png":
            assert data.startswith(b"\x89PNG\r\n\x1a\n")
        else:
            assert b"<svg" in data[:500]


def test_an_unknown_suffix_is_refused(tmp_path: Path) -> None:
    """A path whose suffix names no format: an error before anything is written."""
    with pytest.raises(prm.InvalidParameterError, match=r"`path` must be a file name ending in .png"):
        plots.metric_at_k(EVALUATION, by="run", path=tmp_path / "curve.pdf")
    assert not (tmp_path / "curve.pdf").exists()


def test_the_plots_are_in_prm_plots_too() -> None:
    """prm.plots holds the comparison plots beside long_tail and coverage."""
    assert prm.plots.deltas is plots.deltas
    assert prm.plots.metric_at_k is plots.metric_at_k
