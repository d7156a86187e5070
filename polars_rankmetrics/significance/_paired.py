"""Pair per-query values by query across systems: checks, the missing-query policy, a values array.

The pairing is a join against the full (system x query) grid, sorted by the
systems' and queries' positions in their sorted lists: the result never
depends on the input's row order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
import polars as pl

from polars_rankmetrics import _errors
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    InvalidDataError,
    InvalidParameterError,
    MissingQueriesError,
)

MissingPolicy = Literal["error", "zero", "intersect"]

_SYSTEM, _QUERY, _PRESENT = "__prm_system", "__prm_query", "__prm_present"
_SHOWN = 5  # values quoted in a message before "and N more"


@dataclass(frozen=True)
class Paired:
    """Per-query values paired across systems.

    Attributes
    ----------
    systems
        The systems, sorted (the `by` column's dtype and name).
    queries
        The paired queries, sorted (the query column's dtype and name).
    metrics
        The metric columns, in the order asked for (or the frame's).
    values
        ``values[m, q, s]``: metric ``m`` of system ``s`` on query ``q``.
    """

    systems: pl.Series
    queries: pl.Series
    metrics: tuple[str, ...]
    values: npt.NDArray[np.float64]

    def index(self, system: object, name: str = "baseline") -> int:
        """The position of `system` among the systems; InvalidParameterError if it is not one."""
        listed = self.systems.to_list()
        if system not in listed:
            msg = f"{name} {system!r} is not in column {self.systems.name!r}; the systems: {_quote(listed)}"
            raise InvalidParameterError(msg)
        return listed.index(system)


def _quote(values: Sequence[object], shown: int = _SHOWN) -> str:
    text = ", ".join(repr(v) for v in values[:shown])
    return f"{text} and {len(values) - shown} more" if len(values) > shown else text


def metric_columns(
    schema: pl.Schema, by: str, query: str, metrics: str | Sequence[str] | None
) -> tuple[str, ...]:
    """The metric columns to compare: those named, or every numeric column but `by` and `query`."""
    names = schema.names()
    for role, column in (("`by`", by), ("`query`", query)):
        if column not in schema:
            raise _errors.column_not_found(column, role, names)
    if by == query:
        msg = f"`by` and `query` must be different columns, got {by!r} for both"
        raise InvalidParameterError(msg)
    numeric = [c for c in names if c not in (by, query) and schema[c].is_numeric()]
    if metrics is None:
        if not numeric:
            msg = f"no numeric metric column besides {by!r} and {query!r}; the frame has: {_quote(names)}"
            raise ColumnNotFoundError(msg)
        return tuple(numeric)
    chosen = (metrics,) if isinstance(metrics, str) else tuple(metrics)
    if not chosen:
        msg = "`metrics` is empty: name at least one metric column, or pass None for all"
        raise InvalidParameterError(msg)
    for metric in chosen:
        _check_metric(schema, metric, by, query)
    dupes = sorted({m for m in chosen if chosen.count(m) > 1})
    if dupes:
        msg = f"metric names must be unique, got {_quote(dupes)} more than once"
        raise InvalidParameterError(msg)
    return chosen


def _check_metric(schema: pl.Schema, metric: str, by: str, query: str) -> None:
    if metric in (by, query):
        msg = f"metric {metric!r} is the {'by' if metric == by else 'query'} column"
        raise InvalidParameterError(msg)
    if metric not in schema:
        raise _errors.column_not_found(metric, "metric", schema.names())
    if not schema[metric].is_numeric():
        raise _errors.column_type(metric, "metric", "numeric", schema[metric])


def check_rows(df: pl.DataFrame, by: str, query: str, metrics: tuple[str, ...]) -> None:
    """Null ids, duplicate (system, query) rows, NaN / infinite / null values: InvalidDataError."""
    for column in (by, query):
        nulls = df.get_column(column).null_count()
        if nulls:
            msg = f"column {column!r} has {nulls} null value(s); every row needs a system and a query"
            raise InvalidDataError(msg)
    dupes = df.group_by(by, query).len().filter(pl.col("len") > 1).sort(by, query)
    if dupes.height:
        rows = [f"({s!r}, {q!r})" for s, q in dupes.select(by, query).iter_rows()]
        msg = f"{dupes.height} (system, query) pair(s) have several rows: {_quote(rows)}; expected one each"
        raise InvalidDataError(msg)
    for metric in metrics:
        value = pl.col(metric).cast(pl.Float64)
        bad = df.filter(value.is_null() | ~value.is_finite()).sort(by, query)
        if bad.height:
            found = bad.select(by, query, metric).iter_rows()
            rows = [f"system {s!r}, query {q!r}: {v}" for s, q, v in found]
            msg = f"metric {metric!r} has {bad.height} NaN, infinite or null value(s): {_quote(rows)}"
            raise InvalidDataError(msg)


REMEDY = (
    "Pass missing='zero' to score them 0 (trec_eval -c) or missing='intersect' to compare on the queries "
    "every system has"
)


def _missing_detail(absent: pl.DataFrame, by: str, query: str, n_queries: int) -> str:
    per_system = absent.group_by(by).agg(pl.col(query).sort()).sort(by)
    parts = [
        f"system {system!r} has no row for {len(queries)} of the {n_queries} queries: {_quote(queries)}"
        for system, queries in per_system.iter_rows()
    ]
    return "; ".join(parts[:_SHOWN]) + (
        f"; and {len(parts) - _SHOWN} more systems" if len(parts) > _SHOWN else ""
    )


def pair(
    frame: pl.DataFrame | pl.LazyFrame,
    *,
    by: str,
    query: str,
    metrics: str | Sequence[str] | None,
    missing: MissingPolicy,
) -> Paired:
    """Collect `frame` and pair its values by query across systems (see ``compare`` for the policy).

    `frame` may be any frame :func:`polars_rankmetrics._inputs.as_polars` takes (pandas, pyarrow...).
    """
    lf = as_polars(frame, "per_query").lazy()
    chosen = metric_columns(lf.collect_schema(), by, query, metrics)
    df = lf.select(by, query, *chosen).collect()
    check_rows(df, by, query, chosen)
    systems = df.get_column(by).unique().sort()
    if systems.len() < 2:
        msg = f"column {by!r} names {systems.len()} system(s) ({_quote(systems.to_list())}); compare needs 2"
        raise InvalidDataError(msg)
    queries = df.get_column(query).unique().sort()
    grid = (
        systems.to_frame()
        .with_row_index(_SYSTEM)
        .join(queries.to_frame().with_row_index(_QUERY), how="cross")
        .join(df.with_columns(pl.lit(value=True).alias(_PRESENT)), on=[by, query], how="left")
        .sort(_SYSTEM, _QUERY)
    )
    absent = grid.filter(pl.col(_PRESENT).is_null())
    if absent.height:
        if missing == "error":
            raise MissingQueriesError(_missing_detail(absent, by, query, queries.len()), REMEDY)
        if missing == "zero":
            grid = grid.with_columns(pl.col(chosen).fill_null(0))
        else:  # intersect: the queries every system has
            grid = grid.filter(~pl.col(_QUERY).is_in(absent.get_column(_QUERY).unique().implode()))
            queries = grid.filter(pl.col(_SYSTEM) == 0).get_column(query)
    if queries.len() < 2:
        count = queries.len()
        found = _quote(queries.to_list())
        msg = f"{count} paired quer{'y' if count == 1 else 'ies'} ({found}); a paired test needs at least 2"
        raise InvalidDataError(msg)
    shape = (systems.len(), queries.len())
    values = np.stack([grid.get_column(m).cast(pl.Float64).to_numpy().reshape(shape).T for m in chosen])
    return Paired(systems=systems, queries=queries, metrics=chosen, values=np.ascontiguousarray(values))
