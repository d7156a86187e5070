"""per_query=True gives each list's value of the per-list recommender metrics; whole-set ones per group.

References: the plain transcriptions of tests/beyond_reference.py and tests/recsys_reference.py, run on
one list at a time (a family's value for a set of one list is that list's value).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import beyond_reference as ref
import polars as pl
import pytest
import recsys_reference as rec

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

# Two models, five users; user 5 of model b has one item; ids are integers, ties in scores.
LISTS: dict[str, dict[int, list[str]]] = {
    "a": {1: ["i1", "i2", "i3"], 2: ["i2", "i4", "i1"], 3: ["i5", "i1", "i2"], 4: ["i3", "i6", "i2"],
          5: ["i1", "i3", "i4"]},
    "b": {1: ["i2", "i1", "i6"], 2: ["i6", "i5", "i4"], 3: ["i1", "i2", "i3"], 4: ["i4", "i1", "i2"],
          5: ["i6"]},
}  # fmt: skip
HISTORY = [(1, "i1"), (1, "i2"), (2, "i3"), (2, "i1"), (3, "i1"), (4, "i6"), (4, "i5"), (5, "i2"), (6, "i2"),
           (6, "i4")]  # fmt: skip
CATEGORIES = {"i1": {"x"}, "i2": {"x", "y"}, "i3": {"y"}, "i4": {"z"}, "i5": {"x"}, "i6": {"z", "y"}}
FEATURES = {"i1": [1.0, 0.0], "i2": [0.6, 0.8], "i3": [0.0, 1.0], "i4": [1.0, 1.0], "i5": [0.2, 0.9],
            "i6": [0.5, -0.5]}  # fmt: skip
BASE = {1: ["i1", "i4"], 2: ["i4", "i6"], 3: ["i3"], 4: ["i2", "i1"]}


def _frame() -> pl.DataFrame:
    rows = [
        (model, user, item, float(10 - rank // 2), int(item in {"i1", "i6"}))
        for model, users in LISTS.items()
        for user, items in users.items()
        for rank, item in enumerate(items)
    ]
    return pl.DataFrame(rows, schema=["model", "user", "movie", "score", "rating"], orient="row")


COLS = prm.Columns(query="user", item="movie", relevance="rating")
INTERACTIONS = pl.DataFrame(HISTORY, schema=["user", "item"], orient="row")
POP = ref.popularity(HISTORY)
N_USERS = len({u for u, _ in HISTORY})
CATEGORY_FRAME = pl.DataFrame(
    [(i, c) for i, cs in CATEGORIES.items() for c in sorted(cs)], schema=["item", "category"], orient="row"
)
FEATURE_FRAME = pl.DataFrame({"item": list(FEATURES), "f0": [v[0] for v in FEATURES.values()],
                              "f1": [v[1] for v in FEATURES.values()]})  # fmt: skip
BASE_FRAME = pl.DataFrame(
    [(u, i, float(10 - r)) for u, items in BASE.items() for r, i in enumerate(items)],
    schema=["user", "item", "score"],
    orient="row",
)
HISTORY_SETS = {u: {i for v, i in HISTORY if v == u} for u in {u for u, _ in HISTORY}}

# (metric, the reference value of one list: f(user, items))
CASES: list[tuple[Any, Callable[[int, list[str]], float | None]]] = [
    (prm.novelty(2, interactions=INTERACTIONS), lambda _u, items: rec.novelty([items[:2]], POP, N_USERS)),
    (prm.arp(3, interactions=INTERACTIONS), lambda _u, items: ref.arp([items[:3]], POP)),
    (prm.surprisal(2, interactions=INTERACTIONS), lambda _u, items: ref.surprisal([items], HISTORY, 2)),
    (prm.unexpectedness(2, baseline=BASE_FRAME), lambda u, items: ref.unexpectedness({u: items}, BASE, 2)),
    (prm.category_diversity(3, categories=CATEGORY_FRAME),
     lambda _u, items: ref.category_diversity([items], CATEGORIES, 3)),
    (prm.intra_list_similarity(3, features=FEATURE_FRAME),
     lambda _u, items: rec.intra_list_similarity([items[:3]], FEATURES)),
    (prm.miscalibration(3, history=INTERACTIONS, categories=CATEGORY_FRAME, alpha=0.1),
     lambda u, items: ref.miscalibration({u: items[:3]}, HISTORY_SETS, CATEGORIES, 0.1)),
]  # fmt: skip


@pytest.mark.parametrize(("metric", "reference"), CASES, ids=lambda c: str(c)[:30])
def test_each_list_value_matches_the_reference(
    metric: prm.Metric, reference: Callable[..., float | None]
) -> None:
    out = prm.evaluate(_frame(), [metric], by="model", per_query=True, columns=COLS)
    name = str(metric)
    assert out.columns == ["model", "user", name]
    assert out.height == sum(len(users) for users in LISTS.values())  # every list, none dropped
    for model, user, value in out.iter_rows():
        want = reference(user, LISTS[model][user])
        if want is None:
            assert value is None, (model, user, value)
        else:
            assert value == pytest.approx(want, abs=1e-12), (model, user, value, want)
    means = prm.evaluate(_frame(), [metric], by="model", columns=COLS)
    for model, value in means.iter_rows():
        listed = [v for v in out.filter(pl.col("model") == model)[name].to_list() if v is not None]
        assert math.fsum(listed) / len(listed) == value  # the exact mean of the lists: bit for bit


def test_mixed_call_whole_set_metrics_stay_one_value_per_group() -> None:
    frame = _frame()
    per_list = [prm.novelty(2, interactions=INTERACTIONS), prm.arp(3, interactions=INTERACTIONS)]
    whole = ["coverage@3", "gini@3", "personalization@3", "entropy@3"]
    accuracy = ["ndcg@3", "mrr"]
    out = prm.evaluate(frame, [*accuracy, *per_list, *whole], by="model", per_query=True, columns=COLS)
    alone = prm.evaluate(frame, whole, by="model", columns=COLS)
    for name in whole:  # the group's value on every list of the group (joined by the by keys)
        got = out.group_by("model").agg(pl.col(name).unique()).sort("model")
        assert got[name].to_list() == [[v] for v in alone.sort("model")[name].to_list()]
    only = prm.evaluate(frame, accuracy, by="model", per_query=True, columns=COLS)
    assert out.select("model", "user", *accuracy).equals(only)
    lists = prm.evaluate(frame, per_list, by="model", per_query=True, columns=COLS)
    assert out.select("model", "user", *map(str, per_list)).equals(lists)
    lazy = prm.evaluate(
        frame.lazy(), [*accuracy, *per_list, *whole], by="model", per_query=True, columns=COLS
    )
    assert lazy.collect(engine="streaming").equals(out)


def test_novelty_per_item_is_a_whole_set_value_and_no_by_gives_one_group() -> None:
    frame = _frame().filter(pl.col("model") == "a").drop("model")
    per_item = prm.novelty(2, interactions=INTERACTIONS, per="item")
    out = prm.evaluate(frame, [per_item, "coverage@2"], per_query=True, columns=COLS)
    whole = prm.evaluate(frame, [per_item, "coverage@2"], columns=COLS)
    assert out[str(per_item)].unique().to_list() == [whole[str(per_item)].item()]
    assert out["coverage@2"].unique().to_list() == [whole["coverage@2"].item()]
    assert out["user"].to_list() == [1, 2, 3, 4, 5]


def test_chunked_evaluation_still_refuses_catalog_metrics_per_query() -> None:
    with pytest.raises(prm.InvalidParameterError, match="coverage"):
        prm.evaluate_chunked(_frame().lazy(), ["coverage@2"], per_query=True, by="model", columns=COLS)


def test_beside_accuracy_metrics_the_rows_are_the_evaluated_queries() -> None:
    frame = _frame().with_columns(  # model a's user 3 has no judged item: accuracy metrics skip it
        pl.when((pl.col("model") == "a") & (pl.col("user") == 3)).then(None).otherwise(pl.col("rating"))
        .alias("rating")
    )  # fmt: skip
    novelty = prm.novelty(2, interactions=INTERACTIONS)
    mixed = prm.evaluate(frame, ["ndcg@3", novelty], by="model", per_query=True, columns=COLS)
    alone = prm.evaluate(frame, [novelty], by="model", per_query=True, columns=COLS)
    assert mixed.height == alone.height - 1
    assert mixed.filter((pl.col("model") == "a") & (pl.col("user") == 3)).is_empty()
    assert mixed["ndcg@3"].null_count() == 0  # ready for prm.compare
    kept = alone.join(mixed.select("model", "user"), on=["model", "user"], how="semi")
    assert mixed.select("model", "user", str(novelty)).equals(kept)
