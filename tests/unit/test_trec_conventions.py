"""trec_eval's conventions by hand: the mean over queries, depth, the relevance level, tie breaks, ranks.

The frame with every edge case is ``tests/metrics/_helpers.py``'s; each family's own values on it
are in ``tests/metrics/test_<family>.py``.
"""

from __future__ import annotations

from math import log2

import polars as pl
import pytest
from metrics._helpers import AP_Q1, NDCG5_Q1, per_query
from metrics._helpers import TREC_FRAME as FRAME

import polars_rankmetrics as prm


def test_means_and_population() -> None:
    mean = prm.evaluate(FRAME, ["map", "num_q", "num_rel"])
    assert mean.row(0) == pytest.approx((AP_Q1 / 2, 2, 3))
    zero = prm.evaluate(FRAME, ["map", "num_q", "num_rel"], missing="zero")
    assert zero.row(0) == pytest.approx((AP_Q1 / 3, 3, 4))
    assert prm.population(FRAME).row(0) == (4, 2, 1, 1, 1)


def test_depth_cuts_the_ranking_but_not_the_judgments() -> None:
    got = per_query(FRAME, ["num_ret", "num_rel", "recall", "map", "ndcg"], depth=3)["q1"]
    assert got == pytest.approx(
        {
            "num_ret": 3,
            "num_rel": 3,
            "recall": 1 / 3,
            "map": (1 / 3) / 3,
            "ndcg": (2 / log2(4)) / (3 + 2 / log2(3) + 1 / log2(4)),
        }
    )


def test_relevance_level() -> None:
    got = per_query(FRAME, ["num_rel", "map", "mrr", "ndcg@5"], relevance_level=2)["q1"]
    # b (grade 2) and e (grade 3) are relevant; graded metrics still use every grade.
    assert got == pytest.approx({"num_rel": 2, "map": (1 / 3) / 2, "mrr": 1 / 3, "ndcg@5": NDCG5_Q1})


def test_integer_items_tie_break_on_text_as_trec_eval_does() -> None:
    # On a score tie trec_eval compares docnos as strings: "9" > "10", so 9 ranks first.
    frame = pl.DataFrame({"query": [1, 1], "item": [10, 9], "score": [1.0, 1.0], "relevance": [1, 0]})
    assert prm.evaluate(frame, ["mrr"])["mrr"][0] == 0.5
    as_text = frame.with_columns(pl.col("item").cast(pl.String))
    assert prm.evaluate(as_text, ["mrr"])["mrr"][0] == 0.5


def test_rank_column_orders_ascending_and_ties_by_item_text() -> None:
    frame = pl.DataFrame(
        {
            "query": [1, 1, 1, 1],
            "item": ["a", "b", "c", "d"],
            "rank": [2, 1, 2, None],
            "relevance": [1, 0, 0, 1],
        }
    )
    # order: b (1), c (2, text "c" > "a"), a (2); d judged, not retrieved.
    got = per_query(frame, ["mrr", "num_ret", "recall"])[1]
    assert got == pytest.approx({"mrr": 1 / 3, "num_ret": 3, "recall": 1 / 2})


def test_negative_grades_are_pooled_but_unjudged() -> None:
    frame = pl.DataFrame(
        {"query": [1, 1, 1], "item": ["a", "b", "c"], "score": [3.0, 2.0, 1.0], "relevance": [-1, 1, -2]}
    )
    got = per_query(frame, ["num_rel", "P_3", "ndcg", "dcg@3"], relevance_level=0)[1]
    # With relevance_level=0 every judged grade >= 0 is relevant, never a negative one.
    assert got == pytest.approx({"num_rel": 1, "P_3": 1 / 3, "ndcg": (1 / log2(3)) / 1, "dcg@3": 1 / log2(3)})
