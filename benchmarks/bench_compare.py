"""How long prm.compare takes, test by test, against scipy.stats and ranx on the same per-query values.

The issue's size: 10 systems x 5 metrics x 1,000 queries x 10,000 resamples.
Ours runs every test in both modes, against a baseline (9 systems x 5
metrics = 45 comparisons) and every pair (45 pairs x 5 metrics = 225), each
the best of ``--repeat`` runs (and every repeat must give the same bits: the
seed is fixed). The peers do what a user does without this library: one
call per comparison (scipy's ``ttest_rel`` takes every comparison at once),
on the 45 baseline comparisons; ranx's Tukey test is scipy's one-way
``tukey_hsd`` per metric over all 10 systems (not paired: a different test,
timed for reference only). The peers run ``--peer-repeat`` times (they are
slow; the best is kept). The script checks that the answers agree and exits
1 when they do not::

    python benchmarks/bench_compare.py                       # -> results/compare.md
    python benchmarks/bench_compare.py --systems 3 --queries 40 --resamples 400 --repeat 1 --out /tmp/c.md
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import polars as pl
from polars.testing import assert_frame_equal

import polars_rankmetrics as prm

RESULTS = Path(__file__).parent / "results" / "compare.md"
TESTS = ("t", "wilcoxon", "randomization", "bootstrap", "tukey")


def make_per_query(systems: int, queries: int, metrics: int, seed: int = 0) -> pl.DataFrame:
    """One row per (system, query): metric values in [0, 1], system s better by 0.005 s on average."""
    rng = np.random.default_rng(seed)
    base = rng.beta(2.0, 3.0, size=(queries, metrics))
    columns: dict[str, object] = {
        "run": np.repeat([f"sys{s:02d}" for s in range(systems)], queries),
        "query": np.tile([f"q{q:05d}" for q in range(queries)], systems),
    }
    for m in range(metrics):
        noise = [np.clip(base[:, m] + rng.normal(0.005 * s, 0.1, queries), 0, 1) for s in range(systems)]
        columns[f"metric{m}"] = np.concatenate(noise)
    return pl.DataFrame(columns)


def _timed(work: Callable[[], object], repeat: int) -> tuple[float, list[object]]:
    """Best wall time of `repeat` runs, and every run's result."""
    times, results = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        results.append(work())
        times.append(time.perf_counter() - start)
    return min(times), results


def _columns(df: pl.DataFrame, baseline: str) -> tuple[list[tuple[str, str]], np.ndarray, np.ndarray]:
    """The baseline comparisons ((system, metric) each) and their paired values, (queries, comparisons)."""
    metrics = [c for c in df.columns if c.startswith("metric")]
    wide = {m: df.pivot(on="run", index="query", values=m).sort("query") for m in metrics}
    systems = sorted(s for s in df["run"].unique() if s != baseline)
    keys = [(s, m) for m in metrics for s in systems]
    x = np.column_stack([wide[m][s].to_numpy() for s, m in keys])
    y = np.column_stack([wide[m][baseline].to_numpy() for _, m in keys])
    return keys, x, y


def _peers(df: pl.DataFrame, baseline: str, resamples: int, repeat: int) -> dict[str, tuple[float, object]]:
    """Time the peers on the baseline comparisons; each result is per comparison (p, or an interval)."""
    import ranx.statistical_tests as ranx_tests  # noqa: PLC0415  (bench extra)
    from scipy import stats  # noqa: PLC0415

    keys, x, y = _columns(df, baseline)
    k = len(keys)

    def mean_delta(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray:
        return np.mean(a - b, axis=axis)

    def abs_mean_delta(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray:
        # |mean| with alternative="greater": the two-sided sign-flip test as ours defines it.
        return np.abs(np.mean(a - b, axis=axis))

    ranx_tests.fisher_randomization_test(x[:50, 0], y[:50, 0], 10, 0.05, 0)  # numba's JIT, not timed
    runs: dict[str, Callable[[], object]] = {
        "scipy ttest_rel (one call)": lambda: stats.ttest_rel(x, y, axis=0).pvalue,
        "ranx paired_student_t_test": lambda: [
            ranx_tests.paired_student_t_test(y[:, c], x[:, c])[0] for c in range(k)
        ],
        "scipy wilcoxon": lambda: [stats.wilcoxon(x[:, c], y[:, c]).pvalue for c in range(k)],
        "scipy permutation_test (samples)": lambda: [
            stats.permutation_test(
                (x[:, c], y[:, c]),
                abs_mean_delta,
                permutation_type="samples",
                vectorized=True,
                n_resamples=resamples,
                alternative="greater",
                random_state=c,
            ).pvalue
            for c in range(k)
        ],
        "ranx fisher_randomization_test": lambda: [
            ranx_tests.fisher_randomization_test(y[:, c], x[:, c], resamples, 0.05, c)[0] for c in range(k)
        ],
        "scipy bootstrap (paired, percentile)": lambda: [
            tuple(
                stats.bootstrap(
                    (x[:, c], y[:, c]),
                    mean_delta,
                    paired=True,
                    vectorized=True,
                    n_resamples=resamples,
                    method="percentile",
                    random_state=c,
                ).confidence_interval
            )
            for c in range(k)
        ],
        "ranx tukey_hsd_test (scipy one-way, all pairs)": lambda: [
            ranx_tests.tukey_hsd_test(
                sorted(df["run"].unique()),
                [
                    df.filter(pl.col("run") == s).sort("query")[m].to_numpy()
                    for s in sorted(df["run"].unique())
                ],
                0.05,
            )
            for m in sorted({m for _, m in keys})
        ],
    }
    out = {}
    for label, run in runs.items():
        seconds, results = _timed(run, repeat)
        out[label] = (seconds, results[0])
        print(f"{label}: {seconds:.3f} s")
    return out


def _agreement(ours: pl.DataFrame, peers: dict[str, tuple[float, object]], test: str, resamples: int) -> str:
    """One line: how far our baseline comparisons are from the peers' (in comparison order)."""
    got = ours.sort("metric", "run")
    p = got["p_value"].to_numpy()
    if test == "t":
        scipy_p = np.asarray(peers["scipy ttest_rel (one call)"][1])
        ranx_p = np.asarray(peers["ranx paired_student_t_test"][1])
        worst = max(
            np.max(np.abs(p - scipy_p) / scipy_p.clip(1e-300)),
            np.max(np.abs(p - ranx_p) / ranx_p.clip(1e-300)),
        )
        return (
            f"p vs scipy and ranx: max relative difference {worst:.1e} ({'OK' if worst < 1e-9 else 'FAIL'})"
        )
    if test == "wilcoxon":
        worst = float(np.max(np.abs(p - np.asarray(peers["scipy wilcoxon"][1]))))
        return f"p vs scipy: max difference {worst:.1e} ({'OK' if worst < 1e-12 else 'FAIL'})"
    if test == "randomization":
        lines = []
        for label in ("scipy permutation_test (samples)", "ranx fisher_randomization_test"):
            theirs = np.asarray(peers[label][1])
            se = np.sqrt(np.maximum(p * (1 - p), 1 / resamples) / resamples) * math.sqrt(2)
            worst = float(np.max(np.abs(p - theirs) / se))
            lines.append(
                f"p vs {label.split()[0]}: max {worst:.1f} standard errors ({'OK' if worst <= 4 else 'FAIL'})"
            )
        return "; ".join(lines)
    if test == "bootstrap":
        theirs = np.asarray(peers["scipy bootstrap (paired, percentile)"][1])  # (k, 2)
        width = got["ci_high"].to_numpy() - got["ci_low"].to_numpy()
        diff = np.abs(np.column_stack([got["ci_low"].to_numpy(), got["ci_high"].to_numpy()]) - theirs)
        # Monte Carlo error of a 2.5% quantile of a normal bootstrap distribution: about 0.68 / sqrt(R)
        # of the 95% interval's width; two independent estimates: sqrt(2) times that.
        se = 0.68 * math.sqrt(2) / math.sqrt(resamples)
        worst = float(np.max(diff / width[:, None]))
        verdict = "OK" if worst <= 4 * se else "FAIL"
        return f"interval vs scipy: max difference {worst:.1%} of its width, {worst / se:.1f} standard errors ({verdict})"
    return "ranx's Tukey test is another test (unpaired one-way): not compared"


def main(argv: Sequence[str] | None = None) -> int:
    """Time ours and the peers, check the agreement, write the table; 1 if anything disagrees."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--systems", type=int, default=10)
    add("--queries", type=int, default=1000)
    add("--metrics", type=int, default=5)
    add("--resamples", type=int, default=10_000)
    add("--repeat", type=int, default=3)
    add("--peer-repeat", type=int, default=1)
    add("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    df = make_per_query(args.systems, args.queries, args.metrics)
    baseline = "sys00"
    ours: dict[tuple[str, str], tuple[float, pl.DataFrame]] = {}
    for test in TESTS:
        for mode, base in (("baseline", baseline), ("all pairs", None)):

            def run(test: str = test, base: str | None = base) -> pl.DataFrame:
                return prm.compare(df, by="run", baseline=base, test=test, n_resamples=args.resamples, seed=0)  # type: ignore[arg-type]

            run()  # imports (scipy) and caches, not timed
            seconds, results = _timed(run, args.repeat)
            for other in results[1:]:
                assert_frame_equal(other, results[0], check_exact=True)  # same seed, same bits
            ours[test, mode] = (seconds, results[0])
            print(f"prm.compare test={test} {mode}: {seconds:.3f} s ({results[0].height} comparisons)")
    peers = _peers(df, baseline, args.resamples, args.peer_repeat)
    peer_of = {
        "t": ["scipy ttest_rel (one call)", "ranx paired_student_t_test"],
        "wilcoxon": ["scipy wilcoxon"],
        "randomization": ["scipy permutation_test (samples)", "ranx fisher_randomization_test"],
        "bootstrap": ["scipy bootstrap (paired, percentile)"],
        "tukey": ["ranx tukey_hsd_test (scipy one-way, all pairs)"],
    }
    n_base = ours["t", "baseline"][1].height
    rows, checks = [], []
    for test in TESTS:
        mine = ours[test, "baseline"][0]
        for label in peer_of[test]:
            seconds = peers[label][0]
            rows.append(
                f"| {test} | {label} | {mine:.3f} | {ours[test, 'all pairs'][0]:.3f} | {seconds:.3f} | {seconds / mine:.1f} |"
            )
        checks.append(f"- {test}: {_agreement(ours[test, 'baseline'][1], peers, test, args.resamples)}")
    lines = [
        "# Comparing systems: prm.compare against scipy.stats and ranx",
        "",
        (
            f"`python benchmarks/bench_compare.py --systems {args.systems} --queries {args.queries} "
            f"--metrics {args.metrics} --resamples {args.resamples} --repeat {args.repeat} "
            f"--peer-repeat {args.peer_repeat}`: {args.systems} systems x {args.metrics} metrics x "
            f"{args.queries:,} queries, {args.resamples:,} resamples; polars {pl.__version__}, numpy "
            f"{np.__version__}, Python {platform.python_version()}, {os.cpu_count()} cores shared with "
            f"other work (timings are noisy: ours best of {args.repeat}, peers best of {args.peer_repeat})."
        ),
        "",
        (
            f"Ours: one call, against the baseline ({n_base} comparisons) and every pair "
            f"({ours['t', 'all pairs'][1].height}). Peers: one call per baseline comparison ({n_base}), "
            "as a user would write it (scipy's ttest_rel takes them all at once). Ratio: the peer's time "
            "over ours for the same baseline comparisons."
        ),
        "",
        "| test | peer | ours, baseline (s) | ours, all pairs (s) | peer, baseline (s) | peer / ours |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
        *rows,
        "",
        "Agreement on the baseline comparisons (the script exits 1 on a FAIL):",
        "",
        *checks,
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}")
    return 1 if any("FAIL" in line for line in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
