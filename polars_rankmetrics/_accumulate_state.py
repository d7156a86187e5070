"""The Accumulator's state: parts that merge exactly, and their plain Arrow layout.

A state is a few frames ("parts"): ``states`` (a mean's exact banded sums per
`by` group, :func:`polars_rankmetrics._engine.merge` adds them up),
``values`` (one row per query), ``tables`` (the catalog metrics' tables of
sums, merged per key), ``seen`` (the keys of the queries reduced) and ``rows``
(the rows kept with ``queries="split"``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import polars as pl

from polars_rankmetrics import _engine
from polars_rankmetrics._engine import NamedMetrics
from polars_rankmetrics._request import Request
from polars_rankmetrics._spec import merged_as
from polars_rankmetrics.checks import validate
from polars_rankmetrics.exceptions import InvalidDataError, InvalidParameterError

if TYPE_CHECKING:
    import pyarrow as pa  # imported only when a state is written or read (import time)

__all__ = ["FORMAT", "METRIC", "Layout", "Queries", "from_table", "joined", "merged_part", "to_table"]

Queries = Literal["whole", "split"]

FORMAT = 1
"""The version of the Arrow layout (:func:`to_table`); a state of another version is refused."""

METRIC = "__prm_metric"  # which catalog metric a row of the count tables belongs to
_META = b"polars_rankmetrics.accumulator"
_PART = "__prm_part"


@dataclass(frozen=True)
class Layout:
    """What an accumulator's state holds for a request: the parts, how a batch reduces, how they finish."""

    req: Request
    queries: Queries

    @property
    def scoped(self) -> NamedMetrics:
        """The query-scope metrics (per-query values; their means from exact sums)."""
        catalogs = set(_engine.catalog_names(self.req.metrics))
        return [(n, m) for n, m in self.req.metrics if n not in catalogs]

    @property
    def catalog(self) -> NamedMetrics:
        """The catalog metrics (tables of sums)."""
        catalogs = set(_engine.catalog_names(self.req.metrics))
        return [(n, m) for n, m in self.req.metrics if n in catalogs]

    @property
    def values(self) -> bool:
        """Whether the state keeps each query's values: per-query output, or a median (no mergeable state)."""
        return self.req.per_query or self.req.aggregate == "median"

    @property
    def keys(self) -> list[str]:
        """A query's key: the `by` keys and the query."""
        return [*self.req.by, self.req.columns.query]

    def fingerprint(self) -> str:
        """The request as text: what a merged or saved state must match."""
        req = self.req
        return json.dumps(
            {
                "metrics": [[name, str(metric)] for name, metric in req.metrics],
                "by": list(req.by),
                "per_query": req.per_query,
                "aggregate": req.aggregate,
                "columns": repr(req.columns),
                "conventions": repr(req.conventions),
                "queries": self.queries,
            },
            sort_keys=True,
        )

    def reduce(self, batch: pl.DataFrame) -> dict[str, pl.DataFrame]:
        """The batch's parts; its data errors name the rows, as evaluate's do."""
        try:
            return self._reduced(batch, check=self.req.check)
        except InvalidDataError:
            if not self.req.check:
                raise
            validate(batch, columns=self.req.columns, by=self.req.by)
            return self._reduced(batch, check=False)  # a hash collision of two item ids: unchecked

    def _reduced(self, batch: pl.DataFrame, *, check: bool) -> dict[str, pl.DataFrame]:
        req, scoped = self.req, self.scoped
        if check and not scoped:  # catalog metrics alone: the per-query plan, which checks, is not run
            validate(batch, columns=req.columns, by=req.by)
        digits = _engine.item_digits(batch, req.columns)
        plan = _engine.build(
            batch.lazy(), req.columns, req.by, req.conventions, req.metrics, check=check, item_digits=digits
        )
        frames: dict[str, pl.LazyFrame] = {}
        if scoped:
            per_q = plan.per_query.filter(_engine.evaluated(req.conventions))
            if self.values:
                frames["values"] = per_q.select(*plan.keys, *(name for name, _ in scoped))
            else:
                frames["states"] = _engine.states(per_q, scoped, req.by, how=req.aggregate)
        if self.catalog:
            assert plan.lists is not None
            frames["tables"] = self._count_tables(plan.lists)
        out = {name: _engine.collect(lf) for name, lf in frames.items()}
        if self.queries == "whole":
            out["seen"] = batch.select(self.keys).unique()
        return out

    def _count_tables(self, lists: pl.LazyFrame) -> pl.LazyFrame:
        """Each catalog metric's table of sums, tagged by its position, stacked (a column one lacks: null)."""
        req = self.req
        tables = [
            _engine.catalog_counts(metric, lists, req.by, req.columns.query).select(
                pl.lit(i, dtype=pl.Int32).alias(METRIC), pl.all()
            )
            for i, (_, metric) in enumerate(self.catalog)
        ]
        return pl.concat(tables, how="diagonal")

    def merged(self, name: str, frames: list[pl.DataFrame]) -> pl.DataFrame:
        """One part's frames merged into one."""
        return merged_part(name, frames, self.keys, self.scoped, self.req.by, self.req.aggregate)

    def finish(self, parts: dict[str, pl.DataFrame], schema: pl.Schema) -> pl.DataFrame:
        """The result from merged parts (no ``rows``): evaluate's frame."""
        req, scoped = self.req, self.scoped
        if req.per_query:
            return parts["values"].sort(self.keys)
        frames: list[pl.LazyFrame] = []
        if scoped and self.values:
            frames.append(_engine.aggregated(parts["values"].lazy(), scoped, req.by, [], how=req.aggregate))
        elif scoped:
            finished = _engine.finish(parts["states"].lazy(), scoped, req.by, how=req.aggregate)
            frames.append(finished.drop(_engine.QUERIES))
        if self.catalog:
            tables = parts["tables"].lazy()
            for i, ((name, metric), columns) in enumerate(
                zip(self.catalog, self._table_columns(schema), strict=True)
            ):
                table = tables.filter(pl.col(METRIC) == i).select(columns)
                frames.append(_engine.counted_value(name, metric, table, req.by))
        return _engine.collect(joined(frames, req.by, req.names))

    def _table_columns(self, schema: pl.Schema) -> list[list[str]]:
        """Each catalog metric's table columns, from the plan over an empty batch (no data read)."""
        req = self.req
        empty = pl.DataFrame(schema=schema).lazy()
        lists = _engine.build(empty, req.columns, req.by, req.conventions, self.catalog).lists
        assert lists is not None
        return [
            _engine.catalog_counts(m, lists, req.by, req.columns.query).collect_schema().names()
            for _, m in self.catalog
        ]


def merged_part(  # noqa: PLR0913, PLR0917  (the part, and the request's pieces it reads)
    name: str,
    frames: list[pl.DataFrame],
    keys: list[str],
    scoped: NamedMetrics,
    by: tuple[str, ...],
    how: str,
) -> pl.DataFrame:
    """One part's frames (of disjoint queries) merged into one: the part of all their queries."""
    # Rows of batches whose numeric columns differ in dtype: their supertype.
    frame = frames[0] if len(frames) == 1 else pl.concat(frames, how="vertical_relaxed")
    if name == "seen":
        refuse_repeats(frame, keys)
        return frame
    if len(frames) == 1 or name in ("values", "rows"):
        return frame
    if name == "states":
        return _engine.collect(_engine.merge(frame.lazy(), scoped, by, how=how))
    # The count tables: sums and least texts per key, as the Spark adapter merges them.
    table_keys = [c for c in frame.columns if merged_as(c) == "key"]
    merged = {"sum": pl.Expr.sum, "min": pl.Expr.min}
    sums = [merged[merged_as(c)](pl.col(c)) for c in frame.columns if c not in table_keys]
    return frame.group_by(table_keys).agg(sums).select(frame.columns)


def refuse_repeats(seen: pl.DataFrame, keys: list[str]) -> None:
    """Raise, naming the first, if a query's key appears twice among the batches' keys."""
    repeated = seen.filter(seen.select(keys).is_duplicated())
    if repeated.height:
        first = repeated.sort(keys).row(0, named=True)
        value = first[keys[-1]] if len(keys) == 1 else first
        remedy = (
            "with queries='whole' each batch must hold whole queries; pass queries='split' "
            "to let a query's rows arrive in several batches"
        )
        raise InvalidDataError.repeated_value("the accumulator", "query", value, remedy)


def joined(frames: list[pl.LazyFrame], by: tuple[str, ...], names: Sequence[str]) -> pl.LazyFrame:
    """The query-scope and catalog results side by side, one row per `by` group, as evaluate joins them."""
    out = frames[0]
    for part in frames[1:]:
        # Catalog metrics cover every ranked list, so a group may lack query-scope results.
        out = out.join(part, on=list(by), how="full", coalesce=True) if by else out.join(part, how="cross")
    out = out.select(*by, *names)
    return out.sort(by) if by else out


def to_table(parts: dict[str, pl.DataFrame], schema: pl.Schema | None, request: str) -> pa.Table:
    """The parts as one Arrow table: each part's columns prefixed ``part/``, a row's part in a column.

    The batches' schema rides as the empty part ``input``; Int128 sums (which Arrow lacks)
    as decimal text; the format version, the request and the parts in the schema's metadata.
    """
    every = {"input": pl.DataFrame(schema=schema or pl.Schema()), **parts}
    wide, exact = [], []
    for name, frame in every.items():
        exact += [f"{name}/{c}" for c, dtype in frame.schema.items() if dtype == pl.Int128]
        text = frame.with_columns(pl.col(pl.Int128).cast(pl.String))
        wide.append(text.select(pl.lit(name).alias(_PART), pl.all().name.prefix(f"{name}/")))
    table = pl.concat(wide, how="diagonal").to_arrow(compat_level=pl.CompatLevel.oldest())
    meta = {"format": FORMAT, "request": request, "parts": list(every), "exact": exact}
    meta["seen"] = schema is not None
    return table.replace_schema_metadata({_META: json.dumps(meta).encode()})


def from_table(table: pa.Table, request: str) -> tuple[dict[str, pl.DataFrame], pl.Schema | None]:
    """The parts and the batches' schema of :func:`to_table`'s table, if its version and request match."""
    meta = json.loads((table.schema.metadata or {}).get(_META, b"{}"))
    if meta.get("format") != FORMAT:
        why = f"has format version {meta.get('format')!r}; this version of the library reads {FORMAT}"
        raise InvalidParameterError.refused("the saved state", why)
    if meta["request"] != request:
        why = f"was saved for another request: {meta['request']}, not {request}"
        raise InvalidParameterError.refused("the saved state", why)
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    parts: dict[str, pl.DataFrame] = {}
    for name in meta["parts"]:
        prefix = f"{name}/"
        columns = [c for c in frame.columns if c.startswith(prefix)]
        part = frame.filter(pl.col(_PART) == name).select(columns)
        part = part.with_columns(pl.col(c).cast(pl.Int128) for c in meta["exact"] if c in columns)
        parts[name] = part.rename({c: c.removeprefix(prefix) for c in columns})
    schema = parts.pop("input").schema if meta["seen"] else None
    parts.pop("input", None)
    return parts, schema
