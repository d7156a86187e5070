"""The Accumulator's inputs: torchmetrics-style arrays to a frame, and one schema across batches.

Neither numpy nor torch is imported: a tensor is recognised by its methods
(``detach``, ``cpu``, ``numpy``), an array by ``reshape``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from polars_rankmetrics._schema import Columns
from polars_rankmetrics.exceptions import ColumnTypeError, InvalidInputError, InvalidParameterError

__all__ = ["from_arrays", "same_schema"]


def _series(name: str, values: Any) -> pl.Series:  # noqa: ANN401  (a tensor, an array, a sequence)
    """`values` (a torch tensor, on any device; a numpy array; a sequence) as a flat Series."""
    if hasattr(values, "detach") and hasattr(values, "cpu"):
        values = values.detach().cpu().numpy()  # a GPU tensor is moved to the host
    if hasattr(values, "reshape"):
        values = values.reshape(-1)
    try:
        series = pl.Series(name, values)
    except (TypeError, ValueError, pl.exceptions.PolarsError) as err:
        raise InvalidInputError.from_type(name, "a 1-D array or tensor", values) from err
    if series.dtype == pl.Boolean:
        return series.cast(pl.Int64)  # relevant / not relevant: grades 1 and 0
    return series


def from_arrays(
    columns: Columns, preds: object, target: object, indexes: object, items: object
) -> pl.DataFrame:
    """The frame of torchmetrics' (preds, target, indexes), with item ids (or each row's place in its query).

    Rows keep their order: the place of a row in its query is its order among the query's rows.
    """
    data = [
        _series(columns.query, indexes),
        _series(columns.score, preds),
        _series(columns.relevance, target),
    ]
    if items is not None:
        data.append(_series(columns.item, items))
    lengths = {s.name: s.len() for s in data}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{name}: {n}" for name, n in lengths.items())
        raise InvalidParameterError.out_of_domain("preds, target, indexes", "arrays of one length", shown)
    frame = pl.DataFrame(data)
    if items is None:
        place = pl.int_range(pl.len(), dtype=pl.Int64).over(columns.query)
        frame = frame.with_columns(place.alias(columns.item))
    return frame


def same_schema(first: pl.Schema | None, schema: pl.Schema, keys: Sequence[str]) -> pl.Schema:
    """The schema every batch must share: `schema` for the first batch, else `first` if they agree.

    The key columns (`keys`: by, query, item) must have one dtype in every batch; the other
    columns may differ between numeric dtypes (pandas turns a null grade's column into floats).
    """
    if first is None or first == schema:
        return schema if first is None else first
    for name in dict.fromkeys([*first, *schema]):
        before, now = first.get(name), schema.get(name)
        numeric = before is not None and now is not None and before.is_numeric() and now.is_numeric()
        if before != now and (name in keys or not numeric):
            raise ColumnTypeError.mismatch(
                f"column {name!r} is {before} in the first batch", f"{now} in this one"
            )
    return first
