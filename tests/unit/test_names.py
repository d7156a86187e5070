"""Canonical metric names: what str(metric) writes, parse() reads back to the same metric."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm

FRAME = pl.DataFrame(
    {
        "query": ["q1"] * 4 + ["q2"] * 3,
        "item": ["a", "b", "c", "d", "a", "b", "e"],
        "score": [0.9, 0.8, 0.7, None, 0.5, 0.4, 0.3],
        "relevance": [0, 3, 1, 2, 2, None, 1],
    }
)


@pytest.mark.parametrize(
    "metric",
    [
        prm.ndcg(10, gain={1: 3, 2: 9}),
        prm.dcg(5, gain={1: 1, 2: 3, 3: 7}),
        prm.ndcg(gain={2: 0.5}),
        prm.rbp(0.8),
        prm.iprec_at_recall(0.1),
        prm.utility(2, -1, 0, 0),
        prm.err(10),
    ],
    ids=str,
)
def test_canonical_name_parses_back_to_the_same_metric(metric: prm.Metric) -> None:
    name = str(metric)
    assert prm.parse(name) == metric
    assert str(prm.parse(name)) == name
    by_name = prm.evaluate(FRAME, [name], per_query=True)
    by_object = prm.evaluate(FRAME, [metric], per_query=True)
    assert by_name.equals(by_object)


def test_gain_mapping_in_the_name_equals_the_gain_convention() -> None:
    canonical = prm.evaluate(FRAME, ["ndcg(1=3,2=9)"], per_query=True)["ndcg(1=3,2=9)"]
    convention = prm.evaluate(FRAME, ["ndcg"], per_query=True, gain={1: 3, 2: 9})["ndcg"]
    assert canonical.to_list() == convention.to_list()
    linear = prm.evaluate(FRAME, ["ndcg"], per_query=True)["ndcg"]
    assert canonical.to_list() != linear.to_list()  # the mapping changes the value
