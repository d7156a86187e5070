"""Arguments of the wrong kind give the library's own error (issue 39: the contract test's last xfails).

Each case is one the generated contract test (tests/property/test_contract.py) found raising
Python's or a dependency's exception; here each is written out so it cannot pass by a lucky draw.
"""

from __future__ import annotations

import importlib.util

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.exceptions._parameters import check_choice

FRAME = pl.DataFrame(
    {
        "query": ["q1", "q1", "q2", "q2"],
        "item": ["a", "b", "a", "c"],
        "score": [2.0, 1.0, 2.0, 1.0],
        "relevance": [1, 0, 0, 1],
    }
)
PER_QUERY = pl.DataFrame(
    {
        "system": ["s1", "s1", "s1", "s2", "s2", "s2"],
        "query": ["q1", "q2", "q3", "q1", "q2", "q3"],
        "ndcg@10": [0.5, 0.25, 0.75, 0.1, 0.9, 0.3],
    }
)


@pytest.mark.parametrize("spec", [None, "ndcg@10", ["ndcg@10"], ("map",), 3])
def test_metric_refuses_what_is_not_a_spec(spec: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match="spec"):
        prm.Metric(spec)  # type: ignore[arg-type]


def test_a_frame_is_no_choice() -> None:
    # A frame's == builds a frame (or raises Polars' ComputeError): it is none of the choices.
    with pytest.raises(prm.InvalidParameterError, match="test"):
        check_choice(FRAME, "test", ("t", "tukey"))
    check_choice("t", "test", ("t", "tukey"))  # a choice still passes


@pytest.mark.parametrize("option", ["ap_denominator", "missing", "no_relevant", "ties"])
def test_conventions_refuse_a_frame_as_a_setting(option: str) -> None:
    with pytest.raises(prm.RankMetricsError, match=option):
        prm.Conventions(**{option: FRAME})


def test_significance_refuses_a_frame_as_a_test_or_method() -> None:
    with pytest.raises(prm.InvalidParameterError, match="test"):
        prm.compare(PER_QUERY, by="system", test=FRAME)  # type: ignore[arg-type]
    with pytest.raises(prm.InvalidParameterError, match="test"):
        prm.discriminative_power(PER_QUERY, by="system", test=FRAME)  # type: ignore[arg-type]
    means = pl.DataFrame({"system": ["a", "b", "c"], "x": [0.1, 0.2, 0.3], "y": [0.3, 0.1, 0.2]})
    with pytest.raises(prm.InvalidParameterError, match="method"):
        prm.rank_correlation(means, x="x", y="y", method=FRAME)  # type: ignore[arg-type]


def test_rbo_refuses_a_frame_as_tie_handling() -> None:
    with pytest.raises(prm.InvalidParameterError, match="tie_handling"):
        prm.rbo(reference=FRAME, tie_handling=FRAME)  # type: ignore[arg-type]


@pytest.mark.parametrize("ks", [1.5, 3, None, float("inf"), "5"])
def test_pr_curve_refuses_a_number_for_the_cutoffs(ks: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match="ks"):
        prm.pr_curve(FRAME, ks)  # type: ignore[arg-type]


needs_altair = pytest.mark.skipif(importlib.util.find_spec("altair") is None, reason="plots need altair")


@needs_altair
@pytest.mark.parametrize("ks", [1.5, 3, None, True])
def test_coverage_plot_refuses_a_number_for_the_cutoffs(ks: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match="ks"):
        prm.plots.coverage(FRAME, ks)  # type: ignore[arg-type]


@needs_altair
@pytest.mark.parametrize("path", ["", 3, "chart.txt"])
def test_plots_refuse_a_path_they_cannot_save_to(path: object) -> None:
    with pytest.raises(prm.RankMetricsError, match="path"):
        prm.plots.long_tail(FRAME, path=path)  # type: ignore[arg-type]
    with pytest.raises(prm.RankMetricsError, match="path"):
        prm.plots.coverage(FRAME, (1, 2), path=path)  # type: ignore[arg-type]


@needs_altair
def test_plots_refuse_a_non_frame() -> None:
    with pytest.raises(prm.InvalidInputError, match="frame"):
        prm.plots.coverage(None)  # type: ignore[arg-type]
    with pytest.raises(prm.InvalidInputError, match="data"):
        prm.plots.long_tail([1, 2])  # type: ignore[arg-type]


@needs_altair
def test_deltas_plot_refuses_a_list_for_the_metric() -> None:
    with pytest.raises(prm.InvalidInputError, match="metric"):
        prm.plots.deltas(PER_QUERY, by="system", baseline="s1", metric=["ndcg@10"])  # type: ignore[arg-type]


@needs_altair
@pytest.mark.parametrize("head_share", [None, float("nan"), "0.5"])
def test_long_tail_refuses_a_share_that_is_no_number(head_share: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match="head_share"):
        prm.plots.long_tail(FRAME, head_share=head_share)  # type: ignore[arg-type]


@needs_altair
def test_long_tail_refuses_a_text_count_column() -> None:
    with pytest.raises(prm.ColumnTypeError, match="count column 'query'"):
        prm.plots.long_tail(FRAME, count="query")


@needs_altair
def test_plots_raise_the_librarys_error_from_inside_their_plan() -> None:
    # A NaN score is found inside the lazy plan: the chart collects through prm.collect.
    bad = FRAME.with_columns(score=pl.lit(float("nan")))
    with pytest.raises(prm.InvalidDataError, match="NaN"):
        prm.plots.pr_curve(bad)
