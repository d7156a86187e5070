"""Hand-computed values from the definitions, on a frame with every edge case."""

from __future__ import annotations

from math import log2

import polars as pl
import pytest

import polars_rankmetrics as prm

# q1 in trec_eval order (score desc, ties by item text desc):
#   a 0.9 (grade 0), c 0.8 (0), b 0.8 (2), f 0.5 (unjudged), d 0.1 (1); e judged 3, never retrieved.
# q2: judged, nothing relevant.  q3: run only (no judgments).  q4: qrels only.
FRAME = pl.DataFrame(
    {
        "query": ["q1"] * 6 + ["q2", "q2", "q3", "q4"],
        "item": ["a", "b", "c", "d", "e", "f", "a", "b", "a", "z"],
        "score": [0.9, 0.8, 0.8, 0.1, None, 0.5, 0.3, 0.2, 0.7, None],
        "relevance": [0, 2, 0, 1, 3, None, 0, -1, None, 1],
    }
)

AP_Q1 = (1 / 3 + 2 / 5) / 3
NDCG5_Q1 = (2 / log2(4) + 1 / log2(6)) / (3 + 2 / log2(3) + 1 / log2(4))
EXPECTED_Q1 = {
    "precision@3": 1 / 3,
    "P_5": 2 / 5,
    "precision": 2 / 5,  # set_P: hits / num_ret
    "recall@3": 1 / 3,
    "recall@5": 2 / 3,
    "f1@3": 2 * 1 / (3 + 3),
    "hit_rate@2": 0.0,
    "hit_rate@3": 1.0,
    "mrr": 1 / 3,
    "mrr@2": 0.0,
    "map": AP_Q1,
    "map@3": (1 / 3) / 3,
    "ndcg@5": NDCG5_Q1,
    "ndcg": (2 / log2(4) + 1 / log2(6)) / (3 + 2 / log2(3) + 1 / log2(4)),
    "ndcg@1": 0.0,
    "dcg@3": 2 / log2(4),
    "r_precision": 1 / 3,
    "num_ret": 5,
    "num_rel": 3,
    "num_rel_ret": 2,
}


def per_query(frame: pl.DataFrame, metrics: list[str], **options: object) -> dict[str, dict[str, float]]:
    out = prm.evaluate(frame, metrics, per_query=True, **options)  # type: ignore[arg-type]
    return {row.pop("query"): row for row in out.iter_rows(named=True)}


def test_hand_computed_values() -> None:
    got = per_query(FRAME, list(EXPECTED_Q1))
    assert set(got) == {"q1", "q2"}  # q3 has no judgments, q4 retrieved nothing
    assert got["q1"] == pytest.approx(EXPECTED_Q1, abs=1e-12)
    zeros = {name: 0 for name in EXPECTED_Q1 if name not in ("num_ret", "num_rel", "num_rel_ret")}
    assert got["q2"] == pytest.approx({**zeros, "num_ret": 2, "num_rel": 0, "num_rel_ret": 0})


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


def test_exponential_and_mapped_gain() -> None:
    exp = per_query(FRAME, ["ndcg@5"], gain="exponential")["q1"]["ndcg@5"]
    assert exp == pytest.approx((3 / log2(4) + 1 / log2(6)) / (7 + 3 / log2(3) + 1 / log2(4)))
    mapped = per_query(FRAME, ["ndcg@5"], gain={2: 10, 3: 0})["q1"]["ndcg@5"]
    # e's grade 3 now gains 0 and leaves the ideal list; unmapped grade 1 keeps gain 1.
    assert mapped == pytest.approx((10 / log2(4) + 1 / log2(6)) / (10 + 1 / log2(3)))


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


def test_ap_denominator_and_binary_gain_by_hand() -> None:
    # Relevant items at ranks 2 (grade 1) and 4 (grade 3) of four, a third (grade 1) never retrieved.
    frame = pl.DataFrame(
        {
            "query": ["q"] * 5,
            "item": list("abcde"),
            "score": [5.0, 4.0, 3.0, 2.0, None],
            "relevance": [0, 1, 0, 3, 1],
        }
    )
    names = ["map@2", "map@3", "map"]
    # Precisions at the hits: 1/2 (rank 2), 2/4 (rank 4); R = 3.
    want = {
        "relevant": (0.5 / 3, 0.5 / 3, 1.0 / 3),
        "found": (0.5 / 1, 0.5 / 1, 1.0 / 2),
        "min_k_relevant": (0.5 / 2, 0.5 / 3, 1.0 / 3),
    }
    for denominator, values in want.items():
        got = prm.evaluate(frame, names, ap_denominator=denominator).row(0)  # type: ignore[arg-type]
        assert got == pytest.approx(values, abs=1e-15), denominator
    assert prm.evaluate(frame, names).row(0) == prm.evaluate(frame, names, ap_denominator="relevant").row(0)
    # Binary gain: every relevant item gains 1 whatever its grade; the grade-3 item no longer dominates.
    dcg = 1 / log2(3) + 1 / log2(5)
    ideal = 1 + 1 / log2(3) + 1 / log2(4)
    assert prm.evaluate(frame, ["ndcg"], gain="binary").item() == pytest.approx(dcg / ideal, abs=1e-15)
    # relevance_level 2: only the grade-3 item is relevant, and gains 1.
    level2 = prm.evaluate(frame, ["ndcg"], gain="binary", relevance_level=2).item()
    assert level2 == pytest.approx(1 / log2(5), abs=1e-15)
