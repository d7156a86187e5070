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
sys.path.insert(0, str(ROOT / "tests" / "reference"))  # pyxclib's transcription

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


def psp_inputs(seed: int, n_queries: int, n_labels: int, k: int) -> dict[str, object]:
    """A long-tailed extreme-classification test set: labels, top-k predictions, inverse propensities."""
    import scipy.sparse as sp  # noqa: PLC0415
    from pyxclib_xc_metrics import compute_inv_propesity  # noqa: PLC0415  (tests/reference)

    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, n_labels + 1) ** 1.1
    weights /= weights.sum()
    per_query = rng.integers(1, 8, n_queries)  # 1 to 7 relevant labels each
    rows = np.repeat(np.arange(n_queries), per_query)
    cols = rng.choice(n_labels, rows.size, p=weights)
    labels = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n_queries, n_labels))
    labels.data[:] = 1.0  # a label drawn twice for a query is one label
    # Predictions: half the slots a true label of the query (when it has one left), half a popular label.
    guess = rng.choice(n_labels, (n_queries, k), p=weights)
    first = labels.indptr[:-1]
    counts = np.diff(labels.indptr)
    for j in range(0, k, 2):  # k/2 passes over the columns, not over queries
        guess[:, j] = labels.indices[first + np.minimum(j // 2, counts - 1)]
    # Distinct labels within a query's top k (a ranking shows an item once).
    order = np.argsort(guess, axis=1, kind="stable")
    repeated = np.zeros_like(guess, dtype=bool)
    sorted_guess = np.take_along_axis(guess, order, axis=1)
    dup = np.zeros_like(guess, dtype=bool)
    dup[:, 1:] = sorted_guess[:, 1:] == sorted_guess[:, :-1]
    np.put_along_axis(repeated, order, dup, axis=1)
    guess[repeated] = n_labels + np.arange(repeated.sum()) % 7  # fresh, never relevant
    n_all = n_labels + 7
    labels.resize((n_queries, n_all))
    inv_psp = compute_inv_propesity(labels, 0.55, 1.5)
    return {"labels": labels, "top": guess, "inv_psp": inv_psp, "n_labels": n_all}


def pyxclib_psp(top: np.ndarray, labels: object, inv_psp: np.ndarray, k: int) -> float:
    """The psprecision@k of pyxclib, the transcription's numpy path (tests/reference/pyxclib_xc_metrics.py).

    Its one Python loop (``_topk_sparse``, numba in pyxclib) is replaced by a vectorised sort of
    each row's weighted labels (descending), so that the timing is that of pyxclib's sparse code.
    """
    import scipy.sparse as sp  # noqa: PLC0415
    from pyxclib_xc_metrics import _eval_flags, _precision  # noqa: PLC0415

    n_queries, n_labels = labels.shape  # type: ignore[attr-defined]
    weighted = sp.spdiags(inv_psp, diags=0, m=n_labels, n=n_labels).dot(labels.T).T.tocsr()  # lines 233-235
    row_of = np.repeat(np.arange(n_queries), np.diff(weighted.indptr))
    order = np.lexsort((-weighted.data, row_of))
    place = np.arange(order.size) - weighted.indptr[row_of[order]]
    keep = place < k
    ps_indices = np.full((n_queries, k), n_labels)
    ps_indices[row_of[order][keep], place[keep]] = weighted.indices[order][keep]  # line 236
    inv = np.hstack([inv_psp, np.zeros(1)])  # line 237
    wide = sp.csr_matrix((labels.data, labels.indices, labels.indptr), shape=(n_queries, n_labels + 1))  # type: ignore[attr-defined]
    found = _precision(_eval_flags(top, wide, inv), k)
    best = _precision(_eval_flags(ps_indices, wide, inv), k)
    return float((found / best)[-1])


def psp_section(n_queries: int, n_labels: int, k: int, repeat: int) -> list[str]:
    """PSP@k (pyxclib's ratio to the oracle) at `n_queries`: ours from frames vs the transcription."""
    import polars_rankmetrics as prm  # noqa: PLC0415

    data = psp_inputs(4, n_queries, n_labels, k)
    labels, top, inv_psp = data["labels"], data["top"], data["inv_psp"]
    n_q = top.shape[0]  # type: ignore[attr-defined]
    run = pl.DataFrame(
        {
            "query": np.repeat(np.arange(n_q), k),
            "item": top.ravel(),  # type: ignore[attr-defined]
            "score": np.tile(np.arange(k, 0, -1, dtype=np.float64), n_q),
        }
    )
    coo = labels.tocoo()  # type: ignore[attr-defined]
    qrels = pl.DataFrame(
        {"query": coo.row.astype(np.int64), "item": coo.col.astype(np.int64), "relevance": 1}
    )
    side = pl.DataFrame({"item": np.arange(len(inv_psp)), "propensity": 1.0 / inv_psp})  # type: ignore[arg-type]
    metric = prm.psp(k, propensities=side, normalize="oracle")
    ours_s, out = time_ours(repeat, lambda: prm.evaluate(run, [metric], qrels=qrels))
    theirs_s, theirs = time_ours(repeat, lambda: pyxclib_psp(top, labels, inv_psp, k))  # type: ignore[arg-type]
    ours = out.item()
    assert abs(ours - theirs) <= 1e-9 * abs(theirs), (ours, theirs)  # type: ignore[operator]
    plain_s, _ = time_ours(repeat, lambda: prm.evaluate(run, [f"precision@{k}"], qrels=qrels))
    data_label = f"{n_q:,} queries, {n_labels:,} labels, {qrels.height:,} relevant"
    return [
        f"| {data_label} | psp@{k} (normalize='oracle') | {ours_s:.3f} | {theirs_s:.3f} | {theirs_s / ours_s:.1f}x |",
        f"| {data_label} | precision@{k}, ours alone (the engine's floor) | {plain_s:.3f} | | |",
    ]


def main() -> None:
    """Run both sizes; write the Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--obp-rows", type=int, default=1_000_000)
    parser.add_argument("--slate-rows", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--psp-queries", type=int, default=1_000_000)
    parser.add_argument("--psp-labels", type=int, default=100_000)
    parser.add_argument("--only", choices=("offpolicy", "psp"), default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "offpolicy.md")
    args = parser.parse_args()
    previous = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
    head, _, tail = previous.partition(PSP_HEADING)
    first = offpolicy_section(args) if args.only != "psp" else head.rstrip("\n") + "\n"
    second = psp_text(args) if args.only != "offpolicy" else (PSP_HEADING + tail if tail else "")
    text = first + ("\n" + second if second else "")
    args.out.write_text(text, encoding="utf-8")
    print(text)


PSP_HEADING = "## PSP@k: prm.psp vs pyxclib's sparse-matrix code"


def load() -> str:
    """The machine's 1-minute load average, as the results report it."""
    return f"{os.getloadavg()[0]:.2f}"


def psp_text(args: argparse.Namespace) -> str:
    """The PSP section of the results."""
    before = load()
    lines = psp_section(args.psp_queries, args.psp_labels, 5, args.repeat)
    return "\n".join(
        [
            PSP_HEADING,
            "",
            (
                f"`--psp-queries {args.psp_queries} --psp-labels {args.psp_labels}`: a Zipf (1.1) label "
                "distribution, 1 to 7 relevant labels per query, top 5 predictions (some true labels, some "
                "popular ones); propensities by Jain et al.'s model from the labels' counts. Ours: "
                "`prm.evaluate(run, [prm.psp(5, propensities=side, normalize='oracle')], qrels=qrels)` on "
                "Polars frames (the join included); theirs: the numpy transcription of pyxclib's "
                "`psprecision` (tests/reference/pyxclib_xc_metrics.py) on the csr label matrix and the "
                "top-k index array, its numba top-k as a vectorised sort. Values equal within 1e-9; "
                f"seconds the fastest of {args.repeat}. Load average {before} before, {load()} after."
            ),
            "",
            "| data | metric | ours (s) | pyxclib transcription (s) | theirs / ours |",
            "| --- | --- | --- | --- | --- |",
            *lines,
            "",
        ]
    )


def offpolicy_section(args: argparse.Namespace) -> str:
    """The off-policy section of the results."""
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
    return "\n".join(
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


if __name__ == "__main__":
    main()
