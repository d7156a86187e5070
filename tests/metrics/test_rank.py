"""rank (metrics/rank.py): mrr and map (AP and its denominators) by hand.

Peer oracles: pytrec_eval (``tests/reference/test_pytrec_eval.py``,
``test_pytrec_eval_all_trec.py``), the trec_eval binary
(``tests/conformance/``) and the presets of ``tests/reference/test_preset_*.py``.
"""

from __future__ import annotations

from math import log2, sqrt

import pytest

import polars_rankmetrics as prm
from metrics._helpers import (
    AP_Q1,
    TIED,
    TREC_FRAME,
    TWO_HITS_OF_THREE,
    assert_trec_frame_values,
    by_policy,
    per_query,
)

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


def test_tie_policies() -> None:
    # x (relevant) at rank 1 or 2, z (relevant) at rank 3; R = 2.
    assert by_policy(TIED, "mrr") == {"text": 0.5, "optimistic": 1.0, "pessimistic": 0.5, "average": 0.75}
    best, worst = (1 / 1 + 2 / 3) / 2, (1 / 2 + 2 / 3) / 2
    want = {"text": worst, "optimistic": best, "pessimistic": worst, "average": (best + worst) / 2}
    assert by_policy(TIED, "map") == pytest.approx(want, abs=1e-15)


def test_gm_map_and_binary_cost_gain_by_hand() -> None:
    # gm_map: the geometric mean of the queries' AP, each floored at 1e-5 (q2's AP is 0).
    assert prm.evaluate(TREC_FRAME, ["gm_map"]).item() == pytest.approx(sqrt(AP_Q1 * 1e-5), rel=1e-12)
    # binG: per relevant retrieved item 1 / log2(2 + items not relevant above it), over R.
    # q1: b below a, c; d below a, c, f (unjudged, so not relevant).
    got = per_query(TREC_FRAME, ["binG"])
    assert got == {
        "q1": {"binG": pytest.approx((1 / log2(4) + 1 / log2(5)) / 3, abs=1e-15)},
        "q2": {"binG": 0.0},
    }
