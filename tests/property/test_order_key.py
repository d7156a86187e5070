"""A given rank or a score with integer items ranks by one Int128 (_engine/order.py): the same values.

The packed key must order rows exactly as the struct window over (-rank,
item text) does. Each test compares against the struct path itself, taken
by giving the same ids as text (a text item has no packed key), and the key
against Polars' own sort of the decimal text.
"""

from __future__ import annotations

import itertools
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


@pytest.mark.parametrize("digits", [1, 2, 5, 9, 17, 19])
def test_a_narrower_text_key_orders_the_ids_it_was_sized_for(digits: int) -> None:
    top = min(10**digits - 1, 2**63 - 1)  # Int64's widest: 19 digits
    rng = random.Random(digits)  # noqa: S311  (test data)
    values = {0, 1, 9, top, -top, *(rng.randint(-top, top) for _ in range(2000))}
    values |= {s * 10**e + d for e in range(digits) for s in (1, -1) for d in (-1, 0, 1)}
    frame = pl.DataFrame(pl.Series("x", sorted(v for v in values if abs(v) <= top), dtype=pl.Int64))
    assert order.widest_digits(frame["x"]) == len(str(max(abs(v) for v in frame["x"])))
    found = order.text_key(pl.col("x"), pl.Int64(), order.widest_digits(frame["x"]))
    assert found is not None
    key, bits = found
    frame = frame.with_columns(key.alias("key"), pl.col("x").cast(pl.String).alias("text"))
    assert frame["key"].n_unique() == frame.height
    assert 0 <= frame["key"].min() <= frame["key"].max() < 2**bits
    assert frame.sort("key")["x"].to_list() == frame.sort("text")["x"].to_list()


def testordered_bits_order_doubles_as_polars_compares_them() -> None:
    ladder = [
        float("-inf"),
        -1e308,
        -2.5,
        -1.0,
        -5e-324,
        -0.0,
        0.0,
        5e-324,
        1e-300,
        1.0,
        2.5,
        1e308,
        float("inf"),
    ]
    nan = [float("nan"), -float("nan")]
    values = pl.Series("s", [*ladder, *nan], dtype=pl.Float64)
    key = order.ordered_bits(pl.col("s"), pl.Float64())
    assert key is not None
    keys = pl.DataFrame(values).select(key).to_series().to_list()
    for lower, higher in itertools.pairwise(keys[: len(ladder)]):
        assert lower < higher or (lower == higher == keys[ladder.index(0.0)])  # -0.0 is 0.0
    assert keys[5] == keys[6]
    assert keys[-1] == keys[-2] > keys[len(ladder) - 1]  # every NaN one NaN, above +inf


def test_no_key_where_it_would_not_fit() -> None:
    assert order.scored(pl.col("s"), pl.Float64(), pl.col("x"), pl.Int64()) is None  # 64 + 70 bits
    assert order.scored(pl.col("s"), pl.Float64(), pl.col("x"), pl.Int64(), 17) is not None
    assert order.scored(pl.col("s"), pl.Float64(), pl.col("x"), pl.Int64(), 18) is None
    assert order.scored(pl.col("s"), pl.Float32(), pl.col("x"), pl.UInt32()) is not None
    assert order.scored(pl.col("s"), pl.UInt64(), pl.col("x"), pl.UInt32()) is None  # no Int64 score
    assert order.scored(pl.col("s"), pl.Float64(), pl.col("x"), pl.String()) is None
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


@st.composite
def scored_lists(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Scores with ties (-0.0 beside 0.0, infinities), nulls; integer ids across digit counts."""
    item_dtype = draw(st.sampled_from(INT_TYPES))
    score_dtype = draw(st.sampled_from([pl.Float64(), pl.Float32(), pl.Int32(), pl.Int64()]))
    lo, hi = _bounds(item_dtype)
    digits = draw(st.sampled_from([1, 3, 17, 20]))  # the data's widest id: packed at 17, not beyond
    lo, hi = max(lo, -(10**digits) + 1), min(hi, 10**digits - 1)
    edges = [v for v in (lo, hi, 0, 1, 9, 10, 11, 99, 100, -1, -10, -9) if lo <= v <= hi]
    ids = st.one_of(st.sampled_from(edges), st.integers(max(lo, -120), min(hi, 120)), st.integers(lo, hi))
    floats = st.sampled_from([0.0, -0.0, 0.5, 0.5, -1.25, 3.0, float("inf"), float("-inf")])
    scores = floats if score_dtype.is_float() else st.integers(-3, 3)
    rows: list[tuple[int, int, object, int | None]] = []
    for query in range(draw(st.integers(1, 4))):
        items = draw(st.lists(ids, min_size=1, max_size=8, unique=True))
        graded = st.one_of(st.none(), st.integers(-1, 2))
        rows.extend((query, item, draw(st.one_of(st.none(), scores)), draw(graded)) for item in items)
    frame = pl.DataFrame(
        rows,
        schema={"query": pl.Int64, "item": item_dtype, "score": score_dtype, "relevance": pl.Int64},
        orient="row",
    )
    return frame, frame.with_columns(pl.col("item").cast(pl.String))


@settings(max_examples=80, deadline=None)
@given(scored_lists(), st.sampled_from(OPTIONS))
def test_scored_rank_equals_the_struct_rank(
    frames: tuple[pl.DataFrame, pl.DataFrame], options: dict[str, object]
) -> None:
    """In memory (the data's widest id) and lazily (the dtype's): the text items' values, bit for bit."""
    packed, text = frames
    want = prm.evaluate(text, QUERY_METRICS, per_query=True, check=False, **options)
    got = prm.evaluate(packed, QUERY_METRICS, per_query=True, check=False, **options)
    assert_frame_equal(got, want)
    lazy = prm.evaluate(packed.lazy(), QUERY_METRICS, per_query=True, check=False, **options).collect()
    assert_frame_equal(lazy.sort("query"), want.sort("query"))
