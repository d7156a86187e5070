"""prm.Accumulator in a validation loop against torchmetrics' retrieval metrics on CPU: time and peak RSS.

The loop: `--batches` batches of `--queries` queries x `--candidates` candidates
(every candidate of a query scored together, as a retrieval validation step
does), given as torch tensors (preds, target, indexes); ndcg@10, mrr@10,
recall@50 and map. Ours: one ``prm.Accumulator`` with
``conventions="torchmetrics"`` (R and the ideal list from the candidates,
nDCG's ties averaged, AP@k over the relevant found), updated with the tensors
and computed once; theirs: ``RetrievalNormalizedDCG(top_k=10)``,
``RetrievalMRR(top_k=10)``, ``RetrievalRecall(top_k=50)``, ``RetrievalMAP()``,
each updated with the same tensors and computed once. Scores are distinct
(no tie's order to differ on); targets binary, about 5% relevant. The values
are checked equal within 1e-6 before anything is reported (torchmetrics'
nDCG sums in float32: 3.6e-9 apart at 400 queries).

Each measurement runs in a fresh process (peak RSS from ``getrusage``, which
includes the interpreter, torch and polars themselves: the baseline row
imports both and does nothing else). Ours also runs at 4x the batches: its
peak RSS should not move (the state is a few numbers per metric), while
torchmetrics keeps every row until ``compute()``. Then `--workers` workers
each run the loop on their own queries, their states are pickled (as
``all_gather_object`` would) and merged: the time of that merge and
the equality with one accumulator over everything.

The issue's size is ``--batches 1000`` (100M rows: torchmetrics then needs
tens of GB); the default of 20 batches (2M rows) runs in a few minutes on the
shared 2-core machine.

    python benchmarks/bench_accumulate.py [--batches 20] [--queries 1000] [--candidates 100] [--workers 16]
"""

from __future__ import annotations

import argparse
import json
import pickle
import resource
import subprocess
import sys
import time
from pathlib import Path

OURS = ["ndcg@10", "mrr@10", "recall@50", "map"]


def batch(i: int, queries: int, candidates: int) -> tuple[object, object, object]:
    """The i-th batch as torch tensors (preds, target, indexes): distinct scores, ~5% relevant."""
    import torch  # noqa: PLC0415  (the child process imports what it measures)

    gen = torch.Generator().manual_seed(i)
    rows = queries * candidates
    # Distinct and above 0: torchmetrics' AP (1.9) zeroes the target of a candidate scored <= 0.
    preds = (torch.randperm(rows, generator=gen).to(torch.float64) + 1.0) / rows
    target = (torch.rand(rows, generator=gen) < 0.05).to(torch.long)
    indexes = torch.arange(queries, dtype=torch.long).repeat_interleave(candidates) + i * queries
    return preds, target, indexes


def run_ours(batches: range, queries: int, candidates: int) -> dict[str, float]:
    """The loop with one prm.Accumulator; its values."""
    import polars_rankmetrics as prm  # noqa: PLC0415

    acc = prm.Accumulator(OURS, conventions="torchmetrics")
    for i in batches:
        preds, target, indexes = batch(i, queries, candidates)
        acc.update(preds=preds, target=target, indexes=indexes)
    return acc.compute().row(0, named=True)


def run_theirs(batches: range, queries: int, candidates: int) -> dict[str, float]:
    """The loop with torchmetrics' four retrieval metrics; their values."""
    from torchmetrics.retrieval import (  # noqa: PLC0415
        RetrievalMAP,
        RetrievalMRR,
        RetrievalNormalizedDCG,
        RetrievalRecall,
    )

    metrics = {
        "ndcg@10": RetrievalNormalizedDCG(top_k=10),
        "mrr@10": RetrievalMRR(top_k=10),
        "recall@50": RetrievalRecall(top_k=50),
        "map": RetrievalMAP(),
    }
    for i in batches:
        preds, target, indexes = batch(i, queries, candidates)
        for metric in metrics.values():
            metric.update(preds, target, indexes=indexes)
    return {name: float(metric.compute()) for name, metric in metrics.items()}


def run_workers(workers: int, batches: int, queries: int, candidates: int) -> dict[str, object]:
    """`workers` accumulators over disjoint batches, pickled, merged; equal to one over all batches."""
    import polars_rankmetrics as prm  # noqa: PLC0415

    states = []
    start = time.perf_counter()
    for w in range(workers):
        acc = prm.Accumulator(OURS, conventions="torchmetrics")
        for i in range(w, batches, workers):
            preds, target, indexes = batch(i, queries, candidates)
            acc.update(preds=preds, target=target, indexes=indexes)
        states.append(pickle.dumps(acc))
    updated = time.perf_counter() - start
    start = time.perf_counter()
    merged = pickle.loads(states[0])  # noqa: S301  (this process's own bytes)
    for state in states[1:]:
        merged.merge(pickle.loads(state))  # noqa: S301
    values = merged.compute().row(0, named=True)
    merge_s = time.perf_counter() - start
    one = prm.Accumulator(OURS, conventions="torchmetrics")
    for i in range(batches):
        preds, target, indexes = batch(i, queries, candidates)
        one.update(preds=preds, target=target, indexes=indexes)
    same = one.compute().row(0, named=True) == values
    return {
        "update_s": updated,
        "merge_s": merge_s,
        "state_bytes": sum(map(len, states)),
        "bit_identical": same,
    }


def child(mode: str, batches: int, queries: int, candidates: int, workers: int) -> None:
    """One measurement in this (fresh) process; prints JSON."""
    import torchmetrics  # noqa: F401, PLC0415

    import polars_rankmetrics  # noqa: F401, PLC0415

    start = time.perf_counter()
    out: dict[str, object] = {}
    if mode == "ours":
        out["values"] = run_ours(range(batches), queries, candidates)
    elif mode == "theirs":
        out["values"] = run_theirs(range(batches), queries, candidates)
    elif mode == "workers":
        out |= run_workers(workers, batches, queries, candidates)
    out["seconds"] = time.perf_counter() - start
    out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def measure(mode: str, batches: int, args: argparse.Namespace) -> dict[str, object]:
    """:func:`child` in a fresh interpreter: its JSON."""
    cmd = [sys.executable, __file__, "--child", mode, "--batches", str(batches)]
    cmd += [
        "--queries",
        str(args.queries),
        "--candidates",
        str(args.candidates),
        "--workers",
        str(args.workers),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)  # noqa: S603
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    """Measure every run and print (and maybe write) the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--candidates", type=int, default=100)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--child", choices=["ours", "theirs", "workers", "baseline"])
    parser.add_argument("--out", type=Path, help="also write the report (markdown) here")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.batches, args.queries, args.candidates, args.workers)
        return
    rows = args.batches * args.queries * args.candidates
    base = measure("baseline", 0, args)
    ours = measure("ours", args.batches, args)
    ours4 = measure("ours", 4 * args.batches, args)
    theirs = measure("theirs", args.batches, args)
    for name, value in theirs["values"].items():  # type: ignore[union-attr]
        assert abs(value - ours["values"][name]) < 1e-6, (name, value, ours["values"][name])  # type: ignore[index]
    workers = measure("workers", args.batches, args)
    sec = {k: float(v["seconds"]) for k, v in (("ours", ours), ("ours4", ours4), ("theirs", theirs))}  # type: ignore[arg-type]
    above = {
        k: float(v["peak_mib"]) - float(base["peak_mib"])
        for k, v in (("ours", ours), ("ours4", ours4), ("theirs", theirs))
    }  # type: ignore[arg-type]
    merge_ms = float(workers["merge_s"]) * 1000  # type: ignore[arg-type]
    lines = [
        (
            f"# bench_accumulate: {args.batches} batches x {args.queries} queries x {args.candidates} candidates"
            f" ({rows:,} rows), {', '.join(OURS)}"
        ),
        "",
        "| run | seconds | peak RSS (MiB) |",
        "| --- | ---: | ---: |",
        f"| baseline (imports only) | - | {base['peak_mib']:.0f} |",
        f"| prm.Accumulator | {sec['ours']:.2f} | {ours['peak_mib']:.0f} |",
        f"| prm.Accumulator, {4 * args.batches} batches | {sec['ours4']:.2f} | {ours4['peak_mib']:.0f} |",
        f"| torchmetrics (4 metrics) | {sec['theirs']:.2f} | {theirs['peak_mib']:.0f} |",
        "",
        (
            f"- torchmetrics / ours, time: {sec['theirs'] / sec['ours']:.1f}x; peak RSS above the baseline:"
            f" {above['theirs']:.0f} MiB against {above['ours']:.0f} MiB"
            f" ({4 * args.batches} batches: {above['ours4']:.0f} MiB)"
        ),
        f"- values equal within 1e-6: {json.dumps(ours['values'])}",
        (
            f"- {args.workers} workers over the same batches: update {workers['update_s']:.2f} s, pickled"
            f" states {workers['state_bytes']:,} bytes, unpickle + merge + compute {merge_ms:.0f} ms,"
            f" bit-identical to one accumulator: {workers['bit_identical']}"
        ),
    ]
    report = "\n".join(lines)
    print(report)
    if args.out:
        args.out.write_text(report + "\n")


if __name__ == "__main__":
    main()
