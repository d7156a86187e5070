"""spark.evaluate(run, qrels=...): Spark joins the judgments as join_run_qrels does, the same bits."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal
from pyspark.sql import SparkSession

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark

METRICS = ["map", "ndcg@10", "recall@100", "P_10", "bpref", "num_rel", "coverage@10"]


def demo() -> tuple[pl.DataFrame, pl.DataFrame]:
    run = prm.read_trec_run(prm.demo_path("results.test")).drop("run")
    worse = run.with_columns(-pl.col("score")).filter(pl.col("query") != "303")
    runs = pl.concat([run.with_columns(model=pl.lit("a")), worse.with_columns(model=pl.lit("b"))])
    return runs, prm.read_trec_qrels(prm.demo_path("qrels.test"))


@pytest.mark.parametrize("by", [None, "model"])
def test_spark_qrels_equals_join_run_qrels_then_evaluate(spark: SparkSession, by: str | None) -> None:
    runs, qrels = demo()
    run = runs if by else runs.filter(pl.col("model") == "a").drop("model")
    want = prm.evaluate(prm.join_run_qrels(run, qrels, by=by), METRICS, by=by)
    got = prm_spark.evaluate(
        spark.createDataFrame(run.to_arrow()), METRICS, by=by, qrels=spark.createDataFrame(qrels.to_arrow())
    )
    assert_frame_equal(prm_spark.collect(got), want, check_exact=True)
    scoped = METRICS[:-1]
    per_query = prm_spark.evaluate(
        spark.createDataFrame(run.to_arrow()),
        scoped,
        by=by,
        per_query=True,
        qrels=spark.createDataFrame(qrels.to_arrow()),
    )
    want_q = prm.evaluate(prm.join_run_qrels(run, qrels, by=by), scoped, by=by, per_query=True)
    keys = [*([by] if by else []), "query"]
    assert_frame_equal(prm_spark.collect(per_query).sort(keys), want_q, check_exact=True)


def test_spark_qrels_errors_name_the_column(spark: SparkSession) -> None:
    runs, qrels = demo()
    run = spark.createDataFrame(runs.to_arrow())
    with pytest.raises(prm.ColumnNotFoundError, match=r"relevance.*the qrels has columns"):
        prm_spark.evaluate(
            run, ["map"], by="model", qrels=spark.createDataFrame(qrels.drop("relevance").to_arrow())
        )
    with pytest.raises(prm.InvalidParameterError, match="qrels"):
        prm_spark.evaluate(run, ["map"], by="model", qrels=qrels)  # a Polars frame, not Spark's


def test_spark_rbo_against_a_reference_run(spark: SparkSession) -> None:
    runs, qrels = demo()
    run = runs.filter(pl.col("model") == "a").drop("model")
    reference = runs.filter(pl.col("model") == "b").drop("model")
    metrics = [prm.rbo(p=0.9, reference=reference), "ndcg@10"]
    want = prm.evaluate(prm.join_run_qrels(run, qrels), metrics, per_query=True)
    got = prm_spark.evaluate(
        spark.createDataFrame(run.to_arrow()),
        metrics,
        per_query=True,
        qrels=spark.createDataFrame(qrels.to_arrow()),
    )
    assert_frame_equal(prm_spark.collect(got).sort("query"), want, check_exact=True)
