"""text (metrics/text.py): relstring, the grades of the top items as one string, by hand.

Peer oracle: the trec_eval binary's relstring (tests/conformance/test_trec_reference.py).
"""

from __future__ import annotations

import polars as pl

import polars_rankmetrics as prm
from metrics._helpers import INCOMPLETE, TREC_FRAME, per_query


def test_relstring_by_hand() -> None:
    # One character a rank: the grade, '-' outside the judgments (null), '.' pooled but unjudged
    # (negative); q1 ranks a (0), c (0), b (2), f (outside), d (1); q2 a (0), b (-1).
    got = per_query(TREC_FRAME, ["relstring", "relstring_3"])
    assert got == {
        "q1": {"relstring": "002-1", "relstring_3": "002"},
        "q2": {"relstring": "0.", "relstring_3": "0."},
    }
    assert per_query(INCOMPLETE, ["relstring"])["j"]["relstring"] == "10-10"


def test_relstring_grades_above_nine_and_the_aggregate() -> None:
    frame = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [2.0, 1.0], "relevance": [12, 9]})
    assert per_query(frame, ["relstring"])[1]["relstring"] == ">9"
    assert prm.evaluate(frame, ["relstring"]).item() is None  # per query only: no mean of strings
