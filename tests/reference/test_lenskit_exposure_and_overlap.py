"""exposure_gini and rbo_normalized against LensKit 2025.8.1, run on its own cases and generated lists.

LensKit 2025.8.1 is the last release for Python 3.11 (2026 needs Python >= 3.12.5); its
``ExposureGini`` (``lenskit/metrics/ranking/_gini.py`` 85-138: each item's summed
``GeometricRankWeight`` exposure within the top n, float32, then ``lenskit.stats.gini`` over
``items`` catalog items) and its ``rank_biased_overlap`` (``lenskit/metrics/reranking/_rbo.py``:
``sum_{d=1..n} w_d |A[:d] & B[:d]| / d`` over ``sum_{d=1..n} w_d``, ``w_d = p ** (d - 1)``) are
called directly. LensKit sums exposures in float32: those values agree to 1e-6.
"""

from __future__ import annotations

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
lenskit_metrics = oracle("lenskit.metrics", "oracles")
ranking = oracle("lenskit.metrics.ranking", "oracles")
reranking = oracle("lenskit.metrics.reranking", "oracles")

ITEMS = [f"i{j}" for j in range(10)]
Lists = dict[str, list[str]]


def _run(recs: Lists) -> pl.DataFrame:
    rows = [(u, item, float(len(items) - i)) for u, items in recs.items() for i, item in enumerate(items)]
    return pl.DataFrame(rows, schema=["query", "item", "score"], orient="row")


def _item_list(items: list[object]) -> object:
    return lenskit_data.ItemList(item_ids=items, ordered=True)


lists_strategy = st.dictionaries(
    st.sampled_from([f"u{j}" for j in range(6)]),
    st.lists(st.sampled_from(ITEMS), unique=True, min_size=1, max_size=7),
    min_size=1,
)


@settings(max_examples=60, deadline=None)
@given(recs=lists_strategy, k=st.sampled_from([None, 1, 3, 5]), p=st.sampled_from([0.85, 0.5, 0.95]))
def test_exposure_gini_equals_lenskits(recs: Lists, k: int | None, p: float) -> None:
    """ExposureGini(n=k, items=12, weight=GeometricRankWeight(p)) over every list."""
    metric = ranking.ExposureGini(k, items=12, weight=lenskit_metrics.GeometricRankWeight(p))
    want = float(
        metric.global_aggregate([metric.compute_list_data(_item_list(i), None) for i in recs.values()])
    )
    got = prm.evaluate(_run(recs), [prm.exposure_gini(k, p=p, catalog=12)]).item()
    assert got == pytest.approx(want, abs=1e-6)
    assert prm.evaluate(_run(recs), ["ExposureGini"]).item() == pytest.approx(
        prm.evaluate(_run(recs), [prm.exposure_gini()]).item()
    )


def test_exposure_gini_of_one_item_and_of_an_even_spread() -> None:
    """LensKit's test_gini.py checks only bounds on its demo data; these two are exact."""
    one = {"u1": ["i1"], "u2": ["i1"]}
    metric = ranking.ExposureGini(None, items=4)
    want = float(
        metric.global_aggregate([metric.compute_list_data(_item_list(i), None) for i in one.values()])
    )
    assert prm.evaluate(_run(one), [prm.exposure_gini(catalog=4)]).item() == pytest.approx(want) == 0.75
    even = {"u1": ["i1", "i2"], "u2": ["i2", "i1"]}
    assert prm.evaluate(_run(even), [prm.exposure_gini(catalog=2)]).item() == 0.0


def _lenskit_rbo(reference: list[object], reranked: list[object], p: float, n: int) -> float:
    weight = lenskit_metrics.GeometricRankWeight(p)
    return float(reranking.rank_biased_overlap(_item_list(reference), _item_list(reranked), weight, n=n))


def _rbo(run: Lists, reference: Lists, k: int, p: float) -> dict[str, float]:
    ref = pl.DataFrame(
        [(u, item, i + 1) for u, items in reference.items() for i, item in enumerate(items)],
        schema={"query": pl.String, "item": pl.String, "rank": pl.Int64},
        orient="row",
    )
    out = prm.evaluate(_run(run), [prm.rbo_normalized(k, p=p, reference=ref)], per_query=True)
    return dict(out.iter_rows())


@pytest.mark.parametrize(
    ("reference", "reranked", "k", "p"),
    [
        ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5], 5, 0.9),  # test_rbo.py: test_rbo_perfect_match (1.0)
        ([1, 2, 3], [4, 5, 6], 3, 0.9),  # test_rbo_no_overlap (0.0)
        ([1, 2, 3, 4, 5], [3, 2, 6, 7, 1], 5, 0.9),  # test_rbo_partial_overlap: the 0.4269
        ([1, 2, 3, 4, 5], [5, 4, 3, 2, 1], 3, 0.9),  # test_rbo_k_smaller_than_list
        ([1, 2, 3], [1, 2, 3], 10, 0.85),  # LensKit's defaults: shorter lists than n
    ],
)
def test_lenskit_rbo_cases(reference: list[int], reranked: list[int], k: int, p: float) -> None:
    """tests/eval/test_rbo.py (lenskit/lkpy) checks bounds; here the values themselves."""
    want = _lenskit_rbo(reference, reranked, p, k)
    got = _rbo({"q": [str(i) for i in reranked]}, {"q": [str(i) for i in reference]}, k, p)
    assert got["q"] == pytest.approx(want, abs=1e-12)
    if reranked == [3, 2, 6, 7, 1]:
        assert round(got["q"], 4) == 0.4269


def test_a_query_the_reference_lacks_scores_zero() -> None:
    """test_rbo_empty_reference: 0.0."""
    assert _lenskit_rbo([], [1, 2, 3], 0.85, 10) == 0.0
    assert _rbo({"q": ["1", "2"], "r": ["1"]}, {"r": ["1"]}, 10, 0.85)["q"] == 0.0


@settings(max_examples=60, deadline=None)
@given(run=lists_strategy, reference=lists_strategy, k=st.integers(1, 8), p=st.sampled_from([0.85, 0.5, 0.9]))
def test_rbo_normalized_equals_lenskits(run: Lists, reference: Lists, k: int, p: float) -> None:
    got = _rbo(run, reference, k, p)
    assert set(got) == set(run)
    for user, items in run.items():
        want = _lenskit_rbo(reference.get(user, []), items, p, k)
        assert got[user] == pytest.approx(want, abs=1e-12), user
