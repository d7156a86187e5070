"""optimize_fusion(): a grid search over a method's weights or parameter, candidates evaluated together.

The runs are normalised and ranked once; a batch of candidates is
evaluated by :func:`evaluate` with the candidate as its `by` key: one plan
per batch. For a metric at a cutoff k and a method that sums a value per
run (``wsum``, ``wmnz``, ``mixed``, ``rrf``), each candidate is a column of
one wide frame of the runs and its list is cut at k (``_cut``); otherwise a
table of weights (or parameter values) is joined to the runs' rows, fused
per candidate, and every fused list evaluated whole.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import product

import polars as pl

from polars_rankmetrics._engine import collect
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns, ColumnsLike
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.evaluation import evaluate
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions._parameters import is_finite
from polars_rankmetrics.fusion._cut import CANDIDATE, coded, cutoff, evaluate_cut, wide_runs
from polars_rankmetrics.fusion._methods import WEIGHT
from polars_rankmetrics.fusion._names import FusionMethod, check_params, method_spec, norm_name
from polars_rankmetrics.fusion._normalize import RUN, VALUE
from polars_rankmetrics.fusion._plan import FusionRequest, base_frame, check_weight, fused, prepared
from polars_rankmetrics.io import join_run_qrels

__all__ = ["FusionSearch", "optimize_fusion"]

_SEARCHED = {
    "rrf": "k",
    "gmnz": "gamma",
    "logn_isr": "sigma",
    "rbc": "phi",
    "slidefuse": "w",
    "probfuse": "n_segments",
}


@dataclass(frozen=True)
class FusionSearch:
    """The result of :func:`optimize_fusion`: every candidate with its metric, and the best one."""

    table: pl.DataFrame
    """Per candidate, in grid order: `candidate`, its weights (a column per run) or parameter, the metric."""
    best: dict[str, object]
    """The best candidate's arguments for :func:`fuse`: ``{"weights": {run: w}}`` or ``{"k": 60}``."""


def steps(start: float, stop: float, step: float) -> list[float]:
    """Ranx's grid: ``numpy.arange(start, stop + step, step)`` rounded to the step's decimals."""
    exponent = Decimal(str(step)).as_tuple().exponent  # '0.25': -2, '2e-05': -5 (ranx reads the '.')
    digits = max(0, -exponent) if isinstance(exponent, int) else 0
    count = math.ceil((stop + step - start) / step)
    return [round(start + i * step, digits) for i in range(count)]


def weight_grid(n_runs: int, step: float) -> list[tuple[float, ...]]:
    """Ranx's weight candidates: every tuple of grid weights whose (float) sum is exactly 1.0."""
    values = steps(0.0, 1.0, step)
    return [seq for seq in product(values, repeat=n_runs) if sum(seq) == 1.0]


MAX_CANDIDATES = 100_000
"""The most candidates a search evaluates (an explicit `grid` or one a `step` makes)."""
MAX_TUPLES = 10_000_000
"""The most weight tuples a weighted grid enumerates: ``(1 / step + 1) ** runs``."""

_INTEGER_STEPS = {"rrf": (10, 101), "slidefuse": (1, 101), "probfuse": (1, 101)}


def _checked_step(spec: FusionMethod, step: object, n_runs: int) -> float | int | None:
    """`step`, checked against the grid it makes, before any candidate is built."""
    if step is None:
        return None
    if not is_finite(step):
        raise InvalidParameterError.out_of_domain(
            "step", "a finite positive number or None", step, method=spec.name
        )
    value = float(step)
    if spec.name in _INTEGER_STEPS:
        low, high = _INTEGER_STEPS[spec.name]
        if value != int(value) or not 1 <= value < high - low:
            domain = (
                f"a whole number in [1, {high - low - 1}] (the grid is {low}, {low} + step, ... {high - 1})"
            )
            raise InvalidParameterError.out_of_domain("step", domain, step, method=spec.name)
        return int(value)
    if not 0 < value <= 1:
        raise InvalidParameterError.out_of_domain("step", "in (0, 1]", step, method=spec.name)
    count = math.ceil(1.0 / value) + 1
    if (count**n_runs if spec.weighted else count) > (MAX_TUPLES if spec.weighted else MAX_CANDIDATES):
        limit = (
            f"at most {MAX_TUPLES:,} weight tuples ((1 / step + 1) ** runs, {n_runs} runs)"
            if spec.weighted
            else f"at most {MAX_CANDIDATES:,} candidates (1 / step)"
        )
        raise InvalidParameterError.out_of_domain("step", f"large enough for {limit}", step, method=spec.name)
    return value


def _grid(spec: FusionMethod, step: object, grid: object, n_runs: int) -> list[object]:
    """The candidates, from `grid` or the method's grid at `step`; checked against the limits first."""
    if grid is not None:
        if isinstance(grid, (str, bytes, Mapping)) or not isinstance(grid, Sequence) or not grid:
            raise InvalidParameterError.out_of_domain(
                "grid", "a non-empty sequence of candidates or None", grid, method=spec.name
            )
        if len(grid) > MAX_CANDIDATES:
            limit = f"a sequence of at most {MAX_CANDIDATES:,} candidates"
            raise InvalidParameterError.out_of_domain(
                "grid", limit, f"{len(grid):,} candidates", method=spec.name
            )
        return list(grid)
    checked = _checked_step(spec, step, n_runs)
    if spec.weighted:
        values: list[object] = list(weight_grid(n_runs, 0.1 if checked is None else checked))
        if not values:
            why = (
                f"makes no candidate: no tuple of weights 0, {checked}, ... sums to 1; take a step dividing 1"
            )
            raise InvalidParameterError.refused(f"step={checked!r} of optimize_fusion", why)
        return values
    if spec.name in _INTEGER_STEPS:
        low, high = _INTEGER_STEPS[spec.name]
        return list(range(low, high, (10 if spec.name == "rrf" else 1) if checked is None else int(checked)))
    return list(steps(0.01, 1.0, 0.01 if checked is None else checked))


def _as_weights(value: object, names: list[object], method: str) -> dict[object, float]:
    """A weight candidate as {run: weight}: a mapping naming every run, or a tuple in run order."""
    if isinstance(value, Mapping):
        weights = dict(value)
    elif isinstance(value, Sequence) and len(value) == len(names):
        weights = dict(zip(names, value, strict=True))
    else:
        raise InvalidParameterError.out_of_domain(
            "grid", f"weight tuples of {len(names)} (one per run) or mappings", value, method=method
        )
    missing = [run for run in names if run not in weights]
    if missing:
        raise InvalidParameterError.out_of_domain(
            "grid", f"weights naming every run ({missing[0]!r} is missing)", value, method=method
        )
    return {run: check_weight(weights[run], run, method) for run in names}


def _candidate(spec: FusionMethod, value: object, names: list[object]) -> dict[object, float] | float:
    """One candidate, checked: {run: weight}, or the searched parameter's value."""
    if spec.weighted:
        return _as_weights(value, names, spec.name)
    name = _SEARCHED[spec.name]
    return check_params(spec, {name: value})[name]


def _candidates(
    spec: FusionMethod, values: list[object], names: list[object], dtype: pl.DataType, offset: int
) -> pl.LazyFrame:
    """The candidate table: (CANDIDATE, RUN, WEIGHT) for weights, (CANDIDATE, param) for a parameter."""
    ids = range(offset, offset + len(values))
    if spec.weighted:
        rows = [
            (c, run, w)
            for c, v in zip(ids, values, strict=True)
            for run, w in _as_weights(v, names, spec.name).items()
        ]
        return pl.LazyFrame(rows, schema={CANDIDATE: pl.Int64, RUN: dtype, WEIGHT: pl.Float64}, orient="row")
    name = _SEARCHED[spec.name]
    checked = [check_params(spec, {name: v})[name] for v in values]
    return pl.LazyFrame({CANDIDATE: ids, name: checked}, schema={CANDIDATE: pl.Int64, name: pl.Float64})


def _table(
    spec: FusionMethod, values: list[object], names: list[object], scores: pl.DataFrame, metric: str
) -> pl.DataFrame:
    if spec.weighted:
        rows = [_as_weights(v, names, spec.name) for v in values]
        cols: dict[str, list[object]] = {str(run): [w[run] for w in rows] for run in names}
    else:
        cols = {_SEARCHED[spec.name]: values}
    table = pl.DataFrame({CANDIDATE: range(len(values)), **cols}).with_columns(
        pl.col(CANDIDATE).cast(pl.Int64)
    )
    return table.join(scores, on=CANDIDATE, how="left").sort(CANDIDATE).select(*table.columns, metric)


def _best(spec: FusionMethod, table: pl.DataFrame, names: list[object], metric: str) -> dict[str, object]:
    """Ranx's rule: the last candidate in grid order whose metric is the highest."""
    top = table.filter(pl.col(metric) == pl.col(metric).max()).row(-1, named=True)
    if spec.weighted:
        return {"weights": {run: top[str(run)] for run in names}}
    name = _SEARCHED[spec.name]
    return {name: top[name]}


def optimize_fusion(  # noqa: PLR0913
    runs: pl.DataFrame | pl.LazyFrame,
    qrels: pl.DataFrame | pl.LazyFrame,
    method: str = "wsum",
    *,
    metric: str = "ndcg@10",
    by: str = "run",
    norm: str | None = "min-max",
    step: float | None = None,
    grid: Sequence[object] | None = None,
    batch_size: int = 64,
    columns: ColumnsLike = None,
    conventions: Conventions | str | None = "ranx",
) -> FusionSearch:
    """Search a fusion method's weights or parameter for the best `metric`, as ranx's optimize_fusion.

    The grid is ranx's: for weighted methods (``wsum``, ``wmnz``, ``mixed``,
    ``w_bordafuse``, ``w_condorcet``) every tuple of weights 0, `step`, ...,
    1 (one per run, runs in sorted name order) summing to 1; for ``rrf``
    k = 10, 20, ..., 100; for ``gmnz`` (gamma), ``logn_isr`` (sigma) and
    ``rbc`` (phi) 0.01, 0.02, ..., 1 (`step` 0.01); for ``slidefuse`` (w)
    and ``probfuse`` (n_segments) 1, 2, ..., 100. `grid` gives the
    candidates instead. The runs are normalised and ranked once; each
    batch of `batch_size` candidates is fused and evaluated in one plan.
    For a metric at a cutoff k (``ndcg@10``, ``map@10``, ``recall@20``...;
    families whose value reads the first k items and the judgments) and
    ``wsum``, ``wmnz``, ``mixed`` or ``rrf``, only each candidate's top k
    are ranked and evaluated, with the same values as whole lists.
    The best is the last candidate in grid order with the highest metric
    (ranx's rule).

    Parameters
    ----------
    runs
        One row per (run, query, item) as for :func:`fuse`.
    qrels
        Judgments: query, item, relevance.
    method
        A weighted method, or ``rrf``, ``gmnz``, ``logn_isr``, ``rbc``,
        ``slidefuse`` (`w`), ``probfuse`` (`n_segments`), trained on `qrels`.
    metric
        One metric name, as :func:`evaluate` reads it.
    by, norm, columns
        As for :func:`fuse`.
    step
        The grid's step (weights: 0.1; rrf's k: 10; other parameters: 0.01):
        in (0, 1], or a whole number for rrf, slidefuse and probfuse. A
        weighted grid enumerates ``(1 / step + 1) ** runs`` tuples, at most
        10,000,000; a parameter grid at most 100,000 candidates: a smaller
        step is refused before any work.
    grid
        Explicit candidates (a non-empty sequence of at most 100,000): weight
        tuples (runs in sorted name order) or {run: weight} mappings, or
        parameter values.
    batch_size
        Candidates per plan.
    conventions
        The evaluation's conventions (default ``"ranx"``, ranx's own).

    Returns
    -------
    FusionSearch
        ``table``: one row per candidate with the metric; ``best``: the
        best candidate's arguments for :func:`fuse`.

    Examples
    --------
    >>> runs = pl.DataFrame({"run": ["a"] * 3 + ["b"] * 3, "query": ["q"] * 6,
    ...     "item": ["x", "y", "z"] * 2, "score": [3.0, 2.0, 1.0, 1.0, 3.0, 4.0]})
    >>> qrels = pl.DataFrame({"query": ["q"], "item": ["y"], "relevance": [1]})
    >>> search = prm.optimize_fusion(runs, qrels, "wsum", metric="mrr", step=0.5)
    >>> search.table
    shape: (3, 4)
    ┌───────────┬─────┬─────┬─────┐
    │ candidate ┆ a   ┆ b   ┆ mrr │
    │ ---       ┆ --- ┆ --- ┆ --- │
    │ i64       ┆ f64 ┆ f64 ┆ f64 │
    ╞═══════════╪═════╪═════╪═════╡
    │ 0         ┆ 0.0 ┆ 1.0 ┆ 0.5 │
    │ 1         ┆ 0.5 ┆ 0.5 ┆ 1.0 │
    │ 2         ┆ 1.0 ┆ 0.0 ┆ 0.5 │
    └───────────┴─────┴─────┴─────┘
    >>> search.best
    {'weights': {'a': 0.5, 'b': 0.5}}
    """
    spec = method_spec(method)
    if not spec.weighted and spec.name not in _SEARCHED:
        why = (
            f"searches weights or a parameter; fusion method {spec.name!r} has neither: use a weighted "
            "method, rrf, gmnz, logn_isr, rbc, slidefuse or probfuse"
        )
        raise InvalidParameterError.refused("optimize_fusion", why)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise InvalidParameterError.out_of_domain(
            "batch_size", "a positive integer", batch_size, method=spec.name
        )
    cols = Columns.of(columns)
    req = FusionRequest(spec, norm_name(norm), check_params(spec, {}, optional=True), by, cols)
    source = as_polars(runs, "runs").lazy()
    base = base_frame(source, req)
    names = sorted(collect(base.select(pl.col(RUN).unique()))[RUN].to_list())
    if not names:
        raise InvalidParameterError.empty("runs", "give the runs' rows (run, query, item, score)")
    values = _grid(spec, step, grid, len(names))
    judged = as_polars(qrels, "qrels").lazy()
    evaluation = (metric, conventions)
    k = cutoff(spec.name, metric, conventions)
    if k is not None:  # candidates as columns of one wide frame, each list cut at k
        cut = [(c, _candidate(spec, v, names)) for c, v in enumerate(values)]
        wide, coded_qrels = wide_runs(source, req, names, judged)
        scores = [
            evaluate_cut(wide, coded_qrels, req, cut[lo : lo + batch_size], names, k=k, evaluation=evaluation)
            for lo in range(0, len(cut), batch_size)
        ]
    else:
        scores = _whole_lists(base, judged, req, (values, names, batch_size), evaluation)
    table = _table(spec, values, names, pl.concat(scores), metric)
    return FusionSearch(table=table, best=_best(spec, table, names, metric))


def _whole_lists(
    base: pl.LazyFrame,
    judged: pl.LazyFrame,
    req: FusionRequest,
    grid: tuple[list[object], list[object], int],
    evaluation: tuple[str, Conventions | str | None],
) -> list[pl.DataFrame]:
    """Each batch's (CANDIDATE, metric): every candidate's fused run evaluated whole, one plan per batch."""
    values, names, batch_size = grid
    ready, judged = coded(prepared(base, req), judged, req.columns)
    ready = ready.collect().lazy()  # ranked once, shared by every batch
    dtype = base.collect_schema()[RUN]
    batches = [
        _candidates(req.method, values[lo : lo + batch_size], names, dtype, lo)
        for lo in range(0, len(values), batch_size)
    ]
    return [_evaluate_batch(ready, req, b, qrels=judged, evaluation=evaluation) for b in batches]


def _evaluate_batch(
    ready: pl.LazyFrame,
    req: FusionRequest,
    candidates: pl.LazyFrame,
    *,
    qrels: pl.LazyFrame,
    evaluation: tuple[str, Conventions | str | None],
) -> pl.DataFrame:
    """The metric of every candidate of the batch: (CANDIDATE, metric), one plan."""
    metric, conventions = evaluation
    cols = req.columns
    if req.method.weighted:
        out = fused(ready, req, {}, weights=candidates, keys=[CANDIDATE])
    else:
        name = _SEARCHED[req.method.name]
        judged = qrels if req.method.supervised else None
        crossed = ready.join(candidates, how="cross")
        out = fused(crossed, req, {name: pl.col(name)}, qrels=judged, keys=[CANDIDATE], train=ready)
    run = out.select(CANDIDATE, cols.query, cols.item, pl.col(VALUE).alias(cols.score))
    frame = join_run_qrels(run, qrels, by=CANDIDATE, columns=cols).lazy()
    # The frame is built here: ids non-null and unique per candidate, scores finite sums.
    return collect(evaluate(frame, metric, by=CANDIDATE, columns=cols, conventions=conventions, check=False))
