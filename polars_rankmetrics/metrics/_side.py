"""Shared plan pieces of the catalog-scope metrics: group keys, top-k rows, side inputs, in-plan errors.

Side inputs (a catalog, item features, item popularity) are data beside the
frame. A DataFrame or Series side input is checked when the metric is built;
what can only be checked against the ranked lists (an item without features
or popularity, an item outside the catalog) is checked inside the lazy plan,
and the evaluation fails with :class:`InvalidDataError` naming an example item.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeAlias

import polars as pl

from polars_rankmetrics._kernel import ITEM, NUM_RET, VALUE
from polars_rankmetrics._schema import FIELDS, Columns
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidInputError,
    InvalidParameterError,
)
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.metrics._core import PREPARED, within

if TYPE_CHECKING:
    from polars_rankmetrics._spec import Metric

GROUP = "__prm_group"  # a constant key standing in for `by` when there is none
COUNT = "__prm_count"  # top-k lists holding an item
SIZE = "__prm_size"  # a list's length within the cutoff
BAD = "__prm_bad"  # text of an offending item (data error) or null
DUP = "__prm_dup"  # rows of a side input with the same item id
NONZERO = "__prm_nonzero"  # the item's feature vector is not all zeros
INFO = "__prm_self_information"
FEATURE = "__prm_feature_"  # + index: a feature, normalised to unit length
LABEL = "__prm_label"  # an item's category or group, from an (item, label) side input
SHARE = "__prm_share"  # the item's weight in one of its labels: 1 / its number of labels


# --- shared plan pieces ----------------------------------------------------------------------------


def keyed(lists: pl.LazyFrame, by: tuple[str, ...]) -> tuple[pl.LazyFrame, list[str]]:
    """The lists with a group key column, and the group keys.

    With no `by`, a constant column stands in as the key: a global rank or
    aggregation would fall back to the in-memory engine, a keyed one streams.
    """
    if by:
        return lists, list(by)
    return lists.with_columns(pl.lit(value=True).alias(GROUP)), [GROUP]


def top_rows(lists: pl.LazyFrame, keys: list[str], k: int | None) -> pl.LazyFrame:
    """The top-k rows of every list, with the list's length within the cutoff on each row.

    The length is ``min(k, NUM_RET)``, the prepared per-list count of retrieved items (within
    depth): no second window over the lists.
    """
    top = lists.filter(within(PREPARED, k)) if k is not None else lists
    size = pl.col(NUM_RET) if k is None else pl.min_horizontal(pl.col(NUM_RET), pl.lit(k, dtype=pl.UInt32))
    return top.select(*keys, ITEM, size.alias(SIZE))


def item_text(item: pl.Expr | None = None) -> pl.Expr:
    """An item id as quoted text, for messages."""
    return pl.format("'{}'", (pl.col(ITEM) if item is None else item).cast(pl.String))


def finish(out: pl.LazyFrame, by: tuple[str, ...], value: pl.Expr, *bad: str) -> pl.LazyFrame:
    """The (by..., VALUE) frame, failing on the first group that names an offending item."""
    if bad:
        value = pl.coalesce(_errors.in_plan(pl.coalesce(*(pl.col(b) for b in bad))), value)
    return out.select(*by, value.cast(pl.Float64).alias(VALUE))


def as_lazy(value: object, what: str) -> pl.LazyFrame:
    if isinstance(value, pl.LazyFrame):
        return value
    if isinstance(value, pl.DataFrame):
        return value.lazy()
    if isinstance(value, pl.Series):
        return value.to_frame().lazy()
    if isinstance(value, (list, tuple, set, frozenset)):
        return pl.Series(what, list(value)).to_frame().lazy()
    raise InvalidParameterError.out_of_domain(what, "a polars DataFrame, LazyFrame or Series", value)


ROLE_NAMES: dict[str, tuple[str, ...]] = {
    "user": ("user", "user_id", "query", "query_id", "qid"),
    "item": ("item", "item_id", "doc", "docno", "doc_id", "label_id"),
    "count": ("count", "popularity", "users", "n", "len", "counts", "frequency", "freq"),
    "label": ("category", "group", "label", "genre"),
    "weight": ("weight", "share", "weights", "w"),
    "propensity": ("propensity", "propensities", "p"),
    "score": ("score",),
    "rank": ("rank",),
}
"""The names a side frame's column is found by, per role: a side frame is read by name, never by position."""

ROLE_KEYS: dict[str, str] = {
    "user": "user",
    "query": "user",
    "item": "item",
    "count": "count",
    "category": "label",
    "group": "label",
    "label": "label",
    "weight": "weight",
    "propensity": "propensity",
    "score": "score",
    "rank": "rank",
}
"""The keys a side input's ``columns=`` mapping takes, and the role each names."""

SIDE_ROLES: dict[str, tuple[str, ...]] = {
    "interactions": ("user", "item"),
    "history": ("user", "item"),
    "popularity": ("item", "count"),
    "head": ("item",),
    "catalog": ("item",),
    "features": ("item",),
    "categories": ("item", "label"),
    "groups": ("item", "label"),
    "target": ("label", "weight"),
    "baseline": ("user", "item", "score"),
    "reference": ("user", "item", "score", "rank"),
    "propensities": ("user", "item", "propensity"),
    "counts": ("user", "item", "count"),
    "weights": ("user", "item", "weight"),
}
"""The roles each side input's columns are read for (its ``columns=`` keys: :func:`role_key`).

A one-column catalog or head is its item column; a reference reads a score or else a rank; a
propensity, count or weight frame reads a query column when it has one (a value per query and item).
"""

SideColumns: TypeAlias = Columns | Mapping[str, str] | None
"""A side input's ``columns=``: a :class:`~polars_rankmetrics.Columns` (its query, item, score and
rank names) or a ``{role: column name}`` mapping over :data:`ROLE_KEYS`; None reads the default names."""

_KEY = {
    ("categories", "label"): "category",
    ("groups", "label"): "group",
    ("target", "label"): "group",
    ("reference", "user"): "query",
    ("propensities", "user"): "query",
    ("counts", "user"): "query",
    ("weights", "user"): "query",
}
"""The ``columns=`` key a message names for a role of a side input (its own word: a group, a query)."""


def role_key(what: str, role: str) -> str:
    """The ``columns=`` key that names the column of `role` in the side input `what` (``category``...)."""
    return _KEY.get((what, role), role)


def side_columns(columns: object) -> dict[str, str]:
    """`columns` as ``{role: column name}`` over the roles of :data:`ROLE_NAMES`; checked."""
    if columns is None:
        return {}
    if isinstance(columns, Columns):
        default = Columns()
        fields = (("user", "query"), ("item", "item"), ("score", "score"), ("rank", "rank"))
        return {r: getattr(columns, f) for r, f in fields if getattr(columns, f) != getattr(default, f)}
    if not isinstance(columns, Mapping):
        expected = "a prm.Columns or a {role: column name} mapping"
        raise InvalidInputError.from_type("columns", expected, columns)
    out: dict[str, str] = {}
    for key, name in columns.items():
        if key in FIELDS and key not in ROLE_KEYS:  # the evaluation frame's own (relevance...)
            continue
        if not isinstance(key, str) or key not in ROLE_KEYS:
            raise InvalidParameterError.unknown_option("a side input's columns", str(key), ROLE_KEYS)
        if not isinstance(name, str):
            raise InvalidInputError.from_type(f"columns[{key!r}]", "a column name (a string)", name)
        out[ROLE_KEYS[key]] = name
    return out


def side_param(metric: Metric, name: str) -> object:
    """The side input `name` of `metric`, or None when not given or not a parameter of its family."""
    return metric.side(name) if any(p.name == name for p in metric.spec.params) else None


def columns_of(metric: Metric) -> dict[str, str]:
    """The metric's side ``columns=`` (``{role: name}``), or none when its family takes none."""
    return side_columns(side_param(metric, "columns"))


def by_role(
    names: list[str],
    what: str,
    roles: tuple[str, ...],
    columns: object = None,
    *,
    beside: tuple[str, ...] = (),
) -> list[str]:
    """The columns of a side frame that hold `roles`, in that order, found by name.

    A role's column is the one ``columns=`` names for it, else the first of its
    :data:`ROLE_NAMES` the frame has (``item``, ``user_id``, ``count``,
    ``category``...). A role no column is found for is an error naming the role,
    the frame's columns and the ``columns=`` that reads it: never a column by position.
    `beside` are columns already read for other roles (:func:`optional_role`'s): never taken again.
    """
    given = side_columns(columns)
    chosen: dict[str, str] = {}
    for role in roles:
        found = _named(names, what, role, given)
        if found is None:
            taken = {*chosen.values(), *beside}
            found = next((n for n in ROLE_NAMES[role] if n in names and n not in taken), None)
        if found is None:
            rest = [
                n for n in names if n not in chosen.values() and n not in beside and n not in given.values()
            ]
            guess = repr(rest[0]) if len(rest) == 1 else "..."
            key = role_key(what, role)
            raise ColumnNotFoundError.side_role(
                what, key, ROLE_NAMES[role], names, f"columns={{{key!r}: {guess}}}"
            )
        chosen[role] = found
    return [chosen[role] for role in roles]


def optional_role(names: list[str], what: str, role: str, columns: object = None) -> str | None:
    """The column of a role a side frame may lack (a query column): as :func:`by_role`, else None."""
    given = side_columns(columns)
    found = _named(names, what, role, given)
    taken = set(given.values())
    return found or next((n for n in ROLE_NAMES[role] if n in names and n not in taken), None)


def _named(names: list[str], what: str, role: str, given: Mapping[str, str]) -> str | None:
    """The column ``columns=`` names for `role` (None: it names none); an error when the frame lacks it."""
    if role not in given:
        return None
    if given[role] not in names:
        key = role_key(what, role)
        fix = f"columns={{{key!r}: ...}} naming one of them"
        raise ColumnNotFoundError.from_missing_and_available(
            given[role], f"`{what}` {key}", names, where=f"`{what}`", remedy=fix
        )
    return given[role]


def first_column(frame: pl.LazyFrame, what: str, columns: object = None) -> str:
    """The item column of a one-role side frame: its only column, else the one named for the item role."""
    names = frame.collect_schema().names()
    if len(names) == 1 and "item" not in side_columns(columns):
        return names[0]
    return by_role(names, what, SIDE_ROLES[what], columns)[0]


def same_dtype(side: pl.Expr, side_dtype: pl.DataType, item_dtype: pl.DataType, what: str) -> pl.Expr:
    """The side input's item ids in the frame's item dtype, or a clear error."""
    if side_dtype == item_dtype:
        return side
    both_int = side_dtype.is_integer() and item_dtype.is_integer()
    both_text = side_dtype in (pl.String, pl.Categorical) and item_dtype in (pl.String, pl.Categorical)
    if both_int or both_text:
        return side.cast(item_dtype)
    raise ColumnTypeError.mismatch(
        f"the item ids of `{what}` are {side_dtype}", f"the frame's items are {item_dtype}"
    )


def check_eager(frame: pl.LazyFrame, value: object, item: str, what: str, *, unique: bool) -> None:
    """Check a side input given as a DataFrame or Series now: null ids, duplicate ids."""
    if not isinstance(value, (pl.DataFrame, pl.Series)):
        return
    ids = frame.select(item).collect()[item]
    if ids.null_count():
        raise InvalidDataError.nulls_in(f"`{what}`", item, "null item ids", first=True)
    if unique and ids.is_duplicated().any():
        example = ids.filter(ids.is_duplicated())[0]
        raise InvalidDataError.repeated_value(f"`{what}`", "item", example, "give one row per item")


def memberships(
    value: object, what: str, label: str, item_dtype: pl.DataType | None, columns: object = None
) -> pl.LazyFrame:
    """Distinct (ITEM, LABEL) rows of an (item, `label`) side input, with each item's SHARE.

    An item in ``n`` labels (rows, or a List column of labels) weighs ``1 / n`` in each.
    Nulls are refused when `value` is eager; `item_dtype` (None: not known yet) casts the ids.
    """
    frame = as_lazy(value, what)
    schema = frame.collect_schema()
    names = schema.names()
    item, labels = by_role(names, what, SIDE_ROLES[what], columns)
    if isinstance(value, pl.DataFrame):
        if value.is_empty():  # every ranked item would lack a label: the value would be no value
            raise InvalidParameterError.empty(what, f"give one ({item}, {label}) row per ranked item")
        for column in (item, labels):
            if value[column].null_count():
                raise InvalidDataError.nulls_in(f"`{what}`", column)
    if isinstance(schema[labels], pl.List):
        frame = frame.explode(labels)
    ids = pl.col(item) if item_dtype is None else same_dtype(pl.col(item), schema[item], item_dtype, what)
    pairs = frame.select(ids.alias(ITEM), pl.col(labels).alias(LABEL)).drop_nulls().unique()
    return pairs.with_columns((1.0 / pl.len().over(ITEM).cast(pl.Float64)).alias(SHARE))
