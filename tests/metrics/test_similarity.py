"""similarity (metrics/similarity.py): personalization and intra_list_similarity, by hand and by reference.

The reference is tests/recsys_reference.py's, on generated lists (tests/metrics/_helpers.py).
Peer oracles: Microsoft Recommenders (tests/reference/test_beyond_recommenders.py) and the
presets of tests/reference/test_preset_*.py.
"""

from __future__ import annotations

from math import sqrt
from typing import Any

import polars as pl
import pytest
import recsys_reference as ref
from beyond_cases import FEWER
from hypothesis import example, given
from hypothesis import strategies as st

import polars_rankmetrics as prm
from metrics._helpers import (
    CUTOFFS,
    DEGENERATE_DATA,
    FEATURES,
    RUN,
    Lists,
    assert_by_model,
    assert_close,
    recommendation_lists,
)


def test_catalog_metrics_hand_computed() -> None:
    metrics = [prm.personalization(2), prm.personalization(), prm.intra_list_similarity(2, features=FEATURES)]
    # als top 2: {a, b}, {a, c}, {d}; ranked anywhere: a, b, c, d. Counts a 2, b 1, c 1, d 1.
    # pop top 2: {a, b} twice; it ranks only a, b, but the catalog is shared: a, b, c, d.
    pair = 1 / sqrt(2)  # the cosine of the features of a and b
    want = {
        "als": {
            "personalization@2": 1 - (1 / 2 + 0 + 0) / 3,  # {a,b}-{a,c}: 1/2; {d} shares nothing
            # whole lists {a,b,c}, {a,c}, {d}: cos = 2 / sqrt(3 * 2).
            "personalization": 1 - (2 / sqrt(6)) / 3,
            # a=(1,0) b=(1,1) c=(0,1) d=(0,0): {a,b} pair / sqrt2, {a,c} 0; {d} has no pair.
            "intra_list_similarity@2": (pair + 0.0) / 2,
        },
        "pop": {"personalization@2": 0.0, "personalization": 0.0, "intra_list_similarity@2": pair},
    }
    assert_by_model(metrics, want)


def test_personalization_edge_cases() -> None:
    single = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [2.0, 1.0]})
    assert prm.evaluate(single, ["personalization"]).item() is None  # no pair: the mean is undefined
    disjoint = pl.DataFrame({"query": [1, 2, 3], "item": ["a", "b", "c"], "score": [1.0, 1.0, 1.0]})
    assert prm.evaluate(disjoint, ["personalization"]).item() == 1.0
    # Unequal lengths: {a, b} and {a}: cos = 1 / sqrt(2 * 1).
    ragged = pl.DataFrame({"query": [1, 1, 2], "item": ["a", "b", "a"], "score": [2.0, 1.0, 1.0]})
    assert prm.evaluate(ragged, ["personalization"]).item() == pytest.approx(1 - 1 / sqrt(2))


def test_intra_list_similarity_zero_vectors_and_short_lists() -> None:
    frame = pl.DataFrame({"query": [1, 1, 2], "item": ["a", "d", "b"], "score": [2.0, 1.0, 1.0]})
    # d is a zero vector: its cosine with a is 0/0, left out, so user 1's list has no defined pair;
    # user 2's one-item list has none either: no list is left, the value is null.
    assert prm.evaluate(frame, [prm.intra_list_similarity(features=FEATURES)]).item() is None
    singles = frame.filter(pl.col("item") != "d")
    assert prm.evaluate(singles, [prm.intra_list_similarity(features=FEATURES)]).item() is None
    # a, b, d: only (a, b) is defined, cos = 1 / sqrt(2); the list's mean is that pair's.
    three = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "d"], "score": [3.0, 2.0, 1.0]})
    got = prm.evaluate(three, [prm.intra_list_similarity(features=FEATURES)]).item()
    assert got == pytest.approx(1 / sqrt(2), abs=1e-15)


def test_intra_list_similarity_feature_layouts_agree() -> None:
    vectors = FEATURES.select("item", pl.concat_list("x", "y").alias("v"))
    arrays = vectors.with_columns(pl.col("v").list.to_array(2))
    frames: list[pl.DataFrame | pl.LazyFrame] = [FEATURES, vectors, arrays, arrays.lazy(), FEATURES.lazy()]
    values = [prm.evaluate(RUN, [prm.intra_list_similarity(3, features=f)], by="model") for f in frames]
    for value in values[1:]:
        assert value.equals(values[0])


@DEGENERATE_DATA
@FEWER
@given(recommendation_lists())
@example(Lists("str", ["A", "B", "C", "D", "X", "Z"], {"als": [list("ABCD"), list("ABCX"), list("ABCZ")]}))
def test_personalization_matches_reference(data: Lists) -> None:
    for model, row in data.rows([prm.personalization(k) for k in CUTOFFS]).items():
        for k in CUTOFFS:
            suffix = "" if k is None else f"@{k}"
            want = ref.personalization(ref.top(data.lists[model], k))
            assert_close(row[f"personalization{suffix}"], want)


def test_personalization_recmetrics_example() -> None:
    # recmetrics' documented example: three lists sharing three of four items.
    frame = Lists("str", [], {"als": [list("ABCD"), list("ABCX"), list("ABCZ")]}).frame()
    out = prm.evaluate(frame, [prm.personalization()])
    assert out["personalization"][0] == pytest.approx(0.25, abs=1e-12)


@DEGENERATE_DATA
@FEWER
@given(recommendation_lists(), st.data())
def test_intra_list_similarity_matches_reference(data: Lists, draw: st.DataObject) -> None:
    width = draw.draw(st.integers(1, 4))
    # Small integer features: zero vectors, parallel and opposite vectors are common.
    vector = st.lists(st.integers(-2, 2).map(float), min_size=width, max_size=width)
    features = {item: draw.draw(vector) for item in data.pool}
    layout = draw.draw(st.sampled_from(["wide", "list", "array", "lazy_array"]))
    table = _features_frame(features, layout)
    for model, row in data.rows([prm.intra_list_similarity(k, features=table) for k in CUTOFFS]).items():
        for k in CUTOFFS:
            suffix = "" if k is None else f"@{k}"
            want = ref.intra_list_similarity(ref.top(data.lists[model], k), features)
            assert_close(row[f"intra_list_similarity{suffix}"], want)


def _features_frame(features: dict[Any, list[float]], layout: str) -> pl.DataFrame | pl.LazyFrame:
    items = list(features)
    vectors = [features[i] for i in items]
    width = len(vectors[0])
    if layout == "wide":
        return pl.DataFrame({"item": items, **{f"f{j}": [v[j] for v in vectors] for j in range(width)}})
    table = pl.DataFrame({"item": items, "vec": vectors})
    if layout == "list":
        return table
    table = table.with_columns(pl.col("vec").list.to_array(width))
    return table if layout == "array" else table.lazy()


@DEGENERATE_DATA
@FEWER
@given(recommendation_lists(max_pool=5))
def test_items_without_features_are_named(data: Lists) -> None:
    frame = data.frame()
    missing = data.pool[-1]
    ids = pl.Series("item", data.pool[:-1], dtype=pl.Int64 if data.ids == "int" else pl.String)
    features = pl.DataFrame({"item": ids, "x": pl.Series([1.0] * len(ids), dtype=pl.Float64)})
    recommended = any(missing in items for users in data.lists.values() for items in users)
    metric = prm.intra_list_similarity(None, features=features)
    if not recommended:  # every recommended item has features, all (1.0,): each defined pair's cosine is 1
        features_of = {item: [1.0] for item in data.pool[:-1]}
        for model, row in data.rows([metric]).items():
            want = ref.intra_list_similarity(data.lists[model], features_of)
            assert_close(row["intra_list_similarity"], want)
        return
    with pytest.raises(
        (pl.exceptions.InvalidOperationError, prm.InvalidDataError),
        match=f"item '{missing}' of the ranked lists has no row",
    ):
        prm.evaluate(frame, [metric], by=data.by)
