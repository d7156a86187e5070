"""On a local master the workers run the driver's interpreter, unless the user chose one (issue 30)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from pyspark.sql import SparkSession

import polars_rankmetrics as prm
from polars_rankmetrics import spark as prm_spark

FRAME = pl.DataFrame(
    {"query": ["q1", "q1", "q2"], "item": ["a", "b", "a"], "score": [2.0, 1.0, 1.0], "relevance": [1, 0, 1]}
)


def test_a_default_interpreter_without_polars_is_replaced_by_the_drivers(
    spark: SparkSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What Spark runs when PYSPARK_PYTHON is unset: here a `python3` that cannot import anything.
    missing = tmp_path / "python3"
    missing.write_text("#!/bin/sh\nexit 3\n")
    missing.chmod(0o755)
    monkeypatch.delenv("PYSPARK_PYTHON", raising=False)
    context = spark.sparkContext
    monkeypatch.setattr(context, "pythonExec", str(missing))
    got = prm_spark.collect(prm_spark.evaluate(spark.createDataFrame(FRAME.to_pandas()), ["map", "P_1"]))
    assert got.equals(prm.evaluate(FRAME, ["map", "P_1"]))
    assert context.pythonExec == str(missing)  # the session's own setting is left as it was


def test_an_interpreter_the_user_chose_is_kept(
    spark: SparkSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "python3"
    missing.write_text("#!/bin/sh\nexit 3\n")
    missing.chmod(0o755)
    monkeypatch.setenv("PYSPARK_PYTHON", str(missing))
    monkeypatch.setattr(spark.sparkContext, "pythonExec", str(missing))
    with pytest.raises(Exception, match=r"(?i)python|worker|exit"):  # Spark's own error
        prm_spark.collect(prm_spark.evaluate(spark.createDataFrame(FRAME.to_pandas()), ["map"]))
