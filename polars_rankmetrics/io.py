"""TREC run and qrels files, and the join of a run with its judgments."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar, overload

import polars as pl

from polars_rankmetrics import _join, _trec_fast, _trec_files
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._plans import as_plan
from polars_rankmetrics._schema import Columns, ColumnsLike, normalise_by

__all__ = ["join_run_qrels", "read_trec_qrels", "read_trec_run", "scan_trec_qrels", "scan_trec_run"]

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)


def _run_columns(columns: ColumnsLike) -> list[pl.Expr]:
    """A run's output columns from its fields, named by `columns`."""
    cols = Columns.of(columns)
    return [
        pl.col("query").alias(cols.query),
        pl.col("item").alias(cols.item),
        pl.col("score").cast(pl.Float64).alias(cols.score),
        pl.col("run"),
    ]


def _qrels_columns(columns: ColumnsLike, *, intents: bool = False) -> list[pl.Expr]:
    """The judgments' output columns from their fields, named by `columns` (`intents`: the 2nd field too)."""
    cols = Columns.of(columns)
    intent = [pl.col("iteration").alias(cols.intent)] if intents else []
    return [
        pl.col("query").alias(cols.query),
        *intent,
        pl.col("item").alias(cols.item),
        pl.col("relevance").cast(pl.Int64).alias(cols.relevance),
    ]


def scan_trec_run(path: str | Path, *, columns: ColumnsLike = None) -> pl.LazyFrame:
    """Lazily read a TREC run: ``query Q0 docno rank score runid`` per line.

    Whitespace-separated, as trec_eval reads it; fields after the sixth and
    lines starting with ``#`` are ignored, and so is the rank field (trec_eval
    orders by score). Lines are not checked until the frame is collected; use
    :func:`read_trec_run` for a checked read that names a malformed line.

    Parameters
    ----------
    path
        The run file.
    columns
        Names for the query, item and score columns; defaults to ``Columns()``.

    Returns
    -------
    pl.LazyFrame
        query (String), item (String), score (Float64), run (String).

    Examples
    --------
    >>> run = prm.scan_trec_run(prm.demo_path("results.test"))
    >>> run.head(2).collect()
    shape: (2, 4)
    ┌───────┬──────────────────┬──────────┬──────────┐
    │ query ┆ item             ┆ score    ┆ run      │
    │ ---   ┆ ---              ┆ ---      ┆ ---      │
    │ str   ┆ str              ┆ f64      ┆ str      │
    ╞═══════╪══════════════════╪══════════╪══════════╡
    │ 301   ┆ FR940202-2-00150 ┆ 2.129133 ┆ STANDARD │
    │ 301   ┆ FR940202-2-00151 ┆ 1.72476  ┆ STANDARD │
    └───────┴──────────────────┴──────────┴──────────┘
    """
    return as_plan(_trec_files.scan(path, "run").select(_run_columns(columns)))


def scan_trec_qrels(path: str | Path, *, columns: ColumnsLike = None, intents: bool = False) -> pl.LazyFrame:
    """Lazily read TREC judgments: ``query iteration docno relevance`` per line.

    Parameters
    ----------
    path
        The qrels file.
    columns
        Names for the query, item, relevance (and intent) columns.
    intents
        Keep the second field as the intent (subtopic) of each judgment:
        ndeval's qrels, ``query intent docno relevance``, for the
        intent-aware metrics (``alpha_ndcg@20``...).

    Returns
    -------
    pl.LazyFrame
        query (String), item (String), relevance (Int64); with `intents`,
        query, intent (String), item, relevance.

    Examples
    --------
    >>> prm.scan_trec_qrels(prm.demo_path("qrels.test")).head(2).collect()
    shape: (2, 3)
    ┌───────┬─────────────┬───────────┐
    │ query ┆ item        ┆ relevance │
    │ ---   ┆ ---         ┆ ---       │
    │ str   ┆ str         ┆ i64       │
    ╞═══════╪═════════════╪═══════════╡
    │ 301   ┆ CR93E-10279 ┆ 0         │
    │ 301   ┆ CR93E-10505 ┆ 0         │
    └───────┴─────────────┴───────────┘
    """
    return as_plan(_trec_files.scan(path, "qrels").select(_qrels_columns(columns, intents=intents)))


def read_trec_run(path: str | Path, *, columns: ColumnsLike = None) -> pl.DataFrame:
    """Read and check a TREC run; see :func:`scan_trec_run`.

    Raises
    ------
    TrecFormatError
        A line has fewer than six fields or a non-numeric score; the message
        names the file and the line number.

    Examples
    --------
    >>> run = prm.read_trec_run(prm.demo_path("results.test"))
    >>> run.group_by("query").len().sort("query")
    shape: (3, 2)
    ┌───────┬─────┐
    │ query ┆ len │
    │ ---   ┆ --- │
    │ str   ┆ u32 │
    ╞═══════╪═════╡
    │ 301   ┆ 500 │
    │ 302   ┆ 500 │
    │ 303   ┆ 500 │
    └───────┴─────┘
    """
    fields = _trec_fast.read(path, "run")  # refuses a FIFO or NUL bytes, warns of CR-only line ends
    if fields is None:
        fields = _trec_files.read(_trec_files.scan(path, "run", checked=True), path, "run")
    return fields.select(_run_columns(columns))


def read_trec_qrels(path: str | Path, *, columns: ColumnsLike = None, intents: bool = False) -> pl.DataFrame:
    """Read and check TREC judgments; see :func:`scan_trec_qrels` (`intents`: ndeval's qrels).

    Raises
    ------
    TrecFormatError
        A line has fewer than four fields or a non-integer relevance; the
        message names the file and the line number.

    Examples
    --------
    >>> qrels = prm.read_trec_qrels(prm.demo_path("qrels.test"))
    >>> qrels.group_by("relevance").len().sort("relevance")
    shape: (2, 2)
    ┌───────────┬──────┐
    │ relevance ┆ len  │
    │ ---       ┆ ---  │
    │ i64       ┆ u32  │
    ╞═══════════╪══════╡
    │ 0         ┆ 3120 │
    │ 1         ┆ 561  │
    └───────────┴──────┘
    """
    fields = _trec_fast.read(path, "qrels")  # refuses a FIFO or NUL bytes, warns of CR-only line ends
    if fields is None:
        fields = _trec_files.read(_trec_files.scan(path, "qrels", checked=True), path, "qrels")
    return fields.select(_qrels_columns(columns, intents=intents))


@overload
def join_run_qrels(
    run: pl.DataFrame,
    qrels: pl.DataFrame,
    *,
    by: str | Sequence[str] | None = ...,
    columns: ColumnsLike = ...,
) -> pl.DataFrame: ...
@overload
def join_run_qrels(
    run: object,
    qrels: object,
    *,
    by: str | Sequence[str] | None = ...,
    columns: ColumnsLike = ...,
) -> pl.LazyFrame | pl.DataFrame: ...


def join_run_qrels(
    run: object,
    qrels: object,
    *,
    by: str | Sequence[str] | None = None,
    columns: ColumnsLike = None,
) -> pl.DataFrame | pl.LazyFrame:
    """Build the evaluation frame: every retrieved item, plus the judged ones not retrieved.

    Recall, average precision and the ideal DCG need the relevant items a
    run missed; they arrive as rows with a null score. With `by`, the run
    frame holds several runs and every run gets its own copy of the
    judgments, so each is evaluated against all of them.

    Parameters
    ----------
    run
        query, item, score or rank, the `by` keys and any extra columns.
    qrels
        query, item, relevance (other columns are ignored). Intent qrels
        (with the ``intent`` column: ``read_trec_qrels(path, intents=True)``)
        give one row per (query, item, intent) for the judged items and one
        row with a null intent for the unjudged retrieved ones: the frame of
        the intent-aware metrics (``alpha_ndcg@20``...).
    by
        Columns of `run` that name a run (model, system, segment).
    columns
        Column names; defaults to ``Columns()``.

    Returns
    -------
    pl.DataFrame or pl.LazyFrame
        A DataFrame when both inputs are DataFrames, else a LazyFrame.
        Row order is unspecified.

    Raises
    ------
    ColumnNotFoundError, ColumnTypeError
        A key column is missing, or the run and qrels disagree on its dtype.
    InvalidDataError
        The qrels judge a (query, item) pair on several rows; the message
        names the pairs. For a LazyFrame the check is in the plan: it fails
        when the result is collected.
    InvalidInputError
        `run` or `qrels` is not a frame (pandas and pyarrow frames are
        converted once).

    Examples
    --------
    >>> run = pl.DataFrame({"query": ["q1", "q1"], "item": ["a", "b"], "score": [2.0, 1.0]})
    >>> qrels = pl.DataFrame({"query": ["q1", "q1"], "item": ["b", "c"], "relevance": [1, 2]})
    >>> prm.join_run_qrels(run, qrels).sort("item")
    shape: (3, 4)
    ┌───────┬──────┬───────┬───────────┐
    │ query ┆ item ┆ score ┆ relevance │
    │ ---   ┆ ---  ┆ ---   ┆ ---       │
    │ str   ┆ str  ┆ f64   ┆ i64       │
    ╞═══════╪══════╪═══════╪═══════════╡
    │ q1    ┆ a    ┆ 2.0   ┆ null      │
    │ q1    ┆ b    ┆ 1.0   ┆ 1         │
    │ q1    ┆ c    ┆ null  ┆ 2         │
    └───────┴──────┴───────┴───────────┘
    """
    return _join.join_frames(
        as_polars(run, "run"), as_polars(qrels, "qrels"), Columns.of(columns), normalise_by(by)
    )
