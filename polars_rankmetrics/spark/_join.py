"""The judgments joined to a run in Spark, as :func:`polars_rankmetrics.join_run_qrels` joins them."""

from __future__ import annotations

from pyspark.sql import DataFrame

from polars_rankmetrics import _errors
from polars_rankmetrics._schema import Columns
from polars_rankmetrics.exceptions import ColumnTypeError

__all__ = ["joined"]


def joined(run: DataFrame, qrels: object, cols: Columns, keys_by: tuple[str, ...]) -> DataFrame:
    """Every retrieved row of `run`, plus the judged items it missed; each `by` group gets every judgment.

    A full outer join on (by..., query, item), the key columns coalesced; with `by`, the judgments are
    first crossed with the run's distinct `by` values, so that every run is judged against all of them.
    A (query, item) judged twice becomes a duplicate row, which the evaluation's own check reports.
    """
    if not isinstance(qrels, DataFrame):
        raise _errors.parameter("qrels", "a pyspark.sql.DataFrame (the judgments)", type(qrels).__name__)
    ids = [cols.query, cols.item]
    for name, role in [*((k, "by") for k in keys_by), (cols.query, "query"), (cols.item, "item")]:
        if name not in run.columns:
            raise _errors.column_not_found(name, role, run.columns, where="the run")
    for name in [*ids, cols.relevance]:
        if name not in qrels.columns:
            raise _errors.column_not_found(name, "qrels", qrels.columns, where="the qrels")
    if cols.relevance in run.columns:
        msg = f"the run already has a relevance column {cols.relevance!r}; drop or rename it"
        raise ColumnTypeError(msg)
    run_types, qrels_types = dict(run.dtypes), dict(qrels.dtypes)
    for name in ids:
        if run_types[name] != qrels_types[name]:
            msg = (
                f"column {name!r} is {run_types[name]} in the run but {qrels_types[name]} in the qrels; "
                "cast one so they match"
            )
            raise ColumnTypeError(msg)
    judged = qrels.select(*ids, cols.relevance)
    if keys_by:
        judged = run.select(*keys_by).distinct().crossJoin(judged)
    return run.join(judged, on=[*keys_by, *ids], how="full")
