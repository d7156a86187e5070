"""evaluate() and population(): the public entry points over the engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

import polars as pl

from polars_rankmetrics import _engine
from polars_rankmetrics._engine import Aggregation, MetricLike, diagnose
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._request import Request, request
from polars_rankmetrics._schema import Columns, normalise_by
from polars_rankmetrics.checks import validate
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.exceptions import InvalidDataError, InvalidInputError
from polars_rankmetrics.io import join_run_qrels

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
    columns: Columns | None = None,
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
        objects. Output columns are named as written.
    by
        Grouping keys (run, model, segment): every metric is computed per
        group and per query inside it.
    per_query
        Return one row per (by..., query) instead of one per `by` group.
    columns
        Column names of the frame; defaults to ``Columns()``.
    conventions
        The base conventions: None (trec_eval 10.0's), a preset name
        (``"trec_eval"``) or a :class:`Conventions`.
    check
        Check the data inside the evaluation's own plan, on every path
        (DataFrame, LazyFrame, scan): null query, item or by ids, NaN or
        infinite scores, ranks below 1, NaN grades, duplicate (by..., query,
        item) rows. A DataFrame raises :class:`InvalidDataError` naming the
        column, the value and the query; a LazyFrame's plan fails when it is
        collected (Polars' ``InvalidOperationError`` carrying the same
        message; :func:`collect` raises it as :class:`InvalidDataError`).
        The checks share the ranking's windows: a few percent of the time.
    aggregate
        How the per-query values of each `by` group combine: ``"mean"``
        (each metric's own rule: the mean; a sum for counts, the geometric
        mean for ``gm_*``), or a statistic of the per-query values that
        ``per_query=True`` returns: ``"median"``, ``"min"``, ``"max"``,
        ``"std"`` (the sample standard deviation, ddof=1 as Polars' and
        ranx's; null for one query; computed from exact integer sums of
        the values and their squares on a 2**-32 grid, so within 2e-10 of
        numpy's). Every one is order-independent: the same rows give the
        same bits on every engine. Median and std are Float64. Not for
        catalog metrics, which have no per-query values.
    qrels
        The judgments (query, item, relevance), when `frame` is the run
        alone: they are joined to it inside the plan exactly as
        :func:`join_run_qrels` does (every retrieved item, plus the judged
        items the run missed, per `by` group), so the result is the same,
        bit for bit, as ``evaluate(join_run_qrels(frame, qrels, by=by), ...)``.
        Joining by hand with an inner or left join instead loses the judged
        items never retrieved, which recall, AP and the ideal DCG need.
    **overrides
        Convention fields that override the base: ``depth``,
        ``relevance_level``, ``missing``, ``gain``, ``judged_only``,
        ``ties`` (``"text"``, ``"average"``, ``"optimistic"``,
        ``"pessimistic"``), ``iprec_rule`` (see :class:`Conventions`);
        ``preset`` names the base like `conventions` (``"trec_eval"``,
        ``"pytrec_eval"``, ``"ir_measures"``, ``"ranx"``, ``"sklearn"``).

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
    Where exactness stops. Sums of float terms are order-independent, so the
    same rows give the same bits on every engine, chunked and on Spark: the
    terms are scaled to integers and added exactly (Int128). A query's sum
    (DCG, AP over its rows) holds each term truncated toward zero to a
    multiple of 2**-64: exact for terms of magnitude 2**-11 or more (their
    53 bits all lie above 2**-64) and below 2**63, and low by at most 2**-64
    per smaller term. RBP and ERR, whose terms shrink geometrically with the
    rank, scale each query's terms by a power of two from its largest term
    instead, so each term is held to 2**-61 of that largest term whatever
    its size: ``rbp(p=0.01)`` with its one relevant item at rank 15 is
    9.9e-29, at rank 150 1e-298; ``rbp_resid`` sums its unjudged ranks'
    discounts as ``p ** (r - f)`` from the query's first unjudged rank f (the
    largest term 1) and multiplies ``p ** (f - 1)`` back. DCG and nDCG
    take the query's scale from its largest gain where gains can be below
    2**-3 (fractional grades, a ``{grade: gain}`` mapping of small gains):
    ``ndcg(gain={1: 1e-30})`` is what ``{1: 1}`` gives; a cutoff whose gains
    all lie below 2**-61 of the query's largest keeps only those bits. A
    mean over queries holds every value exactly in the 64-bit band of the
    group's largest |value| and the next (values further down, below 2**-64
    of the largest, are dropped), so it
    is correct to about n * 2**-64 of the largest value for n queries: the
    mean of ``precision@10**30`` is about 1e-30, not 0. Terms and values of
    2**63 or more, NaN or infinite raise :class:`InvalidDataError`.
    ``G`` and ``ndcg_rel`` take the same gain scale. ``gm_*``'s log sums,
    weighted means (``mpr``) and ``aggregate="std"`` (a 2**-32 grid) keep a
    fixed grid.

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
    frame = as_polars(frame, "frame")
    req = request(
        metrics, by=by, per_query=per_query, columns=columns, conventions=conventions, check=check,
        aggregate=aggregate, qrels=qrels, overrides=overrides,
    )  # fmt: skip
    if req.qrels is not None:
        joined = join_run_qrels(frame, req.qrels, by=by, columns=columns)
        if isinstance(frame, pl.DataFrame) and isinstance(joined, pl.LazyFrame):
            joined = _engine.collect(joined)
        frame = joined  # type: ignore[assignment]  # the same frame type as the run's
    return _evaluated(frame, req)


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
        names = [name for name, _ in requested] + (list(diagnose.DIAGNOSTICS) if carried else [])
        out = per_q.select(*plan.keys, *names).sort(plan.keys)
    else:
        extra = diagnose.hidden(has_relevance=carried) if eager and scoped else []
        out = _engine.aggregated(
            per_q, requested, keys_by, [part for _, part in plan.catalog], extra, how=aggregate
        )
    if isinstance(frame, pl.LazyFrame):
        return out
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
    return diagnose.warn(
        result, requested, keys_by, per_query=per_query, longest_list=_longest(frame, cols, keys_by)
    )


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
        order = pl.col(cols.rank if cols.rank in frame.columns else cols.score)
        lengths = frame.lazy().filter(order.is_not_null()).group_by([*keys_by, cols.query]).len()
        return int(lengths.select(pl.col("len").max()).collect().item() or 0)

    return longest


def population(
    frame: FrameT,
    *,
    by: str | Sequence[str] | None = None,
    columns: Columns | None = None,
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
