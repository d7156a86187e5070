"""novelty (metrics/novelty.py): self-information of the recommended items, by hand and against a reference.

The reference is tests/recsys_reference.py's (and recmetrics' own formula), on generated lists
(tests/metrics/_helpers.py). Peer oracles: Microsoft Recommenders
(tests/reference/test_beyond_recommenders.py) and the presets of tests/reference/test_preset_*.py.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest
import recsys_reference as ref
from beyond_cases import FEWER
from hypothesis import given
from hypothesis import strategies as st

import polars_rankmetrics as prm
from metrics._helpers import (
    CUTOFFS,
    DEGENERATE_DATA,
    POPULARITY,
    Lists,
    assert_by_model,
    assert_close,
    recommendation_lists,
)


def test_catalog_metrics_hand_computed() -> None:
    metrics = [prm.novelty(2, popularity=POPULARITY, n_users=16)]
    # als top 2: {a, b}, {a, c}, {d}; ranked anywhere: a, b, c, d. Counts a 2, b 1, c 1, d 1.
    # pop top 2: {a, b} twice; it ranks only a, b, but the catalog is shared: a, b, c, d.
    # self-information: a 1, b 2, c 3, d 4 bits. Lists: (1+2)/2, (1+3)/2, 4.
    want = {"als": {"novelty@2": (1.5 + 2.0 + 4.0) / 3}, "pop": {"novelty@2": 1.5}}
    assert_by_model(metrics, want)


def test_novelty_from_interactions() -> None:
    # 4 users; a: users 0, 1, 2, 3 (user 0 twice); b: user 0. Self-information a 0, b 2 bits.
    interactions = pl.DataFrame({"user": [0, 0, 1, 2, 3, 0], "item": ["a", "a", "a", "a", "a", "b"]})
    frame = pl.DataFrame({"query": [1, 1, 2], "item": ["a", "b", "a"], "score": [2.0, 1.0, 1.0]})
    out = prm.evaluate(frame, [prm.novelty(2, interactions=interactions)])
    assert out.item() == pytest.approx(((0 + 2) / 2 + 0) / 2)


def test_novelty_per_item_weighs_every_recommended_item_once() -> None:
    """Rows as choices: a 2/4, b 1/4, c 1/4. Lists [a] and [b, c]: self-information 1, then 2 and 2."""
    train = pl.DataFrame({"user": [1, 2, 2, 3], "item": ["a", "a", "b", "c"]})
    lists = pl.DataFrame({"query": [4, 5, 5], "item": ["a", "b", "c"], "score": [1.0, 2.0, 1.0]})
    popularity = train.group_by("item").len()
    per_list = prm.novelty(popularity=popularity, n_users=train.height)
    per_item = prm.novelty(popularity=popularity, n_users=train.height, per="item")
    got = prm.evaluate(lists, [per_list, per_item])
    assert got.columns == ["novelty", "novelty(per=item)"]
    assert got.row(0) == (1.5, pytest.approx(5 / 3))  # (1 + 2) / 2 lists; (1 + 2 + 2) / 3 items
    with pytest.raises(prm.InvalidParameterError, match="`per` must be one of 'list', 'item'"):
        prm.novelty(popularity=popularity, n_users=4, per="user")  # type: ignore[arg-type]


@DEGENERATE_DATA
@FEWER
@given(recommendation_lists(), st.data())
def test_novelty_matches_reference(data: Lists, draw: st.DataObject) -> None:
    n_users = draw.draw(st.integers(1, 50))
    pop = {item: draw.draw(st.integers(1, n_users)) for item in data.pool}
    table = pl.DataFrame({"item": list(pop), "count": list(pop.values())})
    for model, row in data.rows([prm.novelty(k, popularity=table, n_users=n_users) for k in CUTOFFS]).items():
        users = data.lists[model]
        for k in CUTOFFS:
            suffix = "" if k is None else f"@{k}"
            assert_close(row[f"novelty{suffix}"], ref.novelty(ref.top(users, k), pop, n_users))
            if all(len(items) >= (k or 0) for items in users) and k is not None:
                # recmetrics divides by the requested n; equal when every list is full.
                assert_close(
                    row[f"novelty{suffix}"], ref.recmetrics_novelty(ref.top(users, k), pop, n_users, k)
                )


@DEGENERATE_DATA
@FEWER
@given(recommendation_lists(), st.data())
def test_novelty_from_interactions_matches_counts(data: Lists, draw: st.DataObject) -> None:
    # (user, item) interactions, repeats included: counts are distinct users per item.
    n_users = draw.draw(st.integers(1, 6))
    pairs = [
        (u, item) for item in data.pool for u in draw.draw(st.lists(st.integers(0, n_users - 1), min_size=1))
    ]
    interactions = pl.DataFrame({"user": [u for u, _ in pairs], "item_id": [i for _, i in pairs]})
    users_of: dict[Any, set[int]] = {}
    for u, item in pairs:
        users_of.setdefault(item, set()).add(u)
    pop = {item: len(us) for item, us in users_of.items()}
    total = len({u for u, _ in pairs})
    for model, row in data.rows([prm.novelty(2, interactions=interactions)]).items():
        assert_close(row["novelty@2"], ref.novelty(ref.top(data.lists[model], 2), pop, total))
