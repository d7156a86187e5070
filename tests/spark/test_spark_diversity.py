"""The intent-aware measures on Spark equal evaluate on an intent frame, bit for bit (issue 26).

A query's rows (one per judged intent, and one per unjudged retrieved item)
reach one worker call together, longer than the session's Arrow batches.
"""

from __future__ import annotations

import random

import polars as pl
import pytest
from lists import MAX_RECORDS_PER_BATCH
from polars.testing import assert_frame_equal
from pyspark.sql import SparkSession

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

NAMES = ["alpha_ndcg@5", "alpha_ndcg(alpha=0.3)@10", "err_ia@5", "nerr_ia@5", "nrbp", "nnrbp(beta=0.8)",
         "p_ia@5", "strec@5", "map_ia", "ndcg@10", "map", "P_5"]  # fmt: skip


def intent_frame(seed: int) -> pl.DataFrame:
    """Two models' runs joined to intent qrels: ties, unjudged items, relevant items never retrieved."""
    rng = random.Random(seed)  # noqa: S311  (test data, not secrets)
    run: list[tuple[str, str, str, float]] = []
    qrels: list[tuple[str, str, str, int]] = []
    for q in range(12):
        for d in range(rng.randint(3, 14)):
            intents = rng.sample("abcd", rng.randint(0, 3))
            qrels.extend((f"q{q}", intent, f"d{d}", rng.choice([0, 1, 1, 2])) for intent in intents)
        for model in ("m1", "m2"):
            items = rng.sample(range(20), rng.randint(1, 15))
            run += [(model, f"q{q}", f"d{d}", float(rng.randint(0, 5))) for d in items]
    runs = pl.DataFrame(run, schema=["model", "query", "item", "score"], orient="row")
    judged = pl.DataFrame(qrels, schema=["query", "intent", "item", "relevance"], orient="row")
    return prm.join_run_qrels(runs, judged, by="model")


@pytest.mark.parametrize("per_query", [True, False])
def test_diversity_on_spark_is_bit_identical_to_evaluate(spark: SparkSession, per_query: bool) -> None:
    df = intent_frame(26)
    assert df.group_by("model", "query").len()["len"].max() > MAX_RECORDS_PER_BATCH  # type: ignore[operator]
    expected = prm.evaluate(df, NAMES, by="model", per_query=per_query)
    got = prm_spark.collect(
        prm_spark.evaluate(spark.createDataFrame(df.to_arrow()), NAMES, by="model", per_query=per_query)
    )
    keys = ["model", "query"] if per_query else ["model"]
    assert expected.height >= (20 if per_query else 2)
    assert_frame_equal(got.sort(keys), expected, check_exact=True)
