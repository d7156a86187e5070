"""evaluate() and population(): the public entry points over the engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar, cast

import polars as pl

from polars_rankmetrics import _engine
from polars_rankmetrics._engine import Aggregation, MetricLike, diagnose
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._join import join_frames
from polars_rankmetrics._plans import as_plan
from polars_rankmetrics._request import Request, request
from polars_rankmetrics._schema import Columns, ColumnsLike, normalise_by, remember
from polars_rankmetrics.checks import validate
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.exceptions import InvalidDataError, InvalidInputError

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from polars_rankmetrics.conventions import ConventionOptions

__all__ = ["MetricLike", "collect", "evaluate", "population"]

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)


def evaluate(  # noqa: PLR0913
    frame: FrameT,
    metrics: MetricLike | Sequence[MetricLike],
    *,
    by: str | Sequence[str] | None = None,
    per_query: bool = False,
    columns: ColumnsLike = None,
    conventions: Conventions | str | None = None,
    check: bool = True,
    aggregate: Aggregation = "mean",
    qrels: object | None = None,
    **overrides: Unpack[ConventionOptions],
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
        :func:`join_run_qrels`, or pass the run here and the judgments as
        `qrels`. A pandas DataFrame, pyarrow Table or any Arrow-stream
        object (``__arrow_c_stream__``) is converted once and evaluated as
        a Polars DataFrame.
    metrics
        Names (``"ndcg@10"``, trec_eval's ``"P_10"``) or :class:`Metric`
        objects. Output columns are named as written. Every accepted name:
        :func:`valid_names`, and the site's metric pages.
    by
        Grouping keys (run, model, segment): every metric is computed per
        group and per query inside it.
    per_query
        Return one row per (by..., query) instead of one per `by` group.
        A catalog metric that is a mean over lists (novelty, ARP,
        intra-list similarity...) gives each list's value; one of the whole
        set (coverage, Gini...) its group's value on every list: see
        [per-list values][per-list-values] in the Beyond accuracy guide.
    columns
        Column names of the frame; defaults to ``Columns()``.
    conventions
        The base conventions: None (trec_eval 10.0's), a preset name
        (``"trec_eval"``) or a :class:`Conventions`.
    check
        Check the data inside the plan (null ids, NaN or infinite scores,
        ranks below 1, NaN grades, duplicate rows): a DataFrame raises
        :class:`InvalidDataError` naming the column, value and query; a
        LazyFrame fails when collected (:func:`collect` raises the same
        error typed). A few percent of the time.
    aggregate
        How the per-query values of each `by` group combine: ``"mean"``
        (each metric's own rule: the mean; a sum for counts, the geometric
        mean for ``gm_*``), or a statistic of the per-query values that
        ``per_query=True`` returns: ``"median"``, ``"min"``, ``"max"``,
        ``"std"`` (the sample standard deviation, ddof=1 as Polars' and
        ranx's; null for one query). Each gives the same bits on every
        engine. Not for catalog metrics, which have no per-query values.
    qrels
        The judgments (query, item, relevance), when `frame` is the run
        alone: joined as :func:`join_run_qrels` does, the same result bit
        for bit (a node of the plan for a LazyFrame; for DataFrames a key
        lookup in memory first). A join by hand would lose the judged items
        never retrieved, which recall, AP and IDCG need.
    **overrides
        Convention fields that override the base (``depth``,
        ``relevance_level``, ``missing``, ``gain``, ``ties``...: see
        :class:`Conventions`); ``preset`` names the base like `conventions`.

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

    Notes
    -----
    Sums of float terms are added as integers (Int128), so the same rows give
    the same bits on every engine, chunked and on Spark. Where that exactness
    stops (terms below 2**-64 or of 2**63 and more, RBP's and ERR's scaled
    terms, means over queries): [Where exactness stops][where-exactness-stops]
    in the Conventions guide.

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

    Tied scores: trec_eval's text order, or the expected value over every order.

    >>> tied = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [0.5, 0.5, 0.1], "relevance": [1, 0, 0]})
    >>> pl.concat([prm.evaluate(tied, ["P_1", "mrr"], ties=t) for t in ("text", "average", "optimistic")])
    shape: (3, 2)
    ┌─────┬──────┐
    │ P_1 ┆ mrr  │
    │ --- ┆ ---  │
    │ f64 ┆ f64  │
    ╞═════╪══════╡
    │ 0.0 ┆ 0.5  │
    │ 0.5 ┆ 0.75 │
    │ 1.0 ┆ 1.0  │
    └─────┴──────┘
    """
    req = request(
        metrics, frame, by=by, per_query=per_query, columns=columns, conventions=conventions, check=check,
        aggregate=aggregate, qrels=qrels, **overrides,
    )  # fmt: skip
    converted = cast("FrameT", req.frame)  # the request converts the frame (and the qrels) once
    if isinstance(req.qrels, (pl.DataFrame, pl.LazyFrame)):
        # A LazyFrame run: the join is a node of the plan. A DataFrame run: the join runs first, in
        # memory (a packed key lookup, faster than the lazy full join), and the plan reads its result.
        joined = join_frames(converted, req.qrels, req.columns, req.by)
        if isinstance(converted, pl.DataFrame) and isinstance(joined, pl.LazyFrame):
            joined = _engine.collect(joined)  # a LazyFrame of qrels beside a DataFrame run
        converted = joined  # type: ignore[assignment]  # the same frame type as the run's
    return _evaluated(converted, req)


def _evaluated(frame: FrameT, req: Request) -> FrameT:
    """The plan of `req` over `frame` (joined already): a LazyFrame's plan, or a DataFrame's result."""
    cols, keys_by, resolved, requested = req.columns, req.by, req.conventions, req.metrics
    check, per_query, aggregate = req.check, req.per_query, req.aggregate
    eager = isinstance(frame, pl.DataFrame)  # only an eager evaluation can warn (diagnose.py)
    digits = _engine.item_digits(frame, cols)
    plan = _engine.build(
        frame.lazy(), cols, keys_by, resolved, requested, check=check, diagnose=eager, item_digits=digits
    )
    per_q = plan.per_query.filter(_engine.evaluated(resolved, judged_frame=plan.judged))
    carried = eager and diagnose.JUDGED_RETRIEVED in per_q.collect_schema()
    scoped = req.scoped
    if per_query:
        out = _per_query(plan, per_q, req, carried=carried)
    else:
        extra = diagnose.hidden(has_relevance=carried) if eager and scoped else []
        out = _engine.aggregated(
            per_q, requested, keys_by, [part for _, part in plan.catalog], extra, how=aggregate
        )
    if isinstance(frame, pl.LazyFrame):
        returned = as_plan(out)
        remember(returned, keys_by, cols.query)  # compare, summarize and the plots find the columns
        return returned
    try:
        result = _engine.collect(out)
    except InvalidDataError as found:
        # The plan's check names the query; for a DataFrame, one explicit check pass names the rows
        # (validate). The evaluation is never run again: an error validate does not see (a side
        # input's) is raised as the plan found it.
        named = _named(frame, cols, keys_by) if check else None
        raise (named or found) from None
    if result.is_empty() and not frame.is_empty() and scoped:
        diagnose.warn_empty(population(frame, by=keys_by, columns=cols, conventions=resolved))
    result = diagnose.warn(
        result, requested, keys_by, per_query=per_query, longest_list=_longest(frame, cols, keys_by)
    )
    remember(result, keys_by, cols.query)
    return result


def _per_query(plan: _engine.Plan, per_q: pl.LazyFrame, req: Request, *, carried: bool) -> pl.LazyFrame:
    """One row per (by..., query): the query-scope values, and each catalog metric's per list or per group."""
    catalog = set(_engine.catalog_names(req.metrics))
    names = [name for name, _ in req.metrics]
    scoped = [n for n in names if n not in catalog]
    diagnostics = list(diagnose.DIAGNOSTICS) if carried and (scoped or not catalog) else []
    rows = per_q.select(*plan.keys, *scoped, *diagnostics) if scoped or not catalog else None
    if catalog:
        catalogs = [(n, m) for n, m in req.metrics if n in catalog]
        rows = _engine.per_list_values(plan, catalogs, req.by, req.columns.query, rows)
    assert rows is not None
    return rows.select(*plan.keys, *names, *diagnostics).sort(plan.keys)


def _named(frame: pl.DataFrame, cols: Columns, keys_by: tuple[str, ...]) -> InvalidDataError | None:
    """The error :func:`validate` finds in `frame` (it names the offending rows), or None."""
    try:
        validate(frame, columns=cols, by=keys_by)
    except InvalidDataError as error:
        return error
    return None


def _longest(frame: pl.DataFrame, cols: Columns, keys_by: tuple[str, ...]) -> Callable[[], int]:
    """The length of the longest ranked list of `frame`, computed when asked."""

    def longest() -> int:
        order = pl.col(cols.ranked_by(frame.columns) or cols.score)
        lengths = frame.lazy().filter(order.is_not_null()).group_by([*keys_by, cols.query]).len()
        return int(lengths.select(pl.col("len").max()).collect().item() or 0)

    return longest


def population(
    frame: FrameT,
    *,
    by: str | Sequence[str] | None = None,
    columns: ColumnsLike = None,
    conventions: Conventions | str | None = None,
    **overrides: Unpack[ConventionOptions],
) -> FrameT:
    """Count the queries in each case of the population rules, per `by` group.

    Parameters
    ----------
    frame
        The evaluation frame, as for :func:`evaluate`.
    by, columns, conventions, **overrides
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
    frame = as_polars(frame, "frame")
    keys_by = normalise_by(by)
    resolved = Conventions.resolve(conventions, **overrides)
    per_q = _engine.build(frame.lazy(), Columns.of(columns), keys_by, resolved, []).per_query
    counts = _engine.population_counts(per_q, resolved)
    out = per_q.group_by(keys_by).agg(counts).sort(keys_by) if keys_by else per_q.select(counts)
    return _engine.finish_frame(out, frame)


def collect(lf: pl.LazyFrame, **kwargs: object) -> pl.DataFrame:
    """Collect a plan this library built, raising its data errors as :class:`InvalidDataError`.

    A LazyFrame that :func:`evaluate` returned checks its data when it runs;
    Polars' own ``collect()`` reports a failed check as its
    ``InvalidOperationError`` (with the library's message inside). This
    collects the same way and raises the library's error with the message alone.

    Parameters
    ----------
    lf
        The plan, e.g. ``prm.evaluate(pl.scan_parquet(...), [...])``.
    **kwargs
        Passed to :meth:`polars.LazyFrame.collect` (``engine="streaming"``...).

    Returns
    -------
    pl.DataFrame

    Raises
    ------
    InvalidDataError
        The data breaks the frame contract; the message names the column,
        the rule and the query.

    Examples
    --------
    >>> lf = pl.LazyFrame({"query": [1, 1], "item": ["a", "b"],
    ...     "score": [0.9, float("nan")], "relevance": [1, 0]})
    >>> prm.collect(prm.evaluate(lf, ["ndcg@10"]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    polars_rankmetrics.exceptions.InvalidDataError: score column 'score' holds NaN or infinite scores ...
    """
    if isinstance(lf, pl.DataFrame):  # evaluate's DataFrame result: collected already
        return lf
    if not isinstance(lf, pl.LazyFrame):
        raise InvalidInputError.from_type("lf", "a Polars LazyFrame (or DataFrame)", lf)
    return _engine.collect(lf, **kwargs)
