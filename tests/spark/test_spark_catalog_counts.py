"""Catalog metrics on Spark from their mergeable states (issue 30): tables Spark merges, no task holds lists.

Equality with evaluate bit for bit, and what crosses into the one-partition
finish, read from Spark's own SQL metrics (records written into each
one-partition exchange of the executed plan): bounded by the distinct
(metric, group, item, list length) for count tables, by the groups (and
item groups, and a universe's items) for the families whose state is sums
per group, never by the lists (the gathered route wrote every list's
top-k rows into that one task).
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
from polars_rankmetrics._registry import SPECS
from polars_rankmetrics._spec import CatalogSpec
from polars_rankmetrics.exceptions import InvalidDataError

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

QUERIES, ITEMS, LENGTH = 150, 12, 8  # many lists over few items
LABELS = 4  # item categories and groups of the side inputs (and one more, 9, for every fifth item)


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


def _state_metrics(df: pl.DataFrame) -> list[object]:
    """Every family whose state is sums per group (per item group; a universe's items for pop_rsp)."""
    items = df.select(pl.col("item").unique().sort())
    features = items.with_columns(
        f1=(pl.int_range(pl.len()) % 3).cast(pl.Float64), f2=(pl.int_range(pl.len()) % 5 - 2).cast(pl.Float64)
    )
    queries = df.select(pl.col("query").unique().sort())
    interactions = queries.join(items, how="cross").filter(pl.int_range(pl.len()) % 7 < 2)
    categories = pl.concat(
        [
            items.with_columns(genre=pl.int_range(pl.len()) % LABELS),
            items.filter(pl.int_range(pl.len()) % 5 == 0).with_columns(genre=pl.lit(9, pl.Int64)),
        ]
    )
    baseline = interactions.with_columns(score=(pl.int_range(pl.len()) % 3).cast(pl.Float64))  # ties
    target = categories.group_by("genre").len().rename({"len": "weight"})
    return [
        prm.intra_list_similarity(5, features=features),
        prm.intra_list_similarity(features=features),
        prm.serendipity(5, history=interactions),
        prm.serendipity(10, history=interactions, features=features, relevance=False),
        prm.category_diversity(5, categories=categories),
        prm.miscalibration(10, history=interactions, categories=categories),
        prm.miscalibration(5, history=interactions, categories=categories, weights="rank"),
        prm.unexpectedness(5, baseline=baseline),
        prm.awrf(10, groups=categories, target=target),
        prm.awrf(5, groups=categories, discount="rbp", p=0.7),
        prm.pop_rsp(10, interactions=interactions),
        prm.pop_rsp(5, interactions=interactions, head=items.head(3)),
        prm.pop_reo(5, interactions=interactions),
        prm.pop_reo(interactions=interactions, head_share=0.5),
        prm.exposure_share(10, groups=categories, group=9),
        prm.exposure_share(5, groups=categories, group=1, discount="rbp", p=0.8),
        prm.exposure_disparity(5, groups=categories, discount="rbp", p=0.8),
        prm.exposure_disparity(10, groups=categories, target="relevance"),
        prm.exposure_disparity(groups=categories, target=target),
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


@pytest.mark.parametrize(
    ("seed", "ids", "by"),
    [
        pytest.param(43, "str", ("model", "split.name"), id="str-two-by"),
        pytest.param(44, "int", (), id="int"),
        pytest.param(45, "int", ("model",), id="int-by"),
    ],
)
def test_summed_catalog_metrics_equal_evaluate(
    spark: SparkSession, seed: int, ids: str, by: tuple[str, ...]
) -> None:
    df = frame(seed, ids, by, queries=20)  # type: ignore[arg-type]
    metrics = [*_state_metrics(df), "coverage@5", "ndcg@5"]  # with count tables and a query-scope metric
    expected = prm.evaluate(df, metrics, by=by or None)  # type: ignore[arg-type]
    sdf = spark.createDataFrame(df.to_arrow())
    got = prm_spark.collect(prm_spark.evaluate(sdf, metrics, by=by or None, buckets=5))  # type: ignore[arg-type]
    assert_frame_equal(got, expected, check_exact=True)


@pytest.mark.parametrize("by", [True, False], ids=["by", "no-by"])
def test_no_task_holds_the_summed_lists(no_adaptive: SparkSession, by: bool) -> None:
    df = _many_lists(by)  # lists sharing items: similarities, overlaps and shares are not trivial
    sdf = no_adaptive.createDataFrame(df.to_arrow())
    groups, key = (2, "model") if by else (1, None)
    metrics = _state_metrics(df)
    result = prm_spark.evaluate(sdf, metrics, by=key, buckets=5)
    assert_frame_equal(prm_spark.collect(result), prm.evaluate(df, metrics, by=key), check_exact=True)  # type: ignore[arg-type]
    # One row per (metric, group), but exposure_disparity's per (group, item group) too
    # (LABELS + 1 groups, and a row per group) and pop_rsp's items (all of them in the
    # universe: the interactions hold every item): far fewer than the lists.
    disparity, rsp = 3, 2
    bound = len(metrics) * groups + disparity * groups * (LABELS + 1) + rsp * ITEMS
    (written,) = _written_into_one_task(result)
    assert 0 < written <= bound
    assert written < QUERIES * groups / 2


def test_a_bad_item_is_named_as_evaluate_names_it(spark: SparkSession) -> None:
    # The error texts merge by their minimum: Spark names the item evaluate names.
    df = _many_lists(by=True)
    sdf = spark.createDataFrame(df.to_arrow())
    grouped = pl.DataFrame({"item": range(3, ITEMS), "genre": [i % LABELS for i in range(3, ITEMS)]})
    for metric in (prm.exposure_disparity(5, groups=grouped), prm.awrf(5, groups=grouped)):
        with pytest.raises(InvalidDataError) as local:
            prm.evaluate(df, [metric], by="model")
        with pytest.raises(InvalidDataError) as remote:
            prm_spark.collect(prm_spark.evaluate(sdf, [metric], by="model", buckets=5))
        assert str(remote.value) == str(local.value)
        assert "item 0 " in str(local.value) or "item '0'" in str(local.value)


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


def test_every_catalog_family_has_a_mergeable_state() -> None:
    # The Spark adapter merges every catalog metric's table: a family without one could not run there.
    catalog = [spec for spec in SPECS if isinstance(spec, CatalogSpec)]
    assert len(catalog) > 20
    stateless = [spec.name for spec in catalog if spec.counts is None or spec.catalog != spec.counts.catalog]
    assert stateless == []
