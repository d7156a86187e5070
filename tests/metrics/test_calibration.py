"""calibration (metrics/calibration.py): category_diversity (RePlay) and miscalibration (Steck) by reference.

RePlay needs Polars < 2, so its formulas are transcribed in tests/beyond_reference.py
and its documentation examples are fixtures here; miscalibration follows the paper. The
surprise family's RePlay metrics are in tests/metrics/test_surprise.py.
"""

from __future__ import annotations

from math import log
from typing import Any

import beyond_reference as ref
import polars as pl
import pytest
from beyond_cases import FEWER, Case, cases, close, top, values
from hypothesis import given
from hypothesis import strategies as st

import polars_rankmetrics as prm
from metrics._helpers import DEGENERATE_DATA


@DEGENERATE_DATA
@FEWER
@given(cases(), st.sampled_from([1, 2, 4]))
def test_replay_category_diversity_matches_its_transcription(case: Case, k: int) -> None:
    metric = prm.category_diversity(k, categories=case.category_frame())
    for key, row in values(case, [metric]).items():
        users = case.lists[key or "als"]
        want = ref.category_diversity(list(users.values()), case.categories, k)
        assert close(row[str(metric)], want), (str(metric), row[str(metric)], want)


@DEGENERATE_DATA
@FEWER
@given(cases(), st.sampled_from([1, 3, None]), st.sampled_from([0.01, 0.5, 1.0]))
def test_miscalibration_matches_steck(case: Case, k: int | None, alpha: float) -> None:
    history, cats = case.interactions(), case.category_frame()
    metrics = [prm.miscalibration(k, history=history, categories=cats, alpha=alpha, weights=weights)
               for weights in ("uniform", "rank")]  # fmt: skip
    for key, row in values(case, metrics).items():
        users = top(case.lists[key or "als"], k)
        plain = ref.miscalibration(users, case.train(), case.categories, alpha)
        ranked = ref.miscalibration(users, case.train(), case.categories, alpha, rank_weights=True)
        assert close(row[str(metrics[0])], plain), (row, plain)
        assert close(row[str(metrics[1])], ranked), (row, ranked)


def test_replay_doc_examples() -> None:
    # RePlay's CategoricalDiversity docstring (the recommendations of its Unexpectedness's).
    scores = [0.6, 0.5, 0.4, 0.3, 0.2, 0.6, 0.5, 0.4, 0.3, 0.2, 1.0, 0.5, 0.1]
    recs = pl.DataFrame({"query": [1] * 5 + [2] * 5 + [3] * 3,
                         "item": [3, 7, 10, 11, 2, 5, 8, 11, 1, 3, 4, 9, 2], "score": scores})  # fmt: skip
    per_item = recs.with_columns(pl.int_range(pl.len()).alias("item"))  # one category per row, as RePlay's
    cats = pl.DataFrame({"item": list(range(13)), "category": recs["item"]})
    got = prm.evaluate(
        per_item, [prm.category_diversity(3, categories=cats), prm.category_diversity(5, categories=cats)]
    )
    assert got.row(0) == pytest.approx((1.0, 0.8666666666666667), abs=1e-12)


def test_miscalibration_hand_computed() -> None:
    history = pl.DataFrame({"user": [1, 1, 1, 2], "item": ["d1", "d2", "dc", "c1"]})
    cats = pl.DataFrame({"item": ["d1", "d2", "dc", "dc", "c1", "c2"],
                         "genre": ["drama", "drama", "drama", "comedy", "comedy", "comedy"]})  # fmt: skip
    frame = pl.DataFrame(
        {"query": [1, 1, 2, 3], "item": ["c2", "d1", "c2", "d1"], "score": [2.0, 1.0, 1.0, 1.0]}
    )
    got = prm.evaluate(frame, [prm.miscalibration(2, history=history, categories=cats, alpha=0.1)])
    # User 1: p = (drama 2.5/3, comedy 0.5/3); q = (drama 1/2, comedy 1/2). User 2: p = q. User 3: no history.
    p_d, p_c = 2.5 / 3, 0.5 / 3
    q_d, q_c = 0.9 * 0.5 + 0.1 * p_d, 0.9 * 0.5 + 0.1 * p_c
    want = (p_d * log(p_d / q_d) + p_c * log(p_c / q_c) + 0.0) / 2
    assert got.item() == pytest.approx(want, abs=1e-12)


TWO = pl.DataFrame({"user": [1], "item": ["a"]})
CATS = pl.DataFrame({"item": ["a"], "group": ["x"]})


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda: prm.category_diversity(3), prm.InvalidParameterError, "categories"),
        (lambda: prm.category_diversity(
            3, categories=pl.DataFrame({"item": ["a", None], "group": ["x", "y"]})),
         prm.InvalidDataError, "nulls in its column 'item'"),
        (lambda: prm.miscalibration(3, categories=CATS), prm.InvalidParameterError, "history"),
        (lambda: prm.miscalibration(3, history=TWO,
                                    categories=CATS, weights="log"),
         prm.InvalidParameterError, "weights"),
        (lambda: prm.miscalibration(3, history=TWO,
                                    categories=CATS, alpha=0),
         prm.InvalidParameterError, "alpha"),
    ],
)  # fmt: skip
def test_side_inputs_are_checked(build: Any, error: type[Exception], match: str) -> None:  # noqa: ANN401
    with pytest.raises(error, match=match):
        build()


def test_items_without_categories_are_named() -> None:
    frame = pl.DataFrame({"query": [1, 1], "item": ["a", "z"], "score": [2.0, 1.0]})
    cats = pl.DataFrame({"item": ["a", "b"], "group": ["x", "y"]})
    with pytest.raises(prm.InvalidDataError, match="item 'z' of the ranked lists has no row in `categories`"):
        prm.evaluate(frame, [prm.category_diversity(2, categories=cats)])
    history = pl.DataFrame({"user": [1], "item": ["q"]})
    with pytest.raises(prm.InvalidDataError, match="item 'q' of the history has no row in `categories`"):
        prm.evaluate(frame.head(1), [prm.miscalibration(2, history=history, categories=cats)])
