"""The evaluate request: every entry point's options, converted and checked once, in one place.

:func:`polars_rankmetrics.evaluate`, :func:`polars_rankmetrics.evaluate_chunked` and
``polars_rankmetrics.spark.evaluate`` take the same options; each builds a :class:`Request` with
:func:`request` and reads it, so an option is declared, defaulted and refused in one place. The
typed options of the ``.rank`` namespace (:class:`Options` and the TypedDicts built on it) list
the same fields (a test checks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from polars_rankmetrics import _engine
from polars_rankmetrics._engine import Aggregation, MetricLike, Requested
from polars_rankmetrics._schema import Columns, ColumnsLike, normalise_by
from polars_rankmetrics.conventions import ConventionOptions, Conventions, ReadingOptions
from polars_rankmetrics.exceptions import InvalidInputError

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
        The judgments to join to the run, or None when the frame holds them.
    """

    metrics: Requested
    by: tuple[str, ...]
    per_query: bool
    columns: Columns
    conventions: Conventions
    check: bool
    aggregate: Aggregation
    qrels: object | None

    @property
    def names(self) -> list[str]:
        """The metrics' output names, in the order requested."""
        return [name for name, _ in self.metrics]

    @property
    def scoped(self) -> bool:
        """Whether any metric has per-query values (is not catalog-scope)."""
        catalog = _engine.catalog_names(self.metrics)
        return any(name not in catalog for name, _ in self.metrics)


def request(  # noqa: PLR0913
    metrics: MetricLike | Sequence[MetricLike],
    *,
    by: str | Sequence[str] | None = None,
    per_query: bool = False,
    columns: ColumnsLike = None,
    conventions: Conventions | str | None = None,
    check: bool = True,
    aggregate: Aggregation = "mean",
    qrels: object | None = None,
    merged: str | None = None,
    catalog: bool = True,
    overrides: Mapping[str, Any] | None = None,
) -> Request:
    """Parse and check an evaluation's options; every refusal of a combination is here.

    Parameters
    ----------
    metrics, by, per_query, columns, conventions, check, aggregate, qrels
        As for :func:`polars_rankmetrics.evaluate`.
    merged
        Where the per-query values are merged from parts ("chunk by chunk", "on Spark"), for the
        statistics that cannot be merged; None for one plan.
    catalog
        Whether the entry point can compute catalog metrics (evaluate_chunked cannot).
    overrides
        The convention overrides (``depth=``, ``ties=``...).

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
    >>> r = request(["ndcg@10", "P_5"], by="model", overrides={"depth": 5})
    >>> r.names, r.by, r.conventions.depth
    (['ndcg@10', 'P_5'], ('model',), 5)
    """
    keys_by = normalise_by(by)
    for flag, value in (("per_query", per_query), ("check", check)):
        if not isinstance(value, bool):  # check="no" is truthy: refused, not read as True
            raise InvalidInputError.from_type(flag, "True or False", value)
    resolved = Conventions.resolve(conventions, **dict(overrides or {}))
    requested = _engine.requested(metrics)
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
        qrels=qrels,
    )
