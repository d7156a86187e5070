"""Catalog-scope recommender metrics at scale: 1M users x 10 items (10M rows), one evaluate call.

Personalization, coverage, novelty and intra-list similarity (16 features)
are computed together, per engine, each run in a fresh subprocess so that
its peak RSS (``ru_maxrss``) is its own. The data is generated with numpy,
seeded and vectorised: every user gets 10 distinct items from a 100k-item
catalog, skewed towards popular items.

Run it as a script (it is not a pytest file; ``benchmarks/`` is outside
``testpaths``)::

    python benchmarks/bench_recsys.py                 # writes benchmarks/results/recsys.md
    python benchmarks/bench_recsys.py --users 100000  # a smaller run

``--recmetrics PYTHON`` also times recmetrics' pairwise ``personalization``
in another interpreter (recmetrics needs an old pandas; give the python of
a virtual environment where it installs), doubling the number of users
until a run takes longer than ``--budget`` seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

N_ITEMS = 100_000
LIST_LENGTH = 10
N_FEATURES = 16
SEED = 20080601

RESULTS = Path(__file__).parent / "results" / "recsys.md"


def make_data(n_users: int) -> dict[str, object]:
    """The run (user, item, score), item features (wide) and item popularity, seeded."""
    import numpy as np  # noqa: PLC0415
    import polars as pl  # noqa: PLC0415

    rng = np.random.default_rng(SEED)
    # A skewed first item per user, then a stride: 10 distinct items per list (9 * 9_999 < 100k).
    first = (rng.pareto(1.2, n_users) * 200).astype(np.int64) % N_ITEMS
    stride = rng.integers(1, 10_000, n_users)
    position = np.arange(LIST_LENGTH)
    items = (first[:, None] + stride[:, None] * position[None, :]) % N_ITEMS
    run = pl.DataFrame(
        {
            "query": np.repeat(np.arange(n_users, dtype=np.int64), LIST_LENGTH),
            "item": items.ravel(),
            "score": np.tile((LIST_LENGTH - position).astype(np.float64), n_users),
        }
    )
    vectors = rng.standard_normal((N_ITEMS, N_FEATURES))
    vectors[rng.random(N_ITEMS) < 0.01] = 0.0  # some zero vectors
    features = pl.DataFrame({"item": np.arange(N_ITEMS, dtype=np.int64)}).with_columns(
        pl.Series(f"f{j}", vectors[:, j]) for j in range(N_FEATURES)
    )
    popularity = pl.DataFrame(
        {"item": np.arange(N_ITEMS, dtype=np.int64), "users": rng.integers(1, n_users + 1, N_ITEMS)}
    )
    return {"run": run, "features": features, "popularity": popularity, "n_users": n_users}


def child(n_users: int, engine: str, which: str) -> dict[str, object]:
    """Generate the data, evaluate once, report times and the peak RSS of this process."""
    import polars as pl  # noqa: PLC0415

    import polars_rankmetrics as prm  # noqa: PLC0415

    start = time.perf_counter()
    data = make_data(n_users)
    generated = time.perf_counter() - start
    rss_data = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    run = data["run"]
    assert isinstance(run, pl.DataFrame)
    metrics = {
        "personalization": prm.personalization(10),
        "coverage": prm.coverage(10),
        "novelty": prm.novelty(10, popularity=data["popularity"], n_users=n_users),  # type: ignore[arg-type]
        "intra_list_similarity": prm.intra_list_similarity(10, features=data["features"]),  # type: ignore[arg-type]
    }
    chosen = list(metrics.values()) if which == "all" else [metrics[which]]
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    out = prm.evaluate(run.lazy(), chosen).collect(engine=engine)  # type: ignore[call-overload]
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss = after.ru_maxrss * 1024
    return {
        "users": n_users,
        "rows": run.height,
        "engine": engine,
        "metrics": which,
        "generate_s": round(generated, 2),
        "evaluate_s": round(seconds, 2),
        "cpu_s": round(cpu, 2),
        "peak_rss_gb": round(rss / 1e9, 2),
        "rss_after_data_gb": round(rss_data / 1e9, 2),
        "values": out.row(0, named=True),
    }


RECMETRICS_CHILD = """
import json, resource, sys, time
import numpy as np
import recmetrics
n = int(sys.argv[1])
rng = np.random.default_rng(20080601)
first = (rng.pareto(1.2, n) * 200).astype(np.int64) % 100_000
stride = rng.integers(1, 10_000, n)
items = (first[:, None] + stride[:, None] * np.arange(10)[None, :]) % 100_000
predicted = items.tolist()
start = time.perf_counter()
value = recmetrics.personalization(predicted)
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
out = {"users": n, "seconds": round(seconds, 2), "peak_rss_gb": round(rss / 1e9, 2), "value": value}
print(json.dumps(out))
"""


def _limit_memory(gigabytes: float | None) -> None:
    """Cap the address space of a child, so that running out gives a MemoryError, not the OOM killer."""
    if gigabytes:
        limit = int(gigabytes * 1e9)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run_child(args: list[str], timeout: float, memory_gb: float | None = None) -> dict[str, object] | None:
    """Run a child that prints one JSON line; None if it ran past `timeout`, {"error": ...} if it failed."""
    try:
        done = subprocess.run(  # noqa: S603  (the limit is set before exec, nothing else runs)
            args, capture_output=True, text=True, timeout=timeout, check=False,
            preexec_fn=lambda: _limit_memory(memory_gb),
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        return {
            "error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"rc {done.returncode}"
        }
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def ours_equal_recmetrics(python: str, n_users: int) -> dict[str, object] | None:
    """Recmetrics' personalization and ours on the same small data."""
    code = RECMETRICS_CHILD
    result = run_child([python, "-c", code, str(n_users)], timeout=600, memory_gb=8.0)
    if not result or "error" in result:
        return result
    import polars as pl  # noqa: PLC0415

    import polars_rankmetrics as prm  # noqa: PLC0415

    run = make_data(n_users)["run"]
    assert isinstance(run, pl.DataFrame)
    ours = prm.evaluate(run, [prm.personalization()]).item()
    return {"users": n_users, "recmetrics": result["value"], "ours": ours}


def main() -> None:
    """Run every configuration in its own process, then recmetrics if asked; write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--recmetrics", metavar="PYTHON", help="a python where `import recmetrics` works")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds per recmetrics run")
    parser.add_argument("--memory-gb", type=float, default=8.0, help="address-space cap of a recmetrics run")
    parser.add_argument("--child", nargs=3, metavar=("USERS", "ENGINE", "METRICS"), help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    if args.child:
        users, engine, which = args.child
        print(json.dumps(child(int(users), engine, which)))
        return

    me = [sys.executable, __file__, "--child"]
    load_before = os.getloadavg()
    runs = []
    for engine in ("in-memory", "streaming"):
        for which in ("all", "personalization", "coverage", "novelty", "intra_list_similarity"):
            result = run_child([*me, str(args.users), engine, which], timeout=1200)
            print(engine, which, result, flush=True)
            runs.append(result)
    recmetrics_runs: list[dict[str, object]] = []
    check = None
    if args.recmetrics:
        check = ours_equal_recmetrics(args.recmetrics, 300)
        print("check", check, flush=True)
        n = 1000
        while True:
            start = time.perf_counter()
            command = [args.recmetrics, "-c", RECMETRICS_CHILD, str(n)]
            result = run_child(command, timeout=args.budget, memory_gb=args.memory_gb)
            elapsed = time.perf_counter() - start
            print("recmetrics", n, result, round(elapsed, 1), flush=True)
            recmetrics_runs.append(
                {"users": n, **result}
                if result
                else {"users": n, "error": f"over {args.budget:.0f} s, stopped"}
            )
            if not result or "error" in result:
                break
            n *= 2
    load_after = os.getloadavg()
    write_report(args, runs, recmetrics_runs, check, load_before, load_after)


def write_report(  # noqa: PLR0913, PLR0917
    args: argparse.Namespace,
    runs: list[dict[str, object] | None],
    recmetrics_runs: list[dict[str, object]],
    check: dict[str, object] | None,
    load_before: tuple[float, float, float],
    load_after: tuple[float, float, float],
) -> None:
    """Write the results as Markdown to ``args.out``."""
    import polars as pl  # noqa: PLC0415

    lines = [
        "# Recommender catalog metrics: benchmark",
        "",
        (
            f"`python benchmarks/bench_recsys.py --users {args.users}`; "
            f"{args.users:,} users x {LIST_LENGTH} items = {args.users * LIST_LENGTH:,} rows, "
            f"{N_ITEMS:,}-item catalog, {N_FEATURES} features per item, seed {SEED}."
        ),
        "",
        (
            f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"Polars {pl.__version__}. Shared machine: load average {load_before[0]:.2f} before, "
            f"{load_after[0]:.2f} after (1 min)."
        ),
        "",
        "Each row is one `evaluate(...).collect(engine=...)` in a fresh process: wall time of the evaluation",
        "alone, its CPU time (user + system, all threads), and that process's peak RSS (which includes",
        "the generated data, shown separately).",
        "",
        "| engine | metrics | evaluate wall (s) | CPU (s) | peak RSS (GB) | RSS after data generation (GB) |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for run in runs:
        if run is None or "error" in run:
            lines.append(f"| ? | ? | failed: {run} | | | |")
            continue
        cells = [
            run[c] for c in ("engine", "metrics", "evaluate_s", "cpu_s", "peak_rss_gb", "rss_after_data_gb")
        ]
        lines.append("| " + " | ".join(map(str, cells)) + " |")
    values = next((r["values"] for r in runs if r and r.get("metrics") == "all"), None)
    lines += ["", f"Values (all four, in-memory): `{values}`", ""]
    lines += ["## recmetrics", ""]
    if not recmetrics_runs:
        lines.append("Not run (no `--recmetrics PYTHON` given).")
    else:
        if check:
            lines.append(f"Same data, {check.get('users')} users: recmetrics {check.get('recmetrics')!r}, "
                         f"ours {check.get('ours')!r}.")  # fmt: skip
            lines.append("")
        lines += [
            (
                "`recmetrics.personalization` (a dense users x items pivot in pandas, then a users x users "
                "cosine matrix), same generator, users doubled until a run fails; each run in a process "
                f"capped at {args.memory_gb:g} GB of address space and {args.budget:g} s."
            ),
            "",
            "| users | seconds | peak RSS (GB) |",
            "| ---: | ---: | ---: |",
        ]
        for run in recmetrics_runs:
            if "error" in run:
                lines.append(f"| {run.get('users', '?')} | {run['error']} | |")
            else:
                lines.append(f"| {run['users']} | {run['seconds']} | {run['peak_rss_gb']} |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
