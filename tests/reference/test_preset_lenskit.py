"""preset="lenskit" against LensKit 2025.8.1's ranking metrics, run on generated lists.

LensKit measures one list at a time: ``metric.measure_list(recs, test)``, recs an ordered
``ItemList`` (positions 1..n), test the user's test items, each relevant (binary gains). Under
the preset: NDCG discounts by ``1 / max(1, log2 r)`` (LogRankWeight's clipping), Precision
divides by the list's length within n, Recall by min(n, |test|), AveragePrecision by min(|test|,
list length), RBP by ``1 / (1 - p)`` or, with ``normalize=True``, the first min(|test|, n)
discounts (``rbp_normalization="achievable"``). LensKit 2026 needs Python >= 3.12.5: 2025.8.1 is
the last release for Python 3.11.

Users without a test item are left out of LensKit's calls: its metrics give NaN there (the mean
skips them, ``no_relevant="skip"``) except AveragePrecision, which raises ZeroDivisionError (a
LensKit bug). Lists are tie-free (LensKit takes the order it is given).
"""

from __future__ import annotations

import math

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

lenskit_data = oracle("lenskit.data", "oracles")
ranking = oracle("lenskit.metrics.ranking", "oracles")

CUTOFFS = (1, 2, 3, 5)


@st.composite
def lists(draw: st.DrawFn) -> tuple[dict[str, list[str]], dict[str, set[str]]]:
    """Per user: an ordered list of distinct items, and a set of test items (maybe empty)."""
    recs: dict[str, list[str]] = {}
    test: dict[str, set[str]] = {}
    for user in range(draw(st.integers(1, 6))):
        recs[f"u{user}"] = draw(
            st.lists(st.sampled_from([f"i{j}" for j in range(10)]), unique=True, max_size=7)
        )
        test[f"u{user}"] = draw(st.sets(st.sampled_from([f"i{j}" for j in range(10)]), max_size=5))
    return recs, test


def _frame(recs: dict[str, list[str]], test: dict[str, set[str]]) -> pl.DataFrame:
    rows = []
    for user, items in recs.items():
        rows += [
            (user, item, float(len(items) - i), 1 if item in test[user] else 0)
            for i, item in enumerate(items)
        ]
        rows += [(user, item, None, 1) for item in sorted(test[user] - set(items))]
    return pl.DataFrame(
        rows,
        schema={"query": pl.String, "item": pl.String, "score": pl.Float64, "relevance": pl.Int64},
        orient="row",
    )


def _lenskit(metric: object, recs: list[str], test: set[str]) -> float:
    r = lenskit_data.ItemList(item_ids=recs, ordered=True)
    t = lenskit_data.ItemList(item_ids=sorted(test))
    return float(metric.measure_list(r, t))  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None)
@given(data=lists())
def test_lenskit_preset_equals_lenskit(data: tuple[dict[str, list[str]], dict[str, set[str]]]) -> None:
    recs, test = data
    frame = _frame(recs, test)
    users = sorted(u for u in recs if test[u])
    metrics: dict[str, object] = {
        "NDCG": ranking.NDCG(),
        "RecipRank": ranking.RecipRank(),
        "rbp(p=0.85)": ranking.RBP(),
    }
    for k in CUTOFFS:
        metrics |= {
            f"NDCG@{k}": ranking.NDCG(k), f"RecipRank@{k}": ranking.RecipRank(k), f"Hit@{k}": ranking.Hit(k),
            f"Recall@{k}": ranking.Recall(k), f"AveragePrecision@{k}": ranking.AveragePrecision(k),
        }  # fmt: skip
        metrics[f"Precision@{k}"] = ranking.Precision(k)
    got = prm.evaluate(frame, list(metrics), per_query=True, preset="lenskit").sort("query")
    assert got["query"].to_list() == users  # an empty list too: RunAnalysis fills its defaults, 0
    for name, metric in metrics.items():
        for user, value in zip(got["query"], got[name], strict=True):
            want = _lenskit(metric, recs[user], test[user])
            if math.isnan(want):  # an empty list: Precision and AP are NaN, RunAnalysis's default 0
                assert not recs[user], (name, user)
                assert value == 0.0, (name, user)
                continue
            assert value == pytest.approx(want, abs=1e-12), (name, user)
    normalized = prm.evaluate(
        frame, ["rbp(p=0.85)"], per_query=True, preset="lenskit", rbp_normalization="achievable"
    )
    for user, value in zip(normalized["query"], normalized["rbp(p=0.85)"], strict=True):
        want = _lenskit(ranking.RBP(normalize=True), recs[user], test[user]) if recs[user] else 0.0
        assert value == pytest.approx(want, abs=1e-12), user


def test_the_issues_lenskit_cases() -> None:
    """NDCG of [1, 2] against {1, 2, 3}: 0.7602; AP of a list shorter than the test set: 1.0."""
    frame = _frame({"u": ["1", "2"]}, {"u": {"1", "2", "3"}})
    got = prm.evaluate(frame, ["NDCG", "AveragePrecision", "Recall@2", "Precision@5"], preset="lenskit")
    assert got.row(0) == pytest.approx((0.7601875334318686, 1.0, 1.0, 1.0))
    assert _lenskit(ranking.NDCG(), ["1", "2"], {"1", "2", "3"}) == pytest.approx(0.7601875334318686)
    binary = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [2.0, 1.0], "relevance": [1, 5]})
    assert prm.evaluate(binary, ["rbp(p=0.5)"], preset="lenskit").item() == pytest.approx(0.75)
    assert _lenskit(ranking.RBP(patience=0.5), ["a", "b"], {"a", "b"}) == pytest.approx(0.75)


@settings(max_examples=40, deadline=None)
@given(
    recs=st.dictionaries(
        st.sampled_from([f"u{j}" for j in range(6)]),
        st.lists(st.sampled_from([f"i{j}" for j in range(10)]), unique=True, min_size=1, max_size=6),
        min_size=1,
    ),
    train=st.lists(
        st.tuples(st.integers(0, 5), st.sampled_from([f"i{j}" for j in range(8)])), min_size=1, max_size=25
    ),
    k=st.sampled_from([None, 1, 3]),
)
def test_mean_pop_rank_equals_lenskits(
    recs: dict[str, list[str]], train: list[tuple[int, str]], k: int | None
) -> None:
    """MeanPopRank(dataset, n=k): the mean over lists of each list's mean popularity quantile."""
    import pandas as pd  # noqa: PLC0415  (pandas comes with LensKit)

    interactions = pd.DataFrame(train, columns=["user_id", "item_id"]).drop_duplicates()
    dataset = lenskit_data.from_interactions_df(interactions)
    metric = ranking.MeanPopRank(dataset, n=k)
    want = sum(_lenskit(metric, items, set()) for items in recs.values()) / len(recs)
    rows = [(u, item, float(len(items) - i)) for u, items in recs.items() for i, item in enumerate(items)]
    frame = pl.DataFrame(rows, schema=["query", "item", "score"], orient="row")
    train_frame = pl.DataFrame(train, schema=["user", "item"], orient="row")
    got = prm.evaluate(frame, [prm.mean_pop_rank(k, interactions=train_frame)]).item()
    assert got == pytest.approx(want, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    recs=st.dictionaries(
        st.sampled_from([f"u{j}" for j in range(6)]),
        st.lists(st.sampled_from([f"i{j}" for j in range(10)]), unique=True, min_size=1, max_size=6),
        min_size=1,
    ),
    k=st.sampled_from([None, 1, 3]),
)
def test_list_gini_equals_lenskits(recs: dict[str, list[str]], k: int | None) -> None:
    """ListGini(n=k, items=12): the Gini of how many top-k lists hold each of 12 catalog items."""
    metric = ranking.ListGini(k, items=12)
    parts = [
        metric.compute_list_data(lenskit_data.ItemList(item_ids=items, ordered=True), None)
        for items in recs.values()
    ]
    want = float(metric.global_aggregate(parts))
    rows = [(u, item, float(len(items) - i)) for u, items in recs.items() for i, item in enumerate(items)]
    frame = pl.DataFrame(rows, schema=["query", "item", "score"], orient="row")
    got = prm.evaluate(frame, [prm.gini(k, catalog=12)]).item()
    assert got == pytest.approx(want, abs=1e-12)
