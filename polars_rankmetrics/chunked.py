"""evaluate_chunked(): out-of-core evaluation, one range of queries at a time."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, cast

import polars as pl

from polars_rankmetrics import _engine
from polars_rankmetrics._engine import MetricLike
from polars_rankmetrics._join import join_frames
from polars_rankmetrics._progress import Progress, reporter
from polars_rankmetrics._request import Request, request
from polars_rankmetrics.exceptions import InvalidDataError, InvalidParameterError

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from polars_rankmetrics._request import EvaluateOptions

__all__ = ["count_passes", "evaluate_chunked", "query_range", "query_ranges", "rows_for_budget"]

_ROWS = "__prm_rows"
_CHUNK = "__prm_chunk"

# The memory model behind `memory_mib` (peak RSS measured with getrusage on the 2-core machine of
# benchmarks/results/perf.md, Polars 2.1, string ids, the streaming engine): a chunk of n rows peaks
# at about FIXED + PER_METRIC * metrics + n * PER_ROW (5 metrics: 354 MiB at 2M rows, 734 MiB at 5M;
# 80 metrics: 446 MiB at 1M, 648 MiB at 3M). PER_ROW rounds the measured ~130-160 bytes up. FIXED
# was 150 MiB until the shared term columns (Rows.term) added ~20 MiB a 2M-row chunk: 100M rows in
# 20 files then peaked at 492-509 MiB against the 512 MiB default, so it now leaves that margin.
FIXED_MIB = 200
PER_METRIC_MIB = 3
PER_ROW_BYTES = 180
MIN_ROWS_PER_CHUNK = 100_000
"""The smallest chunk, and the query ranges' size when `memory_mib` sets the chunks (runs of ranges)."""


def rows_for_budget(memory_mib: int, n_metrics: int) -> int:
    """Rows per chunk that keep the peak RSS near `memory_mib` MiB for `n_metrics` metrics.

    >>> rows_for_budget(512, 5)
    1730150
    """
    free = (memory_mib - FIXED_MIB - PER_METRIC_MIB * n_metrics) * 2**20
    return max(MIN_ROWS_PER_CHUNK, free // PER_ROW_BYTES)


SAFETY = 0.9
"""The share of `memory_mib` a chunk is sized to once a chunk's peak has been measured."""
PROBE = 8
"""The first chunk is the model's size over this: its peak measures a row's cost before a full chunk."""


PREFETCH_VARIABLE = "POLARS_ROW_GROUP_PREFETCH_SIZE"
PREFETCH_ROW_GROUPS = 4
"""Parquet row groups Polars may read ahead during :func:`evaluate_chunked`'s passes.

Polars' own read-ahead grows with its thread count and runs ahead of a slow consumer: the first
pass over 100M rows in 20 files (one column, 1M queries) peaked 1,456 MiB over the process at
``POLARS_MAX_THREADS=16`` and 275 MiB at 2 threads; with 4 row groups ahead, 289 and 231 MiB, no
slower (benchmarks/results/perf_chunked_budget_100m.md).
"""


@contextmanager
def bounded_prefetch() -> Iterator[None]:
    """Polars' Parquet read-ahead bounded to :data:`PREFETCH_ROW_GROUPS` row groups, unless the user set it.

    Polars reads the variable when a query starts; it is set for the call's passes and restored
    after (a value the user exported is kept as it is).
    """
    if PREFETCH_VARIABLE in os.environ:
        yield
        return
    os.environ[PREFETCH_VARIABLE] = str(PREFETCH_ROW_GROUPS)
    try:
        yield
    finally:
        os.environ.pop(PREFETCH_VARIABLE, None)


def resident_memory() -> tuple[int, int] | None:
    """The resident memory of the process and its peak so far (VmRSS, VmHWM), in bytes; None without /proc."""
    try:
        text = Path("/proc/self/status").read_text()
    except OSError:
        return None
    found = {k: v.split() for k, _, v in (line.partition(":") for line in text.splitlines())}
    try:
        return int(found["VmRSS"][0]) * 1024, int(found["VmHWM"][0]) * 1024
    except (KeyError, IndexError, ValueError):
        return None


class ChunkSizes:
    """The rows of the next chunk: the memory model's, cut to what the measured peaks allow.

    The budget is the process's resident memory when the call starts plus `memory_mib`. The first
    chunk is an eighth of the model's size (a probe); the process's peak (VmHWM, read, never reset:
    it is the user's too) after it bounds what a row costs, fixed costs included, and sizes the next
    chunk to :data:`SAFETY` of the budget; the next chunk's peak, over the probe's, gives the cost a
    row apart from the fixed costs, which sizes the rest (never above the model's size). A chunk
    whose peak passes the budget cuts the next ones the same way. Whatever makes a row cost more
    (more threads, the scan's prefetch, the allocator, other processes) is measured, not modelled.
    """

    def __init__(self, memory_mib: int, rows: int, *, fixed: int | None) -> None:
        start = None if fixed is not None else resident_memory()
        self.fixed, self.model, self.budget = fixed is not None, rows, memory_mib * 2**20
        self.base, self.peak = (start[0], start[1]) if start is not None else (0, 0)
        self.rows = max(MIN_ROWS_PER_CHUNK, rows // PROBE) if start is not None else rows
        self.seen: list[tuple[int, int]] = []  # (rows, peak growth) of the chunks that raised the peak

    def next_rows(self) -> int:
        """The rows to aim for in the next chunk (0: one range a chunk, when `rows_per_chunk` was given)."""
        return 0 if self.fixed else max(MIN_ROWS_PER_CHUNK, self.rows)

    def planned(self, rows: int, ranges: int) -> int:
        """The chunks `rows` rows in `ranges` ranges take at the current size."""
        return ranges if self.fixed else max(1, min(ranges, -(-rows // self.next_rows())))

    def measured(self, rows: int) -> None:
        """After a chunk of `rows` rows: size the next ones from its peak, when the peak rose."""
        now = resident_memory()
        if now is None or self.fixed or self.base == 0:
            return
        # The peak so far bounds this chunk's growth; when the chunk raised it, it is the chunk's.
        rose, self.peak = now[1] > self.peak, max(self.peak, now[1])
        growth, room = self.peak - self.base, SAFETY * self.budget
        fit = int(room * rows / max(growth, 1))  # a row's cost bounded by the whole growth a row
        if rose and len(self.seen) == 1 and rows >= 1.5 * self.seen[0][0]:  # two chunks: a line
            slope = (growth - self.seen[0][1]) / (rows - self.seen[0][0])
            fixed = max(0.0, self.seen[0][1] - slope * self.seen[0][0])
            fit = max(fit, int((room - fixed) / slope)) if slope > 0 else fit
        if rose:
            self.seen.append((rows, growth))
        self.rows = max(MIN_ROWS_PER_CHUNK, min(self.model, fit))


COUNT_BYTES_PER_QUERY = 200
"""What the first pass's count of one query costs while it runs (Polars' streaming group_by):
1M string query ids held 178 MiB over the process in one pass, 94 MiB in four."""


def count_passes(lf: pl.LazyFrame, query: str, memory_mib: int) -> int:
    """How many passes the count of rows per query takes to hold at most half of `memory_mib`.

    One streaming pass estimates the distinct queries (HyperLogLog: a few KiB whatever their number);
    the queries are then counted in that many passes over hash partitions of the query column.
    """
    queries = _engine.collect(lf.select(pl.col(query).approx_n_unique()), engine="streaming").item()
    return max(1, -(-int(queries) * COUNT_BYTES_PER_QUERY // (memory_mib * 2**19)))


def query_ranges(lf: pl.LazyFrame, query: str, rows_per_chunk: int, passes: int = 1) -> pl.DataFrame:
    """Consecutive query ranges (lo, hi) of about `rows_per_chunk` rows each.

    Streaming passes over the query column count the rows of each query: one, or `passes`, each
    over the queries of one hash partition (so that no pass holds every query's count).
    """
    part = pl.col(query).hash() % passes  # a null query hashes to a value too: counted, then refused
    counts = (lf.filter(part == p) if passes > 1 else lf for p in range(passes))
    sizes = pl.concat(
        [_engine.collect(c.group_by(query).agg(pl.len().alias(_ROWS)), engine="streaming") for c in counts]
    ).sort(query)
    if sizes[query].null_count():
        raise InvalidDataError.null_values(query, "every row must name its query", what="ids")
    # A chunk starts where the rows before it reach a multiple of rows_per_chunk; a query is never split.
    start = pl.col(_ROWS).cum_sum() - pl.col(_ROWS)
    return (
        sizes.with_columns((start // rows_per_chunk).alias(_CHUNK))
        .group_by(_CHUNK)
        .agg(pl.col(query).min().alias("lo"), pl.col(query).max().alias("hi"), pl.col(_ROWS).sum())
        .sort(_CHUNK)
    )


def query_range(lf: pl.LazyFrame, query: str, lo: object, hi: object) -> pl.LazyFrame:
    """The rows of the queries `lo` to `hi` (inclusive): one chunk's input, a filter scans push down."""
    dtype = lf.collect_schema()[query]
    return lf.filter(pl.col(query).is_between(pl.lit(lo, dtype=dtype), pl.lit(hi, dtype=dtype)))


def evaluate_chunked(
    frame: pl.LazyFrame | pl.DataFrame,
    metrics: MetricLike | Sequence[MetricLike],
    *,
    memory_mib: int = 512,
    rows_per_chunk: int | None = None,
    progress: bool | Progress | None = None,
    **options: Unpack[EvaluateOptions],
) -> pl.DataFrame:
    """Evaluate data larger than memory, one range of queries at a time, within a memory budget.

    The same numbers as :func:`evaluate`, bit for bit (every mean is an
    exact integer sum of each query's value in the band of the largest
    value, whose states merge exactly whatever the chunks, and each query's
    values do not depend on the queries beside it; see :func:`evaluate`'s
    Notes for where exactness stops),
    with peak memory bounded by the largest chunk rather than by the
    data. One streaming pass over the query column finds how many rows each
    query has; the queries are then cut, in sorted order, into ranges of
    about `rows_per_chunk` rows (a query is never split), and each range is
    evaluated as ``frame.filter(query.is_between(lo, hi))`` on the streaming
    engine, keeping only its mergeable states (counts and exact sums per
    `by` group), which are merged at the end.

    What bounds memory: the ranking window and the per-query aggregation of
    one chunk hold that chunk's rows (about 130-180 bytes a row with string
    ids), plus a fixed cost of the process and the plan that grows with the
    number of metrics; the first pass holds one row count per query (about
    200 bytes a query while it counts: more queries than half the budget
    holds are counted in several passes over hash partitions of the query
    column, after a streaming estimate of their number; the ranges then keep
    about 30 bytes a query). Polars' Parquet read-ahead, which grows with its
    thread count (1.4 GiB over the budget at 16 threads, measured), is held
    to a few row groups while the call runs (the variable
    ``POLARS_ROW_GROUP_PREFETCH_SIZE``, unless set by the user, then
    restored). The
    chunk size starts from `memory_mib` with that model (measured on the
    2-core machine of benchmarks/results/perf.md: 100M rows of 4 columns in
    Parquet, the five everyday metrics), then follows what is measured: the
    first chunk is an eighth of the model's size, and the process's peak
    resident memory after it and after the next chunk (Linux's VmHWM, read,
    never reset) gives what a row costs on this machine now, which sizes
    the remaining chunks to 90% of the budget (never above the model's
    size); a chunk whose peak passes the budget cuts the next ones. More
    threads, the scan's prefetch, the allocator or other processes beside
    it make a row cost more: that is measured, not assumed.

    The budget: the process's peak resident memory stays within its
    resident memory when the call starts plus `memory_mib`. That start
    includes the interpreter's own baseline (about 50 MiB with Polars and
    this library imported, measured: benchmarks/results/perf_chunked_budget.md)
    and whatever the process already holds (a DataFrame passed in is
    resident). It is a bound the sizing keeps, not a cap the allocator
    enforces: a chunk cannot be smaller than its largest query, so one huge
    query can exceed it, ``per_query=True`` keeps every query's row until
    the end, and without /proc (not Linux) the chunks follow the model alone.

    Files sorted (or grouped) by query are faster: Parquet row-group
    statistics let each chunk skip the row groups of other ranges. Unsorted
    files give the same result, but every chunk reads every file (2.2x to
    4.1x slower at 10M rows in 5 chunks on a shared 2-core machine, more
    with more chunks: benchmarks/results/perf.md).

    Parameters
    ----------
    frame
        A LazyFrame, typically ``pl.scan_parquet(...)`` over a file set; or a
        DataFrame (or a pandas, pyarrow or Arrow-stream frame, converted
        once). The frame contract is that of :func:`evaluate`.
    metrics
        As for :func:`evaluate`; only per-query metrics (catalog metrics such
        as coverage read every list at once: use :func:`evaluate` on the
        streaming engine for them).
    memory_mib
        The memory the call may add to the process's resident memory at
        its start, in MiB (default 512); sets the chunk sizes (from
        :func:`rows_for_budget`, then from the measured peaks) unless
        `rows_per_chunk` is given.
    rows_per_chunk
        Rows evaluated at a time, overriding `memory_mib` (a chunk holds
        whole queries, so it may be larger by up to one query).
    progress
        None (default): a progress bar on stderr when tqdm is installed (the
        ``progress`` extra), stderr is a terminal and there is more than one
        chunk; nothing otherwise. True: that bar, or one line per chunk on
        stderr when tqdm is missing; nothing when stderr is not a terminal (a
        log file, a pipe: a report is for a person watching). False: nothing.
        A callable is called with (chunk, chunks, rows so far, seconds so far)
        after each chunk, wherever it runs.
    **options
        :func:`evaluate`'s options (the request's one declaration,
        ``EvaluateOptions``), below.

    Other Parameters
    ----------------
    by : str or Sequence[str] or None
        As for :func:`evaluate`.
    per_query : bool
        As for :func:`evaluate`.
    columns : Columns or None
        As for :func:`evaluate`.
    conventions : Conventions or str or None
        As for :func:`evaluate`, and so are the convention overrides (``depth=``...).
    check : bool
        Check each chunk's data inside its plan, as :func:`evaluate` does (a
        duplicate row always falls in one chunk, since both copies share the query).
    aggregate : str
        As for :func:`evaluate`, but "median": "min", "max" and "std"
        merge exactly across chunks (extremes; exact integer sums of the
        values and their squares), the same bits as :func:`evaluate`. A
        median is no mergeable state (the median of the chunks' medians is
        not the median), so ``"median"`` raises InvalidParameterError: use
        ``per_query=True`` and take the median of its rows.
    qrels : DataFrame or LazyFrame or None
        The judgments, when `frame` is the run alone, as for :func:`evaluate`:
        joined inside each chunk's plan as :func:`join_run_qrels` does (the
        query-range filter reaches both sides of the join, so each chunk
        reads only its queries' judgments).

    Returns
    -------
    pl.DataFrame
        As :func:`evaluate` returns for a DataFrame.

    Raises
    ------
    RankMetricsError
        As :func:`evaluate`; also for a catalog metric, a `memory_mib` or
        `rows_per_chunk` below 1, or a null query id.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2, 3], "item": ["a", "b", "a", "c", "a"],
    ...     "score": [0.9, 0.5, 0.8, 0.1, 0.7], "relevance": [0, 1, 1, 0, 2]})
    >>> prm.evaluate_chunked(df.lazy(), ["ndcg@10", "mrr"], rows_per_chunk=2)
    shape: (1, 2)
    ┌──────────┬──────────┐
    │ ndcg@10  ┆ mrr      │
    │ ---      ┆ ---      │
    │ f64      ┆ f64      │
    ╞══════════╪══════════╡
    │ 0.876977 ┆ 0.833333 │
    └──────────┴──────────┘
    """
    if isinstance(memory_mib, bool) or not isinstance(memory_mib, int) or memory_mib < 1:
        raise InvalidParameterError.out_of_domain("memory_mib", "a positive integer (MiB)", memory_mib)
    if rows_per_chunk is not None and (
        isinstance(rows_per_chunk, bool) or not isinstance(rows_per_chunk, int) or rows_per_chunk < 1
    ):
        raise InvalidParameterError.out_of_domain(
            "rows_per_chunk", "a positive integer or None", rows_per_chunk
        )
    req = request(metrics, frame, "chunk by chunk", False, **options)  # noqa: FBT003  (catalog: positional only)
    lf = cast("pl.DataFrame | pl.LazyFrame", req.frame).lazy()  # given: converted once by the request
    if isinstance(req.qrels, (pl.DataFrame, pl.LazyFrame)):
        lf = join_frames(lf, req.qrels.lazy(), req.columns, req.by).lazy()
    # Building the whole plan checks the schema before any pass over the data.
    keys = _engine.build(lf, req.columns, req.by, req.conventions, req.metrics).keys
    budget = ChunkSizes(memory_mib, rows_for_budget(memory_mib, len(req.metrics)), fixed=rows_per_chunk)
    with bounded_prefetch():
        passes = 1 if rows_per_chunk else count_passes(lf, req.columns.query, memory_mib)
        ranges = query_ranges(lf, req.columns.query, rows_per_chunk or MIN_ROWS_PER_CHUNK, passes)
        parts = _chunks(lf, req, keys, ranges, budget, progress)
    if not parts:  # an empty frame: evaluate it whole for the right (empty) schema
        parts.append(_engine.collect(_chunk(lf, req, keys, check=False), engine="streaming"))
    if req.per_query:
        return pl.concat(parts, how="vertical").sort(keys)
    merged = _engine.merge(pl.concat(parts, how="vertical").lazy(), req.metrics, req.by, how=req.aggregate)
    out = _engine.finish(merged, req.metrics, req.by, how=req.aggregate).drop(_engine.QUERIES)
    return _engine.collect(out.sort(req.by) if req.by else out)


def _chunks(  # noqa: PLR0913, PLR0917  (the plan, its request and keys, the ranges, the sizing, the report)
    lf: pl.LazyFrame,
    req: Request,
    keys: Sequence[str],
    ranges: pl.DataFrame,
    budget: ChunkSizes,
    progress: bool | Progress | None,
) -> list[pl.DataFrame]:
    """Each chunk's result: runs of consecutive query ranges of about ``budget.next_rows()`` rows."""
    los, his, sizes = (ranges[c].to_list() for c in ("lo", "hi", _ROWS))
    total, n = int(sum(sizes)), len(sizes)
    report = reporter(progress, budget.planned(total, n), total)
    started, done, i, count = time.perf_counter(), 0, 0, 0
    parts: list[pl.DataFrame] = []
    try:
        while i < n:
            want, j, rows = budget.next_rows(), i + 1, sizes[i]
            while j < n and rows + sizes[j] <= want:
                rows, j = rows + sizes[j], j + 1
            chunk = _chunk(query_range(lf, req.columns.query, los[i], his[j - 1]), req, keys)
            parts.append(_engine.collect(chunk, engine="streaming"))
            budget.measured(rows)
            done, i, count = done + rows, j, count + 1
            left = budget.planned(total - done, n - i) if i < n else 0
            report(count, count + left, done, time.perf_counter() - started)
    finally:
        report.close()
    return parts


def _chunk(lf: pl.LazyFrame, req: Request, keys: Sequence[str], *, check: bool | None = None) -> pl.LazyFrame:
    """One chunk's plan: its per-query rows, or its mergeable states (a row per `by` group)."""
    checked = req.check if check is None else check
    plan = _engine.build(lf, req.columns, req.by, req.conventions, req.metrics, check=checked)
    per_q = plan.per_query.filter(_engine.evaluated(req.conventions, judged_frame=plan.judged))
    if req.per_query:
        return per_q.select(*keys, *req.names)
    return _engine.states(per_q, req.metrics, req.by, how=req.aggregate)
