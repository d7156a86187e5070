"""Two sets of judgments read side by side: checked (query, item, grade) rows and their full join."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)

__all__ = ["GRADE_A", "GRADE_B", "check_scale", "judged", "side_by_side"]

GRADE_A = "grade_a"
GRADE_B = "grade_b"
_EXAMPLES = 3
_SHOWN = 8  # grades listed in the message
_SPREAD = 2.0  # a top grade more than twice the other side's is another scale
_SMALLEST_TOP = 3.0  # ... or than twice 3, the top of the smallest graded scale (0-3)


def judged(qrels: object, what: str, cols: Columns) -> pl.DataFrame:
    """The judged rows of `qrels` (null grades are unjudged): query, item and the grade as Float64.

    Raises the library's errors for a missing or non-numeric column, a null
    id, a NaN or infinite grade, or a (query, item) judged twice.
    """
    frame = as_polars(qrels, what).lazy()
    schema = frame.collect_schema()
    for role in ("query", "item", "relevance"):
        name = getattr(cols, role)
        if name not in schema:
            raise ColumnNotFoundError.from_missing_and_available(name, f"`{what}`'s {role}", schema.names())
    if not schema[cols.relevance].is_numeric():
        raise ColumnTypeError.from_dtype(cols.relevance, "relevance", "numeric", schema[cols.relevance])
    df = frame.select(cols.query, cols.item, pl.col(cols.relevance).cast(pl.Float64)).collect()
    for name in (cols.query, cols.item):
        if df.get_column(name).null_count():
            raise InvalidDataError.nulls_in(f"`{what}`", name, "null ids")
    df = df.filter(pl.col(cols.relevance).is_not_null())
    bad = df.filter(~pl.col(cols.relevance).is_finite())
    if bad.height:
        row = bad.row(0, named=True)
        where = f"query {row[cols.query]!r}, item {row[cols.item]!r}"
        raise InvalidDataError.not_finite(f"`{what}`'s column {cols.relevance!r}", bad.height, where)
    twice = df.group_by(cols.query, cols.item).len().filter(pl.col("len") > 1)
    if twice.height:
        row = twice.sort(cols.query, cols.item).row(0, named=True)
        where = f"({row[cols.query]!r}, {row[cols.item]!r})"
        raise InvalidDataError.duplicate_rows((cols.query, cols.item), twice.height, where, row["len"])
    return df


def _grades(df: pl.DataFrame, cols: Columns) -> list[float]:
    return sorted(df.get_column(cols.relevance).unique().to_list())


def check_scale(a: pl.DataFrame, b: pl.DataFrame, cols: Columns, scale: Sequence[float] | None) -> None:
    """Both sets of judgments grade on one scale: the given `scale`, or scales that can be one.

    Without `scale`, the scales differ when one side grades with fractions and
    the other with whole numbers (a probability against 0-3), or when one
    side's top grade is more than twice the other's, or than twice 3 (0-100
    against 0-3, 0-10 against 0-4). A side that never gives some grade (a
    model that never says 3) is not told apart from one on a smaller scale.
    """
    ga, gb = _grades(a, cols), _grades(b, cols)
    if scale is not None:
        if isinstance(scale, str | bytes) or not isinstance(scale, Sequence) or not scale:
            raise InvalidParameterError.out_of_domain("scale", "a non-empty sequence of grades", scale)
        allowed = {float(g) for g in scale}
        for what, grades in (("qrels_a", ga), ("qrels_b", gb)):
            outside = [g for g in grades if g not in allowed]
            if outside:
                shown = ", ".join(f"{g:g}" for g in outside[:_EXAMPLES])
                raise InvalidDataError.unusable(what, f"holds grades outside `scale`: {shown}")
        return
    if not ga or not gb:
        return
    whole_a, whole_b = (all(g == int(g) for g in gs) for gs in (ga, gb))
    top_a, top_b = max(abs(g) for g in ga), max(abs(g) for g in gb)
    if whole_a != whole_b or max(top_a, top_b) > _SPREAD * max(min(top_a, top_b), _SMALLEST_TOP):
        listed = "; ".join(
            f"`{w}` {', '.join(f'{g:g}' for g in gs[:_SHOWN])}{' ...' if len(gs) > _SHOWN else ''}"
            for w, gs in (("qrels_a", ga), ("qrels_b", gb))
        )
        why = (
            f"grades on another scale than `qrels_a` ({listed}); "
            "map one onto the other, or pass scale=[...] naming the grades both use"
        )
        raise InvalidDataError.unusable("qrels_b", why)


def side_by_side(a: pl.DataFrame, b: pl.DataFrame, cols: Columns) -> pl.DataFrame:
    """One row per (query, item) either side judged: `grade_a`, `grade_b` (null: not judged by that side)."""
    for name in (cols.query, cols.item):
        if a.schema[name] != b.schema[name]:
            first = f"column {name!r} is {a.schema[name]} in `qrels_a`"
            raise ColumnTypeError.mismatch(first, f"{b.schema[name]} in `qrels_b`")
    left = a.rename({cols.relevance: GRADE_A})
    right = b.rename({cols.relevance: GRADE_B})
    return left.join(right, on=[cols.query, cols.item], how="full", coalesce=True)
