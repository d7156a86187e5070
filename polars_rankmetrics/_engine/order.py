"""trec_eval's order as one Int128 per row, when a given rank and an integer item fit in one.

With a given rank, trec_eval's order is the rank ascending, then the item's
text descending. The struct window over ``(-rank, item text)`` costs most of
a catalog evaluation (benchmarks/results/perf.md, row 4); an integer window is
cheaper. For an integer item, ``text_key`` is an integer whose order is the
order of the item's decimal text: the digits of ``|item|`` padded on the right
with zeros to the dtype's widest id, then the number of digits (a prefix sorts
before its extensions: "1" < "10" < "100" < "11"), then the sign above it
('-' sorts before every digit). ``packed`` puts the rank above that key, so
ranking the one Int128 ascending gives the same positions as the struct
window, bit for bit. It exists only when both fit in 127 bits: a rank of at
most 32 bits with any integer item of at most 64 bits, or a 64-bit rank with
an item of at most 32 bits; otherwise (and for text items, scores, and the tie
policies that put the grade inside the order) the plan keeps the struct.
"""

from __future__ import annotations

import polars as pl

__all__ = ["packed", "text_key"]

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


def text_key(item: pl.Expr, dtype: pl.DataType) -> tuple[pl.Expr, int] | None:
    """An Int128 in [0, 2**bits) ordered as ``item.cast(pl.String)`` is, and its bits; None if no key.

    ``dtype`` is the item's dtype: integers of at most 64 bits have a key.
    """
    width = _DIGITS.get(dtype)
    if width is None:
        return None
    if dtype.is_signed_integer():
        # |item| as UInt64 (|Int64 min| = 2**63 fits; it does not in Int64).
        magnitude = pl.when(item < 0).then((-(item + 1)).cast(pl.UInt64) + 1).otherwise(item.cast(pl.UInt64))
    else:
        magnitude = item.cast(pl.UInt64)
    wide = pl.Int128() if width > 19 else pl.UInt64()  # 10**19 < 2**64 < 10**20
    # digits - 1, then |item| * 10**(width - digits): the digits padded on the right with zeros.
    extra = pl.sum_horizontal([(magnitude >= 10**i).cast(pl.UInt8) for i in range(1, width)])
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


def packed(rank: pl.Expr, rank_dtype: pl.DataType, item: pl.Expr, item_dtype: pl.DataType) -> pl.Expr | None:
    """An Int128 whose ascending order is (rank ascending, item text descending); None if none fits.

    Rank it as a column of its own: written inside a window expression, Polars
    evaluates the arithmetic group by group (15 s against 2.4 s at 3M rows).
    """
    found = text_key(item, item_dtype)
    rank_bits = _BITS.get(rank_dtype)
    if found is None or rank_bits is None:
        return None
    key, bits = found
    if rank_bits + bits > 126:  # signed ranks reach -2**(rank_bits - 1): the product stays in Int128
        return None
    return rank.cast(pl.Int128) * (1 << bits) + ((1 << bits) - 1 - key)
