"""Evaluate rankings in Spark: the same Polars plan per partition of queries, exact merges.

``pip install "polars-rankmetrics[spark]"`` (pyspark >= 4.0). Spark moves the
rows (a repartition by the `by` keys and the query) and sums exact states;
every number is computed by the library's Polars plan in Spark's Python
workers, so per-query values and means are bit for bit those of
:func:`polars_rankmetrics.evaluate`. polars and polars-rankmetrics must be
installed on every executor (the documentation's Spark guide, docs/guides/spark.md).
"""

from __future__ import annotations

try:
    import pyspark  # noqa: F401
except ImportError:  # pragma: no cover  (the extra is installed wherever the tests run)
    msg = 'polars_rankmetrics.spark needs pyspark: pip install "polars-rankmetrics[spark]"'
    raise ImportError(msg) from None

from polars_rankmetrics.spark._api import collect, evaluate

__all__ = ["collect", "evaluate"]
