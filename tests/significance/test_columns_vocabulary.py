"""Readers of per-query frames (compare, summarize, power...) take evaluate's columns= or find them."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import plots

pytest.importorskip("scipy")

COLS = prm.Columns(query="user_id", item="item_id", relevance="rating")


@pytest.fixture
def frame() -> pl.DataFrame:
    users, items = 8, 4
    rows = [
        (model, u, f"i{i}", float((u * 7 + i * (3 + 2 * (model == "b")) + u * i) % 5), (u + i) % 3 * (i != 3))
        for model in ("a", "b")
        for u in range(users)
        for i in range(items)
    ]
    return pl.DataFrame(rows, schema=["model", "user_id", "item_id", "score", "rating"], orient="row")


@pytest.fixture
def reference(frame: pl.DataFrame) -> pl.DataFrame:
    """The same per-query values under the default column names."""
    default = frame.rename({"user_id": "query", "item_id": "item", "rating": "relevance"})
    return prm.evaluate(default, ["ndcg@3", "mrr"], by="model", per_query=True)


def _equal(left: pl.DataFrame, right: pl.DataFrame) -> None:
    if "paired_on" in left.columns:  # compare's output names the unit of pairing: the user's column
        assert set(left["paired_on"]) == {"user_id"}
        assert set(right["paired_on"]) == {"query"}
        left, right = left.drop("paired_on"), right.drop("paired_on")
    assert left.rename({"user_id": "query"}, strict=False).equals(right)


def test_compare_finds_the_query_column_evaluate_used(frame: pl.DataFrame, reference: pl.DataFrame) -> None:
    per_query = prm.evaluate(frame, ["ndcg@3", "mrr"], by="model", per_query=True, columns=COLS)
    expected = prm.compare(reference, by="model")
    _equal(prm.compare(per_query, by="model"), expected)  # the walk: no query= again
    _equal(prm.compare(per_query), expected)  # nor by=: the frame evaluate returned knows both
    copy = per_query.clone()  # a frame evaluate did not return: named by columns=, mapping or query=
    for kwargs in ({"columns": COLS}, {"columns": {"query": "user_id"}}, {"query": "user_id"}, {}):
        _equal(prm.compare(copy, by="model", **kwargs), expected)  # {}: user_id is the one candidate


def test_a_lazy_evaluation_collected_knows_its_columns(frame: pl.DataFrame, reference: pl.DataFrame) -> None:
    plan = prm.evaluate(frame.lazy(), ["ndcg@3", "mrr"], by="model", per_query=True, columns=COLS)
    per_query = plan.collect(engine="streaming")
    _equal(prm.summarize(per_query), prm.summarize(reference, by="model"))


def test_every_reader_of_per_query_frames_takes_columns(frame: pl.DataFrame, reference: pl.DataFrame) -> None:
    per_query = prm.evaluate(frame, ["ndcg@3", "mrr"], by="model", per_query=True, columns=COLS)
    copy = per_query.clone().with_columns(segment=pl.lit("x"))  # two candidates: user_id and segment
    assert prm.summarize(copy, by="model", columns=COLS).equals(prm.summarize(reference, by="model"))
    assert prm.power(copy, by="model", metric="ndcg@3", delta=0.1, columns=COLS).equals(
        prm.power(reference, by="model", metric="ndcg@3", delta=0.1)
    )
    assert prm.discriminative_power(copy, by="model", test="t", columns={"query": "user_id"}).equals(
        prm.discriminative_power(reference, by="model", test="t")
    )
    pytest.importorskip("altair")
    chart = plots.deltas(copy, by="model", baseline="a", metric="mrr", columns=COLS)
    expected = plots.deltas(reference, by="model", baseline="a", metric="mrr")
    assert pl.DataFrame(chart.data.values).equals(pl.DataFrame(expected.data.values))


def test_a_missing_query_column_names_the_parameter_that_fixes_it(frame: pl.DataFrame) -> None:
    per_query = prm.evaluate(frame, ["ndcg@3"], by="model", per_query=True, columns=COLS).clone()
    ambiguous = per_query.with_columns(segment=pl.lit("x"))
    for call in (prm.compare, prm.summarize, prm.discriminative_power):
        with pytest.raises(prm.ColumnNotFoundError, match=r"name it with columns=prm\.Columns\(query="):
            call(ambiguous, by="model")
    with pytest.raises(prm.ColumnNotFoundError, match=r"'users' not found \(did you mean 'user_id'\? name"):
        prm.compare(per_query, by="model", columns={"query": "users"})
    with pytest.raises(prm.InvalidParameterError, match="either query='user_id' or columns naming 'query'"):
        prm.compare(per_query, by="model", query="user_id", columns=prm.Columns())
    with pytest.raises(prm.InvalidParameterError, match=r"prm.compare needs by="):
        prm.compare(per_query)


def test_readers_of_evaluate_means_find_its_by_key(frame: pl.DataFrame) -> None:
    means = prm.evaluate(frame, ["ndcg@1", "ndcg@3", "mrr"], by="model", columns=COLS)
    assert prm.rank_correlation(means, x="ndcg@3", y="mrr") == prm.rank_correlation(
        means.clone(), x="ndcg@3", y="mrr", by="model"
    )
    pytest.importorskip("altair")
    chart = plots.metric_at_k(means)
    assert set(pl.DataFrame(chart.data.values)["system"]) == {"a", "b"}
