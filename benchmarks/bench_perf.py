"""The five workloads of issue 17, each as a ratio against its reference measured in the same run.

Usage::

    python benchmarks/bench_perf.py                       # writes results/perf_run.md (about 10 minutes)
    python benchmarks/bench_perf.py --only chunked --repeat 2
    python benchmarks/bench_perf.py --smoke --out /tmp/p.md   # small sizes, what a quick check runs

Rows (each method in a fresh process; min and median of ``--repeat`` runs,
alternating the methods of a row, ratios from the minima):

1. ``core``: the five everyday metrics (bench_scale's narrow set) per query,
   default ``prm.evaluate`` (``check=True``) on a 10M-row DataFrame, against
   pytrec_eval and ranx from the same Polars frame (dicts, construction, evaluation).
2. ``core`` again, the peers from their native inputs (dicts built, or
   ``Qrels``/``Run`` built, beforehand).
3. ``all_trec``: trec_eval's whole all_trec set per query (what
   ``rankmetrics -q -m all_trec`` prints) on 1M rows, against pytrec_eval
   with every measure it supports, from its dicts.
4. ``catalog``: personalization@10 and coverage@10 for 1M users x 10 items
   with the rank given, on the streaming engine, against the floor of two
   bare ``group_by().len()`` counts (rows per user, rows per item) over the
   same LazyFrame.
5. ``chunked``: ``prm.evaluate_chunked`` with its defaults over 100M rows in
   20 Parquet files sorted by query, against the same call over 10M rows;
   peak RSS (``VmHWM``, the whole process) of each; and, on 10M rows
   whose files are not sorted by query, the cost of unsorted files.

The Parquet file sets are bench_scale's (``--data``, written once and reused).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import polars as pl

import polars_rankmetrics as prm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_core import OtherLoad, library, machine, to_pytrec
from bench_scale import NARROW, dataset

RESULTS = Path(__file__).resolve().parent / "results"
ROWS = ("core", "all_trec", "catalog", "chunked")
# Measures compared per query between ours (all_trec) and pytrec_eval (trec_eval names).
COMPARED = ("map", "P_10", "ndcg_cut_10", "bpref", "recip_rank", "Rprec", "recall_100", "infAP", "success_5")
TOLERANCE = 1e-9


def _clock(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _peak_kib() -> int:
    """Peak RSS of the running process (VmHWM, KiB): unlike ru_maxrss, not inherited from the parent at fork."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _files(data: Path) -> list[Path]:
    return sorted(data.glob("*.parquet"))


def all_trec_metrics() -> list[prm.Metric]:
    """The metrics of trec_eval's all_trec set, as ``rankmetrics -q -m all_trec`` evaluates them per query."""
    from polars_rankmetrics.cli._specs import parse_measures  # noqa: PLC0415

    lines = parse_measures(["all_trec"])
    return list({str(ln.metric): ln.metric for ln in lines if ln.metric is not None}.values())


def unsorted(data: Path, root: Path) -> Path:
    """Write (once) the rows of `data` shuffled into two files: no file or row group is sorted by query."""
    where = root / f"{data.name}_unsorted"
    if not (where / "_COMPLETE").exists():
        where.mkdir(parents=True, exist_ok=True)
        frame = pl.read_parquet(_files(data)).sample(fraction=1.0, shuffle=True, seed=1)
        half = frame.height // 2
        frame[:half].write_parquet(where / "part-0000.parquet", row_group_size=250_000)
        frame[half:].write_parquet(where / "part-0001.parquet", row_group_size=250_000)
        (where / "_COMPLETE").write_text("")
    return where


# --------------------------------------------------------------------------- children


def _compared(values: dict[str, dict[str, float]]) -> dict[str, list[Any]]:
    """Per-query values of the COMPARED measures, queries sorted: {"query": [...], measure: [...]}."""
    queries = sorted(values)
    return {"query": queries, **{m: [values[q][m] for q in queries] for m in COMPARED}}


def child(method: str, data: Path, users: int) -> dict[str, Any]:
    """Run one method once in this (fresh) process; return its timed seconds and peak RSS."""
    files = _files(data) if data.name else []
    if method == "all_trec_ours":
        frame, metrics = pl.read_parquet(files), all_trec_metrics()
        out: list[pl.DataFrame] = []
        seconds = _clock(lambda: out.append(prm.evaluate(frame, metrics, per_query=True)))
        names = {m: str(prm.parse(m)) for m in COMPARED}
        got = out[0].select(pl.col("query").cast(pl.String), *(pl.col(n).alias(m) for m, n in names.items()))
        values = {row["query"]: row for row in got.iter_rows(named=True)}
        return {"s": seconds, "metrics": len(metrics), "values": _compared(values)}
    if method == "all_trec_pytrec":
        import pytrec_eval  # noqa: PLC0415

        qrels, run = to_pytrec(pl.read_parquet(files))
        measures = set(pytrec_eval.supported_measures)
        result: list[dict[str, dict[str, float]]] = []
        seconds = _clock(lambda: result.append(pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)))
        return {"s": seconds, "values": _compared(result[0])}
    if method == "ranking_floor":  # what one ranking costs, alone, on the same DataFrame
        frame = pl.read_parquet(files)
        score, item = pl.col("score"), pl.col("item").cast(pl.String)
        trec = pl.when(score.is_not_null()).then(pl.struct(score.alias("k"), item.alias("i")))
        forms = {
            "trec_order": trec.rank("ordinal", descending=True).over("query"),
            "float_rank": score.rank("ordinal", descending=True).over("query"),
        }
        return {
            name: _clock(lambda e=e: frame.lazy().select(e.alias("r")).collect()) for name, e in forms.items()
        }
    if method.startswith("catalog"):
        import bench_recsys  # noqa: PLC0415

        run = bench_recsys.make_data(users)["run"]
        assert isinstance(run, pl.DataFrame)
        # The rank given (1 = best), no score: no ranking window is needed.
        lf = run.with_columns(pl.col("score").rank("ordinal", descending=True).over("query").alias("rank"))
        lf = lf.drop("score").lazy()
        if method == "catalog_ours":
            plan = prm.evaluate(lf, [prm.personalization(10), prm.coverage(10)])
            return {"s": _clock(lambda: plan.collect(engine="streaming"))}
        counts = [lf.group_by("query").len(), lf.group_by("item").len()]
        return {"s": _clock(lambda: [c.collect(engine="streaming") for c in counts])}
    if method == "chunked":
        scan = pl.scan_parquet(files)
        got: list[pl.DataFrame] = []
        seconds = _clock(lambda: got.append(prm.evaluate_chunked(scan, NARROW)))
        return {"s": seconds, "rss_mib": _peak_kib() / 1024, "values": got[0].row(0)}
    msg = f"unknown method {method!r}"
    raise ValueError(msg)


def run_child(method: str, data: Path, users: int = 0) -> dict[str, Any]:
    """One method in a fresh process."""
    command = [sys.executable, __file__, "--child", method, "--data", str(data), "--users", str(users)]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603
    if proc.returncode != 0:
        msg = f"{method} ({data}) failed with status {proc.returncode}:\n{proc.stderr[-3000:]}"
        raise RuntimeError(msg)
    report: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return report


def scale_child(method: str, data: Path) -> dict[str, Any]:
    """One of bench_scale's methods (its stages) on `data`, narrow set, in a fresh process."""
    import bench_scale  # noqa: PLC0415

    return bench_scale.run_child(method, data, "narrow", None)


# --------------------------------------------------------------------------- the parent


def _stat(values: list[float]) -> str:
    return f"{min(values):.2f} ({statistics.median(values):.2f})"


def alternate(jobs: dict[str, Callable[[], dict[str, Any]]], repeat: int) -> dict[str, list[dict[str, Any]]]:
    """Run every job `repeat` times in alternation (A B C A B C ...)."""
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in jobs}
    for rep in range(repeat):
        for name, job in jobs.items():
            out[name].append(job())
            print(f"  rep {rep + 1}: {name} done", flush=True)
    return out


def core_rows(data: Path, repeat: int) -> tuple[list[str], dict[str, float]]:
    """Rows 1 and 2: ours (default evaluate) against the peers from Polars and native."""
    runs = alternate(
        {
            "ours": lambda: scale_child("prm_df_check", data),
            "pytrec": lambda: scale_child("pytrec", data),
            "ranx": lambda: scale_child("ranx", data),
            "floor": lambda: run_child("ranking_floor", data),
        },
        repeat,
    )

    def wall(name: str, *stages: str) -> list[float]:
        return [sum(r["stages"][s][0] for s in stages) for r in runs[name]]

    ours = wall("ours", "evaluate")
    peers = {
        "pytrec_eval from Polars (dicts + RelevanceEvaluator + evaluate)": wall(
            "pytrec", "convert", "construct", "evaluate"
        ),
        "ranx from Polars (dicts + Qrels/Run + evaluate)": wall("ranx", "convert", "construct", "evaluate"),
        "pytrec_eval native (RelevanceEvaluator(dicts) + evaluate)": wall("pytrec", "construct", "evaluate"),
        "ranx native (evaluate(Qrels, Run))": wall("ranx", "evaluate"),
    }
    lines = [
        "| method | min s (median) | peer / ours (min) |",
        "| --- | ---: | ---: |",
        f"| ours: prm.evaluate(DataFrame, 5 metrics, per_query=True), default check=True | {_stat(ours)} | 1.00 |",
    ]
    ratios = {}
    for label, walls in peers.items():
        ratios[label] = min(walls) / min(ours)
        lines.append(f"| {label} | {_stat(walls)} | {ratios[label]:.2f} |")
    trec, floor = [r["trec_order"] for r in runs["floor"]], [r["float_rank"] for r in runs["floor"]]
    lines += [
        "",
        "What bounds ours (the same DataFrame, each alone, not part of the rows above):",
        "",
        "| step | min s (median) | share of ours (min) |",
        "| --- | ---: | ---: |",
        (
            f"| trec_eval's order: rank of struct(score, item text) over query | {_stat(trec)} "
            f"| {min(trec) / min(ours):.2f} |"
        ),
        (
            f"| a float rank of the score over query (no text tie-break: not exact) | {_stat(floor)} "
            f"| {min(floor) / min(ours):.2f} |"
        ),
    ]
    return lines, ratios


def agree(ours: dict[str, list[Any]], theirs: dict[str, list[Any]]) -> str:
    """One line: the largest difference of the COMPARED measures over the queries both computed."""
    want, got = pl.DataFrame(ours), pl.DataFrame(theirs)
    joined = want.join(got, on="query", how="inner", suffix="_peer")
    diff = joined.select(
        pl.max_horizontal((pl.col(m) - pl.col(f"{m}_peer")).abs().max() for m in COMPARED)
    ).item()
    same = joined.height == want.height == got.height and float(diff or 0.0) < TOLERANCE
    return (
        f"{', '.join(COMPARED)} x {joined.height:,} queries ({want.height:,} ours, {got.height:,} pytrec_eval), "
        f"max abs diff {float(diff or 0.0):.3g} (< {TOLERANCE:g}: {'OK' if same else 'FAIL'})"
    )


def main(argv: Sequence[str] | None = None) -> int:  # noqa: PLR0915
    """Run the rows asked for; write the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=ROWS, default=list(ROWS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--core-rows", type=int, default=10_000_000)
    parser.add_argument("--all-trec-rows", type=int, default=1_000_000)
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--big-rows", type=int, default=100_000_000)
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "prm-bench-data")
    parser.add_argument("--smoke", action="store_true", help="small sizes, 1 repetition")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.data, args.users)))
        return 0
    if args.smoke:
        args.core_rows, args.all_trec_rows, args.users, args.big_rows, args.repeat = (
            20_000, 20_000, 2_000, 200_000, 1,
        )  # fmt: skip
    command = "python benchmarks/bench_perf.py " + " ".join(sys.argv[1:] if argv is None else argv)
    head = [
        f"# Issue 17's workloads, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        "",
        f"`{command.strip()}`",
        "",
    ]
    head += [*machine(), library(), f"- load average (1 min) at start: {os.getloadavg()[0]:.2f}"]
    head.append(
        "- the machine is shared (about 5 engineers on 2 cores): minima of alternating repetitions "
        "are the least disturbed figures; the medians are shown in brackets"
    )
    print("\n".join(head), flush=True)
    body: list[str] = []
    ok = True
    gauge = OtherLoad()
    if "core" in args.only:
        data = dataset(args.data, args.core_rows, int_ids=False)
        lines, _ = core_rows(data, args.repeat)
        body += ["", f"## Rows 1-2: 5 core metrics, {args.core_rows:,} rows (string ids)", "", *lines]
        print("\n".join(body[-len(lines) - 3 :]), flush=True)
    if "all_trec" in args.only:
        data = dataset(args.data, args.all_trec_rows, int_ids=False)
        runs = alternate(
            {
                "ours": lambda: run_child("all_trec_ours", data),
                "pytrec": lambda: run_child("all_trec_pytrec", data),
            },
            args.repeat + 2,
        )
        ours, peer = [r["s"] for r in runs["ours"]], [r["s"] for r in runs["pytrec"]]
        section = [
            "",
            f"## Row 3: trec_eval's all_trec set per query, {args.all_trec_rows:,} rows",
            "",
            (
                f"- ours: {runs['ours'][0]['metrics']} metrics (`rankmetrics -q -m all_trec`), default check=True; "
                "pytrec_eval: every measure it supports, from its dicts (RelevanceEvaluator + evaluate)"
            ),
            "",
            "| method | min s (median) |",
            "| --- | ---: |",
            f"| ours: prm.evaluate(DataFrame, all_trec, per_query=True) | {_stat(ours)} |",
            f"| pytrec_eval native, all measures | {_stat(peer)} |",
            "",
            f"- pytrec_eval / ours (min): **{min(peer) / min(ours):.2f}**",
            f"- agreement: {agree(runs['ours'][0]['values'], runs['pytrec'][0]['values'])}",
        ]
        ok &= section[-1].endswith("OK)")
        body += section
        print("\n".join(section), flush=True)
    if "catalog" in args.only:
        runs = alternate(
            {
                "ours": lambda: run_child("catalog_ours", Path(), args.users),
                "floor": lambda: run_child("catalog_floor", Path(), args.users),
            },
            args.repeat + 2,
        )
        ours, floor = [r["s"] for r in runs["ours"]], [r["s"] for r in runs["floor"]]
        section = [
            "",
            f"## Row 4: personalization@10 + coverage@10, {args.users:,} users x 10, rank given, streaming",
            "",
            "| method | min s (median) |",
            "| --- | ---: |",
            f"| ours: prm.evaluate(lf, [personalization(10), coverage(10)]).collect(streaming) | {_stat(ours)} |",
            f"| floor: group_by(user).len() and group_by(item).len() over the same LazyFrame | {_stat(floor)} |",
            "",
            f"- ours / floor (min): **{min(ours) / min(floor):.2f}**",
        ]
        body += section
        print("\n".join(section), flush=True)
    if "chunked" in args.only:
        big = dataset(args.data, args.big_rows, int_ids=False)
        small = dataset(args.data, args.big_rows // 10, int_ids=False)
        mixed = unsorted(small, args.data)
        runs = alternate(
            {
                "big": lambda: run_child("chunked", big),
                "small": lambda: run_child("chunked", small),
                "unsorted": lambda: run_child("chunked", mixed),
            },
            max(1, args.repeat - 1),
        )
        rows = {"big": args.big_rows, "small": args.big_rows // 10, "unsorted": args.big_rows // 10}
        label = {
            "big": f"{args.big_rows:,} rows, {len(_files(big))} files sorted by query",
            "small": f"{args.big_rows // 10:,} rows, {len(_files(small))} files sorted by query",
            "unsorted": f"{args.big_rows // 10:,} rows, the same rows shuffled into 2 files",
        }
        section = [
            "",
            "## Row 5: prm.evaluate_chunked(scan_parquet(files), 5 core metrics), defaults",
            "",
            "- defaults: memory_mib=512, check=True, progress=None (no terminal: no bar)",
            "- peak RSS: VmHWM of the process (interpreter, imports, the whole call)",
            "",
            "| data | min s (median) | peak RSS MiB (max) | rows a second (min s) |",
            "| --- | ---: | ---: | ---: |",
        ]
        for name, done in runs.items():
            secs = [r["s"] for r in done]
            section.append(
                f"| {label[name]} | {_stat(secs)} | {max(r['rss_mib'] for r in done):,.0f} "
                f"| {rows[name] / min(secs) / 1e6:.1f}M |"
            )
        big_s, small_s = min(r["s"] for r in runs["big"]), min(r["s"] for r in runs["small"])
        mixed_s = min(r["s"] for r in runs["unsorted"])
        section += [
            "",
            f"- {args.big_rows:,} rows / {args.big_rows // 10:,} rows, time (min): **{big_s / small_s:.2f}x**",
            f"- unsorted / sorted at {args.big_rows // 10:,} rows (min): **{mixed_s / small_s:.2f}x**",
            (
                "- the same values from sorted and unsorted files: "
                f"{'yes' if runs['small'][0]['values'] == runs['unsorted'][0]['values'] else 'NO'}"
            ),
        ]
        ok &= runs["small"][0]["values"] == runs["unsorted"][0]["values"]
        body += section
        print("\n".join(section), flush=True)
    body += ["", f"- other processes used {gauge.stop()} of the CPUs during the run"]
    body += [f"- load average (1 min) at end: {os.getloadavg()[0]:.2f}"]
    out = args.out or (None if args.smoke else RESULTS / "perf_run.md")
    if out is not None:
        out.write_text("\n".join([*head, *body]) + "\n")
        print(f"\nwrote {out}")
    if not ok:
        print("disagreement: see the report", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
