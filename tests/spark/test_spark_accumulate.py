"""The streams guide's Spark example: per-partition accumulator states from mapInArrow, merged on the driver.

docs/guides/streams.md shows this code without running it (the site's build has no Spark); here it
runs on the tests' local Spark and must equal prm.evaluate bit for bit, catalog metrics and `by` included.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from functools import reduce

import pyarrow as pa
import pytest
from lists import frame
from polars.testing import assert_frame_equal
from pyspark.sql import SparkSession

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

METRICS = ["ndcg@10", "map", "recall@5", "coverage@5", "personalization@3"]


def test_partition_states_merged_on_the_driver(spark: SparkSession) -> None:
    # Defined here, not at module level: cloudpickle then ships it by value to Spark's workers,
    # which cannot import this test module.
    def partition_state(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        """One partition's rows in, its accumulator's state out (one row of bytes): the guide's function."""
        table = pa.Table.from_batches(list(batches))
        acc = prm.Accumulator(METRICS, by="model")
        if table.num_rows:
            acc.update(table)
        yield pa.record_batch([pa.array([pickle.dumps(acc)], pa.binary())], names=["state"])

    df = frame(5, "str", by=("model",), queries=60)
    sdf = spark.createDataFrame(df.to_arrow())
    states = sdf.repartition(3, "model", "query").mapInArrow(partition_state, "state binary").collect()
    assert len(states) > 1  # several partitions' states were merged
    acc = reduce(prm.Accumulator.merge, (pickle.loads(row.state) for row in states))  # noqa: S301
    assert_frame_equal(acc.compute(), prm.evaluate(df, METRICS, by="model"), check_exact=True)
