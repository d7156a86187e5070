"""The in-plan side of the error vocabulary: data errors found inside a lazy plan.

Every message is worded by a factory on its class in
:mod:`polars_rankmetrics.exceptions`; this module holds what a lazy plan
needs to carry one to ``collect()`` (:func:`in_plan`, :func:`in_plan_name`)
and to turn Polars' errors back into the library's (:func:`from_polars`,
:func:`from_source`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

import polars as pl

from polars_rankmetrics._quote import SHOWN, shown
from polars_rankmetrics.exceptions import (
    ColumnTypeError,
    InvalidDataError,
    RankMetricsError,
    TrecFormatError,
)

CUTOFF_LIMIT = 2**127
"""Cutoffs stay below this: the widest integer a Polars literal holds (no list is that long)."""


def shown_expr(text: pl.Expr, limit: int = SHOWN) -> pl.Expr:
    """The in-plan form of :func:`polars_rankmetrics._quote.cut`: a String expression cut to `limit`."""
    length = text.str.len_chars()
    short = pl.format("{}... ({} characters)", text.str.slice(0, limit), length)
    return pl.when(length > limit).then(short).otherwise(text)


IN_PLAN_PREFIX = "polars_rankmetrics: "
"""Data errors raised inside a lazy plan carry this prefix; :func:`from_polars` finds it."""


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
    return InvalidDataError.unreadable_source(type(err).__name__, text)


def from_polars(err: Exception) -> RankMetricsError | None:
    """The library's error inside a Polars error raised by :func:`in_plan`, or None."""
    text = str(err)
    overflow = _FIXED_POINT_OVERFLOW.search(text)
    if overflow is not None and IN_PLAN_PREFIX not in text:
        return InvalidDataError.sum_overflow(overflow.group(1))
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
        return _TAGGED[tag.group(1)].from_worded(body[tag.end() :])
    return InvalidDataError.from_worded(body)


class Described(Protocol):
    """How a per-row input names itself in messages (``_spec.RowInput``)."""

    @property
    def where(self) -> str: ...
    @property
    def what(self) -> str: ...
    @property
    def domain(self) -> str: ...
    @property
    def ok(self) -> Callable[[pl.Expr], pl.Expr]: ...


def row_input(source: Described, value: pl.Expr, at: pl.Expr) -> pl.Expr:
    """A row's per-row input that is missing or out of its domain, in words; null when it is fine.

    ```propensities` has no propensity for item 'a' of query 'q1'`` or ```weights` gives item 'a'
    of query 'q1' the weight NaN: weights must be finite and >= 0``. `where` is the parameter that
    gives the value, `what` its name, `domain` what it must be (`ok` says whether it is): `source`'s;
    `at` names the row.
    """
    number = value.cast(pl.Float64)
    where, what, domain = source.where, source.what, source.domain
    missing = pl.format(f"{where} has no {what} for {{}}", at)
    outside = pl.format(
        f"{where} gives {{}} the {what} {{}}: a {what} must be {domain}", at, number.cast(pl.String)
    )
    fine = source.ok(number) & number.is_finite()
    return pl.when(number.is_null()).then(missing).when(~fine.fill_null(value=False)).then(outside)
