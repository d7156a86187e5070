"""Data checks against the frame contract, run eagerly and on request."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from polars_rankmetrics import _quote
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns, ColumnsLike, frame_schema, normalise_by, resolve_schema
from polars_rankmetrics.exceptions import InvalidDataError
from polars_rankmetrics.exceptions import _plan as _errors

__all__ = ["validate"]


_TIMES = "__prm_times"
# Names that usually say "which run": preferred when several columns could be the missing `by`.
_APART = "to evaluate each run apart"
_RUN_NAMES = (
    "run",
    "runid",
    "run_id",
    "model",
    "system",
    "tag",
    "method",
    "algorithm",
    "variant",
    "experiment",
)


def validate(
    frame: object,
    *,
    columns: ColumnsLike = None,
    by: str | Sequence[str] | None = None,
) -> None:
    """Raise :class:`InvalidDataError` if the data breaks the frame contract.

    Checks null query or item ids, NaN or infinite scores, ranks below 1,
    NaN relevance grades, and duplicate (by..., query, item) rows
    ((by..., query, item, intent) rows in a frame with an intent column). A
    LazyFrame is collected on the streaming engine (only the columns the
    checks read; memory grows with the number of distinct ids, not rows).
    :func:`evaluate` runs this on DataFrames unless ``check=False``.

    Parameters
    ----------
    frame
        The evaluation frame: a Polars DataFrame or LazyFrame, or a pandas
        DataFrame, pyarrow Table or Arrow-stream object (converted once).
    columns, by
        As for :func:`evaluate`.

    Raises
    ------
    InvalidDataError
        The message names the column, how many rows break the rule and the
        first offending (query, item). For duplicate rows, when another
        column tells them apart (a run key such as ``model``), the message
        suggests passing it as `by`.
    InvalidInputError
        `frame` is not a frame.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["a", "a"],
    ...     "score": [0.9, 0.5], "relevance": [1, 0]})
    >>> prm.validate(df)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    polars_rankmetrics.exceptions.InvalidDataError: 1 duplicate (query, item) row(s): query=1, item='a' ...
    """
    lf = as_polars(frame).lazy()
    cols, keys_by = Columns.of(columns), normalise_by(by)
    ids, rules, flags, counts = _checks(lf, cols, keys_by)
    try:
        bad, dupes = pl.collect_all([flags, counts], engine="streaming")
    except _errors.SOURCE_ERRORS as err:
        raise _errors.from_source(err) from None
    for name, (_, message) in rules.items():
        hits = bad.filter(pl.col(name)).sort(ids, nulls_last=False)
        if hits.height:
            row = hits.row(0, named=True)
            where = ", ".join(f"{k}={_quote.shown(row[k])}" for k in ids)
            raise InvalidDataError.broken_rule(message, hits.height, where)
    if dupes.is_empty():
        return
    first = dupes.sort(ids).row(0, named=True)
    where = ", ".join(f"{k}={_quote.shown(first[k])}" for k in ids)
    extra = dupes[_TIMES].sum() - dupes.height
    raise InvalidDataError.duplicate_rows(
        ids, extra, where, first[_TIMES], _by_hint(lf, cols, keys_by, dupes)
    )


def _by_hint(lf: pl.LazyFrame, cols: Columns, keys_by: tuple[str, ...], dupes: pl.DataFrame) -> str:
    """A suggestion to pass `by`, when a key-like column differs between duplicated rows; else "".

    Runs on the error path only: one more pass, reading only the duplicated
    rows' candidate columns. A column qualifies if it holds keys (text,
    categories, integers, booleans), is not a contract column, and differs
    within the duplicated (by..., query, item) groups; one that tells every
    duplicate apart wins, a run-like name (``model``, ``run``...) first.
    """
    schema = lf.collect_schema()
    ids = [*keys_by, cols.query, cols.item]
    contract = {*ids, cols.score, cols.rank, cols.relevance}
    candidates = [
        name
        for name, dtype in schema.items()
        if name not in contract
        and (dtype.is_integer() or dtype in (pl.String, pl.Categorical, pl.Enum, pl.Boolean))
    ]
    if not candidates:
        return ""
    rows = lf.select(*ids, *candidates).join(dupes.lazy().select(ids), on=ids, how="semi")
    groups = rows.group_by(ids).agg(pl.len().alias(_TIMES), *(pl.col(c).n_unique() for c in candidates))
    found = groups.select(
        *((pl.col(c) == pl.col(_TIMES)).all().alias(f"all:{c}") for c in candidates),
        *((pl.col(c) > 1).any().alias(f"any:{c}") for c in candidates),
    ).collect(engine="streaming")
    ranked = sorted(candidates, key=lambda c: c.lower() not in _RUN_NAMES)
    for scope in ("all", "any"):
        for name in ranked:
            if found[f"{scope}:{name}"][0]:
                by_ = repr([*keys_by, name]) if keys_by else repr(name)
                if scope == "all":
                    return f"; the column {name!r} differs between them: pass by={by_} {_APART}"
                return (
                    f"; the column {name!r} differs between some of them: if it names a run, "
                    f"pass by={by_} (rows repeated within a run stay an error)"
                )
    return ""


def _checks(
    lf: pl.LazyFrame, cols: Columns, keys_by: tuple[str, ...]
) -> tuple[list[str], dict[str, tuple[pl.Expr, str]], pl.LazyFrame, pl.LazyFrame]:
    """The id columns, the row rules, and the two plans: rows breaking a rule, duplicated ids.

    Both plans stream (no in-memory fallback): memory is bounded by the distinct ids.
    """
    names = frame_schema(lf)
    schema = resolve_schema(names, cols, keys_by, need_relevance=False)
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
    ids += [cols.intent] if cols.intent in names else []  # an intent frame: a row per (query, item, intent)
    flags = lf.select(
        *ids, *(expr.fill_null(value=False).alias(name) for name, (expr, _) in rules.items())
    ).filter(pl.any_horizontal(*rules))
    # Duplicates by a group_by, which streams (is_duplicated() falls back to the in-memory engine).
    counts = lf.group_by(ids).agg(pl.len().alias(_TIMES)).filter(pl.col(_TIMES) > 1)
    return ids, rules, flags, counts
