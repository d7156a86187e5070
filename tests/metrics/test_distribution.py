"""distribution (metrics/distribution.py): coverage, gini and entropy by hand and against a plain reference.

The reference is tests/recsys_reference.py's, on generated lists (tests/metrics/_helpers.py).
Peer oracles: Microsoft Recommenders (tests/reference/test_beyond_recommenders.py) and the
presets of tests/reference/test_preset_*.py.
"""

from __future__ import annotations

from math import log2
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
    RUN,
    Lists,
    assert_by_model,
    assert_close,
    by_model,
    recommendation_lists,
)


def test_catalog_metrics_hand_computed() -> None:
    metrics = [prm.coverage(1), prm.coverage(2), prm.gini(2), prm.entropy(2)]
    # als top 2: {a, b}, {a, c}, {d}; ranked anywhere: a, b, c, d. Counts a 2, b 1, c 1, d 1.
    # pop top 2: {a, b} twice; it ranks only a, b, but the catalog is shared: a, b, c, d.
    want = {
        "als": {
            "coverage@1": 2 / 4,  # a, d
            "coverage@2": 4 / 4,
            "gini@2": ((2 * 1 - 5) * 1 + (2 * 2 - 5) * 1 + (2 * 3 - 5) * 1 + (2 * 4 - 5) * 2) / (4 * 5),
            "entropy@2": -(2 / 5 * log2(2 / 5) + 3 * (1 / 5 * log2(1 / 5))),
        },
        "pop": {
            "coverage@1": 1 / 4,  # a
            "coverage@2": 2 / 4,
            # Counts over the shared catalog, ascending: c 0, d 0, a 2, b 2.
            "gini@2": ((2 * 3 - 5) * 2 + (2 * 4 - 5) * 2) / (4 * 4),
            "entropy@2": 1.0,
        },
    }
    assert_by_model(metrics, want)


def test_catalog_group_takes_each_groups_own_ranked_items() -> None:
    metrics = [
        prm.coverage(1, catalog="group"),
        prm.coverage(2, catalog="group"),
        prm.gini(2, catalog="group"),
    ]
    got = by_model(prm.evaluate(RUN, metrics, by="model"))
    # pop ranks only a and b: its own catalog. als ranks a, b, c, d: the shared catalog is its own.
    assert got["pop"] == pytest.approx(
        {"coverage(catalog=group)@1": 1 / 2, "coverage(catalog=group)@2": 1.0, "gini(catalog=group)@2": 0.0}
    )
    assert got["als"] == pytest.approx(
        {
            "coverage(catalog=group)@1": 2 / 4,
            "coverage(catalog=group)@2": 1.0,
            "gini(catalog=group)@2": ((2 * 1 - 5) * 1 + (2 * 2 - 5) * 1 + (2 * 3 - 5) * 1 + (2 * 4 - 5) * 2)
            / (4 * 5),
        }
    )


def test_gini_counts_catalog_items_never_recommended() -> None:
    one = pl.DataFrame({"query": [1, 2], "item": ["a", "a"], "score": [1.0, 1.0]})
    # Counts over the catalog a, b, c, d: 0, 0, 0, 2 -> (2*4 - 5) * 2 / (4 * 2) = 1 - 1/4.
    out = prm.evaluate(one, [prm.gini(1, catalog=["a", "b", "c", "d"]), prm.coverage(1, catalog=4)])
    assert out.row(0) == pytest.approx((0.75, 0.25))
    # Without a catalog only "a" was ranked: perfectly even.
    with pytest.warns(prm.RankMetricsWarning, match="coverage@1 is 1.0 by construction"):
        assert prm.evaluate(one, ["gini@1", "coverage@1"]).row(0) == (0.0, 1.0)


def test_entropy_of_uniform_recommendations_is_log2_of_their_number() -> None:
    frame = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "c", "d"], "score": [2.0, 1.0, 2.0, 1.0]})
    assert prm.evaluate(frame, ["entropy@2"]).item() == pytest.approx(2.0)


@DEGENERATE_DATA
@FEWER
@given(recommendation_lists())
@example(Lists("str", ["A", "B", "C", "D", "X", "Z"], {"als": [list("ABCD"), list("ABCX"), list("ABCZ")]}))
def test_coverage_gini_entropy_match_reference(data: Lists) -> None:
    metrics: list[Any] = []
    for k in CUTOFFS:
        metrics += [prm.coverage(k), prm.gini(k), prm.entropy(k)]
        metrics += [prm.coverage(k, catalog="group"), prm.gini(k, catalog="group")]
    out = data.rows(metrics)
    # The default catalog: the items ranked anywhere, in any model's lists (one catalog for all);
    # catalog="group": those ranked in the model's own lists.
    shared = [i for model in out for items in data.lists[model] for i in items]
    for k in CUTOFFS:
        suffix = "" if k is None else f"@{k}"
        for model, row in out.items():
            top = ref.top(data.lists[model], k)
            own = [i for items in data.lists[model] for i in items]
            for catalog, name in ((shared, "{}"), (own, "{}(catalog=group)")):
                assert_close(row[name.format("coverage") + suffix], ref.coverage(top, catalog))
                assert_close(row[name.format("gini") + suffix], ref.gini(top, catalog))
                assert_close(row[name.format("gini") + suffix], ref.gini_mean_difference(top, catalog))
            assert_close(row[f"entropy{suffix}"], ref.entropy(top))


@DEGENERATE_DATA
@FEWER
@given(recommendation_lists(), st.integers(0, 4), st.data())
def test_catalog_frame_with_duplicates_and_extra_items(data: Lists, extra: int, draw: st.DataObject) -> None:
    # The catalog: every pool item (some twice), plus items nobody recommends.
    extras = [-1 - j for j in range(extra)] if data.ids == "int" else [f"extra{j}" for j in range(extra)]
    doubled = draw.draw(st.lists(st.sampled_from(data.pool), max_size=4))
    catalog = pl.Series("item", data.pool + extras + doubled)
    metrics = [m(k, catalog=c) for k in (1, None) for m in (prm.coverage, prm.gini) for c in (catalog,)]
    out = data.rows(metrics)
    sized = data.rows([prm.coverage(2, catalog=len(set(catalog)))])
    for model, row in out.items():
        users = data.lists[model]
        for k in (1, None):
            suffix = "" if k is None else f"@{k}"
            assert_close(row[f"coverage{suffix}"], ref.coverage(ref.top(users, k), list(catalog)))
            assert_close(row[f"gini{suffix}"], ref.gini(ref.top(users, k), list(catalog)))
        assert_close(sized[model]["coverage@2"], ref.coverage(ref.top(users, 2), list(catalog)))
