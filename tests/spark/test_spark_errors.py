"""The Spark adapter's errors: the library's classes, before any job where the schema says so (issue 16)."""

from __future__ import annotations

import polars as pl
import pytest
from lists import frame
from pyspark.errors import PythonException
from pyspark.sql import SparkSession

from polars_rankmetrics import spark as prm_spark
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
    UnknownMetricError,
)
from polars_rankmetrics.spark._errors import from_spark

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


@pytest.fixture(scope="module")
def sdf(spark: SparkSession):  # noqa: ANN201  (a pyspark DataFrame)
    return spark.createDataFrame(frame(21, "str", ("model",), queries=6).to_arrow())


def _jobs(spark: SparkSession) -> int:
    return len(spark.sparkContext.statusTracker().getJobIdsForGroup())


@pytest.mark.parametrize(
    ("metrics", "kwargs", "error", "match"),
    [
        (["ndcg@10", "nope"], {}, UnknownMetricError, "nope"),
        (["ndcg@0"], {}, InvalidParameterError, "k"),
        (["map"], {"by": "missing_key"}, ColumnNotFoundError, "missing_key"),
        (["map"], {"gain": "nope"}, InvalidParameterError, "gain"),
        (["map"], {"buckets": 0}, InvalidParameterError, "buckets"),
        (["coverage@10"], {"per_query": True}, InvalidParameterError, "coverage@10"),
        (["ils@10"], {}, InvalidParameterError, "features"),
    ],
)
def test_bad_requests_fail_on_the_driver_before_any_job(  # noqa: PLR0913, PLR0917  (the cases' fields)
    spark: SparkSession, sdf: object, metrics: list[str], kwargs: dict[str, object], error: type, match: str
) -> None:
    before = _jobs(spark)
    with pytest.raises(error, match=match):
        prm_spark.evaluate(sdf, metrics, **kwargs)  # type: ignore[arg-type]
    assert _jobs(spark) == before


def test_missing_and_mistyped_columns_fail_before_any_job(spark: SparkSession, sdf: object) -> None:
    before = _jobs(spark)
    with pytest.raises(ColumnNotFoundError, match="item"):
        prm_spark.evaluate(sdf.drop("item"), ["map"], by="model")  # type: ignore[attr-defined]
    with pytest.raises(ColumnTypeError, match="score"):
        prm_spark.evaluate(sdf.withColumn("score", sdf["score"].cast("string")), ["map"], by="model")  # type: ignore[attr-defined, index]
    assert _jobs(spark) == before


def test_a_polars_frame_is_not_a_spark_frame() -> None:
    with pytest.raises(InvalidParameterError, match="pyspark"):
        prm_spark.evaluate(pl.DataFrame({"query": [1]}), ["map"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda df: pl.concat([df, df.head(1)]), "duplicate"),
        (
            lambda df: df.with_columns(
                score=pl.when(pl.int_range(pl.len()) == 3).then(float("nan")).otherwise("score")
            ),
            "NaN",
        ),
        (
            lambda df: df.with_columns(
                query=pl.when(pl.int_range(pl.len()) == 5).then(None).otherwise("query")
            ),
            "null",
        ),
    ],
    ids=["duplicate-row", "nan-score", "null-query"],
)
def test_bad_data_raises_the_librarys_error_from_the_workers(
    spark: SparkSession, change: object, match: str
) -> None:
    df = change(frame(22, "int", ("model",), queries=6))  # type: ignore[operator]
    sdf = spark.createDataFrame(df.to_arrow())
    per_query = match == "duplicate"  # the per-query route on one case, the aggregated one on the others
    with pytest.raises(InvalidDataError, match=match) as info:
        prm_spark.collect(prm_spark.evaluate(sdf, ["map"], by="model", per_query=per_query))
    assert "Traceback" not in str(info.value)
    assert "\n" not in str(info.value).strip()


def test_check_false_skips_the_checks(spark: SparkSession) -> None:
    df = frame(23, "int", ("model",), queries=6)
    sdf = spark.createDataFrame(pl.concat([df, df.head(1)]).to_arrow())
    assert prm_spark.collect(prm_spark.evaluate(sdf, ["map"], by="model", check=False)).height == 2


def test_other_spark_errors_pass_through(sdf: object) -> None:
    def boom(_batches: object) -> object:
        raise ZeroDivisionError("not ours")

    with pytest.raises(PythonException, match="not ours"):
        prm_spark.collect(sdf.mapInArrow(boom, "x long"))  # type: ignore[attr-defined]


def test_from_spark_reads_the_last_library_error_in_a_trace() -> None:
    trace = (
        "An exception was thrown from the Python worker: Traceback (most recent call last):\n"
        '  File "x.py", line 1, in f\n'
        "polars_rankmetrics.exceptions.InvalidDataError: 2 duplicate (query, item) row(s): query=1\n"
        " SQLSTATE: 38000\n"
    )
    err = from_spark(Exception(trace))
    assert isinstance(err, InvalidDataError)
    assert str(err) == "2 duplicate (query, item) row(s): query=1"
    assert from_spark(Exception("polars_rankmetrics.exceptions.NotAClass: x")) is None
    assert from_spark(Exception("ZeroDivisionError: 1/0")) is None


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"by": ["model", "model"]}, r"`by` must name each column once"),
        ({"by": "__prm_rank"}, r"'__prm_rank'.* reserved"),
    ],
    ids=["repeated_by", "reserved_by"],
)
def test_repeated_or_reserved_by_columns_raise_before_any_job(
    spark: SparkSession,
    sdf,  # noqa: ANN001  (a pyspark DataFrame)
    kwargs: dict,
    match: str,
) -> None:
    """Issue 31, D5: the library's error, not Spark's or Polars' DuplicateError."""
    before = _jobs(spark)
    with pytest.raises(InvalidParameterError, match=match):
        prm_spark.evaluate(sdf, ["map"], **kwargs)
    assert _jobs(spark) == before
