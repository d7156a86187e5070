"""The propensity families on Spark: side frames shipped with the metric, columns shipped with the rows."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal
from pyspark.sql import SparkSession

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


def test_propensity_and_ips_families_equal_evaluate_on_spark(spark: SparkSession) -> None:
    df = pl.DataFrame({
        "query": ["q1", "q1", "q1", "q2", "q2", "q3", "q3"], "item": ["a", "b", "c", "a", "c", "b", "d"],
        "score": [0.9, 0.8, 0.1, 0.9, 0.5, 0.3, None], "relevance": [1, 0, 1, 0, 1, 1, 2],
        "w": [2.0, 1.0, 4.0, 2.0, 4.0, 1.5, 3.0],
    })  # fmt: skip
    props = pl.DataFrame({"item": ["a", "b", "c", "d"], "propensity": [0.5, 0.8, 0.25, 0.1]})
    counts = pl.DataFrame({"item": ["a", "b", "c"], "count": [40, 25, 2]})
    metrics = [
        prm.psp(2, propensities=props), prm.psndcg(3, propensities=props, normalize="oracle"),
        prm.psrecall(2, counts=counts, n=100, dataset="amazon"),
        prm.ips_rbp(propensities=props, estimator="snips"), prm.ips_ndcg(2, weights="w"),
    ]  # fmt: skip
    sdf = spark.createDataFrame(df.to_arrow())
    for per_query in (False, True):
        want = prm.evaluate(df, metrics, per_query=per_query)
        got = prm_spark.collect(prm_spark.evaluate(sdf, metrics, per_query=per_query))
        if per_query:
            got = got.sort("query")
        assert_frame_equal(got, want, check_dtypes=False)
