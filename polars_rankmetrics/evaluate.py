"""evaluate(): schema check -> prepare (one ranking) -> per-query agg -> population -> aggregate."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import polars as pl

from polars_rankmetrics._prepare import (
    NUM_JUDGED,
    NUM_LISTED,
    NUM_REL,
    NUM_RET,
    RANK,
    GainColumns,
    Prepared,
    gain_columns,
    gain_key,
    prepare,
)
from polars_rankmetrics._registry import Metric, parse
from polars_rankmetrics._schema import Columns, normalise_by, resolve_schema
from polars_rankmetrics._validation import check_choice
from polars_rankmetrics.checks import validate
from polars_rankmetrics.conventions import Conventions, Gain, Missing
from polars_rankmetrics.exceptions import InvalidDataError, InvalidParameterError, UnknownMetricError
from polars_rankmetrics.metrics._core import exact_sum
from polars_rankmetrics.metrics.cumulative import VALUE

__all__ = ["evaluate", "population"]

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)
MetricLike = str | Metric

_DTYPES: dict[str, pl.DataType] = {"int": pl.Int64(), "float": pl.Float64(), "str": pl.String()}
_GEO_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN: gm_map and gm_bpref floor each query's value

_N_JUDGED = "__prm_n_judged"
_N_RETRIEVED = "__prm_n_retrieved"
_N_RELEVANT = "__prm_n_relevant"
_WEIGHT = "__prm_weight_"  # + metric name: a query's weight under the "weighted" aggregate


def _conventions(
    preset: str | None,
    depth: int | None,
    relevance_level: float | None,
    missing: Missing | None,
    gain: Gain | None,
    judged_only: bool | None = None,
) -> Conventions:
    base = Conventions.preset(preset) if preset is not None else Conventions()
    return Conventions(
        depth=base.depth if depth is None else depth,
        relevance_level=base.relevance_level if relevance_level is None else relevance_level,
        missing=base.missing if missing is None else missing,
        gain=base.gain if gain is None else gain,
        judged_only=base.judged_only if judged_only is None else judged_only,
    )


def _requested(metrics: MetricLike | Sequence[MetricLike]) -> list[tuple[str, Metric]]:
    if isinstance(metrics, (str, Metric)):
        metrics = [metrics]
    out: list[tuple[str, Metric]] = []
    for m in metrics:
        metric = parse(m)
        out.append((m if isinstance(m, str) else str(metric), metric))
    names = [name for name, _ in out]
    if not out:
        msg = "`metrics` is empty: name at least one metric, e.g. ['ndcg@10', 'map']"
        raise UnknownMetricError(msg)
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        msg = f"metric names must be unique, got {', '.join(map(repr, dupes))} more than once"
        raise UnknownMetricError(msg)
    return out


@dataclass(frozen=True)
class _Plan:
    """The prepared frame and what the requested metrics compute from it."""

    keys: tuple[str, ...]
    per_query: pl.LazyFrame  # one row per (by..., query): population counts, query-scope metrics
    catalog: list[tuple[str, pl.LazyFrame]]  # catalog-scope metrics: (name, frame of by..., name)


def _plan(
    lf: pl.LazyFrame,
    columns: Columns,
    by: tuple[str, ...],
    conventions: Conventions,
    metrics: list[tuple[str, Metric]],
) -> _Plan:
    """Rank once, then build every metric's computation over the one prepared frame."""
    queries = [(n, m) for n, m in metrics if m.family.scope == "query"]
    catalogs = [(n, m) for n, m in metrics if m.family.scope == "catalog"]
    schema = resolve_schema(lf.collect_schema(), columns, by, need_relevance=bool(queries) or not catalogs)
    reserved = {name for name, _ in metrics} & {*by, columns.query}
    if reserved:
        msg = f"metric name {min(reserved)!r} clashes with a key column"
        raise InvalidParameterError(msg)
    needs = set().union(*(m.family.needs for _, m in metrics)) | ({"item"} if catalogs else set())
    # One gain column (and ideal order) per distinct gain convention among the metrics.
    gains: dict[str, tuple[Gain, GainColumns]] = {}
    columns_of: dict[str, GainColumns] = {}
    for name, metric in metrics:
        spec: Gain = metric.gain() or conventions.gain
        key = gain_key(spec)
        if metric.family.graded and key not in gains:
            gains[key] = (spec, gain_columns(spec, len(gains)))
        columns_of[name] = gains[key][1] if metric.family.graded else gain_columns(spec, -1)

    def rows(keys: tuple[str, ...]) -> list[pl.Expr]:
        exprs = [e for _, m in metrics if m.family.rows for e in m.family.rows(m, keys)]
        return list({e.meta.output_name(): e for e in exprs}.values())

    keeps = [(m.family.keep, m, columns_of[n]) for n, m in metrics]
    keep: pl.Expr | None = None
    if not metrics:
        keep = pl.lit(value=False)  # population counts only: one row per query is enough
    elif all(k is not None for k, _, _ in keeps):
        keep = pl.any_horizontal([k(m, g) for k, m, g in keeps if k is not None])
    prepared = prepare(lf, schema, conventions, needs, gains, rows, keep)
    if catalogs:
        # Query-scope and catalog metrics both read the prepared frame: compute it once
        # (10M rows, four catalog metrics: 51 -> 34 CPU-s in memory, 31 -> 19 streaming).
        prepared = Prepared(frame=prepared.frame.cache(), keys=prepared.keys)
    values: list[pl.Expr] = []
    tables: list[tuple[str, pl.LazyFrame]] = []
    for name, metric in queries:
        dtype = _DTYPES[metric.family.kind]
        if metric.family.table is not None:
            table = metric.family.table(metric, columns_of[name], prepared.frame, prepared.keys)
            tables.append((name, table.select(*prepared.keys, pl.col(VALUE).cast(dtype).alias(name))))
        else:
            values.append(metric.per_query(columns_of[name]).cast(dtype).alias(name))
            if metric.family.weight is not None:  # the "weighted" aggregate reads it
                values.append(metric.family.weight(metric, columns_of[name]).cast(pl.Float64).alias(_WEIGHT + name))
    per_query = prepared.frame.group_by(prepared.keys).agg(
        pl.col(NUM_JUDGED).first().alias(_N_JUDGED),
        pl.col(NUM_LISTED if conventions.judged_only else NUM_RET).first().alias(_N_RETRIEVED),
        pl.col(NUM_REL).first().alias(_N_RELEVANT),
        *values,
    )
    for name, table in tables:
        # Tables cover the queries with an ideal list; every other query scores 0.
        per_query = per_query.join(table, on=list(prepared.keys), how="left")
        per_query = per_query.with_columns(pl.col(name).fill_null(0.0))
    catalog = []
    if catalogs:
        lists = prepared.frame.filter(pl.col(RANK).is_not_null())
        for name, metric in catalogs:
            assert metric.family.catalog is not None  # noqa: S101  (scope says so)
            value = metric.family.catalog(metric, lists, by).select(*by, pl.col(VALUE).alias(name))
            catalog.append((name, value))
    return _Plan(keys=prepared.keys, per_query=per_query, catalog=catalog)


def _evaluated(conventions: Conventions) -> pl.Expr:
    judged = pl.col(_N_JUDGED) > 0
    if conventions.missing == "zero":
        return judged
    return judged & (pl.col(_N_RETRIEVED) > 0)


_IN_PLAN_ERROR = re.compile(r"polars_rankmetrics: (.*)")


def _finish(lf: pl.LazyFrame, frame: FrameT) -> FrameT:
    if isinstance(frame, pl.LazyFrame):
        return lf
    try:
        return lf.collect()
    except pl.exceptions.InvalidOperationError as err:
        # Data errors found inside the plan (an item without features...) carry our prefix.
        found = _IN_PLAN_ERROR.search(str(err))
        if found is None:
            raise
        raise InvalidDataError(found.group(1).strip().rstrip("\"']")) from err


def evaluate(  # noqa: PLR0913
    frame: FrameT,
    metrics: MetricLike | Sequence[MetricLike],
    *,
    by: str | Sequence[str] | None = None,
    per_query: bool = False,
    columns: Columns | None = None,
    depth: int | None = None,
    relevance_level: float | None = None,
    missing: Missing | None = None,
    gain: Gain | None = None,
    judged_only: bool | None = None,
    preset: str | None = None,
    check: bool = True,
) -> FrameT:
    """Evaluate rankings: many metrics and cutoffs, per `by` group, in one lazy plan.

    The ranking is computed once for every metric requested; every metric
    is a pure Polars expression, so the plan runs on the in-memory and the
    streaming engine alike.

    Parameters
    ----------
    frame
        One row per (query, item): query, item, score or rank, relevance;
        see :class:`Columns`. Build it from a run and judgments with
        :func:`join_run_qrels`.
    metrics
        Names (``"ndcg@10"``, trec_eval's ``"P_10"``) or :class:`Metric`
        objects. Output columns are named as written.
    by
        Grouping keys (run, model, segment): every metric is computed per
        group and per query inside it.
    per_query
        Return one row per (by..., query) instead of one per `by` group.
    columns
        Column names of the frame; defaults to ``Columns()``.
    depth, relevance_level, missing, gain, judged_only
        The conventions (see :class:`Conventions`); None takes the preset's.
    preset
        Named conventions; ``"trec_eval"`` (the default) reproduces trec_eval 10.0.
    check
        For a DataFrame, run :func:`validate` first (NaN or infinite scores,
        null ids, ranks below 1, duplicate rows). A LazyFrame is never
        collected here: call :func:`validate` on it yourself.

    Returns
    -------
    pl.DataFrame or pl.LazyFrame
        The same frame type as `frame`. Aggregated: one row per `by` group
        (sorted by it), each metric aggregated by its own rule (mean, or sum
        for counts). Per query: by-keys, query, then the metrics, sorted.
        Only evaluated queries count (see :func:`population`).

    Raises
    ------
    RankMetricsError
        Missing or mistyped columns, a bad parameter, an unknown metric name
        (the message lists the valid ones) or, with `check`, bad data.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "d"],
    ...     "score": [0.9, 0.5, 0.1, 0.8, 0.2], "relevance": [0, 1, 1, 1, None]})
    >>> prm.evaluate(df, ["ndcg@10", "P_1", "recip_rank"]).with_columns(pl.all().round(4))
    shape: (1, 3)
    ┌─────────┬─────┬────────────┐
    │ ndcg@10 ┆ P_1 ┆ recip_rank │
    │ ---     ┆ --- ┆ ---        │
    │ f64     ┆ f64 ┆ f64        │
    ╞═════════╪═════╪════════════╡
    │ 0.8467  ┆ 0.5 ┆ 0.75       │
    └─────────┴─────┴────────────┘
    """
    cols = columns or Columns()
    keys_by = normalise_by(by)
    conventions = _conventions(preset, depth, relevance_level, missing, gain, judged_only)
    requested = _requested(metrics)
    catalog_names = [name for name, m in requested if m.family.scope == "catalog"]
    if per_query and catalog_names:
        msg = (
            f"{', '.join(map(repr, catalog_names))} describe(s) a whole set of lists, not one query: "
            "evaluate it without per_query=True"
        )
        raise InvalidParameterError(msg)
    plan = _plan(frame.lazy(), cols, keys_by, conventions, requested)
    if check and isinstance(frame, pl.DataFrame):
        validate(frame, columns=cols, by=keys_by)
    per_q = plan.per_query.filter(_evaluated(conventions))
    if per_query:
        names = [name for name, _ in requested]
        return _finish(per_q.select(*plan.keys, *names).sort(plan.keys), frame)
    return _finish(_aggregated(per_q, requested, keys_by, [frame for _, frame in plan.catalog]), frame)


def _aggregated(
    per_q: pl.LazyFrame,
    requested: list[tuple[str, Metric]],
    keys_by: tuple[str, ...],
    parts: list[pl.LazyFrame],
) -> pl.LazyFrame:
    """One row per `by` group: the query-scope metrics aggregated, joined to the catalog `parts`."""
    names = [name for name, _ in requested]
    parts = list(parts)
    aggs = [_aggregate(pl.col(name), metric).alias(name) for name, metric in requested if metric.family.scope == "query"]
    if aggs:
        if keys_by:
            parts.insert(0, per_q.group_by(keys_by).agg(aggs))
        else:
            # One row, or none for an empty frame.
            one = per_q.select(*aggs, pl.len().alias(_N_JUDGED)).filter(pl.col(_N_JUDGED) > 0)
            parts.insert(0, one.drop(_N_JUDGED))
    out = parts[0]
    for part in parts[1:]:
        # Catalog metrics cover every ranked list, so a group may lack query-scope results.
        out = out.join(part, on=list(keys_by), how="full", coalesce=True) if keys_by else out.join(part, how="cross")
    out = out.select(*keys_by, *names)
    return out.sort(keys_by) if keys_by else out


def _aggregate(col: pl.Expr, metric: Metric) -> pl.Expr:
    """Combine one metric's per-query values by the metric's own rule."""
    rule = metric.family.aggregate
    if rule == "sum":
        return col.sum()
    if rule == "gmean":
        # trec_eval's gm_*: geometric mean of max(value, 1e-5).
        logs = pl.max_horizontal(col, pl.lit(_GEO_FLOOR)).log()
        return (exact_sum(logs) / col.count()).exp()
    if rule == "none":
        return pl.lit(None, dtype=_DTYPES[metric.family.kind])
    if rule == "weighted":
        # A ratio of sums over all queries (mpr): sum(value * weight) / sum(weight); null if no weight.
        weight = pl.col(_WEIGHT + col.meta.output_name())
        total = exact_sum(weight)
        return pl.when(total > 0).then(exact_sum(col * weight) / total)
    return exact_sum(col) / col.count()  # the same bits whatever the row order


def population(  # noqa: PLR0913
    frame: FrameT,
    *,
    by: str | Sequence[str] | None = None,
    columns: Columns | None = None,
    depth: int | None = None,
    relevance_level: float | None = None,
    missing: Missing | None = None,
    preset: str | None = None,
) -> FrameT:
    """Count the queries in each case of the population rules, per `by` group.

    Parameters
    ----------
    frame
        The evaluation frame, as for :func:`evaluate`.
    by, columns, depth, relevance_level, missing, preset
        As for :func:`evaluate`.

    Returns
    -------
    pl.DataFrame or pl.LazyFrame
        by-keys, then ``queries`` (all), ``evaluated`` (the queries metrics
        average over), ``no_relevant`` (evaluated, no relevant item: they
        score 0), ``qrels_only`` (judged, nothing retrieved: skipped, or
        evaluated with ``missing="zero"``) and ``run_only`` (no judged row:
        never evaluated).

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 3, 4], "item": ["a", "b", "a", "a", "a"],
    ...     "score": [0.9, 0.5, 0.3, None, 0.2], "relevance": [1, 0, 0, 1, None]})
    >>> prm.population(df)
    shape: (1, 5)
    ┌─────────┬───────────┬─────────────┬────────────┬──────────┐
    │ queries ┆ evaluated ┆ no_relevant ┆ qrels_only ┆ run_only │
    │ ---     ┆ ---       ┆ ---         ┆ ---        ┆ ---      │
    │ u32     ┆ u32       ┆ u32         ┆ u32        ┆ u32      │
    ╞═════════╪═══════════╪═════════════╪════════════╪══════════╡
    │ 4       ┆ 2         ┆ 1           ┆ 1          ┆ 1        │
    └─────────┴───────────┴─────────────┴────────────┴──────────┘
    """
    check_choice(missing or "skip", "missing", ("skip", "zero"))
    cols = columns or Columns()
    keys_by = normalise_by(by)
    conventions = _conventions(preset, depth, relevance_level, missing, None)
    per_q = _plan(frame.lazy(), cols, keys_by, conventions, []).per_query
    evaluated = _evaluated(conventions)
    judged = pl.col(_N_JUDGED) > 0
    counts = [
        pl.len().alias("queries"),
        evaluated.sum().alias("evaluated"),
        (evaluated & (pl.col(_N_RELEVANT) == 0)).sum().alias("no_relevant"),
        (judged & (pl.col(_N_RETRIEVED) == 0)).sum().alias("qrels_only"),
        (~judged).sum().alias("run_only"),
    ]
    if keys_by:
        out = per_q.group_by(keys_by).agg(counts).sort(keys_by)
    else:
        out = per_q.select(counts)
    return _finish(out, frame)
