"""prm.rank_correlation against scipy (tau-b, Spearman) and tau_ap written from Yilmaz et al.'s definition."""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from scipy import stats

import polars_rankmetrics as prm
from polars_rankmetrics.exceptions import ColumnNotFoundError, InvalidDataError, InvalidParameterError


def _tau_ap(truth: list[float], other: list[float]) -> float:
    """tau_ap = 2 p' - 1, p' = 1/(N-1) sum_{i=2..N} C(i)/(i-1), in the truth's order (Yilmaz et al.)."""
    n = len(truth)
    order = sorted(range(n), key=lambda s: -truth[s])  # best first
    total = 0.0
    for i in range(1, n):
        above = order[:i]
        correct = sum(1 for s in above if other[s] > other[order[i]])
        total += correct / i
    return 2 * total / (n - 1) - 1


def _means(seed: int, n: int, grid: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    return pl.DataFrame(
        {
            "system": [f"s{i}" for i in range(n)],
            "ndcg": rng.integers(0, grid, size=n) / grid,
            "map": rng.integers(0, grid, size=n) / grid,
        }
    )


@pytest.mark.parametrize(("seed", "n", "grid"), [(0, 8, 5), (1, 12, 4), (2, 5, 100), (3, 30, 10), (4, 2, 3)])
def test_tau_b_and_spearman_match_scipy_with_ties(seed: int, n: int, grid: int) -> None:
    means = _means(seed, n, grid)
    if means["ndcg"].n_unique() == 1 or means["map"].n_unique() == 1:
        means = means.with_columns(ndcg=pl.Series([float(i % 3) for i in range(n)]))
    x, y = means["ndcg"].to_numpy(), means["map"].to_numpy()
    got = prm.rank_correlation(means, x="ndcg", y="map")
    assert got == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)
    got = prm.rank_correlation(means.reverse(), x="ndcg", y="map", method="spearman")
    assert got == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-12)


def test_tau_ap_matches_the_definition_on_every_order_of_five() -> None:
    truth = [0.9, 0.7, 0.5, 0.3, 0.1]
    for perm in itertools.permutations(range(5)):
        other = [float(p) for p in perm]
        means = pl.DataFrame({"system": list("abcde"), "x": truth, "y": other})
        got = prm.rank_correlation(means, x="x", y="y", method="tau_ap")
        assert got == pytest.approx(_tau_ap(truth, other), abs=1e-12)
    same = pl.DataFrame({"system": list("abcde"), "x": truth, "y": truth})
    assert prm.rank_correlation(same, x="x", y="y", method="tau_ap") == 1.0
    assert prm.rank_correlation(same.with_columns(y=-pl.col("x")), x="x", y="y", method="tau_ap") == -1.0


def test_tau_ap_is_not_symmetric_and_weights_the_top() -> None:
    means = pl.DataFrame({"system": list("abcd"), "x": [4.0, 3.0, 2.0, 1.0], "top": [3.0, 4.0, 2.0, 1.0]})
    bottom = means.with_columns(bottom=pl.Series([4.0, 3.0, 1.0, 2.0]))
    top_swap = prm.rank_correlation(bottom, x="x", y="top", method="tau_ap")
    low_swap = prm.rank_correlation(bottom, x="x", y="bottom", method="tau_ap")
    assert top_swap < low_swap
    assert prm.rank_correlation(bottom, x="x", y="top") == prm.rank_correlation(bottom, x="x", y="bottom")


def test_rank_correlation_refusals() -> None:
    means = pl.DataFrame({"system": ["a", "b", "c"], "x": [0.1, 0.2, 0.2], "y": [0.3, 0.1, 0.2]})
    with pytest.raises(InvalidDataError, match="tau_ap"):
        prm.rank_correlation(means, x="x", y="y", method="tau_ap")
    with pytest.raises(InvalidDataError, match="one value"):
        prm.rank_correlation(means.with_columns(y=pl.lit(0.5)), x="x", y="y")
    with pytest.raises(InvalidDataError, match="at least 2"):
        prm.rank_correlation(means.head(1), x="x", y="y")
    with pytest.raises(InvalidDataError, match="more than once"):
        prm.rank_correlation(means.with_columns(system=pl.lit("a")), x="x", y="y")
    with pytest.raises(InvalidDataError, match="NaN"):
        prm.rank_correlation(means.with_columns(x=pl.lit(float("nan"))), x="x", y="y")
    with pytest.raises(ColumnNotFoundError, match="z"):
        prm.rank_correlation(means, x="x", y="z")
    with pytest.raises(InvalidParameterError, match="method"):
        prm.rank_correlation(means, x="x", y="y", method="pearson")  # type: ignore[arg-type]
