"""Duplicates named where they come from: judgments judged twice, stacked runs without `by=`."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm

RUN = pl.DataFrame({"query": ["q1", "q1", "q2"], "item": ["a", "b", "a"], "score": [0.5, 0.2, 0.9]})
QRELS = pl.DataFrame({"query": ["q1", "q1", "q2"], "item": ["a", "c", "a"], "relevance": [1, 0, 2]})
TWICE = pl.concat([QRELS, pl.DataFrame({"query": ["q1"], "item": ["c"], "relevance": [1]})])


def test_join_run_qrels_rejects_a_pair_judged_twice_naming_it() -> None:
    message = r"judge 1 \(query, item\) pair\(s\) more than once, on 2 rows: query='q1', item='c'"
    with pytest.raises(prm.InvalidDataError, match=message):
        prm.join_run_qrels(RUN, TWICE)


def test_a_lazy_join_fails_when_collected_with_the_same_message() -> None:
    joined = prm.join_run_qrels(RUN.lazy(), TWICE.lazy())  # building the plan reads no data
    with pytest.raises(prm.InvalidDataError, match=r"query='q1', item='c'"):
        prm.collect(joined)
    with pytest.raises(prm.InvalidDataError, match=r"query='q1', item='c'"):
        prm.evaluate(joined, ["map"]).pipe(prm.collect)


def test_unique_judgments_join_as_before_and_are_not_mutated() -> None:
    before = QRELS.clone()
    out = prm.join_run_qrels(RUN, QRELS).sort("query", "item")
    assert out["relevance"].to_list() == [1, None, 0, 2]
    assert QRELS.equals(before)
    assert prm.join_run_qrels(RUN.lazy(), QRELS.lazy()).collect().sort("query", "item").equals(out)


def test_many_repeated_pairs_are_listed_up_to_three() -> None:
    qrels = pl.DataFrame({"query": ["q"] * 8, "item": list("aabbccdd"), "relevance": [1] * 8})
    listed = "query='q', item='a'; query='q', item='b'; query='q', item='c'; \\.\\.\\.; keep one"
    with pytest.raises(prm.InvalidDataError, match=rf"judge 4 .* on 8 rows: {listed}"):
        prm.join_run_qrels(RUN, qrels)


def test_stacked_runs_without_by_suggest_the_run_column() -> None:
    frame = prm.join_run_qrels(RUN, QRELS)
    stacked = pl.concat([frame.with_columns(model=pl.lit("bm25")), frame.with_columns(model=pl.lit("dense"))])
    with pytest.raises(
        prm.InvalidDataError, match=r"the column 'model' differs between them: pass by='model'"
    ):
        prm.evaluate(stacked, ["map"])
    assert prm.evaluate(stacked, ["map"], by="model").height == 2


def test_a_true_duplicate_gets_no_by_hint() -> None:
    frame = prm.join_run_qrels(RUN, QRELS).with_columns(model=pl.lit("bm25"))
    with pytest.raises(prm.InvalidDataError) as caught:
        prm.evaluate(pl.concat([frame, frame]), ["map"])
    assert "by=" not in str(caught.value)


def test_novelty_names_interactions_for_a_cold_start_item() -> None:
    lists = pl.DataFrame({"query": ["u1", "u1", "u2"], "item": ["a", "b", "c"], "rank": [1, 2, 1]})
    interactions = pl.DataFrame({"user": ["x", "y"], "item": ["a", "b"]})
    message = r"^item 'c' of the ranked lists has no row in `interactions` \(a cold-start item"
    with pytest.raises(prm.InvalidDataError, match=message):
        prm.evaluate(lists, [prm.novelty(10, interactions=interactions)])
