"""serendipity (metrics/serendipity.py): serendipity by hand (item co-occurrence) and its errors.

Peer oracles: Microsoft Recommenders' serendipity on generated data
(tests/reference/test_serendipity_recommenders.py, and under pandas 2
tests/reference/test_beyond_recommenders.py), which need the oracles extra.
"""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm


def test_serendipity_hand_computed_cooccurrence() -> None:
    # History: u1 {a, b}, u2 {a, b, c}, u3 {c}. n_a = n_b = 2, n_c = 2; c(a, c) = c(b, c) = 1.
    history = pl.DataFrame({"user": [1, 1, 2, 2, 2, 3], "item": ["a", "b", "a", "b", "c", "c"]})
    frame = pl.DataFrame({"query": [1, 3], "item": ["c", "a"], "score": [1.0, 1.0], "relevance": [1, 1]})
    got = prm.evaluate(frame, [prm.serendipity(1, history=history)]).item()
    # u1, c: mean(1/2, 1/2) = 1/2 -> 0.5. u3, a: sim(a, c) = 1/2 -> 0.5.
    assert got == pytest.approx(0.5, abs=1e-12)


def test_serendipity_errors() -> None:
    with pytest.raises(prm.InvalidParameterError, match="history"):
        prm.serendipity(3)
    frame = pl.DataFrame({"query": [1], "item": ["z"], "score": [1.0], "relevance": [1]})
    features = pl.DataFrame({"item": ["a"], "x": [1.0]})
    history = pl.DataFrame({"user": [1], "item": ["a"]})
    with pytest.raises(prm.InvalidDataError, match="item 'z' has no row in `features`"):
        prm.evaluate(frame, [prm.serendipity(3, history=history, features=features)])
    with pytest.raises(prm.InvalidDataError, match="null ids"):
        prm.serendipity(3, history=pl.DataFrame({"user": [1, None], "item": ["a", "b"]}))
