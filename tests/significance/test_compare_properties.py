"""Properties of prm.compare: swapping the systems, shifting the values, row order, seeds."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import polars_rankmetrics as prm
from polars_rankmetrics.significance._compare import TESTS
from significance.compare_data import GRID, random_frame

RESAMPLES = 199  # small: the properties hold for any number of resamples
FLOATS = ["mean", "baseline_mean", "delta", "ci_low", "ci_high", "effect_size"]


@st.composite
def per_query_frames(draw: st.DrawFn, n_systems: int | None = None) -> pl.DataFrame:
    """2-10 queries, 2-4 systems, 1-2 metrics; values on the 1/64 grid, so ties and zero deltas are common."""
    n = draw(st.integers(2, 10))
    systems = n_systems or draw(st.integers(2, 4))
    metrics = draw(st.integers(1, 2))
    size = n * systems
    columns: dict[str, list[object]] = {
        "run": [f"r{s}" for s in range(systems) for _ in range(n)],
        "query": [f"q{q}" for _ in range(systems) for q in range(n)],
    }
    for m in range(metrics):
        grid = draw(st.lists(st.integers(0, GRID), min_size=size, max_size=size))
        columns[f"m{m}"] = [v / GRID for v in grid]
    return pl.DataFrame(columns)


def _compare(df: pl.DataFrame | pl.LazyFrame, test: str, **kwargs: object) -> pl.DataFrame:
    return prm.compare(df, by="run", test=test, n_resamples=RESAMPLES, seed=3, **kwargs)  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(df=per_query_frames(n_systems=2), test=st.sampled_from(TESTS))
def test_compare_swapping_system_and_baseline_negates_delta_keeps_p(df: pl.DataFrame, test: str) -> None:
    """Baseline r1 instead of r0: delta, interval and effect size negate; the p-values stay."""
    forward = _compare(df, test, baseline="r0")
    backward = _compare(df, test, baseline="r1")
    assert forward["run"].to_list() == backward["baseline"].to_list()
    assert forward["delta"].to_list() == (-backward["delta"]).to_list()
    assert forward["mean"].to_list() == backward["baseline_mean"].to_list()
    assert forward["effect_size"].to_list() == (-backward["effect_size"]).to_list()
    for low, high in zip(forward["ci_low"], -backward["ci_high"], strict=True):
        assert low == pytest.approx(high, abs=1e-12)
    if test == "wilcoxon":  # scipy computes the two tails differently: equal up to rounding
        assert forward["p_value"].to_list() == pytest.approx(backward["p_value"].to_list(), rel=1e-12)
    else:
        assert forward["p_value"].to_list() == backward["p_value"].to_list()
        assert forward["p_adjusted"].to_list() == backward["p_adjusted"].to_list()


@settings(max_examples=25, deadline=None)
@given(
    df=per_query_frames(),
    test=st.sampled_from(TESTS),
    shift=st.sampled_from([-1.0, 0.25, 0.5, 3.0]),
    correction=st.sampled_from(["holm", "bh", None]),
)
def test_compare_adding_a_constant_changes_only_the_means(
    df: pl.DataFrame, test: str, shift: float, correction: str | None
) -> None:
    """The same constant added to every system's values moves the means and nothing else."""
    metrics = [c for c in df.columns if c.startswith("m")]
    before = _compare(df, test, correction=correction)
    after = _compare(df.with_columns(pl.col(metrics) + shift), test, correction=correction)
    assert_frame_equal(before.drop(FLOATS), after.drop(FLOATS))
    for column in ("mean", "baseline_mean"):
        assert (after[column] - shift).to_list() == pytest.approx(before[column].to_list(), abs=1e-12)
    for column in ("delta", "ci_low", "ci_high", "effect_size"):
        left, right = before[column].to_list(), after[column].to_list()
        assert [v is None for v in left] == [v is None for v in right]
        assert [v for v in left if v is not None] == pytest.approx(
            [v for v in right if v is not None], abs=1e-9
        )


@settings(max_examples=25, deadline=None)
@given(df=per_query_frames(), test=st.sampled_from(TESTS), order=st.randoms(use_true_random=False))
def test_compare_row_order_is_irrelevant(df: pl.DataFrame, test: str, order: object) -> None:
    """Shuffled rows, or a LazyFrame, give the very same frame, bit for bit."""
    rows = list(range(df.height))
    order.shuffle(rows)  # type: ignore[attr-defined]
    expected = _compare(df, test)
    assert_frame_equal(_compare(df[rows], test), expected, check_exact=True)
    assert_frame_equal(_compare(df[rows].lazy(), test), expected, check_exact=True)


@settings(max_examples=15, deadline=None)
@given(df=per_query_frames(), test=st.sampled_from(["randomization", "bootstrap", "tukey"]))
def test_compare_same_seed_same_bits(df: pl.DataFrame, test: str) -> None:
    """Two calls with one seed agree bit for bit; results do not depend on the other metrics compared."""
    assert_frame_equal(_compare(df, test), _compare(df, test), check_exact=True)
    both = _compare(df, test, correction=None)
    alone = _compare(df, test, correction=None, metrics="m0")
    assert_frame_equal(both.filter(pl.col("metric") == "m0"), alone, check_exact=True)


@pytest.mark.parametrize("test", ["randomization", "bootstrap", "tukey"])
def test_compare_seed_changes_the_draws(test: str) -> None:
    """Another seed, other resamples: the Monte Carlo p-values differ (but stay close)."""
    df = pl.DataFrame(
        {
            "run": ["a"] * 20 + ["b"] * 20,
            "query": list(range(20)) * 2,
            "m": [i / 20 for i in range(20)] + [(i + (i % 4) - 1.2) / 20 for i in range(20)],
        }
    )
    first = prm.compare(df, by="run", test=test, seed=1, n_resamples=2000)  # type: ignore[arg-type]
    second = prm.compare(df, by="run", test=test, seed=2, n_resamples=2000)  # type: ignore[arg-type]
    assert first["p_value"].item() != second["p_value"].item()
    assert first["p_value"].item() == pytest.approx(second["p_value"].item(), abs=0.05)


@pytest.mark.parametrize("test", ["randomization", "bootstrap", "t"])
def test_compare_bits_do_not_depend_on_the_other_comparisons_at_size(test: str) -> None:
    """One metric alone, or the baseline's comparisons alone, have the bits they have among all.

    300 queries, 6 systems, 3 metrics: matrix products past BLAS's small-size paths.
    """
    df = random_frame(300, 6, metrics=("m", "k", "j"), seed=4, shift=0.01)
    common = {"by": "system", "test": test, "seed": 9, "n_resamples": 700, "correction": None}
    every = prm.compare(df, **common)  # type: ignore[arg-type]
    alone = prm.compare(df, metrics="k", **common)  # type: ignore[arg-type]
    assert_frame_equal(every.filter(pl.col("metric") == "k"), alone, check_exact=True)
    against = prm.compare(df, baseline="s0", **common)  # type: ignore[arg-type]
    assert_frame_equal(
        every.filter(pl.col("baseline") == "s0").sort("metric", "system"),
        against.sort("metric", "system"),
        check_exact=True,
    )
