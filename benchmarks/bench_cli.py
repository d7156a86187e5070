"""The ``rankmetrics`` command against the trec_eval 10.0 binary (issue 41): time, peak memory, same bytes.

Usage::

    python benchmarks/bench_cli.py                      # 10k and 1M run lines, writes results/cli.md
    python benchmarks/bench_cli.py --sizes 10000000 --repeat 2 --out /tmp/cli_10m.md
    TREC_EVAL=/path/to/trec_eval python benchmarks/bench_cli.py --flags "-q -m all_trec"

trec_eval is taken from ``--trec-eval`` or the ``TREC_EVAL`` environment
variable, else built from ``../shared/reference/trec_eval/trec_eval-10.0-src.tar.gz``
(``--source``) into a temporary directory with ``make``; with no C compiler
the benchmark says so and stops (exit status 0, nothing written).

Collections (written once into ``--data``): ``--sizes`` run lines, 50-150
lines per query (mean 100), scores with four decimals and about 2% tied with
their neighbour (trec_eval breaks those by docno), two id shapes: numeric
(queries ``301``, docnos ``4711``) and alphanumeric (``topic-301``,
``clueweb12-0007tw-42-01234``). About 15% of the retrieved rows judged 0-3,
plus five judged documents per query never retrieved; 5% of the queries
have no relevant document and 1% of the run's queries no judgment (no
judged query lacks run lines: trec_eval 10.0 stops on one, status 4).

Each flag set (``FLAG_SETS``) runs both programs in a fresh process on the
same files; their outputs are compared byte for byte first (a difference
stops the benchmark with status 1), then ``--repeat`` alternating
repetitions time them: wall seconds (``time.perf_counter`` around the
process) and peak RSS (``os.wait4``'s ``ru_maxrss`` of that one process).
Ratios are of the minima of this one run. The ``-m all_trec`` rows also
time the floor: a bare Polars plan, in its own fresh process, doing the work
any evaluation of the whole set does (read both files, the full join, one
ranking in trec_eval's order, the cumulative windows, one group_by with a
column per printed value, the lines written in trec_eval's layout); its
values are not the measures, only its work is theirs. The default measure
set (with ``-q``, ``-M``, ``-l``) and the parameterised set have a floor that
prints trec_eval's very output (``plain_floor``: both files read, the judged
rows joined to the ranking once, one group_by of plain sums and maxima, the
``all`` line summed as trec_eval sums it): its output is compared with
trec_eval's before timing too. ``-c`` and ``-J`` rows have no floor.

The peak-memory model of the command (``PEAK_MODEL``: a fixed cost plus bytes
per run line, per flag set) is checked on every row: the report says where
a measured peak exceeds it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

# Importing Polars sets _RJEM_MALLOC_CONF in this process's environment (its jemalloc defaults); a child
# inheriting it would look as if the user had set it, and the command would keep Polars' settings rather
# than its own (polars_rankmetrics/_allocator.py). The children get the variable as this process found it.
MALLOC_CONF = "_RJEM_MALLOC_CONF"
USER_MALLOC_CONF = os.environ.get(MALLOC_CONF)

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
SOURCE = ROOT.parent / "shared" / "reference" / "trec_eval" / "trec_eval-10.0-src.tar.gz"
SEED = 41
TIME_TARGET = 2.0  # trec_eval / ours
RSS_TARGET = 3.0  # ours / trec_eval
FLOOR_TARGET = 1.1  # ours / the bare plan

FLAG_SETS: list[str] = [
    "",
    "-q",
    "-c",
    "-J",
    "-M 100",
    "-l 2",
    "-m all_trec",
    "-q -m all_trec",
    "-m ndcg_cut.5,10 -m P.5,10,20 -m recall.100",
]

# The command's peak RSS, modelled as MiB fixed (the interpreter, Polars, the library) plus bytes per run line;
# docs/benchmarks.md gives the same model. A row whose peak exceeds it is reported as over the model.
# Measured at 1M run lines (git h41b, the command's allocator settings, polars_rankmetrics/_allocator.py):
# alphanumeric ids 283-292 MiB on the plain flag sets, 299-300 MiB for all_trec; numeric ids (docnos read as
# UInt32) 206-213 and 231-238 MiB; 93-95 MiB on the plain sets at 10k, 109-110 MiB for all_trec. The per-line
# cost is the alphanumeric one (about 200 B), with room for the freed pages a quiet machine returns later.
PEAK_MODEL: dict[str, tuple[float, float]] = {"": (100.0, 220.0), "all_trec": (115.0, 220.0)}


def peak_model(flags: str) -> tuple[float, float]:
    """The (fixed MiB, bytes per run line) of the command's peak RSS for a flag set."""
    return PEAK_MODEL["all_trec" if "all_trec" in flags else ""]


# --------------------------------------------------------------------------- data


def collection(root: Path, lines: int, *, numeric: bool) -> tuple[Path, Path]:
    """A run of about `lines` lines and its qrels as TREC files, written once."""
    tag = "num" if numeric else "alnum"
    run_path, qrels_path = root / f"cli_{tag}_{lines}.run", root / f"cli_{tag}_{lines}.qrels"
    if run_path.exists() and qrels_path.exists():
        return run_path, qrels_path
    rng = np.random.default_rng(SEED)
    n_q = max(lines // 100, 4)
    depth = rng.integers(50, 151, n_q)
    query = np.repeat(np.arange(n_q), depth)
    position = np.concatenate([np.arange(d) for d in depth])
    first = np.repeat(rng.integers(0, 50_000_000, n_q), depth)
    stride = np.repeat(rng.integers(1, 9_000, n_q), depth)
    doc = first + stride * position  # distinct inside a query
    score = 100.0 - position * 0.5 + np.round(rng.random(query.size) * 0.4, 4)
    tied = rng.random(query.size) < 0.02
    tied[1:] &= query[1:] == query[:-1]
    tied[0] = False
    score[tied] = score[np.flatnonzero(tied) - 1]  # the same score as the line before
    no_judgment = rng.random(n_q) < 0.01  # run-only queries
    no_relevant = rng.random(n_q) < 0.05

    def qid(q: pl.Expr) -> pl.Expr:
        return (q + 301).cast(pl.String) if numeric else pl.format("topic-{}", q + 301)

    def docno(d: pl.Expr) -> pl.Expr:
        if numeric:
            return d.cast(pl.String)
        return pl.format(
            "clueweb12-{}tw-{}-{}",
            (d // 10_000_000).cast(pl.String).str.zfill(4),
            (d // 100_000 % 100).cast(pl.String).str.zfill(2),
            (d % 100_000).cast(pl.String).str.zfill(5),
        )

    run = pl.DataFrame({"q": query, "d": doc, "score": score}).select(
        qid(pl.col("q")).alias("query"),
        pl.lit("Q0").alias("q0"),
        docno(pl.col("d")).alias("docno"),
        (pl.int_range(pl.len()).over("q") + 1).alias("rank"),
        pl.col("score"),
        pl.lit("bm25").alias("tag"),
    )
    run.write_csv(run_path, separator=" ", include_header=False, float_precision=4)
    judged = (rng.random(query.size) < 0.15) & ~no_judgment[query]
    grades = rng.choice([0, 0, 1, 1, 2, 3], judged.sum())
    extra_q = np.repeat(np.flatnonzero(~no_judgment), 5)
    extra_pos = np.tile(np.arange(5), extra_q.size // 5)
    extra_doc = (
        rng.integers(0, 50_000_000, n_q)[extra_q] + 9_000 * 151 + extra_pos
    )  # beyond every retrieved docno of the query
    q = np.concatenate([query[judged], extra_q])
    rel = np.concatenate([grades, rng.integers(0, 4, extra_q.size)])
    rel[no_relevant[q]] = 0
    qrels = pl.DataFrame({"q": q, "d": np.concatenate([doc[judged], extra_doc]), "rel": rel})
    qrels.select(
        qid(pl.col("q")).alias("query"), pl.lit("0").alias("it"), docno(pl.col("d")).alias("docno"), "rel"
    ).write_csv(qrels_path, separator=" ", include_header=False)
    return run_path, qrels_path


# --------------------------------------------------------------------------- the floor

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def floor(run_path: Path, qrels_path: Path, *, per_query: bool) -> list[str]:
    """A bare Polars plan doing the work of the whole all_trec set; lines in trec_eval's layout.

    One ranking (score, then the docno's text, descending), the cumulative hit
    count and gain along it, the ideal gains (the judged grades sorted), and one
    group_by with a column per value trec_eval prints for a query (counts, AP,
    R-precision, reciprocal rank, bpref-like sums, the 11 interpolated
    precisions, and P, recall, success, nDCG at each cutoff), then the mean line.
    """
    text = {"column_0": pl.String, "column_2": pl.String}
    read = {"separator": " ", "has_header": False, "schema_overrides": text}
    run = pl.scan_csv(run_path, **read).select(  # type: ignore[arg-type]
        query=pl.col("column_0"), item=pl.col("column_2"), score=pl.col("column_4").cast(pl.Float64)
    )
    qrels = pl.scan_csv(qrels_path, **read).select(  # type: ignore[arg-type]
        query=pl.col("column_0"), item=pl.col("column_2"), rel=pl.col("column_3")
    )
    judged_queries = qrels.select("query").unique()
    run = run.join(judged_queries, on="query", how="semi")
    joined = run.join(qrels, on=["query", "item"], how="full", coalesce=True)
    rank = pl.col("r")
    rel = pl.col("rel").fill_null(0) > 0
    gain = pl.col("rel").fill_null(0).clip(0)
    ranked = (
        joined.with_columns(
            pl.when(pl.col("score").is_not_null())
            .then(pl.struct(pl.col("score"), pl.col("item")))
            .rank("ordinal", descending=True)
            .over("query")
            .alias("r"),
            gain.sort(descending=True).over("query").alias("ideal"),  # the ideal gain at each position
            pl.int_range(pl.len()).over("query").alias("ip"),
        )
        .with_columns(
            pl.when(rank.is_not_null()).then(rel).otherwise(pl.lit(value=False)).alias("hit"),
            pl.when(rank.is_not_null()).then(gain).otherwise(0).alias("g"),
        )
        .sort("query", "r", nulls_last=True)
        .with_columns(
            pl.col("hit").cum_sum().over("query").alias("hits"),
            (pl.col("g") / (rank + 1).log(2)).cum_sum().over("query").alias("dcg"),
            (pl.col("ideal") / (pl.col("ip") + 2).log(2)).cum_sum().over("query").alias("idcg"),
        )
    )
    num_rel = rel.sum()
    prec = pl.col("hits") / rank
    aggs = [
        pl.col("score").is_not_null().sum().alias("num_ret"),
        num_rel.alias("num_rel"),
        pl.col("hit").sum().alias("num_rel_ret"),
        (pl.when(pl.col("hit")).then(prec).sum() / num_rel).alias("map"),
        (pl.when(rank == num_rel).then(prec).max()).alias("Rprec"),
        (pl.when(pl.col("hit")).then(1.0 / rank).max()).alias("recip_rank"),
        (pl.when(pl.col("hit")).then(rank - pl.col("hits")).sum() / num_rel).alias("bpref"),
        *(
            pl.when(pl.col("hits") / num_rel >= level / 10).then(prec).max().alias(f"iprec_{level}")
            for level in range(11)
        ),
    ]
    for k in CUTOFFS:
        at = rank <= k
        aggs += [
            (pl.col("hit") & at).sum().truediv(k).alias(f"P_{k}"),
            (pl.col("hit") & at).sum().truediv(num_rel).alias(f"recall_{k}"),
            (pl.col("hit") & at).any().cast(pl.Float64).alias(f"success_{k}"),
            (
                pl.when(at).then(pl.col("dcg")).max() / pl.when(pl.col("ip") < k).then(pl.col("idcg")).max()
            ).alias(f"ndcg_cut_{k}"),
        ]
    per = ranked.group_by("query").agg(aggs)
    table = per.collect()
    names = [c for c in table.columns if c != "query"]
    out: list[str] = []
    if per_query:
        long = (
            table.sort("query")
            .unpivot(index="query", on=names)
            .select(
                pl.format(
                    "{}\t{}\t{}",
                    pl.col("variable").str.pad_end(22),
                    "query",
                    pl.col("value").cast(pl.Float64).fill_null(float("nan")).round(4).cast(pl.String),
                )
            )
        )
        out += [line + "\n" for line in long.to_series().to_list()]
    means = table.select(pl.col(names).cast(pl.Float64).mean()).row(0)
    out += [
        f"{name:<22}\tall\t{float('nan') if value is None else value:.4f}\n"
        for name, value in zip(names, means, strict=True)
    ]
    return out


ILEVELS = tuple(i / 10 for i in range(11))
PLAIN_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
PARAMETERISED = "-m ndcg_cut.5,10 -m P.5,10,20 -m recall.100"


def plain_options(flags: str) -> dict[str, object] | None:
    """The options of a flag set the plain floor does (default measures or PARAMETERISED), else None."""
    argv = shlex.split(flags.replace(PARAMETERISED, "").strip())
    options: dict[str, object] = {
        "per_query": False,
        "depth": 1000,
        "level": 1,
        "param": PARAMETERISED in flags,
    }
    while argv:
        flag = argv.pop(0)
        if flag == "-q":
            options["per_query"] = True
        elif flag in {"-M", "-l"} and argv:
            options["depth" if flag == "-M" else "level"] = int(argv.pop(0))
        else:  # -c, -J, -m all_trec, ...: no plain floor
            return None
    return options


def plain_floor(  # noqa: PLR0913, PLR0915  (one plan, read top to bottom)
    run_path: Path, qrels_path: Path, *, per_query: bool, depth: int, level: int, param: bool
) -> list[str]:
    """A bare Polars plan printing trec_eval's default measures (or PARAMETERISED's) as trec_eval does.

    Both files read with ``pl.read_csv``; the judged queries' run lines ranked
    once in trec_eval's order (score, then the docno's text, descending) and
    cut at ``-M``; the judged rows among them joined to their grades, sorted by
    rank, with the running counts and each measure's term per row; one
    group_by of plain sums, maxima and counts; the per-query counts (and ideal
    DCG) from the qrels; the ``all`` line as trec_eval's running sum over the
    queries in ``strcmp`` order. Its output is compared with trec_eval's
    before timing.
    """
    read = {"separator": " ", "has_header": False, "quote_char": None}
    s = pl.String
    run = pl.read_csv(  # type: ignore[call-overload]
        run_path, **read, schema={"query": s, "q0": s, "item": s, "rank": s, "score": pl.Float64, "tag": s}
    )
    qrels = pl.read_csv(qrels_path, **read, schema={"query": s, "it": s, "item": s, "rel": pl.Int64})  # type: ignore[call-overload]
    runid = run["tag"][-1]
    grade, r, hits, hit = pl.col("rel"), pl.col("r"), pl.col("hits"), pl.col("hit")
    num_rel, num_nonrel = pl.col("num_rel"), pl.col("num_nonrel")
    counts = (
        qrels.lazy()
        .group_by("query")
        .agg(num_rel=(grade >= level).sum(), num_nonrel=((grade >= 0) & (grade < level)).sum())
    )
    ranked = (
        run.lazy()
        .select("query", "item", "score")
        .join(counts.select("query"), on="query", how="semi")
        .with_columns(r=pl.struct("score", "item").rank("ordinal", descending=True).over("query"))
        .filter(r <= depth)
    )
    retrieved = ranked.group_by("query").agg(num_ret=pl.len())
    judged = (
        ranked.join(qrels.lazy().select("query", "item", "rel"), on=["query", "item"])
        .join(counts, on="query")
        .sort("query", "r")
        .with_columns(hit=grade >= level)
        .with_columns(hits=hit.cum_sum().over("query"), nonrel=(~hit & (grade >= 0)).cum_sum().over("query"))
    )
    prec = hits / r
    terms: list[pl.Expr] = []
    levels: list[pl.Expr] = []  # the interpolated precision at each recall level, read from `ip`
    aggs: list[pl.Expr] = [hit.sum().alias("num_rel_ret")]
    if not param:
        kept = pl.min_horizontal(pl.col("nonrel"), num_rel).cast(pl.Float64) / pl.min_horizontal(
            num_nonrel, num_rel
        ).cast(pl.Float64)
        terms += [
            pl.when(hit).then(prec).alias("ap"),
            pl.when(hit).then(pl.when(pl.col("nonrel") > 0).then(1.0 - kept).otherwise(1.0)).alias("bp"),
            pl.when(hit).then(prec.reverse().cum_max().reverse().over("query")).alias("ip"),
        ]
        aggs += [
            pl.col("ap").sum(),
            (hit & (r <= num_rel)).sum().alias("rprec_hits"),
            pl.col("bp").sum(),
            pl.when(hit).then(r).min().alias("first"),
        ]
        for i, x in enumerate(ILEVELS):  # the level's lround(x * R) relevant documents
            cut = (pl.lit(x) * num_rel).round(0, mode="half_away_from_zero").clip(lower_bound=1)
            levels.append(pl.when(hit & (hits == cut)).then(pl.col("ip")).alias(f"ip{i}"))
            aggs.append(pl.col(f"ip{i}").max())
    cutoffs = (5, 10, 20) if param else PLAIN_CUTOFFS
    aggs += [(hit & (r <= k)).sum().alias(f"hits_{k}") for k in sorted({*cutoffs, 100})]
    if param:
        terms.append(pl.when(grade > 0).then(grade / (r + 1).log(2)).otherwise(0.0).alias("gain"))
        aggs += [pl.col("gain").filter(r <= k).sum().alias(f"dcg_{k}") for k in (5, 10)]
    per = judged.with_columns(terms).with_columns(levels).group_by("query").agg(aggs)
    ideal = (
        qrels.lazy()
        .filter(grade > 0)
        .sort("query", "rel", descending=[False, True])
        .with_columns(i=pl.int_range(pl.len()).over("query"))
        .group_by("query")
        .agg(
            *(
                (grade / (pl.col("i") + 2).log(2)).filter(pl.col("i") < k).sum().alias(f"idcg_{k}")
                for k in (5, 10)
            )
        )
    )
    table = retrieved.join(counts, on="query").join(per, on="query", how="left")
    if param:
        table = table.join(ideal, on="query", how="left")
    table = table.fill_null(0).sort("query").collect()
    q = {name: table[name].to_list() for name in table.columns}
    n = len(q["query"])
    rows: list[tuple[str, str, list[object]]] = []  # (name, kind, values)

    def ratio(top: list[int], bottom: list[int] | int) -> list[float]:
        below = [bottom] * n if isinstance(bottom, int) else bottom
        return [float(a) / float(b) if b else 0.0 for a, b in zip(top, below, strict=True)]

    if not param:
        rows += [("num_ret", "sum", q["num_ret"]), ("num_rel", "sum", q["num_rel"])]
        rows += [("num_rel_ret", "sum", q["num_rel_ret"])]
        rows += [
            (
                "map",
                "mean",
                [
                    a / b if h else 0.0
                    for a, b, h in zip(q["ap"], q["num_rel"], q["num_rel_ret"], strict=True)
                ],
            )
        ]
        rows += [
            ("Rprec", "mean", ratio(q["rprec_hits"], q["num_rel"])),
            ("bpref", "mean", [a / b if b else a for a, b in zip(q["bp"], q["num_rel"], strict=True)]),
        ]
        rows += [("recip_rank", "mean", [1.0 / f if f else 0.0 for f in q["first"]])]
        rows += [
            (f"iprec_at_recall_{x:.2f}", "mean", [float(v) for v in q[f"ip{i}"]])
            for i, x in enumerate(ILEVELS)
        ]
    rows += [(f"P_{k}", "mean", ratio(q[f"hits_{k}"], k)) for k in cutoffs]
    if param:
        rows += [("recall_100", "mean", ratio(q["hits_100"], q["num_rel"]))]
        rows += [
            (
                f"ndcg_cut_{k}",
                "mean",
                [d / i if i > 0 else d for d, i in zip(q[f"dcg_{k}"], q[f"idcg_{k}"], strict=True)],
            )
            for k in (5, 10)
        ]
    out: list[str] = []
    if per_query:
        printed = [
            (
                f"{name:<22}\t",
                [str(v) for v in values] if kind == "sum" else list(map("%6.4f".__mod__, values)),
            )
            for name, kind, values in rows
        ]
        out += [
            f"{prefix}{query}\t{col[j]}\n" for j, query in enumerate(q["query"]) for prefix, col in printed
        ]
    summary: list[tuple[str, str]] = [] if param else [("runid", runid), ("num_q", str(n))]
    for name, kind, values in rows:
        if kind == "sum":
            summary.append((name, str(sum(values))))  # type: ignore[arg-type]
            continue
        total = 0.0
        for v in values:  # trec_eval's running double sum, in strcmp order of the queries
            total += v  # type: ignore[operator]
        summary.append((name, "%6.4f" % (total / n)))
        if name == "map":
            total = 0.0
            for v in values:
                total += math.log(max(v, 0.00001))  # type: ignore[type-var]
            summary.append(("gm_map", "%6.4f" % math.exp(total / n)))  # noqa: UP031
    return out + [f"{name:<22}\tall\t{value}\n" for name, value in summary]


# --------------------------------------------------------------------------- processes


@dataclass
class Sample:
    """The wall seconds and peak RSS (KiB) of each repetition of one program."""

    seconds: list[float] = field(default_factory=list)
    kib: list[int] = field(default_factory=list)

    def add(self, seconds: float, kib: int) -> None:
        """Record one repetition."""
        self.seconds.append(seconds)
        self.kib.append(kib)


TIME = "/usr/bin/time"  # GNU time: the peak RSS of the program alone


def run_once(argv: Sequence[str], out: Path, env: dict[str, str] | None = None) -> tuple[float, int, int]:
    """Run `argv` in a fresh process, stdout into `out`: (wall seconds, peak RSS KiB, exit status).

    The peak is GNU time's ``%M`` when /usr/bin/time exists: a process forked from
    this one would count this interpreter's pages in its ``ru_maxrss`` (Linux
    keeps the high-water mark across ``exec``). Without it, ``os.wait4``'s
    ``ru_maxrss``, which is then an upper bound (the report says which).
    """
    gnu = Path(TIME).exists()
    usage_file = out.with_suffix(".rss")
    command = [TIME, "-f", "%M", "-o", str(usage_file), *argv] if gnu else list(argv)
    with out.open("wb") as sink:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, env=env)  # noqa: S603
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.stderr.close()
        proc.returncode = code
    if code:
        sys.stderr.write(err.decode(errors="replace"))
    kib = int(usage_file.read_text().split()[-1]) if gnu else usage.ru_maxrss
    return seconds, kib, code


def build_trec_eval(source: Path, into: Path) -> Path | str:
    """Build trec_eval from its source tarball into `into`; the binary, or why it could not be built."""
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return "no C compiler found (cc, gcc, clang)"
    if not source.exists():
        return f"trec_eval's source {source} not found"
    if shutil.which("make") is None:
        return "make not found"
    with tarfile.open(source) as tar:
        tar.extractall(into, filter="data")
    makefile = next(into.rglob("Makefile"))
    done = subprocess.run(  # noqa: S603
        ["make", "-C", str(makefile.parent), f"CC={compiler}"],  # noqa: S607
        capture_output=True,
        text=True,
        check=False,
    )
    binary = makefile.parent / "trec_eval"
    if done.returncode or not binary.exists():
        return f"make failed: {done.stderr.strip().splitlines()[-1:]}"
    return binary


def python_env(tmp: Path) -> dict[str, str]:
    """The environment of the Python programs: this checkout first, bytecode cached (as an install has it).

    ``PYTHONDONTWRITEBYTECODE`` would make every run compile the library's sources
    again (about as long as importing Polars): the bytecode goes under `tmp` instead.
    ``_RJEM_MALLOC_CONF`` is passed on as the user set it (or not at all), never as
    this process's Polars import set it: the command then makes its own allocator
    settings, as it does run from a shell (before this, the benchmark measured the
    command with Polars' settings: 1M run lines, peak 325 MiB instead of 215).
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=str(tmp / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop(MALLOC_CONF, None)
    if USER_MALLOC_CONF is not None:
        env[MALLOC_CONF] = USER_MALLOC_CONF
    return env


def startup(trec_eval: Path, repeat: int, tmp: Path) -> list[str]:
    """The start-up on trec_eval's own test collection: the programs, and Python with Polars alone."""
    data = ROOT / "polars_rankmetrics" / "data"
    files = [str(data / "qrels.test"), str(data / "results.test")]
    env = python_env(tmp)
    commands = {
        "trec_eval": [str(trec_eval), *files],
        "rankmetrics": [sys.executable, "-m", "polars_rankmetrics", *files],
        "python -c 'import polars_rankmetrics'": [sys.executable, "-c", "import polars_rankmetrics"],
        "python -c 'import polars' (the floor)": [sys.executable, "-c", "import polars"],
    }
    outs = {name: tmp / f"start{i}.out" for i, name in enumerate(commands)}
    for name, command in commands.items():
        run_once(command, outs[name], env)  # warms the caches and writes the bytecode
    same = outs["trec_eval"].read_bytes() == outs["rankmetrics"].read_bytes()
    samples = {name: Sample() for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            seconds, kib, _ = run_once(command, outs[name], env)
            samples[name].add(seconds, kib)
    lines = [
        (
            f"## Start-up: trec_eval's test collection ({repeat} alternating repetitions, "
            f"outputs {'byte-identical' if same else 'DIFFERENT'})"
        ),
        "",
        "| program | min s (median) | peak MiB |",
        "| --- | ---: | ---: |",
    ]
    for name, sample in samples.items():
        ordered = sorted(sample.seconds)
        lines.append(
            f"| `{name}` | {ordered[0]:.3f} ({ordered[len(ordered) // 2]:.3f}) | {_mib(max(sample.kib)):.0f} |"
        )
    return [*lines, ""]


@dataclass
class Row:
    """One collection and flag set: the samples of each program."""

    data: str
    flags: str
    lines: int
    programs: dict[str, Sample]


def measure(  # noqa: PLR0913
    trec_eval: Path,
    run_path: Path,
    qrels_path: Path,
    flags: str,
    *,
    repeat: int,
    tmp: Path,
) -> tuple[dict[str, Sample], str | None]:
    """Compare the outputs byte for byte, then time the programs alternately."""
    env = python_env(tmp)
    argv = shlex.split(flags)
    commands: dict[str, list[str]] = {
        "trec_eval": [str(trec_eval), *argv, str(qrels_path), str(run_path)],
        "ours": [sys.executable, "-m", "polars_rankmetrics", *argv, str(qrels_path), str(run_path)],
    }
    if "all_trec" in flags:
        pq = ["--per-query"] if "-q" in argv else []
        commands["floor"] = [sys.executable, __file__, "--floor", str(run_path), str(qrels_path), *pq]
    elif plain_options(flags) is not None:
        floor_flags = f"--floor-flags={flags}"
        commands["floor"] = [sys.executable, __file__, "--floor", str(run_path), str(qrels_path), floor_flags]
    outs = {name: tmp / f"{name}.out" for name in commands}
    for name, command in commands.items():
        _, _, status = run_once(command, outs[name], env)
        if status:
            return {}, f"{name} exited with status {status}"
    if outs["trec_eval"].read_bytes() != outs["ours"].read_bytes():
        return {}, "outputs differ"
    if (
        "all_trec" not in flags
        and "floor" in commands
        and outs["floor"].read_bytes() != outs["ours"].read_bytes()
    ):
        return {}, "the floor's output differs from trec_eval's"
    samples = {name: Sample() for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            seconds, kib, status = run_once(command, outs[name], env)
            if status:
                return {}, f"{name} exited with status {status}"
            samples[name].add(seconds, kib)
    return samples, None


# --------------------------------------------------------------------------- report


def _mib(kib: int) -> float:
    return kib / 1024


def table(rows: list[Row]) -> tuple[list[str], list[str]]:
    """The results table, and the rows that miss a target."""
    lines = [
        (
            "| run lines | ids | flags | trec_eval s | ours s | trec_eval / ours | floor s | ours / floor "
            "| trec_eval MiB | ours MiB | ours / trec_eval | model MiB |"
        ),
        "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    misses: list[str] = []
    for row in rows:
        te, ours = row.programs["trec_eval"], row.programs["ours"]
        ratio = min(te.seconds) / min(ours.seconds)
        rss = max(ours.kib) / max(te.kib)
        fixed, per_line = peak_model(row.flags)
        model = fixed + per_line * row.lines / 2**20
        floor_cells = ["", ""]
        if "floor" in row.programs:
            fl = min(row.programs["floor"].seconds)
            floor_cells = [f"{fl:.2f}", f"{min(ours.seconds) / fl:.2f}"]
        over = " (over)" if _mib(max(ours.kib)) > model else ""
        lines.append(
            f"| {row.lines:,} | {row.data} | `{row.flags or '(default)'}` | {min(te.seconds):.2f} "
            f"| {min(ours.seconds):.2f} | {ratio:.2f} | {' | '.join(floor_cells)} | {_mib(max(te.kib)):.0f} "
            f"| {_mib(max(ours.kib)):.0f} | {rss:.1f} | {model:.0f}{over} |"
        )
        name = f"{row.lines:,} {row.data} `{row.flags or '(default)'}`"
        if row.lines >= 1_000_000 and ratio < TIME_TARGET:
            misses.append(f"{name}: {ratio:.2f}x trec_eval's speed (target {TIME_TARGET:g}x)")
        if row.lines >= 1_000_000 and rss > RSS_TARGET:
            misses.append(f"{name}: {rss:.1f}x trec_eval's peak RSS (target <= {RSS_TARGET:g}x)")
        if over:
            misses.append(f"{name}: peak {_mib(max(ours.kib)):.0f} MiB over the model's {model:.0f} MiB")
    return lines, misses


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,1000000", help="run lines per collection, comma-separated")
    parser.add_argument("--ids", default="num,alnum", help="id shapes: num, alnum or both")
    parser.add_argument("--flags", action="append", help="a flag set (repeatable); default: every set")
    parser.add_argument("--repeat", type=int, default=3, help="alternating repetitions")
    parser.add_argument("--trec-eval", type=Path, default=os.environ.get("TREC_EVAL"))
    parser.add_argument("--source", type=Path, default=SOURCE, help="trec_eval's source tarball")
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "bench_cli")
    parser.add_argument("--out", type=Path, default=RESULTS / "cli.md")
    parser.add_argument("--no-startup", dest="startup", action="store_false", help="skip the start-up table")
    parser.add_argument("--floor", nargs=2, metavar=("RUN", "QRELS"), help=argparse.SUPPRESS)
    parser.add_argument("--per-query", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--floor-flags", help=argparse.SUPPRESS)  # the plain floor of this flag set
    return parser.parse_args(argv)


def _commit() -> str:
    try:
        sha = subprocess.run(  # noqa: S603
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],  # noqa: S607
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        dirty = subprocess.run(  # noqa: S603
            ["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--", "polars_rankmetrics"],  # noqa: S607
            check=False,
        ).returncode
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return f"git {sha}" + (" with uncommitted changes to the library" if dirty else "")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 1 when an output differs from trec_eval's."""
    args = _parse(argv)
    if args.floor and args.floor_flags is not None:
        options = plain_options(args.floor_flags)
        assert options is not None, args.floor_flags
        sys.stdout.write("".join(plain_floor(Path(args.floor[0]), Path(args.floor[1]), **options)))  # type: ignore[arg-type]
        return 0
    if args.floor:
        sys.stdout.write("".join(floor(Path(args.floor[0]), Path(args.floor[1]), per_query=args.per_query)))
        return 0
    with tempfile.TemporaryDirectory(prefix="bench_cli-") as tmp_name:
        tmp = Path(tmp_name)
        trec_eval: Path | str = args.trec_eval or build_trec_eval(args.source, tmp / "build")
        if isinstance(trec_eval, str):
            print(f"bench_cli: skipped, trec_eval not available: {trec_eval}")
            return 0
        args.data.mkdir(parents=True, exist_ok=True)
        started = dt.datetime.now(dt.UTC)
        load_before = os.getloadavg()
        start_lines = startup(Path(trec_eval), max(args.repeat, 5), tmp) if args.startup else []
        print("\n".join(start_lines), flush=True)
        rows: list[Row] = []
        failures: list[str] = []
        for lines in [int(s) for s in args.sizes.split(",")]:
            for ids in args.ids.split(","):
                run_path, qrels_path = collection(args.data, lines, numeric=ids == "num")
                n_lines = sum(1 for _ in run_path.open("rb"))
                for flags in args.flags or FLAG_SETS:
                    samples, failure = measure(
                        Path(trec_eval), run_path, qrels_path, flags, repeat=args.repeat, tmp=tmp
                    )
                    if failure is not None:
                        failures.append(f"{n_lines:,} {ids} `{flags}`: {failure}")
                        print(failures[-1], file=sys.stderr, flush=True)
                        continue
                    rows.append(Row(ids, flags, n_lines, samples))
                    print(table(rows[-1:])[0][-1], flush=True)
        load_after = os.getloadavg()
        body, misses = table(rows)
        command = "python benchmarks/bench_cli.py " + " ".join(sys.argv[1:] if argv is None else argv)
        report = [
            "# The `rankmetrics` command against trec_eval 10.0 (benchmarks/bench_cli.py)",
            "",
            f"`{command.strip()}`, {started:%Y-%m-%d %H:%M} UTC, library {_commit()}.",
            "",
            f"- machine: {os.cpu_count()} cores; Python {sys.version.split()[0]}, polars {pl.__version__}",
            f"- trec_eval: {trec_eval}",
            (
                f"- {args.repeat} alternating repetitions per row, each program in a fresh process, outputs "
                "compared byte for byte first; seconds = the minimum wall time; MiB = the largest peak RSS"
            ),
            (
                f"- load average (1, 5, 15 min) before {' '.join(f'{x:.2f}' for x in load_before)}, "
                f"after {' '.join(f'{x:.2f}' for x in load_after)}"
            ),
            (
                "- floor: a bare Polars plan of the same work (not for `-c`, `-J`; on the plain sets its output "
                "is trec_eval's, checked; see the module docstring)"
            ),
            "- model: the documented peak of the command, "
            + ", ".join(
                f"{k or 'other flags'}: {a:.0f} MiB + {b:.0f} B/line" for k, (a, b) in PEAK_MODEL.items()
            ),
            "",
            *start_lines,
            "## Collections",
            "",
            *body,
            "",
            "Byte-identical outputs: " + ("every row" if not failures else "NO: " + "; ".join(failures)),
            "",
            "Targets missed: " + ("none" if not misses else ""),
            *(f"- {miss}" for miss in misses),
        ]
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("\n".join(report) + "\n")
        print("\n".join(report))
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
