"""preset="recbole" against RecBole 1.2.1's top-k metrics, run on generated lists.

RecBole computes from a users x K boolean matrix ``pos_index`` (is the item at position i one
of the user's positives) and ``pos_len`` (the user's positives): ``metric_info`` of ``Hit``,
``MRR``, ``MAP``, ``Recall``, ``NDCG`` and ``Precision`` (recbole/evaluator/metrics.py) gives
each user's value at every cutoff 1..K. Its MAP@k divides by min(k, |positives|); NDCG's ideal
holds min(k, |positives|) positives; gains are binary. RecBole 1.2.1 still calls ``np.float``,
gone since numpy 1.24: the test process puts it back (numpy's float64 is Python's float here).

Every evaluated RecBole user has a positive item (it divides by ``pos_len``): users without one
are not evaluated under the preset either (``no_relevant="skip"``). Lists shorter than K pad
``pos_index`` with False, as an item not retrieved.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peers import oracle

import polars_rankmetrics as prm

pytestmark = [
    pytest.mark.oracles,
    pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning"),
]

if not hasattr(np, "float"):
    np.float = float  # type: ignore[attr-defined]  # noqa: NPY001  (RecBole 1.2.1 calls np.float removed in numpy 1.24)
metrics = oracle("recbole.evaluator.metrics", "oracles")

K = 5


@st.composite
def lists(draw: st.DrawFn) -> tuple[dict[str, list[str]], dict[str, set[str]]]:
    recs: dict[str, list[str]] = {}
    positives: dict[str, set[str]] = {}
    pool = [f"i{j}" for j in range(9)]
    for user in range(draw(st.integers(1, 6))):
        recs[f"u{user}"] = draw(st.lists(st.sampled_from(pool), unique=True, max_size=K + 2))
        positives[f"u{user}"] = draw(st.sets(st.sampled_from(pool), max_size=5))
    return recs, positives


def _frame(recs: dict[str, list[str]], positives: dict[str, set[str]]) -> pl.DataFrame:
    rows = []
    for user, items in recs.items():
        rows += [
            (user, item, float(len(items) - i), int(item in positives[user])) for i, item in enumerate(items)
        ]
        rows += [(user, item, None, 1) for item in sorted(positives[user] - set(items))]
    schema = {"query": pl.String, "item": pl.String, "score": pl.Float64, "relevance": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


@settings(max_examples=60, deadline=None)
@given(data=lists())
def test_recbole_preset_equals_recbole(data: tuple[dict[str, list[str]], dict[str, set[str]]]) -> None:
    recs, positives = data
    users = sorted(u for u in recs if positives[u] and recs[u])
    if not users:
        return
    pos_index = np.array([[i < len(recs[u]) and recs[u][i] in positives[u] for i in range(K)] for u in users])
    pos_len = np.array([len(positives[u]) for u in users])
    peer = {
        "hit": metrics.Hit.metric_info(None, pos_index),
        "mrr": metrics.MRR.metric_info(None, pos_index),
        "map": metrics.MAP.metric_info(None, pos_index, pos_len),
        "recall": metrics.Recall.metric_info(None, pos_index, pos_len),
        "ndcg": metrics.NDCG.metric_info(None, pos_index, pos_len),
        "precision": metrics.Precision.metric_info(None, pos_index),
    }
    frame = _frame({u: recs[u] for u in users}, {u: positives[u] for u in users})
    names = [f"{name}@{k}" for name in peer for k in range(1, K + 1)]
    got = prm.evaluate(frame, names, per_query=True, preset="recbole").sort("query")
    assert got["query"].to_list() == users
    for name, values in peer.items():
        for k in range(1, K + 1):
            assert got[f"{name}@{k}"].to_list() == pytest.approx(values[:, k - 1].tolist(), abs=1e-12), (
                name,
                k,
            )


def test_users_without_positives_are_not_evaluated() -> None:
    frame = _frame({"a": ["x", "y"], "b": ["x"]}, {"a": {"y"}, "b": set()})
    got = prm.evaluate(frame, ["map@2"], per_query=True, preset="recbole")
    assert got["query"].to_list() == ["a"]
    assert got["map@2"].item() == pytest.approx(0.5)  # (1/2) / min(2, 1)


@settings(max_examples=60, deadline=None)
@given(data=lists())
def test_gauc_weighted_equals_recboles_gauc(data: tuple[dict[str, list[str]], dict[str, set[str]]]) -> None:
    """RecBole's GAUC.metric_info from each user's positive rank sum, list length and positives.

    RecBole ranks every item, so every positive is in its list: here the positives the list
    leaves out are dropped from the frame, and users without a positive or a negative are the
    ones RecBole removes (our value is null for them).
    """
    recs, positives = data
    users = sorted(u for u in recs if set(recs[u]) & positives[u] and set(recs[u]) - positives[u])
    if not users:
        return
    rank_sum = np.array(
        [[sum(i + 1 for i, item in enumerate(recs[u]) if item in positives[u])] for u in users]
    )
    length = np.array([len(recs[u]) for u in users])
    found = np.array([len(set(recs[u]) & positives[u]) for u in users])
    want = metrics.GAUC.metric_info(None, rank_sum.astype(float), length, found)
    frame = _frame(recs, {u: positives[u] & set(recs[u]) for u in recs})
    got = prm.evaluate(frame, ["gauc_weighted"], preset="recbole").item()
    assert got == pytest.approx(float(want), abs=1e-12)
