"""The frames users have, converted once to Polars: pandas, pyarrow, Arrow-stream objects.

pandas is never imported here: a pandas DataFrame can only exist once the
user has imported pandas, so the check looks it up in ``sys.modules``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import overload

import polars as pl

from polars_rankmetrics.exceptions import InvalidInputError

__all__ = ["ACCEPTED", "as_polars"]

ACCEPTED = (
    "a Polars DataFrame or LazyFrame, a pandas DataFrame, a pyarrow Table or RecordBatch, "
    "or an object that exports an Arrow stream (__arrow_c_stream__)"
)

# What converting may raise (pyarrow's ArrowInvalid is a ValueError, ArrowTypeError a TypeError).
_CONVERSION_ERRORS = (pl.exceptions.PolarsError, TypeError, ValueError, NotImplementedError)


@overload
def as_polars(frame: pl.LazyFrame, what: str = ...) -> pl.LazyFrame: ...
@overload
def as_polars(frame: pl.DataFrame, what: str = ...) -> pl.DataFrame: ...
@overload
def as_polars(frame: object, what: str = ...) -> pl.DataFrame | pl.LazyFrame: ...


def as_polars(frame: object, what: str = "frame") -> pl.DataFrame | pl.LazyFrame:
    """Return `frame` as a Polars frame: Polars passes through, other frames are converted once.

    Parameters
    ----------
    frame
        A Polars DataFrame or LazyFrame (returned unchanged, never copied),
        a pandas DataFrame (``pl.from_pandas``: its index is not a column,
        so ``reset_index()`` first if it holds ids), a pyarrow Table or
        RecordBatch (``pl.from_arrow``), or any object exporting an Arrow
        stream through the PyCapsule interface (``__arrow_c_stream__``:
        DuckDB, Ibis, nanoarrow...).
    what
        The parameter's name, for the error message.

    Returns
    -------
    pl.DataFrame or pl.LazyFrame
        A LazyFrame only for a LazyFrame; a DataFrame for everything else.

    Raises
    ------
    InvalidInputError
        `frame` is of another type (the message names it and what is
        accepted), or its conversion failed (the message says why).

    Examples
    --------
    >>> import pyarrow as pa
    >>> from polars_rankmetrics._inputs import as_polars
    >>> as_polars(pa.table({"query": ["q1"], "item": ["a"], "score": [0.5]}))
    shape: (1, 3)
    ┌───────┬──────┬───────┐
    │ query ┆ item ┆ score │
    │ ---   ┆ ---  ┆ ---   │
    │ str   ┆ str  ┆ f64   │
    ╞═══════╪══════╪═══════╡
    │ q1    ┆ a    ┆ 0.5   │
    └───────┴──────┴───────┘
    >>> as_polars([("q1", "a", 0.5)], what="run")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    polars_rankmetrics.exceptions.InvalidInputError: `run` must be a Polars DataFrame ...; got list
    """
    if isinstance(frame, (pl.DataFrame, pl.LazyFrame)):
        return frame
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(frame, pandas.DataFrame):
        return _converted(frame, what, "pandas DataFrame", pl.from_pandas)
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None and isinstance(frame, (pyarrow.Table, pyarrow.RecordBatch)):
        return _converted(frame, what, "pyarrow table", pl.from_arrow)
    columns = (pl.Series, *((pandas.Series,) if pandas is not None else ()))
    columns += (pyarrow.Array, pyarrow.ChunkedArray) if pyarrow is not None else ()
    if not isinstance(frame, columns) and hasattr(type(frame), "__arrow_c_stream__"):
        return _converted(frame, what, "Arrow stream", pl.DataFrame)
    hint = " (that is one column, not a table: make it a frame first)" if isinstance(frame, columns) else ""
    raise InvalidInputError.not_a_frame(what, ACCEPTED, _type_name(frame), hint)


def _converted(frame: object, what: str, kind: str, convert: Callable[..., object]) -> pl.DataFrame:
    """`convert(frame)`, which must give a DataFrame; any failure is an InvalidInputError."""
    try:
        out = convert(frame)
    except _CONVERSION_ERRORS as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise InvalidInputError.not_converted(
            what, kind, f"could not be converted to a Polars DataFrame: {first}"
        ) from err
    if not isinstance(out, pl.DataFrame):
        why = f"converts to {_type_name(out)}, not a table; {ACCEPTED} is accepted"
        raise InvalidInputError.not_converted(what, kind, why)
    return out


def _type_name(value: object) -> str:
    cls = type(value)
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
