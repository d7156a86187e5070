"""The plan: rank once, then every requested metric's per-query value from the prepared frame."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import polars as pl

from polars_rankmetrics._engine import intents, plan_checks
from polars_rankmetrics._engine.prepare import Prepared, fine_gains, prepare
from polars_rankmetrics._kernel import (
    NUM_LISTED,
    NUM_REL,
    NUM_RET,
    RANK,
    REL,
    VALUE,
    GainColumns,
    Rows,
    gain_columns,
    gain_key,
)
from polars_rankmetrics._registry import SPECS, parse
from polars_rankmetrics._schema import Columns, ResolvedSchema, frame_schema, resolve_schema
from polars_rankmetrics._spec import CatalogSpec, CountState, Metric, QuerySpec, RowInput, TableSpec
from polars_rankmetrics.conventions import Conventions, Gain
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidInputError,
    InvalidParameterError,
)
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.metrics import _ties

MetricLike = str | Metric
NamedMetrics = list[tuple[str, Metric]]  # (output column, metric)

DTYPES: dict[str, pl.DataType] = {"int": pl.Int64(), "float": pl.Float64(), "str": pl.String()}

N_JUDGED = "__prm_n_judged"
N_RETRIEVED = "__prm_n_retrieved"
N_RELEVANT = "__prm_n_relevant"
IN_TABLE = "__prm_in_table"  # a table metric's query is in its table (its null stays null)
WEIGHT = "__prm_weight_"  # + metric name: a query's weight under the "weighted" aggregate


def named_metrics(metrics: MetricLike | Sequence[MetricLike]) -> NamedMetrics:
    """The metrics asked for, each with its output column (the name as written)."""
    if isinstance(metrics, (str, Metric)):
        metrics = [metrics]
    if not isinstance(metrics, Sequence):
        raise InvalidInputError.from_type(
            "metrics", "a metric or a sequence of metrics, e.g. ['ndcg@10', 'map']", metrics
        )
    out: NamedMetrics = []
    for m in metrics:
        metric = parse(m)
        out.append((m if isinstance(m, str) else str(metric), metric))
    names = [name for name, _ in out]
    if not out:
        raise InvalidParameterError.out_of_domain(
            "metrics", "at least one metric, e.g. ['ndcg@10', 'map']", []
        )
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise InvalidParameterError.out_of_domain(
            "metrics", "unique names", f"{', '.join(map(repr, dupes))} more than once"
        )
    return out


def catalog_names(metrics: NamedMetrics) -> list[str]:
    """The output columns of the catalog-scope metrics among `metrics`."""
    return [name for name, m in metrics if isinstance(m.spec, CatalogSpec)]


@dataclass(frozen=True)
class Plan:
    """The prepared frame and what the requested metrics compute from it."""

    keys: tuple[str, ...]
    per_query: pl.LazyFrame  # one row per (by..., query): population counts, query-scope metrics
    catalog: list[tuple[str, pl.LazyFrame]]  # catalog-scope metrics: (name, frame of by..., name)
    lists: pl.LazyFrame | None = None  # the rows catalog metrics read (None without them): catalog_value
    judged: bool = True  # the frame has a relevance column (else only judgment-free metrics were asked)


def _gain_columns(
    metrics: NamedMetrics, conventions: Conventions, schema: ResolvedSchema
) -> tuple[dict[str, tuple[Gain, GainColumns]], dict[str, GainColumns]]:
    """One gain column (and ideal order, and scale where gains can be tiny) per distinct gain convention."""
    gains: dict[str, tuple[Gain, GainColumns]] = {}
    columns_of: dict[str, GainColumns] = {}
    for name, metric in metrics:
        spec: Gain = metric.gain() or conventions.gain
        key = gain_key(spec)
        if metric.spec.graded and key not in gains:
            fine = schema.has_relevance and fine_gains(spec, schema.relevance_dtype)
            gains[key] = (spec, gain_columns(len(gains), fine=fine))
        columns_of[name] = gains[key][1] if metric.spec.graded else gain_columns(-1)
    return gains, columns_of


def check_ties(metrics: NamedMetrics, conventions: Conventions) -> None:
    """Raise unless every metric defines the conventions' tie policy (``"text"``: all of them)."""
    policy = conventions.ties
    if policy == "text":
        return
    if conventions.depth is not None and conventions.judged_only:
        # trec_eval cuts the full list at the depth before -J drops unjudged items: which judged
        # items survive depends on where the tied unjudged ones fall. No closed form averages
        # that, and no one grade order extremises it (an unjudged item pushing a judged one out
        # of the depth raises precision but can lower nDCG when non-relevant grades gain).
        raise InvalidParameterError.out_of_domain("ties", "'text' with both depth and judged_only", policy)
    for name, metric in metrics:
        refused = _ties.refusal(metric, conventions, SPECS)
        if refused is not None:
            raise InvalidParameterError.tie_policy(name, policy, *refused)


def _view(
    gain: GainColumns, keys: tuple[str, ...], conventions: Conventions, terms: dict[str, pl.Expr]
) -> Rows:
    """The prepared frame's view for a metric of gain columns `gain`."""
    return Rows.prepared(gain, keys, conventions.iprec_rule, conventions.ap_denominator, terms, conventions)


def check_refusals(metrics: NamedMetrics, conventions: Conventions) -> None:
    """Raise for a metric whose family refuses the conventions (a gain it has no place for)."""
    for name, metric in metrics:
        why = metric.spec.refuse(metric, conventions) if metric.spec.refuse is not None else None
        if why:
            raise InvalidParameterError.refused(f"metric {name!r}", why)


def _value(spec: QuerySpec, conventions: Conventions) -> Callable[[Metric, Rows], pl.Expr]:
    """A family's per-query value under the tie policy: its expected value under ``"average"``."""
    average = spec.ties.average
    if conventions.ties == "average" and callable(average):  # check_ties let the family through
        return average
    return spec.value  # "average" of an order-free family: its own value


def _unordered_up_to(queries: NamedMetrics, catalogs: NamedMetrics, conventions: Conventions) -> int | None:
    """The list length up to which no row needs its position (None: every list is ordered).

    Catalog metrics read positions only as "within the top k": a list no longer than the
    smallest cutoff (any list, when none has one) has every retrieved row within each
    (1M lists of 10 at k=10: the catalog evaluation 1.6 -> 0.65 s). A query-scope metric
    or a tie policy reads the positions themselves, as does a catalog metric that needs "rank".
    """
    if queries or not catalogs or conventions.ties != "text":
        return None
    if any("rank" in m.needs for _, m in catalogs):
        return None
    cutoffs = [m.k for _, m in catalogs if m.k is not None]
    return min(cutoffs) if cutoffs else 2**32 - 1


def build(  # noqa: PLR0913  (the request's parts)
    lf: pl.LazyFrame,
    columns: Columns,
    by: tuple[str, ...],
    conventions: Conventions,
    metrics: NamedMetrics,
    *,
    check: bool = False,
    diagnose: bool = False,
    item_digits: int | None = None,
) -> Plan:
    """Rank once, then build every metric's computation over the one prepared frame.

    With `check`, the plan also checks the data (:mod:`_engine.plan_checks`) and fails at
    collect() on the first query that breaks the frame contract. With `diagnose`,
    the per-query frame also says whether each query retrieved a judged item and whether
    it has a partial row (:data:`plan_checks.DIAGNOSTICS`), which the degenerate-result warnings
    read. `item_digits`
    bounds the decimal digits of every integer item, when the caller has the frame in memory
    (``_engine.item_digits``): the ranking's packed key may then fit where the dtype's widest would not.

    The stages: the schema and the shared view of the prepared columns; the rows each family
    reads (`keep`) and the per-row columns it adds; the one ranking (:func:`prepare`); the query
    plan (one aggregation per query, and the table metrics joined to it); the catalog plan.
    """
    check_ties(metrics, conventions)
    check_refusals(metrics, conventions)
    wants_intents = any("intents" in m.spec.needs for _, m in metrics)
    lf = intents.by_item(  # one row per item
        lf, columns, by, conventions.relevance_level, lists=wants_intents, check=check
    )
    queries = [(n, m) for n, m in metrics if not isinstance(m.spec, CatalogSpec)]
    catalogs = [(n, m) for n, m in metrics if isinstance(m.spec, CatalogSpec)]
    lf, carried = with_inputs(lf, queries, columns)
    judged = _judged(metrics, columns, frame_schema(lf).names())
    schema = resolve_schema(frame_schema(lf), columns, by, need_relevance=judged, item_digits=item_digits)
    _refuse_key_names(metrics, (*by, columns.query))
    needs = set().union(*(m.needs for _, m in metrics)) | ({"item"} if catalogs else set())
    gains, columns_of = _gain_columns(metrics, conventions, schema)
    keys = (*schema.by, columns.query)
    # Every metric reads the prepared frame through the same view: the columns prepare adds.
    terms: dict[str, pl.Expr] = {}  # the per-row terms the metrics share (Rows.term), each once
    view = {name: _view(columns_of[name], keys, conventions, terms) for name, _ in metrics}
    rows, whole = _row_columns(metrics, view)
    names = frame_schema(lf)

    def flags(keys: tuple[str, ...], graded: pl.Expr) -> list[pl.Expr]:
        return plan_checks.window_columns(schema, names, keys, graded, check=check, diagnose=diagnose)

    unordered = _unordered_up_to(queries, catalogs, conventions)
    keep = _kept_rows(metrics, view)
    prepared = prepare(lf, schema, conventions, needs, flags, gains, rows, keep, whole, unordered, carried)
    if catalogs or any(isinstance(m.spec, TableSpec) for _, m in queries):
        # The per-query stage and catalog or table metrics all read the prepared frame: compute
        # it once (10M rows, four catalog metrics: 51 -> 34 CPU-s in memory, 31 -> 19 streaming;
        # 1M rows, G + ndcg_rel + Rndcg: 0.46 -> 0.23 s).
        prepared = Prepared(frame=prepared.frame.cache(), keys=prepared.keys)
    # Built before the frame they read: building them registers their shared per-row terms.
    tables = _tables(queries, columns_of, prepared)
    values = _query_values(queries, view, conventions)
    rows_read = _with_terms(prepared.frame, terms)
    per_query = rows_read.group_by(prepared.keys).agg(
        plan_checks.judged().alias(N_JUDGED),
        pl.col(NUM_LISTED if conventions.judged_only else NUM_RET).first().alias(N_RETRIEVED),
        pl.col(NUM_REL).first().alias(N_RELEVANT),
        *values,
        *([plan_checks.message(schema, names, prepared.keys)] if check else []),
        *(plan_checks.diagnostics() if diagnose and schema.has_relevance else []),
    )
    if check:
        per_query = plan_checks.guard(per_query, N_JUDGED, N_RETRIEVED)
    per_query = _join_tables(per_query, tables, prepared.keys)
    lists = _lists(prepared.frame, catalogs) if catalogs else None
    if lists is not None and check and not queries:  # nothing else would run the checks
        lists = plan_checks.checked_lists(lists, schema, names, prepared.keys)
    catalog = (
        [] if lists is None else [(n, catalog_value(n, m, lists, by, columns.query)) for n, m in catalogs]
    )
    judged = schema.has_relevance
    return Plan(keys=prepared.keys, per_query=per_query, catalog=catalog, lists=lists, judged=judged)


def _join_tables(
    per_query: pl.LazyFrame, tables: list[tuple[str, pl.LazyFrame]], keys: tuple[str, ...]
) -> pl.LazyFrame:
    """Join each table metric's per-query values onto the per-query frame.

    Tables cover the queries with an ideal list; every other query scores 0. A null in the
    table stays: that query has no value (intersection with nothing within k).
    """
    for name, table in tables:
        covered = table.with_columns(pl.lit(value=True).alias(IN_TABLE))
        per_query = per_query.join(covered, on=list(keys), how="left")
        filled = pl.when(pl.col(IN_TABLE).is_null()).then(0.0).otherwise(pl.col(name))
        per_query = per_query.with_columns(filled.alias(name)).drop(IN_TABLE)
    return per_query


def row_inputs(metrics: NamedMetrics) -> list[RowInput]:
    """The per-row inputs the query-scope and table families among `metrics` read, each once (by column)."""
    found: dict[str, RowInput] = {}
    for _, m in metrics:
        if isinstance(m.spec, (QuerySpec, TableSpec)) and m.spec.inputs is not None:
            for row_input in m.spec.inputs(m):
                found.setdefault(row_input.name, row_input)
    return list(found.values())


def input_columns(metrics: NamedMetrics) -> list[str]:
    """The columns of the evaluation frame the families' per-row inputs read (``weights="w"``)."""
    return [r.column for r in row_inputs(metrics) if r.column is not None]


def with_inputs(lf: pl.LazyFrame, metrics: NamedMetrics, columns: Columns) -> tuple[pl.LazyFrame, list[str]]:
    """`lf` with every per-row input of `metrics` (joined or copied) and its messages; the columns to carry.

    Each input's column, and beside it its :attr:`RowInput.bad` messages naming the row.
    """
    carried: list[str] = []
    for row_input in row_inputs(metrics):
        if row_input.join is not None:
            lf = row_input.join(lf, columns.query, columns.item)
        else:
            assert row_input.column is not None
            present = frame_schema(lf).names()
            if row_input.column not in present:
                role = row_input.where.strip("`")
                raise ColumnNotFoundError.from_missing_and_available(row_input.column, role, present)
            dtype = frame_schema(lf)[row_input.column]
            if not (dtype.is_numeric() or dtype == pl.Null):
                role = row_input.where.strip("`")
                raise ColumnTypeError.from_dtype(row_input.column, role, "numeric", dtype)
            lf = lf.with_columns(pl.col(row_input.column).alias(row_input.name))
        value = pl.col(row_input.name)
        at = pl.format(
            "item '{}' of query '{}'", *(pl.col(c).cast(pl.String) for c in (columns.item, columns.query))
        )
        lf = lf.with_columns(_errors.row_input(row_input, value, at).alias(row_input.bad))
        carried += [row_input.name, row_input.bad]
    return lf, carried


def _judged(metrics: NamedMetrics, columns: Columns, present: list[str]) -> bool:
    """Whether the frame must have a relevance column: a metric reads the judgments (or none is asked).

    A catalog metric that reads grades (serendipity) is refused without it: it would read 0.
    """
    for _, m in metrics:
        spec = m.spec
        if isinstance(spec, CatalogSpec) and spec.grades is not None and columns.relevance not in present:
            raise ColumnNotFoundError.read_by(columns.relevance, "relevance", str(m), spec.grades, present)
    catalog = [m.spec for _, m in metrics if isinstance(m.spec, CatalogSpec)]
    query = [m.spec for _, m in metrics if not isinstance(m.spec, CatalogSpec)]
    return any(s.judgments for s in query) or not metrics or any(s.unretrieved for s in catalog)


def _with_terms(frame: pl.LazyFrame, terms: dict[str, pl.Expr]) -> pl.LazyFrame:
    """`frame` with the shared per-row terms (Rows.term), in stages: a term after the terms it reads."""
    left = dict(terms)
    while left:
        ready = {n: e for n, e in left.items() if not set(e.meta.root_names()) & left.keys()}
        assert ready, "the shared terms read each other in a cycle"
        frame = frame.with_columns(ready.values())
        left = {n: e for n, e in left.items() if n not in ready}
    return frame


def _refuse_key_names(metrics: NamedMetrics, keys: tuple[str, ...]) -> None:
    """A metric may not be named like a key column: the output would hold the name twice."""
    reserved = {name for name, _ in metrics} & set(keys)
    if reserved:
        raise InvalidParameterError.out_of_domain(
            "metrics", f"names other than the key columns ({min(reserved)!r} is one)", min(reserved)
        )


def _row_columns(metrics: NamedMetrics, view: Mapping[str, Rows]) -> tuple[list[pl.Expr], list[pl.Expr]]:
    """The per-row columns families add, and the per-query windows over every row: each once.

    Rows: after the ranking (ERR's survival product); wholes: over every row before rows are
    dropped (rbp_resid's unjudged ranks).
    """
    added = [
        e
        for n, m in metrics
        if isinstance(m.spec, QuerySpec) and m.spec.rows
        for e in m.spec.rows(m, view[n])
    ]
    wholes = [
        e
        for n, m in metrics
        if isinstance(m.spec, QuerySpec) and m.spec.whole
        for e in m.spec.whole(m, view[n])
    ]
    return list({e.meta.output_name(): e for e in added}.values()), list(
        {e.meta.output_name(): e for e in wholes}.values()
    )


def _kept_rows(metrics: NamedMetrics, view: Mapping[str, Rows]) -> pl.Expr | None:
    """The rows some metric reads (None: every row; no metric: one row per query is enough)."""
    if not metrics:
        return pl.lit(value=False)  # population counts only
    if all(m.spec.keep is not None for _, m in metrics):
        return pl.any_horizontal([m.spec.keep(m, view[n]) for n, m in metrics if m.spec.keep is not None])
    return None


def _query_values(queries: NamedMetrics, view: Mapping[str, Rows], conventions: Conventions) -> list[pl.Expr]:
    """Each query-scope metric's aggregation over a query's rows (and its weight, when it has one)."""
    values: list[pl.Expr] = []
    for name, metric in queries:
        if isinstance(metric.spec, QuerySpec):
            dtype = DTYPES[metric.spec.kind]
            values.append(_value(metric.spec, conventions)(metric, view[name]).cast(dtype).alias(name))
            if metric.spec.weight is not None:  # the "weighted" aggregate reads it
                values.append(metric.spec.weight(metric, view[name]).cast(pl.Float64).alias(WEIGHT + name))
    return values


def _tables(
    queries: NamedMetrics, columns_of: Mapping[str, GainColumns], prepared: Prepared
) -> list[tuple[str, pl.LazyFrame]]:
    """The table metrics' frames of (keys..., value) from the prepared frame."""
    out = []
    for name, metric in queries:
        if isinstance(metric.spec, TableSpec):
            table = metric.spec.table(metric, columns_of[name], prepared.frame, prepared.keys)
            value = pl.col(VALUE).cast(DTYPES[metric.spec.kind]).alias(name)
            out.append((name, table.select(*prepared.keys, value)))
    return out


def _lists(prepared: pl.LazyFrame, catalogs: NamedMetrics) -> pl.LazyFrame:
    """The catalog metrics' lists: the ranked rows, and maybe the relevant rows no list ranked.

    A family that reads the relevant items no list ranked (pop_reo) declares `unretrieved`: the
    lists then carry those rows too, with a null rank, and catalog_value gives them to it alone.
    """
    ranked = pl.col(RANK).is_not_null()
    wide = any(m.spec.unretrieved for _, m in catalogs)
    return prepared.filter(ranked | pl.col(REL) if wide else ranked)


def catalog_value(
    name: str, metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str
) -> pl.LazyFrame:
    """A catalog metric's frame of (by..., `name`) from the plan's lists (:attr:`Plan.lists`).

    The lists hold the ranked rows, and the relevant rows no list ranked (a null rank) when a
    requested family reads them (``unretrieved``): every other family gets the ranked rows only.
    """
    assert isinstance(metric.spec, CatalogSpec)
    frame = lists if metric.spec.unretrieved else lists.filter(pl.col(RANK).is_not_null())
    return metric.spec.catalog(metric, frame, by, query).select(*by, pl.col(VALUE).alias(name))


_LIST = "__prm_list"  # the query column's copy that makes each list a group of its own


def _per_list(metric: Metric) -> bool:
    """Whether `metric` is a mean over lists: its family's ``per_list``, unless it averages items."""
    assert isinstance(metric.spec, CatalogSpec)
    per = metric.side("per") if any(p.name == "per" for p in metric.spec.params) else "list"
    return metric.spec.per_list and per == "list"


def per_list_values(
    plan: Plan, catalogs: NamedMetrics, by: tuple[str, ...], query: str, rows: pl.LazyFrame | None
) -> pl.LazyFrame:
    """Catalog metrics beside per-query rows: each list's value, or the group's value on each of its lists.

    A family defined as a mean over lists (``per_list``: novelty, ARP...) runs with each list as its
    own group, so each list gets the value the family gives a set of that one list. A family of the
    whole set (coverage, Gini...) keeps one value per `by` group, joined onto every list of the group.
    `rows` holds the query-scope metrics' rows, whose lists are kept (a list they do not evaluate,
    with no judged item, has no row); None (none requested): a row for every list.
    """
    assert plan.lists is not None
    keys = [*by, query]
    lists = plan.lists.with_columns(pl.col(query).alias(_LIST))
    out = rows if rows is not None else plan.lists.select(keys).unique()
    for name, metric in catalogs:
        assert isinstance(metric.spec, CatalogSpec)
        if _per_list(metric):
            value = catalog_value(name, metric, lists, (*by, _LIST), query).rename({_LIST: query})
            out = out.join(value, on=keys, how="left", nulls_equal=True)
        else:
            value = catalog_value(name, metric, plan.lists, by, query)
            out = (
                out.join(value, on=list(by), how="left", nulls_equal=True)
                if by
                else out.join(value, how="cross")
            )
    return out


def counted(metric: Metric) -> CountState | None:
    """The mergeable state of a catalog metric's family (:class:`CountState`), or None."""
    return metric.spec.counts if isinstance(metric.spec, CatalogSpec) else None


def catalog_counts(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """A catalog metric's table of sums from the plan's lists (the rows :func:`catalog_value` reads)."""
    state = counted(metric)
    assert state is not None
    frame = lists if metric.spec.unretrieved else lists.filter(pl.col(RANK).is_not_null())
    return state.table(metric, frame, by, query)


def counted_value(name: str, metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    """A counted catalog metric's frame of (by..., `name`) from its summed count tables."""
    state = counted(metric)
    assert state is not None
    return state.value(metric, table, by).select(*by, pl.col(VALUE).alias(name))


def evaluated(conventions: Conventions, *, judged_frame: bool = True) -> pl.Expr:
    """Whether a per-query row counts: judged, retrieved something, holding a relevant item.

    A query that retrieved nothing counts under ``missing="zero"``; one without a relevant item
    counts unless ``no_relevant="skip"``. A frame without judgments (`judged_frame` False: only
    metrics that read none, such as rbo) counts every query that retrieved something.
    """
    if not judged_frame:
        return pl.col(N_RETRIEVED) > 0
    judged = pl.col(N_JUDGED) > 0
    if conventions.no_relevant == "skip":
        judged = judged & (pl.col(N_RELEVANT) > 0)
    if conventions.missing == "zero":
        return judged
    return judged & (pl.col(N_RETRIEVED) > 0)


def refuse_catalog(metrics: NamedMetrics, why: str) -> None:
    """Raise if `metrics` holds a catalog-scope metric, saying `why` it cannot be computed here."""
    names = catalog_names(metrics)
    if names:
        raise InvalidParameterError.refused(", ".join(map(repr, names)), why)
