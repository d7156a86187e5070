"""Side frames are read by column name (item, user, count, category, score...), whatever their order."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

RUN = pl.DataFrame(
    {
        "user": [1, 1, 1, 2, 2, 2],
        "movie": ["a", "b", "c", "a", "d", "b"],
        "score": [3.0, 2.0, 1.0, 3.0, 2.0, 1.0],
    }
)
COLS = prm.Columns(query="user", item="movie")
INTERACTIONS = pl.DataFrame({"user": [1, 2, 3, 3, 4], "item": ["a", "a", "b", "c", "d"]})
POPULARITY = pl.DataFrame({"item": ["a", "b", "c", "d"], "count": [9, 4, 2, 1]})
CATEGORIES = pl.DataFrame({"item": ["a", "b", "c", "d"], "category": ["x", "y", "x", "z"]})
FEATURES = pl.DataFrame(
    {"item": ["a", "b", "c", "d"], "f0": [1.0, 0.0, 0.5, 1.0], "f1": [0.0, 1.0, 0.5, 1.0]}
)
BASELINE = pl.DataFrame({"user": [1, 2], "item": ["a", "c"], "score": [1.0, 1.0]})


def _value(metric: prm.Metric) -> float:
    return prm.evaluate(RUN, [metric], columns=COLS).item()  # type: ignore[no-any-return]


def _reversed(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.select(reversed(frame.columns))


@pytest.mark.parametrize(
    "build",
    [
        lambda f: prm.novelty(2, interactions=f(INTERACTIONS)),
        lambda f: prm.arp(2, interactions=f(INTERACTIONS)),
        lambda f: prm.surprisal(2, interactions=f(INTERACTIONS)),
        lambda f: prm.novelty(2, popularity=f(POPULARITY), n_users=10),
        lambda f: prm.arp(3, popularity=f(POPULARITY)),
        lambda f: prm.category_diversity(3, categories=f(CATEGORIES)),
        lambda f: prm.intra_list_similarity(3, features=f(FEATURES)),
        lambda f: prm.unexpectedness(2, baseline=f(BASELINE)),
        lambda f: prm.miscalibration(3, history=f(INTERACTIONS), categories=f(CATEGORIES)),
        lambda f: prm.coverage(3, catalog=f(POPULARITY)),
    ],
    ids=["novelty-interactions", "arp-interactions", "surprisal", "novelty-popularity", "arp-popularity",
         "category_diversity", "ils", "unexpectedness", "miscalibration", "coverage-catalog"],
)  # fmt: skip
def test_a_side_frame_is_read_by_name_in_any_order(build: object, request: pytest.FixtureRequest) -> None:
    as_given = _value(build(lambda f: f))  # type: ignore[operator]
    assert _value(build(_reversed)) == as_given  # type: ignore[operator]
    if "ils" in request.node.name:  # every other column of a features frame is a feature
        return
    padded = _value(build(lambda f: f.with_columns(note=pl.lit("x")).select("note", *f.columns)))  # type: ignore[operator]
    assert padded == as_given


def test_other_names_keep_the_documented_order() -> None:
    # Other names are read through columns= (no longer by position: issue 38).
    renamed = POPULARITY.rename({"item": "id", "count": "plays"})
    named = prm.arp(3, popularity=renamed, columns={"item": "id", "count": "plays"})
    assert _value(named) == _value(prm.arp(3, popularity=POPULARITY))
    users = INTERACTIONS.rename({"user": "member", "item": "title"})
    named = prm.novelty(2, interactions=users, columns={"user": "member", "item": "title"})
    assert _value(named) == _value(prm.novelty(2, interactions=INTERACTIONS))


def test_a_side_frame_without_the_columns_names_what_it_needs() -> None:
    with pytest.raises(prm.ColumnNotFoundError, match=r"`popularity` has no count column"):
        prm.arp(3, popularity=pl.DataFrame({"item": ["a"]}))
    with pytest.raises(prm.ColumnNotFoundError, match=r"`interactions` has no item column"):
        _value(prm.novelty(2, interactions=pl.DataFrame({"user": [1]})))
