"""The evaluation engine: prepare (one ranking), plan, aggregate, population, in-plan errors.

The public modules (``evaluate``, ``chunked``, the adapters) call it through
the names below and nothing else:

- :func:`named_metrics` parses what the user asked for, each metric with its output name;
- :func:`build` ranks once and returns a :class:`Plan` (per-query values
  and catalog frames), :func:`evaluated` says which per-query rows count;
  :func:`item_digits` reads what the ranking's packed key needs of a frame
  in memory;
- :func:`aggregated` combines per-query rows into one row per `by` group;
  :func:`states`, :func:`merge` and :func:`finish` are its three steps, for
  evaluations split across chunks or machines (each query alone gives the
  same states, so any split gives the same bits);
- :func:`counted`, :func:`catalog_counts` and :func:`counted_value` split a
  catalog metric into tables of sums (per part of the lists) and its value
  from their merged table, for the Spark adapter;
- :func:`population_counts` counts the queries of each population case;
- :func:`collect` and :func:`finish_frame` collect a plan, turning in-plan
  data errors into the library's :class:`InvalidDataError`.
"""

from __future__ import annotations

from typing import TypeVar

import polars as pl

from polars_rankmetrics._engine.aggregate import (
    AGGREGATIONS,
    QUERIES,
    Aggregation,
    aggregated,
    check_aggregate,
    finish,
    merge,
    states,
)
from polars_rankmetrics._engine.order import widest_digits
from polars_rankmetrics._engine.plan import (
    N_JUDGED,
    N_RELEVANT,
    N_RETRIEVED,
    MetricLike,
    NamedMetrics,
    Plan,
    build,
    catalog_counts,
    catalog_names,
    catalog_value,
    check_ties,
    counted,
    counted_value,
    evaluated,
    input_columns,
    named_metrics,
    per_list_values,
    refuse_catalog,
)
from polars_rankmetrics._plans import as_plan
from polars_rankmetrics._schema import Columns
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.exceptions import _plan as _errors

__all__ = [
    "AGGREGATIONS",
    "QUERIES",
    "Aggregation",
    "MetricLike",
    "NamedMetrics",
    "Plan",
    "aggregated",
    "build",
    "catalog_counts",
    "catalog_names",
    "catalog_value",
    "check_aggregate",
    "check_ties",
    "collect",
    "counted",
    "counted_value",
    "evaluated",
    "finish",
    "finish_frame",
    "input_columns",
    "item_digits",
    "merge",
    "named_metrics",
    "per_list_values",
    "population_counts",
    "refuse_catalog",
    "states",
]

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)


def item_digits(frame: pl.DataFrame | pl.LazyFrame, columns: Columns) -> int | None:
    """The decimal digits of a frame's widest integer item, for :func:`build`; None unless in memory.

    One min and max of the column: a LazyFrame's would cost a pass over its source.
    """
    if not isinstance(frame, pl.DataFrame) or columns.item not in frame.columns:
        return None
    return widest_digits(frame.get_column(columns.item))


def population_counts(_per_query: pl.LazyFrame, conventions: Conventions) -> list[pl.Expr]:
    """The population rules' counts over per-query rows (:func:`polars_rankmetrics.population`)."""
    counted = evaluated(conventions)
    judged = pl.col(N_JUDGED) > 0
    return [
        pl.len().alias("queries"),
        counted.sum().alias("evaluated"),
        (counted & (pl.col(N_RELEVANT) == 0)).sum().alias("no_relevant"),
        (judged & (pl.col(N_RETRIEVED) == 0)).sum().alias("qrels_only"),
        (~judged).sum().alias("run_only"),
    ]


def collect(lf: pl.LazyFrame, **kwargs: object) -> pl.DataFrame:
    """``lf.collect(**kwargs)``, with in-plan data errors raised as the library's error."""
    try:
        return lf.collect(**kwargs)  # type: ignore[call-overload, no-any-return]
    except (pl.exceptions.PolarsError, OSError) as err:
        ours = _errors.from_polars(err)
        if ours is not None:
            raise ours from None  # the message is all of Polars' text that says anything
        if isinstance(err, _errors.SOURCE_ERRORS):
            raise _errors.from_source(err) from None
        raise


def finish_frame(lf: pl.LazyFrame, frame: FrameT) -> FrameT:
    """`lf` for a LazyFrame input (a :class:`~polars_rankmetrics._plans.Plan`); collected for a DataFrame."""
    if isinstance(frame, pl.LazyFrame):
        return as_plan(lf)
    return collect(lf)
