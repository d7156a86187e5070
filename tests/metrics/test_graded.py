"""graded (metrics/graded.py): dcg and ndcg, with linear, exponential, mapped and binary gains, by hand.

Peer oracles: pytrec_eval (``tests/reference/test_pytrec_eval.py``,
``test_pytrec_eval_all_trec.py``), the trec_eval binary
(``tests/conformance/``) and the presets of ``tests/reference/test_preset_*.py``.
"""

from __future__ import annotations

from math import log2

import pytest

import polars_rankmetrics as prm
from metrics._helpers import (
    NDCG5_Q1,
    TIED,
    TREC_FRAME,
    TWO_HITS_OF_THREE,
    assert_trec_frame_values,
    by_policy,
    per_query,
)

# q1 of TREC_FRAME: b (grade 2) at rank 3, d (1) at rank 5; ideal e (3), b (2), d (1).
EXPECTED_Q1 = {
    "ndcg@5": NDCG5_Q1,
    "ndcg": (2 / log2(4) + 1 / log2(6)) / (3 + 2 / log2(3) + 1 / log2(4)),
    "ndcg@1": 0.0,
    "dcg@3": 2 / log2(4),
}


def test_hand_computed_values() -> None:
    assert_trec_frame_values(EXPECTED_Q1)


def test_exponential_and_mapped_gain() -> None:
    exp = per_query(TREC_FRAME, ["ndcg@5"], gain="exponential")["q1"]["ndcg@5"]
    assert exp == pytest.approx((3 / log2(4) + 1 / log2(6)) / (7 + 3 / log2(3) + 1 / log2(4)))
    mapped = per_query(TREC_FRAME, ["ndcg@5"], gain={2: 10, 3: 0})["q1"]["ndcg@5"]
    # e's grade 3 now gains 0 and leaves the ideal list; unmapped grade 1 keeps gain 1.
    assert mapped == pytest.approx((10 / log2(4) + 1 / log2(6)) / (10 + 1 / log2(3)))


def test_binary_gain_by_hand() -> None:
    # Binary gain: every relevant item gains 1 whatever its grade; the grade-3 item no longer dominates.
    dcg = 1 / log2(3) + 1 / log2(5)
    ideal = 1 + 1 / log2(3) + 1 / log2(4)
    got = prm.evaluate(TWO_HITS_OF_THREE, ["ndcg"], gain="binary").item()
    assert got == pytest.approx(dcg / ideal, abs=1e-15)
    # relevance_level 2: only the grade-3 item is relevant, and gains 1.
    level2 = prm.evaluate(TWO_HITS_OF_THREE, ["ndcg"], gain="binary", relevance_level=2).item()
    assert level2 == pytest.approx(1 / log2(5), abs=1e-15)


def test_tie_policies() -> None:
    # Gains x 1, y 0 in the tied top 2; the ideal z (2), x (1).
    ideal = 2 + 1 / log2(3)
    best, worst = 1 / ideal, (1 / log2(3)) / ideal
    want = {"text": worst, "optimistic": best, "pessimistic": worst, "average": (best + worst) / 2}
    assert by_policy(TIED, "ndcg@2") == pytest.approx(want, abs=1e-15)
    assert by_policy(TIED, "dcg@1") == {"text": 0.0, "optimistic": 1.0, "pessimistic": 0.0, "average": 0.5}
