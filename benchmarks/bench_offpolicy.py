"""Off-policy estimators: ``polars_rankmetrics.offpolicy.estimate`` against Open Bandit Pipeline's ``obp.ope``.

Three sizes of logged slates (5 positions each):

- ``--obp-rows`` (default 1M) logged rows: all eleven estimators, ours and OBP's. OBP's
  row estimators take ``action_dist`` and the reward model's ``q_hat`` as dense
  (rounds x actions x positions) arrays, which bounds what it can hold: at 10M rows and
  4 candidate items they would be 1.6 GB each; ours reads the candidates as a long frame.
- ``--slate-rows`` (default 0: not run): the six slate estimators (1-D inputs) at a larger size,
  ours and OBP's (its input checks group the slates with pandas: about 50 s a call at 1M rows
  on the loaded shared machine, so the default skips it).
- ``--rows`` (default 10M): ours alone, the eight estimators that need no reward model, in
  one call (one plan) and each on its own.

OBP 0.5.7 runs in its own interpreter (``OBP_PYTHON``, default /work/venv-obp/bin/python):
the arrays are saved as .npz and ``tests/offpolicy/obp_runner.py`` times each estimator's
``estimate_policy_value`` inside that process (the fastest of ``--repeat``), so neither the
interpreter's start nor the file's load is counted. Ours: the fastest of ``--repeat`` calls
on DataFrames in memory. Every value is checked equal to OBP's (relative 1e-10) before any
time is written.

    python benchmarks/bench_offpolicy.py [--rows 10000000] [--obp-rows 1000000] [--slate-rows 0] [--repeat 3]
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

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from polars_rankmetrics import offpolicy  # noqa: E402
from tests.offpolicy import slates  # noqa: E402

RUNNER = ROOT / "tests" / "offpolicy" / "obp_runner.py"
OBP_PYTHON = os.environ.get("OBP_PYTHON", "/work/venv-obp/bin/python")
NO_MODEL = ("ips", "snips", "sips", "snsips", "iips", "sniips", "rips", "snrips")
SLATE = ("sips", "snsips", "iips", "sniips", "rips", "snrips")
LEN_LIST = 5


def flat_arrays(seed: int, n_slates: int) -> dict[str, np.ndarray]:
    """The 1-D arrays of `n_slates` logged slates (no action_dist, no q_hat): what the slate estimators read."""
    rng = np.random.default_rng(seed)
    n = n_slates * LEN_LIST
    cascade = np.cumprod(rng.uniform(0.1, 1.0, (n_slates, LEN_LIST)), axis=1)
    target_cascade = np.cumprod(rng.uniform(0.0, 1.0, (n_slates, LEN_LIST)), axis=1)
    return {
        "slate_id": np.repeat(np.arange(n_slates), LEN_LIST),
        "position": np.tile(np.arange(LEN_LIST), n_slates),
        "action": rng.integers(0, 100, n),
        "reward": rng.choice(np.array([0.0, 0.0, 0.0, 0.5, 1.0, 2.0]), n),
        "pscore": rng.uniform(0.05, 1.0, n),
        "target": rng.uniform(0.0, 1.0, n),
        "cascade": cascade.ravel(),
        "target_cascade": target_cascade.ravel(),
        "joint": np.repeat(cascade[:, -1], LEN_LIST),
        "target_joint": np.repeat(target_cascade[:, -1], LEN_LIST),
    }


def logged_frame(d: dict[str, np.ndarray]) -> pl.DataFrame:
    """Our logged frame from the arrays (integer ids)."""
    return pl.DataFrame(
        {
            "query": d["slate_id"],
            "position": d["position"],
            "item": d["action"],
            "reward": d["reward"],
            "propensity": d["pscore"],
            "target": d["target"],
            "cascade_propensity": d["cascade"],
            "target_cascade": d["target_cascade"],
        }
    )


def candidate_frame(d: dict[str, np.ndarray]) -> pl.DataFrame:
    """Our candidates frame: every (row, action) of OBP's dense arrays, as long rows."""
    n, n_items, _ = d["action_dist"].shape
    every = np.repeat(np.arange(n), n_items)
    items = np.tile(np.arange(n_items), n)
    k = d["position"][every]
    return pl.DataFrame(
        {
            "query": d["slate_id"][every],
            "position": k,
            "item": items,
            "target": d["action_dist"][every, items, k],
            "prediction": d["q_hat"][every, items, k],
        }
    )


def time_ours(repeat: int, call: object) -> tuple[float, pl.DataFrame]:
    """The fastest of `repeat` calls, and the last result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = call()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best, out  # type: ignore[return-value]


def run_obp(
    data: dict[str, np.ndarray], estimators: tuple[str, ...], repeat: int
) -> dict[str, dict[str, float]]:
    """OBP's values and seconds (the fastest of `repeat`, timed inside its process)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "slates.npz"
        np.savez(path, estimators=np.array(estimators), **data)
        done = subprocess.run(  # noqa: S603
            [OBP_PYTHON, str(RUNNER), str(path), str(repeat)], capture_output=True, text=True, check=True
        )
    answer: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def compare(  # noqa: PLR0913, PLR0917  (one size's data, its frames and both repeats)
    label: str,
    data: dict[str, np.ndarray],
    estimators: tuple[str, ...],
    repeat: int,
    obp_repeat: int,
    frames: tuple[pl.DataFrame, pl.DataFrame | None],
) -> list[str]:
    """Rows of the results table for one size: each estimator alone, then all in one call."""
    logged, candidates = frames
    theirs = run_obp(data, estimators, obp_repeat)
    lines = []
    total_ours = 0.0
    for name in estimators:
        seconds, out = time_ours(
            repeat, lambda n=name: offpolicy.estimate(logged, [n], candidates=candidates)
        )
        value = out["value"][0]
        expected = theirs["values"][name]
        assert abs(value - expected) <= 1e-10 * max(1.0, abs(expected)), (name, value, expected)
        obp = theirs["seconds"][name]
        total_ours += seconds
        lines.append(f"| {label} | {name} | {seconds:.3f} | {obp:.3f} | {obp / seconds:.1f}x |")
    together, _ = time_ours(repeat, lambda: offpolicy.estimate(logged, estimators, candidates=candidates))
    obp_total = sum(theirs["seconds"][n] for n in estimators)
    lines.append(
        f"| {label} | all {len(estimators)} in one call | {together:.3f} | {obp_total:.3f} (sum) | "
        f"{obp_total / together:.1f}x |"
    )
    return lines


def main() -> None:
    """Run both sizes; write the Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--obp-rows", type=int, default=1_000_000)
    parser.add_argument("--slate-rows", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "offpolicy.md")
    args = parser.parse_args()
    load_before = os.getloadavg()

    small = slates.arrays(1, args.obp_rows // LEN_LIST, LEN_LIST, 4)
    small_frames = (logged_frame(small), candidate_frame(small))
    lines = compare(f"{args.obp_rows:,}", small, slates.ALL, args.repeat, 1, small_frames)
    del small, small_frames

    if args.slate_rows:
        middle = flat_arrays(2, args.slate_rows // LEN_LIST)
        lines += compare(f"{args.slate_rows:,}", middle, SLATE, args.repeat, 1, (logged_frame(middle), None))
        del middle

    big = logged_frame(flat_arrays(3, args.rows // LEN_LIST))
    for name in NO_MODEL:
        seconds, _ = time_ours(args.repeat, lambda n=name: offpolicy.estimate(big, [n]))
        lines.append(f"| {args.rows:,} | {name} | {seconds:.3f} | (not run) | |")
    together, _ = time_ours(args.repeat, lambda: offpolicy.estimate(big, NO_MODEL))
    lines.append(f"| {args.rows:,} | all {len(NO_MODEL)} in one call | {together:.3f} | (not run) | |")

    load_after = os.getloadavg()
    text = "\n".join(
        [
            "# Off-policy estimators: offpolicy.estimate vs Open Bandit Pipeline 0.5.7",
            "",
            (
                "Written by `python benchmarks/bench_offpolicy.py "
                f"--rows {args.rows} --obp-rows {args.obp_rows} --slate-rows {args.slate_rows} "
                f"--repeat {args.repeat}`. Seconds: ours the fastest of {args.repeat}, OBP's one run (its "
                "slowest take about a minute each); OBP timed inside its own process "
                "(estimate_policy_value alone, its input checks included, as ours are); every value equal "
                "to OBP's within 1e-10 before any time is written. "
                f"Slates of {LEN_LIST} positions; at the smaller size 4 candidate items per position "
                "(OBP's dense action_dist and q_hat)."
            ),
            "",
            (
                f"Machine: 2 cores shared by 8 engineers; load average {load_before[0]:.2f} before, "
                f"{load_after[0]:.2f} after (1-minute)."
            ),
            "",
            "| logged rows | estimator | ours (s) | OBP (s) | OBP / ours |",
            "| --- | --- | --- | --- | --- |",
            *lines,
            "",
        ]
    )
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
