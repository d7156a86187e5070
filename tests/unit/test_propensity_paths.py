"""The propensity and IPS families on every path: DataFrame, LazyFrame, streaming, chunked, .rank, expr."""

from __future__ import annotations

import polars as pl
import pytest
from plans import calls_python, fallback_nodes
from polars.testing import assert_frame_equal

import polars_rankmetrics as prm
from polars_rankmetrics import expr as rx

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

DF = pl.DataFrame({
    "query": [1, 1, 1, 2, 2, 3, 3, 4], "item": [10, 11, 12, 10, 12, 11, 13, 13],
    "score": [0.9, 0.8, 0.1, 0.9, 0.5, 0.3, None, 0.2], "relevance": [1, 0, 1, 0, 1, 1, 2, 0],
    "p": [0.5, 0.8, 0.25, 0.5, 0.25, 0.8, 0.1, 0.1],
})  # fmt: skip
PROPS = pl.DataFrame({"item": [10, 11, 12, 13], "propensity": [0.5, 0.8, 0.25, 0.1]})


def _metrics(side: pl.DataFrame | pl.LazyFrame) -> list[prm.Metric]:
    return [
        prm.psp(2, propensities=side), prm.psp(2, propensities=side, normalize="oracle"),
        prm.psndcg(3, propensities=side), prm.psrecall(2, propensities=side, normalize="oracle"),
        prm.ips_precision(2, propensities=side), prm.ips_rbp(propensities=side, estimator="snips"),
        prm.ips_mrr(propensities=side), prm.ips_hit_rate(1, propensities=side, estimator="snips"),
    ]  # fmt: skip


@pytest.mark.parametrize("per_query", [False, True])
def test_every_path_gives_the_same_values(per_query: bool) -> None:
    want = prm.evaluate(DF, _metrics(PROPS), per_query=per_query)
    lazy = prm.evaluate(DF.lazy(), _metrics(PROPS.lazy()), per_query=per_query)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), want)
    assert_frame_equal(lazy.collect(engine="streaming"), want)
    chunked = prm.evaluate_chunked(DF.lazy(), _metrics(PROPS), per_query=per_query, rows_per_chunk=3)
    assert_frame_equal(chunked.sort("query") if per_query else chunked, want)
    ranked = DF.rank.psp(2, propensities=PROPS, per_query=per_query)
    assert_frame_equal(ranked, want.select(*(["query"] if per_query else []), "psp@2"))


def test_a_propensity_column_equals_the_side_frame() -> None:
    by_column = [prm.psndcg(3, propensities="p"), prm.ips_rbp(propensities="p", estimator="snips")]
    by_frame = [prm.psndcg(3, propensities=PROPS), prm.ips_rbp(propensities=PROPS, estimator="snips")]
    a = prm.evaluate(DF, by_column, per_query=True)
    b = prm.evaluate(DF, by_frame, per_query=True)
    assert a.to_numpy().tolist() == b.to_numpy().tolist()


def test_expression_builders_equal_evaluate() -> None:
    want = prm.evaluate(DF, [prm.psp(2, propensities="p"), prm.ips_recall(propensities="p")], per_query=True)
    got = DF.group_by("query").agg(rx.psp(2, propensities="p"), rx.ips_recall(propensities="p")).sort("query")
    assert_frame_equal(got.filter(pl.col("query").is_in(want["query"].implode())), want)


def test_per_query_and_item_weights_from_a_side_frame() -> None:
    """A side frame with a query column weighs each (query, item) on its own."""
    side = DF.select("query", "item", pl.col("p").alias("propensity"))
    got = prm.evaluate(DF, prm.ips_ndcg(2, propensities=side), per_query=True)
    want = prm.evaluate(DF, prm.ips_ndcg(2, propensities="p"), per_query=True)
    assert got.to_numpy().tolist() == want.to_numpy().tolist()


def test_psp_reads_no_propensity_of_an_item_it_does_not_need() -> None:
    """Item 13 is not relevant in query 4 and relevant in query 3: query 3 needs it."""
    side = PROPS.filter(pl.col("item") != 13)
    only_4 = DF.filter(pl.col("query") == 4)
    assert prm.evaluate(only_4, prm.psp(1, propensities=side)).item() == 0.0
    with pytest.raises(prm.InvalidDataError, match="no propensity for item '13' of query '3'"):
        prm.evaluate(DF, prm.psp(1, propensities=side))


@pytest.mark.parametrize("per_query", [False, True])
def test_plans_stream_without_python(per_query: bool) -> None:
    """Side frames joined, columns carried, oracle ranks as windows: no in-memory fallback, no UDF."""
    frame = DF.lazy().with_columns(w=pl.lit(2.0))
    counts = pl.DataFrame({"item": [10, 12], "count": [3, 1]}).lazy()
    extra = [prm.psrecall(2, counts=counts, n=10), prm.ips_ndcg(2, weights="w")]
    for metric in [*_metrics(PROPS.lazy()), *extra]:
        plan = prm.evaluate(frame, metric, per_query=per_query)
        assert fallback_nodes(plan) == [], metric
        assert not calls_python(plan), metric
