"""Per-query values to one row per `by` group, each metric by its own rule, exactly.

Aggregation is split in two so that any partition of the queries gives the
same bits: :func:`states` reduces per-query rows to mergeable states per
`by` group (counts and Int128 fixed-point sums, which add up exactly across
chunks, files or Spark partitions), :func:`merge` adds states up, and
:func:`finish` turns states into the metrics' values. :func:`aggregated` is
the three in one plan.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from polars_rankmetrics._engine.plan import DTYPES, WEIGHT, Requested
from polars_rankmetrics._kernel import fixed_point_sum, from_fixed_point
from polars_rankmetrics._spec import CatalogSpec

GEO_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN: gm_map and gm_bpref floor each query's value
QUERIES = "__prm_state_queries"  # per-query rows behind a group's states
_SUM, _COUNT, _WEIGHT = "::sum", "::n", "::w"


def _scoped(metrics: Requested) -> Requested:
    return [(n, m) for n, m in metrics if not isinstance(m.spec, CatalogSpec)]


def state_columns(metrics: Requested) -> list[str]:
    """The state columns of `metrics`, in order (after the `by` keys and :data:`QUERIES`)."""
    out: list[str] = []
    for name, metric in _scoped(metrics):
        how = metric.spec.aggregate
        if how in ("mean", "gmean"):
            out += [name + _SUM, name + _COUNT]
        elif how == "sum":
            out.append(name + _SUM)
        elif how == "weighted":
            out += [name + _SUM, name + _WEIGHT]
    return out


def _state(name: str, how: str) -> list[pl.Expr]:
    col = pl.col(name)
    if how == "mean":
        return [fixed_point_sum(col).alias(name + _SUM), col.count().cast(pl.Int64).alias(name + _COUNT)]
    if how == "gmean":
        # trec_eval's gm_*: the mean of log(max(value, 1e-5)).
        logs = pl.max_horizontal(col, pl.lit(GEO_FLOOR)).log()
        return [fixed_point_sum(logs).alias(name + _SUM), col.count().cast(pl.Int64).alias(name + _COUNT)]
    if how == "sum":
        return [col.sum().cast(pl.Int64).alias(name + _SUM)]
    if how == "weighted":
        weight = pl.col(WEIGHT + name)
        return [
            fixed_point_sum(col * weight).alias(name + _SUM),
            fixed_point_sum(weight).alias(name + _WEIGHT),
        ]
    return []


def states(
    per_q: pl.LazyFrame, metrics: Requested, keys_by: tuple[str, ...], extra: Sequence[pl.Expr] = ()
) -> pl.LazyFrame:
    """One row of mergeable states per `by` group present in `per_q` (none for an empty frame).

    `extra` aggregations ride along (diagnostics of one plan; they do not merge).
    """
    exprs = [pl.len().cast(pl.Int64).alias(QUERIES), *extra]
    for name, metric in _scoped(metrics):
        exprs += _state(name, metric.spec.aggregate)
    if keys_by:
        return per_q.group_by(keys_by).agg(exprs)
    return per_q.select(exprs).filter(pl.col(QUERIES) > 0)


def merge(parts: pl.LazyFrame, metrics: Requested, keys_by: tuple[str, ...]) -> pl.LazyFrame:
    """Add up states of disjoint query sets (rows of `parts` with the same `by` keys)."""
    sums = [pl.col(c).sum() for c in [QUERIES, *state_columns(metrics)]]
    return parts.group_by(keys_by).agg(sums) if keys_by else parts.select(sums).filter(pl.col(QUERIES) > 0)


def _value(name: str, how: str, kind: str) -> pl.Expr:
    total = pl.col(name + _SUM)
    if how == "mean":
        return from_fixed_point(total) / pl.col(name + _COUNT)  # the same bits whatever the row order
    if how == "gmean":
        return (from_fixed_point(total) / pl.col(name + _COUNT)).exp()
    if how == "sum":
        return total
    if how == "weighted":
        # A ratio of sums over all queries (mpr): sum(value * weight) / sum(weight); null if no weight.
        weight = from_fixed_point(pl.col(name + _WEIGHT))
        return pl.when(weight > 0).then(from_fixed_point(total) / weight)
    return pl.lit(None, dtype=DTYPES[kind])


def finish(
    merged: pl.LazyFrame, metrics: Requested, keys_by: tuple[str, ...], extra: Sequence[str] = ()
) -> pl.LazyFrame:
    """The metrics' values from merged states: one row per `by` group, :data:`QUERIES`, `extra`."""
    values = [
        _value(n, m.spec.aggregate, m.spec.kind).cast(DTYPES[m.spec.kind]).alias(n)
        for n, m in _scoped(metrics)
    ]
    return merged.select(*keys_by, pl.col(QUERIES), *values, *extra)


def aggregated(
    per_q: pl.LazyFrame,
    metrics: Requested,
    keys_by: tuple[str, ...],
    parts: list[pl.LazyFrame],
    extra: Sequence[pl.Expr] = (),
) -> pl.LazyFrame:
    """One row per `by` group: the query-scope metrics aggregated, joined to the catalog `parts`.

    `extra` aggregations over the per-query rows are kept after the metrics (diagnostics).
    """
    names = [name for name, _ in metrics] + [e.meta.output_name() for e in extra]
    parts = list(parts)
    if _scoped(metrics) or extra:
        carried = [e.meta.output_name() for e in extra]
        scoped = finish(states(per_q, metrics, keys_by, extra), metrics, keys_by, carried)
        parts.insert(0, scoped.drop(QUERIES))
    out = parts[0]
    for part in parts[1:]:
        # Catalog metrics cover every ranked list, so a group may lack query-scope results.
        out = (
            out.join(part, on=list(keys_by), how="full", coalesce=True)
            if keys_by
            else out.join(part, how="cross")
        )
    out = out.select(*keys_by, *names)
    return out.sort(keys_by) if keys_by else out
