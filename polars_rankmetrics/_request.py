"""The evaluate request: every entry point's options, declared, converted and checked once, here.

:class:`EvaluateOptions` is the one declaration of the options: :func:`polars_rankmetrics.evaluate`,
:func:`polars_rankmetrics.evaluate_chunked`, ``polars_rankmetrics.spark.evaluate`` and the ``.rank``
namespace take them as ``**options: Unpack[EvaluateOptions]`` (an entry point adds only its own,
such as ``memory_mib``), and each builds a :class:`Request` with :func:`request` and reads it, so an
option is declared, defaulted and refused in one place. A new entry point (an accumulator) does the
same. With the frame given, :func:`request` also converts the frame and the judgments to Polars
once (``_inputs.as_polars``): what follows reads ``Request.frame``, ``Request.qrels``,
``Request.by`` and ``Request.columns`` and normalises nothing again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

import polars as pl

from polars_rankmetrics import _engine
from polars_rankmetrics._engine import Aggregation, MetricLike, NamedMetrics
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns, ColumnsLike, normalise_by
from polars_rankmetrics.conventions import ConventionOptions, Conventions, ReadingOptions
from polars_rankmetrics.exceptions import InvalidInputError

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["OPTIONS", "EvaluateOptions", "MetricOptions", "Options", "Request", "request"]

OPTIONS = ("by", "per_query", "columns", "conventions", "check", "aggregate", "qrels")
"""The options every entry point takes besides the metrics and the convention overrides."""


class Options(TypedDict, total=False):
    """The keyword options of :func:`evaluate` besides the conventions, for type checkers and IDEs."""

    by: str | Sequence[str] | None
    per_query: bool
    columns: ColumnsLike
    conventions: Conventions | str | None
    check: bool
    aggregate: Aggregation
    qrels: object | None


class EvaluateOptions(Options, ConventionOptions, total=False):
    """Every keyword option of :func:`evaluate`."""


class MetricOptions(Options, ReadingOptions, total=False):
    """The keyword options of a metric with its own ``gain``: evaluate's, but the gain convention."""


@dataclass(frozen=True)
class Request:
    """One evaluation's request: the parsed metrics and the checked options.

    Attributes
    ----------
    metrics
        (output name, metric) pairs, as written.
    by
        The grouping keys.
    per_query
        One row per (by..., query) instead of one per `by` group.
    columns
        The frame's column names.
    conventions
        The resolved conventions (the base with the overrides applied).
    check
        Check the data inside the plan.
    aggregate
        How per-query values combine.
    qrels
        The judgments to join to the run, or None when the frame holds them;
        converted to Polars when the request was given the frame.
    frame
        The frame, converted to Polars once; None when the request was not
        given one (Spark's frames stay Spark's).
    """

    metrics: NamedMetrics
    by: tuple[str, ...]
    per_query: bool
    columns: Columns
    conventions: Conventions
    check: bool
    aggregate: Aggregation
    qrels: object | None
    frame: pl.DataFrame | pl.LazyFrame | None = None

    @property
    def names(self) -> list[str]:
        """The metrics' output names, in the order requested."""
        return [name for name, _ in self.metrics]

    @property
    def scoped(self) -> bool:
        """Whether any metric has per-query values (is not catalog-scope)."""
        catalog = _engine.catalog_names(self.metrics)
        return any(name not in catalog for name, _ in self.metrics)


def request(
    metrics: MetricLike | Sequence[MetricLike],
    frame: object | None = None,
    merged: str | None = None,
    catalog: bool = True,
    /,
    **options: Unpack[EvaluateOptions],
) -> Request:
    """Parse and check an evaluation's options; every refusal of a combination is here.

    Parameters
    ----------
    metrics
        As for :func:`polars_rankmetrics.evaluate`.
    frame
        The frame to evaluate, converted to Polars (with the `qrels` option)
        once here; None leaves the frames to the caller (Spark).
    merged
        Where the per-query values are merged from parts ("chunk by chunk", "on Spark"), for the
        statistics that cannot be merged; None for one plan.
    catalog
        Whether the entry point can compute catalog metrics (evaluate_chunked cannot).
        `frame`, `merged` and `catalog` are positional only: a user's option of
        the same name (``catalog=``) reaches the options, where it is refused.
    **options
        :class:`EvaluateOptions`: by, per_query, columns, conventions, check,
        aggregate, qrels, and the convention overrides (``depth=``, ``ties=``...).

    Returns
    -------
    Request

    Raises
    ------
    RankMetricsError
        An unknown metric, a bad option, or options that do not go together.

    Examples
    --------
    >>> from polars_rankmetrics._request import request
    >>> r = request(["ndcg@10", "P_5"], by="model", depth=5)
    >>> r.names, r.by, r.conventions.depth
    (['ndcg@10', 'P_5'], ('model',), 5)
    """
    by, per_query, columns = options.get("by"), options.get("per_query", False), options.get("columns")
    check, aggregate, qrels = (
        options.get("check", True),
        options.get("aggregate", "mean"),
        options.get("qrels"),
    )
    conventions = options.get("conventions")
    overrides = {name: value for name, value in options.items() if name not in OPTIONS}
    converted = None if frame is None else as_polars(frame, "frame")  # first: a bad frame is named first
    keys_by = normalise_by(by)
    for flag, value in (("per_query", per_query), ("check", check)):
        if not isinstance(value, bool):  # check="no" is truthy: refused, not read as True
            raise InvalidInputError.from_type(flag, "True or False", value)
    resolved = Conventions.resolve(conventions, **overrides)
    requested = _engine.named_metrics(metrics)
    if not catalog:
        _engine.refuse_catalog(
            requested,
            "read(s) every list at once and cannot be chunked by query: "
            "use prm.evaluate(lazy_frame, ...).collect(engine='streaming')",
        )
    if per_query and merged is not None:
        _engine.refuse_catalog(
            requested, f"read(s) every list at once: per_query=True gives them in one plan, not {merged}"
        )
    _engine.check_aggregate(aggregate, per_query=per_query, merged=merged)
    if aggregate != "mean":
        _engine.refuse_catalog(
            requested, f"give(s) one value per group, not per query: aggregate={aggregate!r} does not apply"
        )
    return Request(
        metrics=requested,
        by=keys_by,
        per_query=per_query,
        columns=Columns.of(columns),
        conventions=resolved,
        check=check,
        aggregate=aggregate,
        qrels=qrels if frame is None or qrels is None else as_polars(qrels, "qrels"),
        frame=converted,
    )
