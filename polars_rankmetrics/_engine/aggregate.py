"""Per-query values to one row per `by` group, each metric by its own rule, exactly."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from polars_rankmetrics._engine.plan import DTYPES, N_JUDGED, WEIGHT, Requested
from polars_rankmetrics._kernel import exact_sum
from polars_rankmetrics._spec import CatalogSpec, Metric

GEO_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN: gm_map and gm_bpref floor each query's value


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
    aggs = [rule(pl.col(name), m).alias(name) for name, m in metrics if not isinstance(m.spec, CatalogSpec)]
    aggs += extra
    if aggs:
        if keys_by:
            parts.insert(0, per_q.group_by(keys_by).agg(aggs))
        else:
            # One row, or none for an empty frame.
            one = per_q.select(*aggs, pl.len().alias(N_JUDGED)).filter(pl.col(N_JUDGED) > 0)
            parts.insert(0, one.drop(N_JUDGED))
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


def rule(col: pl.Expr, metric: Metric) -> pl.Expr:
    """Combine one metric's per-query values by the metric's own rule."""
    how = metric.spec.aggregate
    if how == "sum":
        return col.sum()
    if how == "gmean":
        # trec_eval's gm_*: geometric mean of max(value, 1e-5).
        logs = pl.max_horizontal(col, pl.lit(GEO_FLOOR)).log()
        return (exact_sum(logs) / col.count()).exp()
    if how == "none":
        return pl.lit(None, dtype=DTYPES[metric.spec.kind])
    if how == "weighted":
        # A ratio of sums over all queries (mpr): sum(value * weight) / sum(weight); null if no weight.
        weight = pl.col(WEIGHT + col.meta.output_name())
        total = exact_sum(weight)
        return pl.when(total > 0).then(exact_sum(col * weight) / total)
    return exact_sum(col) / col.count()  # the same bits whatever the row order
