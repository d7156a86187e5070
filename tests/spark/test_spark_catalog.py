"""Catalog metrics on Spark equal evaluate's (issue 16): ranked lists from the workers, one Polars finish."""

from __future__ import annotations

import polars as pl
import pytest
from lists import frame
from polars.testing import assert_frame_equal
from pyspark.sql import SparkSession

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark
from polars_rankmetrics.exceptions import InvalidDataError, InvalidParameterError

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


def _metrics(df: pl.DataFrame) -> list[object]:
    items = df.select(pl.col("item").unique().sort())
    popularity = items.with_columns(count=(pl.int_range(pl.len()) % 7 + 1).cast(pl.Int64))
    features = items.with_columns(
        f1=(pl.int_range(pl.len()) % 3).cast(pl.Float64), f2=(pl.int_range(pl.len()) % 5 - 2).cast(pl.Float64)
    )
    queries = df.select(pl.col("query").unique().sort())
    interactions = queries.join(items, how="cross").filter(pl.int_range(pl.len()) % 3 == 0)
    categories = pl.concat(
        [
            items.with_columns(genre=pl.int_range(pl.len()) % 4),
            items.filter(pl.int_range(pl.len()) % 5 == 0).with_columns(genre=pl.lit(9, pl.Int64)),
        ]
    )
    return [
        "ndcg@10",
        "coverage@10",
        "gini@10",
        "entropy",
        "personalization@5",
        "map",
        prm.novelty(10, popularity=popularity, n_users=8),
        prm.intra_list_similarity(5, features=features),
        prm.arp(10, popularity=popularity),
        prm.aplt(10, popularity=popularity, head_share=0.5),
        prm.aclt(5, head=items.head(3)),
        prm.tail_percentage(10, popularity=popularity, tail=0.3),
        prm.pop_rsp(10, interactions=interactions),
        prm.pop_reo(5, interactions=interactions),
        prm.surprisal(10, interactions=interactions),
        prm.unexpectedness(
            5, baseline=interactions.with_columns(score=pl.col("item").hash().cast(pl.Float64))
        ),
        prm.category_diversity(5, categories=categories),
        prm.miscalibration(10, history=interactions, categories=categories, weights="rank"),
        prm.serendipity(5, history=interactions),
        prm.serendipity(10, history=interactions, features=features, relevance=False),
        prm.exposure_share(10, groups=categories, group=9),
        prm.exposure_disparity(5, groups=categories, discount="rbp", p=0.8),
        prm.exposure_disparity(10, groups=categories, target="relevance"),
        prm.awrf(10, groups=categories, target=categories.group_by("genre").len().rename({"len": "weight"})),
    ]


@pytest.mark.parametrize(
    ("seed", "ids", "by"),
    [
        pytest.param(31, "str", ("model", "split.name"), id="str-two-by"),
        pytest.param(32, "int", (), id="int-no-by"),
    ],
)
def test_catalog_metrics_equal_evaluate(
    spark: SparkSession, seed: int, ids: str, by: tuple[str, ...]
) -> None:
    df = frame(seed, ids, by, queries=16)  # type: ignore[arg-type]
    metrics = _metrics(df)
    expected = prm.evaluate(df, metrics, by=by or None)  # type: ignore[arg-type]
    got = prm_spark.collect(prm_spark.evaluate(spark.createDataFrame(df.to_arrow()), metrics, by=by or None))  # type: ignore[arg-type]
    assert_frame_equal(got, expected, check_exact=True)


def test_catalog_metrics_alone_and_checked(spark: SparkSession) -> None:
    df = frame(33, "int", ("model",), queries=8)
    sdf = spark.createDataFrame(df.to_arrow())
    expected = prm.evaluate(df, ["coverage@10", "gini@10"], by="model")
    assert_frame_equal(
        prm_spark.collect(prm_spark.evaluate(sdf, ["coverage@10", "gini@10"], by="model")), expected
    )
    with pytest.raises(InvalidParameterError, match="coverage@10"):
        prm_spark.evaluate(sdf, ["coverage@10"], by="model", per_query=True)
    duplicated = spark.createDataFrame(pl.concat([df, df.tail(1)]).to_arrow())
    with pytest.raises(InvalidDataError, match="duplicate"):
        prm_spark.collect(prm_spark.evaluate(duplicated, ["coverage@10"], by="model"))
