"""The judgments joined to a run in Spark, as :func:`polars_rankmetrics.join_run_qrels` joins them."""

from __future__ import annotations

from pyspark.sql import DataFrame

from polars_rankmetrics._join import check_columns
from polars_rankmetrics._schema import Columns
from polars_rankmetrics.exceptions import InvalidParameterError

__all__ = ["joined"]


def joined(run: DataFrame, qrels: object, cols: Columns, keys_by: tuple[str, ...]) -> DataFrame:
    """Every retrieved row of `run`, plus the judged items it missed; each `by` group gets every judgment.

    A full outer join on (by..., query, item), the key columns coalesced; with `by`, the judgments are
    first crossed with the run's distinct `by` values, so that every run is judged against all of them.
    A (query, item) judged twice becomes a duplicate row, which the evaluation's own check reports.
    """
    if not isinstance(qrels, DataFrame):
        raise InvalidParameterError.out_of_domain(
            "qrels", "a pyspark.sql.DataFrame (the judgments)", type(qrels).__name__
        )
    check_columns(dict(run.dtypes), dict(qrels.dtypes), cols, keys_by)
    ids = [cols.query, cols.item]
    judged = qrels.select(*ids, cols.relevance)
    if keys_by:
        judged = run.select(*keys_by).distinct().crossJoin(judged)
    return run.join(judged, on=[*keys_by, *ids], how="full")
