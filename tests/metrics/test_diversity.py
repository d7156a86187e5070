"""diversity (metrics/diversity.py): the intent-aware measures by hand (alpha = 0.5; ndeval's definitions).

Peer oracles: pyndeval (ndeval.c) and pytrec_eval, in tests/reference/test_ndeval_reference.py
and tests/reference/test_diversity_family.py.

Ranking d1 (intents a, b), d2 (a), d3 (unjudged); d4 (b) never retrieved.
Gains: d1 covers two new intents (1 + 1), d2 one seen once (0.5), d3 nothing.
ndeval's greedy ideal: d1 (2), then d2 and d4 tie at 0.5 and the greater id
d4 goes first, then d2 (0.5).
"""

from __future__ import annotations

import math

import polars as pl
import pytest

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

FRAME = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
                      "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
                      "relevance": [1, 1, 1, None, 1]})  # fmt: skip
GAINS, IDEAL = [2.0, 0.5, 0.0], [2.0, 0.5, 0.5]


def test_values_by_hand() -> None:
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(GAINS))
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(IDEAL))
    err = sum(g / (i + 1) for i, g in enumerate(GAINS))
    rbp = sum(g * 0.5**i for i, g in enumerate(GAINS))
    want = {
        "alpha_ndcg@3": dcg / idcg,
        "err_ia@3": err / (2 * sum(0.5**i / (i + 1) for i in range(3))),
        "nerr_ia@3": err / sum(g / (i + 1) for i, g in enumerate(IDEAL)),
        "nrbp": (1 - 0.5 * 0.5) / 2 * rbp,
        "nnrbp": rbp / sum(g * 0.5**i for i, g in enumerate([*IDEAL, 0.0])),
        "p_ia@2": 3 / (2 * 2),  # pairs (d1, a), (d1, b), (d2, a) in the top 2
        "strec@1": 2 / 2,
        "map_ia": (1.0 + 0.5) / 2,  # intent a: AP (1/1 + 2/2) / 2; intent b: (1/1) / 2 (d4 missed)
    }
    got = prm.evaluate(FRAME, list(want)).row(0, named=True)
    for name, value in want.items():
        assert math.isclose(got[name], value, rel_tol=1e-12), (name, got[name], value)


def test_a_query_without_a_relevant_intent_scores_zero() -> None:
    frame = FRAME.with_columns(pl.col("relevance") * 0)
    got = prm.evaluate(frame, ["alpha_ndcg@3", "nnrbp", "map_ia", "ndcg@3"]).row(0)
    assert got == (0.0, 0.0, 0.0, 0.0)


def test_other_tie_policies_are_refused() -> None:
    with pytest.raises(prm.InvalidParameterError, match="alpha_ndcg@3"):
        prm.evaluate(FRAME, ["alpha_ndcg@3"], ties="average")
