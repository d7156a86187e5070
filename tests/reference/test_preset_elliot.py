"""preset="elliot" against Elliot's accuracy metrics, transcribed from its source (sisinflab/elliot).

Elliot is a framework run from a configuration file, not a library of metric functions, so its
formulas are written here from its source (commit 0126926):

- ``elliot/evaluation/relevance/relevance.py``, ``DiscountedRelevance._compute_user_gain_map``:
  a test rating r at or above the threshold t gains ``2 ** (r - t + 1) - 1``; lower ratings are not
  relevant (gain 0); ``logarithmic_ranking_discount(k) = log(2) / log(k + 2)`` for 0-based k.
- ``elliot/evaluation/metrics/accuracy/ndcg/ndcg.py``, ``compute_idcg`` / ``compute_user_ndcg``:
  DCG of the top ``cutoff`` recommendations; IDCG of the user's min(relevant, cutoff) largest
  gains; ``dcg / idcg`` (0 when dcg is 0); users without a relevant item are not evaluated.
- ``.../recall/recall.py`` ``__user_recall``: hits in the top cutoff / relevant items;
  ``.../precision/precision.py``: hits in the top cutoff / cutoff.

Elliot's MAP and MAR average precision (recall) at every position 1..cutoff (``map.py``:
``np.average([precision(recs[:cutoff], n + 1) for n in range(cutoff)])``), not at the relevant
ones: a bug the preset does not copy (its map is the usual AP).
"""

from __future__ import annotations

import math

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

CUTOFFS = (1, 3, 5)


def _gain(rating: float, threshold: float) -> float:
    return 2 ** (rating - threshold + 1) - 1 if rating >= threshold else 0.0


def _discount(k: int) -> float:  # 0-based position
    return 1 / math.log(k + 2) * math.log(2)


def _elliot(recs: list[str], test: dict[str, float], t: float, cutoff: int) -> dict[str, float]:
    gains = {i: _gain(r, t) for i, r in test.items() if r >= t}
    ordered = sorted(gains.values())
    n, m = min(len(ordered), cutoff), len(ordered)
    idcg = sum(ordered[m - r - 1] * _discount(r) for r in range(n))
    dcg = sum(gains.get(item, 0.0) * _discount(r) for r, item in enumerate(recs[:cutoff]))
    hits = sum(1 for item in recs[:cutoff] if item in gains)
    return {"nDCG": dcg / idcg if dcg > 0 else 0.0, "Recall": hits / len(gains), "Precision": hits / cutoff}


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, list[str]], dict[str, dict[str, float]]]:
    pool = [f"i{j}" for j in range(9)]
    recs: dict[str, list[str]] = {}
    test: dict[str, dict[str, float]] = {}
    for user in range(draw(st.integers(1, 5))):
        recs[f"u{user}"] = draw(st.lists(st.sampled_from(pool), unique=True, min_size=1, max_size=6))
        items = draw(st.lists(st.sampled_from(pool), unique=True, max_size=5))
        test[f"u{user}"] = {i: float(draw(st.integers(1, 5))) for i in items}
    return recs, test


def _frame(recs: dict[str, list[str]], test: dict[str, dict[str, float]]) -> pl.DataFrame:
    rows = []
    for user, items in recs.items():
        rows += [(user, item, float(len(items) - i), test[user].get(item)) for i, item in enumerate(items)]
        rows += [(user, item, None, r) for item, r in sorted(test[user].items()) if item not in items]
    schema = {"query": pl.String, "item": pl.String, "score": pl.Float64, "relevance": pl.Float64}
    return pl.DataFrame(rows, schema=schema, orient="row")


@settings(max_examples=60, deadline=None)
@given(data=tables(), threshold=st.sampled_from([1.0, 3.0, 4.0]))
def test_elliot_preset_equals_elliots_formulas(
    data: tuple[dict[str, list[str]], dict[str, dict[str, float]]], threshold: float
) -> None:
    recs, test = data
    users = sorted(u for u in recs if any(r >= threshold for r in test[u].values()))
    frame = _frame(recs, test)
    names = [f"{m}@{k}" for m in ("nDCG", "Recall", "Precision") for k in CUTOFFS]
    got = prm.evaluate(frame, names, per_query=True, preset="elliot", relevance_level=threshold).sort("query")
    assert got["query"].to_list() == users
    for user, row in zip(users, got.iter_rows(named=True), strict=True):
        for k in CUTOFFS:
            want = _elliot(recs[user], test[user], threshold, k)
            for metric, value in want.items():
                assert row[f"{metric}@{k}"] == pytest.approx(value, abs=1e-12), (user, metric, k)


def test_thresholded_exponential_gain_by_hand() -> None:
    """Ratings 5 and 3 at threshold 3 gain 2**3 - 1 = 7 and 2**1 - 1 = 1; rating 2 gains 0."""
    frame = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"], "score": [3.0, 2.0, 1.0],
                          "relevance": [3.0, 2.0, 5.0]})  # fmt: skip
    got = prm.evaluate(frame, ["dcg@3"], preset="elliot", relevance_level=3).item()
    assert got == pytest.approx(1.0 + 7.0 / 2.0)  # 1 / log2(2) + 7 / log2(4)
