"""A given rank with integer items ranks by one Int128 (_engine/order.py): the same values, bit for bit.

The packed key must order rows exactly as the struct window over (-rank,
item text) does. Each test compares against the struct path itself, taken
by giving the same ids as text (a text item has no packed key), and the key
against Polars' own sort of the decimal text.
"""

from __future__ import annotations

import random

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import polars_rankmetrics as prm
from polars_rankmetrics._engine import order

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

INT_TYPES = [pl.Int8(), pl.Int16(), pl.Int32(), pl.Int64(), pl.UInt8(), pl.UInt16(), pl.UInt32(), pl.UInt64()]


def _bounds(dtype: pl.DataType) -> tuple[int, int]:
    bits = {pl.Int8(): 8, pl.Int16(): 16, pl.Int32(): 32, pl.Int64(): 64}.get(dtype)
    if bits is not None:
        return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    bits = {pl.UInt8(): 8, pl.UInt16(): 16, pl.UInt32(): 32, pl.UInt64(): 64}[dtype]
    return 0, 2**bits - 1


@pytest.mark.parametrize("dtype", INT_TYPES, ids=str)
def test_text_key_orders_as_the_decimal_text(dtype: pl.DataType) -> None:
    lo, hi = _bounds(dtype)
    values = set(range(max(lo, -1200), min(hi, 1200) + 1)) | {lo, hi}
    for e in range(21):  # powers of ten and of two, their neighbours, both signs
        for base in (10**e, 2 ** (3 * e)):
            values |= {s * base + d for s in (1, -1) for d in (-1, 0, 1) if lo <= s * base + d <= hi}
    rng = random.Random(17)  # noqa: S311  (test data)
    values |= {rng.randint(lo, hi) for _ in range(3000)}
    found = order.text_key(pl.col("x"), dtype)
    assert found is not None
    key, bits = found
    frame = pl.DataFrame(pl.Series("x", sorted(values), dtype=dtype)).with_columns(
        key.alias("key"), pl.col("x").cast(pl.String).alias("text")
    )
    assert frame["key"].n_unique() == frame.height  # distinct ids, distinct keys
    assert frame["key"].min() >= 0
    assert frame["key"].max() < 2**bits
    assert frame.sort("key")["x"].to_list() == frame.sort("text")["x"].to_list()


def test_no_key_where_it_would_not_fit() -> None:
    assert order.text_key(pl.col("x"), pl.String()) is None
    assert order.packed(pl.col("r"), pl.Int64(), pl.col("x"), pl.Int64()) is None  # 64 + 70 bits
    assert order.packed(pl.col("r"), pl.UInt32(), pl.col("x"), pl.UInt64()) is not None
    assert order.packed(pl.col("r"), pl.Int64(), pl.col("x"), pl.Int32()) is not None


QUERY_METRICS = ["map", "P@1", "P@3", "ndcg@3", "recip_rank", "recall@2", "success@1", "Rprec", "bpref"]
CATALOG_METRICS = [
    prm.coverage(2),
    prm.gini(1),
    prm.entropy(2),
    prm.personalization(1),
    prm.personalization(3),
]
OPTIONS = [{}, {"depth": 2}, {"judged_only": True}, {"depth": 3, "judged_only": True}]


@st.composite
def ranked_lists(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Given ranks with ties, gaps and nulls; ids drawn near the dtype's edges and across digit counts."""
    item_dtype = draw(st.sampled_from(INT_TYPES))
    rank_dtype = draw(st.sampled_from([pl.UInt8(), pl.Int16(), pl.UInt32(), pl.Int32(), pl.Int64()]))
    if order.packed(pl.col("r"), rank_dtype, pl.col("x"), item_dtype) is None:
        rank_dtype = pl.UInt32()
    lo, hi = _bounds(item_dtype)
    edges = [v for v in (lo, hi, 0, 1, 9, 10, 11, 99, 100, 101, -1, -10, -9, 1000) if lo <= v <= hi]
    ids = st.one_of(st.sampled_from(edges), st.integers(max(lo, -120), min(hi, 120)), st.integers(lo, hi))
    rows: list[tuple[int, int, int | None, int | None]] = []
    for query in range(draw(st.integers(1, 4))):
        items = draw(st.lists(ids, min_size=1, max_size=8, unique=True))
        for item in items:
            rank = draw(st.one_of(st.none(), st.integers(1, 4), st.sampled_from([7, 50, 127])))
            grade = draw(st.one_of(st.none(), st.integers(-1, 2)))
            rows.append((query, item, rank, grade))
    frame = pl.DataFrame(
        rows,
        schema={"query": pl.Int64, "item": item_dtype, "rank": rank_dtype, "relevance": pl.Int64},
        orient="row",
    )
    return frame, frame.with_columns(pl.col("item").cast(pl.String))


@settings(max_examples=60, deadline=None)
@given(ranked_lists(), st.sampled_from(OPTIONS))
def test_packed_rank_equals_the_struct_rank(
    frames: tuple[pl.DataFrame, pl.DataFrame], options: dict[str, object]
) -> None:
    packed, text = frames
    got = prm.evaluate(packed, QUERY_METRICS, per_query=True, **options)
    want = prm.evaluate(text, QUERY_METRICS, per_query=True, **options)
    assert_frame_equal(got, want)


@settings(max_examples=60, deadline=None)
@given(ranked_lists())
def test_catalog_metrics_with_packed_rank_equal_the_struct_rank(
    frames: tuple[pl.DataFrame, pl.DataFrame],
) -> None:
    packed, text = frames
    packed, text = packed.drop("relevance"), text.drop("relevance")
    got = prm.evaluate(packed.lazy(), CATALOG_METRICS).collect(engine="streaming")
    want = prm.evaluate(text.lazy(), CATALOG_METRICS).collect(engine="streaming")
    assert_frame_equal(got, want)
