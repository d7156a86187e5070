"""Core benchmark: ``prm.evaluate`` against pytrec_eval on one seeded long frame.

Usage::

    python benchmarks/bench_core.py [--rows 1000000] [--repeat 3] [--smoke]
                                    [--int-ids] [--profile] [--no-memory] [--out PATH]

What it does, in one process:

1. Builds a seeded long frame (``make_frame``): ``rows / 100`` queries of 100
   rows each, graded relevance 0..3 on about 30% of the rows (the rest
   unjudged, null), 10% of the judged rows never retrieved (null score),
   float scores rounded to 3 decimals (so some tie), string ids ``"q17"`` /
   ``"d1234"`` (``--int-ids``: Int64 ids), 1% of the queries with no relevant
   item.
2. Checks that ``prm.evaluate`` and pytrec_eval agree on every query and
   metric (max abs difference < 1e-9, else exit status 1).
3. Times every method in alternation (A B C ... A B C ...), ``--repeat``
   times, and reports the median (and min, and the process CPU time).
   The metrics are ``ndcg_cut_10, map, recip_rank, P_10, recall_100`` on both
   sides: trec_eval's ``recip_rank`` has no cutoff, so we time ``recip_rank``
   (not ``mrr@10``) for the same work.
4. Measures peak RSS per method, each in a fresh subprocess that loads the
   frame from Parquet, resets the peak (``/proc/self/clear_refs``), runs the
   method once and reads ``VmHWM``.
5. Prints a Markdown report and writes it to ``benchmarks/results/core_<rows>.md``
   (``--smoke`` writes nothing unless ``--out`` is given).

``--profile`` adds the cost of the primitives the plan is built from: the
bare sort, a bare group_by, the ranking window alone, and replicas of the
windows ``polars_rankmetrics._prepare`` adds (public Polars expressions only).
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import polars as pl
import pytrec_eval

import polars_rankmetrics as prm

METRICS = ("ndcg_cut_10", "map", "recip_rank", "P_10", "recall_100")
TOLERANCE = 1e-9
LIST_LEN = 100
SMOKE_ROWS = 20_000
RESULTS = Path(__file__).resolve().parent / "results"

Timings = dict[str, tuple[float, float]]  # stage -> (wall seconds, CPU seconds)


# --------------------------------------------------------------------------- data


def make_frame(
    rows: int = 1_000_000,
    *,
    seed: int = 0,
    list_len: int = LIST_LEN,
    int_ids: bool = False,
) -> pl.DataFrame:
    """Return a seeded long frame: ``rows // list_len`` queries x `list_len` rows.

    Columns ``query, item, score, relevance``. About 30% of the rows are
    judged (grades 0..3 with probabilities .55/.25/.12/.08, null otherwise),
    10% of the judged rows were never retrieved (null score), 1% of the
    queries have no relevant item. Scores grow with the grade, plus noise,
    rounded to 3 decimals so that some tie. Ids are strings (``"q17"``,
    ``"d1234"``, so text order differs from numeric order) or, with
    `int_ids`, Int64. Vectorised: no Python loop over rows or queries.
    """
    n_queries = max(1, rows // list_len)
    n = n_queries * list_len
    rng = np.random.default_rng(seed)
    query = np.repeat(np.arange(n_queries, dtype=np.int64), list_len)
    # Item ids unique within a query: a per-query permutation of spaced slots plus an offset.
    slots = rng.permuted(np.tile(np.arange(list_len, dtype=np.int64), (n_queries, 1)), axis=1)
    offset = rng.integers(0, 1_000_000, n_queries)
    item = np.repeat(offset, list_len) + slots.ravel() * 9_973
    judged = rng.random(n) < 0.3
    grade = rng.choice(4, size=n, p=[0.55, 0.25, 0.12, 0.08])
    no_relevant = np.repeat(rng.random(n_queries) < 0.01, list_len)
    grade = np.where(no_relevant, 0, grade)
    unretrieved = judged & (rng.random(n) < 0.1)
    score = np.round(rng.normal(0.0, 1.0, n) + 0.4 * np.where(judged, grade, 0), 3)
    frame = pl.DataFrame(
        {
            "query": query,
            "item": item,
            "score": pl.Series(score).set(pl.Series(unretrieved), None),
            "relevance": pl.Series(grade, dtype=pl.Int32).set(pl.Series(~judged), None),
        }
    )
    if not int_ids:
        frame = frame.with_columns(query=pl.format("q{}", "query"), item=pl.format("d{}", "item"))
    return frame


def describe(frame: pl.DataFrame) -> str:
    """One line about the frame: rows, queries, judged / unretrieved / relevant rows, ties."""
    stats = frame.select(
        pl.len().alias("rows"),
        pl.col("query").n_unique().alias("queries"),
        pl.col("relevance").is_not_null().sum().alias("judged"),
        pl.col("score").is_null().sum().alias("unretrieved"),
        (pl.col("relevance") >= 1).sum().alias("relevant"),
    ).row(0, named=True)
    ties = frame.drop_nulls("score").group_by("query", "score").len().filter(pl.col("len") > 1)["len"].sum()
    return (
        f"{stats['rows']:,} rows, {stats['queries']:,} queries x {LIST_LEN}; "
        f"{stats['judged']:,} judged ({stats['relevant']:,} relevant), "
        f"{stats['unretrieved']:,} judged but not retrieved, {ties:,} retrieved rows in score ties; "
        f"ids: query {frame.schema['query']}, item {frame.schema['item']}"
    )


# --------------------------------------------------------------------------- the two tools


def ours(frame: pl.DataFrame, *, check: bool = False) -> pl.DataFrame:
    """Per-query metrics from the in-memory DataFrame."""
    return prm.evaluate(frame, list(METRICS), per_query=True, check=check)


def ours_lazy(frame: pl.DataFrame, engine: Literal["streaming", "in-memory"]) -> pl.DataFrame:
    """Per-query metrics from ``frame.lazy()``, collected on `engine`."""
    plan = prm.evaluate(frame.lazy(), list(METRICS), per_query=True, check=False)
    return plan.collect(engine=engine)


def to_pytrec(frame: pl.DataFrame) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Return pytrec_eval's (qrels, run) dicts from the long frame.

    qrels: every judged row ``{query: {item: grade}}``; run: every retrieved
    row ``{query: {item: score}}``. One Polars group_by per dict, then one
    ``dict(zip(...))`` per query (the fastest of the forms tried; a loop
    over rows is ~1.5x slower).
    """
    ids = [pl.col("query").cast(pl.String), pl.col("item").cast(pl.String)]
    judged = (
        frame.lazy()
        .filter(pl.col("relevance").is_not_null())
        .group_by(ids[0])
        .agg(ids[1], pl.col("relevance").cast(pl.Int64))
        .collect()
    )
    retrieved = (
        frame.lazy()
        .filter(pl.col("score").is_not_null())
        .group_by(ids[0])
        .agg(ids[1], pl.col("score").cast(pl.Float64))
        .collect()
    )
    qrels = {
        q: dict(zip(items, grades, strict=True))
        for q, items, grades in zip(
            judged["query"].to_list(), judged["item"].to_list(), judged["relevance"].to_list(), strict=True
        )
    }
    run = {
        q: dict(zip(items, scores, strict=True))
        for q, items, scores in zip(
            retrieved["query"].to_list(),
            retrieved["item"].to_list(),
            retrieved["score"].to_list(),
            strict=True,
        )
    }
    return qrels, run


def pytrec(qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """pytrec_eval's per-query results for METRICS."""
    return pytrec_eval.RelevanceEvaluator(qrels, set(METRICS)).evaluate(run)


def max_abs_diff(frame: pl.DataFrame) -> float:
    """Max abs difference between prm and pytrec_eval over all queries and METRICS.

    Infinite when the two evaluate different sets of queries.
    """
    mine = ours(frame, check=True).with_columns(pl.col("query").cast(pl.String))
    theirs = pytrec(*to_pytrec(frame))
    if set(mine["query"].to_list()) != set(theirs) or mine.height != len(theirs):
        return float("inf")
    ref = pl.DataFrame(
        {"query": list(theirs), **{m: [theirs[q][m] for q in theirs] for m in METRICS}},
        schema={"query": pl.String, **dict.fromkeys(METRICS, pl.Float64)},
    )
    joined = mine.join(ref, on="query", suffix="_ref")
    diffs = joined.select(pl.max_horizontal((pl.col(m) - pl.col(f"{m}_ref")).abs().max() for m in METRICS))
    return float(diffs.item())


# --------------------------------------------------------------------------- timing


def _clock(fn: Callable[[], object]) -> tuple[float, float]:
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def alternating_minima(forms: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Each form's fastest wall time over `repeat` rounds that run every form in turn (one process)."""
    best = dict.fromkeys(forms, float("inf"))
    for _ in range(repeat):
        for name, fn in forms.items():
            best[name] = min(best[name], _clock(fn)[0])
    return best


def _pytrec_stages(frame: pl.DataFrame) -> Timings:
    """pytrec_eval from the Polars frame, stage by stage."""
    out: Timings = {}
    box: dict[str, Any] = {}
    out["convert"] = _clock(lambda: box.update(zip(("qrels", "run"), to_pytrec(frame), strict=True)))
    out["construct"] = _clock(
        lambda: box.update(ev=pytrec_eval.RelevanceEvaluator(box["qrels"], set(METRICS)))
    )
    out["evaluate"] = _clock(lambda: box["ev"].evaluate(box["run"]))
    return out


@dataclass(frozen=True)
class Row:
    """One line of the report."""

    key: str
    label: str
    ours: bool
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)


def _main_methods(frame: pl.DataFrame) -> dict[str, Callable[[], Timings]]:
    """Each timed call returns stage -> (wall, cpu); single-stage calls use key 'all'."""
    return {
        "prm_df": lambda: {"all": _clock(lambda: ours(frame, check=False))},
        "prm_df_check": lambda: {"all": _clock(lambda: ours(frame, check=True))},
        "prm_streaming": lambda: {"all": _clock(lambda: ours_lazy(frame, "streaming"))},
        "prm_in_memory": lambda: {"all": _clock(lambda: ours_lazy(frame, "in-memory"))},
        "pytrec": lambda: _pytrec_stages(frame),
    }


MAIN_ROWS = (
    ("prm_df", "prm.evaluate(DataFrame, check=False)", True),
    ("prm_df_check", "prm.evaluate(DataFrame, check=True)", True),
    ("prm_streaming", 'prm.evaluate(LazyFrame).collect(engine="streaming")', True),
    ("prm_in_memory", 'prm.evaluate(LazyFrame).collect(engine="in-memory")', True),
    ("pytrec_native", "pytrec_eval native: evaluate(run) only", False),
    ("pytrec_from_polars", "pytrec_eval from Polars: dicts + RelevanceEvaluator + evaluate", False),
    ("pytrec_convert", "  of which Polars -> qrels/run dicts", False),
    ("pytrec_construct", "  of which RelevanceEvaluator(qrels, measures)", False),
)


def time_main(frame: pl.DataFrame, repeat: int) -> list[Row]:
    """Time every method, alternating, `repeat` times."""
    rows = {key: Row(key, label, mine) for key, label, mine in MAIN_ROWS}
    methods = _main_methods(frame)
    for _ in range(repeat):
        for key, method in methods.items():
            stages = method()
            if key != "pytrec":
                rows[key].walls.append(stages["all"][0])
                rows[key].cpus.append(stages["all"][1])
                continue
            parts = {
                "pytrec_native": ("evaluate",),
                "pytrec_convert": ("convert",),
                "pytrec_construct": ("construct",),
                "pytrec_from_polars": ("convert", "construct", "evaluate"),
            }
            for row_key, names in parts.items():
                rows[row_key].walls.append(sum(stages[s][0] for s in names))
                rows[row_key].cpus.append(sum(stages[s][1] for s in names))
    return list(rows.values())


def _profile_methods(frame: pl.DataFrame) -> list[tuple[str, Callable[[], object]]]:
    """Primitives, and the window forms ``prm.evaluate`` builds its plan from.

    Public Polars expressions only, so this keeps working whatever the
    library's internals look like; the forms mirror ``_prepare`` (a ranking
    stage over every row, then ranks among subsets).
    """
    lf = frame.lazy()
    item = pl.col("item") if frame.schema["item"] == pl.String else pl.col("item").cast(pl.String)
    key = pl.struct(pl.col("score").alias("k"), item.alias("i"))
    retrieved = pl.col("score").is_not_null()
    relevant = (pl.col("relevance") >= 1).fill_null(value=False)
    gain = (
        pl.when(pl.col("relevance") >= 0)
        .then(pl.col("relevance").cast(pl.Float64))
        .otherwise(0.0)
        .fill_null(0.0)
    )

    def stage1(*extra: pl.Expr) -> pl.LazyFrame:
        return lf.select(
            "query",
            pl.when(retrieved).then(key).rank("ordinal", descending=True).over("query").alias("rank"),
            relevant.alias("rel"),
            gain.alias("gain"),
            retrieved.sum().over("query").alias("num_ret"),
            relevant.sum().over("query").alias("num_rel"),
            pl.col("relevance").is_not_null().sum().over("query").alias("num_judged"),
            *extra,
        )

    struct_hit = pl.when(retrieved & relevant).then(key).rank("ordinal", descending=True).over("query")
    int_hit = pl.when(pl.col("rel") & pl.col("rank").is_not_null()).then(pl.col("rank")).rank("ordinal")
    ideal = pl.when(pl.col("gain") > 0).then(pl.col("gain")).rank("ordinal", descending=True)
    ids = pl.struct("query", "item")

    def collect(plan: pl.LazyFrame) -> Callable[[], object]:
        return lambda: plan.collect(engine="streaming")

    mrr10 = [m if m != "recip_rank" else "mrr@10" for m in METRICS]
    return [
        (
            'bare sort: frame.sort(["query", "score", "item"], descending=[False, True, True])',
            lambda: frame.sort(["query", "score", "item"], descending=[False, True, True]),
        ),
        ('bare group_by("query").agg(pl.len())', lambda: frame.group_by("query").agg(pl.len())),
        (
            'rank window alone: pl.struct("score", "item").rank("ordinal", descending=True).over("query")',
            lambda: frame.select(pl.struct("score", "item").rank("ordinal", descending=True).over("query")),
        ),
        (
            "ranking stage: masked struct rank (item as text) + 3 per-query count windows",
            collect(stage1()),
        ),
        (
            "  + rank among relevant hits as a 2nd masked struct rank, same stage",
            collect(stage1(struct_hit.alias("hit"))),
        ),
        (
            "  + rank among relevant hits as an integer rank of the rank, 2nd stage",
            collect(stage1().with_columns(int_hit.over("query").alias("hit"))),
        ),
        (
            "  + ideal order of the gains (float rank), 2nd stage",
            collect(stage1().with_columns(ideal.over("query").alias("ideal"))),
        ),
        ("prm.validate(frame) alone (the check=True step)", lambda: prm.validate(frame)),
        (
            'validate\'s duplicate test alone: pl.struct("query", "item").is_duplicated()',
            lambda: frame.select(ids.is_duplicated().any()),
        ),
        (
            'alternative duplicate pre-test: pl.struct("query", "item").hash().n_unique()',
            lambda: frame.select(ids.hash().n_unique()),
        ),
        (
            "prm.evaluate(DataFrame, check=False) with mrr@10 for recip_rank",
            lambda: prm.evaluate(frame, mrr10, per_query=True, check=False),
        ),
        ("prm.evaluate(DataFrame, check=False) (same as above, for reference)", lambda: ours(frame)),
    ]


def time_profile(frame: pl.DataFrame, repeat: int) -> list[Row]:
    """Time the primitives, alternating, `repeat` times."""
    methods = _profile_methods(frame)
    rows = [Row(f"p{i}", label, ours=True) for i, (label, _) in enumerate(methods)]
    for _ in range(repeat):
        for row, (_, fn) in zip(rows, methods, strict=True):
            wall, cpu = _clock(fn)
            row.walls.append(wall)
            row.cpus.append(cpu)
    return rows


# --------------------------------------------------------------------------- memory


def _status_kib(name: str) -> int | None:
    try:
        text = Path("/proc/self/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith(f"{name}:"):
            return int(line.split()[1])
    return None


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current RSS
    except OSError:
        return False
    return True


def child(method: str, parquet: str) -> dict[str, Any]:
    """Run one method once in this (fresh) process; return RSS before and peak during it."""
    frame = pl.read_parquet(parquet)
    work: Callable[[], object]
    if method in {"pytrec_native", "pytrec_construct"}:
        qrels, run = to_pytrec(frame)
        del frame
        if method == "pytrec_native":
            evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(METRICS))
            work = lambda: evaluator.evaluate(run)  # noqa: E731
        else:
            work = lambda: pytrec_eval.RelevanceEvaluator(qrels, set(METRICS))  # noqa: E731
    else:
        work = {
            "prm_df": lambda: ours(frame, check=False),
            "prm_df_check": lambda: ours(frame, check=True),
            "prm_streaming": lambda: ours_lazy(frame, "streaming"),
            "prm_in_memory": lambda: ours_lazy(frame, "in-memory"),
            "pytrec_from_polars": lambda: pytrec(*to_pytrec(frame)),
            "pytrec_convert": lambda: to_pytrec(frame),
        }[method]
    gc.collect()
    before = _status_kib("VmRSS")
    exact = _reset_peak()
    work()
    peak = _status_kib("VmHWM") if exact else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"before_kib": before, "peak_kib": peak, "exact": exact}


def measure_memory(frame: pl.DataFrame, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Peak RSS of each method, each in a fresh subprocess reading the frame from Parquet."""
    out: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "frame.parquet")
        frame.write_parquet(path)
        for key in keys:
            proc = subprocess.run(  # noqa: S603
                [sys.executable, __file__, "--child", key, "--frame", path],
                capture_output=True,
                text=True,
                check=False,
            )
            if proc.returncode != 0:
                msg = f"memory subprocess for {key!r} failed:\n{proc.stderr[-3000:]}"
                raise RuntimeError(msg)
            out[key] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


# --------------------------------------------------------------------------- contention


class OtherLoad:
    """Share of the machine's CPU time that other processes used between start and stop.

    Reads ``/proc/stat`` (all CPUs) and ``/proc/self/stat`` (this process, all
    threads): a figure well above 0% means the timings were taken on a busy
    machine. None where /proc is unavailable.
    """

    def __init__(self) -> None:
        """Take the first reading."""
        self._start = self._read()

    @staticmethod
    def _read() -> tuple[int, int, int] | None:
        try:
            cpu = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
            own = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            return None
        user, nice, system, idle, iowait, irq, softirq, steal = cpu
        busy = user + nice + system + irq + softirq + steal
        # utime + stime + cutime + cstime: this process and the children it waited for (its subprocesses)
        return busy, busy + idle + iowait, sum(int(x) for x in own[11:15])

    def stop(self) -> str:
        """Return e.g. ``"3%"``: other processes' share of all CPUs since start."""
        end = self._read()
        if self._start is None or end is None or end[1] == self._start[1]:
            return "n/a"
        busy, total, own = (b - a for a, b in zip(self._start, end, strict=True))
        return f"{max(0, busy - own) / total:.0%}"


# --------------------------------------------------------------------------- report


def machine() -> list[str]:
    """Lines describing the machine and the versions."""
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kib / 2**20:.1f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return [
        f"- machine: {cpu}, {os.cpu_count()} cores{mem}, {platform.system()} {platform.release()}",
        (
            f"- Python {platform.python_version()}, polars {pl.__version__} "
            f"({pl.thread_pool_size()} threads), numpy {np.__version__}, "
            f"pytrec_eval-terrier {importlib.metadata.version('pytrec_eval-terrier')}, "
            f"polars-rankmetrics {prm.__version__}"
        ),
    ]


def library() -> str:
    """Where polars_rankmetrics was imported from and, in a git checkout, its commit."""
    where = Path(prm.__file__).resolve().parent
    git = ["git", "--no-optional-locks", "-C", str(where)]
    try:
        sha = subprocess.run(  # noqa: S603
            [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run([*git, "diff", "--quiet", "HEAD", "--", "."], check=False).returncode  # noqa: S603
    except (OSError, subprocess.CalledProcessError):
        return f"- library: {where} (not a git checkout)"
    changes = ", with uncommitted changes to the library" if dirty else ""
    return f"- library: {where}, git {sha}{changes}"


def _mib(kib: float | None) -> str:
    return "n/a" if kib is None else f"{kib / 1024:,.0f}"


def table(rows: list[Row], memory: dict[str, dict[str, Any]] | None, *, ratio: bool = True) -> list[str]:
    """Markdown table lines: median / min wall, CPU, x our best, peak RSS."""
    medians = {r.key: statistics.median(r.walls) for r in rows}
    best = min(medians[r.key] for r in rows if r.ours)
    head = "| method | median s | min s | CPU s (median) |"
    rule = "| --- | ---: | ---: | ---: |"
    if ratio:
        head += " x our best |"
        rule += " ---: |"
    if memory is not None:
        head += " peak RSS MiB | RSS added MiB |"
        rule += " ---: | ---: |"
    lines = [head, rule]
    for r in rows:
        line = f"| {r.label} | {medians[r.key]:.3f} | {min(r.walls):.3f} | {statistics.median(r.cpus):.3f} |"
        if ratio:
            line += f" {medians[r.key] / best:.2f} |"
        if memory is not None:
            m = memory.get(r.key)
            if m is None:
                line += " | |"
            else:
                added = None if m["before_kib"] is None else m["peak_kib"] - m["before_kib"]
                line += f" {_mib(m['peak_kib'])} | {_mib(added)} |"
        lines.append(line)
    return lines


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows (queries x 100)")
    parser.add_argument("--repeat", type=int, default=3, help="alternating repetitions")
    parser.add_argument("--smoke", action="store_true", help=f"{SMOKE_ROWS:,} rows, 1 repetition")
    parser.add_argument("--int-ids", action="store_true", help="Int64 query and item ids")
    parser.add_argument("--profile", action="store_true", help="also time the primitives")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-RSS subprocesses")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="where to write the report")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--frame", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.smoke:
        args.rows, args.repeat = SMOKE_ROWS, 1
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; return the exit status (1 if the two tools disagree)."""
    args = _parse(argv)
    if args.child:
        print(json.dumps(child(args.child, args.frame)))
        return 0
    command = "python benchmarks/bench_core.py " + " ".join(sys.argv[1:] if argv is None else argv)
    load_start = os.getloadavg()
    frame = make_frame(args.rows, seed=args.seed, int_ids=args.int_ids)
    lines = [f"# Core benchmark, {frame.height:,} rows", "", f"`{command.strip()}`", ""]
    lines += [*machine(), library()]
    lines.append(f"- data: {describe(frame)}")
    lines.append(f"- metrics: {', '.join(METRICS)} (recip_rank on both sides), per query")

    diff = max_abs_diff(frame)  # also warms both tools up
    agree = diff < TOLERANCE
    lines.append(
        f"- agreement with pytrec_eval: max abs diff over all queries and metrics = {diff:.3g} "
        f"({'OK' if agree else 'FAIL'}, tolerance {TOLERANCE:g})"
    )
    print("\n".join(lines), flush=True)
    if not agree:
        print("prm and pytrec_eval disagree: not timing", file=sys.stderr)
        return 1

    gauge = OtherLoad()
    rows = time_main(frame, args.repeat)
    other_main = gauge.stop()
    memory = None if args.no_memory else measure_memory(frame, [r.key for r in rows])
    load_end = os.getloadavg()
    report = [
        (
            f"- {args.repeat} alternating repetition(s); wall seconds; CPU s = process CPU time "
            "(all threads); x our best = median / fastest prm median"
        ),
        (
            f"- load average (1 min) at start {load_start[0]:.2f}, at end {load_end[0]:.2f}; "
            f"other processes used {other_main} of the CPUs while this table was timed"
        ),
    ]
    if memory is not None:
        report.append(
            "- peak RSS: one fresh subprocess per method, frame read from Parquet, peak reset "
            "before the call; RSS added = peak - RSS before the call (pytrec_eval native and "
            "construct: dicts already built)"
        )
    else:
        report.append("- peak RSS: not measured (--no-memory)")
    report += ["", *table(rows, memory)]
    if args.profile:
        gauge = OtherLoad()
        profile = table(time_profile(frame, args.repeat), None, ratio=False)
        report += [
            "",
            "## Where the time goes",
            "",
            f"Other processes used {gauge.stop()} of the CPUs while this table was timed.",
            "",
            *profile,
        ]
    print("\n".join(report))

    out = args.out
    if out is None and not args.smoke:
        out = RESULTS / f"core_{args.rows}{'_int' if args.int_ids else ''}.md"
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join([*lines, *report]) + "\n")
        print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
