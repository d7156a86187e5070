"""Microsoft Recommenders' beyond-accuracy functions (``python_evaluation``) against ours, under pandas 2.

Recommenders 1.2.1 reads the users' histories (``train_df``) and the top-k
recommendations (``reco_df``): here our retrieved rows within k, ties in
trec_eval's order (``with_rank`` of tests/strategies.py, plain Python). Under
pandas 3 its ``novelty``, ``diversity``, ``distributional_coverage`` and
``serendipity`` index a Series by position (``Series[0]``) and its
``fillna(0, inplace=True)`` on a column is a no-op (pairs of similarity 0
would be dropped from the means): these tests need pandas < 3, which the
'oracles' extra pins; they are skipped under pandas 3 and fail under
``PRM_REQUIRE_ORACLES``.

How each of ours reproduces theirs (to 1e-12, per user where Recommenders
gives per-user values, and in the mean):

* ``distributional_coverage``: ``entropy(k)``, ``-sum_i p_i log2 p_i`` over
  every top-k row (both count rows, both take base 2).
* ``catalog_coverage``: ``coverage(k, catalog=n)`` with ``n`` the number of
  distinct items in the histories, Recommenders' denominator. Its numerator
  counts recommended items outside the histories too; a coverage above 1 is
  refused by ours (``catalog`` smaller than the items recommended), and a
  catalog frame of the histories' items refuses such items.
* ``diversity`` with ``item_feature_vector``: ``1 - intra_list_similarity(k,
  features=...)``; both take the mean cosine over each list's pairs, then the
  mean over the lists of two items or more.
* ``novelty``: ``novelty(k, popularity=rows per item in the histories,
  n_users=number of history rows)``, Recommenders' item choice model
  ``p_i = rows of i / rows``. Recommenders averages over every recommended
  row, ours by default over each list then over the lists: equal when the
  lists have one length; otherwise ours per list, weighted by the list's
  length, is theirs, and so is ``per="item"``. Items outside the histories
  differ: Recommenders adds 0 for them, ours refuses them (``test_novelty_of_an_item_outside_the_histories``).
* ``serendipity``: ``serendipity(k, history=...)`` with and without the
  relevance column, by co-occurrence and by features; item pairs that never
  co-occur count 0 in both.

No metric of ours is Recommenders' ``diversity`` by co-occurrence (the
intra-list similarity from the histories' co-occurrence cosine): not compared.
Relevance is 0 or 1 here: Recommenders multiplies by the relevance column's
value, ours by the binary ``grade >= relevance_level``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peers import pandas2_oracle
from strategies import with_rank

import polars_rankmetrics as prm

pytestmark = [
    pytest.mark.oracles,
    pytest.mark.filterwarnings(
        "ignore::polars_rankmetrics.RankMetricsWarning",
        "ignore::FutureWarning",  # pandas 2.2's chained-assignment warnings inside Recommenders
        "ignore::pandas.errors.SettingWithCopyWarning",
    ),
]

evaluation = pandas2_oracle(
    "recommenders.evaluation.python_evaluation",
    "oracles",
    "Series[0] by position, and fillna(inplace=True) on a column under copy-on-write",
)

TOLERANCE = 1e-12
EXAMPLES = settings(max_examples=25, deadline=None)
CUTOFFS = st.sampled_from([1, 2, 5, None])


@dataclass(frozen=True)
class Case:
    """Lists (query, item, score, relevance), histories (user, item), non-zero feature vectors."""

    frame: pl.DataFrame
    history: pl.DataFrame
    features: dict[int, list[float]]


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """Up to six users and eight items, integer ids.

    Tied scores, users with one recommended item, users without a history, items in no history
    (cold), relevant items never retrieved, history-only users; no recommended item in its user's
    history (Recommenders' precondition) and at least one history row (its coverage divides by it).
    """
    items = list(range(100, 100 + draw(st.integers(2, 8))))
    rows: list[tuple[int, int, float | None, int]] = []
    history: list[tuple[int, int]] = []
    for user in range(draw(st.integers(1, 6))):
        seen = draw(st.lists(st.sampled_from(items), unique=True, max_size=len(items) - 1))
        history += [(user, i) for i in seen]
        fresh = draw(st.permutations([i for i in items if i not in seen]))
        n = draw(st.integers(1, len(fresh)) | st.just(len(fresh)))  # often every item not yet seen
        rows += [(user, i, float(draw(st.integers(1, 3))), draw(st.sampled_from([0, 1]))) for i in fresh[:n]]
        rows += [(user, i, None, 1) for i in fresh[n:][: draw(st.integers(0, 1))]]
    history += [
        (50 + j, i)
        for j in range(draw(st.integers(0, 3)))
        for i in draw(st.lists(st.sampled_from(items), unique=True))
    ]
    if not history:
        history = [(60, draw(st.sampled_from(items)))]
    features = {}
    for i in items:
        vector = [float(draw(st.integers(0, 2))) for _ in range(3)]
        features[i] = vector if any(vector) else [1.0, 0.0, 0.0]  # Recommenders divides by the norms
    frame = pl.DataFrame(
        rows,
        schema={"query": pl.Int64, "item": pl.Int64, "score": pl.Float64, "relevance": pl.Int64},
        orient="row",
    )
    histories = pl.DataFrame(history, schema={"user": pl.Int64, "item": pl.Int64}, orient="row")
    return Case(frame, histories, features)


def top_k(frame: pl.DataFrame, k: int | None) -> pl.DataFrame:
    """The retrieved rows within `k` (trec_eval's order of ties), as Recommenders' reco_df columns."""
    ranked = with_rank(frame).filter(pl.col("rank").is_not_null() & (pl.col("rank") <= (k or 10**9)))
    return ranked.select(userID="query", itemID="item", rel="relevance")


def train_of(history: pl.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"userID": history["user"].to_list(), "itemID": history["item"].to_list()})


def reco_of(top: pl.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({c: top[c].to_list() for c in top.columns})


def feature_frame(features: dict[int, list[float]]) -> pd.DataFrame:
    return pd.DataFrame({"itemID": list(features), "features": [np.array(v) for v in features.values()]})


def peer(function: str, *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401
    """Call a Recommenders function with its caches cleared, its pandas warnings silenced."""
    for name in dir(evaluation):
        cached = getattr(evaluation, name)
        if callable(getattr(cached, "cache_clear", None)):
            cached.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(evaluation, function)(*args, **kwargs)


def per_user(frame: pl.DataFrame, metric: prm.Metric) -> dict[int, float]:
    """Our catalog metric with each user as its own `by` group: {user: value}, nulls left out."""
    out = prm.evaluate(frame.with_columns(pl.col("query").alias("user")), [metric], by="user")
    return {u: v for u, v in out.iter_rows() if v is not None}


def assert_close(got: float | None, want: float) -> None:
    if math.isnan(want):  # Recommenders' mean of no user
        assert got is None
    else:
        assert got is not None
        assert abs(got - want) <= TOLERANCE, (got, want)


def assert_per_user(got: dict[int, float], want: pd.DataFrame, column: str) -> None:
    expected = dict(zip(want["userID"].tolist(), want[column].tolist(), strict=True))
    assert got.keys() == expected.keys(), (got, expected)
    for user, value in expected.items():
        assert abs(got[user] - value) <= TOLERANCE, (user, got[user], value)


@EXAMPLES
@given(cases(), CUTOFFS)
def test_distributional_coverage_is_entropy(case: Case, k: int | None) -> None:
    want = peer("distributional_coverage", train_of(case.history), reco_of(top_k(case.frame, k)))
    assert_close(prm.evaluate(case.frame, [prm.entropy(k)]).item(), float(want))


@EXAMPLES
@given(cases(), CUTOFFS)
def test_catalog_coverage_is_coverage_of_the_histories_items(case: Case, k: int | None) -> None:
    top = top_k(case.frame, k)
    want = float(peer("catalog_coverage", train_of(case.history), reco_of(top)))
    history_items = case.history["item"].unique()
    metric = prm.coverage(k, catalog=history_items.len())
    if top["itemID"].n_unique() > history_items.len():  # Recommenders' coverage above 1
        assert want > 1
        with pytest.raises(prm.InvalidDataError, match="catalog"):
            prm.evaluate(case.frame, [metric])
        return
    assert_close(prm.evaluate(case.frame, [metric]).item(), want)
    if top["itemID"].is_in(history_items.implode()).all():
        got = prm.evaluate(case.frame, [prm.coverage(k, catalog=history_items)]).item()
        assert_close(got, want)


@EXAMPLES
@given(cases(), st.sampled_from([2, 3, 5, None]))  # a cutoff of 1 leaves no pair
def test_diversity_by_features_is_one_minus_intra_list_similarity(case: Case, k: int | None) -> None:
    train, reco = train_of(case.history), reco_of(top_k(case.frame, k))
    kwargs: dict[str, Any] = {
        "item_feature_df": feature_frame(case.features),
        "item_sim_measure": "item_feature_vector",
    }
    features = pl.DataFrame({"item": list(case.features), "f": list(case.features.values())})
    metric = prm.intra_list_similarity(k, features=features)
    per_list = {u: 1.0 - v for u, v in per_user(case.frame, metric).items()}
    assert_per_user(per_list, peer("user_diversity", train, reco, **kwargs), "user_diversity")
    ils = prm.evaluate(case.frame, [metric]).item()
    assert_close(None if ils is None else 1.0 - ils, float(peer("diversity", train, reco, **kwargs)))


@EXAMPLES
@given(cases(), CUTOFFS)
def test_novelty_with_rows_as_choices(case: Case, k: int | None) -> None:
    warm = case.frame.filter(pl.col("item").is_in(case.history["item"].implode()))
    top = top_k(warm, k)
    if top.is_empty():
        return  # every recommended item is cold: test_novelty_of_an_item_outside_the_histories
    train, reco = train_of(case.history), reco_of(top)
    popularity = case.history.group_by("item").len()
    metric = prm.novelty(k, popularity=popularity, n_users=case.history.height)
    want = float(peer("novelty", train, reco))
    # Per item: Recommenders' historical_item_novelty is ours on a list of that item alone.
    items = peer("historical_item_novelty", train, reco)
    alone = pl.DataFrame({"query": items["itemID"].tolist(), "item": items["itemID"].tolist(), "score": 1.0})
    assert_per_user(per_user(alone, metric), items.rename(columns={"itemID": "userID"}), "item_novelty")
    # Per list, weighted by the list's length: Recommenders' mean over every recommended row.
    lengths = dict(top.group_by("userID").len().iter_rows())
    lists = per_user(warm, metric)
    assert lists.keys() == lengths.keys()
    weighted = sum(lists[u] * lengths[u] for u in lists) / sum(lengths.values())
    assert_close(weighted, want)
    if len(set(lengths.values())) == 1:  # lists of one length: the means agree
        assert_close(prm.evaluate(warm, [metric]).item(), want)
    # per="item": the mean over every recommended item, Recommenders' own averaging, whatever the lengths.
    per_item = prm.novelty(k, popularity=popularity, n_users=case.history.height, per="item")
    assert_close(prm.evaluate(warm, [per_item]).item(), want)


def test_novelty_of_an_item_outside_the_histories() -> None:
    # Histories: u1 {a, b}, u2 {a}; u3 is recommended a and c, an item in no history.
    history = pl.DataFrame({"user": [1, 1, 2], "item": ["a", "b", "a"]})
    frame = pl.DataFrame({"query": [3, 3], "item": ["a", "c"], "score": [2.0, 1.0]})
    reco = pd.DataFrame({"userID": [3, 3], "itemID": ["a", "c"]})
    # Recommenders: c is dropped from the sum but counted among the rows, as a novelty of 0.
    want = -math.log2(2 / 3) / 2
    assert abs(float(peer("novelty", train_of(history), reco)) - want) <= TOLERANCE
    # Ours: the self-information of an item nobody chose is undefined, an error naming it.
    popularity = history.group_by("item").len()
    with pytest.raises(prm.InvalidDataError, match="'c'"):  # names the item
        prm.evaluate(frame, [prm.novelty(2, popularity=popularity, n_users=history.height)])


@EXAMPLES
@given(cases(), CUTOFFS, st.booleans(), st.booleans())
def test_serendipity_with_pairs_of_similarity_zero(
    case: Case, k: int | None, relevance: bool, by_features: bool
) -> None:
    train, reco = train_of(case.history), reco_of(top_k(case.frame, k))
    kwargs: dict[str, Any] = {"col_relevance": "rel"} if relevance else {}
    table = None
    if by_features:
        kwargs |= {"item_feature_df": feature_frame(case.features), "item_sim_measure": "item_feature_vector"}
        table = pl.DataFrame({"item": list(case.features), "f": list(case.features.values())})
    if not relevance:
        reco = reco.drop(columns="rel")
    metric = prm.serendipity(k, history=case.history, features=table, relevance=relevance)
    want = peer("user_serendipity", train, reco, **kwargs)
    assert_per_user(per_user(case.frame, metric), want, "user_serendipity")
    assert_close(prm.evaluate(case.frame, [metric]).item(), float(peer("serendipity", train, reco, **kwargs)))


def test_serendipity_counts_a_pair_that_never_cooccurs() -> None:
    # Histories: u1 {a}, u2 {b}, u3 {a, c}. u1 is recommended b (never with a: 0) and c (with a once).
    history = pl.DataFrame({"user": [1, 2, 3, 3], "item": ["a", "b", "a", "c"]})
    frame = pl.DataFrame({"query": [1, 1], "item": ["b", "c"], "score": [2.0, 1.0], "relevance": [1, 1]})
    reco = pd.DataFrame({"userID": [1, 1], "itemID": ["b", "c"], "rel": [1, 1]})
    # sim(b, a) = 0, sim(c, a) = 1 / sqrt(2 * 1): ((1 - 0) + (1 - 1/sqrt 2)) / 2.
    want = (1 + 1 - 1 / math.sqrt(2)) / 2
    theirs = float(peer("serendipity", train_of(history), reco, col_relevance="rel"))
    ours = prm.evaluate(frame, [prm.serendipity(2, history=history)]).item()
    assert abs(theirs - want) <= TOLERANCE
    assert abs(ours - want) <= TOLERANCE
