"""ips_precision, ips_recall, ips_ndcg, ips_rbp, ips_mrr, ips_hit_rate (metrics/ips.py) by hand.

Oracles: LensKit's IPSRBP transcribed (tests/reference/lenskit_ips_rbp.py) and a plain reference
of every family (tests/reference/test_ips_oracle.py); errors in tests/unit/test_propensity_errors.py;
every path in tests/unit/test_propensity_paths.py.
"""

from __future__ import annotations

import math

import polars as pl
import pytest

import polars_rankmetrics as prm

# q1 ranks a (relevant, w = 2), b, c (relevant, w = 4): R = 2, weights 6; q2 ranks a, c (relevant): 4.
DF = pl.DataFrame({
    "query": ["q1", "q1", "q1", "q2", "q2"], "item": ["a", "b", "c", "a", "c"],
    "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1], "w": [2.0, 9.0, 4.0, 2.0, 4.0],
})  # fmt: skip
TOTAL = [6.0, 4.0]


def _per_query(metric: prm.Metric) -> list[float]:
    return prm.evaluate(DF, metric, per_query=True).sort("query").to_series(1).to_list()


@pytest.mark.parametrize(
    ("family", "k", "options", "ips"),
    [
        ("ips_precision", 2, {}, [2 / 2, 4 / 2]),
        ("ips_recall", 2, {}, [2 / 2, 4 / 1]),
        ("ips_ndcg", 2, {}, [2 / (1 + 1 / math.log2(3)), 4 / math.log2(3)]),
        ("ips_rbp", None, {"p": 0.5}, [0.5 * (2 + 4 * 0.25), 0.5 * 4 * 0.5]),
        ("ips_mrr", None, {}, [2 / 1, 4 / 2]),
        ("ips_hit_rate", 1, {}, [2.0, 0.0]),
    ],
)
def test_ips_and_snips_by_hand(
    family: str, k: int | None, options: dict[str, float], ips: list[float]
) -> None:
    constructor = getattr(prm, family)
    assert _per_query(constructor(k, weights="w", **options)) == pytest.approx(ips, rel=1e-15)
    snips = constructor(k, weights="w", estimator="snips", **options)
    assert _per_query(snips) == pytest.approx([v / t for v, t in zip(ips, TOTAL, strict=True)], rel=1e-15)


def test_propensities_are_inverted() -> None:
    props = pl.DataFrame({"item": ["a", "b", "c"], "p": [0.5, 0.1, 0.25]})
    assert _per_query(prm.ips_recall(2, propensities=props)) == _per_query(prm.ips_recall(2, weights="w"))
