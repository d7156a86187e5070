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
from polars_rankmetrics._schema import Columns

ONE_INTENT = "0"


def _relevant(grade: pl.Expr, relevance_level: float) -> pl.Expr:
    """A judgment's relevance, as the ranking's classes read it: ``>= relevance_level`` and ``>= 0``."""
    return ((grade >= relevance_level) & (grade >= 0)).fill_null(value=False)


def by_item(
    lf: pl.LazyFrame, columns: Columns, by: tuple[str, ...], relevance_level: float, *, lists: bool
) -> pl.LazyFrame:
    """`lf` with one row per (by..., query, item); with `lists`, each row's relevant intents in INTENTS.

    A frame without an intent column is returned as it is (with a one-intent
    list on its relevant rows when `lists`); one that lacks a key column
    too, so the frame contract's checks name what is missing.
    """
    schema = lf.collect_schema()
    keys = [*by, columns.query, columns.item]
    grade = pl.col(columns.relevance)
    if columns.intent not in schema or not all(k in schema for k in keys):
        if not lists or columns.relevance not in schema:
            return lf
        one = pl.lit([ONE_INTENT], dtype=pl.List(pl.String))
        return lf.with_columns(pl.when(_relevant(grade, relevance_level)).then(one).alias(INTENTS))
    values = [
        pl.col(columns.score).max() if columns.score in schema else None,
        pl.col(columns.rank).min() if columns.rank in schema else None,
        grade.max() if columns.relevance in schema else None,
    ]
    if lists and columns.relevance in schema:
        intent = pl.col(columns.intent).cast(pl.String)
        relevant = _relevant(grade, relevance_level) & intent.is_not_null()
        values.append(intent.filter(relevant).unique().alias(INTENTS))
    return lf.group_by(keys).agg([v for v in values if v is not None])
