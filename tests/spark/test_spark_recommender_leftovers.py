"""The RecTools and LensKit leftovers on Spark: evaluate's values, bit for bit.

exposure_gini and rank_biased_entropy are catalog families whose mergeable states (a count per
item and position; per-group fixed-point sums) Spark merges; the per-query families (partial_auc,
pap, sufficient_reco, intersection, rbo_normalized, least_item_promoted) run per whole query.
"""

from __future__ import annotations

import polars as pl
import pytest
from lists import frame
from polars.testing import assert_frame_equal
from pyspark.sql import SparkSession

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


def _metrics(df: pl.DataFrame) -> list[object]:
    items = df.select(pl.col("item").unique().sort())
    categories = items.with_columns(genre=pl.int_range(pl.len()) % 4)
    reference = (
        df.filter(pl.col("score").is_not_null())
        .select("query", "item", score=-pl.col("score"))
        .unique(["query", "item"])
    )
    return [
        prm.exposure_gini(5, catalog=items),
        prm.exposure_gini(p=0.5),
        prm.rank_biased_entropy(5, categories=categories),
        prm.rank_biased_entropy(p=0.7, categories=categories),
        "partial_auc@3",
        prm.pap(2, insufficient_handling="exclude"),
        "sufficient_reco@4",
        "sufficient_reco_deep@4",
        prm.intersection(3, ref_k=5, reference=reference),
        prm.rbo_normalized(5, reference=reference),
        prm.least_item_promoted(2, reference=reference),
    ]


@pytest.mark.parametrize(
    ("seed", "ids", "by"),
    [pytest.param(51, "str", ("model",), id="str-by"), pytest.param(52, "int", (), id="int")],
)
def test_the_leftovers_equal_evaluate(spark: SparkSession, seed: int, ids: str, by: tuple[str, ...]) -> None:
    df = frame(seed, ids, by, queries=20)  # type: ignore[arg-type]
    metrics = _metrics(df)
    expected = prm.evaluate(df, metrics, by=by or None)  # type: ignore[arg-type]
    sdf = spark.createDataFrame(df.to_arrow())
    got = prm_spark.collect(prm_spark.evaluate(sdf, metrics, by=by or None, buckets=5))  # type: ignore[arg-type]
    assert_frame_equal(got, expected, check_exact=True)
