"""Per-row propensities and weights from a side frame or a column: the plan pieces of the propensity families.

A propensity family (``psp``, ``ips_rbp``...) reads one number per row: an
item's propensity ``p`` (the chance its relevance is observed, in (0, 1]), or
a weight ``w`` (an inverse propensity, finite and >= 0). It comes from

- a column of the evaluation frame (``propensities="p"``): per row;
- a side frame, read by name as every side frame (:func:`~polars_rankmetrics.metrics._side.by_role`,
  the names of :data:`~polars_rankmetrics.metrics._side.ROLE_NAMES`): an item column, the value
  column (propensity, weight or count), and optionally a query column, which makes the value
  per (query, item); ``columns={"item": "movie", "propensity": "ps"}`` (or a
  ``prm.Columns``) names them when their names differ;
- a training-count frame (item, count) with the number of training instances
  ``n`` (Jain, Prabhu and Varma, KDD 2016): ``p = 1 / (1 + C (N_l + B)^-A)``,
  ``C = (ln N - 1) (B + 1)^A``; an item without a row has count 0, as in a
  label matrix.

A DataFrame side input is checked when the metric is built (columns, null or
duplicate ids, values out of range: the error names the item); a LazyFrame's
duplicates fail when the plan runs, and a missing or out-of-range value fails
in the plan on a row the family reads, naming the item and the query.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping

import polars as pl

from polars_rankmetrics._spec import Metric, RowInput
from polars_rankmetrics.exceptions import (
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.metrics._side import (
    as_lazy,
    by_role,
    columns_of,
    item_text,
    optional_role,
    same_dtype,
    side_param,
)

PRESETS: dict[str, tuple[float, float]] = {"jain": (0.55, 1.5), "wikipedia": (0.5, 0.4), "amazon": (0.6, 2.6)}
"""Jain et al.'s (A, B) per data set: their default, Wikipedia-LSHTC and Amazon-670K (pyxclib's comments)."""

Rule = Callable[[pl.Expr], pl.Expr]
Join = Callable[[pl.LazyFrame, str, str], pl.LazyFrame]
_ID, _QID, _DUP = "__prm_side_item", "__prm_side_query", "__prm_side_rows"


def _layout(
    value: object, what: str, role: str, mapping: Mapping[str, str], *, eager: bool
) -> tuple[pl.LazyFrame, list[str]]:
    """The side frame as a LazyFrame and its (item, value, query or absent) columns, checked when eager.

    Read by name (:func:`~polars_rankmetrics.metrics._side.by_role`): the item and `role` columns
    are needed, a query column (``user`` role) is read when the frame has one or ``columns=`` names it.
    """
    frame = as_lazy(value, what)
    schema = frame.collect_schema()
    names = schema.names()
    query = optional_role(names, what, "user", mapping)
    item, number = by_role(names, what, ("item", role), mapping, beside=() if query is None else (query,))
    if not schema[number].is_numeric():
        raise ColumnTypeError.from_dtype(number, f"the {role}", "numeric", schema[number])
    keys = [item] if query is None else [query, item]
    if eager and isinstance(value, pl.DataFrame):
        for column in keys:
            if value[column].null_count():
                raise InvalidDataError.nulls_in(f"`{what}`", column, "null ids")
        repeated = value.select(keys).is_duplicated()
        if repeated.any():
            example = value.filter(repeated).select(keys).row(0)
            example = example[0] if len(example) == 1 else example
            remedy = "give one row per item" if query is None else "give one row per (query, item)"
            raise InvalidDataError.repeated_value(f"`{what}`", " and ".join(keys), example, remedy)
    return frame, [item, number, *([] if query is None else [query])]


def _check_values(  # noqa: PLR0913  (the frame, its columns, the rule)
    value: object,
    what: str,
    columns: list[str],
    *,
    name: str,
    rule: Callable[[pl.Expr], pl.Expr],
    domain: str,
) -> None:
    """Refuse a DataFrame side input with a value outside its domain, naming the first such item."""
    if not isinstance(value, pl.DataFrame):
        return
    item, number = columns[0], columns[1]
    column = pl.col(number).cast(pl.Float64)
    bad = value.filter(~(rule(column) & column.is_finite()).fill_null(value=False))
    if len(bad):
        raise InvalidDataError.out_of_range(
            what, "item", bad[item][0], name, bad[number][0], rule=f"{name}s must be {domain}"
        )


def jain_propensity(counts: pl.Expr, n: float, a: float, b: float) -> pl.Expr:
    """Jain et al.'s propensity of a label seen `counts` times in `n` training instances.

    ``1 / (1 + C (N_l + B)^-A)`` with ``C = (ln N - 1) (B + 1)^A`` (pyxclib's
    ``compute_inv_propesity`` returns the inverse, ``1 + C (N_l + B)^-A``).
    """
    c = (math.log(n) - 1.0) * math.pow(b + 1.0, a)
    return 1.0 / (1.0 + c * (counts.cast(pl.Float64) + b).pow(-a))


def _joined(  # noqa: PLR0913  (the side frame, its columns, the value and how it is named)
    frame: pl.LazyFrame, columns: list[str], value: pl.Expr, name: str, what: str, *, fill: float | None
) -> Join:
    """The join that adds `name` (`value` of the side row) to an evaluation frame, by item or (query, item).

    Duplicated side rows fail in the plan (a LazyFrame's: a DataFrame's were refused when built);
    `fill` is the value of an item without a row (None: null, which the family reports).
    """
    item, query = columns[0], columns[2] if len(columns) > 2 else None
    side_schema = frame.collect_schema()

    def join(lf: pl.LazyFrame, query_column: str, item_column: str) -> pl.LazyFrame:
        schema = lf.collect_schema()
        ids = [same_dtype(pl.col(item), side_schema[item], schema[item_column], what).alias(_ID)]
        on = [item_column]
        if query is not None:
            ids.append(same_dtype(pl.col(query), side_schema[query], schema[query_column], what).alias(_QID))
            on = [item_column, query_column]
        keys = [_ID] if query is None else [_ID, _QID]
        table = (
            frame.select(*ids, value.alias(name))
            .group_by(keys)
            .agg(pl.col(name).first(), pl.len().alias(_DUP))
        )
        out = lf.join(table, left_on=on, right_on=keys, how="left")
        repeated = pl.when(pl.col(_DUP) > 1).then(
            pl.format(f"`{what}` holds item {{}} more than once", item_text(pl.col(item_column)))
        )
        found = pl.col(name) if fill is None else pl.col(name).fill_null(fill)
        return out.with_columns(pl.coalesce(_errors.in_plan(repeated), found).alias(name)).drop(_DUP)

    return join


def _key(*parts: object) -> str:
    text = repr(parts).encode()
    return hashlib.sha1(text, usedforsecurity=False).hexdigest()[:12]


def _in_unit(p: pl.Expr) -> pl.Expr:
    return (p > 0) & (p <= 1)


def _non_negative(w: pl.Expr) -> pl.Expr:
    return w >= 0


def _propensity(name: str, where: str, *, column: str | None = None, join: Join | None = None) -> RowInput:
    return RowInput(name, where, "propensity", "in (0, 1]", _in_unit, column, join)


def _weight(name: str, *, column: str | None = None, join: Join | None = None) -> RowInput:
    return RowInput(name, "`weights`", "weight", "finite and >= 0", _non_negative, column, join)


def propensity_input(metric: Metric, *, eager: bool = False) -> RowInput:
    """The per-row propensity of a ``psp``-like family: from `propensities` or from `counts` with `n`.

    With `eager`, a DataFrame side input's rows are checked now (the constructor's check).
    """
    mapping = columns_of(metric)
    given, counts = side_param(metric, "propensities"), side_param(metric, "counts")
    if isinstance(given, str):
        return _propensity("__prm_p_" + _key("column", given), "`propensities`", column=given)
    if given is not None:
        frame, layout = _layout(given, "propensities", "propensity", mapping, eager=eager)
        if eager:
            _check_values(given, "propensities", layout, name="propensity", rule=_in_unit, domain="in (0, 1]")
        name = "__prm_p_" + _key("frame", id(given), tuple(mapping.items()))
        join = _joined(frame, layout, pl.col(layout[1]).cast(pl.Float64), name, "propensities", fill=None)
        return _propensity(name, "`propensities`", join=join)
    if counts is None:  # a metric parsed from a name without its side input
        check_sources(metric, "propensities", "counts")
    frame, layout = _layout(counts, "counts", "count", mapping, eager=eager)
    if eager:
        _check_values(counts, "counts", layout, name="count", rule=_non_negative, domain=">= 0")
    n, a, b = training_size(metric), *coefficients(metric)
    name = "__prm_p_" + _key("counts", id(counts), n, a, b, tuple(mapping.items()))
    # An item never seen (no row) has count 0.
    fill = 1.0 / (1.0 + (math.log(n) - 1.0) * math.pow(b + 1.0, a) * math.pow(b, -a))
    join = _joined(frame, layout, jain_propensity(pl.col(layout[1]), n, a, b), name, "counts", fill=fill)
    return _propensity(name, "`counts`", join=join)


def weight_input(metric: Metric, *, eager: bool = False) -> RowInput:
    """The per-row inverse-propensity weight of an ``ips_*`` family: from `weights` or `propensities`.

    Given `propensities`, the input is the propensity (the family reads ``1 / p``).
    """
    mapping = columns_of(metric)
    weights, given = side_param(metric, "weights"), side_param(metric, "propensities")
    if given is not None:
        return propensity_input(metric, eager=eager)
    if weights is None:  # a metric parsed from a name without its side input
        check_sources(metric, "weights", "propensities")
    if isinstance(weights, str):
        return _weight("__prm_w_" + _key("column", weights), column=weights)
    frame, layout = _layout(weights, "weights", "weight", mapping, eager=eager)
    if eager:
        _check_values(weights, "weights", layout, name="weight", rule=_non_negative, domain="finite and >= 0")
    name = "__prm_w_" + _key("frame", id(weights), tuple(mapping.items()))
    join = _joined(frame, layout, pl.col(layout[1]).cast(pl.Float64), name, "weights", fill=None)
    return _weight(name, join=join)


def training_size(metric: Metric) -> float:
    """`n`, the number of training instances the counts are out of: an integer of at least 3."""
    n = side_param(metric, "n")
    if isinstance(n, bool) or not isinstance(n, int) or n < 3:  # ln N - 1 > 0 needs N > e
        why = "an integer >= 3 (C = (ln n - 1)(B + 1)^A must be positive)"
        raise InvalidParameterError.out_of_domain("n", why, n, metric=metric.name)
    return float(n)


def coefficients(metric: Metric) -> tuple[float, float]:
    """(A, B) of Jain et al.'s propensity model: `a` and `b`, or the named `dataset`'s."""
    preset = side_param(metric, "dataset")
    a, b = metric.number("a"), metric.number("b")
    if preset is None:
        return a, b
    if not isinstance(preset, str) or preset not in PRESETS:
        raise InvalidParameterError.choice("dataset", PRESETS, preset)
    if (a, b) != PRESETS["jain"]:
        raise InvalidParameterError.not_both("`dataset`", "`a` or `b`", owner=metric.name)
    return PRESETS[preset]


def check_sources(metric: Metric, first: str, second: str) -> None:
    """Exactly one of the side inputs `first` and `second`; the rest checked by building the input."""
    one, other = side_param(metric, first), side_param(metric, second)
    if one is not None and other is not None:
        raise InvalidParameterError.not_both(f"`{first}`", f"`{second}`", owner=metric.name)
    if one is None and other is None:
        example = f"prm.{metric.spec.python_name}(10, {first}=frame_of_item_and_{first.rstrip('s')})"
        raise InvalidParameterError.needs(metric.name, f"`{first}` or `{second}`", f"e.g. {example}")
