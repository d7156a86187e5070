"""evaluate_chunked keeps its memory budget by measuring, not only by modelling (issue 39 pt 5).

The chunk size starts from the memory model (rows_for_budget); the first chunk is an eighth of it, and
the process's peak after it (VmHWM, read, never reset) gives what a row really costs on this
machine, now: more threads, the scan's prefetch, the allocator or other processes make a row cost
more, and the next chunks are cut so that their peak stays within the budget. These tests feed the
sizing a simulated process; the benchmark (benchmarks/bench_chunked_budget.py) measures real runs.
"""

from __future__ import annotations

import os

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import _engine as engine
from polars_rankmetrics import chunked

MIB = 2**20


class _Process:
    """A simulated process: resident memory at the call, and a peak that each chunk raises by its cost."""

    def __init__(self, base: int, per_row: int, fixed: int) -> None:
        self.rss, self.hwm, self.per_row, self.fixed = base, base, per_row, fixed
        self.base = base

    def status(self) -> tuple[int, int]:
        return self.rss, self.hwm

    def run(self, rows: int) -> int:
        peak = self.base + self.fixed + rows * self.per_row
        self.hwm = max(self.hwm, peak)
        return peak - self.base


@pytest.mark.parametrize("per_row", [180, 600, 2000])  # the model's cost; 3x (threads, prefetch); 11x
def test_chunks_are_cut_to_what_a_row_costs(monkeypatch: pytest.MonkeyPatch, per_row: int) -> None:
    process = _Process(base=300 * MIB, per_row=per_row, fixed=40 * MIB)
    monkeypatch.setattr(chunked, "resident_memory", process.status)
    budget = chunked.ChunkSizes(512, chunked.rows_for_budget(512, 5), fixed=None)
    growths = []
    for _ in range(6):
        rows = budget.next_rows()
        growths.append(process.run(rows))
        budget.measured(rows)
    assert growths[0] <= 512 * MIB  # the probe, an eighth of the model
    assert all(g <= 512 * MIB for g in growths[1:]), [g / MIB for g in growths]
    if per_row == 180:  # the model holds: the chunks are the model's
        assert budget.next_rows() == chunked.rows_for_budget(512, 5)


def test_a_chunk_past_the_budget_cuts_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    process = _Process(base=100 * MIB, per_row=180, fixed=40 * MIB)
    monkeypatch.setattr(chunked, "resident_memory", process.status)
    budget = chunked.ChunkSizes(512, chunked.rows_for_budget(512, 5), fixed=None)
    rows = budget.next_rows()
    process.run(rows)
    budget.measured(rows)
    process.per_row = 1000  # other processes now make every row cost more
    rows = budget.next_rows()
    assert process.run(rows) > 512 * MIB  # this chunk passes the budget...
    budget.measured(rows)
    assert process.run(budget.next_rows()) <= 512 * MIB  # ...the next ones do not


def test_without_proc_or_with_rows_per_chunk_the_sizes_are_fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chunked, "resident_memory", lambda: None)
    budget = chunked.ChunkSizes(512, 1_000_000, fixed=None)
    budget.measured(500_000)
    assert budget.next_rows() == 1_000_000  # the model alone (the first chunk not halved: no probe)
    given = chunked.ChunkSizes(512, 1_000_000, fixed=7)
    assert given.next_rows() == 0  # one range a chunk: the ranges are rows_per_chunk's


def test_the_status_is_read_from_proc() -> None:
    status = chunked.resident_memory()
    if status is None:
        pytest.skip("no /proc/self/status here")
    rss, hwm = status
    assert 0 < rss <= hwm


def test_measured_sizing_gives_the_same_values() -> None:
    frame = pl.DataFrame(
        {
            "query": [f"q{i // 7:04d}" for i in range(7000)],
            "item": [f"d{i % 13}" for i in range(7000)],
            "score": [float((i * 37) % 11) for i in range(7000)],
            "relevance": [(i * 5) % 3 for i in range(7000)],
        }
    )
    metrics = ["ndcg@10", "map", "mrr@10"]
    assert prm.evaluate_chunked(frame.lazy(), metrics).equals(prm.evaluate(frame, metrics))


def _frame(rows: int, per_query: int) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "query": [f"q{i // per_query:05d}" for i in range(rows)],
            "item": [f"d{i % 13}" for i in range(rows)],
            "score": [float((i * 37) % 11) for i in range(rows)],
            "relevance": [(i * 5) % 3 for i in range(rows)],
        }
    )


def test_the_read_ahead_is_bounded_during_the_call_and_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    # Polars' Parquet read-ahead grows with its thread count (1.4 GiB over 100M rows at 16 threads):
    # the call bounds it while its passes run, and leaves the environment as it found it.
    monkeypatch.delenv(chunked.PREFETCH_VARIABLE, raising=False)
    seen: list[str | None] = []
    real = engine.collect

    def spy(lf: pl.LazyFrame, **kwargs: object) -> pl.DataFrame:
        seen.append(os.environ.get(chunked.PREFETCH_VARIABLE))
        return real(lf, **kwargs)

    monkeypatch.setattr(engine, "collect", spy)
    prm.evaluate_chunked(_frame(700, 7).lazy(), ["map"], rows_per_chunk=200)
    assert len(seen) > 2
    assert set(seen[:-1]) == {str(chunked.PREFETCH_ROW_GROUPS)}  # every pass but the merge
    assert chunked.PREFETCH_VARIABLE not in os.environ
    monkeypatch.setenv(chunked.PREFETCH_VARIABLE, "64")  # the user's own setting is kept
    seen.clear()
    prm.evaluate_chunked(_frame(700, 7).lazy(), ["map"], rows_per_chunk=200)
    assert set(seen) == {"64"}
    assert os.environ[chunked.PREFETCH_VARIABLE] == "64"


def test_many_queries_are_counted_in_several_passes() -> None:
    # 3,000 queries at 200 bytes each need 0.57 MiB: over half of a 1 MiB budget, so two passes.
    frame = _frame(9000, 3)
    assert chunked.count_passes(frame.lazy(), "query", 1) == 2
    assert chunked.count_passes(frame.lazy(), "query", 512) == 1
    one = chunked.query_ranges(frame.lazy(), "query", 500, 1)
    for passes in (2, 5):
        assert chunked.query_ranges(frame.lazy(), "query", 500, passes).equals(one)
    metrics = ["ndcg@10", "map", "recall@5"]
    assert prm.evaluate_chunked(frame.lazy(), metrics, memory_mib=1).equals(prm.evaluate(frame, metrics))


def test_a_null_query_is_refused_whatever_the_passes() -> None:
    frame = pl.DataFrame(
        {"query": ["a", None, "b"], "item": ["x", "y", "z"], "score": [1.0, 2.0, 3.0], "relevance": [1, 0, 1]}
    )
    for passes in (1, 3):
        with pytest.raises(prm.InvalidDataError, match="'query' has null ids"):
            chunked.query_ranges(frame.lazy(), "query", 2, passes)
