"""serendipity against Microsoft Recommenders' python_evaluation.serendipity on generated data.

Recommenders reads the history (train_df), the top-k recommendations with a
relevance column (reco_df) and, for the feature similarity, item feature
vectors. Its preconditions hold here: no duplicate history rows and no
recommended item already in the user's history; users without a history and
users with one item.

Under pandas 3 (copy-on-write) Recommenders' ``fillna(0, inplace=True)`` on a
column is a no-op, so item pairs without a similarity would be skipped, not
counted as 0; and a zero feature vector divides by zero. The generated data
avoids both: one extra history user holds every item (every pair co-occurs)
and every feature vector is non-zero, so that it runs under pandas 2 and 3.
Pairs of similarity 0 are checked by hand (tests/metrics/test_serendipity.py and the
docstring example) and, under pandas 2, against Recommenders' own ``serendipity`` on
data without that user (test_beyond_recommenders.py).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pytest
from beyond_cases import FEWER
from hypothesis import given
from hypothesis import strategies as st
from peers import oracle

import polars_rankmetrics as prm

pytestmark = [
    pytest.mark.oracles,
    pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning", "ignore::FutureWarning"),
]

evaluation = oracle("recommenders.evaluation.python_evaluation", "oracles")

TOLERANCE = 1e-12


@st.composite
def data(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame, dict[int, list[float]]]:
    """(lists with relevance, history, features): integer ids, recommended items outside each history."""
    items = list(range(100, 100 + draw(st.integers(2, 8))))
    rows, history = [], []
    for user in range(draw(st.integers(1, 6))):
        seen = draw(st.lists(st.sampled_from(items), unique=True, max_size=len(items) - 1))
        history += [(user, i) for i in seen]
        fresh = [i for i in items if i not in seen]
        ranked = draw(st.permutations(fresh))[: draw(st.integers(1, len(fresh)))]
        rows += [
            (user, i, float(len(ranked) - p), draw(st.sampled_from([0, 1]))) for p, i in enumerate(ranked)
        ]
    history += [
        (50 + j, i)
        for j in range(draw(st.integers(0, 3)))
        for i in draw(st.lists(st.sampled_from(items), unique=True))
    ]
    history += [(999, i) for i in items]  # every pair co-occurs (see the module's docstring)
    features = {
        i: [float(draw(st.integers(1, 2))), *(float(draw(st.integers(0, 2))) for _ in range(2))]
        for i in items
    }
    frame = pl.DataFrame(
        rows,
        schema={"query": pl.Int64, "item": pl.Int64, "score": pl.Float64, "relevance": pl.Int64},
        orient="row",
    )
    return frame, pl.DataFrame(history, schema={"user": pl.Int64, "item": pl.Int64}, orient="row"), features


def recommenders(
    frame: pl.DataFrame,
    history: pl.DataFrame,
    k: int,
    features: dict[int, list[float]] | None,
    *,
    relevance: bool,
) -> float | None:
    top = frame.filter(pl.col("score").rank(descending=True).over("query") <= k)
    reco = pd.DataFrame({"userID": top["query"].to_list(), "itemID": top["item"].to_list(),
                         "rel": top["relevance"].to_list()})  # fmt: skip
    train = pd.DataFrame({"userID": history["user"].to_list(), "itemID": history["item"].to_list()})
    if not set(reco["userID"]) & set(train["userID"]):
        return None  # no user with a history: Recommenders' mean of nothing
    kwargs: dict[str, Any] = {"col_user": "userID", "col_item": "itemID"}
    if relevance:
        kwargs["col_relevance"] = "rel"
    if features is not None:
        kwargs["item_feature_df"] = pd.DataFrame(
            {"itemID": list(features), "features": [np.array(v) for v in features.values()]}
        )
        kwargs["item_sim_measure"] = "item_feature_vector"
    for cached in (evaluation._get_cosine_similarity, evaluation.user_serendipity):  # noqa: SLF001
        cached.cache_clear()  # lru_cache_df: cleared between examples all the same
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas 3's chained-assignment warnings inside Recommenders
        # serendipity() itself indexes a Series by position ([0]), which pandas 3 refuses: take the
        # mean of user_serendipity, the per-user values it averages.
        per_user = evaluation.user_serendipity(train, reco, **kwargs)
        return float(per_user["user_serendipity"].mean())


@FEWER
@given(data(), st.sampled_from([1, 2, 5]), st.booleans(), st.booleans())
def test_serendipity_matches_recommenders(case: Any, k: int, relevance: bool, by_features: bool) -> None:  # noqa: ANN401
    frame, history, features = case
    table = pl.DataFrame({"item": list(features), "f": list(features.values())}) if by_features else None
    metric = prm.serendipity(k, history=history, features=table, relevance=relevance)
    got = prm.evaluate(frame, [metric]).item()
    want = recommenders(frame, history, k, features if by_features else None, relevance=relevance)
    if want is None:
        assert got is None
    else:
        assert got is not None
        assert abs(got - want) <= TOLERANCE, (got, want)
