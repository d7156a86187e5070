"""The system and query columns of a per-query frame: as named, as evaluate made them, or the one candidate.

Every function of this package reads a per-query frame (one row per system and query, one column per
metric). It names the system with ``by=`` and the query with ``columns=`` (a ``prm.Columns`` or a
``{"query": name}`` mapping, the same ``columns=`` evaluate took) or ``query=``. When neither is given, the
frame's own: the columns :func:`polars_rankmetrics.evaluate` evaluated with, for the frame it returned;
else a column named ``query``; else the one column that can only be the query (not the system, not a
float, not a metric named).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns, ColumnsLike, recalled
from polars_rankmetrics.exceptions import ColumnNotFoundError, InvalidParameterError

__all__ = ["QUERY_REMEDY", "read", "system", "system_and_query"]

QUERY_REMEDY = "name it with columns=prm.Columns(query=...) or query=..."


def system(frame: object, by: str | None, names: Sequence[str], what: str) -> str:
    """The system column: `by`, or the one key evaluate grouped `frame` by."""
    if by is None:
        made = recalled(frame)
        if made is None or len(made[0]) != 1:
            raise InvalidParameterError.needs(what, "by=, the column naming the system", "pass by='model'")
        by = made[0][0]
    if not isinstance(by, str):
        raise InvalidParameterError.out_of_domain("by", "the name of the column naming the system", by)
    if by not in names:
        raise ColumnNotFoundError.from_missing_and_available(by, "`by`", names, remedy="pass by=...")
    return by


def system_and_query(  # noqa: PLR0913
    frame: object,
    schema: pl.Schema,
    *,
    by: str | None,
    query: str | None,
    columns: ColumnsLike,
    what: str,
    metrics: str | Sequence[str] | None = None,
    skip: Sequence[str] = (),
) -> tuple[str, str]:
    """The (system, query) columns of a per-query frame; a missing one names the parameter that fixes it.

    `frame` is the object the user passed (an evaluation's result is recognised), `schema` its
    schema, `skip` other columns that are not the query (``replicates``).
    """
    names = schema.names()
    by = system(frame, by, names, what)
    named = None if columns is None else Columns.of(columns).query
    if query is not None and named is not None and query != named:
        raise InvalidParameterError.not_both(f"query={query!r}", f"columns naming {named!r}", owner=what)
    chosen = query if query is not None else named
    if chosen is None:
        made = recalled(frame)
        chosen = (
            made[1] if made is not None else "query" if "query" in names else _only(schema, by, metrics, skip)
        )
    if chosen is None or chosen not in names:
        missing = "query" if chosen is None else chosen
        raise ColumnNotFoundError.from_missing_and_available(missing, "`query`", names, remedy=QUERY_REMEDY)
    return by, chosen


def _only(schema: pl.Schema, by: str, metrics: str | Sequence[str] | None, skip: Sequence[str]) -> str | None:
    """The one column that can be the query: not `by`, a metric, skipped, or a float; None if not one."""
    named = {metrics} if isinstance(metrics, str) else set(metrics or ())
    candidates = [
        c
        for c, dtype in schema.items()
        if c != by and c not in named and c not in skip and not dtype.is_float()
    ]
    return candidates[0] if len(candidates) == 1 else None


def read(  # noqa: PLR0913, PLR0917  (one call per public function, the same order)
    per_query: object,
    by: str | None,
    query: str | None,
    columns: ColumnsLike,
    what: str,
    metrics: str | Sequence[str] | None = None,
    replicates: str | None = None,
) -> tuple[pl.DataFrame | pl.LazyFrame, str, str]:
    """`per_query` as a Polars frame, with its system and query columns (:func:`system_and_query`)."""
    frame = as_polars(per_query, "per_query")
    skip = () if replicates is None else (replicates,)
    found = system_and_query(
        per_query,
        frame.collect_schema(),
        by=by,
        query=query,
        columns=columns,
        what=what,
        metrics=metrics,
        skip=skip,
    )
    return frame, *found
