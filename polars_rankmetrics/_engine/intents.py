"""Frames with an intent column: one row per (query, item) for the ranking, the relevant intents as a list.

An intent (diversity) frame has one row per (by..., query, item, intent) for
the judged items and one row with a null intent for the unjudged retrieved
ones. Every metric reads one row per item: the item's rows become one,
with the item's score (the highest of its rows; for a rank, the lowest),
its relevance (the highest grade of its judgments: an item relevant to
some intent is relevant) and the intents it is relevant to
(:data:`~polars_rankmetrics._kernel.INTENTS`, for the intent-aware
metrics). A frame without an intent column is read as one intent per
query: a relevant item is relevant to the intent ``"0"`` (ndeval's reading
of a TREC qrels file, whose second field is 0).
"""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._kernel import INTENTS
from polars_rankmetrics._schema import Columns, frame_schema
from polars_rankmetrics.exceptions import _plan as _errors

ONE_INTENT = "0"


def _relevant(grade: pl.Expr, relevance_level: float) -> pl.Expr:
    """A judgment's relevance, as the ranking's classes read it: ``>= relevance_level`` and ``>= 0``."""
    return ((grade >= relevance_level) & (grade >= 0)).fill_null(value=False)


def _problem(columns: Columns, keys: list[str], order: str | None) -> pl.Expr:
    """Per row, what breaks the intent frame's contract, in words, or null (windows over the item's rows)."""
    item, query, intent = pl.col(columns.item), pl.col(columns.query), pl.col(columns.intent)
    twice = intent.is_not_null() & (pl.len().over([*keys, columns.intent]) > 1)
    found = [pl.when(twice).then(_errors.intent_frame(item, query, intent, None))]
    if order is not None:  # every row of an item carries its one score (or rank)
        differ = pl.col(order).max().over(keys) != pl.col(order).min().over(keys)
        found.append(pl.when(differ).then(_errors.intent_frame(item, query, None, order)))
    return pl.coalesce(found)


def _checked(value: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """An item's aggregated `value`, failing inside the plan on the first problem of its rows."""
    failing = _errors.in_plan(pl.col(_PROBLEM).drop_nulls().first()).cast(dtype)
    return pl.when(pl.col(_PROBLEM).null_count() == pl.len()).then(value).otherwise(failing)


_PROBLEM = "__prm_intent_problem"


def by_item(  # noqa: PLR0913
    lf: pl.LazyFrame,
    columns: Columns,
    by: tuple[str, ...],
    relevance_level: float,
    *,
    lists: bool,
    check: bool = False,
) -> pl.LazyFrame:
    """`lf` with one row per (by..., query, item); with `lists`, each row's relevant intents in INTENTS.

    A frame without an intent column is returned as it is (with a one-intent
    list on its relevant rows when `lists`); one that lacks a key column
    too, so the frame contract's checks name what is missing. With `check`, an
    intent judged twice for an item, or an item whose rows differ in score
    (or rank), fails the plan with :class:`InvalidDataError` naming them.
    """
    schema = frame_schema(lf)  # a scan that cannot be read raises the library's error
    keys = [*by, columns.query, columns.item]
    grade = pl.col(columns.relevance)
    if columns.intent not in schema or not all(k in schema for k in keys):
        if not lists or columns.relevance not in schema:
            return lf
        one = pl.lit([ONE_INTENT], dtype=pl.List(pl.String))
        return lf.with_columns(pl.when(_relevant(grade, relevance_level)).then(one).alias(INTENTS))
    kept = [
        (columns.score, pl.col(columns.score).max()),
        (columns.rank, pl.col(columns.rank).min()),
        (columns.relevance, grade.max()),
    ]
    values = [value for name, value in kept if name in schema]
    if check:
        order = columns.ranked_by(schema.names())
        lf = lf.with_columns(_problem(columns, keys, order).alias(_PROBLEM))
        values = [_checked(value, schema[name]).alias(name) for name, value in kept if name in schema]
    if lists and columns.relevance in schema:
        intent = pl.col(columns.intent).cast(pl.String)
        relevant = _relevant(grade, relevance_level) & intent.is_not_null()
        values.append(intent.filter(relevant).unique().alias(INTENTS))
    return lf.group_by(keys).agg(values)
