"""Fusion against ranx, from the same Polars frames: fuse + evaluate, and optimize_fusion.

Two rows (issue 29's targets: >= 10x each):

1. Fuse 5 runs of `--rows` rows each (RRF and min-max CombSUM) and evaluate
   the fused run (ndcg@10, map): ``prm.fuse`` + ``prm.evaluate`` against
   ranx's ``Run.from_df`` per run + ``fuse`` + ``evaluate``.
2. ``optimize_fusion`` over 11 weights per run of 2 runs (wsum, step 0.1,
   ndcg@10): ``prm.optimize_fusion`` against ranx's.

ranx's time includes building its Runs and Qrels from the frames (the user
starts from frames), and is also reported without it. Both sides are warmed
up on a small frame first (numba compiles ranx's functions once), then the
two sides alternate within each repetition so that a loaded machine hurts
both alike; the table reports the best of each::

    python benchmarks/bench_fusion.py                          # 1M rows per run -> results/fusion.md
    python benchmarks/bench_fusion.py --rows 200000 --repeat 2 --out /tmp/f.md
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

import polars_rankmetrics as prm

RESULTS = Path(__file__).parent / "results" / "fusion.md"
ITEMS = 100  # items per query and run


def make_runs(rows: int, n_runs: int, seed: int = 0) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`n_runs` runs of `rows` rows (ITEMS per query) over a shared pool, and qrels (string ids)."""
    rng = np.random.default_rng(seed)
    queries = rows // ITEMS
    parts = []
    for r in range(n_runs):
        q = np.repeat(np.arange(queries), ITEMS)
        item = rng.integers(0, 3 * ITEMS, size=rows)  # overlapping lists; duplicates removed below
        parts.append(
            pl.DataFrame({"run": f"run{r}", "query": q, "item": item, "score": rng.normal(size=rows)})
        )
    runs = (
        pl.concat(parts)
        .unique(["run", "query", "item"], maintain_order=True)
        .with_columns(pl.col("query").cast(pl.String), pl.format("d{}", "item").alias("item"))
    )
    judged = runs.select("query", "item").unique().sort("query", "item").sample(fraction=0.1, seed=seed)
    qrels = judged.with_columns(pl.Series("relevance", rng.integers(0, 3, size=judged.height)))
    return runs, qrels


def _pandas(frame: pl.DataFrame) -> Any:  # noqa: ANN401
    """The frame as pandas with object string columns, the dtype ranx's from_df asserts."""
    out = frame.to_pandas()
    for name in ("q_id", "doc_id"):
        out[name] = out[name].astype(object)
    return out


def ranx_runs(runs: pl.DataFrame) -> list[Any]:
    """One ranx Run per run, from the frame (through pandas, as ranx reads frames)."""
    from ranx import Run  # noqa: PLC0415

    out = []
    for name in sorted(set(runs["run"])):
        part = runs.filter(pl.col("run") == name).select(
            pl.col("query").alias("q_id"), pl.col("item").alias("doc_id"), "score"
        )
        out.append(Run.from_df(_pandas(part), name=name))
    return out


def ranx_qrels(qrels: pl.DataFrame) -> Any:  # noqa: ANN401
    """Ranx's Qrels from the frame."""
    from ranx import Qrels  # noqa: PLC0415

    frame = qrels.select(pl.col("query").alias("q_id"), pl.col("item").alias("doc_id"), "relevance")
    return Qrels.from_df(_pandas(frame), score_col="relevance")


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _ours_fuse(runs: pl.DataFrame, qrels: pl.DataFrame, method: str) -> object:
    fused = prm.fuse(runs, method)
    return prm.evaluate(prm.join_run_qrels(fused, qrels), ["ndcg@10", "map"], conventions="ranx")


def _ranx_fuse(runs: pl.DataFrame, qrels: pl.DataFrame, method: str, built: list[float]) -> object:
    from ranx import evaluate, fuse  # noqa: PLC0415

    start = time.perf_counter()
    r_runs, r_qrels = ranx_runs(runs), ranx_qrels(qrels)
    built.append(time.perf_counter() - start)
    fused = fuse(r_runs, norm="min-max", method="sum" if method == "sum" else "rrf")
    return evaluate(r_qrels, fused, ["ndcg@10", "map"], make_comparable=True)


def _ours_optimize(runs: pl.DataFrame, qrels: pl.DataFrame) -> object:
    return prm.optimize_fusion(runs, qrels, "wsum", metric="ndcg@10", step=0.1)


def _ranx_optimize(runs: pl.DataFrame, qrels: pl.DataFrame, built: list[float]) -> object:
    from ranx import optimize_fusion  # noqa: PLC0415

    start = time.perf_counter()
    r_runs, r_qrels = ranx_runs(runs), ranx_qrels(qrels)
    built.append(time.perf_counter() - start)
    return optimize_fusion(r_qrels, r_runs, method="wsum", metric="ndcg@10", step=0.1, show_progress=False)


def _row(label: str, ours: list[float], theirs: list[float], built: list[float]) -> str:
    o, t = min(ours), min(theirs)
    core = min(x - b for x, b in zip(theirs, built, strict=True))
    load = os.getloadavg()[0]
    return f"| {label} | {o:.2f} | {t:.2f} | {core:.2f} | {t / o:.1f}x | {core / o:.1f}x | {load:.1f} |"


def main() -> None:
    """Time both rows, alternating the two sides; write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows per run")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # numba's type-safety warnings
    load_before = os.getloadavg()[0]

    small, small_qrels = make_runs(2_000, 5, seed=1)
    for method in ("rrf", "sum"):  # warm-up: numba compiles ranx's functions once
        _ours_fuse(small, small_qrels, method)
        _ranx_fuse(small, small_qrels, method, [])
    _ranx_optimize(small.filter(pl.col("run").is_in(["run0", "run1"])), small_qrels, [])

    runs5, qrels = make_runs(args.rows, 5)
    runs2 = runs5.filter(pl.col("run").is_in(["run0", "run1"]))
    lines = []
    for method in ("rrf", "sum"):
        ours, theirs, built = [], [], []
        for _ in range(args.repeat):
            ours.append(_timed(lambda m=method: _ours_fuse(runs5, qrels, m)))
            theirs.append(_timed(lambda m=method, b=built: _ranx_fuse(runs5, qrels, m, b)))
        lines.append(_row(f"fuse 5 runs ({method}, min-max) + evaluate ndcg@10, map", ours, theirs, built))
        print(lines[-1], flush=True)
    ours, theirs, built = [], [], []
    for _ in range(args.repeat):
        ours.append(_timed(lambda: _ours_optimize(runs2, qrels)))
        theirs.append(_timed(lambda: _ranx_optimize(runs2, qrels, built)))
    lines.append(_row("optimize_fusion wsum, 2 runs, 11 weights each, ndcg@10", ours, theirs, built))
    print(lines[-1], flush=True)

    header = [
        "# Fusion against ranx",
        "",
        (
            f"`python benchmarks/bench_fusion.py --rows {args.rows} --repeat {args.repeat}`: "
            f"{args.rows:,} rows per run ({ITEMS} items per query and run, {runs5.height:,} rows in all after "
            f"removing duplicate items), string ids; best of {args.repeat} alternating repetitions, seconds."
        ),
        (
            f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, load average "
            f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} at the end (the 'load' column: at the end of "
            "each row; shared with other jobs: timings are noisy, ratios are within one run). ranx's time "
            "includes building its Runs and Qrels from the frames; 'ranx core' leaves that out."
        ),
        "",
        "| task | polars-rankmetrics | ranx | ranx core | ratio | ratio (core) | load |",
        "|---|---|---|---|---|---|---|",
    ]
    args.out.write_text("\n".join([*header, *lines, ""]))


if __name__ == "__main__":
    main()
