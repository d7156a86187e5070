"""Degenerate results are loud (issue 11, point 3): a RankMetricsWarning says which case and how many."""

from __future__ import annotations

import warnings

import polars as pl
import pytest

import polars_rankmetrics as prm


def test_run_and_qrels_sharing_no_query_id_warns_with_counts() -> None:
    run = pl.DataFrame({"query": ["01", "01", "02"], "item": ["a", "b", "a"], "score": [1.0, 0.5, 0.3]})
    qrels = pl.DataFrame({"query": ["1", "2"], "item": ["a", "a"], "relevance": [1, 1]})
    frame = prm.join_run_qrels(run, qrels)
    with pytest.warns(
        prm.RankMetricsWarning,
        match=r"share no query id \(2 queries only in the run, 2 only in the judgments",
    ):
        out = prm.evaluate(frame, ["map"])
    assert out.is_empty()


def test_no_judged_query_warns() -> None:
    frame = pl.DataFrame(
        {"query": [1, 2], "item": ["a", "b"], "score": [1.0, 0.5], "relevance": [None, None]}
    )
    with pytest.warns(prm.RankMetricsWarning, match="none of the 2 queries has a judged row"):
        prm.evaluate(frame, ["ndcg@10"], per_query=True)


def test_every_retrieved_item_unjudged_warns() -> None:
    frame = pl.DataFrame(
        {"query": [1, 1, 1], "item": ["a", "b", "z"], "score": [1.0, 0.5, None], "relevance": [None, None, 1]}
    )
    with pytest.warns(
        prm.RankMetricsWarning, match=r"every retrieved item is unjudged \(1 evaluated queries\)"
    ):
        assert prm.evaluate(frame, ["map"]).item() == 0.0


def test_coverage_of_whole_lists_with_the_default_catalog_warns() -> None:
    lists = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "c"], "rank": [1, 2, 1, 2]})
    with pytest.warns(prm.RankMetricsWarning, match=r"coverage@2 is 1.0 by construction.*pass catalog="):
        prm.evaluate(lists, ["coverage@2"])


def test_healthy_evaluations_and_explicit_catalogs_do_not_warn() -> None:
    frame = pl.DataFrame(
        {"query": [1, 1, 2, 2], "item": ["a", "b", "a", "c"], "rank": [1, 2, 1, 2], "relevance": [1, 0, 0, 1]}
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # Every row both ranked and judged is an inner join's signature (test_surprises.py): not here.
        warnings.filterwarnings("ignore", category=prm.InnerJoinWarning)
        healthy = prm.evaluate(frame, ["map", prm.coverage(2, catalog=5), "coverage@1"])
        empty = prm.evaluate(frame.head(0), ["map"])  # an empty frame gives an empty result quietly
    assert [str(w.message) for w in caught] == []
    # AP: query 1 finds its relevant item at rank 1 (1), query 2 at rank 2 (1/2); a, b, c are ranked
    # within 2 of a catalog of 5; only a within 1, of the 3 items the lists hold.
    assert healthy.row(0) == pytest.approx((0.75, 3 / 5, 1 / 3))
    assert empty.height == 0


def test_the_warning_is_a_filterable_user_warning() -> None:
    assert issubclass(prm.RankMetricsWarning, UserWarning)
    frame = pl.DataFrame({"query": [1], "item": ["a"], "score": [1.0], "relevance": [None]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=prm.RankMetricsWarning)
        prm.evaluate(frame, ["map"])
