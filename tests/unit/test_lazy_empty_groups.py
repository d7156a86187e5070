"""An empty `groups` frame, lazy or eager, fails the exposure metrics clearly (issue 39).

An eager empty frame is refused when the metric is built; a lazy one can only be seen empty when
the plan runs: it then fails with the same words, as InvalidDataError, instead of giving no row and
warning that the frame holds no query.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import polars as pl
import pytest

import polars_rankmetrics as prm

FRAME = pl.DataFrame(
    {
        "run": ["r1", "r1", "r1", "r2"],
        "query": ["q1", "q1", "q2", "q3"],
        "item": ["a", "b", "a", "b"],
        "score": [2.0, 1.0, 1.0, 1.0],
        "relevance": [1, 0, 1, 1],
    }
)
GROUPS = pl.DataFrame({"item": ["a", "b"], "group": ["x", "y"]})
EMPTY = "`groups` is empty: give one \\(item, group\\) row per ranked item"

BUILDERS: dict[str, Callable[[object], prm.Metric]] = {
    "exposure_disparity": lambda g: prm.exposure_disparity(10, groups=g),
    "exposure_disparity_rbp": lambda g: prm.exposure_disparity(10, discount="rbp", groups=g),
    "exposure_disparity_relevance": lambda g: prm.exposure_disparity(10, groups=g, target="relevance"),
    "exposure_share": lambda g: prm.exposure_share(10, groups=g, group="x"),
    "awrf": lambda g: prm.awrf(10, groups=g),
}


def test_an_eager_empty_groups_frame_is_refused_when_built() -> None:
    for build in BUILDERS.values():
        with pytest.raises(prm.InvalidParameterError, match=EMPTY):
            build(GROUPS.head(0))


@pytest.mark.parametrize("name", sorted(BUILDERS))
@pytest.mark.parametrize("per_query", [False, True])
@pytest.mark.parametrize("by", [None, "run"])
@pytest.mark.parametrize("lazy_frame", [False, True])
def test_a_lazy_empty_groups_frame_fails_with_the_same_words(
    name: str, per_query: bool, by: str | None, lazy_frame: bool
) -> None:
    metric = BUILDERS[name](GROUPS.head(0).lazy())
    frame = FRAME.lazy() if lazy_frame else FRAME
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "the frame holds no query" on the way
        with pytest.raises(prm.InvalidDataError, match=EMPTY):
            prm.collect(prm.evaluate(frame, ["ndcg@10", metric], by=by, per_query=per_query).lazy())


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_a_lazy_partial_groups_frame_names_the_item(name: str) -> None:
    metric = BUILDERS[name](GROUPS.head(1).lazy())
    with pytest.raises(prm.InvalidDataError, match="item 'b' of the ranked lists has no row in `groups`"):
        prm.evaluate(FRAME, ["ndcg@10", metric])


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_a_lazy_full_groups_frame_still_evaluates(name: str) -> None:
    lazy = prm.evaluate(FRAME, [BUILDERS[name](GROUPS.lazy())], by="run")
    eager = prm.evaluate(FRAME, [BUILDERS[name](GROUPS)], by="run")
    assert lazy.height == 2
    assert lazy.equals(eager)
