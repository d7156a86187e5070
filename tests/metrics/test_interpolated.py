"""interpolated (metrics/interpolated.py): iprec_at_recall, 11pt_avg and Rprec_mult by hand.

trec_eval 10.0's rule: recall level x is reached at the relevant item number round(x * R)
(half away from zero, at least 1); the interpolated precision is the highest precision at a
relevant retrieved item from that one on, 0 if none. Rprec_mult(x) is the precision at rank
int(x * R + 0.9). Peer oracles: pytrec_eval (tests/reference/test_pytrec_eval_all_trec.py,
test_preset_pytrec_eval.py), ir_measures (test_preset_ir_measures.py) and the trec_eval binary
(tests/conformance/).
"""

from __future__ import annotations

import pytest

from metrics._helpers import INCOMPLETE, TREC_FRAME, per_query

NAMES = ["iprec_at_recall_0.00", "iprec_at_recall_0.70", "iprec_at_recall_0.90", "11pt_avg"]
MULTIPLES = ["Rprec_mult_0.20", "Rprec_mult_1.00", "Rprec_mult_2.00"]


def test_interpolated_precision_by_hand() -> None:
    got = per_query(TREC_FRAME, NAMES)
    # q1 (R = 3): relevant b at rank 3 (precision 1/3), d at rank 5 (2/5). Levels 0 to 0.8 need
    # 1 or 2 relevant items (round(0.8 * 3) = 2): max(1/3, 2/5) or 2/5; 0.9 and 1 need 3: none.
    assert got["q1"] == pytest.approx(
        {NAMES[0]: 2 / 5, NAMES[1]: 2 / 5, NAMES[2]: 0.0, "11pt_avg": 9 * (2 / 5) / 11}
    )
    assert got["q2"] == dict.fromkeys(NAMES, 0.0)  # nothing relevant
    # j (R = 3): r1 at rank 1 (precision 1), r2 at rank 4 (2/4). Levels 0 to 0.4 need 1 relevant
    # item (round(0.4 * 3) = 1): 1; 0.5 to 0.8 need 2: 1/2; 0.9 and 1 need 3: 0.
    want = {NAMES[0]: 1.0, NAMES[1]: 0.5, NAMES[2]: 0.0, "11pt_avg": (5 * 1.0 + 4 * 0.5) / 11}
    assert per_query(INCOMPLETE, NAMES)["j"] == pytest.approx(want)


def test_rprec_mult_by_hand() -> None:
    # R = 3: ranks int(0.6 + 0.9) = 1, int(3.9) = 3, int(6.9) = 6 (past the ranking: hits / 6).
    got = per_query(TREC_FRAME, MULTIPLES)
    assert got["q1"] == pytest.approx(dict(zip(MULTIPLES, [0.0, 1 / 3, 2 / 6], strict=True)))
    assert got["q2"] == dict.fromkeys(MULTIPLES, 0.0)
    got_j = per_query(INCOMPLETE, MULTIPLES)["j"]
    assert got_j == pytest.approx(dict(zip(MULTIPLES, [1.0, 1 / 3, 2 / 6], strict=True)))
