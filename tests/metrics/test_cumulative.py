"""cumulative (metrics/cumulative.py): trec_eval's ndcg_rel, Rndcg and G (cost_gain) by hand.

Linear gains (the grades); DCG's discount 1 / log2(rank + 1). Peer oracles: pytrec_eval
(tests/reference/test_pytrec_eval_all_trec.py) and the trec_eval binary (tests/conformance/).
"""

from __future__ import annotations

from math import log2

import pytest

from metrics._helpers import INCOMPLETE, TREC_FRAME, per_query

# q1 of TREC_FRAME ranks gains 0, 0, 2 (b), 0, 1 (d); e (3) never retrieved. Ideal: 3, 2, 1.
IDCG3 = 3 + 2 / log2(3) + 1 / log2(4)
NDCG_AT_3 = (2 / log2(4)) / IDCG3
NDCG_AT_5 = (2 / log2(4) + 1 / log2(6)) / IDCG3  # the ideal DCG capped at the ideal list's length


def test_ndcg_rel_by_hand() -> None:
    # nDCG at each item of positive gain: b (rank 3), d (rank 5), and e, never retrieved, the final nDCG.
    got = per_query(TREC_FRAME, ["ndcg_rel"])
    assert got["q1"]["ndcg_rel"] == pytest.approx((NDCG_AT_3 + NDCG_AT_5 + NDCG_AT_5) / 3, abs=1e-15)
    assert got["q2"]["ndcg_rel"] == 0.0
    # j: gains 1, 0, 0, 1, 0; ideal 1, 1, 1. At r1: 1; at r2 (rank 4): DCG4 / IDCG3; r3: the same.
    ideal = 1 + 1 / log2(3) + 1 / log2(4)
    at_r2 = (1 + 1 / log2(5)) / ideal
    assert per_query(INCOMPLETE, ["ndcg_rel"])["j"]["ndcg_rel"] == pytest.approx(
        (1 + 2 * at_r2) / 3, abs=1e-15
    )


def test_rndcg_by_hand() -> None:
    # nDCG where the ideal gain steps down (after ranks 1, 2, 3: grades 3, 2, 1 end there) and at the
    # end of the ranking, past the ideal list (rank 5): 0, 0, then b's, then b's and d's.
    got = per_query(TREC_FRAME, ["Rndcg"])
    assert got["q1"]["Rndcg"] == pytest.approx((0 + 0 + NDCG_AT_3 + NDCG_AT_5) / 4, abs=1e-15)
    assert got["q2"]["Rndcg"] == 0.0  # no relevant item
    # j: the ideal 1, 1, 1 steps down once, after rank 3; the ranking runs to rank 5.
    ideal = 1 + 1 / log2(3) + 1 / log2(4)
    want = (1 / ideal + (1 + 1 / log2(5)) / ideal) / 2
    assert per_query(INCOMPLETE, ["Rndcg"])["j"]["Rndcg"] == pytest.approx(want, abs=1e-15)


def test_cost_gain_by_hand() -> None:
    # G: per retrieved item gain / log2(2 + ideal cost - gain so far), the ideal cost adding
    # max(ideal gain, 1) per position (q1: 3, 5, 6, 7, 8), over the ideal list's total gain.
    got = per_query(TREC_FRAME, ["G"])
    assert got["q1"]["G"] == pytest.approx((2 / log2(2 + 6 - 2) + 1 / log2(2 + 8 - 3)) / 6, abs=1e-15)
    assert got["q2"]["G"] == 0.0
    # j: ideal costs 1, 2, 3, 4, 5; r1 at rank 1 (so far 1), r2 at rank 4 (so far 2).
    want = (1 / log2(2 + 1 - 1) + 1 / log2(2 + 4 - 2)) / 3
    assert per_query(INCOMPLETE, ["G"])["j"]["G"] == pytest.approx(want, abs=1e-15)
