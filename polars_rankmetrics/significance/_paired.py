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

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
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
            raise InvalidParameterError.not_among(name, system, self.systems.name, listed)
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
            raise ColumnNotFoundError.from_missing_and_available(column, role, names)
    if by == query:
        raise InvalidParameterError.shared_column(by, "`by`", "`query`")
    numeric = [c for c in names if c not in (by, query) and schema[c].is_numeric()]
    if metrics is None:
        if not numeric:
            raise ColumnNotFoundError.layout(
                "the frame", f"a numeric metric column besides {by!r} and {query!r}", names
            )
        return tuple(numeric)
    chosen = (metrics,) if isinstance(metrics, str) else tuple(metrics)
    if not chosen:
        raise InvalidParameterError.empty("metrics", "name at least one metric column, or pass None for all")
    for metric in chosen:
        _check_metric(schema, metric, by, query)
    dupes = sorted({m for m in chosen if chosen.count(m) > 1})
    if dupes:
        raise InvalidParameterError.not_unique("metric names", dupes)
    return chosen


def _check_metric(schema: pl.Schema, metric: str, by: str, query: str) -> None:
    if metric in (by, query):
        raise InvalidParameterError.same_column("metric", metric, "by" if metric == by else "query")
    if metric not in schema:
        raise ColumnNotFoundError.from_missing_and_available(metric, "metric", schema.names())
    if not schema[metric].is_numeric():
        raise ColumnTypeError.from_dtype(metric, "metric", "numeric", schema[metric])


def check_rows(df: pl.DataFrame, by: str, query: str, metrics: tuple[str, ...]) -> None:
    """Null ids, duplicate (system, query) rows, NaN / infinite / null values: InvalidDataError."""
    for column in (by, query):
        nulls = df.get_column(column).null_count()
        if nulls:
            raise InvalidDataError.null_values(column, "every row needs a system and a query", count=nulls)
    dupes = df.group_by(by, query).len().filter(pl.col("len") > 1).sort(by, query)
    if dupes.height:
        rows = [f"({s!r}, {q!r})" for s, q in dupes.select(by, query).iter_rows()]
        raise InvalidDataError.several_rows(("system", "query"), dupes.height, _quote(rows))
    for metric in metrics:
        value = pl.col(metric).cast(pl.Float64)
        bad = df.filter(value.is_null() | ~value.is_finite()).sort(by, query)
        if bad.height:
            found = bad.select(by, query, metric).iter_rows()
            rows = [f"system {s!r}, query {q!r}: {v}" for s, q, v in found]
            raise InvalidDataError.not_finite(f"metric {metric!r}", bad.height, _quote(rows))


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
        found = f"column {by!r} names {systems.len()} system(s) ({_quote(systems.to_list())})"
        raise InvalidDataError.too_few(found, "compare", "2")
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
            raise MissingQueriesError.with_remedy(_missing_detail(absent, by, query, queries.len()), REMEDY)
        if missing == "zero":
            grid = grid.with_columns(pl.col(chosen).fill_null(0))
        else:  # intersect: the queries every system has
            grid = grid.filter(~pl.col(_QUERY).is_in(absent.get_column(_QUERY).unique().implode()))
            queries = grid.filter(pl.col(_SYSTEM) == 0).get_column(query)
    if queries.len() < 2:
        count = queries.len()
        found = _quote(queries.to_list())
        raise InvalidDataError.too_few(
            f"{count} paired quer{'y' if count == 1 else 'ies'} ({found})", "a paired test"
        )
    shape = (systems.len(), queries.len())
    values = np.stack([grid.get_column(m).cast(pl.Float64).to_numpy().reshape(shape).T for m in chosen])
    return Paired(systems=systems, queries=queries, metrics=chosen, values=np.ascontiguousarray(values))
