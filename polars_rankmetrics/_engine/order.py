"""trec_eval's order as one Int128 per row, when the order and an integer item fit in one.

trec_eval's order is the score descending (or a given rank ascending), then
the item's text descending. The struct window over ``(score, item text)``
costs most of an evaluation (benchmarks/results/perf.md, row 4); an integer
window is about half of it. For an integer item, ``text_key`` is an integer
whose order is the order of the item's decimal text: the digits of
``|item|`` padded on the right with zeros to the widest id, then the number
of digits (a prefix sorts before its extensions: "1" < "10" < "100" < "11"),
then the sign above it ('-' sorts before every digit). ``packed`` puts a
given rank above that key, ``scored`` a score's ordered bits (a double's
bits as an ordered integer, -0.0 read as 0.0 and every NaN as one, as the
struct's comparison reads them); ranking the one Int128 gives the same
positions as the struct window, bit for bit. It exists only when both fit in
127 bits. The widest id is the dtype's, or the data's when the caller knows
it (``widest_digits`` of an in-memory column): a 64-bit score and an Int64
item fit when every item has at most 17 digits. Otherwise (and for text
items, and the tie policies that put the grade inside the order) the plan
keeps the struct.
"""

from __future__ import annotations

import polars as pl

__all__ = ["ordered_bits", "packed", "scored", "text_key", "widest_digits"]

# Decimal digits of the widest value of each integer dtype.
_DIGITS: dict[pl.DataType, int] = {
    pl.Int8(): 3,
    pl.Int16(): 5,
    pl.Int32(): 10,
    pl.Int64(): 19,
    pl.UInt8(): 3,
    pl.UInt16(): 5,
    pl.UInt32(): 10,
    pl.UInt64(): 20,
}
_BITS: dict[pl.DataType, int] = {
    pl.Int8(): 8,
    pl.Int16(): 16,
    pl.Int32(): 32,
    pl.Int64(): 64,
    pl.UInt8(): 8,
    pl.UInt16(): 16,
    pl.UInt32(): 32,
    pl.UInt64(): 64,
}


_SCORE_BITS = 64  # a score's ordered bits: an Int64


def widest_digits(column: pl.Series) -> int | None:
    """The decimal digits of the widest value of an integer column (1 when it has none); None otherwise."""
    if column.dtype not in _DIGITS:
        return None
    low, high = column.min(), column.max()
    if not isinstance(low, int) or not isinstance(high, int):
        return 1
    return len(str(max(abs(low), abs(high))))


def text_key(item: pl.Expr, dtype: pl.DataType, digits: int | None = None) -> tuple[pl.Expr, int] | None:
    """An Int128 in [0, 2**bits) ordered as ``item.cast(pl.String)`` is, and its bits; None if no key.

    ``dtype`` is the item's dtype: integers of at most 64 bits have a key.
    ``digits``, when given, bounds the decimal digits of every item (the
    data's :func:`widest_digits`): the key is then narrower.
    """
    width = _DIGITS.get(dtype)
    if width is None:
        return None
    width = width if digits is None else max(1, min(width, digits))
    if dtype.is_signed_integer():
        # |item| as UInt64 (|Int64 min| = 2**63 fits; it does not in Int64).
        magnitude = pl.when(item < 0).then((-(item + 1)).cast(pl.UInt64) + 1).otherwise(item.cast(pl.UInt64))
    else:
        magnitude = item.cast(pl.UInt64)
    wide = pl.Int128() if width > 19 else pl.UInt64()  # 10**19 < 2**64 < 10**20
    # digits - 1, then |item| * 10**(width - digits): the digits padded on the right with zeros.
    more = [(magnitude >= 10**i).cast(pl.UInt8) for i in range(1, width)]
    extra = pl.sum_horizontal(more) if more else pl.lit(0, dtype=pl.UInt8)
    scale = pl.lit(10 ** (width - 1), dtype=wide)
    for i in range(1, width):
        scale = pl.when(extra == i).then(pl.lit(10 ** (width - 1 - i), dtype=wide)).otherwise(scale)
    padded = magnitude.cast(wide) * scale
    key = padded.cast(pl.Int128) * (width + 1) + extra.cast(pl.Int128)
    bits = (10**width * (width + 1)).bit_length()
    if dtype.is_signed_integer():
        key = key + (item >= 0).cast(pl.Int128) * (1 << bits)
        bits += 1
    return key, bits


def packed(
    rank: pl.Expr, rank_dtype: pl.DataType, item: pl.Expr, item_dtype: pl.DataType, digits: int | None = None
) -> pl.Expr | None:
    """An Int128 whose ascending order is (rank ascending, item text descending); None if none fits.

    Rank it as a column of its own: written inside a window expression, Polars
    evaluates the arithmetic group by group (15 s against 2.4 s at 3M rows).
    ``digits`` bounds the items' decimal digits, as in :func:`text_key`.
    """
    found = text_key(item, item_dtype, digits)
    rank_bits = _BITS.get(rank_dtype)
    if found is None or rank_bits is None:
        return None
    key, bits = found
    if rank_bits + bits > 126:  # signed ranks reach -2**(rank_bits - 1): the product stays in Int128
        return None
    return rank.cast(pl.Int128) * (1 << bits) + ((1 << bits) - 1 - key)


def ordered_bits(score: pl.Expr, dtype: pl.DataType) -> pl.Expr | None:
    """An Int64 ordered as `score` is compared in the struct window; None for other dtypes.

    A double's bits read as a signed integer order the non-negative doubles;
    the negative ones, their other 63 bits flipped, come below them in order.
    -0.0 is 0.0 and every NaN one NaN above +inf, as Polars compares them.
    """
    if dtype in (pl.Float32(), pl.Float64()):
        value = score.cast(pl.Float64)
        value = pl.when(value == 0.0).then(0.0).when(value.is_nan()).then(float("nan")).otherwise(value)
        bits = value.reinterpret(dtype=pl.Int64)
        return pl.when(bits < 0).then(bits.xor(pl.lit(2**63 - 1, dtype=pl.Int64))).otherwise(bits)
    if dtype in _BITS and dtype != pl.UInt64():  # an integer score: its value, exactly, as an Int64
        return score.cast(pl.Int64)
    return None


def scored(
    score: pl.Expr,
    score_dtype: pl.DataType,
    item: pl.Expr,
    item_dtype: pl.DataType,
    digits: int | None = None,
) -> pl.Expr | None:
    """An Int128 whose descending order is (score descending, item text descending); None if none fits.

    As :func:`packed`, ranked as a column of its own; ``digits`` bounds the
    items' decimal digits (an Int64 item fits under a 64-bit score at 17).
    """
    found = text_key(item, item_dtype, digits)
    bits_of_score = ordered_bits(score, score_dtype)
    if found is None or bits_of_score is None:
        return None
    key, bits = found
    if _SCORE_BITS + bits > 126:  # the signed score reaches -2**63: the product stays in Int128
        return None
    return bits_of_score.cast(pl.Int128) * (1 << bits) + key
