"""Per-query values to one row per `by` group, each metric by its own rule, exactly.

Aggregation is split in two so that any partition of the queries gives the
same bits: :func:`states` reduces per-query rows to mergeable states per
`by` group (counts and Int128 sums, which add up exactly across chunks,
files or Spark partitions; a mean's sum is banded, :func:`_kernel.banded`:
the values' integers in the band of the group's largest |value| and the
next, with that band's factor, merged by the least factor), :func:`merge`
adds states up, and
:func:`finish` turns states into the metrics' values. :func:`aggregated` is
the three in one plan.

`how` (evaluate's ``aggregate=``) picks the statistic over queries: "mean"
applies each metric's own rule; "min" and "max" keep extremes (merged by
min and max); "std" keeps exact integer sums of the values and their
squares on a 2**-32 grid (merged by addition; the sample standard
deviation, ddof=1, of the values rounded to that grid, exact for those;
values too large for those sums, about 2e9 over the queries times the
largest |value|, are refused in the plan rather than wrapped);
"median" keeps the median itself, which is no mergeable state:
:func:`merge` refuses it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, get_args

import polars as pl

from polars_rankmetrics._engine.plan import DTYPES, WEIGHT, NamedMetrics
from polars_rankmetrics._kernel import (
    band_factor,
    banded,
    fixed_point_sum,
    from_bands,
    from_fixed_point,
    merge_bands,
)
from polars_rankmetrics._spec import CatalogSpec
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions import _plan as _errors

Aggregation = Literal["mean", "median", "min", "max", "std"]
AGGREGATIONS: tuple[str, ...] = get_args(Aggregation)

GEO_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN: gm_map and gm_bpref floor each query's value
QUERIES = "__prm_state_queries"  # per-query rows behind a group's states
_SUM, _COUNT, _WEIGHT = "::sum", "::n", "::w"
_SQUARES, _STAT = "::sum2", "::stat"
_TOP, _LOW = "::top", "::low"  # a mean's banded exact sum: its top band's factor, the next band's sum
_GRID = 2.0**32  # std's values are summed as integers on this grid: exact sums, squares and products
_STD_LIMIT = 2.0**126  # std's sum of squares, and its count times that sum, stay below Int128's 2**127


def _statistic(how: str) -> bool:
    """Whether `how` is a statistic of the per-query values rather than each metric's own rule."""
    return how != "mean"


def _scoped(metrics: NamedMetrics) -> NamedMetrics:
    return [(n, m) for n, m in metrics if not isinstance(m.spec, CatalogSpec)]


def state_columns(metrics: NamedMetrics, how: str = "mean") -> list[str]:
    """The state columns of `metrics`, in order (after the `by` keys and :data:`QUERIES`)."""
    out: list[str] = []
    if _statistic(how):
        for name, _ in _scoped(metrics):
            out += [name + _SUM, name + _SQUARES, name + _COUNT] if how == "std" else [name + _STAT]
        return out
    for name, metric in _scoped(metrics):
        how = metric.spec.aggregate
        if how == "mean":
            out += [name + _TOP, name + _SUM, name + _LOW, name + _COUNT]
        elif how == "gmean":
            out += [name + _SUM, name + _COUNT]
        elif how == "sum":
            out.append(name + _SUM)
        elif how == "weighted":
            out += [name + _SUM, name + _WEIGHT]
    return out


def _state(name: str, how: str) -> list[pl.Expr]:
    col = pl.col(name)
    if how == "mean":
        # The values' integers in the group's top band and the next (`_banded_rows` added them).
        return [
            pl.col(name + _TOP).first().alias(name + _TOP),
            pl.col(name + _SUM).sum().alias(name + _SUM),
            pl.col(name + _LOW).sum().alias(name + _LOW),
            col.count().cast(pl.Int64).alias(name + _COUNT),
        ]
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


def _means(metrics: NamedMetrics) -> list[str]:
    return [name for name, metric in _scoped(metrics) if metric.spec.aggregate == "mean"]


def _banded_rows(frame: pl.LazyFrame, names: list[str], keys_by: tuple[str, ...]) -> pl.LazyFrame:
    """Per-query `frame` with each mean's integers in its group's top band (:func:`banded`).

    The top band's factor comes from the group's largest |value|: a window
    (an aggregation that read its own maximum would leave the streaming engine),
    or one value for the whole frame.
    """
    if not names:
        return frame
    factors = [band_factor(pl.col(name)) for name in names]
    factors = [f.over(list(keys_by)) if keys_by else f for f in factors]
    frame = frame.with_columns(f.alias(name + _TOP) for f, name in zip(factors, names, strict=True))
    highs = [banded(pl.col(name), pl.col(name + _TOP))[0].alias(name + _SUM) for name in names]
    # The low parts read the high ones as columns: each cast once.
    lows = [banded(pl.col(name), pl.col(name + _TOP), pl.col(name + _SUM))[1] for name in names]
    return frame.with_columns(highs).with_columns(
        low.alias(name + _LOW) for low, name in zip(lows, names, strict=True)
    )


def _statistic_state(name: str, how: str, kind: str) -> list[pl.Expr]:
    # Text metrics (relstring) have no statistic: their states are null.
    col = pl.lit(None, dtype=pl.Float64) if kind == "str" else pl.col(name)
    if how == "std":
        value = col.cast(pl.Float64)
        grid = (value * _GRID).round().cast(pl.Int128, strict=False)
        # Int128 products wrap silently: refuse values whose squares' sum could leave the range.
        squares = _std_in_range(name, (value * _GRID).pow(2).sum(), (grid * grid).sum())
        return [
            grid.sum().alias(name + _SUM),
            squares.alias(name + _SQUARES),
            col.count().cast(pl.Int64).alias(name + _COUNT),
        ]
    if how == "median":
        return [col.cast(pl.Float64).median().alias(name + _STAT)]
    return [(col.min() if how == "min" else col.max()).alias(name + _STAT)]


def _std_in_range(name: str, bound: pl.Expr, exact: pl.Expr) -> pl.Expr:
    """`exact` (an Int128 state of std), or an error in the plan where `bound` (its size) is too large."""
    message = (
        f"aggregate='std' of {name!r}: the values are too large for its exact integer sums (the queries "
        "times the largest |value| must stay below about 2e9); evaluate with per_query=True and take "
        "the standard deviation of the per-query values"
    )
    bad = ~(bound < _STD_LIMIT)  # NaN and inf too
    return pl.coalesce(_errors.in_plan(pl.when(bad).then(pl.lit(message))).cast(pl.Int128), exact)


def states(
    per_q: pl.LazyFrame,
    metrics: NamedMetrics,
    keys_by: tuple[str, ...],
    extra: Sequence[pl.Expr] = (),
    *,
    how: str = "mean",
) -> pl.LazyFrame:
    """One row of mergeable states per `by` group present in `per_q` (none for an empty frame).

    `extra` aggregations ride along (diagnostics of one plan; they do not merge).
    `how` is the statistic over queries (see the module's docstring).
    """
    exprs = [pl.len().cast(pl.Int64).alias(QUERIES), *extra]
    if not _statistic(how):
        per_q = _banded_rows(per_q, _means(metrics), keys_by)
    for name, metric in _scoped(metrics):
        if _statistic(how):
            exprs += _statistic_state(name, how, metric.spec.kind)
        else:
            exprs += _state(name, metric.spec.aggregate)
    if keys_by:
        return per_q.group_by(keys_by).agg(exprs)
    return per_q.select(exprs).filter(pl.col(QUERIES) > 0)


def check_aggregate(how: object, *, per_query: bool, merged: str | None = None) -> None:
    """Raise unless `how` is a statistic this evaluation can compute.

    `per_query` evaluations combine no queries; `merged` says where the
    statistic would be merged from parts (chunks), which a median cannot be.
    """
    if how not in AGGREGATIONS:
        raise InvalidParameterError.choice("aggregate", AGGREGATIONS, how)
    if how != "mean" and per_query:
        why = "combines queries: it does not apply with per_query=True"
        raise InvalidParameterError.refused(f"aggregate={how!r}", why)
    if how == "median" and merged is not None:
        why = (
            f"cannot be computed {merged}: a median is no mergeable state (the median of the parts' "
            "medians is not the median of all queries); evaluate with per_query=True and take the "
            "median of the per-query values"
        )
        raise InvalidParameterError.refused("aggregate='median'", why)


def merge(
    parts: pl.LazyFrame, metrics: NamedMetrics, keys_by: tuple[str, ...], how: str = "mean"
) -> pl.LazyFrame:
    """Add up states of disjoint query sets (rows of `parts` with the same `by` keys).

    Extremes merge by min and max; the median cannot merge (:func:`check_aggregate` raises).
    """
    check_aggregate(how, per_query=False, merged="from merged parts")
    columns = state_columns(metrics, how)
    merged = {"min": pl.Expr.min, "max": pl.Expr.max}.get(how, pl.Expr.sum)
    banded_sums: dict[str, pl.Expr] = {}
    means = [] if _statistic(how) else _means(metrics)
    # Each state's top band against the least of its group's (a window, computed before the sums).
    tops = [pl.col(name + _TOP).min() for name in means]
    parts = parts.with_columns(
        (t.over(list(keys_by)) if keys_by else t).alias(name + _TOP + _TOP)
        for t, name in zip(tops, means, strict=True)
    )
    for name in means:
        factor, high, low, top = (pl.col(name + c) for c in (_TOP, _SUM, _LOW, _TOP + _TOP))
        high_sum, low_sum = merge_bands(factor, high, low, top)
        banded_sums |= {name + _TOP: factor.min(), name + _SUM: high_sum, name + _LOW: low_sum}
    sums = [
        pl.col(QUERIES).sum(),
        *(banded_sums[c].alias(c) if c in banded_sums else _merged(c, merged) for c in columns),
    ]
    return parts.group_by(keys_by).agg(sums) if keys_by else parts.select(sums).filter(pl.col(QUERIES) > 0)


def _merged(column: str, merged: Callable[[pl.Expr], pl.Expr]) -> pl.Expr:
    if not column.endswith(_SQUARES):
        return merged(pl.col(column))
    # std's sums of squares: their total must stay in Int128's range too (parts' sums wrap silently).
    name = column.removesuffix(_SQUARES)
    return _std_in_range(name, pl.col(column).cast(pl.Float64).sum(), pl.col(column).sum()).alias(column)


def _value(name: str, how: str, kind: str) -> pl.Expr:
    total = pl.col(name + _SUM)
    if how == "mean":
        # The exact banded sum (the same bits whatever the row order), then one division.
        return from_bands(pl.col(name + _TOP), total, pl.col(name + _LOW)) / pl.col(name + _COUNT)
    if how == "gmean":
        return (from_fixed_point(total) / pl.col(name + _COUNT)).exp()
    if how == "sum":
        return total
    if how == "weighted":
        # A ratio of sums over all queries (mpr): sum(value * weight) / sum(weight); null if no weight.
        weight = from_fixed_point(pl.col(name + _WEIGHT))
        return pl.when(weight > 0).then(from_fixed_point(total) / weight)
    return pl.lit(None, dtype=DTYPES[kind])


def _statistic_value(name: str, how: str, kind: str) -> pl.Expr:
    if how != "std":
        dtype = pl.Float64() if how == "median" and kind != "str" else DTYPES[kind]
        return pl.col(name + _STAT).cast(dtype)
    # n * sum(a^2) - sum(a)^2 is exact in Int128 while n * max|value| < 2**31.5 (3e9 for values in [0, 1]).
    t1, t2, n = pl.col(name + _SUM), pl.col(name + _SQUARES), pl.col(name + _COUNT).cast(pl.Int128)
    # Merged states (chunks, Spark partitions) are checked again: n * t2 bounds t1 * t1 too.
    t2 = _std_in_range(name, n.cast(pl.Float64) * t2.cast(pl.Float64), t2)
    spread = (n * t2 - t1 * t1).cast(pl.Float64) / (_GRID * _GRID)
    variance = spread / (n * (n - 1)).cast(pl.Float64)
    return pl.when(n > 1).then(variance.clip(lower_bound=0.0).sqrt()).cast(pl.Float64)


def finish(
    merged: pl.LazyFrame,
    metrics: NamedMetrics,
    keys_by: tuple[str, ...],
    extra: Sequence[str] = (),
    *,
    how: str = "mean",
) -> pl.LazyFrame:
    """The metrics' values from merged states: one row per `by` group, :data:`QUERIES`, `extra`."""
    values = [
        (
            _statistic_value(n, how, m.spec.kind)
            if _statistic(how)
            else _value(n, m.spec.aggregate, m.spec.kind).cast(DTYPES[m.spec.kind])
        ).alias(n)
        for n, m in _scoped(metrics)
    ]
    return merged.select(*keys_by, pl.col(QUERIES), *values, *extra)


def aggregated(  # noqa: PLR0913
    per_q: pl.LazyFrame,
    metrics: NamedMetrics,
    keys_by: tuple[str, ...],
    parts: list[pl.LazyFrame],
    extra: Sequence[pl.Expr] = (),
    *,
    how: str = "mean",
) -> pl.LazyFrame:
    """One row per `by` group: the query-scope metrics aggregated, joined to the catalog `parts`.

    `extra` aggregations over the per-query rows are kept after the metrics (diagnostics);
    `how` is the statistic over queries.
    """
    names = [name for name, _ in metrics] + [e.meta.output_name() for e in extra]
    parts = list(parts)
    if _scoped(metrics) or extra:
        carried = [e.meta.output_name() for e in extra]
        state = states(per_q, metrics, keys_by, extra, how=how)
        scoped = finish(state, metrics, keys_by, carried, how=how)
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
