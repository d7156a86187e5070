"""evaluate(aggregate=...): median, min, max and std (ddof=1) of the per-query values, exactly.

The oracle is numpy over ``per_query=True``'s rows, per `by` group; the
statistic must not depend on row order, the engine, or (min, max, std) the
chunking of evaluate_chunked, which merges states and must give evaluate's bits.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import eval_frames

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

METRICS = ["ndcg@5", "map", "P_3", "recip_rank", "num_rel_ret", "gm_map", "dcg", "utility", "fallout@3"]
NUMPY = {"median": np.median, "min": np.min, "max": np.max, "std": lambda v: np.std(v, ddof=1)}
FEWER = settings(max_examples=max(10, settings().max_examples // 2))


@FEWER
@given(
    frame=eval_frames(models=2), how=st.sampled_from(["median", "min", "max", "std"]), seed=st.integers(0, 99)
)
def test_statistics_match_numpy_over_per_query_rows(frame: pl.DataFrame, how: str, seed: int) -> None:
    per_query = prm.evaluate(frame, METRICS, by="model", per_query=True)
    got = prm.evaluate(frame, METRICS, by="model", aggregate=how)
    assert got["model"].to_list() == sorted(set(per_query["model"]))
    for row in got.iter_rows(named=True):
        rows = per_query.filter(pl.col("model") == row["model"])
        for name in METRICS:
            values = rows[name].cast(pl.Float64).to_numpy()
            if how == "std" and len(values) < 2:
                assert row[name] is None
                continue
            want = float(NUMPY[how](values))
            assert math.isclose(row[name], want, rel_tol=0, abs_tol=1e-9), (how, name, row[name], want)
    # Order-independent and the same on every engine and chunking, bit for bit.
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=seed)
    again = prm.evaluate(shuffled.lazy(), METRICS, by="model", aggregate=how).collect(engine="streaming")
    assert again.equals(got)
    if how != "median":
        chunked = prm.evaluate_chunked(shuffled, METRICS, by="model", aggregate=how, rows_per_chunk=7)
        assert chunked.equals(got)


def test_hand_computed_statistics() -> None:
    df = pl.DataFrame({"query": [1, 1, 2, 2, 3], "item": ["a", "b", "a", "b", "a"],
                       "score": [2.0, 1.0, 2.0, 1.0, 1.0], "relevance": [1, 0, 0, 1, 0]})  # fmt: skip
    # recip_rank per query: 1, 0.5, 0 (query 3 has no relevant item but is judged).
    out = {
        how: prm.evaluate(df, ["recip_rank"], aggregate=how).item()
        for how in ("mean", "median", "min", "max", "std")
    }
    assert out == {"mean": 0.5, "median": 0.5, "min": 0.0, "max": 1.0, "std": 0.5}


def test_constant_values_have_zero_std() -> None:
    df = pl.DataFrame({"query": [1, 1, 2, 2, 3, 3], "item": ["a", "b"] * 3,
                       "score": [2.0, 1.0] * 3, "relevance": [0, 1] * 3})  # fmt: skip
    assert prm.evaluate(df, ["ndcg"], aggregate="std").item() == 0.0


def test_median_is_refused_where_it_cannot_merge() -> None:
    df = pl.DataFrame({"query": [1, 2], "item": ["a", "a"], "score": [1.0, 1.0], "relevance": [1, 0]})
    with pytest.raises(prm.InvalidParameterError, match="median is no mergeable state"):
        prm.evaluate_chunked(df, ["map"], aggregate="median")
    with pytest.raises(prm.InvalidParameterError, match="per_query=True"):
        prm.evaluate(df, ["map"], aggregate="max", per_query=True)
    with pytest.raises(prm.InvalidParameterError, match="aggregate"):
        prm.evaluate(df, ["map"], aggregate="average")
    with pytest.raises(prm.InvalidParameterError, match="coverage"):
        prm.evaluate(df, ["coverage@1"], aggregate="max")


LARGE = pl.DataFrame(
    {
        "query": [1, 1, 2, 2, 3],
        "item": ["a", "b", "a", "c", "a"],
        "score": [2.0, 1.0, 2.0, 1.0, 1.0],
        "relevance": [1, 2, 2, 0, 1],
    }
)


def test_std_of_large_values_equals_numpy_or_is_refused() -> None:
    # DCG with gains of 1e6: exact integer states, numpy's value. Gains of 1e12 leave Int128's range
    # (the products wrapped silently before: 1.17e9 instead of numpy's 1.13e12): a clear error instead.
    fits, too_large = {1: 1e6, 2: 3e6}, {1: 1e12, 2: 3e12}
    per_q = prm.evaluate(LARGE, ["dcg"], per_query=True, gain=fits)["dcg"].to_numpy()
    want = float(np.std(per_q, ddof=1))
    for got in (
        prm.evaluate(LARGE, ["dcg"], aggregate="std", gain=fits),
        prm.evaluate_chunked(LARGE, ["dcg"], aggregate="std", gain=fits, rows_per_chunk=2),
    ):
        assert math.isclose(got.item(), want, rel_tol=1e-12)
    match = r"aggregate='std' of 'dcg': the values are too large .*per_query=True"
    with pytest.raises(prm.InvalidDataError, match=match):
        prm.evaluate(LARGE, ["dcg"], aggregate="std", gain=too_large)
    with pytest.raises(prm.InvalidDataError, match=match):
        prm.evaluate_chunked(LARGE, ["dcg"], aggregate="std", gain=too_large, rows_per_chunk=2)
    # The merged states are checked too: each chunk's values fit, their merged sums would not.
    many = pl.concat([LARGE.with_columns(pl.col("query") + 10 * i) for i in range(40)])
    mid = {1: 3e7, 2: 9e7}
    assert prm.evaluate(LARGE, ["dcg"], aggregate="std", gain=mid).item() > 0
    with pytest.raises(prm.InvalidDataError, match=match):
        prm.evaluate_chunked(many, ["dcg"], aggregate="std", gain=mid, rows_per_chunk=5)
