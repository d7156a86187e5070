"""Data checks against the frame contract, run eagerly and on request."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from polars_rankmetrics._schema import Columns, normalise_by, resolve_schema
from polars_rankmetrics.exceptions import InvalidDataError

__all__ = ["validate"]


def validate(
    frame: pl.DataFrame | pl.LazyFrame,
    *,
    columns: Columns | None = None,
    by: str | Sequence[str] | None = None,
) -> None:
    """Raise :class:`InvalidDataError` if the data breaks the frame contract.

    Checks null query or item ids, NaN or infinite scores, ranks below 1,
    NaN relevance grades, and duplicate (by..., query, item) rows. A
    LazyFrame is collected (only the columns the checks read).
    :func:`evaluate` runs this on DataFrames unless ``check=False``.

    Parameters
    ----------
    frame
        The evaluation frame.
    columns, by
        As for :func:`evaluate`.

    Raises
    ------
    InvalidDataError
        The message names the column, how many rows break the rule and the
        first offending (query, item).

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["a", "a"],
    ...     "score": [0.9, 0.5], "relevance": [1, 0]})
    >>> prm.validate(df)
    Traceback (most recent call last):
    ...
    polars_rankmetrics.exceptions.InvalidDataError: 1 duplicate (query, item) row(s): query=1, item='a' appears 2 times
    """
    cols = columns or Columns()
    keys_by = normalise_by(by)
    lf = frame.lazy()
    schema = resolve_schema(lf.collect_schema(), cols, keys_by, need_relevance=False)
    names = lf.collect_schema()
    order = pl.col(schema.order_column)
    rules: dict[str, tuple[pl.Expr, str]] = {
        "null_query": (pl.col(cols.query).is_null(), f"query column {cols.query!r} holds null ids"),
        "null_item": (pl.col(cols.item).is_null(), f"item column {cols.item!r} holds null ids"),
    }
    for key in keys_by:
        rules[f"null_{key}"] = (pl.col(key).is_null(), f"by column {key!r} holds null values")
    if schema.order_is_rank:
        rules["bad_rank"] = (order < 1, f"rank column {schema.order_column!r} holds ranks below 1")
    elif names[schema.order_column].is_float():
        rules["bad_score"] = (
            order.is_not_null() & ~order.is_finite(),
            f"score column {schema.order_column!r} holds NaN or infinite scores",
        )
    if cols.relevance in names and names[cols.relevance].is_float():
        rules["bad_relevance"] = (
            pl.col(cols.relevance).is_nan(),
            f"relevance column {cols.relevance!r} holds NaN grades (use null for unjudged)",
        )
    ids = [*keys_by, cols.query, cols.item]
    flags = lf.select(
        *ids,
        *(expr.fill_null(value=False).alias(name) for name, (expr, _) in rules.items()),
        pl.struct(ids).is_duplicated().alias("duplicate"),
    ).filter(pl.any_horizontal(*rules, "duplicate"))
    bad = flags.collect()
    if bad.is_empty():
        return
    for name, (_, message) in rules.items():
        hits = bad.filter(pl.col(name))
        if hits.height:
            row = hits.row(0, named=True)
            where = ", ".join(f"{k}={row[k]!r}" for k in ids)
            msg = f"{message}: {hits.height} row(s), first at {where}"
            raise InvalidDataError(msg)
    dupes = bad.filter(pl.col("duplicate"))
    first = dupes.row(0, named=True)
    times = dupes.filter(pl.all_horizontal(pl.col(k) == first[k] for k in ids)).height
    where = ", ".join(f"{k}={first[k]!r}" for k in ids)
    what = ", ".join(ids)
    msg = f"{dupes.height - dupes.unique(ids).height} duplicate ({what}) row(s): {where} appears {times} times"
    raise InvalidDataError(msg)
