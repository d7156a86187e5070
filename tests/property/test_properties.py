"""Properties every evaluation must have, on generated frames (CONTRIBUTING.md).

Bounds, ideal rankings scoring 1, invariance to row order and column names,
DataFrame == LazyFrame == streaming engine, ``by=`` == one run at a time,
``rank`` == ``score``, monotonicity in the cutoff, the ``missing`` policy,
and plans free of Python UDFs and of in-memory fallbacks.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import polars as pl
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from plans import fallback_nodes as _fallback_nodes
from polars.testing import assert_frame_equal
from strategies import (
    ALL_TIED_INT,
    ALL_TIED_STR,
    EMPTY_INT,
    EMPTY_STR,
    NEGATIVE_ONLY,
    ONLY_UNJUDGED,
    POPULATION,
    TWO_RUNS,
    empty_frame,
    eval_frames,
    frame_repr,
    with_rank,
)

import polars_rankmetrics as prm
from polars_rankmetrics._registry import specs

pytestmark = pytest.mark.filterwarnings(
    "ignore::polars_rankmetrics.RankMetricsWarning"
)  # generated data is often degenerate on purpose

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)

CUTOFFS = (1, 3, 10)
FLOAT_TOLERANCE = 1e-12  # where the expected value is computed another way


def _names(cutoffs: tuple[int, ...] = CUTOFFS) -> list[str]:
    """Every registered per-query metric with a numeric value, at default parameters.

    Without a cutoff where allowed, and at each of `cutoffs` where one is taken.
    Left out: catalog-scope families (no per-query value), text-valued ones
    (relstring) and those with a number or data to give and no default
    (mpr_random's catalog size, rbo's reference run: tests/metrics/test_overlap.py).
    """
    out: list[str] = []
    for fam in specs().values():
        needs_argument = any(p.default is None and p.kind in ("float", "floats", "side") for p in fam.params)
        if fam.scope != "query" or fam.kind == "str" or needs_argument:
            continue
        if fam.k != "required":
            out.append(fam.name)
        if fam.k != "none":
            out.extend(f"{fam.name}@{k}" for k in cutoffs)
    return out


def _family(name: str) -> Any:  # noqa: ANN401
    return specs()[prm.parse(name).name]


ALL_METRICS = _names()
assert all(str(prm.parse(name)) == name for name in ALL_METRICS)  # canonical: parsed() keeps column names
ONE_CUTOFF = _names((3,))  # for per-example checks of every family: a third fewer names
# What the equivalence tests compare: every prepared column a metric reads (the rank, R,
# the hit rank, gains and the ideal order), with and without cutoffs; few names keep
# those tests fast. The bounds, empty-frame and plan tests take ALL_METRICS.
SOME_METRICS = ["precision@3", "recall@3", "r_precision", "mrr", "map", "map@3", "ndcg", "ndcg@3", "num_ret"]
COUNTS = [m for m in ALL_METRICS if _family(m).kind == "int"]  # summed over queries
# Value ranges other than [0, 1], per family. A new family outside [0, 1] goes here, with its reason.
RANGES = {
    "dcg": (0.0, float("inf")),  # a sum of gains
    "cost_gain": (0.0, float("inf")),  # trec_eval's G: a sum of gains
    "utility": (-float("inf"), float("inf")),  # a * rel_ret + b * nonrel_ret + ... (default b = -1)
    "hits": (0.0, float("inf")),  # relevant items in the top k, at most k
}


frames = eval_frames()
frames_maybe_runs = st.one_of(eval_frames(), eval_frames(models=2))


def by_of(frame: pl.DataFrame) -> str | None:
    return "model" if "model" in frame.columns else None


def keys_of(frame: pl.DataFrame) -> list[str]:
    return ["model", "query"] if "model" in frame.columns else ["query"]


def assert_same(got: pl.DataFrame, want: pl.DataFrame, frame: pl.DataFrame) -> None:
    """Bit-for-bit equality: equivalent inputs must give the very same numbers (CONTRIBUTING.md).

    Every comparison of two evaluations of the same data goes through here.
    """
    try:
        assert_frame_equal(got, want, check_exact=True)
    except AssertionError as err:
        msg = f"{err}\nfrom frame:\n{frame_repr(frame)}"
        raise AssertionError(msg) from None


_parse = functools.cache(prm.parse)


def parsed(names: list[str]) -> list[prm.Metric]:
    """The metrics that canonical `names` spell (their output columns keep those names).

    Names are parsed once per session: parsing is a third of a small evaluation's time.
    """
    return [_parse(name) for name in names]


def both_outputs(
    frame: FrameT,
    metrics: list[str] = SOME_METRICS,
    **kwargs: Any,  # noqa: ANN401
) -> tuple[FrameT, FrameT]:
    """Per-query and aggregated results.

    Data checks (``check``) are off unless asked for: they change no result, cost a
    third of a small evaluation, and the bounds and oracle tests run them.
    """
    kwargs.setdefault("check", False)
    return (
        prm.evaluate(frame, parsed(metrics), per_query=True, **kwargs),
        prm.evaluate(frame, parsed(metrics), **kwargs),
    )


# --- bounds -------------------------------------------------------------------------------------


# A few metrics per example keeps each example cheap; shrinking then names the one at fault.
metric_subsets = st.lists(st.sampled_from(ONE_CUTOFF), min_size=1, max_size=8, unique=True)


@given(
    frame=frames,
    metrics=metric_subsets,
    relevance_level=st.sampled_from([1, 2]),
    depth=st.sampled_from([None, 3]),
)
@example(frame=EMPTY_STR, metrics=ONE_CUTOFF, relevance_level=1, depth=None)
@example(frame=ONLY_UNJUDGED, metrics=ONE_CUTOFF, relevance_level=1, depth=None)
@example(frame=ALL_TIED_INT, metrics=ONE_CUTOFF, relevance_level=1, depth=None)
@example(frame=POPULATION, metrics=ONE_CUTOFF, relevance_level=1, depth=None)
@example(frame=NEGATIVE_ONLY, metrics=ONE_CUTOFF, relevance_level=2, depth=1)
def test_metrics_within_bounds(
    frame: pl.DataFrame, metrics: list[str], relevance_level: int, depth: int | None
) -> None:
    # Per query only: a mean (or geometric mean) of values in a range stays in it.
    out = prm.evaluate(frame, parsed(metrics), per_query=True, relevance_level=relevance_level, depth=depth)
    # A value is never null, except a weighted one (mpr) where its weight is 0: it then counts for nothing.
    nulls = {m for m, n in zip(out.columns, out.null_count().row(0), strict=True) if n}
    assert {_family(m).aggregate for m in nulls} <= {"weighted"}, (nulls, frame_repr(frame))
    out = out.with_columns(pl.col(sorted(nulls)).fill_null(0.0))
    for m in metrics:
        if m in COUNTS:
            assert out.schema[m] == pl.Int64, m
            assert (out[m] >= 0).all(), (m, frame_repr(frame))
            continue
        assert out.schema[m] == pl.Float64, m
        lo, hi = RANGES.get(_family(m).name, (0.0, 1.0))
        assert out[m].is_between(lo, hi).all(), (m, out[m].to_list(), frame_repr(frame))


def test_empty_frame_gives_empty_result() -> None:
    for frame in (EMPTY_STR, EMPTY_INT, empty_frame("int", order="rank")):
        per_query, overall = both_outputs(frame, ALL_METRICS)
        assert per_query.shape == (0, 1 + len(ALL_METRICS))
        assert per_query.columns == ["query", *ALL_METRICS]
        assert per_query.schema["query"] == frame.schema["query"]
        assert overall.shape == (0, len(ALL_METRICS))
        assert overall.columns == ALL_METRICS
    by_model = empty_frame("str", by_model=True)
    per_query, overall = both_outputs(by_model, ALL_METRICS, by="model")
    assert per_query.columns == ["model", "query", *ALL_METRICS]
    assert per_query.height == 0
    assert overall.columns == ["model", *ALL_METRICS]
    assert overall.height == 0


# --- ideal ranking ------------------------------------------------------------------------------

IDEAL = ["ndcg", "ndcg@1", "ndcg@3", "ndcg@10", "map", "r_precision", "mrr"]


@given(frame=frames, relevance_level=st.sampled_from([1, 2]), gain=st.sampled_from(["linear", "exponential"]))
@example(frame=ALL_TIED_STR, relevance_level=1, gain="linear")
@example(frame=POPULATION, relevance_level=1, gain="linear")
@example(frame=NEGATIVE_ONLY, relevance_level=1, gain="linear")
def test_ideal_ranking_scores_one(
    frame: pl.DataFrame, relevance_level: int, gain: Literal["linear", "exponential"]
) -> None:
    # Score every row by its grade (unjudged and negative grades gain 0): the ideal ranking.
    ideal = frame.with_columns(score=pl.col("relevance").clip(lower_bound=0).fill_null(0).cast(pl.Float64))
    metrics = parsed([*IDEAL, "num_rel"])
    out = prm.evaluate(ideal, metrics, per_query=True, relevance_level=relevance_level, gain=gain)
    with_relevant = out.filter(pl.col("num_rel") > 0)
    for m in IDEAL:
        bad = with_relevant.filter((pl.col(m) - 1.0).abs() > FLOAT_TOLERANCE)
        assert bad.is_empty(), (m, bad, frame_repr(ideal))


# --- invariances --------------------------------------------------------------------------------


# Regressions. A float sum depends on the order of its terms, and a group_by keeps no row
# order: with plain sums these frames gave results that differ in the last bit.
# The DCG and AP of this query, once rows 1 and 2 swap (seed 0 swaps them).
ULP_PER_QUERY = pl.DataFrame(
    {"query": ["q"] * 4, "item": ["d0", "d1", "d2", "d3"],
     "score": [0.0, 1.0, 0.0, 2.0], "relevance": [3, 3, 3, 1]},
    schema=EMPTY_STR.schema,
)  # fmt: skip
# The mean over queries of precision (1/3, 1, 1), once shuffled with seed 4.
ULP_MEAN = pl.DataFrame(
    {"query": ["a", "a", "a", "b", "c"], "item": ["x", "y", "z", "x", "x"],
     "score": [3.0, 2.0, 1.0, 1.0, 1.0], "relevance": [1, 0, 0, 1, 1]},
    schema=EMPTY_STR.schema,
)  # fmt: skip
# The same run twice: its DCG under by="model" and alone.
_ULP_RUN = pl.DataFrame(
    {"query": ["q"] * 8, "item": ["d9", "d10", "d1", "d2", "d11", "d99", "d100", "a"],
     "score": [0.0] * 8, "relevance": [1, None, None, None, 1, None, 1, None]},
    schema=EMPTY_STR.schema,
)  # fmt: skip
ULP_BY_MODEL = pl.concat([_ULP_RUN.with_columns(model=pl.lit(m)) for m in ("a", "b")]).select(
    "model", *_ULP_RUN.columns
)


@given(frame=frames_maybe_runs, seed=st.integers(min_value=0, max_value=2**32 - 1))
@example(frame=ULP_PER_QUERY, seed=0)
@example(frame=ULP_MEAN, seed=4)
@example(frame=ALL_TIED_INT, seed=0)
@example(frame=TWO_RUNS, seed=1)
def test_row_order_does_not_matter(frame: pl.DataFrame, seed: int) -> None:
    by = by_of(frame)
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=seed)
    for got, want in zip(both_outputs(shuffled, by=by), both_outputs(frame, by=by), strict=True):
        assert_same(got, want, frame)


@given(frame=st.one_of(eval_frames(), eval_frames(models=2), eval_frames(order="rank", models=2)))
@example(frame=EMPTY_STR)
@example(frame=TWO_RUNS)
@example(frame=with_rank(ALL_TIED_INT))
def test_renamed_columns_give_same_results(frame: pl.DataFrame) -> None:
    names = {"query": "user", "item": "movie", "score": "s", "rank": "position"}
    names |= {"relevance": "rating", "model": "run"}
    renamed = frame.rename({k: v for k, v in names.items() if k in frame.columns})
    cols = prm.Columns(query="user", item="movie", score="s", rank="position", relevance="rating")
    by = "run" if by_of(frame) else None
    back = {v: k for k, v in names.items()}
    got = [out.rename(back, strict=False) for out in both_outputs(renamed, by=by, columns=cols)]
    for g, want in zip(got, both_outputs(frame, by=by_of(frame)), strict=True):
        assert_same(g, want, frame)


@given(frame=frames_maybe_runs, depth=st.sampled_from([None, 2]))
@example(frame=EMPTY_INT, depth=None)
@example(frame=TWO_RUNS, depth=None)
@example(frame=POPULATION, depth=1)
def test_dataframe_lazyframe_and_streaming_agree(frame: pl.DataFrame, depth: int | None) -> None:
    by = by_of(frame)
    eager = both_outputs(frame, by=by, depth=depth)
    lazy = both_outputs(frame.lazy(), by=by, depth=depth)
    assert all(isinstance(out, pl.LazyFrame) for out in lazy)
    keys = keys_of(frame)
    for want, plan, sort_by in zip(eager, lazy, (keys, by), strict=True):
        assert isinstance(want, pl.DataFrame)
        in_memory = plan.collect()
        streaming = plan.collect(engine="streaming")
        if sort_by:
            in_memory, streaming = in_memory.sort(sort_by), streaming.sort(sort_by)
        expected = want.sort(sort_by) if sort_by else want
        assert_same(in_memory, expected, frame)
        assert_same(streaming, expected, frame)


@given(frame=eval_frames(models=2))
@example(frame=ULP_BY_MODEL)
@example(frame=TWO_RUNS)
@example(frame=empty_frame("str", by_model=True))
def test_by_model_equals_each_model_alone(frame: pl.DataFrame) -> None:
    per_query, overall = both_outputs(frame, by="model")
    for model in frame["model"].unique().to_list():
        alone_per_query, alone_overall = both_outputs(frame.filter(pl.col("model") == model).drop("model"))
        mine = pl.col("model") == model
        assert_same(per_query.filter(mine).drop("model"), alone_per_query, frame)
        assert_same(overall.filter(mine).drop("model"), alone_overall, frame)
    assert set(overall["model"]) <= set(frame["model"])


@given(frame=frames_maybe_runs, depth=st.sampled_from([None, 1, 4]))
@example(frame=ALL_TIED_INT, depth=None)
@example(frame=ALL_TIED_STR, depth=2)
@example(frame=TWO_RUNS, depth=None)
def test_rank_column_equals_score_order(frame: pl.DataFrame, depth: int | None) -> None:
    by = by_of(frame)
    ranked = with_rank(frame, by=[by] if by else [])
    got, want = both_outputs(ranked, by=by, depth=depth), both_outputs(frame, by=by, depth=depth)
    for g, w in zip(got, want, strict=True):
        assert_same(g, w, frame)


# --- cutoffs ------------------------------------------------------------------------------------

WHOLE = 16  # every list has at most 15 items: k = 16 is the whole list
MONOTONE = ("recall", "hit_rate", "map", "mrr", "dcg")
cutoff_pairs = st.lists(st.integers(min_value=1, max_value=WHOLE), min_size=2, max_size=2, unique=True).map(
    sorted
)


@given(frame=frames, ks=cutoff_pairs, depth=st.sampled_from([None, 3]))
@example(frame=ALL_TIED_INT, ks=[1, 2], depth=None)
@example(frame=POPULATION, ks=[3, 9], depth=None)
def test_cutoff_metrics_are_monotone_in_k(frame: pl.DataFrame, ks: list[int], depth: int | None) -> None:
    lo, hi = ks
    names = [f"{m}@{k}" for m in MONOTONE for k in sorted({lo, hi, WHOLE})] + list(MONOTONE)
    out = prm.evaluate(frame, parsed([*names, f"ndcg@{WHOLE}", "ndcg"]), per_query=True, depth=depth)
    for m in MONOTONE:
        bad = out.filter(pl.col(f"{m}@{hi}") < pl.col(f"{m}@{lo}"))
        assert bad.is_empty(), (f"{m}@{hi} < {m}@{lo}", bad, frame_repr(frame))
        # A cutoff past the end of every list is no cutoff at all.
        assert (out[f"{m}@{WHOLE}"] == out[m]).all(), (m, frame_repr(frame))
    assert (out[f"ndcg@{WHOLE}"] == out["ndcg"]).all(), frame_repr(frame)


# --- population ---------------------------------------------------------------------------------


@given(frame=frames_maybe_runs)
@example(frame=POPULATION)
@example(frame=TWO_RUNS)
@example(frame=EMPTY_STR)
def test_missing_zero_adds_zero_scored_queries(frame: pl.DataFrame) -> None:
    by = by_of(frame)
    keys = keys_of(frame)
    means = [m for m in SOME_METRICS if _family(m).aggregate == "mean"]
    metrics = [*SOME_METRICS, "num_q"]
    skip, mean_skip = both_outputs(frame, metrics, by=by)
    zero, mean_zero = both_outputs(frame, metrics, by=by, missing="zero")
    # Every query of the skip policy is still there, unchanged.
    assert_same(zero.join(skip.select(keys), on=keys, how="semi").sort(keys), skip, frame)
    # The added ones are judged queries with nothing retrieved: every mean metric scores 0.
    added = zero.join(skip.select(keys), on=keys, how="anti")
    assert (added.select(means).to_numpy() == 0).all(), (added, frame_repr(frame))
    assert (added["num_ret"] == 0).all()
    assert (added["num_q"] == 1).all()
    assert added.join(frame.filter(pl.col("score").is_not_null()), on=keys, how="semi").is_empty()

    # Means: n_zero * mean_zero == n_skip * mean_skip, per by group.
    n_skip, n_zero = _queries_per_group(skip, by), _queries_per_group(zero, by)
    groups = mean_zero[by].to_list() if by else [None] * mean_zero.height
    assert sorted(groups, key=str) == sorted((k for k, n in n_zero.items() if n), key=str)
    for key, row in zip(groups, mean_zero.iter_rows(named=True), strict=True):
        base = mean_skip.filter(pl.col(by) == key) if by else mean_skip
        for m in means:
            want = base[m][0] * n_skip[key] / n_zero[key] if n_skip.get(key) else 0.0
            assert abs(row[m] - want) <= FLOAT_TOLERANCE, (key, m, row[m], want, frame_repr(frame))


def _queries_per_group(per_query: pl.DataFrame, by: str | None) -> dict[Any, int]:
    if by is None:
        return {None: per_query.height}
    return dict(per_query.group_by(by).len().iter_rows())


# --- plans --------------------------------------------------------------------------------------

FULL_PLAN_FRAME = TWO_RUNS
UDF_MARKER = "python_udf"


def _full_plans() -> list[pl.LazyFrame]:
    """The whole metric set, several cutoffs, by model, depth 5; score and rank, both outputs."""
    plans: list[pl.LazyFrame] = []
    for frame in (FULL_PLAN_FRAME, with_rank(FULL_PLAN_FRAME, by=["model"])):
        plans.extend(both_outputs(frame.lazy(), ALL_METRICS, by="model", depth=5))
    return plans


def _culprits(has_problem: Callable[[pl.LazyFrame], bool]) -> list[str]:
    """The metrics whose own plan (by model, depth 5, per query) shows the problem."""
    plan = FULL_PLAN_FRAME.lazy()
    return [
        m for m in ALL_METRICS if has_problem(prm.evaluate(plan, [m], by="model", depth=5, per_query=True))
    ]


def _has_udf(plan: pl.LazyFrame) -> bool:
    return UDF_MARKER in plan.explain() or UDF_MARKER in plan.explain(engine="streaming")


def test_plan_has_no_python_udf() -> None:
    lf = pl.LazyFrame({"q": [1, 1, 2], "x": [1.0, 2.0, 3.0]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PolarsInefficientMapWarning: the point here
        udfs = [
            lf.with_columns(pl.col("x").map_elements(lambda v: v + 1, return_dtype=pl.Float64)),
            lf.with_columns(pl.col("x").map_batches(lambda s: s + 1, return_dtype=pl.Float64)),
        ]
    for udf in udfs:  # the marker is what explain() prints for a Python function
        assert _has_udf(udf)
    for plan in _full_plans():
        assert not _has_udf(plan), f"Python UDFs in the plan of: {_culprits(_has_udf)}"


def test_streaming_plan_has_no_in_memory_fallback() -> None:
    lf = pl.LazyFrame({"q": [1, 1, 2], "x": [1.0, 2.0, 3.0]})
    known_fallback = lf.group_by("q").agg((pl.col("x") <= pl.col("x").sum()).sum())
    assert _fallback_nodes(known_fallback), "the fallback detector no longer sees a known fallback"
    assert not _fallback_nodes(lf.group_by("q").agg(pl.col("x").sum()))
    for plan in _full_plans():
        nodes = _fallback_nodes(plan)
        culprits = _culprits(lambda p: bool(_fallback_nodes(p))) if nodes else []
        assert not nodes, f"in-memory fallbacks in the streaming plan of: {culprits}; first node: {nodes[0]}"
