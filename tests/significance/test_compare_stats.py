"""prm.compare's tests against their oracles: scipy.stats, statsmodels, exact enumeration."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import polars_rankmetrics as prm
from polars_rankmetrics.significance._corrections import adjust
from significance.compare_data import GRID, exact_sign_flip_p, exact_tukey_p, frame, random_frame


def _pair(df: pl.DataFrame, system: str, baseline: str, metric: str = "m") -> tuple[np.ndarray, np.ndarray]:
    """The two systems' values, paired by query."""
    wide = df.pivot(on="system", index="query", values=metric).sort("query")
    return wide[system].to_numpy(), wide[baseline].to_numpy()


def _row(out: pl.DataFrame, system: str, baseline: str, metric: str = "m") -> dict[str, object]:
    rows = out.filter(
        (pl.col("system") == system) & (pl.col("baseline") == baseline) & (pl.col("metric") == metric)
    )
    assert rows.height == 1
    return rows.row(0, named=True)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("alpha", [0.05, 0.1])
def test_compare_t_matches_scipy_ttest_rel(seed: int, alpha: float) -> None:
    """p-value and the t interval agree with scipy.stats.ttest_rel and its confidence_interval."""
    df = random_frame(25, 4, metrics=("m", "k"), seed=seed, shift=0.05)
    out = prm.compare(df, by="system", test="t", alpha=alpha, correction=None)
    assert out.height == 2 * 6  # every pair, two metrics
    for row in out.iter_rows(named=True):
        a, b = _pair(df, row["system"], row["baseline"], row["metric"])
        ref = stats.ttest_rel(a, b)
        ci = ref.confidence_interval(1 - alpha)
        assert row["p_value"] == pytest.approx(ref.pvalue, rel=1e-10, abs=1e-15)
        assert row["ci_low"] == pytest.approx(ci.low, rel=1e-10)
        assert row["ci_high"] == pytest.approx(ci.high, rel=1e-10)
        assert row["delta"] == pytest.approx(a.mean() - b.mean(), abs=1e-15)
        assert row["effect_size"] == pytest.approx((a - b).mean() / (a - b).std(ddof=1), rel=1e-12)
        assert row["n"] == 25


def test_compare_t_constant_deltas() -> None:
    """All deltas equal: p is 1 when they are 0 and 0 otherwise; the effect size is null."""
    df = frame({"a": [0.5, 0.25, 0.75], "b": [0.5, 0.25, 0.75], "c": [0.75, 0.5, 1.0]})
    out = prm.compare(df, by="system", baseline="a", test="t")
    assert out["p_value"].to_list() == [1.0, 0.0]
    assert out["effect_size"].to_list() == [None, None]
    assert out["ci_low"].to_list() == out["ci_high"].to_list() == [0.0, 0.25]


@pytest.mark.parametrize(
    ("system", "baseline"),
    [
        ([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [0.2, 0.1, 0.5, 0.1, 0.2, 0.3]),  # exact distribution
        (
            [0.5, 0.5, 0.75, 0.25, 0.5, 0.0, 1.0, 0.5],
            [0.5, 0.25, 0.5, 0.5, 0.25, 0.25, 0.5, 0.5],
        ),  # zeros, ties
        (list(np.linspace(0, 1, 60)), list(np.linspace(0, 1, 60)[::-1])),  # normal approximation
        ([0.0, 0.0, 0.5, 0.0], [0.0, 0.0, 0.0, 0.0]),  # one non-zero delta
    ],
)
def test_compare_wilcoxon_matches_scipy(system: list[float], baseline: list[float]) -> None:
    """The same p as scipy.stats.wilcoxon with its defaults (zero_method='wilcox', method='auto')."""
    df = frame({"a": baseline, "b": system})
    row = _row(prm.compare(df, by="system", baseline="a", test="wilcoxon"), "b", "a")
    ref = stats.wilcoxon(np.array(system), np.array(baseline))
    assert row["p_value"] == pytest.approx(ref.pvalue, rel=1e-12)
    t = stats.ttest_rel(np.array(system), np.array(baseline)).confidence_interval(0.95)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((t.low, t.high), rel=1e-10)


def test_compare_wilcoxon_each_comparison_as_its_own_scipy_call() -> None:
    """Each comparison gets the p-value of its own scipy call, whatever the others; all-zero deltas give 1.

    scipy picks its method once per call from all the columns it is given:
    a column with zeros would switch a tie-free column from the exact
    distribution to the normal approximation.
    """
    tie_free = [0.5 + (i + 1) / GRID * (-1) ** i for i in range(20)]
    df = frame({"a": [0.5] * 20, "b": tie_free, "c": [0.5] * 5 + tie_free[5:]})
    df = pl.concat([df, df.filter(pl.col("system") == "a").with_columns(system=pl.lit("a2"))])
    out = prm.compare(df, by="system", test="wilcoxon", correction=None)
    for row in out.iter_rows(named=True):
        a, b = _pair(df, row["system"], row["baseline"])
        expected = 1.0 if np.all(a == b) else stats.wilcoxon(a, b).pvalue
        assert row["p_value"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("n", list(range(2, 15)))
def test_compare_randomization_exact_enumeration(n: int) -> None:
    """2**n <= n_resamples enumerates every sign vector: the p-value equals the plain enumeration's."""
    rng = np.random.default_rng(n)
    ints = rng.integers(-GRID // 2, GRID // 2 + 1, size=n)
    ints[: n // 3] = np.abs(ints[: n // 3])  # some duplicated magnitudes make exact ties likely
    baseline = rng.integers(GRID // 2, GRID, size=n)
    df = frame({"a": list(baseline / GRID), "b": list((baseline + ints) / GRID)})
    row = _row(
        prm.compare(df, by="system", baseline="a", test="randomization", n_resamples=2**n, seed=0), "b", "a"
    )
    expected = exact_sign_flip_p([Fraction(int(v)) for v in ints])
    assert row["p_value"] == float(expected)


@pytest.mark.parametrize("n", [16, 18])
def test_compare_randomization_monte_carlo_within_4_se(n: int) -> None:
    """Above the enumeration limit, (b + 1) / (m + 1) is within 4 standard errors of the exact p."""
    rng = np.random.default_rng(100 + n)
    ints = rng.integers(-20, 30, size=n)
    df = frame({"a": [0.5] * n, "b": list(0.5 + ints / GRID)})
    m = 20_000
    p = _row(
        prm.compare(df, by="system", baseline="a", test="randomization", n_resamples=m, seed=7), "b", "a"
    )
    # The exact p, by enumerating all 2**n sign vectors (vectorised here: the plain loop is too slow).
    codes = np.arange(2**n)[:, None] >> np.arange(n)
    sums = np.abs((1 - 2 * (codes & 1)) @ ints)
    exact = np.count_nonzero(sums >= abs(ints.sum())) / 2**n
    assert 0.001 < exact < 0.999
    se = math.sqrt(exact * (1 - exact) / m)
    assert abs(p["p_value"] - exact) < 4 * se + 1 / m


def test_compare_randomization_interval_inverts_the_test() -> None:
    """The interval excludes 0 exactly when |mean| exceeds the 1 - alpha quantile of the null."""
    df = random_frame(40, 3, seed=5, shift=0.03)
    out = prm.compare(df, by="system", test="randomization", seed=1, correction=None)
    for row in out.iter_rows(named=True):
        excludes = row["ci_low"] > 0 or row["ci_high"] < 0
        assert excludes == (row["p_value"] <= 0.05) or abs(row["p_value"] - 0.05) < 0.01


@pytest.mark.parametrize("seed", [0, 1])
def test_compare_bootstrap_interval_matches_scipy_within_monte_carlo_error(seed: int) -> None:
    """The percentile interval agrees with scipy.stats.bootstrap(paired, percentile) within MC error."""
    df = random_frame(50, 2, seed=seed, shift=0.02)
    m = 10_000
    row = _row(
        prm.compare(df, by="system", baseline="s0", test="bootstrap", n_resamples=m, seed=seed), "s1", "s0"
    )
    a, b = _pair(df, "s1", "s0")

    def mean_delta(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.mean(x - y, axis=axis)

    ref = stats.bootstrap(
        (a, b), mean_delta, paired=True, method="percentile", n_resamples=m, rng=np.random.default_rng(seed)
    ).confidence_interval
    sd_mean = (a - b).std(ddof=1) / math.sqrt(len(a))
    # Each endpoint's Monte Carlo sd is about 0.03 sd_mean at m = 10,000 (normal quantile density).
    assert abs(row["ci_low"] - ref.low) < 0.15 * sd_mean
    assert abs(row["ci_high"] - ref.high) < 0.15 * sd_mean


def test_compare_bootstrap_p_value_from_the_same_resamples() -> None:
    """The p-value min(1, 2 (min(b_le, b_ge) + 1) / (m + 1)) is near the t test's; tiny for a clear win."""
    df = random_frame(200, 3, seed=11, shift=0.01)
    boot = prm.compare(df, by="system", baseline="s0", test="bootstrap", seed=3, correction=None)
    t = prm.compare(df, by="system", baseline="s0", test="t", correction=None)
    assert np.allclose(boot["p_value"].to_numpy(), t["p_value"].to_numpy(), atol=0.03)
    clear = frame({"a": [0.0] * 10, "b": [0.5, 0.75, 0.25, 0.5, 1.0, 0.5, 0.25, 0.75, 0.5, 0.5]})
    row = _row(
        prm.compare(clear, by="system", baseline="a", test="bootstrap", n_resamples=999, seed=0), "b", "a"
    )
    assert row["p_value"] == 2 / 1000
    same = prm.compare(frame({"a": [0.5, 0.25], "b": [0.5, 0.25]}), by="system", test="bootstrap", seed=0)
    assert same["p_value"].to_list() == [1.0]


def test_compare_tukey_matches_exact_label_permutations() -> None:
    """Tiny case: the Monte Carlo p is within 4 SE of the exact enumeration of all (3!)**4 permutations."""
    ints = [[10, 30, 20], [5, 25, 40], [0, 20, 30], [15, 35, 20]]  # values[q][s], in 64ths
    df = frame({f"s{s}": [ints[q][s] / GRID for q in range(4)] for s in range(3)})
    m = 40_000
    out = prm.compare(df, by="system", test="tukey", n_resamples=m, seed=2, correction="bonferroni")
    assert out["correction"].to_list() == [None] * 3
    assert out["p_adjusted"].to_list() == out["p_value"].to_list()
    values = [[Fraction(v) for v in row] for row in ints]
    for row in out.iter_rows(named=True):
        exact = float(exact_tukey_p(values, int(row["system"][1]), int(row["baseline"][1])))
        se = math.sqrt(exact * (1 - exact) / m)
        assert abs(row["p_value"] - exact) < 4 * se + 1 / m, (row, exact)


def test_compare_tukey_is_more_conservative_than_unadjusted_randomization() -> None:
    """The largest-difference null makes every pair's p at least the sign-flip test's (up to MC error)."""
    df = random_frame(30, 5, seed=4, shift=0.02)
    tukey = prm.compare(df, by="system", test="tukey", seed=0)
    flips = prm.compare(df, by="system", test="randomization", seed=0, correction=None)
    assert (tukey["p_value"].to_numpy() >= flips["p_value"].to_numpy() - 0.02).all()
    low, high, delta = (tukey[c].to_numpy() for c in ("ci_low", "ci_high", "delta"))
    assert np.allclose(high - delta, delta - low)  # a simultaneous interval, the same width for every pair


@pytest.mark.parametrize(
    ("correction", "method"), [("holm", "holm"), ("bonferroni", "bonferroni"), ("bh", "fdr_bh")]
)
def test_corrections_match_statsmodels(correction: str, method: str) -> None:
    """Holm, Bonferroni and Benjamini-Hochberg agree with statsmodels' multipletests, ties and 1s included."""
    rng = np.random.default_rng(0)
    for size in (1, 2, 5, 17):
        for p in (
            rng.uniform(size=size),
            np.round(rng.uniform(size=size), 1),
            np.r_[rng.uniform(size=size), 1.0],
        ):
            expected = multipletests(p, method=method)[1]
            assert np.allclose(adjust(p, correction), expected, rtol=1e-12, atol=0)  # type: ignore[arg-type]


@pytest.mark.parametrize("correction", ["holm", "bonferroni", "bh"])
def test_compare_corrects_each_metric_family(correction: str) -> None:
    """p_adjusted is the correction of one metric's comparisons (all pairs), never across metrics."""
    df = random_frame(20, 4, metrics=("m", "k"), seed=9, shift=0.03)
    out = prm.compare(df, by="system", test="t", correction=correction)  # type: ignore[arg-type]
    method = {"holm": "holm", "bonferroni": "bonferroni", "bh": "fdr_bh"}[correction]
    for metric in ("m", "k"):
        family = out.filter(pl.col("metric") == metric)
        expected = multipletests(family["p_value"].to_numpy(), method=method)[1]
        assert np.allclose(family["p_adjusted"].to_numpy(), expected, rtol=1e-12)
        assert (family["significant"] == (family["p_adjusted"] < 0.05)).all()
