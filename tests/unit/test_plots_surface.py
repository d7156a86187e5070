"""long_tail: columns=, a log axis where the head dwarfs the tail, labelled with what it was given; means."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm

pytest.importorskip("altair")


def _y(chart: object) -> dict[str, object]:
    return chart.to_dict()["layer"][0]["encoding"]["y"]  # type: ignore[attr-defined, no-any-return]


def test_long_tail_takes_columns_and_labels_the_count_it_was_given() -> None:
    counts = pl.DataFrame({"movie": ["a", "b", "c"], "plays": [50, 30, 20]})
    chart = prm.plots.long_tail(counts, count="plays", columns=prm.Columns(item="movie"))
    assert _y(chart)["title"] == "plays"
    assert _y(chart)["scale"]["type"] == "linear"  # 50 is not 100x 20
    assert "of plays" in chart.to_dict()["title"]
    same = prm.plots.long_tail(counts, item="movie", count="plays").to_dict()
    assert same == chart.to_dict()  # the old keyword works alike
    rows = pl.DataFrame({"movie": ["a", "a", "b"]})
    assert _y(prm.plots.long_tail(rows, columns={"item": "movie"}))["title"] == "rows per movie"


def test_long_tail_is_logarithmic_by_default_when_the_head_is_100x_the_tail() -> None:
    counts = pl.DataFrame({"item": ["a", "b", "c", "d"], "n": [10_000, 500, 20, 100]})
    assert _y(prm.plots.long_tail(counts, count="n"))["scale"]["type"] == "log"
    assert _y(prm.plots.long_tail(counts, count="n", log_y=False))["scale"]["type"] == "linear"
    just_under = pl.DataFrame({"item": ["a", "b"], "n": [99, 1]})
    assert _y(prm.plots.long_tail(just_under, count="n"))["scale"]["type"] == "linear"
    assert _y(prm.plots.long_tail(just_under, count="n", log_y=True))["scale"]["type"] == "log"
    zero = pl.DataFrame({"item": ["a", "b"], "n": [1000, 0]})
    assert _y(prm.plots.long_tail(zero, count="n"))["scale"]["type"] == "linear"  # no log of 0
    with pytest.raises(prm.InvalidParameterError, match="log_y"):
        prm.plots.long_tail(zero, count="n", log_y=True)


def test_long_tail_missing_column_names_the_parameter() -> None:
    with pytest.raises(prm.ColumnNotFoundError, match=r"columns=prm\.Columns\(item=\.\.\.\)"):
        prm.plots.long_tail(pl.DataFrame({"movie": ["a"]}))
    with pytest.raises(prm.ColumnNotFoundError, match=r"count column 'plays' not found.*count="):
        prm.plots.long_tail(pl.DataFrame({"item": ["a"]}), count="plays")


def test_means_draws_summarize_means_and_intervals(tmp_path: Path) -> None:
    pytest.importorskip("scipy")
    per_query = pl.DataFrame(
        {
            "model": ["a"] * 4 + ["b"] * 4,
            "user_id": [1, 2, 3, 4] * 2,
            "ndcg@10": [0.2, 0.4, 0.1, 0.5, 0.5, 0.6, 0.3, 0.7],
            "mrr": [1.0, 0.5, 0.5, 1.0, 1.0, 1.0, 0.5, 1.0],
        }
    )
    summary = prm.summarize(per_query, by="model")
    chart = prm.plots.means(summary, path=tmp_path / "means.html")
    drawn = pl.DataFrame(chart.data.values)
    expected = summary.select(pl.col("model"), "metric", "n", "mean", "ci_low", "ci_high")
    assert drawn.sort("model", "metric").equals(expected.sort("model", "metric"))
    spec = chart.to_dict()
    assert spec["facet"]["field"] == "metric"
    assert {layer["mark"]["type"] for layer in spec["spec"]["layer"]} == {"rule", "point"}
    assert (tmp_path / "means.html").exists()
    only = pl.DataFrame(prm.plots.means(summary, metrics="mrr").data.values)
    assert set(only["metric"]) == {"mrr"}
    with pytest.raises(prm.ColumnNotFoundError, match=r"prm\.summarize"):
        prm.plots.means(per_query)
