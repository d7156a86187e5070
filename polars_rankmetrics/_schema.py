"""The frame contract: column names and the checks made against ``collect_schema()``."""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

import polars as pl

from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidInputError,
    InvalidParameterError,
)
from polars_rankmetrics.exceptions import _plan as _errors

__all__ = ["Columns", "ColumnsLike", "recalled", "remember"]


@dataclass(frozen=True)
class Columns:
    """Names of the columns of an evaluation frame.

    One row per (query, item); a frame holds a `score` (higher is better), a
    `rank` (1 is best), or both. With both, the items are ranked by the score,
    as trec_eval ranks a run (it reads the score and ignores the rank field),
    and a rank derived from the score gives the same order but among tied
    scores; ``order="rank"`` ranks by the rank column instead (the order
    served, ties broken as the system broke them). A null score or rank
    marks an item that was judged but not retrieved; a null relevance marks
    an item that was retrieved but not judged.

    Parameters
    ----------
    query
        The ranking's key: a query, a user, a session.
    item
        The ranked thing: a document, an item.
    score
        Retrieval score, higher is better.
    rank
        Retrieval rank, 1 is best; the alternative to `score`.
    relevance
        Relevance grade; ``>= relevance_level`` is relevant, negative grades
        mark pooled but unjudged items (trec_eval), null marks unjudged.
    intent
        The intent (subtopic) a judgment is for, in diversity frames: one
        row per (query, item, intent) for the judged items and one with a
        null intent for the unjudged retrieved ones (:func:`join_run_qrels`
        of intent qrels). The intent-aware metrics (``alpha_ndcg@k``...)
        read it; every other metric reads one row per item, its highest grade.
    order
        Which column ranks the items when the frame has both a score and a
        rank: ``"score"`` (None, the default, ranks by the score when there
        is one) or ``"rank"``. Naming one the frame lacks is an error.

    Examples
    --------
    >>> df = pl.DataFrame({"user": [1, 1], "movie": ["a", "b"],
    ...     "score": [0.9, 0.2], "rating": [0, 1]})
    >>> cols = prm.Columns(query="user", item="movie", relevance="rating")
    >>> prm.evaluate(df, ["precision@2", "mrr"], columns=cols)
    shape: (1, 2)
    ┌─────────────┬─────┐
    │ precision@2 ┆ mrr │
    │ ---         ┆ --- │
    │ f64         ┆ f64 │
    ╞═════════════╪═════╡
    │ 0.5         ┆ 0.5 │
    └─────────────┴─────┘
    """

    query: str = "query"
    item: str = "item"
    score: str = "score"
    rank: str = "rank"
    relevance: str = "relevance"
    intent: str = "intent"
    order: Literal["score", "rank"] | None = None

    def ranked_by(self, names: Sequence[str]) -> str | None:
        """The column that ranks the items of a frame with columns `names`: see `order`; None if neither.

        Examples
        --------
        >>> prm.Columns().ranked_by(["query", "item", "score", "rank"])
        'score'
        >>> prm.Columns(order="rank").ranked_by(["query", "item", "score", "rank"])
        'rank'
        """
        if self.order is not None:
            return self.rank if self.order == "rank" else self.score
        return self.score if self.score in names else self.rank if self.rank in names else None

    def __post_init__(self) -> None:
        """Each role its own column, named as a string outside the library's reserved prefix."""
        roles = {
            role: getattr(self, role) for role in ("query", "item", "score", "rank", "relevance", "intent")
        }
        seen: dict[str, str] = {}
        for role, name in roles.items():
            if not isinstance(name, str):
                raise InvalidInputError.from_type(f"Columns({role}=...)", "a column name (str)", name)
            if name.startswith(RESERVED):
                raise InvalidParameterError.reserved_column(name, role)
            if name in seen:
                raise InvalidParameterError.shared_column(name, seen[name], role)
            seen[name] = role
        if self.order not in (None, "score", "rank"):
            raise InvalidParameterError.choice("Columns(order=...)", ("score", "rank", None), self.order)

    @classmethod
    def of(cls, columns: object) -> Columns:
        """`columns` as a function takes it: None (the defaults), a :class:`Columns` or a mapping of fields.

        Examples
        --------
        >>> prm.Columns.of({"query": "user", "item": "movie"}).query
        'user'
        """
        if columns is None:
            return cls()
        if isinstance(columns, Columns):
            return columns
        if isinstance(columns, Mapping):
            fields = ("query", "item", "score", "rank", "relevance", "intent", "order")
            for key in columns:
                if key not in fields:
                    raise InvalidParameterError.unknown_option("prm.Columns", str(key), fields)
            return cls(**columns)
        expected = "a prm.Columns or a {role: column name} mapping"
        raise InvalidInputError.from_type("columns", expected, columns)


FIELDS = ("query", "item", "score", "rank", "relevance", "intent", "order")
"""The roles of an evaluation frame a ``columns=`` mapping names (:class:`Columns`' fields)."""


def frame_columns(columns: object) -> object:
    """The evaluation frame's part of a ``columns=`` that also names side frames' roles (``count``...).

    A mapping keeps the keys of :data:`FIELDS`; anything else is returned as given.
    """
    if isinstance(columns, Mapping):
        return {key: name for key, name in columns.items() if key in FIELDS}
    return columns


ColumnsLike: TypeAlias = "Columns | Mapping[str, str] | None"
"""What a ``columns=`` parameter takes: a :class:`Columns`, a ``{role: column name}`` mapping, or None."""

_MADE: dict[int, tuple[weakref.ref[object], tuple[str, ...], str]] = {}


def remember(frame: object, by: tuple[str, ...], query: str) -> None:
    """Note that `frame` is an evaluation's result: its system keys `by` and its query column.

    The functions that read an evaluation's result (compare, summarize, the
    plots) find them there when they are not told. Held weakly: nothing is
    kept once the frame is gone, and any new frame made from it is unknown.
    """
    key = id(frame)
    try:
        ref = weakref.ref(frame, lambda _: _MADE.pop(key, None))
    except TypeError:  # a frame type that takes no weak reference: nothing remembered
        return
    _MADE[key] = (ref, by, query)


def recalled(frame: object) -> tuple[tuple[str, ...], str] | None:
    """The (by keys, query column) :func:`remember` noted for this very frame, or None."""
    found = _MADE.get(id(frame))
    if found is None or found[0]() is not frame:
        return None
    return found[1], found[2]


@dataclass(frozen=True)
class ResolvedSchema:
    """What a frame's schema says: which ordering column it has, its dtypes."""

    columns: Columns
    by: tuple[str, ...]
    order_column: str
    order_is_rank: bool
    item_is_string: bool
    relevance_dtype: pl.DataType
    has_relevance: bool = True
    item_dtype: pl.DataType = field(default_factory=pl.String)
    order_dtype: pl.DataType = field(default_factory=pl.Float64)
    item_digits: int | None = None  # the widest integer item's decimal digits, when the data is in memory


_NESTED = (pl.List, pl.Array, pl.Struct, pl.Object)


def frame_schema(lf: pl.LazyFrame) -> pl.Schema:
    """``lf.collect_schema()``; files a scan cannot read raise the library's error."""
    try:
        return lf.collect_schema()
    except _errors.SOURCE_ERRORS as err:
        raise _errors.from_source(err) from None


def _check_key(name: str, role: str, schema: pl.Schema) -> None:
    if name not in schema:
        raise ColumnNotFoundError.from_missing_and_available(name, role, schema.names())
    if isinstance(schema[name], _NESTED):
        raise ColumnTypeError.from_dtype(name, role, "hashable scalars", schema[name], verb="hold")


RESERVED = "__prm_"  # the prefix of the library's internal columns: no input column may use it


def normalise_by(by: str | Sequence[str] | None) -> tuple[str, ...]:
    """Return the `by` keys as a tuple: column names, each once, none reserved."""
    if by is None:
        return ()
    keys = (by,) if isinstance(by, str) else by
    if not isinstance(keys, Sequence) or not all(isinstance(k, str) for k in keys):
        raise InvalidInputError.from_type("by", "a column name or a sequence of column names", by)
    for i, key in enumerate(keys):
        if key in keys[:i]:
            raise InvalidParameterError.repeated("by", [key])
        if key.startswith(RESERVED):
            raise InvalidParameterError.reserved_column(key, "by")
    return tuple(keys)


def resolve_schema(  # noqa: C901, PLR0913  (one check per contract column; the frame in memory)
    schema: pl.Schema,
    columns: Columns,
    by: tuple[str, ...],
    *,
    need_relevance: bool = True,
    need_order: bool = True,
    item_digits: int | None = None,
) -> ResolvedSchema:
    """Check `schema` against the frame contract; read nothing but the schema.

    `item_digits`, the widest integer item's digits when the caller read them, is carried along.
    """
    for key in by:
        _check_key(key, "by", schema)
        if key in (columns.query, columns.item):
            raise InvalidParameterError.same_column(
                "by column", key, "query" if key == columns.query else "item"
            )
    _check_key(columns.query, "query", schema)
    _check_key(columns.item, "item", schema)

    order_column = columns.ranked_by(schema.names()) or columns.score
    if need_order and columns.order is not None and order_column not in schema:
        raise ColumnNotFoundError.from_missing_and_available(order_column, columns.order, schema.names())
    if need_order and order_column not in schema:
        raise ColumnNotFoundError.no_order(columns.score, columns.rank, schema.names())
    order_is_rank = order_column == columns.rank
    if order_column in schema:
        dtype = schema[order_column]
        if order_is_rank and not dtype.is_integer():
            raise ColumnTypeError.from_dtype(order_column, "rank", "an integer dtype", dtype)
        if not order_is_rank and not (dtype.is_numeric() or dtype == pl.Null):
            raise ColumnTypeError.from_dtype(order_column, "score", "numeric", dtype)

    relevance_dtype: pl.DataType = pl.Null()
    has_relevance = columns.relevance in schema
    if need_relevance or has_relevance:
        if columns.relevance not in schema:
            raise ColumnNotFoundError.from_missing_and_available(
                columns.relevance, "relevance", schema.names()
            )
        relevance_dtype = schema[columns.relevance]
        if not (relevance_dtype.is_numeric() or relevance_dtype == pl.Null):
            raise ColumnTypeError.from_dtype(columns.relevance, "relevance", "numeric", relevance_dtype)
    return ResolvedSchema(
        columns=columns,
        by=by,
        order_column=order_column,
        order_is_rank=order_is_rank,
        item_is_string=schema[columns.item] == pl.String,
        relevance_dtype=relevance_dtype,
        has_relevance=has_relevance,
        item_dtype=schema[columns.item],
        order_dtype=schema[order_column] if order_column in schema else pl.Float64(),
        item_digits=item_digits,
    )
