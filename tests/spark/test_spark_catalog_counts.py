"""Catalog metrics with a mergeable state on Spark (issue 30): count tables Spark sums, no task holds lists.

Equality with evaluate bit for bit, and what crosses into the one-partition
finish, read from Spark's own SQL metrics (records written into each
one-partition exchange of the executed plan): bounded by the distinct
(metric, group, item, list length), where a family that still gathers its
lists (intra-list similarity) writes every ranked row into that one task.
"""

from __future__ import annotations

from collections.abc import Iterator

import polars as pl
import pytest
from lists import frame
from polars.testing import assert_frame_equal
from pyspark.sql import DataFrame, SparkSession

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

QUERIES, ITEMS, LENGTH = 150, 12, 8  # many lists over few items


def _counted_metrics(df: pl.DataFrame) -> list[object]:
    items = df.select(pl.col("item").unique().sort())
    popularity = items.with_columns(count=(pl.int_range(pl.len()) % 7 + 1).cast(pl.Int64))
    interactions = df.select("query", "item").drop_nulls().filter(pl.int_range(pl.len()) % 2 == 0)
    return [
        "coverage@5",
        "coverage",
        "gini@3",
        "entropy@5",
        "entropy",
        "personalization@5",
        "personalization",
        prm.coverage(4, catalog="group"),
        prm.gini(5, catalog=items),
        prm.novelty(5, popularity=popularity, n_users=8),
        prm.novelty(3, interactions=df.select("query", "item").drop_nulls(), per="item"),
        prm.arp(5, popularity=popularity),
        prm.aplt(5, popularity=popularity, head_share=0.5),
        prm.aclt(3, interactions=interactions, head_share=0.3),
        prm.tail_percentage(5, popularity=popularity, tail=0.3),
        prm.surprisal(5, interactions=interactions),
    ]


def _many_lists(by: bool) -> pl.DataFrame:
    """QUERIES lists of LENGTH items (shorter ones too) from ITEMS items, per group, with ties."""
    q = pl.int_range(QUERIES * LENGTH) // LENGTH
    pos = pl.int_range(QUERIES * LENGTH) % LENGTH
    df = pl.select(
        query=q, item=(q * 5 + pos * 7) % ITEMS, score=(LENGTH - pos).cast(pl.Float64) // 2, relevance=pos % 3
    ).filter(pos < LENGTH - q % 3)  # lengths LENGTH, LENGTH - 1, LENGTH - 2
    if not by:
        return df
    return pl.concat([df.with_columns(model=pl.lit(m)) for m in ("a", "b")]).select(
        "model", pl.all().exclude("model")
    )


@pytest.fixture
def no_adaptive(spark: SparkSession) -> Iterator[SparkSession]:
    """Adaptive execution off for one test: the executed plan is then the plain tree holding its metrics."""
    before = spark.conf.get("spark.sql.adaptive.enabled")
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    yield spark
    spark.conf.set("spark.sql.adaptive.enabled", before)


def _written_into_one_task(result: DataFrame) -> list[int]:
    """Records written into each one-partition exchange of `result`'s executed plan (after collecting it)."""
    found, stack = [], [result._jdf.queryExecution().executedPlan()]  # noqa: SLF001  (Spark's own metrics)
    while stack:
        node = stack.pop()
        if node.nodeName() == "Exchange" and node.outputPartitioning().numPartitions() == 1:
            found.append(int(node.metrics().apply("shuffleRecordsWritten").value()))
        children = node.children()
        stack.extend(children.apply(i) for i in range(children.size()))
    return found


@pytest.mark.parametrize(
    ("seed", "ids", "by"),
    [
        pytest.param(41, "str", ("model", "split.name"), id="str-two-by"),
        pytest.param(42, "int", (), id="int"),
    ],
)
def test_counted_catalog_metrics_equal_evaluate(
    spark: SparkSession, seed: int, ids: str, by: tuple[str, ...]
) -> None:
    df = frame(seed, ids, by, queries=20)  # type: ignore[arg-type]
    metrics = [*_counted_metrics(df), "ndcg@5"]  # with a query-scope metric: joined on the groups
    expected = prm.evaluate(df, metrics, by=by or None)  # type: ignore[arg-type]
    got = prm_spark.collect(prm_spark.evaluate(spark.createDataFrame(df.to_arrow()), metrics, by=by or None))  # type: ignore[arg-type]
    assert_frame_equal(got, expected, check_exact=True)


@pytest.mark.parametrize("by", [True, False], ids=["by", "no-by"])
def test_no_task_holds_the_lists(no_adaptive: SparkSession, by: bool) -> None:
    df = _many_lists(by)
    sdf = no_adaptive.createDataFrame(df.to_arrow())
    groups, key = (2, "model") if by else (1, None)
    metrics = _counted_metrics(df)
    result = prm_spark.evaluate(sdf, metrics, by=key, buckets=3)
    assert_frame_equal(prm_spark.collect(result), prm.evaluate(df, metrics, by=key), check_exact=True)  # type: ignore[arg-type]
    # One one-partition exchange (the finish's), fed by Spark's sums: at most one row per
    # (metric, group, item, list length), far fewer than the lists' ranked rows.
    (written,) = _written_into_one_task(result)
    assert 0 < written <= len(metrics) * groups * ITEMS * 3
    assert written < len(df) / 4
    # A family whose state is a sum per group (intra-list similarity, which used to gather every
    # list's top 5 rows, QUERIES * groups * 5, into that task): one row per group.
    features = pl.DataFrame({"item": range(ITEMS), "f": [float(i % 4) for i in range(ITEMS)]})
    summed = prm_spark.evaluate(sdf, [prm.intra_list_similarity(5, features=features)], by=key, buckets=3)
    prm_spark.collect(summed)
    assert _written_into_one_task(summed) == [groups]
