"""Metrics as your own expressions: ``group_by("query").agg(rx....)`` against ``evaluate(per_query=True)``.

Both give the same per-query values (checked here, bit for bit, before
anything is timed). evaluate ranks every row once with windows and keeps
its whole plan on the streaming engine; each ``polars_rankmetrics.expr``
builder sorts its group inside the aggregation, which Polars' streaming
engine runs on the in-memory engine (one fallback node: counted here). This
script times four paths on the same frame, alternating them within each
repetition so that a noisy machine hurts all alike, and reports the best
time of each and its ratio to evaluate's::

    python benchmarks/bench_expr.py                      # 1M rows -> results/expr.md
    python benchmarks/bench_expr.py --large              # 1M and 10M rows
    python benchmarks/bench_expr.py --rows 20000 --repeat 1 --out /tmp/e.md   # smoke
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
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # plans.py: reading query plans
from bench_core import make_frame
from plans import calls_python, fallback_nodes

import polars_rankmetrics as prm
from polars_rankmetrics import expr as rx

METRICS = ["ndcg@10", "map", "recip_rank", "P_10", "recall_100"]
RESULTS = Path(__file__).parent / "results" / "expr.md"


def builders() -> list[pl.Expr]:
    """The five metrics as builders, named as evaluate names them (``P_10``, ``recip_rank``...)."""
    exprs = [rx.ndcg(10), rx.average_precision(), rx.reciprocal_rank(), rx.precision(10), rx.recall(100)]
    return [e.alias(name) for e, name in zip(exprs, METRICS, strict=True)]


def _timed(work: Callable[[], pl.DataFrame], times: list[float]) -> pl.DataFrame:
    start = time.perf_counter()
    out = work()
    times.append(time.perf_counter() - start)
    return out


def _same(expected: pl.DataFrame, got: pl.DataFrame, label: str) -> None:
    """Every per-query value equal to the bit (as shortest round-trip text), on evaluate's queries."""
    joined = expected.join(got, on="query", how="left", suffix="__rx")
    for name in METRICS:
        want = joined[name].cast(pl.String)
        have = joined[name + "__rx"].cast(pl.String)
        if not (want == have).all():
            msg = f"{label}: {name} differs from evaluate's"
            raise AssertionError(msg)


def measure(rows: int, repeat: int) -> list[tuple[str, float, float]]:
    """(path, best seconds, ratio to evaluate's best) for each path at `rows` rows."""
    frame = make_frame(rows)
    lazy = frame.lazy()
    grouped = lazy.group_by("query").agg(builders())
    if calls_python(grouped):
        msg = "a builder calls Python"
        raise AssertionError(msg)
    print(f"{rows:,} rows: {len(fallback_nodes(grouped))} fallback node(s) in the builders' streaming plan")
    paths: dict[str, Callable[[], pl.DataFrame]] = {
        "evaluate(DataFrame, per_query=True)": lambda: prm.evaluate(frame, METRICS, per_query=True),
        "evaluate(LazyFrame, per_query=True).collect(engine='streaming')": lambda: prm.collect(
            prm.evaluate(lazy, METRICS, per_query=True), engine="streaming"
        ),
        "DataFrame.group_by('query').agg(rx...)": lambda: frame.group_by("query").agg(builders()),
        "LazyFrame.group_by('query').agg(rx...).collect(engine='streaming')": lambda: grouped.collect(
            engine="streaming"
        ),
    }
    times: dict[str, list[float]] = {label: [] for label in paths}
    for _ in range(repeat):
        outputs = {label: _timed(run, times[label]) for label, run in paths.items()}
    expected = outputs["evaluate(DataFrame, per_query=True)"]
    for label, out in outputs.items():
        _same(expected, out, label)
    base = min(times["evaluate(DataFrame, per_query=True)"])
    result = [(label, min(t), min(t) / base) for label, t in times.items()]
    for label, best, ratio in result:
        print(f"  {label}: {best:.2f} s ({ratio:.2f}x evaluate)")
    return result


def main(argv: list[str] | None = None) -> int:
    """Time every path at each size; write the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--large", action="store_true", help="also 10M rows (minutes, ~4 GB of memory)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    sizes = [*args.rows, *([10_000_000] if args.large and 10_000_000 not in args.rows else [])]

    lines = [
        "# Metrics as your own expressions",
        "",
        (
            f"`python benchmarks/bench_expr.py{' --large' if args.large else ''} --repeat {args.repeat}`: "
            f"{', '.join(f'{n:,}' for n in sizes)} rows (queries x 100, string ids, `bench_core.make_frame`), "
            f"metrics {', '.join(METRICS)} (as `rx.ndcg(10)`, `rx.average_precision()`, "
            "`rx.reciprocal_rank()`, `rx.precision(10)`, `rx.recall(100)`); "
            f"polars {pl.__version__}, Python {platform.python_version()}, {os.cpu_count()} cores; "
            f"best of {args.repeat} alternating runs. Every path's per-query values are checked equal "
            "to evaluate's, bit for bit, before the times are reported. The ratio is the path's best "
            "time over `evaluate(DataFrame, per_query=True)`'s at the same size. The machine's cores are "
            "shared with other jobs: timings are noisy, the best run is the least disturbed, and the "
            "ratios (same run, alternating) are the figures to read."
        ),
        "",
        "| rows | path | best (s) | ratio |",
        "| ---: | --- | ---: | ---: |",
    ]
    for rows in sizes:
        lines += [
            f"| {rows:,} | {label} | {best:.2f} | {ratio:.2f} |"
            for label, best, ratio in measure(rows, args.repeat)
        ]
    lines.append("")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
