"""Scale benchmark: polars-rankmetrics against pytrec_eval and ranx, 1M to 100M rows, from Parquet.

Usage::

    python benchmarks/bench_scale.py                      # 1M, 10M, 100M rows; writes results/scale.md
    python benchmarks/bench_scale.py --rows 1000000 --repeat 1
    python benchmarks/bench_scale.py --smoke --out /tmp/s.md   # 20k rows, what CI runs

For each size it writes (once, then reuses) a seeded Parquet file set: parts of
5M rows, sorted by query, 100 items per query, graded relevance with unjudged
and never-retrieved rows, score ties, string ids (``--int-ids``: Int64 ids).
Then, for each metric set (``narrow``: the five everyday metrics; ``wide``: 20
metrics, the 15 that take a cutoff at 5 cutoffs), it runs every method
``--repeat`` times in alternation (A B C ... A B C ...), each run in a fresh
process that reports its wall and CPU time per stage and its peak RSS
(``VmHWM`` after a reset through ``/proc/self/clear_refs``):

- ours: from a DataFrame (``check=False`` and the default ``check=True``),
  from ``pl.scan_parquet`` on the streaming and the in-memory engine, and
  ``evaluate_chunked`` over the scan (out-of-core);
- pytrec_eval: Polars frame -> dicts, ``RelevanceEvaluator(qrels)``,
  ``evaluate(run)``; "native" starts from the dicts;
- ranx: the same dicts -> ``Qrels``/``Run`` -> ``evaluate``; "native" starts
  from ``Qrels``/``Run``; numba's JIT warm-up is timed apart, on tiny data.

Every method's per-query values are compared with ours from the DataFrame
(first repetition): ours in every form must be identical, pytrec_eval within
1e-9 on every query, ranx within 1e-9 on the queries without score ties (ranx
breaks ties in its own order, not trec_eval's). A disagreement exits with
status 1. Peers are not run above ``--peers-up-to`` rows (their dicts outgrow
the machine); above ``--in-memory-up-to`` rows only the out-of-core forms run.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

import polars_rankmetrics as prm
from polars_rankmetrics.chunked import query_range

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # plans.py: reading query plans
from bench_core import OtherLoad, library, machine, make_frame, to_pytrec
from plans import calls_python, fallback_nodes

RESULTS = Path(__file__).resolve().parent / "results"
PART_ROWS = 5_000_000
SMOKE_ROWS = 20_000
TOLERANCE = 1e-9
CUTOFFS = (1, 5, 10, 20, 100)
EXP = "(1=1,2=3,3=7)"  # ndcg with gain 2**grade - 1 on grades 0..3: ranx's ndcg_burges

# --------------------------------------------------------------------------- metric sets
# Ours (column names), and what each peer computes of them: our name -> the peer's name.

NARROW = ["ndcg@10", "map", "mrr@10", "P_10", "recall_100"]
NARROW_PYTREC = {"ndcg@10": "ndcg_cut_10", "map": "map", "P_10": "P_10", "recall_100": "recall_100"}
# pytrec_eval has no cutoff on recip_rank: it computes recip_rank for mrr@10 (same work; not compared).
NARROW_PYTREC_EXTRA = ["recip_rank"]
NARROW_RANX = {
    "ndcg@10": "ndcg@10",
    "map": "map",
    "mrr@10": "mrr@10",
    "P_10": "precision@10",
    "recall_100": "recall@100",
}

_CUT_FAMILIES = (
    "precision", "recall", "f1", "hit_rate", "relative_precision", "mrr", "map", "ndcg", f"ndcg{EXP}",
    "dcg", f"dcg{EXP}", "err", "unjudged", "mar", "map_capped",
)  # fmt: skip
WIDE = [f"{f}@{k}" for f in _CUT_FAMILIES for k in CUTOFFS] + [
    "r_precision",
    "bpref",
    "infap",
    "rbp(0.8)",
    "num_rel_ret",
]
WIDE_PYTREC = {
    **{f"{ours}@{k}": f"{theirs}_{k}" for k in CUTOFFS for ours, theirs in
       [("precision", "P"), ("recall", "recall"), ("relative_precision", "relative_P"),
        ("hit_rate", "success"), ("map", "map_cut"), ("ndcg", "ndcg_cut")]},
    "r_precision": "Rprec", "bpref": "bpref", "infap": "infAP", "num_rel_ret": "num_rel_ret",
}  # fmt: skip
WIDE_RANX = {
    **{f"{ours}@{k}": f"{theirs}@{k}" for k in CUTOFFS for ours, theirs in
       [("precision", "precision"), ("recall", "recall"), ("f1", "f1"), ("hit_rate", "hit_rate"),
        ("mrr", "mrr"), ("map", "map"), ("ndcg", "ndcg"), (f"ndcg{EXP}", "ndcg_burges")]},
    "r_precision": "r-precision",
}  # fmt: skip
SETS: dict[str, tuple[list[str], dict[str, str], list[str], dict[str, str]]] = {
    "narrow": (NARROW, NARROW_PYTREC, NARROW_PYTREC_EXTRA, NARROW_RANX),
    "wide": (WIDE, WIDE_PYTREC, [], WIDE_RANX),
}

OURS_IN_MEMORY = ("prm_df", "prm_df_check", "prm_scan_streaming", "prm_scan_in_memory")
OURS_OUT_OF_CORE = ("prm_chunked", "prm_scan_streaming")
PEERS = ("pytrec", "ranx")

# --------------------------------------------------------------------------- data


def dataset(root: Path, rows: int, *, int_ids: bool, seed: int = 0) -> Path:
    """Write (once) and return a Parquet file set of `rows` rows, sorted by query, in parts.

    Part ``i`` holds queries ``i * PART_ROWS / 100 ...``; string query ids are
    zero-padded (``q000001234``) so that their text order is the numeric order
    and each part, and each row group, covers one range of queries; item ids
    stay unpadded (``d1234``), so score ties exercise the text tie-break.
    """
    where = root / f"rows_{rows}{'_int' if int_ids else ''}_seed{seed}"
    done = where / "_COMPLETE"
    if done.exists():
        return where
    where.mkdir(parents=True, exist_ok=True)
    for old in where.glob("*.parquet"):
        old.unlink()
    part_rows = min(rows, PART_ROWS)
    for i, start in enumerate(range(0, rows, part_rows)):
        n = min(part_rows, rows - start)
        part = make_frame(n, seed=seed * 10_000 + i, int_ids=True)
        part = part.with_columns(pl.col("query") + start // 100)
        if not int_ids:
            part = part.with_columns(
                pl.format("q{}", pl.col("query").cast(pl.String).str.zfill(9)).alias("query"),
                pl.format("d{}", "item").alias("item"),
            )
        part.sort("query").write_parquet(where / f"part-{i:04d}.parquet", row_group_size=250_000)
        print(f"  wrote {where.name}/part-{i:04d} ({start + n:,} of {rows:,} rows)", flush=True)
    done.write_text("")
    return where


def parquet_bytes(where: Path) -> int:
    """Bytes of the Parquet files of a data set."""
    return sum(p.stat().st_size for p in where.glob("*.parquet"))


# --------------------------------------------------------------------------- one method, in a child


def _status_kib(name: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return int(line.split()[1])
    raise KeyError(name)


def _reset_peak() -> None:
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := current RSS


class Recorder:
    """Times stages and keeps the peak RSS of each phase (a phase starts at a peak reset)."""

    def __init__(self) -> None:
        self.stages: dict[str, tuple[float, float]] = {}
        self.peaks: dict[str, int] = {}

    def stage(self, name: str, fn: Callable[[], Any]) -> Any:  # noqa: ANN401
        """Run `fn` as stage `name`: its wall and CPU seconds are kept; return what it returns."""
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        out = fn()
        self.stages[name] = (time.perf_counter() - wall, time.process_time() - cpu)
        return out

    def peak(self, phase: str) -> None:
        """Keep the peak RSS since the last reset as the peak of `phase`."""
        self.peaks[phase] = _status_kib("VmHWM")


def _ours_values(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(pl.col("query").cast(pl.String))


def _peer_values(values: dict[str, list[float]], queries: list[str]) -> pl.DataFrame:
    return pl.DataFrame(
        {"query": queries, **values}, schema={"query": pl.String, **dict.fromkeys(values, pl.Float64)}
    )


def child(method: str, data: Path, metric_set: str, result: Path | None) -> dict[str, Any]:  # noqa: PLR0915
    """Run one method once; return stage timings and peak RSS per phase."""
    files = sorted(data.glob("*.parquet"))
    if method == "load":  # resident bytes per row of the data as a DataFrame (its first part file)
        gc.collect()
        before = _status_kib("VmRSS")
        frame = pl.read_parquet(files[0])
        return {"bytes_per_row": (_status_kib("VmRSS") - before) * 1024 / frame.height}
    names, to_pytrec_names, pytrec_extra, to_ranx_names = SETS[metric_set]
    rec = Recorder()
    values: pl.DataFrame
    if method.startswith("prm"):
        scan = pl.scan_parquet(files)
        frame = pl.read_parquet(files) if method.startswith("prm_df") else pl.DataFrame()
        work: Callable[[], pl.DataFrame] = {
            "prm_df": lambda: prm.evaluate(frame, names, per_query=True, check=False),
            "prm_df_check": lambda: prm.evaluate(frame, names, per_query=True, check=True),
            "prm_scan_streaming": lambda: prm.evaluate(scan, names, per_query=True).collect(
                engine="streaming"
            ),
            "prm_scan_in_memory": lambda: prm.evaluate(scan, names, per_query=True).collect(
                engine="in-memory"
            ),
            "prm_chunked": lambda: prm.evaluate_chunked(scan, names, per_query=True, check=False),
        }[method]
        _reset_peak()
        values = _ours_values(rec.stage("evaluate", work))
        rec.peak("all")
    elif method == "pytrec":
        import pytrec_eval  # noqa: PLC0415

        measures = {*to_pytrec_names.values(), *pytrec_extra}
        frame = pl.read_parquet(files)
        _reset_peak()
        qrels, run = rec.stage("convert", lambda: to_pytrec(frame))
        rec.peak("convert")
        del frame
        _reset_peak()  # native: from the dicts
        evaluator = rec.stage("construct", lambda: pytrec_eval.RelevanceEvaluator(qrels, measures))
        out = rec.stage("evaluate", lambda: evaluator.evaluate(run))
        rec.peak("native")
        queries = list(out)
        values = _peer_values(
            {ours: [out[q][theirs] for q in queries] for ours, theirs in to_pytrec_names.items()}, queries
        )
    elif method == "ranx":
        from ranx import Qrels, Run, evaluate  # type: ignore[import-untyped]  # noqa: PLC0415

        ranx_measures = list(to_ranx_names.values())
        warnings.filterwarnings("ignore", module="numba")  # numba's type-safety notes about ranx's casts

        def warm_up() -> None:
            # Twenty queries: numba compiles other specialisations for larger inputs than a toy's.
            tiny_qrels, tiny_run = to_pytrec(make_frame(2_000, seed=12345))
            evaluate(Qrels(tiny_qrels), Run(tiny_run), ranx_measures, return_mean=False, make_comparable=True)

        rec.stage("jit", warm_up)
        frame = pl.read_parquet(files)
        _reset_peak()
        qrels, run = rec.stage("convert", lambda: to_pytrec(frame))
        rec.peak("convert")
        del frame
        _reset_peak()
        ranx_qrels, ranx_run = rec.stage("construct", lambda: (Qrels(qrels), Run(run)))
        rec.peak("construct")
        del qrels, run
        _reset_peak()  # native: from Qrels and Run
        out = rec.stage(
            "evaluate",
            lambda: evaluate(ranx_qrels, ranx_run, ranx_measures, return_mean=False, make_comparable=True),
        )
        rec.peak("native")
        queries = [str(q) for q in ranx_qrels.get_query_ids()]
        values = _peer_values({ours: list(out[theirs]) for ours, theirs in to_ranx_names.items()}, queries)
    else:
        msg = f"unknown method {method!r}"
        raise ValueError(msg)
    if result is not None:
        values.write_parquet(result)
    return {"stages": rec.stages, "peaks": rec.peaks}


# --------------------------------------------------------------------------- the parent


@dataclass
class Runs:
    """Every repetition of one method: stage -> [(wall, cpu)], phase -> [peak KiB]."""

    stages: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    peaks: dict[str, list[int]] = field(default_factory=dict)

    def add(self, report: dict[str, Any]) -> None:
        """Add one repetition's report (from a child)."""
        for name, pair in report["stages"].items():
            self.stages.setdefault(name, []).append(tuple(pair))
        for name, kib in report["peaks"].items():
            self.peaks.setdefault(name, []).append(kib)

    def wall(self, *names: str) -> list[float]:
        """Per repetition, the wall seconds of the stages `names` together."""
        return [sum(self.stages[n][i][0] for n in names) for i in range(len(self.stages[names[0]]))]

    def cpu(self, *names: str) -> list[float]:
        """Per repetition, the CPU seconds of the stages `names` together."""
        return [sum(self.stages[n][i][1] for n in names) for i in range(len(self.stages[names[0]]))]

    def peak(self, *phases: str) -> int:
        """The largest peak RSS (KiB) of `phases` over every repetition."""
        return max(max(self.peaks[p]) for p in phases)


def run_child(method: str, data: Path, metric_set: str, result: Path | None) -> dict[str, Any]:
    """Run one method in a fresh process; return its report (raise with its stderr if it failed)."""
    command = [sys.executable, __file__, "--child", method, "--data", str(data), "--set", metric_set]
    if result is not None:
        command += ["--result", str(result)]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603
    if proc.returncode != 0:
        msg = f"{method} ({metric_set}, {data.name}) failed with status {proc.returncode}:\n{proc.stderr[-3000:]}"
        raise RuntimeError(msg)
    report: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return report


def tie_free_queries(data: Path) -> pl.Series:
    """Queries whose retrieved rows have no score tie: where ranx's tie order cannot matter."""
    tied = (
        pl.scan_parquet(sorted(data.glob("*.parquet")))
        .filter(pl.col("score").is_not_null())
        .group_by("query")
        .agg((pl.col("score").n_unique() < pl.len()).alias("tied"))
        .filter(~pl.col("tied"))
        .select(pl.col("query").cast(pl.String))
        .collect(engine="streaming")
    )
    return tied["query"]


def compare(
    want: pl.DataFrame, got: pl.DataFrame, queries: pl.Series | None = None
) -> tuple[float, int, int]:
    """(max abs diff, queries compared, queries that differ in presence) over got's metric columns."""
    metrics = [c for c in got.columns if c != "query"]
    if queries is not None:
        want, got = (f.filter(pl.col("query").is_in(queries.implode())) for f in (want, got))
    joined = want.select("query", *metrics).join(got, on="query", how="full", suffix="_got", coalesce=True)
    missing = joined.filter(
        pl.any_horizontal(pl.col(metrics[0]).is_null(), pl.col(f"{metrics[0]}_got").is_null())
    )
    diff = joined.select(
        pl.max_horizontal((pl.col(m) - pl.col(f"{m}_got")).abs().max() for m in metrics)
    ).item()
    return float(diff or 0.0), joined.height, missing.height


def plan_problems(data: Path, names: list[str]) -> list[str]:
    """Python UDFs or in-memory fallbacks in the plans ours runs (one plan, and one chunk's plan)."""
    scan = pl.scan_parquet(sorted(data.glob("*.parquet")))
    first = scan.select(pl.first("query")).collect().item()
    plans = {
        "evaluate(scan)": prm.evaluate(scan, names, per_query=True),
        "evaluate(scan) aggregated": prm.evaluate(scan, names),
        "a chunk of evaluate_chunked": prm.evaluate(query_range(scan, "query", first, first), names),
    }
    problems = []
    for label, plan in plans.items():
        if calls_python(plan):
            problems.append(f"{label}: calls Python")
        problems += [f"{label}: falls back: {node.strip()[:120]}" for node in fallback_nodes(plan)]
    return problems


@dataclass
class Case:
    """One (size, metric set): its runs per method and the agreement lines."""

    rows: int
    metric_set: str
    data: Path
    runs: dict[str, Runs] = field(default_factory=dict)
    agreement: list[str] = field(default_factory=list)
    ok: bool = True
    other_load: str = "n/a"


def run_case(case: Case, methods: Sequence[str], repeat: int) -> None:
    """Time every method `repeat` times in alternation; check agreement on the first repetition."""
    case.runs = {m: Runs() for m in methods}
    with tempfile.TemporaryDirectory() as tmp:
        results = {m: Path(tmp) / f"{m}.parquet" for m in methods}
        gauge = OtherLoad()
        for rep in range(repeat):
            for method in methods:
                report = run_child(method, case.data, case.metric_set, results[method] if rep == 0 else None)
                case.runs[method].add(report)
                print(f"  {case.rows:,} {case.metric_set} rep {rep + 1}: {method} done", flush=True)
        case.other_load = gauge.stop()
        base_key = "prm_df" if "prm_df" in methods else methods[0]
        base = pl.read_parquet(results[base_key])
        ties = tie_free_queries(case.data) if "ranx" in methods else None
        for method in methods:
            if method == base_key:
                continue
            got = pl.read_parquet(results[method])
            subset = ties if method == "ranx" else None
            diff, n, missing = compare(base, got, subset)
            exact = method.startswith("prm")
            good = missing == 0 and (diff == 0.0 if exact else diff < TOLERANCE)
            case.ok &= good
            where = f"{n:,} queries" + (" without score ties" if subset is not None else "")
            rule = "identical" if exact else f"< {TOLERANCE:g}"
            case.agreement.append(
                f"{method} vs {base_key}: {len(got.columns) - 1} metrics x {where}, max abs diff {diff:.3g}"
                f"{f', {missing} queries missing on one side' if missing else ''} ({rule}: {'OK' if good else 'FAIL'})"
            )


def recsys_section(users: int, repeat: int) -> list[str]:
    """Personalization, coverage, novelty and intra-list similarity in one evaluate call, per engine.

    Each run is a fresh process of ``bench_recsys.py`` (its data generator and its call), so the
    peak RSS is that run's own; it includes the generated data (shown apart).
    """
    import bench_recsys  # noqa: PLC0415

    runs: dict[str, list[dict[str, Any]]] = {"streaming": [], "in-memory": []}
    gauge = OtherLoad()
    for _ in range(repeat):
        for engine, done in runs.items():
            command = [sys.executable, bench_recsys.__file__, "--child", str(users), engine, "all"]
            result = bench_recsys.run_child(command, timeout=1800)
            if result is None or "error" in result:
                msg = f"recommender run ({engine}) failed: {result}"
                raise RuntimeError(msg)
            done.append(result)
            print(f"  recsys {users:,} users: {engine} done", flush=True)
    lines = [
        "",
        f"## Recommender metrics: {users:,} users x 10 items ({users * 10:,} rows)",
        "",
        (
            "- personalization@10, coverage@10, novelty@10, intra_list_similarity@10 (16 features) in one "
            "evaluate call; data generated in the process (benchmarks/bench_recsys.py)"
        ),
        (
            f"- {repeat} alternating repetition(s), each in a fresh process; other processes used {gauge.stop()} "
            "of the CPUs meanwhile"
        ),
        f"- values (streaming, first run): {runs['streaming'][0]['values']}",
        "",
        "| engine | median s | CPU s | peak RSS GB | RSS of the data alone GB |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for engine, done in runs.items():
        lines.append(
            f"| {engine} | {statistics.median(r['evaluate_s'] for r in done):.2f} "
            f"| {statistics.median(r['cpu_s'] for r in done):.2f} | {max(r['peak_rss_gb'] for r in done):.2f} "
            f"| {done[0]['rss_after_data_gb']:.2f} |"
        )
    same = all(r["values"] == runs["streaming"][0]["values"] for done in runs.values() for r in done)
    lines.append(f"\n- the same values on both engines and every run: {'yes' if same else 'NO'}")
    return lines


LABELS = {
    "prm_df": "ours: evaluate(DataFrame, check=False)",
    "prm_df_check": "ours: evaluate(DataFrame) (default check=True)",
    "prm_scan_streaming": "ours: evaluate(scan_parquet).collect(streaming)",
    "prm_scan_in_memory": "ours: evaluate(scan_parquet).collect(in-memory)",
    "prm_chunked": "ours: evaluate_chunked(scan_parquet) (out-of-core)",
}


def table(case: Case) -> list[str]:
    """Markdown table: median / min wall, median CPU, x our best median, peak RSS."""
    lines: list[tuple[str, list[float], list[float], int | None, bool]] = []
    for method, runs in case.runs.items():
        if method.startswith("prm"):
            lines.append(
                (LABELS[method], runs.wall("evaluate"), runs.cpu("evaluate"), runs.peak("all"), True)
            )
        elif method == "pytrec":
            lines += [
                ("pytrec_eval from Polars: dicts + RelevanceEvaluator + evaluate",
                 runs.wall("convert", "construct", "evaluate"), runs.cpu("convert", "construct", "evaluate"),
                 runs.peak("convert", "native"), False),
                ("pytrec_eval native: RelevanceEvaluator(dicts) + evaluate",
                 runs.wall("construct", "evaluate"), runs.cpu("construct", "evaluate"), runs.peak("native"), False),
                ("  pytrec_eval evaluate(run) alone", runs.wall("evaluate"), runs.cpu("evaluate"), None, False),
                ("  Polars -> dicts (both peers)", runs.wall("convert"), runs.cpu("convert"), runs.peak("convert"), False),
            ]  # fmt: skip
        else:
            lines += [
                ("ranx from Polars: dicts + Qrels/Run + evaluate",
                 runs.wall("convert", "construct", "evaluate"), runs.cpu("convert", "construct", "evaluate"),
                 runs.peak("convert", "construct", "native"), False),
                ("ranx native: evaluate(Qrels, Run)", runs.wall("evaluate"), runs.cpu("evaluate"),
                 runs.peak("native"), False),
                ("  ranx Qrels(dict) + Run(dict)", runs.wall("construct"), runs.cpu("construct"),
                 runs.peak("construct"), False),
                ("  ranx numba JIT warm-up (tiny data, not in the rows above)", runs.wall("jit"), runs.cpu("jit"),
                 None, False),
            ]  # fmt: skip
    best = min(statistics.median(w) for _, w, _, _, ours in lines if ours)
    out = [
        "| method | median s | min s | CPU s | x our best | peak RSS MiB |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for label, walls, cpus, peak, _ in lines:
        med = statistics.median(walls)
        mem = "" if peak is None else f"{peak / 1024:,.0f}"
        out.append(
            f"| {label} | {med:.2f} | {min(walls):.2f} | {statistics.median(cpus):.2f} | {med / best:.2f} | {mem} |"
        )
    return out


def describe_set(metric_set: str) -> str:
    """One line: what ours and each peer compute in `metric_set`."""
    names, pytrec_names, _, ranx_names = SETS[metric_set]
    return (
        f"{len(names)} metrics per query for ours ({', '.join(names) if len(names) < 10 else 'see WIDE in the script'}); "
        f"pytrec_eval computes {len(pytrec_names)} of them"
        f"{' (and recip_rank for mrr@10)' if metric_set == 'narrow' else ''}, ranx {len(ranx_names)}"
    )


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000, 100_000_000])
    parser.add_argument("--sets", nargs="+", choices=sorted(SETS), default=["narrow", "wide"])
    parser.add_argument("--repeat", type=int, default=3, help="alternating repetitions")
    parser.add_argument("--peers-up-to", type=int, default=10_000_000, help="largest size the peers run at")
    parser.add_argument(
        "--in-memory-up-to", type=int, default=10_000_000, help="above: out-of-core forms only"
    )
    parser.add_argument(
        "--wide-up-to", type=int, default=10_000_000, help="largest size the wide set runs at"
    )
    parser.add_argument("--recsys-users", type=int, default=1_000_000, help="users x 10 items; 0 skips")
    parser.add_argument("--recsys-repeat", type=int, default=2, help="repetitions of the recommender runs")
    parser.add_argument("--int-ids", action="store_true", help="Int64 query and item ids")
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "prm-bench-data")
    parser.add_argument(
        "--smoke", action="store_true", help=f"{SMOKE_ROWS:,} rows, 1 repetition, no report file"
    )
    parser.add_argument("--out", type=Path, help="report file (default results/scale[_int].md)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--set", help=argparse.SUPPRESS)
    parser.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.smoke:
        args.rows, args.repeat, args.recsys_users, args.recsys_repeat = [SMOKE_ROWS], 1, 2_000, 1
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status (1 if the tools disagree or a plan falls back)."""
    args = _parse(argv)
    if args.child:
        print(json.dumps(child(args.child, args.data, args.set, args.result)))
        return 0
    command = "python benchmarks/bench_scale.py " + " ".join(sys.argv[1:] if argv is None else argv)
    versions = ", ".join(
        f"{p} {importlib.metadata.version(p)}" for p in ("pytrec_eval-terrier", "ranx", "numba")
    )
    head = [
        f"# Scale benchmark: {', '.join(f'{r:,}' for r in args.rows)} rows",
        "",
        f"`{command.strip()}`",
        "",
    ]
    head += [*machine(), f"- peers: {versions}", library()]
    head.append(f"- load average (1 min) at start: {os.getloadavg()[0]:.2f}")
    print("\n".join(head), flush=True)
    body: list[str] = []
    ok = True
    for rows in args.rows:
        data = dataset(args.data, rows, int_ids=args.int_ids)
        per_row = run_child("load", data, "narrow", None)["bytes_per_row"]
        in_memory = rows <= args.in_memory_up_to
        methods = [*(OURS_IN_MEMORY if in_memory else ()), "prm_chunked"]
        if not in_memory:
            methods.append("prm_scan_streaming")
        if rows <= args.peers_up_to:
            methods += PEERS
        problems = plan_problems(data, list(dict.fromkeys(NARROW + WIDE)))
        ok &= not problems
        body += [
            "",
            f"## {rows:,} rows",
            "",
            (
                f"- data: {rows // 100:,} queries x 100 rows, Parquet {parquet_bytes(data) / 2**20:,.0f} MiB "
                f"in {len(list(data.glob('*.parquet')))} file(s); as a Polars DataFrame about "
                f"{per_row * rows / 2**30:,.2f} GiB ({per_row:.0f} bytes a row: the RSS that reading a part adds)"
            ),
            f"- plans (evaluate over the scan, one chunk's plan): {'; '.join(problems) or 'no Python UDF, no in-memory fallback'}",
        ]
        if not in_memory:
            body.append(f"- above {args.in_memory_up_to:,} rows only the out-of-core forms run")
        if rows > args.peers_up_to:
            body.append(
                f"- peers not run above {args.peers_up_to:,} rows: their per-row Python dicts do not fit"
            )
        for metric_set in args.sets:
            if metric_set == "wide" and rows > args.wide_up_to:
                body.append(f"- the wide set is not run above {args.wide_up_to:,} rows")
                continue
            case = Case(rows, metric_set, data)
            run_case(case, methods, args.repeat)
            ok &= case.ok
            section = [
                "",
                f"### {metric_set}: {describe_set(metric_set)}",
                "",
                (
                    f"- {args.repeat} alternating repetition(s), each in a fresh process; other processes used "
                    f"{case.other_load} of the CPUs meanwhile"
                ),
                *(f"- agreement: {line}" for line in case.agreement),
                "",
                *table(case),
            ]
            print("\n".join(section), flush=True)
            body += section
    if args.recsys_users:
        section = recsys_section(args.recsys_users, args.recsys_repeat)
        print("\n".join(section), flush=True)
        body += section
    body += ["", f"- load average (1 min) at end: {os.getloadavg()[0]:.2f}"]
    report = "\n".join([*head, *body]) + "\n"
    out = args.out or (None if args.smoke else RESULTS / f"scale{'_int' if args.int_ids else ''}.md")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(report)
        print(f"\nwrote {out}")
    if not ok:
        print("disagreement or plan problem: see the report", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
