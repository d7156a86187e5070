"""The Spark adapter equals evaluate bit for bit, per query and aggregated (issue 16).

Every test runs on the one local[2] session of conftest.py, whose Arrow
batches (7 rows) are shorter than most generated lists (up to 30 rows):
a query's rows must still reach one worker call together.
"""

from __future__ import annotations

import polars as pl
import pytest
from lists import LONGEST, MAX_RECORDS_PER_BATCH, frame
from polars.testing import assert_frame_equal
from pyspark.sql import SparkSession

import polars_rankmetrics as prm
from polars_rankmetrics import _engine
from polars_rankmetrics import spark as prm_spark
from polars_rankmetrics._registry import SPECS
from polars_rankmetrics._spec import QuerySpec, TableSpec

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


def _names() -> list[str]:
    """Every query-scope metric with a default form, at no cutoff and at cutoff 5; gm_map and mpr."""
    out: list[str] = []
    for spec in SPECS:
        takes_value = any(p.default is None and p.kind in ("float", "floats", "side") for p in spec.params)
        if not isinstance(spec, (QuerySpec, TableSpec)) or takes_value:
            continue
        out.append(spec.name if spec.k != "required" else f"{spec.name}@5")
        if spec.k == "optional":
            out.append(f"{spec.name}@5")
    return out


NAMES = _names()
CASES = [
    pytest.param(11, "str", ("model", "split.name"), id="str-ids-two-by-keys"),
    pytest.param(12, "int", ("model",), id="int-ids-one-by-key"),
    pytest.param(13, "int", (), id="int-ids-no-by"),
]


def test_the_lists_are_longer_than_the_arrow_batches() -> None:
    assert LONGEST > MAX_RECORDS_PER_BATCH
    lengths = frame(11, "str", ("model",)).group_by("model", "query").len()["len"]
    assert (lengths > MAX_RECORDS_PER_BATCH).sum() > 10


def test_every_aggregate_rule_is_covered() -> None:
    rules = {metric.spec.aggregate for _, metric in _engine.named_metrics(NAMES)}
    assert {"mean", "gmean", "sum", "weighted"} <= rules


@pytest.mark.parametrize(("seed", "ids", "by"), CASES)
def test_per_query_is_bit_identical_to_evaluate(
    spark: SparkSession, seed: int, ids: str, by: tuple[str, ...]
) -> None:
    df = frame(seed, ids, by)  # type: ignore[arg-type]
    keys = [*by, "query"]
    expected = prm.evaluate(df, NAMES, by=by or None, per_query=True)
    got = prm_spark.collect(
        prm_spark.evaluate(spark.createDataFrame(df.to_arrow()), NAMES, by=by or None, per_query=True)
    )
    assert expected.height > 10  # evaluated queries (run-only and qrels-only ones are not)
    assert_frame_equal(got.sort(keys), expected, check_exact=True)


@pytest.mark.parametrize(("seed", "ids", "by"), CASES)
def test_means_are_bit_identical_to_evaluate(
    spark: SparkSession, seed: int, ids: str, by: tuple[str, ...]
) -> None:
    df = frame(seed, ids, by)  # type: ignore[arg-type]
    expected = prm.evaluate(df, NAMES, by=by or None)
    got = prm_spark.collect(prm_spark.evaluate(spark.createDataFrame(df.to_arrow()), NAMES, by=by or None))
    assert_frame_equal(got, expected, check_exact=True)


def test_conventions_columns_and_buckets_reach_the_workers(spark: SparkSession) -> None:
    df = frame(14, "str", ("model",)).rename({"query": "qid", "item": "docno", "relevance": "rel"})
    cols = prm.Columns(query="qid", item="docno", relevance="rel")
    options = {"missing": "zero", "relevance_level": 2, "depth": 12}
    names = ["ndcg@10", "map", "gm_map", "num_rel_ret", "P_5", "mpr"]
    sdf = spark.createDataFrame(df.to_arrow())
    for per_query in (True, False):
        expected = prm.evaluate(df, names, by="model", per_query=per_query, columns=cols, **options)  # type: ignore[arg-type]
        lazy = prm_spark.evaluate(
            sdf,
            names,
            by="model",
            per_query=per_query,
            columns=cols,
            buckets=5,
            **options,  # type: ignore[arg-type]
        )
        got = prm_spark.collect(lazy)
        assert_frame_equal(got.sort(expected.columns[:2]) if per_query else got, expected, check_exact=True)


def test_no_rows_give_evaluates_empty_frames(spark: SparkSession) -> None:
    df = frame(15, "int", ("model",)).clear()
    schema = "model string, query long, item long, score double, relevance long"
    sdf = spark.createDataFrame(df.to_arrow(), schema=schema)
    for by, per_query in (("model", True), ("model", False), (None, False)):
        expected = prm.evaluate(df, ["map", "num_q"], by=by, per_query=per_query)
        got = prm_spark.collect(prm_spark.evaluate(sdf, ["map", "num_q"], by=by, per_query=per_query))
        assert_frame_equal(got, expected)


def test_the_result_is_lazy_with_evaluates_types(spark: SparkSession) -> None:
    sdf = spark.createDataFrame(frame(16, "str", ("model",)).to_arrow())
    out = prm_spark.evaluate(sdf, ["ndcg@10", "num_q"], by="model", per_query=True)
    assert [(f.name, f.dataType.simpleString()) for f in out.schema.fields] == [
        ("model", "string"),
        ("query", "string"),
        ("ndcg@10", "double"),
        ("num_q", "bigint"),
    ]


def test_ranks_in_place_of_scores(spark: SparkSession) -> None:
    df = frame(17, "int", ("model",)).with_columns(
        rank=pl.col("score").rank("ordinal", descending=True).over("model", "query").cast(pl.Int64)
    )
    df = df.with_columns(rank=pl.when(pl.col("score").is_not_null()).then("rank")).drop("score")
    expected = prm.evaluate(df, NAMES, by="model", per_query=True)
    got = prm_spark.collect(
        prm_spark.evaluate(spark.createDataFrame(df.to_arrow()), NAMES, by="model", per_query=True)
    )
    assert_frame_equal(got.sort("model", "query"), expected, check_exact=True)


@pytest.mark.parametrize("by", [(), ("model",)])
def test_tiny_values_are_bit_identical_to_evaluate(spark: SparkSession, by: tuple[str, ...]) -> None:
    """RBP terms of 1e-28 to 1e-78 per query and the means of such values (issue 31, D9), over partitions.

    Also rbp_resid's deep unjudged ranks (judged down to 5 past the relevant item) and DCG's tiny gains.
    """
    rows = []
    for j, rank in enumerate([15, 40, 2, 15, 40, 150] * 3):
        model = "a" if j % 2 else "b"
        rows += [
            (model, f"q{j:02d}", f"d{i:03d}", float(200 - i), None if i > rank + 5 else int(i == rank))
            for i in range(1, 161)
        ]
    df = pl.DataFrame(rows, schema=["model", "query", "item", "score", "relevance"], orient="row")
    metrics = [prm.rbp(p=0.01), prm.rbp(p=0.05), prm.precision(10**30), prm.err(max_grade=200.0)]
    metrics += [prm.rbp_resid(p=0.01), prm.ndcg(k=20, gain={1: 1e-30}), prm.dcg(gain={1: 1e-300})]
    sdf = spark.createDataFrame(df.to_arrow()).repartition(5)
    for per_query in (True, False):
        expected = prm.evaluate(df, metrics, by=by or None, per_query=per_query)
        got = prm_spark.collect(prm_spark.evaluate(sdf, metrics, by=by or None, per_query=per_query))
        keys = [*by, "query"] if per_query else list(by)
        assert_frame_equal(got.sort(keys) if keys else got, expected, check_exact=True)
        assert (expected.select(pl.col("^rbp.*$")) > 0).to_series(0).all()  # no value lost to a grid
        deep = expected.select(pl.col("^rbp_resid.*$", "^dcg.*$"))
        assert all((deep[name] > 0).all() for name in deep.columns)
