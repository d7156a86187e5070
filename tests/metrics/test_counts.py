"""counts (metrics/counts.py): num_ret, num_rel, num_rel_ret and hits@k by hand.

hits@k is the relevant items in the top k, averaged over queries (ranx's ``hits``).
Peer oracles: pytrec_eval and ranx (``tests/reference/test_pytrec_eval*.py``,
``test_preset_ranx.py``), the trec_eval binary (``tests/conformance/``).
"""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm
from metrics._helpers import TREC_FRAME, per_query
from polars_rankmetrics import expr as rx

FRAME = pl.DataFrame(
    {
        "query": ["q1", "q1", "q1", "q1", "q2", "q2", "q3"],
        "item": ["a", "b", "c", "d", "a", "b", "z"],
        "score": [4.0, 3.0, 2.0, None, 1.0, 1.0, None],  # d, z: judged, never retrieved
        "relevance": [1, 0, 2, 1, 0, 1, 1],
    }
)


def test_per_query_and_mean() -> None:
    got = prm.evaluate(FRAME, [prm.hits(1), prm.hits(2), prm.hits()], per_query=True).sort("query")
    # q1 ranks a(1) b(0) c(2); q2 ranks b before a (the tie broken by item text, descending);
    # q3 retrieves nothing: trec_eval's convention leaves it out.
    assert got.rows() == [("q1", 1.0, 1.0, 2.0), ("q2", 1.0, 1.0, 1.0)]
    mean = prm.evaluate(FRAME, ["hits", "num_rel_ret"])
    assert mean.row(0) == (1.5, 3)  # a mean, where trec_eval's count is a sum
    zero = prm.evaluate(FRAME, ["hits@2"], missing="zero")  # q3 counted, with no hit
    assert zero.item() == pytest.approx(2 / 3)


def test_tie_policies() -> None:
    """q2's two items tie: the relevant one first, last, or in the top 1 with probability 1/2."""
    per = {
        ties: prm.evaluate(FRAME, ["hits@1"], per_query=True, ties=ties).sort("query")["hits@1"].to_list()
        for ties in ("optimistic", "pessimistic", "average")
    }
    assert per == {"optimistic": [1.0, 1.0], "pessimistic": [1.0, 0.0], "average": [1.0, 0.5]}


def test_the_expression_and_the_namespace_agree() -> None:
    by_query = FRAME.group_by("query").agg(rx.hits(2)).sort("query")
    assert by_query["hits@2"].to_list() == [1.0, 1.0, 0.0]  # q3, judged, found nothing
    assert FRAME.rank.hits(2).item() == 1.0
    with pytest.raises(prm.InvalidParameterError, match="positive integer"):
        prm.hits(0)


def test_trec_counts_by_hand() -> None:
    got = per_query(TREC_FRAME, ["num_ret", "num_rel", "num_rel_ret"])
    assert set(got) == {"q1", "q2"}  # q3 has no judgments, q4 retrieved nothing
    # q1: 5 retrieved, 3 relevant (b, d, e), 2 of them retrieved; q2: 2 retrieved, nothing relevant.
    assert got["q1"] == {"num_ret": 5, "num_rel": 3, "num_rel_ret": 2}
    assert got["q2"] == {"num_ret": 2, "num_rel": 0, "num_rel_ret": 0}
