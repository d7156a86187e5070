"""rank (metrics/rank.py): mrr and map (AP and its denominators) by hand.

Peer oracles: pytrec_eval (``tests/reference/test_pytrec_eval.py``,
``test_pytrec_eval_all_trec.py``), the trec_eval binary
(``tests/conformance/``) and the presets of ``tests/reference/test_preset_*.py``.
"""

from __future__ import annotations

import pytest

import polars_rankmetrics as prm
from metrics._helpers import AP_Q1, TWO_HITS_OF_THREE, assert_trec_frame_values

# q1 of TREC_FRAME: the first relevant item (b) at rank 3, the second (d) at 5, of 3 relevant.
EXPECTED_Q1 = {"mrr": 1 / 3, "mrr@2": 0.0, "map": AP_Q1, "map@3": (1 / 3) / 3}


def test_hand_computed_values() -> None:
    assert_trec_frame_values(EXPECTED_Q1)


def test_ap_denominator_by_hand() -> None:
    names = ["map@2", "map@3", "map"]
    # Precisions at the hits: 1/2 (rank 2), 2/4 (rank 4); R = 3.
    want = {
        "relevant": (0.5 / 3, 0.5 / 3, 1.0 / 3),
        "found": (0.5 / 1, 0.5 / 1, 1.0 / 2),
        "min_k_relevant": (0.5 / 2, 0.5 / 3, 1.0 / 3),
    }
    for denominator, values in want.items():
        got = prm.evaluate(TWO_HITS_OF_THREE, names, ap_denominator=denominator).row(0)  # type: ignore[arg-type]
        assert got == pytest.approx(values, abs=1e-15), denominator
    default = prm.evaluate(TWO_HITS_OF_THREE, names).row(0)
    assert default == prm.evaluate(TWO_HITS_OF_THREE, names, ap_denominator="relevant").row(0)
