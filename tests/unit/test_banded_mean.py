"""A mean's banded exact state (issue 31, D9): any partition of the values merges to the same bits.

The state of a group holds every value's bits in the 64-bit band of its
largest |value| and the next; states of parts merge by their top band
(``_engine.merge``), as chunks and Spark partitions do. Oracles: the
one-pass state's bits, and the exact mean (``fractions.Fraction``).
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl
from hypothesis import example, given, settings
from hypothesis import strategies as st

from polars_rankmetrics import _engine
from polars_rankmetrics._engine import aggregate

_METRICS = _engine.named_metrics(["map"])  # any metric aggregated by the mean: its column holds the values

_magnitudes = st.sampled_from(
    [1.0, 2.0**-11, 2.0**-64, 2.0**-70, 1e-30, 2.0**-128, 1e-200, 2.0**-1000, 5e-324]
)
_values = st.builds(
    lambda m, f, negative: (-1.0 if negative else 1.0) * m * f,
    _magnitudes,
    st.floats(min_value=0.5, max_value=2.0),
    st.booleans(),
) | st.just(0.0)


def _mean(frame: pl.DataFrame) -> float:
    lf = aggregate.states(frame.lazy(), _METRICS, ())
    return aggregate.finish(lf, _METRICS, ()).collect()["map"].item()


def _merged(parts: list[pl.DataFrame]) -> float:
    states = pl.concat([aggregate.states(p.lazy(), _METRICS, ()).collect() for p in parts])
    merged = aggregate.merge(states.lazy(), _METRICS, ())
    return aggregate.finish(merged, _METRICS, ()).collect()["map"].item()


@settings(max_examples=60, deadline=None)
@given(st.lists(_values, min_size=1, max_size=12), st.lists(st.integers(0, 2), min_size=12, max_size=12))
@example(values=[5e-324, 0.0], cuts=[0] * 12)  # found by hypothesis: the mean is a tie among subnormals
def test_any_partition_merges_to_the_same_bits_and_the_mean_is_close(
    values: list[float], cuts: list[int]
) -> None:
    frame = pl.DataFrame({"map": values}, schema={"map": pl.Float64})
    whole = _mean(frame)
    parts = [frame.filter(pl.Series([cuts[i] == j for i in range(len(values))])) for j in range(3)]
    assert _merged([p for p in parts if p.height]) == whole
    assert _mean(frame.reverse()) == whole
    exact = sum(map(Fraction, values), Fraction(0)) / len(values)
    largest = max(abs(Fraction(v)) for v in values)
    # Each value is held to 2**-64 of the largest (below it: dropped), then one rounding or two; a
    # rounding among the subnormals errs by up to half the smallest one (2**-1075), not relatively:
    # the mean of 5e-324 and 0.0 is 2**-1075 exactly, a tie that rounds to 0.0.
    subnormal = Fraction(2, 2**1075)
    assert (
        abs(Fraction(whole) - exact)
        <= largest * Fraction(2, 2**64) + abs(exact) * Fraction(4, 2**53) + subnormal
    )
