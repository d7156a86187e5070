"""The builders in every aggregation context: group_by, over, select, lazy and streaming."""

from __future__ import annotations

import polars as pl
import pytest
from cases import builders, names, with_propensity
from hypothesis import given, settings
from hypothesis import strategies as st
from plans import calls_python, fallback_nodes
from strategies import POPULATION, eval_frames
from strategies import TWO_RUNS as RUNS
from test_agreement import assert_same

import polars_rankmetrics as prm
from polars_rankmetrics import expr as rx

TWO_RUNS = with_propensity(RUNS)  # the propensity builders read its column


@settings(max_examples=25)
@given(frame=eval_frames(models=2).map(with_propensity))
def test_over_broadcasts_the_group_by_value(frame: pl.DataFrame) -> None:
    exprs = builders()
    keys = ["model", "query"]
    grouped = frame.group_by(keys).agg(exprs)
    over = frame.select(*keys, *(e.over(keys) for e in exprs))
    assert over.height == frame.height
    assert_same(over, grouped, keys, names(exprs))


@settings(max_examples=25)
@given(frame=eval_frames(models=None, max_queries=3).map(with_propensity))
def test_select_on_one_query_gives_the_group_by_value(frame: pl.DataFrame) -> None:
    """Bit for bit on the same rows; within 1e-15 of the value grouped among other queries.

    Polars picks the kernel of a few float operations by operand length (an aggregated
    scalar divided by a literal, a literal raised to it): one group and many groups can
    differ in the last bit, in evaluate as here (precision@k, 11pt_avg, rbp_resid, mpr_random).
    """
    exprs = builders()
    metrics = names(exprs)
    grouped = frame.group_by("query").agg(exprs)
    for query in frame["query"].unique():
        rows = frame.filter(pl.col("query") == query)
        one = rows.select(exprs).with_columns(pl.lit(query, dtype=frame["query"].dtype).alias("query"))
        assert_same(one, rows.group_by("query").agg(exprs), ["query"], metrics)
        among = grouped.filter(pl.col("query") == query)
        for name in metrics:
            a, b = one[name].item(), among[name].item()
            assert a == b if not isinstance(a, float) else abs(a - b) <= 1e-15, (name, a, b)


def test_a_lazy_frame_on_the_streaming_engine_gives_the_same_values() -> None:
    exprs = builders(depth=3)
    plan = TWO_RUNS.lazy().group_by("model", "query").agg(exprs)
    in_memory = plan.collect()
    streaming = plan.collect(engine="streaming")
    assert_same(in_memory, streaming, ["model", "query"], names(exprs))
    assert not calls_python(plan), "a builder calls Python"


def test_the_builders_aggregation_runs_on_the_in_memory_engine_under_streaming() -> None:
    """Documented: order-dependent aggregations leave Polars 2.1's streaming group-by."""
    plan = TWO_RUNS.lazy().group_by("model", "query").agg(rx.ndcg(10))
    assert fallback_nodes(plan)


def test_two_group_keys_and_renamed_columns() -> None:
    renamed = TWO_RUNS.rename({"query": "user", "item": "movie", "score": "s", "relevance": "rating"})
    got = renamed.group_by("model", "user").agg(
        rx.ndcg(2, item="movie", score="s", relevance="rating"),
        rx.average_precision(item="movie", score="s", relevance="rating"),
    )
    cols = prm.Columns(query="user", item="movie", score="s", relevance="rating")
    want = prm.evaluate(renamed, ["ndcg@2", "map"], by="model", per_query=True, columns=cols)
    assert_same(want, got, ["model", "user"], ["ndcg@2", "map"])


def test_a_rank_column_orders_as_the_scores_do() -> None:
    ranked = pl.DataFrame(
        {"query": [1, 1, 1, 1], "item": [9, 10, 100, 11], "rank": [2, 1, 1, None], "relevance": [1, 0, 2, 1]}
    )
    # Tied ranks are broken by the item's text, descending: "100" before "10".
    got = ranked.group_by("query").agg(rx.relstring(rank="rank"), rx.ndcg(rank="rank"))
    assert got["relstring@10"].item() == "201"
    want = prm.evaluate(ranked, ["ndcg"], per_query=True)
    assert got["ndcg"].item() == want["ndcg"].item()


def test_integer_item_ids_are_compared_as_text() -> None:
    tied = pl.DataFrame(
        {"query": [1, 1, 1], "item": [9, 10, 100], "score": [1.0] * 3, "relevance": [0, 1, 2]}
    )
    # trec_eval's order: "9" > "100" > "10".
    assert tied.select(rx.relstring(3)).item() == "021"


def test_a_group_without_a_judged_row_is_null() -> None:
    got = POPULATION.group_by("query", maintain_order=True).agg(rx.ndcg(2), rx.num_ret(), rx.relstring())
    run_only = got.filter(pl.col("query") == "b")  # retrieved, never judged: evaluate leaves it out
    assert run_only.select(pl.all().exclude("query").is_null().all()).row(0) == (True, True, True)
    qrels_only = got.filter(pl.col("query") == "a")  # judged, nothing retrieved: an empty ranking
    assert qrels_only.row(0) == ("a", 0.0, 0, "")


def test_an_empty_frame_is_null_in_select_and_has_no_group() -> None:
    empty = POPULATION.head(0)
    assert empty.select(rx.ndcg(5)).item() is None
    assert empty.group_by("query").agg(rx.ndcg(5)).is_empty()


def test_group_by_dynamic_aggregates_each_window() -> None:
    log = pl.DataFrame(
        {
            "day": [1, 1, 1, 2, 2],
            "item": ["a", "b", "c", "a", "b"],
            "score": [3.0, 2.0, 1.0, 2.0, 1.0],
            "relevance": [0, 1, 0, 1, None],
        }
    )
    got = log.sort("day").group_by_dynamic("day", every="1i").agg(rx.reciprocal_rank())
    assert got["mrr"].to_list() == [0.5, 1.0]


@pytest.mark.parametrize("gain", ["linear", "exponential", {1: 3.0, 2: 9.0}])
def test_gain_names_the_mapping_only(gain: object) -> None:
    name = rx.ndcg(10, gain=gain).meta.output_name()  # type: ignore[arg-type]
    assert name == ("ndcg(1=3,2=9)@10" if isinstance(gain, dict) else "ndcg@10")


@given(st.sampled_from([rx.rbp(0.8), rx.err(5, max_grade=3), rx.iprec_at_recall(0.1), rx.mpr()]))
def test_output_names_are_canonical_names(expr: pl.Expr) -> None:
    name = expr.meta.output_name()
    assert str(prm.parse(name)) == name
