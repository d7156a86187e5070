"""Polars frames to and from the Arrow that Spark reads: types Spark has, schemas derived, never written.

Spark's Arrow bridge has no unsigned integers and no 128-bit integers,
matches columns by position and checks types strictly. Every frame the
adapter hands to Spark goes through :func:`spark_frame`; every schema it
declares is :func:`spark_schema` of such a frame (the worker run on an
empty input), so the declared and the shipped types cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import polars as pl
import pyarrow as pa
from pyspark.sql import DataFrame
from pyspark.sql.pandas.types import from_arrow_schema, to_arrow_schema
from pyspark.sql.types import StructType

__all__ = [
    "EXACT",
    "arrow_batches",
    "polars_frame",
    "polars_schema",
    "positional",
    "spark_frame",
    "spark_schema",
]

EXACT = pl.Decimal(38, 0)  # how an Int128 exact sum travels: Spark sums Decimal(38, 0) exactly


def _spark_dtype(dtype: pl.DataType) -> pl.DataType:
    if dtype == pl.Int128:
        return EXACT
    if dtype.is_unsigned_integer():
        return pl.Int64()  # counts; Spark has no unsigned types
    return dtype


def spark_frame(df: pl.DataFrame) -> pl.DataFrame:
    """`df` in types Spark's Arrow bridge takes: Int128 as Decimal(38, 0), unsigned as Int64."""
    casts = {name: _spark_dtype(dtype) for name, dtype in df.schema.items() if _spark_dtype(dtype) != dtype}
    return df.cast(casts) if casts else df  # type: ignore[arg-type]


def _arrow(df: pl.DataFrame) -> pa.Table:
    # The oldest compat level: plain (large) strings, which Spark reads; never string_view.
    return spark_frame(df).to_arrow(compat_level=pl.CompatLevel.oldest())


def spark_schema(df: pl.DataFrame) -> StructType:
    """The Spark schema of :func:`spark_frame` of `df` (typically an empty frame)."""
    return from_arrow_schema(_arrow(df).schema)


def arrow_batches(df: pl.DataFrame, schema: pa.Schema) -> Iterator[pa.RecordBatch]:
    """`df` as record batches cast to `schema` (the one Spark was told), column by column in order."""
    table = _arrow(df)
    return iter(table.rename_columns(schema.names).cast(schema).to_batches())


def polars_schema(schema: StructType) -> pl.Schema:
    """The Polars schema of the frames Spark hands a worker for rows of `schema`."""
    return pl.from_arrow(to_arrow_schema(schema).empty_table()).schema  # type: ignore[union-attr]


def polars_frame(batches: Iterable[pa.RecordBatch], schema: pl.Schema) -> pl.DataFrame:
    """All of `batches` (a whole partition) as one frame with the names of `schema`.

    Spark sends the columns under positional names (see :func:`positional`);
    an empty frame of `schema` if there are no batches.
    """
    chunks = list(batches)
    if not chunks:
        return pl.DataFrame(schema=schema)
    df = pl.from_arrow(pa.Table.from_batches(chunks).rename_columns(list(schema)))
    assert isinstance(df, pl.DataFrame)
    return df


def positional(sdf: DataFrame) -> DataFrame:
    """`sdf` with its columns named c0, c1, ...: pyspark's mapInArrow cannot pass a column named ``a.b``.

    One ``toDF`` renames them by position: a column expression per name would cost a round
    trip to the JVM each (a tenth of a second per evaluate with twenty state columns).
    """
    return sdf.toDF(*(f"c{i}" for i in range(len(sdf.columns))))
