"""preset="recommenders" on rated truth and tied predictions; recmetrics' mark and mapk.

test_preset_recommenders.py compares tie-free lists with grades 0 and 1; here
the truth rows carry ratings 1..5 (every one relevant: ``gain="binary"``
reproduces ndcg_at_k's default score, where a linear gain would not), the
predictions tie, and users sit in one frame only.

Recommenders (1.2.1, ``recommenders/evaluation/python_evaluation.py``;
installed ``--no-deps``: its dependencies pin pandas < 3 and pull in
cornac, lightgbm, transformers... that its evaluation module does not use)
reads a truth frame (user, item, rating: every row is relevant) and a
prediction frame (user, item, prediction). Its rules:

- ``precision_at_k``, ``recall_at_k``, ``map_at_k`` keep the users present
  in both frames (``missing="skip"``, ``no_relevant="skip"``) and score a
  user without a hit 0;
  ``map_at_k`` divides by ``min(k, R)`` (``ap_denominator="min_k_relevant"``),
  its ``map`` by R (trec_eval's ``map_cut``).
- ``ndcg_at_k`` (``score_type="binary"``: every relevant item gains 1,
  ``gain="binary"``; its natural-log discount cancels in the ratio) also
  scores 0 the users of the truth frame missing from the predictions: it is
  compared with ``missing="zero"``.
- It ranks by ``sort_values([user, prediction])``, a multi-column sort that
  pandas runs stably (a lexsort): ties keep the prediction frame's row
  order, given here in trec_eval's order (item text descending), so the
  comparison holds on tied scores.
- Every truth row is relevant (ratings 1..5 here), so a user of the truth
  frame always has a relevant item; predicted items outside the truth are
  unjudged (null grade); truth items never predicted are relevant items
  never retrieved.

recmetrics 0.1.5 (the last release; its package ``__init__`` imports its
plots, which need plotly and seaborn, so ``recmetrics/metrics.py`` is loaded
alone, from the installed package) has ``mark`` (our ``mar@k``) but no
``mapk``: that is on its main branch only (commit 6423808, 2023-03-10,
``recmetrics/metrics.py``, ``_apk``), transcribed below; it divides by the
relevant items found in the top k (``ap_denominator="found"``).
"""

from __future__ import annotations

import warnings

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peers import oracle, oracle_module_file

import polars_rankmetrics as prm

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # its import-time warnings (pandas 3) are not ours to test
    evaluation = oracle("recommenders.evaluation.python_evaluation", "oracles")

pytestmark = [
    pytest.mark.oracles,
    pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning", "ignore::FutureWarning"),
]

TOLERANCE = 1e-9
CUTOFFS = (1, 2, 3, 5, 10)
SCORES = (0.5, 1.0, 2.0, 3.0)  # ties are common
SCHEMA = {"query": pl.String, "item": pl.String, "score": pl.Float64, "relevance": pl.Int64}


def apk_main_branch(actual: list[str], predicted: list[str], k: int) -> float:
    """The ``_apk`` of recmetrics' main branch (commit 6423808), transcribed: precisions over hits found."""
    if not predicted or not actual:
        return 0.0
    if len(predicted) > k:
        predicted = predicted[:k]
    score = 0.0
    true_positives = 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            top = predicted[: min(i + 1, len(predicted))]
            score += len([v for v in top if v in actual]) / len(top)
            true_positives += 1
    if score == 0.0:
        return 0.0
    return score / true_positives


@st.composite
def truth_and_predictions(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(truth, predictions): up to five users, items i0..i9, tied scores, some users in one frame only."""
    truth, predictions = [], []
    for user in range(draw(st.integers(1, 5))):
        items = [f"i{j}" for j in range(10)]
        kind = draw(st.sampled_from(("both", "both", "both", "truth_only", "predictions_only")))
        if kind != "predictions_only":
            rated = draw(st.lists(st.sampled_from(items), min_size=1, max_size=6, unique=True))
            truth += [(f"u{user}", item, draw(st.integers(1, 5))) for item in rated]
        if kind != "truth_only":
            listed = draw(st.lists(st.sampled_from(items), min_size=1, max_size=8, unique=True))
            predictions += [(f"u{user}", item, draw(st.sampled_from(SCORES))) for item in listed]
    t = pl.DataFrame(
        truth, schema={"userID": pl.String, "itemID": pl.String, "rating": pl.Int64}, orient="row"
    )
    p = pl.DataFrame(
        predictions, schema={"userID": pl.String, "itemID": pl.String, "prediction": pl.Float64}, orient="row"
    )
    # The predictions in trec_eval's order (score, then item text, descending): recommenders keeps it in ties.
    return t, p.sort(["userID", "prediction", "itemID"], descending=[False, True, True])


def as_frame(truth: pl.DataFrame, predictions: pl.DataFrame) -> pl.DataFrame:
    """Our long frame: predicted items with their score, truth items with their rating, joined."""
    run = predictions.rename({"userID": "query", "itemID": "item", "prediction": "score"})
    qrels = truth.rename({"userID": "query", "itemID": "item", "rating": "relevance"})
    return run.join(qrels, on=["query", "item"], how="full", coalesce=True).select(list(SCHEMA)).cast(SCHEMA)


def recommenders_values(truth: pl.DataFrame, predictions: pl.DataFrame, k: int) -> dict[str, float]:
    t, p = truth.to_pandas(), predictions.to_pandas()
    return {
        f"precision@{k}": evaluation.precision_at_k(t, p, k=k),
        f"recall@{k}": evaluation.recall_at_k(t, p, k=k),
        f"map@{k}": evaluation.map_at_k(t, p, k=k),
        f"ndcg@{k}": evaluation.ndcg_at_k(t, p, k=k),
        "map_over_r": evaluation.map(t, p, k=k),
    }


def ours(frame: pl.DataFrame, k: int, *, per_query: bool) -> dict[str, dict[str, float]]:
    """Our values by metric, then by query ("" for the mean), with each function's population rule."""
    skip = prm.evaluate(
        frame, [f"precision@{k}", f"recall@{k}", f"map@{k}"], per_query=per_query, preset="recommenders"
    )
    zero = prm.evaluate(frame, [f"ndcg@{k}"], per_query=per_query, preset="recommenders", missing="zero")
    over_r = prm.evaluate(
        frame, [f"map@{k}"], per_query=per_query, preset="recommenders", ap_denominator="relevant"
    ).rename({f"map@{k}": "map_over_r"})
    out: dict[str, dict[str, float]] = {}
    for part in (skip, zero, over_r):
        for row in part.iter_rows(named=True):
            query = row.pop("query", "")
            for name, value in row.items():
                out.setdefault(name, {})[query] = value
    return out


@settings(max_examples=40)  # recommenders runs pandas merges per call, once per user: ~0.5 s an example
@given(data=truth_and_predictions(), k=st.sampled_from(CUTOFFS))
def test_rated_truth_and_ties_match_python_evaluation(
    data: tuple[pl.DataFrame, pl.DataFrame], k: int
) -> None:
    truth, predictions = data
    frame = as_frame(truth, predictions)
    bad = []
    # Means over users, each function's own population.
    common = set(truth["userID"]) & set(predictions["userID"])
    if common:
        means = ours(frame, k, per_query=False)
        for name, want in recommenders_values(truth, predictions, k).items():
            got = means[name][""]
            if abs(got - want) > TOLERANCE:
                bad.append(f"mean {name}: ours {got!r}, recommenders {want!r}")
    # Per user: recommenders scores one user alone.
    per_query = ours(frame, k, per_query=True)
    for user in sorted(common):
        alone = recommenders_values(
            truth.filter(pl.col("userID") == user), predictions.filter(pl.col("userID") == user), k
        )
        for name, want in alone.items():
            got = per_query[name][user]
            if abs(got - want) > TOLERANCE:
                bad.append(f"{user} {name}: ours {got!r}, recommenders {want!r}")
    assert not bad, "\n".join([*bad, str(truth), str(predictions)])


@given(data=truth_and_predictions(), k=st.sampled_from(CUTOFFS))
def test_recmetrics_mark_and_mapk(data: tuple[pl.DataFrame, pl.DataFrame], k: int) -> None:
    truth, predictions = data
    metrics = oracle_module_file("recmetrics", "metrics", "oracles")
    users = sorted(set(truth["userID"]))  # every judged user; one never predicted has an empty list
    if not users:
        return  # nothing judged: we evaluate no user, recmetrics' mean of nothing is NaN
    actual = [truth.filter(pl.col("userID") == u)["itemID"].to_list() for u in users]
    predicted = [predictions.filter(pl.col("userID") == u)["itemID"].to_list() for u in users]
    frame = as_frame(truth, predictions)
    got = prm.evaluate(
        frame, [f"mar@{k}", f"map@{k}"], preset="recommenders", missing="zero", ap_denominator="found"
    ).row(0)
    want_mapk = sum(apk_main_branch(a, p, k) for a, p in zip(actual, predicted, strict=True)) / len(users)
    assert got == pytest.approx((float(metrics.mark(actual, predicted, k=k)), want_mapk), abs=TOLERANCE)


def test_binary_gain_by_hand() -> None:
    # Ratings 5 and 1, found at ranks 2 and 1: recommenders' binary nDCG ignores the ratings.
    truth = pl.DataFrame({"userID": ["u", "u"], "itemID": ["a", "b"], "rating": [5, 1]})
    predictions = pl.DataFrame(
        {"userID": ["u"] * 3, "itemID": ["b", "a", "c"], "prediction": [3.0, 2.0, 1.0]}
    )
    want = evaluation.ndcg_at_k(truth.to_pandas(), predictions.to_pandas(), k=3)
    assert want == pytest.approx(1.0)
    frame = as_frame(truth, predictions)
    assert prm.evaluate(frame, ["ndcg@3"], preset="recommenders").item() == pytest.approx(want, abs=1e-12)
    assert prm.evaluate(frame, ["ndcg@3"]).item() < 0.9  # linear gain: the rating-5 item should come first
