"""judged (metrics/judged.py): bpref, gm_bpref, infAP, unjudged and num_nonrel_judged_ret by hand.

Peer oracles: pytrec_eval (tests/reference/test_pytrec_eval_all_trec.py, test_preset_pytrec_eval.py)
and the trec_eval binary (tests/conformance/).
"""

from __future__ import annotations

from math import exp, log

import polars as pl
import pytest

import polars_rankmetrics as prm
from metrics._helpers import INCOMPLETE, TREC_FRAME, per_query

EPSILON = 1e-5  # trec_eval's INFAP_EPSILON (trec_eval.h) and gm_bpref's floor


def test_bpref_by_hand() -> None:
    # bpref = (1/R) sum over relevant retrieved r of 1 - |judged non-relevant above r| / min(R, N).
    # j: R = N = 3; r1 has none above (1), r2 has n1 (1 - 1/3); u is not judged: ignored.
    assert per_query(INCOMPLETE, ["bpref"])["j"]["bpref"] == pytest.approx((1 + 2 / 3) / 3)
    # q1: R = 3, N = 2 (a, c); b and d both below a and c: 1 - 2/2 each.
    got = per_query(TREC_FRAME, ["bpref"])
    assert got == {"q1": {"bpref": 0.0}, "q2": {"bpref": 0.0}}


def test_gm_bpref_is_the_geometric_mean_floored() -> None:
    both = pl.concat([TREC_FRAME, INCOMPLETE])
    got = prm.evaluate(both, ["gm_bpref", "bpref"]).row(0)
    # q1 and q2 have bpref 0, floored at 1e-5; j has 5/9.
    want = exp((2 * log(EPSILON) + log(5 / 9)) / 3)
    assert got == pytest.approx((want, (5 / 9) / 3), rel=1e-12)


def test_infap_by_hand() -> None:
    # infAP = (1/R) sum over relevant retrieved items at rank k of
    #   1/k + (k-1)/k * (pooled above / (k-1)) * (rel above + eps) / (rel above + nonrel above + 2 eps),
    # the pool being the judged items (u, f: outside it).
    def term(k: int, pooled: int, rel: int, nonrel: int) -> float:
        return 1 / k + (k - 1) / k * (pooled / (k - 1)) * (rel + EPSILON) / (rel + nonrel + 2 * EPSILON)

    # j: r1 at rank 1; r2 at rank 4 below r1, n1 (pooled) and u.
    assert per_query(INCOMPLETE, ["infAP"])["j"]["infAP"] == pytest.approx(
        (1 + term(4, 2, 1, 1)) / 3, abs=1e-15
    )
    # q1: b at rank 3 below a, c; d at rank 5 below a, c, b (pooled) and f.
    q1 = (term(3, 2, 0, 2) + term(5, 3, 1, 2)) / 3
    assert per_query(TREC_FRAME, ["infAP"])["q1"]["infAP"] == pytest.approx(q1, abs=1e-15)


def test_unjudged_and_judged_non_relevant_counts_by_hand() -> None:
    names = ["unj_5", "unj_10", "num_nonrel_judged_ret"]
    # q1: f (outside the judgments) in the top 5; a, c judged non-relevant.
    # q2: b's negative grade is pooled but unjudged; a judged non-relevant.
    got = per_query(TREC_FRAME, names)
    assert got["q1"] == {"unj_5": 1 / 5, "unj_10": 1 / 10, "num_nonrel_judged_ret": 2}
    assert got["q2"] == {"unj_5": 1 / 5, "unj_10": 1 / 10, "num_nonrel_judged_ret": 1}
    assert per_query(INCOMPLETE, names)["j"] == {"unj_5": 1 / 5, "unj_10": 1 / 10, "num_nonrel_judged_ret": 2}
    # The count is a sum over queries, the share a mean.
    assert prm.evaluate(pl.concat([TREC_FRAME, INCOMPLETE]), names).row(0) == pytest.approx((0.2, 0.1, 5))
