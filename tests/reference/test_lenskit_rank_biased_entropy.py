"""rank_biased_entropy against LensKit 2025.8.1's rank_biased_entropy, called on generated lists.

LensKit 2025.8.1 (the last release for Python 3.11) is called directly with each list's rows of
an item x category matrix of ones (``lenskit/metrics/ranking/_entropy.py`` 41-72 and 75-102: the
top n rows weighted by ``GeometricRankWeight(p)``, each column summed plus 1e-6, the entropy in bits
of the columns' shares); the matrix's columns are every category of the categories frame. LensKit's
own tests (tests/eval/test_entropy.py, lenskit/lkpy) check bounds and an ordering; their matrices are
valued here.
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

lenskit_data = oracle("lenskit.data", "oracles")
lenskit_metrics = oracle("lenskit.metrics", "oracles")

ITEMS = [f"i{j}" for j in range(8)]
GENRES = ["g0", "g1", "g2", "g3"]
Lists = dict[str, list[str]]
Categories = dict[str, set[str]]


def _lenskit(items: list[str], categories: Categories, p: float, n: int | None) -> float:
    vocabulary = sorted({g for genres in categories.values() for g in genres})
    matrix = np.array([[float(g in categories.get(i, set())) for g in vocabulary] for i in items])
    weight = lenskit_metrics.GeometricRankWeight(p)
    ordered = lenskit_data.ItemList(item_ids=items, ordered=True)
    return float(lenskit_metrics.rank_biased_entropy(ordered, matrix, weight=weight, n=n))


def _frames(recs: Lists, categories: Categories) -> tuple[pl.DataFrame, pl.DataFrame]:
    rows = [(u, item, float(len(items) - i)) for u, items in recs.items() for i, item in enumerate(items)]
    pairs = [(i, g) for i, genres in categories.items() for g in sorted(genres)]
    return (
        pl.DataFrame(rows, schema=["query", "item", "score"], orient="row"),
        pl.DataFrame(pairs, schema=["item", "genre"], orient="row"),
    )


def _ours(recs: Lists, categories: Categories, p: float, k: int | None) -> dict[str, float]:
    frame, cats = _frames(recs, categories)
    metric = prm.rank_biased_entropy(k, p=p, categories=cats)
    return dict(prm.evaluate(frame, [metric], per_query=True).iter_rows())


# tests/eval/test_entropy.py (lenskit/lkpy, main): the item x category matrices as categories, rows
# 1..5 the items "1".."5" of the list; LensKit checks bounds and an ordering, valued here.
DIVERSE = {"1": {"c0"}, "2": {"c1"}, "3": {"c2"}, "4": {"c0"}, "5": {"c0"}}  # test_rank_biased_entropy
DOMINATED = {"1": {"c0"}, "2": {"c0"}, "3": {"c0"}, "4": {"c1"}, "5": {"c2"}}
PARTIAL = {"1": {"c0"}, "2": {"c1"}, "4": {"c2"}}  # test_rank_biased_entropy_partial_weighted: 3, 5 none
LIST = ["1", "2", "3", "4", "5"]


def test_lenskit_cases() -> None:
    diverse, dominated = (
        _ours({"q": LIST}, DIVERSE, 0.85, None)["q"],
        _ours({"q": LIST}, DOMINATED, 0.85, None)["q"],
    )
    assert diverse == pytest.approx(_lenskit(LIST, DIVERSE, 0.85, None), abs=1e-12)
    assert dominated == pytest.approx(_lenskit(LIST, DOMINATED, 0.85, None), abs=1e-12)
    assert 0 < dominated < diverse <= np.log2(3)  # "categories1 more diverse due to weights"
    partial = _ours({"q": LIST}, PARTIAL, 0.5, None)["q"]
    assert partial == pytest.approx(_lenskit(LIST, PARTIAL, 0.5, None), abs=1e-12)
    assert 0 < partial <= np.log2(3)


def test_a_list_without_categories_is_uniform() -> None:
    """test_matrix_column_entropy_all_zeros: the smoothing alone, log2 of the categories (4)."""
    categories = {"x": {"c0"}, "y": {"c1"}, "z": {"c2"}, "w": {"c3"}}
    got = _ours({"q": ["a", "b", "c"], "r": ["x"]}, categories, 0.85, None)
    assert got["q"] == pytest.approx(np.log2(4), abs=1e-12)
    assert got["q"] == pytest.approx(_lenskit(["a", "b", "c"], categories, 0.85, None), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    recs=st.dictionaries(
        st.sampled_from([f"u{j}" for j in range(5)]),
        st.lists(st.sampled_from(ITEMS), unique=True, min_size=1, max_size=7),
        min_size=1,
    ),
    categories=st.dictionaries(
        st.sampled_from(ITEMS), st.sets(st.sampled_from(GENRES), min_size=1), min_size=1
    ),
    p=st.sampled_from([0.85, 0.5, 0.95]),
    k=st.sampled_from([None, 1, 3, 5]),
)
def test_rank_biased_entropy_equals_lenskits(
    recs: Lists, categories: Categories, p: float, k: int | None
) -> None:
    """Items without a category are rows of zeros there and add nothing here."""
    got = _ours(recs, categories, p, k)
    for user, items in recs.items():
        assert got[user] == pytest.approx(_lenskit(items, categories, p, k), abs=1e-9), user
    frame, cats = _frames(recs, categories)
    mean = prm.evaluate(frame, [prm.rank_biased_entropy(k, p=p, categories=cats)]).item()
    assert mean == pytest.approx(sum(got.values()) / len(got), abs=1e-9)
