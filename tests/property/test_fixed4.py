"""The command prints numbers with ``%6.4f`` in the engine: the same text as Python's (and C's) operator.

``%6.4f`` rounds a double's exact binary value, halves to even; the
engine's path (a four-decimal Decimal) holds only away from such halves,
and `fixed4` sends the rest to Python. The oracle is Python's ``%``, which
prints what glibc's printf prints (both round the exact value).
"""

from __future__ import annotations

import math

import polars as pl
from hypothesis import example, given, settings
from hypothesis import strategies as st

from polars_rankmetrics.cli._format import fixed4

# Values a ranking measure takes (fractions of small counts, so exact halves of the fourth
# decimal such as 1/32 and 3/32), values a hair either side of such halves, and any double.
_fractions = st.builds(lambda n, d: n / d, st.integers(0, 4096), st.integers(1, 4096))
_halves = st.builds(lambda k: (2 * k + 1) / 20_000, st.integers(0, 200_000))


def _step(value: float, steps: int) -> float:
    for _ in range(abs(steps)):
        value = math.nextafter(value, math.inf if steps > 0 else -math.inf)
    return value


_near_halves = st.builds(_step, _halves, st.integers(-4, 4))
_values = st.one_of(_fractions, _halves, _near_halves, st.floats(allow_nan=True, allow_infinity=True))


def _printed(value: float) -> str:
    return f"{'-nan':>6}" if math.isnan(value) else "%6.4f" % value  # noqa: UP031  (the C format itself)


@settings(max_examples=300, deadline=None)
@given(st.lists(_values, max_size=60), st.lists(_values, max_size=60))
@example([0.03125, 0.09375, 1 / 3, 2.0 / 3, 0.99995, 99999.99995, 1e5, 1e300, -0.0, 0.0, -1e-9], [])
@example([5e-324, 0.00005, 0.00015, 0.5, 1.0, math.inf, -math.inf, math.nan], [0.1 + 0.2])
def test_fixed4_prints_as_c(first: list[float], second: list[float]) -> None:
    width = max(len(first), len(second))
    first, second = first + [0.0] * (width - len(first)), second + [1.0] * (width - len(second))
    frame = pl.DataFrame({"a": first, "b": second}, schema={"a": pl.Float64, "b": pl.Float64})
    printed = fixed4(frame)
    assert printed.columns == ["a", "b"]
    assert printed["a"].to_list() == [_printed(v) for v in first]
    assert printed["b"].to_list() == [_printed(v) for v in second]


def test_fixed4_leaves_its_input() -> None:
    frame = pl.DataFrame({"a": [0.03125, 0.5]})
    fixed4(frame)
    assert frame["a"].to_list() == [0.03125, 0.5]
