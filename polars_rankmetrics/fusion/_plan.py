"""The fusion plan: from the runs' long frame to one fused run, for fuse() and optimize_fusion().

The input is checked here (columns, dtypes, weights, judgments); the plan
normalises and ranks every run once, then builds the method's terms and
aggregates them per item. With `keys` (a grid search's candidate id) the
weights and parameters are columns of a candidate table joined after the
ranking, so every candidate shares it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import polars as pl

from polars_rankmetrics._schema import Columns
from polars_rankmetrics.exceptions import ColumnNotFoundError, ColumnTypeError, InvalidParameterError
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.exceptions._parameters import is_finite
from polars_rankmetrics.fusion._condorcet import condorcet
from polars_rankmetrics.fusion._methods import WEIGHT, combined, listed, terms
from polars_rankmetrics.fusion._names import FusionMethod
from polars_rankmetrics.fusion._normalize import MONOTONE, RUN, SCORE, Layout, normalized, ranked
from polars_rankmetrics.fusion._supervised import supervised_terms

__all__ = [
    "FusionRequest",
    "base_frame",
    "check_qrels",
    "check_weight",
    "check_weights",
    "fused",
    "prepared",
    "with_weights",
]


@dataclass(frozen=True)
class FusionRequest:
    """One fusion, checked: the method, normalisation, parameters, the frame's columns."""

    method: FusionMethod
    norm: str
    params: Mapping[str, float]
    by: str
    columns: Columns

    @property
    def layout(self) -> Layout:
        """The query and item columns."""
        return Layout(self.columns.query, self.columns.item)


def base_frame(frame: pl.LazyFrame, req: FusionRequest) -> pl.LazyFrame:
    """The runs' rows as (RUN, query, item, SCORE); a missing or mistyped column raises."""
    cols = req.columns
    schema = frame.collect_schema()
    for name, role in ((req.by, "by"), (cols.query, "query"), (cols.item, "item"), (cols.score, "score")):
        if name not in schema:
            raise ColumnNotFoundError.from_missing_and_available(name, role, schema.names(), where="the runs")
    if not schema[cols.score].is_numeric():
        raise ColumnTypeError.from_dtype(cols.score, "score", "numeric", schema[cols.score])
    score = pl.col(cols.score).cast(pl.Float64)
    where = (pl.col(c).cast(pl.String).fill_null("null") for c in (req.by, cols.query, cols.item))
    said = pl.format(
        f"score column {cols.score!r} holds a NaN or infinite score, at {req.by}={{}}, query={{}}, item={{}}",
        *(_errors.shown_expr(w) for w in where),
    )
    bad = _errors.in_plan(pl.when(score.is_nan() | score.is_infinite()).then(said))
    return frame.select(
        pl.col(req.by).alias(RUN),
        cols.query,
        cols.item,
        pl.when(bad.is_null()).then(score).alias(SCORE),  # a lazy frame's scores, checked in its plan
    )


def check_weights(weights: object, method: FusionMethod) -> dict[object, float] | None:
    """The weights as {run: weight}; None for an unweighted method (which must get none)."""
    if not method.weighted:
        if weights is not None:
            takers = "the weighted methods: wsum, wmnz, mixed, w_bordafuse, w_condorcet"
            raise InvalidParameterError.takes_no(f"fusion method {method.name!r}", "weights", takers)
        return None
    if not isinstance(weights, Mapping) or not weights:
        raise InvalidParameterError.out_of_domain(
            "weights", "a non-empty mapping {run name: weight}", weights, method=method.name
        )
    checked = {run: check_weight(w, run, method.name) for run, w in weights.items()}
    if not any(checked.values()):  # every fused score would be 0: no ranking at all
        raise InvalidParameterError.out_of_domain(
            "weights",
            "a mapping with a non-zero weight (all zero fuse every item to 0)",
            weights,
            method=method.name,
        )
    return checked


def check_weight(w: object, run: object, method: str) -> float:
    """One run's weight: a finite real number."""
    if not is_finite(w):
        raise InvalidParameterError.out_of_domain(
            f"weights[{run!r}]", "a finite real number", w, method=method
        )
    return float(w)


def check_qrels(qrels: object, method: FusionMethod, cols: Columns) -> pl.LazyFrame | None:
    """The judgments as a LazyFrame for a supervised method (which must get them); None otherwise."""
    from polars_rankmetrics._inputs import as_polars  # noqa: PLC0415  (only the supervised path)

    if not method.supervised:
        if qrels is not None:
            owner = f"fusion method {method.name!r} is not trained: it"
            takers = "the supervised methods: bayesfuse, mapfuse, posfuse, probfuse, segfuse, slidefuse"
            raise InvalidParameterError.takes_no(owner, "qrels", takers)
        return None
    if qrels is None:
        why = "is trained on judgments: pass qrels= (query, item, relevance)"
        raise InvalidParameterError.refused(f"fusion method {method.name!r}", why)
    lf = as_polars(qrels, "qrels").lazy()
    schema = lf.collect_schema()
    for name, role in ((cols.query, "query"), (cols.item, "item"), (cols.relevance, "relevance")):
        if name not in schema:
            raise ColumnNotFoundError.from_missing_and_available(
                name, role, schema.names(), where="the qrels"
            )
    return lf


ORDER_ONLY = frozenset(
    {"rrf", "isr", "log_isr", "logn_isr", "rbc", "bordafuse", "w_bordafuse", "condorcet", "w_condorcet"}
    | {"posfuse", "probfuse", "slidefuse", "bayesfuse", "mapfuse"}
)
"""Methods that read only each run's ranks (and their lengths), never the normalised scores."""


def prepared(base: pl.LazyFrame, req: FusionRequest) -> pl.LazyFrame:
    """Every run normalised and ranked once; Borda methods on the candidate grid.

    A method that reads only ranks skips a normalisation that keeps the order.
    """
    lay, name = req.layout, req.method.name
    norm = "none" if name in ORDER_ONLY and req.norm in MONOTONE else req.norm
    return listed(ranked(normalized(base, norm, lay), lay), name, lay)


def with_weights(lf: pl.LazyFrame, weights: pl.LazyFrame, named: pl.Series | None = None) -> pl.LazyFrame:
    """Each row's run weight (a row per candidate when `weights` has a candidate column, one per run each).

    A run without a weight fails in the plan, and so does a name of `named`
    (the runs `weights` names) that no row holds.
    """
    joined = lf.join(weights, on=RUN, how="left")
    missing = pl.format("run {} has no weight: name every run in `weights`", pl.col(RUN).cast(pl.String))
    failed = _errors.in_plan(pl.when(pl.col(WEIGHT).is_null()).then(missing))
    kept = failed.is_null()
    if named is not None:
        names = pl.lit(named)
        unknown = names.filter(~names.is_in(pl.col(RUN).implode())).first()
        said = pl.format(
            "`weights` names run {}, which the runs do not hold: name only the runs given",
            unknown.cast(pl.String),
        )
        kept &= _errors.in_plan(pl.when(unknown.is_not_null()).then(said)).is_null()
    return joined.with_columns(pl.when(kept).then(pl.col(WEIGHT)).alias(WEIGHT))


def fused(  # noqa: PLR0913
    ready: pl.LazyFrame,
    req: FusionRequest,
    params: Mapping[str, pl.Expr],
    *,
    weights: pl.LazyFrame | None = None,
    named: pl.Series | None = None,
    qrels: pl.LazyFrame | None = None,
    keys: Sequence[str] = (),
    train: pl.LazyFrame | None = None,
    bits: pl.Expr | None = None,
) -> pl.LazyFrame:
    """One row per (keys..., query, item) with the fused score VALUE, from :func:`prepared` rows.

    `bits`: each row's run as a bit (:func:`run_bits`), summed and or-ed per
    item (not for condorcet, whose aggregation is its own).
    """
    name, lay = req.method.name, req.layout
    if weights is not None:
        ready = with_weights(ready, weights, named)
    if name in {"condorcet", "w_condorcet"}:
        return condorcet(ready, lay, keys, weighted=name == "w_condorcet")
    if qrels is not None:
        valued = supervised_terms(
            ready,
            name,
            qrels,
            relevance=req.columns.relevance,
            params=params,
            lay=lay,
            keys=keys,
            train=train,
        )
    else:
        valued = terms(ready, name, params)
    return combined(valued, name, params, lay, keys, bits=bits)
