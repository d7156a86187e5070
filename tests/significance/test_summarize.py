"""prm.summarize and replicates against scipy (t interval, percentile bootstrap) and plain numpy."""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from scipy import stats

import polars_rankmetrics as prm
from polars_rankmetrics.exceptions import ColumnNotFoundError, InvalidDataError, InvalidParameterError
from polars_rankmetrics.significance._summary import bootstrap_rows
from significance.compare_data import frame, random_frame


def _pilot() -> pl.DataFrame:
    """Three systems, two metrics, queries missing for s1; s2 has one query; s3 is constant."""
    df = random_frame(30, 2, metrics=("m", "k"), seed=4)
    df = df.filter(~((pl.col("system") == "s1") & pl.col("query").is_in(["q003", "q017", "q020"])))
    one = pl.DataFrame({"system": ["s2"], "query": ["q000"], "m": [0.25], "k": [0.5]})
    flat = pl.DataFrame({"system": ["s3"] * 4, "query": ["q000", "q001", "q002", "q003"], "m": [0.5] * 4})
    flat = flat.with_columns(k=pl.Series([0.25, 0.5, 0.75, 0.25]))
    return pl.concat([df, one, flat])


def _values(df: pl.DataFrame, system: str, metric: str) -> np.ndarray:
    return df.filter(pl.col("system") == system).get_column(metric).to_numpy()


@pytest.mark.parametrize("alpha", [0.05, 0.1])
def test_t_interval_matches_scipy(alpha: float) -> None:
    df = _pilot()
    out = prm.summarize(df.sample(fraction=1.0, shuffle=True, seed=1), by="system", alpha=alpha)
    assert out.equals(prm.summarize(df, by="system", alpha=alpha))  # row order never changes the bits
    assert out.columns == ["system", "metric", "n", "mean", "std", "ci_low", "ci_high"]
    assert out.select("metric", "system").rows() == [
        (m, s) for m in ("m", "k") for s in ("s0", "s1", "s2", "s3")
    ]
    for row in out.iter_rows(named=True):
        x = _values(df, row["system"], row["metric"])
        assert row["n"] == len(x)
        assert row["mean"] == pytest.approx(x.mean(), abs=1e-15)
        if len(x) == 1:
            assert row["std"] is row["ci_low"] is row["ci_high"] is None
            continue
        assert row["std"] == pytest.approx(x.std(ddof=1), abs=1e-15)
        if x.std() == 0:
            assert row["ci_low"] == row["ci_high"] == x[0]
            continue
        low, high = stats.t.interval(1 - alpha, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        assert row["ci_low"] == pytest.approx(low, abs=1e-12)
        assert row["ci_high"] == pytest.approx(high, abs=1e-12)
    assert out.filter(system="s1")["n"].to_list() == [27, 27]


@pytest.mark.parametrize("seed", [0, 7])
def test_bootstrap_interval_matches_scipy_draw_for_draw(seed: int) -> None:
    df = _pilot().filter(pl.col("system") != "s3")
    out = prm.summarize(df, by="system", interval="bootstrap", n_resamples=2_000, seed=seed, alpha=0.1)
    for row in out.filter(pl.col("n") > 1).iter_rows(named=True):
        x = _values(df, row["system"], row["metric"])
        ref = stats.bootstrap(
            (x,),
            np.mean,
            method="percentile",
            n_resamples=2_000,
            confidence_level=0.9,
            rng=np.random.default_rng(seed),
            batch=bootstrap_rows(len(x)),
        )
        assert row["ci_low"] == pytest.approx(ref.confidence_interval.low, abs=1e-12)
        assert row["ci_high"] == pytest.approx(ref.confidence_interval.high, abs=1e-12)
    again = prm.summarize(df, by="system", interval="bootstrap", n_resamples=2_000, seed=seed, alpha=0.1)
    assert again.equals(out)  # the same seed, the same bits


def test_bootstrap_batches_like_scipy_on_many_queries() -> None:
    """More queries than one chunk of draws holds: the chunks follow scipy's batches."""
    x = np.random.default_rng(3).integers(0, 64, size=3000) / 64
    df = pl.DataFrame({"system": ["a"] * 3000 + ["b"] * 3000, "query": list(range(3000)) * 2, "m": [*x, *x]})
    out = prm.summarize(df, by="system", interval="bootstrap", n_resamples=700, seed=5)
    ref = stats.bootstrap(
        (x,),
        np.mean,
        method="percentile",
        n_resamples=700,
        rng=np.random.default_rng(5),
        batch=bootstrap_rows(3000),
    )
    assert bootstrap_rows(3000) < 700
    assert out["ci_low"].to_list() == pytest.approx([ref.confidence_interval.low] * 2, abs=1e-12)
    assert out["ci_high"].to_list() == pytest.approx([ref.confidence_interval.high] * 2, abs=1e-12)


def _replicated() -> pl.DataFrame:
    rng = np.random.default_rng(11)
    keys = list(itertools.product(("a", "b", "c"), (1, 2, 3), range(8)))
    rows = [
        (s, seed, f"q{q}", float(v) / 64)
        for (s, seed, q), v in zip(keys, rng.integers(0, 64, len(keys)), strict=True)
    ]
    return pl.DataFrame(rows, schema=["system", "seed", "query", "m"], orient="row")


def test_replicates_are_averaged_before_the_paired_test() -> None:
    df = _replicated()
    averaged = df.group_by("system", "query").agg(pl.col("m").mean())
    out = prm.compare(df.sample(fraction=1.0, shuffle=True, seed=2), by="system", replicates="seed")
    plain = prm.compare(averaged, by="system")
    assert_frame_equal(
        out.drop("n_replicates", "replicate_std", "baseline_replicate_std"), plain, abs_tol=1e-15
    )
    for row in out.iter_rows(named=True):
        for who, column in ((row["system"], "replicate_std"), (row["baseline"], "baseline_replicate_std")):
            per_seed = df.filter(system=who).group_by("seed").agg(pl.col("m").mean())["m"].to_numpy()
            assert row[column] == pytest.approx(per_seed.std(ddof=1), abs=1e-15)
        assert row["n_replicates"] == 3
    summary = prm.summarize(df, by="system", replicates="seed")
    assert_frame_equal(
        summary.drop("n_replicates", "replicate_std"), prm.summarize(averaged, by="system"), abs_tol=1e-15
    )
    table = prm.table_markdown(out)  # the replicate columns do not upset the table
    assert "a (a)" in table


def test_unequal_replicates_are_refused_unless_averaged() -> None:
    df = _replicated().filter(
        ~((pl.col("system") == "b") & (pl.col("seed") == 3) & (pl.col("query") == "q2"))
    )
    with pytest.raises(InvalidDataError, match="unequal_replicates='mean'"):
        prm.compare(df, by="system", replicates="seed")
    with pytest.raises(InvalidDataError, match="different numbers of replicates"):
        prm.summarize(df, by="system", replicates="seed")
    out = prm.summarize(df, by="system", replicates="seed", unequal_replicates="mean")
    assert df.filter(system="b", query="q2").height == 2
    means = df.group_by("system", "query").agg(pl.col("m").mean()).filter(system="b")["m"].mean()
    assert out.filter(system="b")["mean"].item() == pytest.approx(means, abs=1e-15)
    fewer = _replicated().filter(~((pl.col("system") == "c") & (pl.col("seed") == 3)))
    with pytest.raises(InvalidDataError, match="replicates"):
        prm.compare(fewer, by="system", replicates="seed")


def test_replicate_refusals() -> None:
    df = _replicated()
    with pytest.raises(ColumnNotFoundError, match="fold"):
        prm.compare(df, by="system", replicates="fold")
    with pytest.raises(InvalidParameterError, match="replicates"):
        prm.summarize(df, by="system", replicates="query")
    with pytest.raises(InvalidParameterError, match="unequal_replicates"):
        prm.summarize(df, by="system", replicates="seed", unequal_replicates="drop")  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError, match="several rows"):
        prm.summarize(pl.concat([df, df.head(1)]), by="system", replicates="seed")
    with pytest.raises(InvalidDataError, match="null"):
        prm.summarize(
            df.with_columns(seed=pl.when(pl.col("m") > 0.5).then("seed")), by="system", replicates="seed"
        )


def test_summarize_refusals() -> None:
    df = frame({"a": [0.5, 0.25], "b": [0.75, 0.5]})
    with pytest.raises(InvalidParameterError, match="interval"):
        prm.summarize(df, by="system", interval="normal")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="alpha"):
        prm.summarize(df, by="system", alpha=1.5)
    with pytest.raises(InvalidParameterError, match="n_resamples"):
        prm.summarize(df, by="system", interval="bootstrap", n_resamples=0)
    with pytest.raises(InvalidParameterError, match="seed"):
        prm.summarize(df, by="system", seed=-1)
    with pytest.raises(InvalidDataError, match="NaN"):
        prm.summarize(df.with_columns(m=pl.lit(float("nan"))), by="system")
    with pytest.raises(ColumnNotFoundError):
        prm.summarize(df, by="run")


def test_table_shows_the_intervals_on_request() -> None:
    df = frame({"a": [0.25, 0.5, 0.75, 0.5], "b": [0.5, 0.75, 1.0, 0.5]})
    summary = prm.summarize(df, by="system")
    text = prm.table_markdown(prm.compare(df, by="system", baseline="a"), intervals=summary, decimals=2)
    low, high = summary.filter(system="b").select("ci_low", "ci_high").row(0)
    assert f"0.69 [{low:.2f}, {high:.2f}]" in text
    assert "interval of each mean" in text
    assert "[" not in prm.table_markdown(prm.compare(df, by="system", baseline="a"))
    html = prm.table(prm.compare(df, by="system", baseline="a"), intervals=summary).as_raw_html()
    assert f"[{low:.4f}, {high:.4f}]" in html
    with pytest.raises(ColumnNotFoundError, match="ci_low"):
        prm.table_markdown(prm.compare(df, by="system", baseline="a"), intervals=summary.drop("ci_low"))
