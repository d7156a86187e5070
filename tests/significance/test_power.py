"""prm.power against statsmodels' TTestPower; prm.discriminative_power against exact references."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats
from statsmodels.stats.power import TTestPower

import polars_rankmetrics as prm
from polars_rankmetrics.exceptions import InvalidDataError, InvalidParameterError
from significance.compare_data import GRID, exact_sign_flip_p, frame, random_frame

ORACLE = TTestPower()


def _pilot() -> pl.DataFrame:
    df = random_frame(20, 4, metrics=("m",), seed=9, shift=0.03)
    return df.filter(~((pl.col("system") == "s2") & (pl.col("query") == "q005")))  # a missing query


def _deltas(df: pl.DataFrame, system: object, baseline: object) -> np.ndarray:
    wide = df.pivot(on="system", index="query", values="m").drop_nulls().sort("query")
    return (wide[system] - wide[baseline]).to_numpy()


@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_power_given_delta_and_n_matches_statsmodels(alpha: float) -> None:
    df = _pilot()
    out = prm.power(df, by="system", metric="m", delta=-0.03, n_queries=60, alpha=alpha, missing="intersect")
    assert out.height == 6
    assert out.columns == ["system", "baseline", "metric", "sd", "delta", "n_queries", "power"]
    for row in out.iter_rows(named=True):
        d = _deltas(df, row["system"], row["baseline"])
        assert len(d) == 19
        assert row["sd"] == pytest.approx(d.std(ddof=1), abs=1e-15)
        expected = ORACLE.power(effect_size=0.03 / d.std(ddof=1), nobs=60, alpha=alpha)
        assert row["power"] == pytest.approx(expected, abs=1e-12)
        assert (row["delta"], row["n_queries"]) == (0.03, 60)


def test_queries_needed_is_the_smallest_with_the_power() -> None:
    df = _pilot()
    out = prm.power(df, by="system", metric="m", delta=0.02, baseline="s0", missing="intersect", power=0.9)
    assert out["baseline"].to_list() == ["s0"] * 3
    for row in out.iter_rows(named=True):
        effect = 0.02 / row["sd"]
        n = row["n_queries"]
        assert ORACLE.power(effect, n, 0.05) >= 0.9 > ORACLE.power(effect, n - 1, 0.05)
        solved = ORACLE.solve_power(effect_size=effect, alpha=0.05, power=0.9)
        assert n == math.ceil(solved)
        assert row["power"] == pytest.approx(ORACLE.power(effect, n, 0.05), abs=1e-12)


def test_detectable_delta_has_the_target_power() -> None:
    df = _pilot()
    out = prm.power(df, by="system", metric="m", n_queries=50, missing="zero")
    for row in out.iter_rows(named=True):
        effect = row["delta"] / row["sd"]
        assert ORACLE.power(effect, 50, 0.05) == pytest.approx(0.8, abs=1e-12)
        assert effect == pytest.approx(ORACLE.solve_power(nobs=50, alpha=0.05, power=0.8), rel=1e-8)
        assert row["power"] == 0.8


def test_pooled_variance_is_the_mean_of_the_pairs() -> None:
    df = random_frame(15, 3, seed=2)
    pooled = prm.power(df, by="system", metric="m", n_queries=40, delta=0.05, pooled=True)
    variances = [_deltas(df, s, b).var(ddof=1) for s, b in (("s1", "s0"), ("s2", "s0"), ("s2", "s1"))]
    assert pooled.height == 1
    assert pooled.select("system", "baseline").row(0) == (None, None)
    assert pooled["sd"].item() == pytest.approx(math.sqrt(np.mean(variances)), abs=1e-15)
    effect = 0.05 / pooled["sd"].item()
    assert pooled["power"].item() == pytest.approx(ORACLE.power(effect, 40, 0.05), abs=1e-12)


def test_power_refusals() -> None:
    df = frame({"a": [0.25, 0.5, 0.75], "b": [0.5, 0.75, 1.0]})  # constant deltas
    with pytest.raises(InvalidDataError, match="no variance"):
        prm.power(df, by="system", metric="m", delta=0.1)
    with pytest.raises(InvalidDataError, match="no variance"):
        prm.power(df, by="system", metric="m", delta=0.1, pooled=True)
    three = frame({"a": [0.25, 0.5, 0.75], "b": [0.5, 0.75, 1.0], "c": [0.25, 1.0, 0.5]})
    pooled = prm.power(three, by="system", metric="m", delta=0.1, pooled=True)  # one pair is constant
    variances = [0.0, np.var([0.0, 0.5, -0.25], ddof=1), np.var([-0.25, 0.25, -0.5], ddof=1)]
    assert pooled["sd"].item() == pytest.approx(math.sqrt(np.mean(variances)), abs=1e-15)
    ok = frame({"a": [0.25, 0.5, 0.75], "b": [0.5, 0.5, 1.0]})
    with pytest.raises(InvalidParameterError, match="n_queries"):
        prm.power(ok, by="system", metric="m")
    with pytest.raises(InvalidParameterError, match="n_queries"):
        prm.power(ok, by="system", metric="m", n_queries=1)
    with pytest.raises(InvalidParameterError, match="delta"):
        prm.power(ok, by="system", metric="m", delta=0.0)
    with pytest.raises(InvalidParameterError, match="power"):
        prm.power(ok, by="system", metric="m", delta=0.1, power=1.0)
    with pytest.raises(InvalidParameterError, match="alpha"):
        prm.power(ok, by="system", metric="m", delta=0.1, alpha=0)
    with pytest.raises(InvalidDataError, match="at least 2"):
        prm.power(frame({"a": [0.25], "b": [0.5]}), by="system", metric="m", delta=0.1)


def _exact_discrimination(values: list[list[int]], alpha: float) -> tuple[int, list[float]]:
    """Sakai's discriminative power with the exact sign-flip test: (significant pairs, sorted ASLs)."""
    n_systems = len(values)
    asl = []
    for i in range(n_systems):
        for j in range(i + 1, n_systems):
            deltas = [Fraction(a - b, GRID) for a, b in zip(values[j], values[i], strict=True)]
            asl.append(exact_sign_flip_p(deltas))
    return sum(p < Fraction(alpha) for p in asl), [float(p) for p in sorted(asl)]


def test_discriminative_power_matches_exact_enumeration() -> None:
    rng = np.random.default_rng(5)
    ints = {
        metric: [list(rng.integers(0, 64, size=7) + 6 * s) for s in range(5)]
        for metric in ("a", "b", "c", "d")
    }
    ints["d"][3] = list(ints["d"][2])  # a pair with every delta 0
    columns = {m: [v / GRID for system in ints[m] for v in system] for m in ints}
    df = pl.DataFrame(
        {"system": [f"s{s}" for s in range(5) for _ in range(7)], "query": list(range(7)) * 5, **columns}
    )
    out = prm.discriminative_power(df, by="system", test="randomization", n_resamples=200, alpha=0.1)
    assert out["metric"].to_list() == ["a", "b", "c", "d"]
    for row in out.iter_rows(named=True):
        significant, asl = _exact_discrimination(ints[row["metric"]], 0.1)
        assert row["pairs"] == 10
        assert row["significant"] == significant
        assert row["discriminative_power"] == significant / 10
        assert row["asl"] == asl


def test_discriminative_power_t_matches_scipy() -> None:
    df = random_frame(12, 4, metrics=("x", "y"), seed=3, shift=0.04)
    out = prm.discriminative_power(df, by="system", test="t", alpha=0.05)
    for row in out.iter_rows(named=True):
        wide = df.pivot(on="system", index="query", values=row["metric"]).sort("query")
        ps = sorted(
            stats.ttest_rel(wide[f"s{j}"], wide[f"s{i}"]).pvalue for i in range(4) for j in range(i + 1, 4)
        )
        assert row["asl"] == pytest.approx(ps, abs=1e-12)
        assert row["significant"] == sum(p < 0.05 for p in ps)


def test_discriminative_power_tukey_is_compare_tukey() -> None:
    df = random_frame(10, 4, metrics=("x",), seed=1, shift=0.05)
    out = prm.discriminative_power(df, by="system", n_resamples=500, seed=3)
    tested = prm.compare(df, by="system", test="tukey", n_resamples=500, seed=3)
    assert out["asl"].item().to_list() == sorted(tested["p_value"].to_list())
    assert out["test"].item() == "tukey"
    with pytest.raises(InvalidParameterError, match="test"):
        prm.discriminative_power(df, by="system", test="wilcoxon")  # type: ignore[arg-type]


def test_asl_curve_plots_every_pair(tmp_path: Path) -> None:
    df = random_frame(10, 4, metrics=("x", "y"), seed=1, shift=0.05)
    power = prm.discriminative_power(df, by="system", test="t")
    chart = prm.plots.asl_curve(power)
    points = pl.DataFrame(chart.layer[0].data.values)
    assert points.height == 12
    assert points.filter(metric="y")["p_value"].to_list() == power.filter(metric="y")["asl"].item().to_list()
    assert chart.layer[1].data.values == [{"alpha": 0.05}]
    prm.plots.asl_curve(power, path=tmp_path / "asl.json", alpha=0.01)
    assert '"alpha": 0.01' in (tmp_path / "asl.json").read_text()
