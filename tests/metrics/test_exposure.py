"""exposure (metrics/exposure.py): exposure fairness against plain transcriptions of the definitions.

The transcriptions are tests/beyond_reference.py's.

Generated data: several models (``by="model"``), tied scores (the frame's order: score
descending, then the item's text descending), lists of length 1, items in several
groups (their attention shared equally), a group no list ranks, string and integer ids,
both browsing models and a given target that names a group without items and omits another.
"""

from __future__ import annotations

from typing import Any

import beyond_reference as ref
import polars as pl
import pytest
from beyond_cases import FEWER, Case, cases, close, judged, values_of
from hypothesis import given
from hypothesis import strategies as st

import polars_rankmetrics as prm
from metrics._helpers import DEGENERATE_DATA

CUTOFFS = (1, 3, None)
TARGET = {"drama": 2.0, "comedy": 0.0, "kids": 1.0}  # "kids" has no item; "horror" is left out


def _tied(case: Case, draw: st.DrawFn) -> tuple[pl.DataFrame, dict[str, dict[int, list[Any]]]]:
    """The case's lists with tied integer scores, and each list in the frame's order."""
    rows, ordered = [], {}
    for model, users in case.lists.items():
        ordered[model] = {}
        for user, items in users.items():
            scores = [float(draw(st.integers(0, 2))) for _ in items]
            rows += [(model, user, item, s) for item, s in zip(items, scores, strict=True)]
            ranked = sorted(zip(items, scores, strict=True), key=lambda r: (r[1], str(r[0])), reverse=True)
            ordered[model][user] = [item for item, _ in ranked]
    item_dtype = pl.Int64 if case.ids == "int" else pl.String
    schema = {"model": pl.String, "query": pl.Int64, "item": item_dtype, "score": pl.Float64}
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    return (frame if case.by else frame.drop("model")), ordered


def _groups(case: Case) -> tuple[pl.DataFrame, dict[Any, set[str]]]:
    """(item, genre) rows and a lone item in a group no list ranks."""
    lone = 999 if case.ids == "int" else "zz"
    groups = {**case.categories, lone: {"solo"}}
    rows = [(i, g) for i, gs in groups.items() for g in sorted(gs)]
    item_dtype = pl.Int64 if case.ids == "int" else pl.String
    return pl.DataFrame(rows, schema={"item": item_dtype, "genre": pl.String}, orient="row"), groups


@DEGENERATE_DATA
@FEWER
@given(cases(), st.data(), st.sampled_from(["log2", "rbp"]), st.sampled_from([0.5, 0.9]), st.booleans())
def test_exposure_metrics_match_the_definitions(
    case: Case,
    data: st.DataObject,
    discount: str,
    p: float,
    given_target: bool,
) -> None:
    frame, ordered = _tied(case, data.draw)
    table, groups = _groups(case)
    target_frame = (
        pl.DataFrame({"group": list(TARGET), "weight": list(TARGET.values())}) if given_target else None
    )
    total = sum(TARGET.values())
    target = {g: w / total for g, w in TARGET.items()} if given_target else ref.catalog_target(groups)
    options: dict[str, Any] = {"groups": table, "discount": discount, "p": p if discount == "rbp" else None}
    labels = sorted(set().union(*groups.values()))  # "solo" among them: a group no list ranks
    metrics, cutoffs = [], []
    for k in CUTOFFS:
        metrics += [prm.exposure_share(k, group=g, **options) for g in labels]
        metrics += [prm.exposure_disparity(k, target=target_frame, **options),
                    prm.awrf(k, target=target_frame, **options)]  # fmt: skip
        cutoffs += [k] * (len(labels) + 2)
    rows = values_of(case, prm.evaluate(frame, metrics, by=case.by))
    for key, row in rows.items():
        users = ordered[key or "als"]
        for metric, k in zip(metrics, cutoffs, strict=True):
            lists = [items[:k] for items in users.values()]
            if metric.name.startswith("exposure_share"):
                want = ref.group_exposure(lists, groups, discount, p).get(metric.side("group"), 0.0)
            elif metric.name.startswith("exposure_disparity"):
                want = ref.exposure_disparity(lists, groups, target, discount, p)
            else:
                want = ref.awrf(lists, groups, target, discount, p)
            assert close(row[str(metric)], want), (str(metric), row[str(metric)], want)


@DEGENERATE_DATA
@FEWER
@given(cases(), st.data(), st.sampled_from(["log2", "rbp"]))
def test_exposure_disparity_from_the_share_of_relevance(
    case: Case, data: st.DataObject, discount: str
) -> None:
    # Relevant items never ranked count (rows without a score); judged users without a list do not.
    frame, relevant = judged(case, data.draw)
    table, groups = _groups(case)
    metrics = [
        prm.exposure_disparity(k, groups=table, target="relevance", discount=discount) for k in CUTOFFS
    ]
    rows = values_of(case, prm.evaluate(frame, metrics, by=case.by))
    for key, row in rows.items():
        users = case.lists[key or "als"]  # the frame ranks each list in its order (distinct scores)
        target = ref.relevance_target(users, relevant, groups)
        for metric, k in zip(metrics, CUTOFFS, strict=True):
            lists = [items[:k] for items in users.values()]
            want = ref.exposure_disparity(lists, groups, target, discount, 0.9) if target else None
            assert close(row[str(metric)], want), (str(metric), row[str(metric)], want)


def test_lazy_side_inputs_and_streaming_give_the_same_bits() -> None:
    groups = pl.DataFrame({"item": ["a", "b", "c", "d"], "group": [1, 1, 2, 3]})
    frame = pl.DataFrame({"model": ["x"] * 4 + ["y"] * 3, "query": [1, 1, 2, 2, 1, 1, 2],
                          "item": ["a", "c", "b", "d", "d", "a", "c"],
                          "score": [2.0, 2.0, 1.0, 3.0, 1.0, 1.0, 5.0]})  # fmt: skip
    target = pl.DataFrame({"group": [1, 2, 3], "weight": [0.5, 0.25, 0.25]})
    metrics = [prm.exposure_share(2, groups=groups, group=1),
               prm.exposure_disparity(groups=groups, target=target),
               prm.awrf(2, groups=groups, discount="rbp", p=0.7)]  # fmt: skip
    eager = prm.evaluate(frame, metrics, by="model")
    lazy_metrics = [prm.exposure_share(2, groups=groups.lazy(), group=1),
                    prm.exposure_disparity(groups=groups.lazy(), target=target.lazy()),
                    prm.awrf(2, groups=groups.lazy(), discount="rbp", p=0.7)]  # fmt: skip
    lazy = prm.evaluate(frame.lazy(), lazy_metrics, by="model")
    assert lazy.collect(engine="streaming").equals(eager)
    assert eager.columns == ["model", "exposure_share(group=1)@2", "exposure_disparity", "awrf_rbp(p=0.7)@2"]
    # Group 1 (a, b) at x: list 1 ranks a, c tied (text descending: c then a); list 2 ranks d then b.
    w2 = 1.0 / 1.584962500721156
    assert close(eager["exposure_share(group=1)@2"][0], 2 * w2 / (2 * (1 + w2)))


ONE_GROUP = pl.DataFrame({"item": ["a"], "group": ["x"]})


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda: prm.exposure_share(3, group="a"), prm.InvalidParameterError, "groups="),
        (lambda: prm.exposure_share(3, groups=ONE_GROUP),
         prm.InvalidParameterError, "group=<label>"),
        (lambda: prm.awrf(3, groups=pl.DataFrame({"item": ["a"]})), prm.ColumnNotFoundError, "group column"),
        (lambda: prm.awrf(3, groups=pl.DataFrame({"item": ["a", None], "group": ["x", "y"]})),
         prm.InvalidDataError, "nulls in its column 'item'"),
        (lambda: prm.awrf(3, groups=ONE_GROUP, discount="dcg"),
         prm.InvalidParameterError, "discount"),
        (lambda: prm.awrf(3, groups=ONE_GROUP, p=0.5), prm.InvalidParameterError,
         "discount='rbp'"),
        (lambda: prm.awrf(3, groups=ONE_GROUP, discount="rbp", p=1.0),
         prm.InvalidParameterError, "p"),
        (lambda: prm.exposure_disparity(groups=ONE_GROUP,
                                        target=pl.DataFrame({"group": ["x"], "weight": [-1.0]})),
         prm.InvalidDataError, "weights must be >= 0"),
        (lambda: prm.exposure_disparity(groups=ONE_GROUP,
                                        target=pl.DataFrame({"group": ["x", "x"], "weight": [1.0, 1.0]})),
         prm.InvalidDataError, "more than once"),
        (lambda: prm.exposure_disparity(groups=ONE_GROUP,
                                        target=pl.DataFrame({"group": ["x"], "weight": [0.0]})),
         prm.InvalidDataError, "sum to 0"),
        (lambda: prm.exposure_disparity(groups=ONE_GROUP,
                                        target=pl.DataFrame({"group": ["x"], "weight": ["1"]})),
         prm.ColumnTypeError, "numeric weight"),
        (lambda: prm.exposure_disparity(groups=ONE_GROUP, target="catalog"),
         prm.InvalidParameterError, "target"),
        (lambda: prm.awrf(groups=ONE_GROUP, target="relevance"),
         prm.InvalidParameterError, "target"),
    ],
)  # fmt: skip
def test_side_inputs_are_checked(build: Any, error: type[Exception], match: str) -> None:  # noqa: ANN401
    with pytest.raises(error, match=match):
        build()


def test_errors_found_in_the_plan_name_the_item_or_group() -> None:
    frame = pl.DataFrame({"query": [1, 1], "item": ["a", "z"], "score": [2.0, 1.0]})
    groups = pl.LazyFrame({"item": ["a"], "group": ["x"]})
    with pytest.raises(prm.InvalidDataError, match="item 'z' of the ranked lists has no row in `groups`"):
        prm.evaluate(frame, [prm.awrf(2, groups=groups)])
    both = pl.LazyFrame({"item": ["a", "z"], "group": ["x", "y"]})
    with pytest.raises(prm.InvalidDataError, match="group 'w' is not a group of `groups`"):
        prm.evaluate(frame, [prm.exposure_share(2, groups=both, group="w")])
    negative = pl.LazyFrame({"group": ["x", "y"], "weight": [1.0, -2.0]})
    with pytest.raises(prm.InvalidDataError, match=r"gives group 'y' the weight -2\.0"):
        prm.evaluate(frame, [prm.exposure_disparity(2, groups=both, target=negative)])
    judged = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "z", "q"], "score": [2.0, 1.0, None],
                           "relevance": [0, 1, 1]})  # fmt: skip
    with pytest.raises(prm.InvalidDataError, match="item 'q' of the relevant items has no row in `groups`"):
        prm.evaluate(judged, [prm.exposure_disparity(2, groups=both, target="relevance")])
    with pytest.raises(prm.ColumnNotFoundError, match="relevance"):
        prm.evaluate(frame, [prm.exposure_disparity(2, groups=both, target="relevance")])
    with pytest.raises(prm.ColumnTypeError, match="groups"):
        prm.evaluate(frame, [prm.awrf(2, groups=pl.DataFrame({"item": [1], "group": ["x"]}))])
