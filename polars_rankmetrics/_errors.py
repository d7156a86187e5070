"""Every error message, worded once (narwhals-style factories with a hint).

The same fault gives the same class and the same words wherever it is
found: a bad parameter of a metric, of the conventions or of a function, a
column that is missing or of the wrong type, a name that is not a metric,
and the data errors found inside a plan. Modules raise what these return.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

import polars as pl

from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidInputError,
    InvalidParameterError,
    RankMetricsError,
    TrecFormatError,
    UnknownMetricError,
)

SHOWN = 100
"""Characters of a value quoted in a message: longer values are cut (:func:`shown`, :func:`shown_expr`)."""


def cut(text: str, limit: int = SHOWN) -> str:
    """`text`, cut to `limit` characters and marked with its length when longer."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def shown(value: object, limit: int = SHOWN) -> str:
    """``repr(value)`` as a message quotes it: cut to about `limit` characters.

    An integer too long for Python's decimal conversion (over 4,300 digits)
    is described by its size instead of raising.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _INT_BITS:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except ValueError:  # a container holding such an integer
        text = f"a {type(value).__name__}"
    return cut(text, limit)


_INT_BITS = 14_000  # 2**14000 has 4,215 decimal digits: below Python's default limit of 4,300
CUTOFF_LIMIT = 2**127
"""Cutoffs stay below this: the widest integer a Polars literal holds (no list is that long)."""


def cutoff_too_large(size: str, *, metric: str | None = None, name: str = "k") -> InvalidParameterError:
    """A cutoff too large for a Polars literal (no list is that long); `size` says how large."""
    where = f"`{name}`" if metric is None else f"`{name}` of metric {metric!r}"
    return InvalidParameterError(
        f"{where} must be a positive integer below 2**127 (the widest integer Polars holds; "
        f"no list is that long), got {size}"
    )


def shown_expr(text: pl.Expr, limit: int = SHOWN) -> pl.Expr:
    """The in-plan form of :func:`cut`: a String expression cut to `limit` characters."""
    length = text.str.len_chars()
    short = pl.format("{}... ({} characters)", text.str.slice(0, limit), length)
    return pl.when(length > limit).then(short).otherwise(text)


IN_PLAN_PREFIX = "polars_rankmetrics: "
"""Data errors raised inside a lazy plan carry this prefix; :func:`from_polars` finds it."""


def parameter(name: str, expected: str, got: object, *, metric: str | None = None) -> InvalidParameterError:
    """A parameter outside its domain: ```p` of metric 'rbp' must be in (0, 1), got 2.0``."""
    where = f"`{name}`" if metric is None else f"`{name}` of metric {metric!r}"
    return InvalidParameterError(f"{where} must be {expected}, got {shown(got)}")


def argument_type(name: str, expected: str, got: object) -> InvalidInputError:
    """An argument of the wrong Python type (also a :class:`TypeError`)."""
    return InvalidInputError(f"`{name}` must be {expected}, got {type(got).__name__} {shown(got)}")


def repeated(name: str, values: Iterable[object]) -> InvalidParameterError:
    """A parameter that lists the same column twice (`by`)."""
    listed = ", ".join(shown(v) for v in values)
    return InvalidParameterError(f"`{name}` must name each column once, got {listed} more than once")


def reserved_column(name: str, role: str) -> InvalidParameterError:
    """A column named with the library's internal prefix."""
    return InvalidParameterError(
        f"{role} column {shown(name)}: names starting with '__prm_' are reserved for the library's "
        "internal columns; rename the column"
    )


def shared_column(name: str, first: str, second: str) -> InvalidParameterError:
    """Two roles of :class:`Columns` given the same column."""
    return InvalidParameterError(
        f"the {first} and {second} columns are both {shown(name)}: each role needs its own column "
        f"(copy it first, e.g. frame.with_columns(pl.col({shown(name)}).alias('{second}')))"
    )


def missing_parameter(name: str, expected: str, *, metric: str) -> InvalidParameterError:
    """A parameter without a default that was not given."""
    return InvalidParameterError(f"metric {metric!r} needs `{name}`, {expected}: write {metric}({name}=...)")


def choice(name: str, choices: Iterable[object], got: object) -> InvalidParameterError:
    """A parameter that must be one of a few values."""
    valid = ", ".join(repr(c) for c in choices)
    return InvalidParameterError(f"`{name}` must be one of {valid}, got {shown(got)}")


def tie_policy(metric: str, policy: str, defined: Iterable[str], why: str = "") -> InvalidParameterError:
    """A tie policy a metric does not define: name both, say why, list the metrics that define it."""
    valid = ", ".join(sorted(defined))
    reason = f" ({why})" if why else ""
    return InvalidParameterError(
        f"ties={policy!r} is not defined for metric {metric!r}{reason}; use ties='text' for it, "
        f"or evaluate it separately. ties={policy!r} is defined for: {valid}"
    )


_MATCHED = 200  # names longer than this have no close match


def closest(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The candidates closest to `name` (case-insensitive), best first."""
    if len(name) > _MATCHED:  # nothing valid is that long; difflib would take its time
        return []
    pool = list(dict.fromkeys(candidates))
    lowered: dict[str, str] = {}
    for c in pool:  # the first spelling of a name wins ('ndcg@k' before ir_measures' 'nDCG@k')
        lowered.setdefault(c.lower(), c)
    hits = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.6)
    return [lowered[h] for h in hits]


def unknown_metric(name: str, valid: list[str]) -> UnknownMetricError:
    """A name that is no metric: the closest valid names first, then all of them."""
    # A cutoff as typed ("P_10x") is compared in the list's placeholder form ("P_kx" is close to "P_k").
    near = list(dict.fromkeys([*closest(name, valid), *closest(re.sub(r"\d+", "k", name), valid)]))[:3]
    hint = f"; did you mean {' or '.join(map(repr, near))}?" if near else ""
    return UnknownMetricError(f"unknown metric {shown(name)}{hint} Valid names: {', '.join(valid)}")


CONTRACT_ROLES = ("query", "item", "score", "rank", "relevance")


def column_not_found(
    name: str, role: str, schema: Iterable[str], where: str = "the frame"
) -> ColumnNotFoundError:
    """A column is absent: name its role, a close match, how to rename, and the columns present."""
    present = list(schema)
    near = closest(name, present, n=1)
    if role in CONTRACT_ROLES:
        target = repr(near[0]) if near else "..."
        hint = f" (rename with prm.Columns({role}={target}))"
    else:
        hint = f" (did you mean {near[0]!r}?)" if near else ""
    listed = ", ".join(map(shown, present))
    return ColumnNotFoundError(f"{role} column {shown(name)} not found{hint}; {where} has columns: {listed}")


def column_type(name: str, role: str, expected: str, dtype: object) -> ColumnTypeError:
    """A column of a dtype the evaluation cannot use."""
    return ColumnTypeError(f"{role} column {shown(name)} must be {expected}, got dtype {dtype}")


IN_PLAN_COLUMN = "polars_rankmetrics data error"


def in_plan(message: pl.Expr, error: type[RankMetricsError] = InvalidDataError) -> pl.Expr:
    """An expression that fails inside the plan with `message`, surfacing at collect().

    Polars has no expression that raises, so a strict cast of the message to
    a number does: Polars raises ``InvalidOperationError: conversion from
    `str` to `f64` failed in column 'polars_rankmetrics data error' for 1 out
    of 1 values: ["polars_rankmetrics: <message>"]``. The library's own
    collect (:func:`polars_rankmetrics.collect`, and every DataFrame
    evaluation) turns that into :class:`InvalidDataError` with the message
    alone (:func:`from_polars`).
    """
    tagged = (
        pl.lit(IN_PLAN_PREFIX)
        if error is InvalidDataError
        else pl.lit(f"{IN_PLAN_PREFIX}[{error.__name__}] ")
    )
    return (tagged + message).alias(IN_PLAN_COLUMN).cast(pl.Float64, strict=True)


def intent_frame(item: pl.Expr, query: pl.Expr, intent: pl.Expr | None, column: str | None) -> pl.Expr:
    """An intent frame's broken rule, in the plan: `intent` judged twice, or `column` differing by row."""
    where = pl.format(
        "item {} of query {}", *(shown_expr(k.cast(pl.String)).fill_null("null") for k in (item, query))
    )
    if intent is not None:
        return pl.format(
            "the intent frame judges {} more than once for intent {}", where, intent.cast(pl.String)
        )
    return pl.format(f"the intent frame gives {{}} several values of {column!r}: one per item", where)


def in_plan_name(message: str, error: type[RankMetricsError] = ColumnTypeError) -> str:
    """An expression name that carries `message`: Polars quotes it when that expression fails.

    A column whose dtype a public expression cannot know until the plan runs
    is aliased to it before the operation that refuses the wrong dtypes;
    :func:`from_polars` finds it in Polars' error.
    """
    return f"{IN_PLAN_PREFIX}[{error.__name__}] {message}"


def expr_column(where: str, role: str, column: str, expected: str) -> str:
    """An expression builder's column of a dtype it cannot read."""
    return f"{where}: the {role} column {shown(column)} must be {expected}"


_QUOTED = re.compile(re.escape(IN_PLAN_PREFIX) + r'(.*?)"(?:\]|, "|\))', re.DOTALL)


_TAGGED = {cls.__name__: cls for cls in (TrecFormatError, ColumnTypeError)}

# An exact sum's term that its Int128 fixed point (the term x 2**64) cannot hold.
_FIXED_POINT_OVERFLOW = re.compile(r"conversion from `f64` to `i128` failed.*?values: \[(.*?)\]", re.DOTALL)


SOURCE_ERRORS = (
    OSError,  # a missing or unreadable file (FileNotFoundError...)
    pl.exceptions.ComputeError,  # a file that is not Parquet, or truncated
    pl.exceptions.SchemaError,  # files of one scan that disagree: a dtype, a column
    pl.exceptions.ColumnNotFoundError,
)
"""What reading a scan's files can raise, which :func:`from_source` words as the library's error."""


def from_source(err: BaseException) -> InvalidDataError:
    """A scan whose files cannot be read, or disagree, as :class:`InvalidDataError`.

    The message keeps Polars' first paragraph (which names the file or the
    column, and often a hint), cut to a readable length.
    """
    text = str(err).strip().split("\n\n", 1)[0].strip() or type(err).__name__
    return InvalidDataError(f"cannot read the frame's input ({type(err).__name__}): {cut(text, 4 * SHOWN)}")


def from_polars(err: Exception) -> RankMetricsError | None:
    """The library's error inside a Polars error raised by :func:`in_plan`, or None."""
    text = str(err)
    overflow = _FIXED_POINT_OVERFLOW.search(text)
    if overflow is not None and IN_PLAN_PREFIX not in text:
        return InvalidDataError(
            "a term of a metric's exact sum is not finite or too large: sums are exact in 128-bit "
            "fixed point, which holds terms below 2**63 (about 9.2e18) in magnitude; check the gains "
            "(a gain mapping such as {1: 1e20}) and the grades. The failing terms, scaled by 2**64: "
            f"[{cut(overflow.group(1))}]"
        )
    found = _QUOTED.search(text)
    if found is not None:
        body = found.group(1).strip()
    else:
        start = text.find(IN_PLAN_PREFIX)
        if start < 0:
            return None
        body = text[start + len(IN_PLAN_PREFIX) :].strip().rstrip("\"'").strip()
    tag = re.match(r"\[(\w+)\] ", body)
    if tag and tag.group(1) in _TAGGED:
        return _TAGGED[tag.group(1)](body[tag.end() :])
    return InvalidDataError(body)
