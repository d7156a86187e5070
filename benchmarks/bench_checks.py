"""What the data checks cost: ``check=True`` (the default) against ``check=False``, same data, one run.

The checks (null ids, NaN or infinite scores, ranks below 1, NaN grades,
duplicate (query, item) rows) are part of the evaluation's own plan
(``_engine/plan_checks.py``), so they share its ranking window and its per-query
aggregation. This script times both settings on the same frame for three
paths, alternating the two settings within each repetition so that a noisy
machine hurts both alike, and reports the best time of each and their ratio
(issue 11's target: at most 1.15 at 10M rows)::

    python benchmarks/bench_checks.py                   # 10M rows -> results/checks.md
    python benchmarks/bench_checks.py --rows 1000000 --repeat 5 --out /tmp/c.md
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).parent))
from bench_core import make_frame

import polars_rankmetrics as prm

METRICS = ["ndcg@10", "map", "recip_rank", "P_10", "recall_100"]
RESULTS = Path(__file__).parent / "results" / "checks.md"


def _best(work: Callable[[], object], times: list[float]) -> None:
    start = time.perf_counter()
    work()
    times.append(time.perf_counter() - start)


def main() -> None:
    """Time every path with and without the checks; write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()

    frame = make_frame(args.rows)
    lazy = frame.lazy()
    paths: dict[str, Callable[[bool], object]] = {
        "evaluate(DataFrame)": lambda check: prm.evaluate(frame, METRICS, check=check),
        "evaluate(LazyFrame).collect(engine='streaming')": lambda check: prm.collect(
            prm.evaluate(lazy, METRICS, check=check), engine="streaming"
        ),
        "evaluate(DataFrame, per_query=True)": lambda check: prm.evaluate(
            frame, METRICS, per_query=True, check=check
        ),
    }
    rows = []
    for label, run in paths.items():
        off: list[float] = []
        on: list[float] = []
        for _ in range(args.repeat):
            _best(lambda run=run: run(False), off)  # noqa: FBT003  # type: ignore[misc]
            _best(lambda run=run: run(True), on)  # noqa: FBT003  # type: ignore[misc]
        rows.append((label, min(off), min(on), min(on) / min(off)))
        print(
            f"{label}: check=False {min(off):.2f} s, check=True {min(on):.2f} s, ratio {min(on) / min(off):.3f}"
        )

    lines = [
        "# What the data checks cost",
        "",
        (
            f"`python benchmarks/bench_checks.py --rows {args.rows} --repeat {args.repeat}`: "
            f"{args.rows:,} rows ({args.rows // 100:,} queries x 100, string ids), "
            f"metrics {', '.join(METRICS)}; polars {pl.__version__}, Python {platform.python_version()}, "
            f"{os.cpu_count()} cores; best of {args.repeat} alternating runs."
        ),
        "",
        "| path | check=False (s) | check=True (s) | ratio |",
        "| --- | ---: | ---: | ---: |",
        *(f"| {label} | {off:.2f} | {on:.2f} | {ratio:.3f} |" for label, off, on, ratio in rows),
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
