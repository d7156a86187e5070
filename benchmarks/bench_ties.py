"""What the tie policies cost: ``ties="optimistic"`` and ``ties="average"`` against ``"text"``, same data.

``"optimistic"`` adds one field (the grade) to the ranking's struct;
``"average"`` adds the tie-group windows of ``_engine/ties.py`` (group start,
size, share relevant, mean gain; relevant items before; the first-hit
probability). Scores are rounded so that many tie (``--decimals``). The
policies alternate within each repetition so that a noisy machine hurts all
alike; the table reports the best time of each and its ratio to ``"text"``::

    python benchmarks/bench_ties.py                       # 1M rows -> results/ties.md
    python benchmarks/bench_ties.py --rows 10000000 --repeat 3 --out /tmp/t.md
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).parent))
from bench_core import make_frame

import polars_rankmetrics as prm

METRICS = ["ndcg@10", "map", "recip_rank", "P_10", "recall_100"]
POLICIES = ("text", "optimistic", "average")
RESULTS = Path(__file__).parent / "results" / "ties.md"


def main() -> None:
    """Time each policy on the same frame; write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--decimals", type=int, default=1, help="round scores to this many decimals")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()

    frame = make_frame(args.rows).with_columns(pl.col("score").round(args.decimals))
    times: dict[str, list[float]] = {p: [] for p in POLICIES}
    for _ in range(args.repeat):
        for policy in POLICIES:
            start = time.perf_counter()
            prm.evaluate(frame, METRICS, ties=policy)  # type: ignore[arg-type]
            times[policy].append(time.perf_counter() - start)
    base = min(times["text"])
    rows = [(p, min(times[p]), min(times[p]) / base) for p in POLICIES]
    for policy, best, ratio in rows:
        print(f"ties={policy!r}: {best:.2f} s, ratio {ratio:.2f}")

    lines = [
        "# What the tie policies cost",
        "",
        (
            f"`python benchmarks/bench_ties.py --rows {args.rows} --repeat {args.repeat} "
            f"--decimals {args.decimals}`: {args.rows:,} rows ({args.rows // 100:,} queries x 100, string ids, "
            f"scores rounded to {args.decimals} decimal(s) so that most items tie), metrics {', '.join(METRICS)}; "
            f"polars {pl.__version__}, Python {platform.python_version()}, {os.cpu_count()} cores (shared); "
            f"best of {args.repeat} alternating runs."
        ),
        "",
        "| ties | best (s) | ratio to text |",
        "| --- | ---: | ---: |",
        *(f"| `{policy}` | {best:.2f} | {ratio:.2f} |" for policy, best, ratio in rows),
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
