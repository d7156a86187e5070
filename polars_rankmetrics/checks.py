"""Data checks against the frame contract, run eagerly and on request."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from polars_rankmetrics._schema import Columns, normalise_by, resolve_schema
from polars_rankmetrics.exceptions import InvalidDataError

__all__ = ["validate"]


_TIMES = "__prm_times"


def validate(
    frame: pl.DataFrame | pl.LazyFrame,
    *,
    columns: Columns | None = None,
    by: str | Sequence[str] | None = None,
) -> None:
    """Raise :class:`InvalidDataError` if the data breaks the frame contract.

    Checks null query or item ids, NaN or infinite scores, ranks below 1,
    NaN relevance grades, and duplicate (by..., query, item) rows. A
    LazyFrame is collected on the streaming engine (only the columns the
    checks read; memory grows with the number of distinct ids, not rows).
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
    >>> prm.validate(df)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    polars_rankmetrics.exceptions.InvalidDataError: 1 duplicate (query, item) row(s): query=1, item='a' ...
    """
    ids, rules, flags, counts = _checks(frame.lazy(), columns or Columns(), normalise_by(by))
    bad, dupes = pl.collect_all([flags, counts], engine="streaming")
    for name, (_, message) in rules.items():
        hits = bad.filter(pl.col(name)).sort(ids, nulls_last=False)
        if hits.height:
            row = hits.row(0, named=True)
            where = ", ".join(f"{k}={row[k]!r}" for k in ids)
            msg = f"{message}: {hits.height} row(s), first at {where}"
            raise InvalidDataError(msg)
    if dupes.is_empty():
        return
    first = dupes.sort(ids).row(0, named=True)
    where = ", ".join(f"{k}={first[k]!r}" for k in ids)
    what = ", ".join(ids)
    extra = dupes[_TIMES].sum() - dupes.height
    msg = f"{extra} duplicate ({what}) row(s): {where} appears {first[_TIMES]} times"
    raise InvalidDataError(msg)


def _checks(
    lf: pl.LazyFrame, cols: Columns, keys_by: tuple[str, ...]
) -> tuple[list[str], dict[str, tuple[pl.Expr, str]], pl.LazyFrame, pl.LazyFrame]:
    """The id columns, the row rules, and the two plans: rows breaking a rule, duplicated ids.

    Both plans stream (no in-memory fallback): memory is bounded by the distinct ids.
    """
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
        *ids, *(expr.fill_null(value=False).alias(name) for name, (expr, _) in rules.items())
    ).filter(pl.any_horizontal(*rules))
    # Duplicates by a group_by, which streams (is_duplicated() falls back to the in-memory engine).
    counts = lf.group_by(ids).agg(pl.len().alias(_TIMES)).filter(pl.col(_TIMES) > 1)
    return ids, rules, flags, counts
