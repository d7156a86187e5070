r"""evaluate_chunked's peak memory against its budget, alone and beside CPU- and memory-heavy processes.

Usage::

    python benchmarks/bench_chunked_budget.py --data /tmp/prm-perf-data --rows 10000000 \\
        --before /path/to/a/checkout/of/the/previous/version --out benchmarks/results/perf_chunked_budget.md

Each run is a fresh process evaluating the five everyday metrics over bench_scale's Parquet file set
with ``memory_mib`` (default 512); it reports the interpreter's baseline (resident memory with Polars
and the library imported), the resident memory when the call starts, the process's peak (VmHWM) and
the call's own growth (peak minus resident memory at the call), which the budget bounds. Conditions:
``as is`` (whatever else the machine runs), ``beside load`` (this script starts two CPU-bound
processes and one that keeps 1.5 GiB resident and rewrites it), and the same with 16 Polars threads.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import dataset

CHILD = """
import json, sys, time
def status():
    found = {}
    for line in open("/proc/self/status"):
        key, _, value = line.partition(":")
        found[key] = int(value.split()[0]) / 1024 if key in ("VmRSS", "VmHWM") else None
    return found["VmRSS"], found["VmHWM"]
import polars as pl
import polars_rankmetrics as prm
from polars_rankmetrics import evaluation  # the modules a call imports, in the baseline
baseline = status()[0]
scan = pl.scan_parquet(sys.argv[1])
at_call = status()[0]
t = time.perf_counter()
prm.evaluate_chunked(scan, ["ndcg@10", "map", "mrr@10", "P_10", "recall_100"], memory_mib=int(sys.argv[2]))
s = time.perf_counter() - t
peak = status()[1]
print(json.dumps({"s": s, "baseline": baseline, "at_call": at_call, "peak": peak, "growth": peak - at_call}))
"""

CPU = "while True: pass"
MEMORY = """
import time
block = bytearray(1536 << 20)
while True:
    for i in range(0, len(block), 4096):
        block[i] = (block[i] + 1) % 256
    time.sleep(0.05)
"""


def child(library: Path, files: str, memory_mib: int, threads: int | None) -> dict[str, float]:
    """One call in a fresh process, with `library` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(library)}
    if threads:
        env["POLARS_MAX_THREADS"] = str(threads)
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", CHILD, files, str(memory_mib)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    report: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def main() -> None:
    """Run every condition and library; print and write the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "prm-perf-data")
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--memory-mib", type=int, default=512)
    parser.add_argument("--before", type=Path, help="a checkout of the previous version, for comparison")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    files = str(dataset(args.data, args.rows, int_ids=False) / "*.parquet")
    here = Path(__file__).resolve().parents[1]
    libraries = {"this version": here, **({"before": args.before} if args.before else {})}
    lines = [
        (
            f"# evaluate_chunked's peak against memory_mib={args.memory_mib}, {args.rows:,} rows, "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
        ),
        "",
        f"`python benchmarks/bench_chunked_budget.py --rows {args.rows} --repeat {args.repeat}`",
        "",
        f"- load average (1 min) at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs",
        "- growth: the process's peak (VmHWM) minus its resident memory when the call starts; the budget",
        "  bounds it. baseline: the interpreter with Polars and the library imported.",
        "",
        "| library | condition | baseline MiB | peak MiB (max) | growth MiB (max) | within budget | s (min) |",
        "| --- | --- | ---: | ---: | ---: | --- | ---: |",
    ]
    for condition in ("as is", "beside load", "beside load, 16 Polars threads"):
        load = []
        if condition != "as is":
            load = [subprocess.Popen([sys.executable, "-c", CPU]) for _ in range(2)]  # noqa: S603
            load.append(subprocess.Popen([sys.executable, "-c", MEMORY]))  # noqa: S603
            time.sleep(3)
        try:
            for name, library in libraries.items():
                threads = 16 if "16" in condition else None
                runs = [child(library, files, args.memory_mib, threads) for _ in range(args.repeat)]
                growth = max(r["growth"] for r in runs)
                lines.append(
                    f"| {name} | {condition} | {runs[0]['baseline']:.0f} | {max(r['peak'] for r in runs):.0f} "
                    f"| {growth:.0f} | {'yes' if growth <= args.memory_mib else 'NO'} "
                    f"| {min(r['s'] for r in runs):.1f} |"
                )
                print(lines[-1], flush=True)
        finally:
            for process in load:
                process.kill()
                process.wait()
    lines += ["", f"- load average (1 min) at end: {os.getloadavg()[0]:.2f}", ""]
    if args.out:
        args.out.write_text("\n".join(lines))


if __name__ == "__main__":
    main()
