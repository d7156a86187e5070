"""binary (metrics/binary.py): precision, recall, f1, hit_rate, r_precision... by hand.

Peer oracles: pytrec_eval (``tests/reference/test_pytrec_eval.py``,
``test_pytrec_eval_all_trec.py``), the trec_eval binary
(``tests/conformance/``) and the presets of ``tests/reference/test_preset_*.py``.
"""

from __future__ import annotations

from metrics._helpers import assert_trec_frame_values

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
