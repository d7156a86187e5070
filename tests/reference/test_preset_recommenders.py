"""preset="recommenders" against Microsoft Recommenders' python_evaluation on generated data.

Recommenders reads two pandas frames: the ground truth (rating_true: every
row is a relevant item, so it is our rows with grade >= 1) and the
predictions (rating_pred: our retrieved rows, the score as prediction).
Only users in both are evaluated (``no_relevant="skip"``, ``missing="skip"``),
precision_at_k divides by k, recall_at_k by R, map_at_k by min(k, R)
(``ap_denominator="min_k_relevant"``), and ndcg_at_k's
default binary score gives every relevant item gain 1 (grades here are 0 or
1). It ranks by pandas' unstable sort of the predictions, so lists are
tie-free. One documented difference: ndcg_at_k also counts users with
relevant items but no prediction, as 0 (its outer merge), which is the
preset with ``missing="zero"``; its other metrics skip them.
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

evaluation = oracle("recommenders.evaluation.python_evaluation", "oracles")

TOLERANCE = 1e-9
CUTOFFS = (1, 2, 3, 5, 10)


@st.composite
def users(draw: st.DrawFn, *, unanswered: bool) -> pl.DataFrame:
    """Up to six users of tie-free predictions, integer ids.

    Relevant (1), non-relevant (0) and unjudged items, relevant items never predicted, users
    without a relevant item.
    """
    rows = []
    for user in range(draw(st.integers(1, 6))):
        n = draw(st.integers(1, 8))
        scores = [float(s) for s in draw(st.permutations(range(1, n + 1)))]
        grades = [draw(st.sampled_from((None, 0, 1, 1))) for _ in range(n)]
        rows += [(user, 100 + i, scores[i], grades[i]) for i in range(n)]
        rows += [(user, 200 + j, None, 1) for j in range(draw(st.integers(0, 2)))]
    if unanswered:  # users with relevant items and no prediction
        rows += [(99, 300 + j, None, 1) for j in range(draw(st.integers(1, 2)))]
    schema = {"query": pl.Int64, "item": pl.Int64, "score": pl.Float64, "relevance": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def _peer(frame: pl.DataFrame, function: str, k: int) -> float:
    true = frame.filter(pl.col("relevance") >= 1).select(
        userID="query", itemID="item", rating=pl.col("relevance").cast(pl.Float64)
    )
    pred = frame.filter(pl.col("score").is_not_null()).select(
        userID="query", itemID="item", prediction="score"
    )
    return float(getattr(evaluation, function)(true.to_pandas(), pred.to_pandas(), k=k))


def _ours(frame: pl.DataFrame, name: str, **overrides: str) -> float:
    value = prm.evaluate(frame, [name], preset="recommenders", **overrides).item()  # type: ignore[arg-type]
    return float(value)


@settings(max_examples=80, deadline=None)
@given(frame=users(unanswered=True), k=st.sampled_from(CUTOFFS))
def test_precision_recall_and_map_at_k(frame: pl.DataFrame, k: int) -> None:
    if frame.filter((pl.col("relevance") >= 1) & pl.col("score").is_not_null()).is_empty():
        return  # no user in both frames: recommenders returns 0.0, we evaluate no query
    for function, name in [("precision_at_k", "precision"), ("recall_at_k", "recall"), ("map_at_k", "map")]:
        want = _peer(frame, function, k)
        got = _ours(frame, f"{name}@{k}")
        assert abs(got - want) < TOLERANCE, (function, got, want, str(frame))


@settings(max_examples=80, deadline=None)
@given(frame=users(unanswered=False), k=st.sampled_from(CUTOFFS))
def test_ndcg_at_k(frame: pl.DataFrame, k: int) -> None:
    if frame.filter((pl.col("relevance") >= 1) & pl.col("score").is_not_null()).is_empty():
        return
    want = _peer(frame, "ndcg_at_k", k)
    assert abs(_ours(frame, f"ndcg@{k}") - want) < TOLERANCE, str(frame)


@settings(max_examples=40, deadline=None)
@given(frame=users(unanswered=True), k=st.sampled_from(CUTOFFS))
def test_ndcg_at_k_counts_unanswered_users_as_zero(frame: pl.DataFrame, k: int) -> None:
    if frame.filter((pl.col("relevance") >= 1) & pl.col("score").is_not_null()).is_empty():
        return
    want = _peer(frame, "ndcg_at_k", k)
    assert abs(_ours(frame, f"ndcg@{k}", missing="zero") - want) < TOLERANCE, str(frame)
    assert frame.filter(pl.col("query") == 99)["score"].is_null().all()


def test_map_at_k_is_map_capped() -> None:
    # map_at_k divides by min(k, R): the preset's map@k is the library's map_capped@k.
    frame = pl.DataFrame(
        {"query": [1] * 4, "item": [1, 2, 3, 4], "score": [4.0, 3.0, 2.0, None], "relevance": [0, 1, 1, 1]}
    )
    assert _ours(frame, "map@2") == prm.evaluate(frame, ["map_capped@2"]).item() == pytest.approx(0.25)
