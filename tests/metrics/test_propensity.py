"""psp, psndcg, psrecall (metrics/propensity.py): propensity-scored metrics by hand.

Peer oracle: pyxclib's ``xc_metrics.py``, transcribed (tests/reference/pyxclib_xc_metrics.py,
compared in tests/reference/test_propensity_oracle.py); bad propensities in
tests/unit/test_propensity_errors.py; every path in tests/unit/test_propensity_paths.py.
"""

from __future__ import annotations

import math

import polars as pl
import pytest

import polars_rankmetrics as prm

# q1 ranks a (relevant, p = 0.5), b, c (relevant, p = 0.25); q2 ranks a, c (relevant).
DF = pl.DataFrame({
    "query": ["q1", "q1", "q1", "q2", "q2"], "item": ["a", "b", "c", "a", "c"],
    "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
})  # fmt: skip
PROPS = pl.DataFrame({"item": ["a", "b", "c"], "propensity": [0.5, 0.8, 0.25]})


def _per_query(metric: prm.Metric) -> list[float]:
    return prm.evaluate(DF, metric, per_query=True).sort("query").to_series(1).to_list()


def test_psp_by_hand() -> None:
    assert _per_query(prm.psp(1, propensities=PROPS)) == [2.0, 0.0]  # 1/0.5 at rank 1; nothing
    assert _per_query(prm.psp(3, propensities=PROPS)) == pytest.approx([2.0, 4 / 3])  # (2 + 4) / 3; 4 / 3
    # pyxclib's normalisation: the oracle ranks c (1/p = 4) first: q1 2/4, q2 0/4; over queries 2 / 8.
    oracle = prm.psp(1, propensities=PROPS, normalize="oracle")
    assert _per_query(oracle) == [0.5, 0.0]
    assert prm.evaluate(DF, oracle).item() == 0.25


def test_psndcg_by_hand() -> None:
    ideal_two = 1 + 1 / math.log2(3)  # min(k, R) = 2 unit gains
    want = [(2 / 1 + 4 / math.log2(4)) / ideal_two, (4 / math.log2(3)) / 1]
    assert _per_query(prm.psndcg(3, propensities=PROPS)) == pytest.approx(want, rel=1e-15)


def test_psrecall_by_hand() -> None:
    assert _per_query(prm.psrecall(2, propensities=PROPS)) == [1.0, 4.0]  # 2 / R=2; 4 / R=1


def test_propensities_from_training_counts_by_hand() -> None:
    counts = pl.DataFrame({"item": ["a", "c"], "count": [40, 2]})  # b never seen: count 0
    n, a, b = 100, 0.55, 1.5
    c = (math.log(n) - 1) * (b + 1) ** a
    inv = {"a": 1 + c * (40 + b) ** -a, "c": 1 + c * (2 + b) ** -a}
    assert _per_query(prm.psp(1, counts=counts, n=n)) == pytest.approx([inv["a"], 0.0], rel=1e-14)
    a_w, b_w = 0.5, 0.4  # dataset="wikipedia"
    c_w = (math.log(n) - 1) * (b_w + 1) ** a_w
    got = _per_query(prm.psp(2, counts=counts, n=n, dataset="wikipedia"))
    assert got == pytest.approx(
        [(1 + c_w * (40 + b_w) ** -a_w) / 2, (1 + c_w * (2 + b_w) ** -a_w) / 2], rel=1e-14
    )


def test_names_show_the_normalisation_and_the_model() -> None:
    assert str(prm.psp(5, propensities=PROPS, normalize="oracle")) == "psp(normalize=oracle)@5"
    counts = pl.DataFrame({"item": ["a"], "count": [1]})
    assert str(prm.psndcg(5, counts=counts, n=10, a=0.6, b=2.6)) == "psndcg(a=0.6,b=2.6)@5"
    assert str(prm.psrecall(5, counts=counts, n=10, dataset="amazon")) == "psrecall(dataset=amazon)@5"
