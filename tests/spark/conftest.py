"""One local[2] SparkSession for every Spark test (start-up costs about 20 s), small Arrow batches."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest
from lists import MAX_RECORDS_PER_BATCH
from pyspark.sql import SparkSession


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    # Workers run PYSPARK_PYTHON (else `python3` on PATH): the interpreter running the tests.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("polars-rankmetrics tests")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(MAX_RECORDS_PER_BATCH))
        .config("spark.sql.shuffle.partitions", "3")
        .config("spark.default.parallelism", "2")
        .config("spark.executorEnv.POLARS_MAX_THREADS", "1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("FATAL")
    yield session
    session.stop()
