"""least_item_promoted against LensKit 2025.8.1's: its test_lip.py cases and generated lists.

LensKit 2025.8.1 (the last release for Python 3.11) is called directly:
``lenskit/metrics/reranking/_lip.py`` 40-49, the largest 0-based index in the reference of an item of
the reranked list's top n (items the reference lacks skipped), at least n, minus n; NaN for an
empty reference.
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
reranking = oracle("lenskit.metrics.reranking", "oracles")

Lists = dict[str, list[int]]


def _lenskit(reference: list[int], reranked: list[int], n: int) -> float:
    ref = lenskit_data.ItemList(item_ids=reference, ordered=True) if reference else lenskit_data.ItemList()
    return float(
        reranking.least_item_promoted(ref, lenskit_data.ItemList(item_ids=reranked, ordered=True), n=n)
    )


def _ours(run: Lists, reference: Lists, n: int) -> dict[str, float | None]:
    rows = [(u, item, float(len(items) - i)) for u, items in run.items() for i, item in enumerate(items)]
    frame = pl.DataFrame(
        rows, schema={"query": pl.String, "item": pl.Int64, "score": pl.Float64}, orient="row"
    )
    ref = pl.DataFrame(
        [(u, item, i + 1) for u, items in reference.items() for i, item in enumerate(items)],
        schema={"query": pl.String, "item": pl.Int64, "rank": pl.Int64},
        orient="row",
    )
    out = prm.evaluate(frame, [prm.least_item_promoted(n, reference=ref)], per_query=True)
    return dict(out.iter_rows())


@pytest.mark.parametrize(
    ("reference", "reranked", "n", "expected"),
    [
        ([10, 11, 12], [1, 2, 3], 3, 0),  # test_lip_no_overlap
        ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5], 3, 0),  # test_lip_perfect_alignment
        ([1, 2, 3, 4, 5, 6], [6, 2, 3, 1], 3, 2),  # test_lip_promoted_from_below_k
        ([1, 2, 3, 4, 5, 6, 7], [7, 6, 2, 3], 3, 3),  # test_lip_multiple_promotions
    ],
)
def test_lenskit_cases(reference: list[int], reranked: list[int], n: int, expected: int) -> None:
    """tests/eval/test_lip.py (lenskit/lkpy)."""
    assert _lenskit(reference, reranked, n) == expected
    assert _ours({"q": reranked}, {"q": reference}, n) == {"q": expected}


def test_an_empty_reference_has_no_value() -> None:
    """test_lip_empty_reference: NaN there, null here (not averaged)."""
    assert math.isnan(_lenskit([], [1, 2, 3], 10))
    assert _ours({"q": [1, 2, 3], "r": [1]}, {"r": [5, 1]}, 10) == {"q": None, "r": 0.0}
    assert _ours({"q": [1, 2, 3], "r": [5]}, {"r": [1, 2, 5]}, 1) == {"q": None, "r": 1.0}


lists_strategy = st.dictionaries(
    st.sampled_from([f"u{j}" for j in range(5)]),
    st.lists(st.integers(0, 14), unique=True, min_size=1, max_size=12),
    min_size=1,
)


@settings(max_examples=60, deadline=None)
@given(run=lists_strategy, reference=lists_strategy, n=st.integers(1, 6))
def test_least_item_promoted_equals_lenskits(run: Lists, reference: Lists, n: int) -> None:
    got = _ours(run, reference, n)
    for user, items in run.items():
        want = _lenskit(reference.get(user, []), items, n)
        if math.isnan(want):
            assert got[user] is None
        else:
            assert got[user] == want
