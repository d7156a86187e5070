"""binary (metrics/binary.py): precision, recall, f1, hit_rate, r_precision... by hand.

Peer oracles: pytrec_eval (``tests/reference/test_pytrec_eval.py``,
``test_pytrec_eval_all_trec.py``), the trec_eval binary
(``tests/conformance/``) and the presets of ``tests/reference/test_preset_*.py``.
"""

from __future__ import annotations

import pytest

from metrics._helpers import TIED, TREC_FRAME, assert_trec_frame_values, by_policy, per_query

# q1 of TREC_FRAME: 3 relevant (b, d, e); b at rank 3, d at rank 5; 5 retrieved.
EXPECTED_Q1 = {
    "precision@3": 1 / 3,
    "P_5": 2 / 5,
    "precision": 2 / 5,  # set_P: hits / num_ret
    "recall@3": 1 / 3,
    "recall@5": 2 / 3,
    "f1@3": 2 * 1 / (3 + 3),
    "hit_rate@2": 0.0,
    "hit_rate@3": 1.0,
    "r_precision": 1 / 3,
}


def test_hand_computed_values() -> None:
    assert_trec_frame_values(EXPECTED_Q1)


def test_tie_policies() -> None:
    # The top 1 holds x (relevant) or y; R = 2 (x, z).
    assert by_policy(TIED, "precision@1") == {
        "text": 0.0,
        "optimistic": 1.0,
        "pessimistic": 0.0,
        "average": 0.5,
    }
    assert by_policy(TIED, "recall@1") == {
        "text": 0.0,
        "optimistic": 0.5,
        "pessimistic": 0.0,
        "average": 0.25,
    }


def test_set_measures_and_utility_by_hand() -> None:
    names = ["relative_P_3", "relative_P_5", "set_relative_P", "set_map", "utility"]
    got = per_query(TREC_FRAME, names)
    # q1: 1 hit in the top 3, 2 in the top 5 (all 5 retrieved), R = 3: over min(k, R); set_map is
    # num_rel_ret**2 / (num_ret * R); utility +1 per relevant, -1 per other retrieved item (a, c, f).
    want = {
        "relative_P_3": 1 / 3,
        "relative_P_5": 2 / 3,
        "set_relative_P": 2 / 3,
        "set_map": 4 / 15,
        "utility": -1.0,
    }
    assert got["q1"] == pytest.approx(want, abs=1e-15)
    # q2: nothing relevant, two retrieved.
    assert got["q2"] == {**dict.fromkeys(names, 0.0), "utility": -2.0}
