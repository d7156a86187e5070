"""The group view: one group's rows as a query, read by the metrics' own definitions.

:func:`query_expr` turns a :class:`~polars_rankmetrics.Metric` into one
``pl.Expr`` that aggregates the rows of the current group (a
``group_by().agg()`` group, an ``over()`` window, a whole frame in
``select``):

1. the group's (grade, retrieved) pairs become one struct column, sorted
   once in trec_eval's order: score descending (or rank ascending), ties
   broken by the item's text descending, unretrieved rows last;
2. that sorted column is imploded to one list and ``list.eval`` reads it,
   so the sort runs once however often the metric reads the ranks;
3. inside, a :class:`~polars_rankmetrics._kernel.Rows` view computes the
   ranks as running counts of the sorted rows, the per-query counts as
   sums, the gains and the ideal order as ``_engine.prepare`` defines them,
   and the metric's spec computes its value from that view, exactly as
   evaluate's plan does from the prepared frame.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl
import polars.selectors as cs

from polars_rankmetrics._engine.plan import DTYPES
from polars_rankmetrics._engine.prepare import gain_expr, ideal_order, relevance_classes
from polars_rankmetrics._kernel import Rows, query_scale
from polars_rankmetrics._spec import Metric, QuerySpec, TableSpec
from polars_rankmetrics.conventions import Conventions, Gain
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions import _plan as _errors

__all__ = ["group_rows", "own_gain", "query_expr", "sorted_rows"]

_GRADE, _LISTED = "grade", "listed"


def _numeric(column: str, role: str, where: str) -> pl.Expr:
    """`column` if numeric (a Decimal as Float64, as evaluate reads it); an error naming `where` otherwise.

    A Decimal column is selected into Float64 (selectors resolve against the
    schema, so the expression needs no dtype): one field of a struct either
    way. ``is_nan`` then accepts every integer and float dtype (and Null) and
    rejects strings, booleans, dates and nested dtypes; it is null exactly
    where the value is, so the expression is the column itself (NaN stays NaN).
    """
    named = cs.by_name(column)
    value = pl.struct(named - cs.decimal(), (named & cs.decimal()).cast(pl.Float64)).struct[0]
    # The alias names us in Polars' message ("This error occurred in the following expression").
    probe = value.alias(_errors.expr_column(where, role, column, "numeric")).is_nan()
    return pl.when(probe.is_null()).then(None).otherwise(value)


def sorted_rows(metric: Metric, order: str, *, by_rank: bool, item: str, relevance: str) -> pl.Expr:
    """The group's rows as a struct of (grade, listed), in trec_eval's order, unretrieved last."""
    where = f"polars_rankmetrics.expr.{metric.spec.python_name}"
    key = _numeric(order, "rank" if by_rank else "score", where)
    grade = _numeric(relevance, "relevance", where).cast(pl.Float64)
    rows = pl.struct(grade.alias(_GRADE), key.is_not_null().alias(_LISTED), *_inputs(metric, item, where))
    scalar = _errors.expr_column(where, "item", item, "of a scalar dtype (not a list, struct or object)")
    # The probe's alias survives in Polars' error (to_physical keeps the cast from folding it away).
    probe = pl.col(item).alias(_errors.in_plan_name(scalar)).to_physical().cast(pl.String)
    item_text = pl.when(probe.is_null()).then(None).otherwise(pl.col(item).cast(pl.String))
    return rows.sort_by([key, item_text], descending=[not by_rank, True], nulls_last=True)


def _inputs(metric: Metric, item: str, where: str) -> list[pl.Expr]:
    """The metric's per-row inputs (``RowInput``) as fields of the group's rows: columns only, no joins."""
    spec = metric.spec
    if not isinstance(spec, (QuerySpec, TableSpec)) or spec.inputs is None:
        return []
    fields: list[pl.Expr] = []
    for row_input in spec.inputs(metric):
        if row_input.column is None:
            raise InvalidParameterError.out_of_domain(
                row_input.where.strip("`"), "a column name in an expression (join a side frame first)",
                "a frame", metric=spec.name,
            )  # fmt: skip
        value = _numeric(row_input.column, row_input.where.strip("`"), where).cast(pl.Float64)
        at = pl.format("item '{}'", pl.col(item).cast(pl.String))
        fields += [
            value.alias(row_input.name),
            _errors.row_input(row_input, value, at).alias(row_input.bad),
        ]
    return fields


def _running(mask: pl.Expr) -> pl.Expr:
    """1, 2, ... over the rows where `mask` holds (in row order); null elsewhere."""
    return pl.when(mask).then(mask.cum_sum().cast(pl.UInt32))


def group_rows(conventions: Conventions, gain: Gain) -> Rows:
    """The view of one query's rows, sorted in rank order, as the elements of a list (``pl.element()``)."""
    grade = pl.element().struct.field(_GRADE)
    listed = pl.element().struct.field(_LISTED)
    if conventions.judgments == "retrieved":
        grade = pl.when(listed).then(grade)
    judged, relevant = relevance_classes(grade, conventions.relevance_level)
    depth = conventions.depth
    # The listed rows come first, in trec_eval's order: a row's position is its rank in the full list.
    position = pl.int_range(1, pl.len() + 1, dtype=pl.UInt32)
    within_depth = listed if depth is None else listed & (position <= depth)
    if conventions.judged_only:
        # trec_eval -J after -M: cut the full list at the depth, then rank the judged items left.
        rank = _running(within_depth & judged)
    else:
        rank = pl.when(within_depth).then(position)
    ranked = rank.is_not_null()

    def per_row(count: pl.Expr) -> pl.Expr:
        # A count on every row, as the prepared frame's window columns: arithmetic between a
        # column and a count then runs column by column, as in evaluate (a scalar divisor would
        # be applied as a multiplication by its reciprocal, one ulp off).
        return pl.when(position > 0).then(count.cast(pl.UInt32))

    gains = gain_expr(grade, gain, conventions.relevance_level)
    return Rows(
        rank=rank,
        rel=relevant,
        grade=grade,
        hit_rank=_running(relevant & ranked),
        judged_rank=_running(judged & ranked),
        pool_rank=_running(grade.is_not_null() & ranked),
        num_rel=per_row(relevant.sum()),
        num_nonrel=per_row((judged & ~relevant).sum()),
        num_ret=per_row(ranked.sum()),
        gain=gains,
        ideal_rank=ideal_order(gains),
        keys=None,
        iprec_rule=conventions.iprec_rule,
        ap_denominator=conventions.ap_denominator,
        # The query's gain scale in place: 2**64, exact_sum's grid, unless every gain is below 2**-3.
        gain_scale=query_scale(gains),
        conventions=conventions,
        fields=pl.element().struct.field,
    )


def own_gain(gain: Gain) -> Mapping[float, float] | None:
    """A builder's `gain` as the metric's own mapping (shown in its name), or None for a convention name."""
    return gain if isinstance(gain, Mapping) else None


def _column_name(value: object, role: str) -> str:
    if not isinstance(value, str):
        raise InvalidParameterError.out_of_domain(role, "a column name (str)", value)
    return value


def query_expr(  # noqa: PLR0913  (the columns and conventions, each named)
    metric: Metric,
    *,
    item: str,
    score: str,
    rank: str | None,
    relevance: str,
    relevance_level: float,
    depth: int | None,
    judged_only: bool,
    gain: Gain = "linear",
) -> pl.Expr:
    """`metric`'s value for the rows of the current group as one query, named ``str(metric)``.

    Null for a group without a judged row (a query evaluate does not
    evaluate). Parameters are checked here; column dtypes when the plan runs.
    """
    spec = metric.spec
    if isinstance(spec, QuerySpec):
        per_query = spec.value
    elif isinstance(spec, TableSpec) and spec.ordered is not None:
        per_query = spec.ordered  # the table's value from the group's rows in rank order
    else:  # pragma: no cover  (the builders only pass specs with a per-query expression)
        msg = f"{metric} is not computed from one query's rows"
        raise TypeError(msg)
    for name, role in ((item, "item"), (score, "score"), (relevance, "relevance")):
        _column_name(name, role)
    if rank is not None:
        _column_name(rank, "rank")
    conventions = Conventions(
        depth=depth, relevance_level=relevance_level, judged_only=judged_only, gain=gain
    )
    why = spec.refuse(metric, conventions) if spec.refuse is not None else None
    if why:
        raise InvalidParameterError.refused(f"metric {str(metric)!r}", why)
    own: Mapping[float, float] | None = metric.gain()
    view = group_rows(conventions, own or conventions.gain)
    value = per_query(metric, view).cast(DTYPES[spec.kind])
    # trec_eval evaluates no query without a judgment: say so with a null, not a 0.
    value = pl.when(view.grade.is_not_null().any()).then(value)
    rows = sorted_rows(metric, rank or score, by_rank=rank is not None, item=item, relevance=relevance)
    return rows.implode().list.eval(value).list.first().alias(str(metric))
