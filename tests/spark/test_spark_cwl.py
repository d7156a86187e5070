"""The C/W/L families on Spark equal evaluate bit for bit, per query and as means (costs included)."""

from __future__ import annotations

import polars as pl
import pytest
from lists import frame
from polars.testing import assert_frame_equal
from pyspark.sql import SparkSession

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


def _metrics(df: pl.DataFrame) -> list[prm.Metric]:
    grades = df["relevance"].drop_nulls().unique().to_list()
    gain = {float(g): min(max(g, 0), 3) / 3 for g in grades}  # grades into [0, 1]
    items = df["item"].unique().sort().head(40).cast(pl.String)
    costs = pl.DataFrame({"item": items, "cost": [0.5 * (i % 7) for i in range(items.len())]})
    return [
        prm.cwl_inst(target=2, gain=gain, max_depth=40),
        prm.cwl_tbg(halflife=3, quantity="etc", gain=gain, costs=costs, max_depth=40),
        prm.cwl_ap(bound="residual", gain=gain, max_depth=40),
        prm.cwl_trap(quantity="ed", gain=gain, max_depth=40),
        prm.cwl_umeasure(length=5, gain=gain, costs=costs, max_depth=40, bound="best"),
        prm.cwl_precision(5, quantity="etu", gain=gain),
    ]


@pytest.mark.parametrize(("seed", "ids", "by"), [(21, "str", ("model",)), (22, "int", ())])
def test_cwl_on_spark_is_bit_identical(spark: SparkSession, seed: int, ids: str, by: tuple[str, ...]) -> None:
    df = frame(seed, ids, by)  # type: ignore[arg-type]
    metrics = _metrics(df)
    keys = [*by, "query"]
    expected = prm.evaluate(df, metrics, by=by or None, per_query=True)
    got = prm_spark.collect(
        prm_spark.evaluate(spark.createDataFrame(df.to_arrow()), metrics, by=by or None, per_query=True)
    )
    assert expected.height > 10
    assert_frame_equal(got.sort(keys), expected.sort(keys), check_exact=True)
    means = prm.evaluate(df, metrics, by=by or None)
    got_means = prm_spark.collect(
        prm_spark.evaluate(spark.createDataFrame(df.to_arrow()), metrics, by=by or None)
    )
    if by:
        assert_frame_equal(got_means.sort(list(by)), means.sort(list(by)), check_exact=True)
    else:
        assert_frame_equal(got_means, means, check_exact=True)


def test_cwl_columns_on_spark_are_bit_identical(spark: SparkSession) -> None:
    """costs="cost" and TrAP's relevant="r" read columns of the frame, which Spark ships with the rows."""
    df = frame(23, "str", ("model",))
    text = pl.col("item").cast(pl.String)
    df = df.with_columns(
        pl.when(text.str.contains("3")).then(None).otherwise(text.str.len_bytes() * 0.5).alias("cost"),
        (pl.col("query").cast(pl.String).str.len_bytes() * 2.0).alias("r"),
    )
    gain = {float(g): min(max(g, 0), 3) / 3 for g in df["relevance"].drop_nulls().unique().to_list()}
    metrics = [
        prm.cwl_tbg(halflife=3, quantity="ec", gain=gain, costs="cost", max_depth=30),
        prm.cwl_trap(bound="residual", gain=gain, costs="cost", relevant="r", max_depth=30),
    ]
    expected = prm.evaluate(df, metrics, by="model", per_query=True)
    got = prm_spark.collect(
        prm_spark.evaluate(spark.createDataFrame(df.to_arrow()), metrics, by="model", per_query=True)
    )
    assert expected.height > 10
    assert expected[str(metrics[0])].n_unique() > 2  # the costs are read
    assert_frame_equal(got.sort("model", "query"), expected.sort("model", "query"), check_exact=True)
