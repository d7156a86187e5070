"""fuse(): several runs in one long frame in, one fused run out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

import polars as pl

from polars_rankmetrics._engine import finish_frame
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns, ColumnsLike
from polars_rankmetrics.checks import validate
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.fusion._methods import BITS_OR, BITS_SUM, WEIGHT, run_bits
from polars_rankmetrics.fusion._names import check_params, method_spec, norm_name
from polars_rankmetrics.fusion._normalize import RUN, VALUE
from polars_rankmetrics.fusion._plan import (
    FusionRequest,
    base_frame,
    check_qrels,
    check_weights,
    fused,
    prepared,
)

__all__ = ["fuse", "weights_frame"]

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)


def weights_frame(weights: Mapping[object, float], dtype: pl.DataType) -> pl.LazyFrame:
    """The weights as a (RUN, WEIGHT) frame, the run names of the `by` column's dtype."""
    return pl.LazyFrame(
        {RUN: list(weights), WEIGHT: list(weights.values())}, schema={RUN: dtype, WEIGHT: pl.Float64}
    )


def _check_runs_named(frame: pl.DataFrame, by: str, weights: Mapping[object, float]) -> None:
    """A DataFrame's runs all have a weight, and every weight a run (a LazyFrame's: in its plan)."""
    held = set(frame.get_column(by).unique().to_list())
    unnamed = sorted(held - set(weights), key=str)
    if unnamed:
        raise InvalidParameterError.no_weight(unnamed[0], by, weights)
    unknown = [run for run in weights if run not in held]
    if unknown:
        raise InvalidParameterError.unknown_weight(unknown[0], by, held)


def fuse(  # noqa: PLR0913
    runs: FrameT,
    method: str,
    *,
    by: str = "run",
    norm: str | None = "min-max",
    weights: Mapping[object, float] | None = None,
    qrels: pl.DataFrame | pl.LazyFrame | None = None,
    columns: ColumnsLike = None,
    check: bool = True,
    **params: float,
) -> FrameT:
    """Fuse several runs into one: a long frame of runs in, one run (query, item, score) out.

    Each run's scores are normalised per query (`norm`), then the method
    combines them per (query, item), every step a Polars expression in one
    lazy plan. Methods and normalisations are ranx's (``ranx.fuse``), under
    its names; other spellings (``combsum``, ``comb_mnz``, ``borda`` ...)
    are accepted. See ``polars_rankmetrics.fusion`` for each definition.

    Parameters
    ----------
    runs
        One row per (run, query, item): the `by` column names the run;
        query, item and score columns as in :class:`Columns`.
    method
        Unsupervised: ``rrf`` (`k`, 60), ``isr``, ``log_isr``, ``logn_isr``
        (`sigma`, 0.01), ``sum``, ``mnz``, ``anz``, ``max``, ``min``, ``med``,
        ``gmnz`` (`gamma`), ``wsum``, ``wmnz``, ``mixed``, ``bordafuse``,
        ``w_bordafuse``, ``condorcet``, ``w_condorcet``, ``rbc`` (`phi`).
        Trained on `qrels`: ``bayesfuse``, ``mapfuse``, ``posfuse``,
        ``probfuse`` (`n_segments`), ``segfuse``, ``slidefuse`` (`w`).
    by
        The column naming each run.
    norm
        ``min-max`` (ranx's default), ``min-max-inverted``, ``max``, ``sum``,
        ``zmuv``, ``rank``, ``borda`` or ``none`` (None).
    weights
        {run name: weight} for ``wsum``, ``wmnz``, ``mixed``, ``w_bordafuse``
        and ``w_condorcet``; every run needs one.
    qrels
        Judgments (query, item, relevance) the supervised methods train on.
    columns
        Column names (query, item, score; relevance of `qrels`).
    check
        For a DataFrame, check the runs first (:func:`validate`): null ids,
        NaN or infinite scores, duplicate (run, query, item) rows raise
        :class:`InvalidDataError`. A LazyFrame is not checked (call
        :func:`validate` on it). Null ids and scores cost a scan; duplicate
        rows are found by the fusion's own aggregation per item, so the
        check costs a fraction of a :func:`validate` pass.
    **params
        The method's own parameters (``k=60``, ``phi=0.8``, ...).

    Returns
    -------
    pl.DataFrame or pl.LazyFrame
        The frame type of `runs`: query, item, score (Float64), one row per
        item any run lists for the query; row order unspecified. Ready for
        :func:`join_run_qrels` and :func:`evaluate`.

    Raises
    ------
    InvalidDataError
        With `check`, bad data in a DataFrame (the message names the rows).
    InvalidParameterError
        An unknown method, normalisation or parameter, a parameter out of
        its domain, missing weights or judgments.
    ColumnNotFoundError, ColumnTypeError
        A missing column (the `by` column included), a non-numeric score.

    Examples
    --------
    >>> runs = pl.DataFrame({"run": ["bm25"] * 3 + ["dense"] * 3, "query": ["q1"] * 6,
    ...     "item": ["a", "b", "c", "b", "c", "d"], "score": [9.0, 7.0, 1.0, 0.8, 0.7, 0.1]})
    >>> prm.fuse(runs, "rrf", k=60).sort("score", descending=True).with_columns(pl.col("score").round(5))
    shape: (4, 3)
    ┌───────┬──────┬─────────┐
    │ query ┆ item ┆ score   │
    │ ---   ┆ ---  ┆ ---     │
    │ str   ┆ str  ┆ f64     │
    ╞═══════╪══════╪═════════╡
    │ q1    ┆ b    ┆ 0.03252 │
    │ q1    ┆ c    ┆ 0.032   │
    │ q1    ┆ a    ┆ 0.01639 │
    │ q1    ┆ d    ┆ 0.01587 │
    └───────┴──────┴─────────┘
    >>> weights = {"bm25": 0.3, "dense": 0.7}
    >>> prm.fuse(runs, "wsum", weights=weights).sort("item").with_columns(pl.col("score").round(4))
    shape: (4, 3)
    ┌───────┬──────┬───────┐
    │ query ┆ item ┆ score │
    │ ---   ┆ ---  ┆ ---   │
    │ str   ┆ str  ┆ f64   │
    ╞═══════╪══════╪═══════╡
    │ q1    ┆ a    ┆ 0.3   │
    │ q1    ┆ b    ┆ 0.925 │
    │ q1    ┆ c    ┆ 0.6   │
    │ q1    ┆ d    ┆ 0.0   │
    └───────┴──────┴───────┘
    """
    frame = as_polars(runs, "runs")
    cols = Columns.of(columns)
    spec = method_spec(method)
    req = FusionRequest(spec, norm_name(norm), check_params(spec, params), by, cols)
    checked = check_weights(weights, spec)
    judged = check_qrels(qrels, spec, cols)
    base = base_frame(frame.lazy(), req)
    names = _checked(frame, req) if check and isinstance(frame, pl.DataFrame) else None
    table, named = None, None
    if checked is not None:
        if isinstance(frame, pl.DataFrame):
            _check_runs_named(frame, by, checked)
        table = weights_frame(checked, base.collect_schema()[RUN])
        named = pl.Series(
            list(checked), dtype=base.collect_schema()[RUN]
        )  # a LazyFrame's: checked in the plan
    exprs = {name: pl.lit(value) for name, value in req.params.items()}
    bits = run_bits(names) if names is not None else None
    out = fused(prepared(base, req), req, exprs, weights=table, named=named, qrels=judged, bits=bits)
    out = out.select(
        cols.query,
        cols.item,
        pl.col(VALUE).alias(cols.score),
        *([BITS_SUM, BITS_OR] if bits is not None else []),
    )
    result = finish_frame(out, frame)
    if isinstance(result, pl.DataFrame) and bits is not None:
        if result.select((pl.col(BITS_SUM) != pl.col(BITS_OR)).any()).item():
            _validate(frame, req)  # a run lists an item twice: validate words it
        result = result.drop(BITS_SUM, BITS_OR)
    return result


_MAX_BITS = 63  # run_bits() gives each run a bit of a UInt64


def _validate(frame: pl.DataFrame | pl.LazyFrame, req: FusionRequest) -> None:
    cols = req.columns
    validate(frame.select(req.by, cols.query, cols.item, cols.score), columns=cols, by=req.by)


def _checked(frame: pl.DataFrame, req: FusionRequest) -> pl.Series | None:
    """The DataFrame's runs checked as :func:`validate` checks them, the duplicates left to the plan.

    Null ids and NaN or infinite scores cost a scan; where one is found,
    :func:`validate` runs and words it. A run listing an item twice is
    found by the plan's own aggregation per item (:func:`run_bits`):
    the run names are returned for it. None when :func:`validate` ran in
    full instead (condorcet, whose aggregation is its own; over 63 runs).
    """
    cols = req.columns
    ids = [req.by, cols.query, cols.item]
    flags = frame.select(
        pl.any_horizontal(pl.col(c).has_nulls() for c in ids).alias("nulls"),
        pl.col(cols.score).cast(pl.Float64).is_finite().all().alias("finite"),
    ).row(0)
    names = frame.get_column(req.by).unique()
    if flags[0] or not flags[1] or len(names) > _MAX_BITS or req.method.name in {"condorcet", "w_condorcet"}:
        _validate(frame, req)
        return None
    return names
