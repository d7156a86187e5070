"""Recommender metrics across families: names, errors, the depth, engines, plans, the namespace, plots.

Each family's values are in tests/metrics/test_<family>.py; the frames here are
tests/metrics/_helpers.py's (LISTS, RUN, FEATURES, POPULARITY).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Literal

import polars as pl
import pytest
from metrics._helpers import FEATURES, LISTS, POPULARITY, RUN, by_model
from plans import fallback_nodes

import polars_rankmetrics as prm

INT_FEATURES = FEATURES.with_columns(pl.int_range(4, dtype=pl.UInt32).alias("item"))  # ids of another dtype
RAGGED = pl.DataFrame({"item": ["a", "b"], "v": [[1.0], [1.0, 2.0]]})  # vectors of two lengths
INTERACTIONS = pl.DataFrame({"user": [1, 2, 3, 1, 2, 4], "item": ["a", "a", "a", "b", "b", "c"]})
BASELINE = pl.DataFrame({"user": [1, 1, 2, 3], "item": ["a", "c", "b", "d"], "score": [1.0, 2.0, 1.0, 1.0]})
CATEGORIES = pl.DataFrame({"item": ["a", "a", "b", "c", "d", "e"], "genre": ["x", "y", "x", "z", "z", "y"]})
TARGET = pl.DataFrame({"genre": ["x", "y", "w"], "weight": [2.0, 1.0, 1.0]})


# A data error found while the plan runs: Polars' error carrying our message (a LazyFrame), or
# InvalidDataError should evaluate() translate it when it collects a DataFrame itself.
DATA_ERROR = (pl.exceptions.InvalidOperationError, prm.InvalidDataError)


def test_depth_cuts_catalog_lists() -> None:
    # With depth 1 only the first item of each list was retrieved: als a, a, d; pop a, a.
    # The shared catalog is then {a, d}.
    with pytest.warns(prm.RankMetricsWarning, match="coverage is 1.0 in model='als' by construction"):
        out = prm.evaluate(RUN, ["coverage", "personalization"], by="model", depth=1)
    assert by_model(out) == {"als": {"coverage": 1.0, "personalization": 1 - 1 / 3},
                             "pop": {"coverage": 0.5, "personalization": 0.0}}  # fmt: skip


# --- names -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelled", "canonical"),
    [
        ("coverage@10", "coverage@10"),
        ("gini_index@5", "gini@5"),
        ("shannon_entropy", "entropy"),
        ("ils@3", "intra_list_similarity@3"),
        ("personalization@10", "personalization@10"),
        ("mar@10", "mar@10"),
        ("map_capped@10", "map_capped@10"),
        ("mpr", "mpr"),
        ("mpr_random(1000)", "mpr_random(n_items=1000)"),
        ("mpr_random(n_items=1000)", "mpr_random(n_items=1000)"),
    ],
)
def test_names_round_trip(spelled: str, canonical: str) -> None:
    assert str(prm.parse(spelled)) == canonical
    assert str(prm.parse(canonical)) == canonical


def test_side_inputs_stay_out_of_the_name() -> None:
    assert str(prm.coverage(10, catalog=100)) == "coverage@10"
    assert str(prm.novelty(5, popularity=POPULARITY, n_users=16)) == "novelty@5"
    assert str(prm.mpr(missing_items="random", n_items=50)) == "mpr_random(n_items=50)"


# --- errors ----------------------------------------------------------------------------------------


def test_whole_set_metric_per_query_is_the_group_value_on_each_list() -> None:
    # Personalization describes the whole set of lists: per_query=True repeats it on each list
    # (issue 38, point 2); evaluate_chunked, which cannot see every list, still refuses it.
    # RUN stacks two models: by="model" (without it, the duplicate (query, item) rows are refused,
    # as for any metric, since catalog metrics alone check the frame too).
    out = prm.evaluate(RUN, ["personalization@2"], per_query=True, by="model")
    whole = dict(prm.evaluate(RUN, ["personalization@2"], by="model").iter_rows())
    assert len(set(whole.values())) == 2  # the two models' values differ: each list gets its own group's
    for model, value in out.select("model", "personalization@2").iter_rows():
        assert value == whole[model]
    assert out.height == RUN.select("model", "query").n_unique()
    with pytest.raises(prm.InvalidDataError, match=r"pass by='model'"):
        prm.evaluate(RUN, ["personalization@2"], per_query=True)
    with pytest.raises(prm.InvalidParameterError, match=r"'personalization@2'"):
        prm.evaluate_chunked(RUN.lazy(), ["personalization@2"], per_query=True, by="model")


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda: prm.coverage(5, catalog=0), prm.InvalidParameterError, "positive integer, got 0"),
        (lambda: prm.coverage(5, catalog="abc"), prm.InvalidParameterError,
         "None, 'group', a frame, a sequence of item ids or a positive integer, got 'abc'"),
        (lambda: prm.gini(5, catalog=pl.Series([None, "a"])), prm.InvalidDataError, "null item ids"),
        (lambda: prm.intra_list_similarity(3, features=pl.DataFrame({"item": ["a", "a"], "x": [1.0, 2.0]})),
         prm.InvalidDataError, "holds item 'a' more than once"),
        (lambda: prm.intra_list_similarity(3, features=pl.DataFrame({"item": ["a"], "x": ["s"]})),
         prm.ColumnTypeError, "feature column 'x' must be numeric"),
        (lambda: prm.intra_list_similarity(3, features=pl.DataFrame({"item": ["a"]})),
         prm.ColumnNotFoundError, "features in the others"),
        (lambda: prm.intra_list_similarity(3, features=RAGGED),
         prm.InvalidDataError, "lists of different lengths"),
        (lambda: prm.intra_list_similarity(3, features=pl.LazyFrame({"item": ["a"], "v": [[1.0]]})),
         prm.ColumnTypeError, "List of unknown length"),
        (lambda: prm.intra_list_similarity(3, features=[1, 2]), prm.InvalidParameterError, "got list"),  # type: ignore[arg-type]
        (lambda: prm.novelty(3), prm.InvalidParameterError, "needs item popularity"),
        (lambda: prm.novelty(3, popularity=POPULARITY), prm.InvalidParameterError, "needs item popularity"),
        (lambda: prm.novelty(3, popularity=POPULARITY, n_users=0), prm.InvalidParameterError, "`n_users`"),
        (lambda: prm.novelty(3, popularity=POPULARITY, n_users=16, interactions=POPULARITY),
         prm.InvalidParameterError, "not both"),
        (lambda: prm.novelty(3, popularity=POPULARITY, n_users=4), prm.InvalidDataError,
         "item 'a' the count 8: every count must be between 1 and n_users=4"),
        (lambda: prm.novelty(3, popularity=pl.DataFrame({"item": ["a"], "n": [0]}), n_users=4),
         prm.InvalidDataError, "infinite self-information"),
        (lambda: prm.novelty(3, popularity=pl.DataFrame({"item": ["a"], "n": ["x"]}), n_users=4),
         prm.ColumnTypeError, "numeric count column"),
        (lambda: prm.mpr(missing_items="random"), prm.InvalidParameterError, "needs `n_items`"),
        (lambda: prm.mpr(missing_items="random", n_items=2.5), prm.InvalidParameterError, "needs `n_items`"),  # type: ignore[arg-type]
        (lambda: prm.mpr(n_items=10), prm.InvalidParameterError, 'only read with missing_items="random"'),
        (lambda: prm.mpr(missing_items="top"), prm.InvalidParameterError,  # type: ignore[arg-type]
         "`missing_items` must be one of"),
        (lambda: prm.parse("mar"), prm.UnknownMetricError, "needs a cutoff"),
        (lambda: prm.parse("map_capped"), prm.UnknownMetricError, "needs a cutoff"),
        (lambda: prm.parse("mpr@10"), prm.UnknownMetricError, "takes no cutoff"),
    ],
)  # fmt: skip
def test_bad_side_inputs_and_parameters_fail_when_built(
    build: Any,  # noqa: ANN401
    error: type[Exception],
    match: str,
) -> None:
    with pytest.raises(error, match=match):
        build()


@pytest.mark.parametrize(
    ("metric", "error", "match"),
    [
        ("intra_list_similarity@3", prm.InvalidParameterError, "needs item features"),
        ("novelty@3", prm.InvalidParameterError, "needs item popularity"),
        ("mpr_random", prm.InvalidParameterError, "needs `n_items`"),
        (lambda: prm.coverage(3, catalog=pl.Series([1, 2])), prm.ColumnTypeError,
         "catalog` are Int64 but the frame.s items are String"),
        (lambda: prm.intra_list_similarity(3, features=INT_FEATURES),
         prm.ColumnTypeError, "features` are UInt32"),
    ],
)  # fmt: skip
def test_bad_inputs_fail_when_the_plan_is_built(metric: Any, error: type[Exception], match: str) -> None:  # noqa: ANN401
    metric = metric() if callable(metric) else metric
    with pytest.raises(error, match=match):
        prm.evaluate(LISTS.lazy(), [metric])


@pytest.mark.parametrize(
    ("metric", "match"),
    [
        (lambda: prm.intra_list_similarity(3, features=FEATURES.filter(pl.col("item") != "c")),
         "polars_rankmetrics: item 'c' of the ranked lists has no row in `features`"),
        (lambda: prm.intra_list_similarity(3, features=pl.concat([FEATURES, FEATURES.head(1)]).lazy()),
         "`features` holds item 'a' more than once"),
        (lambda: prm.novelty(3, popularity=POPULARITY.filter(pl.col("item") != "d"), n_users=16),
         "item 'd' of the ranked lists has no row in `popularity` \\(a cold-start item"),
        (lambda: prm.novelty(3, popularity=POPULARITY.lazy(), n_users=4),
         r"item 'a' has popularity count 8 outside \[1, n_users=4\]"),
        (lambda: prm.coverage(3, catalog=pl.DataFrame({"id": ["a", "b", "c"]})),
         "item 'd' is recommended but not in `catalog`"),
        (lambda: prm.gini(3, catalog=2), "4 distinct items are recommended but `catalog` is 2 items"),
    ],
)  # fmt: skip
def test_data_errors_name_an_item_when_the_plan_runs(metric: Any, match: str) -> None:  # noqa: ANN401
    lazy = prm.evaluate(RUN.filter(pl.col("model") == "als").lazy(), [metric()])  # building is fine
    engines: tuple[Literal["in-memory", "streaming"], ...] = ("in-memory", "streaming")
    for engine in engines:  # a plain collect raises the library's error, its message first
        with pytest.raises(prm.InvalidDataError, match=match.removeprefix("polars_rankmetrics: ")):
            lazy.collect(engine=engine)
    with pytest.raises(pl.exceptions.InvalidOperationError, match=match):  # Polars' own collect_all
        pl.collect_all([lazy])


def test_integer_ids_of_another_width_are_cast() -> None:
    frame = pl.DataFrame({"query": [1, 1, 2], "item": [10, 20, 10], "score": [2.0, 1.0, 1.0]})
    catalog = pl.Series([10, 20, 30, 40], dtype=pl.Int16)
    features = pl.DataFrame({"item": pl.Series([10, 20], dtype=pl.UInt8), "x": [1.0, 1.0]})
    out = prm.evaluate(frame, [prm.coverage(catalog=catalog), prm.intra_list_similarity(features=features)])
    assert out.row(0) == pytest.approx((0.5, 1.0))


# --- frames, engines, plans ------------------------------------------------------------------------

ALL: list[str | prm.Metric] = [
    "ndcg@2", "mar@2", "map_capped@2", "mpr", prm.mpr(missing_items="random", n_items=10), "coverage@2",
    prm.coverage(1, catalog=pl.Series(["a", "b", "c", "d", "z"])), "gini@2", "entropy@2", "personalization@2",
    prm.intra_list_similarity(2, features=FEATURES), prm.novelty(2, popularity=POPULARITY, n_users=16),
    prm.arp(2, popularity=POPULARITY), prm.aplt(2, interactions=INTERACTIONS, head_share=0.5),
    prm.aclt(2, head=["a"]), prm.tail_percentage(2, interactions=INTERACTIONS, tail=0.5),
    prm.pop_rsp(2, interactions=INTERACTIONS), prm.surprisal(2, interactions=INTERACTIONS),
    prm.unexpectedness(2, baseline=BASELINE), prm.category_diversity(2, categories=CATEGORIES),
    prm.miscalibration(2, history=INTERACTIONS, categories=CATEGORIES),
    prm.miscalibration(None, history=INTERACTIONS, categories=CATEGORIES, weights="rank", alpha=0.2),
    prm.serendipity(2, history=INTERACTIONS), prm.serendipity(None, history=INTERACTIONS, features=FEATURES),
    prm.exposure_share(2, groups=CATEGORIES, group="x"),
    prm.exposure_share(None, groups=CATEGORIES, group="z", discount="rbp", p=0.5),
    prm.exposure_disparity(2, groups=CATEGORIES), prm.exposure_disparity(groups=CATEGORIES, target=TARGET),
    prm.awrf(2, groups=CATEGORIES), prm.awrf(None, groups=CATEGORIES, target=TARGET, discount="rbp"),
    prm.pop_reo(2, interactions=INTERACTIONS), prm.pop_reo(None, interactions=INTERACTIONS, head=["a", "c"]),
    prm.exposure_disparity(2, groups=CATEGORIES, target="relevance", discount="rbp"),
]  # fmt: skip
RECSYS = [m for m in ALL if m != "ndcg@2"]


@pytest.mark.parametrize("by", [None, "model"])
def test_dataframe_lazyframe_and_streaming_agree(by: str | None) -> None:
    frame = LISTS if by else LISTS.filter(pl.col("model") == "als")
    eager = prm.evaluate(frame, ALL, by=by)
    lazy = prm.evaluate(frame.lazy(), ALL, by=by)
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(eager)
    assert lazy.collect(engine="streaming").equals(eager)
    assert eager.columns == [*([by] if by else []), *(str(m) for m in ALL)]


def test_recommender_and_ir_metrics_in_one_evaluation() -> None:
    out = prm.evaluate(LISTS, ["ndcg@10", "mar@10", prm.personalization(10)], by="model")
    assert out.columns == ["model", "ndcg@10", "mar@10", "personalization@10"]
    assert out["model"].to_list() == ["als", "pop"]


def test_catalog_metrics_count_every_list_judged_or_not() -> None:
    # User 3 of "als" has no judged row: not evaluated by mar, but its list counts for coverage.
    judged = LISTS.with_columns(
        pl.when(pl.col("query") == 3).then(None).otherwise(pl.col("relevance")).alias("relevance")
    )
    out = by_model(prm.evaluate(judged, ["coverage@1", "mar@2", "num_q"], by="model"))
    assert out["als"] == pytest.approx({"coverage@1": 0.5, "mar@2": (1 / 4 + 1) / 2, "num_q": 2})


def test_empty_frame_gives_an_empty_result() -> None:
    empty = RUN.head(0)
    assert prm.evaluate(empty, ["coverage@2", "personalization"]).shape == (0, 2)
    assert prm.evaluate(empty, ["coverage@2"], by="model").shape == (0, 2)


@pytest.mark.parametrize("by", [None, "model"])
def test_recommender_plans_have_no_in_memory_fallback(by: str | None) -> None:
    frame = LISTS if by else LISTS.filter(pl.col("model") == "als")
    catalog_lazy = [prm.intra_list_similarity(3, features=FEATURES.lazy()),
                    prm.novelty(3, interactions=pl.LazyFrame({"user": [1, 2], "item": ["a", "b"]})),
                    prm.pop_rsp(3, interactions=INTERACTIONS.lazy()),
                    prm.arp(3, popularity=POPULARITY.lazy()),
                    prm.awrf(3, groups=CATEGORIES.lazy(), target=TARGET.lazy()),
                    prm.exposure_share(3, groups=CATEGORIES.lazy(), group="y"),
                    prm.pop_reo(3, interactions=INTERACTIONS.lazy())]  # fmt: skip
    plan = prm.evaluate(frame.lazy(), [*RECSYS, *catalog_lazy], by=by)
    assert fallback_nodes(plan) == []


# --- namespace -------------------------------------------------------------------------------------


def test_namespace_methods_equal_evaluate() -> None:
    cases: dict[str, tuple[str, dict[str, Any]]] = {
        "mar": ("mar@2", {"k": 2}),
        "map_capped": ("map_capped@2", {"k": 2}),
        "mpr": ("mpr", {}),
        "coverage": ("coverage@2", {"k": 2}),
        "gini": ("gini@2", {"k": 2}),
        "entropy": ("entropy@2", {"k": 2}),
        "personalization": ("personalization@2", {"k": 2}),
    }
    for method, (name, kwargs) in cases.items():
        got = getattr(prm.RankFrame(LISTS), method)(**kwargs, by="model")
        assert got.equals(prm.evaluate(LISTS, [name], by="model")), method
    side: dict[str, tuple[dict[str, Any], prm.Metric]] = {
        "intra_list_similarity": ({"features": FEATURES}, prm.intra_list_similarity(2, features=FEATURES)),
        "novelty": (
            {"popularity": POPULARITY, "n_users": 16},
            prm.novelty(2, popularity=POPULARITY, n_users=16),
        ),
        "coverage": ({"catalog": 10}, prm.coverage(2, catalog=10)),
    }
    for method, (kwargs, metric) in side.items():
        got = getattr(prm.RankFrame(RUN.lazy()), method)(2, **kwargs, by="model")
        assert isinstance(got, pl.LazyFrame)
        assert got.collect().equals(prm.evaluate(RUN, [metric], by="model")), method
    random = prm.RankFrame(LISTS).mpr(missing_items="random", n_items=9, by="model")
    assert random.columns == ["model", "mpr_random(n_items=9)"]


# --- plots -----------------------------------------------------------------------------------------


def test_long_tail_splits_head_and_tail(tmp_path: Path) -> None:
    # Volumes 5, 3, 1, 1: the head is the fewest items holding 80%: the first two.
    interactions = pl.DataFrame({"user": range(10), "item": ["a"] * 5 + ["b"] * 3 + ["c", "d"]})
    chart = prm.plots.long_tail(interactions, path=tmp_path / "tail.html")
    spec = chart.to_dict()
    parts = {row["part"] for row in spec["layer"][0]["data"]["values"]}
    assert parts == {"head: 2 items", "tail: 2 items"}
    assert spec["layer"][1]["data"]["values"] == [{"x": 3}]
    assert (tmp_path / "tail.html").stat().st_size > 0
    counts = pl.DataFrame({"id": ["a", "b", "c", "d"], "n": [5, 3, 1, 1]})
    same = prm.plots.long_tail(counts, item="id", count="n").to_dict()
    assert {row["part"] for row in same["layer"][0]["data"]["values"]} == parts


def test_coverage_plot_has_one_line_per_model_and_saves_png(tmp_path: Path) -> None:
    chart = prm.plots.coverage(RUN, ks=[1, 2, 3], by="model", path=tmp_path / "coverage.png")
    values = chart.to_dict()["data"]["values"]
    got = {(row["group"], row["k"]): row["coverage"] for row in values}
    assert got == {
        ("als", 1): 0.5,
        ("als", 2): 1.0,
        ("als", 3): 1.0,
        # pop ranks only a and b, against the shared catalog a, b, c, d.
        ("pop", 1): 0.25,
        ("pop", 2): 0.5,
        ("pop", 3): 0.5,
    }
    assert (tmp_path / "coverage.png").read_bytes()[:4] == b"\x89PNG"


def test_plots_without_altair_say_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "altair", None)
    with pytest.raises(ImportError, match=r'pip install "polars-rankmetrics\[plot\]"'):
        prm.plots.long_tail(RUN)


def test_plot_parameters_are_checked() -> None:
    with pytest.raises(prm.InvalidParameterError, match="head_share"):
        prm.plots.long_tail(RUN, head_share=0)
    with pytest.raises(prm.ColumnNotFoundError, match="'movie' not found"):
        prm.plots.long_tail(RUN, item="movie")
    with pytest.raises(prm.InvalidParameterError, match="`ks`"):
        prm.plots.coverage(RUN, ks=[0])


def test_item_without_features_is_our_error_for_a_dataframe() -> None:
    frame = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "c"], "score": [2.0, 1.0, 2.0, 1.0]})
    features = pl.DataFrame({"item": ["a", "b"], "f1": [1.0, 0.0], "f2": [0.0, 1.0]})
    with pytest.raises(prm.InvalidDataError, match="item 'c' of the ranked lists has no row in `features`"):
        prm.evaluate(frame, [prm.intra_list_similarity(2, features=features)])
