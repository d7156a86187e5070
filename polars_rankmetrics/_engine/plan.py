"""The plan: rank once, then every requested metric's per-query value from the prepared frame."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl

from polars_rankmetrics._engine import checks, intents
from polars_rankmetrics._engine.prepare import Prepared, prepare
from polars_rankmetrics._errors import argument_type, parameter, tie_policy
from polars_rankmetrics._kernel import (
    NUM_JUDGED,
    NUM_LISTED,
    NUM_REL,
    NUM_RET,
    RANK,
    VALUE,
    GainColumns,
    Rows,
    gain_columns,
    gain_key,
)
from polars_rankmetrics._registry import parse
from polars_rankmetrics._schema import Columns, frame_schema, resolve_schema
from polars_rankmetrics._spec import CatalogSpec, Metric, QuerySpec, TableSpec
from polars_rankmetrics.conventions import Conventions, Gain
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.metrics import _ties

MetricLike = str | Metric
Requested = list[tuple[str, Metric]]  # (output column, metric)

DTYPES: dict[str, pl.DataType] = {"int": pl.Int64(), "float": pl.Float64(), "str": pl.String()}

N_JUDGED = "__prm_n_judged"
N_RETRIEVED = "__prm_n_retrieved"
N_RELEVANT = "__prm_n_relevant"
WEIGHT = "__prm_weight_"  # + metric name: a query's weight under the "weighted" aggregate


def requested(metrics: MetricLike | Sequence[MetricLike]) -> Requested:
    """The metrics asked for, each with its output column (the name as written)."""
    if isinstance(metrics, (str, Metric)):
        metrics = [metrics]
    if not isinstance(metrics, Sequence):
        raise argument_type("metrics", "a metric or a sequence of metrics, e.g. ['ndcg@10', 'map']", metrics)
    out: Requested = []
    for m in metrics:
        metric = parse(m)
        out.append((m if isinstance(m, str) else str(metric), metric))
    names = [name for name, _ in out]
    if not out:
        raise parameter("metrics", "at least one metric, e.g. ['ndcg@10', 'map']", [])
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise parameter("metrics", "unique names", f"{', '.join(map(repr, dupes))} more than once")
    return out


def catalog_names(metrics: Requested) -> list[str]:
    """The output columns of the catalog-scope metrics among `metrics`."""
    return [name for name, m in metrics if isinstance(m.spec, CatalogSpec)]


@dataclass(frozen=True)
class Plan:
    """The prepared frame and what the requested metrics compute from it."""

    keys: tuple[str, ...]
    per_query: pl.LazyFrame  # one row per (by..., query): population counts, query-scope metrics
    catalog: list[tuple[str, pl.LazyFrame]]  # catalog-scope metrics: (name, frame of by..., name)
    lists: pl.LazyFrame | None = None  # the ranked rows catalog metrics read (None without them)


def _gain_columns(
    metrics: Requested, conventions: Conventions
) -> tuple[dict[str, tuple[Gain, GainColumns]], dict[str, GainColumns]]:
    """One gain column (and ideal order) per distinct gain convention among the metrics."""
    gains: dict[str, tuple[Gain, GainColumns]] = {}
    columns_of: dict[str, GainColumns] = {}
    for name, metric in metrics:
        spec: Gain = metric.gain() or conventions.gain
        key = gain_key(spec)
        if metric.spec.graded and key not in gains:
            gains[key] = (spec, gain_columns(spec, len(gains)))
        columns_of[name] = gains[key][1] if metric.spec.graded else gain_columns(spec, -1)
    return gains, columns_of


def check_ties(metrics: Requested, conventions: Conventions) -> None:
    """Raise unless every metric defines the conventions' tie policy (``"text"``: all of them)."""
    policy = conventions.ties
    if policy == "text":
        return
    defined = _ties.DEFINED[policy]
    if conventions.depth is not None and conventions.judged_only:
        # trec_eval cuts the full list at the depth before -J drops unjudged items: which judged
        # items survive depends on where the tied unjudged ones fall. No closed form averages
        # that, and no one grade order extremises it (an unjudged item pushing a judged one out
        # of the depth raises precision but can lower nDCG when non-relevant grades gain).
        raise parameter("ties", "'text' with both depth and judged_only", policy)
    for name, metric in metrics:
        family = metric.spec.name
        if family not in defined:
            raise tie_policy(name, policy, defined, _ties.UNDEFINED_WHY.get(family, ""))
        if family == "map" and metric.k is not None and conventions.ap_denominator == "found":
            # The relevant items found in the top k vary with the order of a tie across the cutoff:
            # the expectation of the ratio has no closed form, and pushing a relevant item past the
            # cutoff can raise the ratio, so the grade order is no extreme either.
            why = (
                "with ap_denominator='found' the relevant items found at the cutoff depend on the order "
                "of the ties; average precision without a cutoff takes it"
            )
            raise tie_policy(name, policy, defined - {"map"}, why)
        gain = metric.gain() or conventions.gain
        if policy != "average" and metric.spec.graded and not _ties.increasing(gain):
            why = "its gains do not increase with the grade, so the grade order is not the best or worst"
            raise tie_policy(name, policy, defined, why)
        if policy != "average" and conventions.depth is not None and family in _ties.EXTREMAL_WITHOUT_DEPTH:
            why = f"with depth={conventions.depth} the grade order is not its best or worst order"
            raise tie_policy(name, policy, defined - _ties.EXTREMAL_WITHOUT_DEPTH, why)
        if policy == "average" and conventions.depth is not None and family in _ties.ORDER_FREE_WITHOUT_DEPTH:
            why = f"with depth={conventions.depth} its value depends on which tied items the depth cuts"
            raise tie_policy(name, policy, defined - _ties.ORDER_FREE_WITHOUT_DEPTH, why)


def _value(spec: QuerySpec, conventions: Conventions) -> Callable[[Metric, Rows], pl.Expr]:
    """A family's per-query value under the tie policy: its expected value under ``"average"``."""
    if conventions.ties == "average":  # check_ties found the family in the table
        return _ties.AVERAGE[spec.name] or spec.value
    return spec.value


def _unordered_up_to(queries: Requested, catalogs: Requested, conventions: Conventions) -> int | None:
    """The list length up to which no row needs its position (None: every list is ordered).

    Catalog metrics read positions only as "within the top k": a list no longer than the
    smallest cutoff (any list, when none has one) has every retrieved row within each
    (1M lists of 10 at k=10: the catalog evaluation 1.6 -> 0.65 s). A query-scope metric
    or a tie policy reads the positions themselves, as does a catalog metric that needs "rank".
    """
    if queries or not catalogs or conventions.ties != "text":
        return None
    if any("rank" in m.spec.needs for _, m in catalogs):
        return None
    cutoffs = [m.k for _, m in catalogs if m.k is not None]
    return min(cutoffs) if cutoffs else 2**32 - 1


def build(  # noqa: C901, PLR0913, PLR0915  (one loop per kind of metric)
    lf: pl.LazyFrame,
    columns: Columns,
    by: tuple[str, ...],
    conventions: Conventions,
    metrics: Requested,
    *,
    check: bool = False,
    diagnose: bool = False,
) -> Plan:
    """Rank once, then build every metric's computation over the one prepared frame.

    With `check`, the plan also checks the data (:mod:`_engine.checks`) and fails at
    collect() on the first query that breaks the frame contract. With `diagnose`,
    the per-query frame also counts each query's judged retrieved items
    (:data:`checks.JUDGED_RETRIEVED`), which the degenerate-result warnings read.
    """
    check_ties(metrics, conventions)
    wants_intents = any("intents" in m.spec.needs for _, m in metrics)
    lf = intents.by_item(  # one row per item
        lf, columns, by, conventions.relevance_level, lists=wants_intents, check=check
    )
    queries = [(n, m) for n, m in metrics if not isinstance(m.spec, CatalogSpec)]
    catalogs = [(n, m) for n, m in metrics if isinstance(m.spec, CatalogSpec)]
    schema = resolve_schema(frame_schema(lf), columns, by, need_relevance=bool(queries) or not catalogs)
    reserved = {name for name, _ in metrics} & {*by, columns.query}
    if reserved:
        raise parameter(
            "metrics", f"names other than the key columns ({min(reserved)!r} is one)", min(reserved)
        )
    needs = set().union(*(m.spec.needs for _, m in metrics)) | ({"item"} if catalogs else set())
    gains, columns_of = _gain_columns(metrics, conventions)

    keys = (*schema.by, columns.query)
    # Every metric reads the prepared frame through the same view: the columns prepare adds.
    terms: dict[str, pl.Expr] = {}  # the per-row terms the metrics share (Rows.term), each once
    view = {
        name: Rows.prepared(columns_of[name], keys, conventions.iprec_rule, conventions.ap_denominator, terms)
        for name, _ in metrics
    }

    # Per-row columns some families add after the ranking (ERR's survival product), each once.
    extra = [
        e
        for n, m in metrics
        if isinstance(m.spec, QuerySpec) and m.spec.rows
        for e in m.spec.rows(m, view[n])
    ]
    rows = list({e.meta.output_name(): e for e in extra}.values())
    # Per-query windows over every row, before rows are dropped (rbp_resid's unjudged ranks), each once.
    wholes = [
        e
        for n, m in metrics
        if isinstance(m.spec, QuerySpec) and m.spec.whole
        for e in m.spec.whole(m, view[n])
    ]
    whole = list({e.meta.output_name(): e for e in wholes}.values())

    keep: pl.Expr | None = None
    if not metrics:
        keep = pl.lit(value=False)  # population counts only: one row per query is enough
    elif all(m.spec.keep is not None for _, m in metrics):
        keep = pl.any_horizontal([m.spec.keep(m, view[n]) for n, m in metrics if m.spec.keep is not None])
    names = frame_schema(lf)

    def row_checks(keys: tuple[str, ...]) -> list[pl.Expr]:
        found = checks.window_columns(schema, names, keys) if check else []
        return found + (checks.diagnostic_columns(schema, keys) if diagnose else [])

    unordered = _unordered_up_to(queries, catalogs, conventions)
    prepared = prepare(lf, schema, conventions, needs, gains, rows, keep, row_checks, whole, unordered)
    if catalogs or any(isinstance(m.spec, TableSpec) for _, m in queries):
        # The per-query stage and catalog or table metrics all read the prepared frame: compute
        # it once (10M rows, four catalog metrics: 51 -> 34 CPU-s in memory, 31 -> 19 streaming;
        # 1M rows, G + ndcg_rel + Rndcg: 0.46 -> 0.23 s).
        prepared = Prepared(frame=prepared.frame.cache(), keys=prepared.keys)
    values: list[pl.Expr] = []
    tables: list[tuple[str, pl.LazyFrame]] = []
    for name, metric in queries:
        dtype = DTYPES[metric.spec.kind]
        if isinstance(metric.spec, TableSpec):
            table = metric.spec.table(metric, columns_of[name], prepared.frame, prepared.keys)
            tables.append((name, table.select(*prepared.keys, pl.col(VALUE).cast(dtype).alias(name))))
        elif isinstance(metric.spec, QuerySpec):
            values.append(_value(metric.spec, conventions)(metric, view[name]).cast(dtype).alias(name))
            if metric.spec.weight is not None:  # the "weighted" aggregate reads it
                values.append(metric.spec.weight(metric, view[name]).cast(pl.Float64).alias(WEIGHT + name))
    rows_read = prepared.frame.with_columns(list(terms.values())) if terms else prepared.frame
    per_query = rows_read.group_by(prepared.keys).agg(
        pl.col(NUM_JUDGED).first().alias(N_JUDGED),
        pl.col(NUM_LISTED if conventions.judged_only else NUM_RET).first().alias(N_RETRIEVED),
        pl.col(NUM_REL).first().alias(N_RELEVANT),
        *values,
        *([checks.message(schema, names, prepared.keys)] if check else []),
        *([pl.col(c).first() for c in checks.DIAGNOSTICS] if diagnose and schema.has_relevance else []),
    )
    if check:
        per_query = checks.guard(per_query, N_JUDGED, N_RETRIEVED)
    for name, table in tables:
        # Tables cover the queries with an ideal list; every other query scores 0.
        per_query = per_query.join(table, on=list(prepared.keys), how="left")
        per_query = per_query.with_columns(pl.col(name).fill_null(0.0))
    catalog = []
    lists = None
    if catalogs:
        lists = prepared.frame.filter(pl.col(RANK).is_not_null())
        for name, metric in catalogs:
            assert isinstance(metric.spec, CatalogSpec)
            value = metric.spec.catalog(metric, lists, by, columns.query).select(
                *by, pl.col(VALUE).alias(name)
            )
            catalog.append((name, value))
    return Plan(keys=prepared.keys, per_query=per_query, catalog=catalog, lists=lists)


def evaluated(conventions: Conventions) -> pl.Expr:
    """Whether a per-query row counts: judged, retrieved something, holding a relevant item.

    A query that retrieved nothing counts under ``missing="zero"``; one without a relevant item
    counts unless ``no_relevant="skip"``.
    """
    judged = pl.col(N_JUDGED) > 0
    if conventions.no_relevant == "skip":
        judged = judged & (pl.col(N_RELEVANT) > 0)
    if conventions.missing == "zero":
        return judged
    return judged & (pl.col(N_RETRIEVED) > 0)


def refuse_catalog(metrics: Requested, why: str) -> None:
    """Raise if `metrics` holds a catalog-scope metric, saying `why` it cannot be computed here."""
    names = catalog_names(metrics)
    if names:
        msg = f"{', '.join(map(repr, names))} {why}"
        raise InvalidParameterError(msg)
