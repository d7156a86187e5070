"""Spark's aggregate= and tie policies equal evaluate's bits (issues 15 and 14).

min, max and std merge across partitions (std from exact integer sums Spark
adds as Decimal(38, 0)); the median cannot merge and is refused, as
evaluate_chunked refuses it. Tie policies and presets are conventions the
workers apply to whole queries.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from lists import frame
from polars.testing import assert_frame_equal
from pyspark.sql import SparkSession

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

NAMES = ["ndcg@10", "map", "P_5", "recip_rank", "num_rel_ret", "bpref"]


@pytest.mark.parametrize("how", ["min", "max", "std"])
def test_aggregate_equals_evaluate_and_numpy(spark: SparkSession, how: str) -> None:
    df = frame(21, "str", ("model",))
    expected = prm.evaluate(df, NAMES, by="model", aggregate=how)  # type: ignore[arg-type]
    sdf = spark.createDataFrame(df.to_arrow())
    got = prm_spark.collect(prm_spark.evaluate(sdf, NAMES, by="model", aggregate=how, buckets=3))  # type: ignore[arg-type]
    assert_frame_equal(got, expected, check_exact=True)
    per_q = prm.evaluate(df, NAMES, by="model", per_query=True)
    reduce = {"min": np.min, "max": np.max, "std": lambda v: np.std(v, ddof=1)}[how]
    for row in got.iter_rows(named=True):
        values = per_q.filter(pl.col("model") == row["model"])
        for name in NAMES:
            want = float(reduce(values[name].cast(pl.Float64).to_numpy()))
            assert abs(row[name] - want) <= (2e-10 if how == "std" else 0.0), (row["model"], name)


def test_median_is_refused_before_any_job(spark: SparkSession) -> None:
    sdf = spark.createDataFrame(frame(22, "int").to_arrow())
    with pytest.raises(prm.InvalidParameterError, match=r"median.*no mergeable state.*per_query=True"):
        prm_spark.evaluate(sdf, ["map"], aggregate="median")


def test_catalog_metrics_refuse_a_statistic(spark: SparkSession) -> None:
    sdf = spark.createDataFrame(frame(22, "int").to_arrow())
    with pytest.raises(prm.InvalidParameterError, match=r"coverage.*aggregate='max' does not apply"):
        prm_spark.evaluate(sdf, ["map", "coverage@5"], aggregate="max")


@pytest.mark.parametrize(
    "options",
    [{"ties": "average"}, {"ties": "optimistic"}, {"preset": "sklearn"}, {"preset": "pytrec_eval"}],
    ids=["average", "optimistic", "sklearn", "pytrec_eval"],
)
def test_tie_policies_and_presets_reach_the_workers(spark: SparkSession, options: dict[str, str]) -> None:
    # Scores rounded to one decimal: most lists hold ties.
    df = frame(23, "str", ("model",)).with_columns(pl.col("score").round(1))
    names = ["ndcg@10", "map", "P_5", "recip_rank"]
    if options.get("preset") == "pytrec_eval":  # its recall levels (no tie policy defines iprec)
        names.append("iprec_at_recall_0.10")
    assert df.group_by("model", "query", "score").len()["len"].max() > 1  # type: ignore[operator]
    sdf = spark.createDataFrame(df.to_arrow())
    for per_query in (True, False):
        expected = prm.evaluate(df, names, by="model", per_query=per_query, **options)  # type: ignore[arg-type]
        got = prm_spark.collect(prm_spark.evaluate(sdf, names, by="model", per_query=per_query, **options))  # type: ignore[arg-type]
        assert_frame_equal(got.sort(expected.columns[:2]) if per_query else got, expected, check_exact=True)


def test_std_out_of_range_is_refused(spark: SparkSession) -> None:
    # Gains of 1e12 put DCG's squared states past Decimal(38, 0) / Int128: an error, not a wrong number.
    df = pl.DataFrame(
        {"query": [1, 1, 2, 2, 3], "item": ["a", "b", "a", "c", "a"],
         "score": [2.0, 1.0, 2.0, 1.0, 1.0], "relevance": [1, 2, 2, 0, 1]}
    )  # fmt: skip
    sdf = spark.createDataFrame(df.to_arrow())
    with pytest.raises(prm.InvalidDataError, match=r"aggregate='std' of 'dcg'.* too large"):
        prm_spark.collect(prm_spark.evaluate(sdf, ["dcg"], aggregate="std", gain={1: 1e12, 2: 3e12}))
