"""TREC run and qrels files, and the join of a run with its judgments."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar, overload

import polars as pl

from polars_rankmetrics import _errors, _trec_files
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns, normalise_by
from polars_rankmetrics.exceptions import ColumnTypeError, InvalidDataError

__all__ = ["join_run_qrels", "read_trec_qrels", "read_trec_run", "scan_trec_qrels", "scan_trec_run"]

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)


def scan_trec_run(path: str | Path, *, columns: Columns | None = None) -> pl.LazyFrame:
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
    cols = columns or Columns()
    return _trec_files.scan(path, "run").select(
        pl.col("query").alias(cols.query),
        pl.col("item").alias(cols.item),
        pl.col("score").cast(pl.Float64).alias(cols.score),
        pl.col("run"),
    )


def scan_trec_qrels(
    path: str | Path, *, columns: Columns | None = None, intents: bool = False
) -> pl.LazyFrame:
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
    cols = columns or Columns()
    intent = [pl.col("iteration").alias(cols.intent)] if intents else []
    return _trec_files.scan(path, "qrels").select(
        pl.col("query").alias(cols.query),
        *intent,
        pl.col("item").alias(cols.item),
        pl.col("relevance").cast(pl.Int64).alias(cols.relevance),
    )


def read_trec_run(path: str | Path, *, columns: Columns | None = None) -> pl.DataFrame:
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
    return _trec_files.read(scan_trec_run(path, columns=columns), path, "run")


def read_trec_qrels(
    path: str | Path, *, columns: Columns | None = None, intents: bool = False
) -> pl.DataFrame:
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
    return _trec_files.read(scan_trec_qrels(path, columns=columns, intents=intents), path, "qrels")


_LISTED = 3  # duplicate judgments named in a message


def _shown(name: str, dtype: pl.DataType) -> pl.Expr:
    """The column's values as they read in a message: text quoted, null as None."""
    value = _errors.shown_expr(pl.col(name).cast(pl.String))  # long ids cut
    text = pl.format("'{}'", value) if dtype in (pl.String, pl.Categorical, pl.Enum) else value
    return text.fill_null("None")


def _duplicate_judgments(ids: list[str], schema: pl.Schema, note: str) -> pl.Expr:
    """The error message for (query, item) pairs judged on several rows, or null: one value per frame."""
    repeated = pl.len().over(ids) > 1
    pairs = pl.format(
        ", ".join(f"{k}={{}}" for k in ids), *(_shown(k, schema[k]).filter(repeated) for k in ids)
    )
    pairs = pairs.unique().sort()
    more = pl.when(pairs.len() > _LISTED).then(pl.lit("; ...")).otherwise(pl.lit(""))
    message = pl.format(
        f"the qrels judge {{}} ({', '.join(ids)}) pair(s) more than once, on {{}} rows: {{}}{{}}{note}; "
        "keep one judgment per pair",
        pairs.len(),
        repeated.sum(),
        pairs.head(_LISTED).str.join("; "),
        more,
    )
    return pl.when(repeated.any()).then(message)


def _unique_judgments(
    qrels: pl.DataFrame | pl.LazyFrame, ids: list[str], relevance: str, note: str
) -> pl.LazyFrame:
    """The judgments (ids, relevance), failing if a pair is judged twice.

    A DataFrame is checked now; a LazyFrame in the plan, so its failure
    surfaces when the result is collected (:func:`polars_rankmetrics.collect`
    raises it as :class:`InvalidDataError`).
    """
    judged = qrels.lazy().select(*ids, relevance)
    message = _duplicate_judgments(ids, judged.collect_schema(), note)
    if isinstance(qrels, pl.DataFrame):
        found = judged.select(message).collect().item()
        if found is not None:
            raise InvalidDataError(found)
        return judged
    # The message on one row only (the first repeated pair), so the error quotes it once.
    first = pl.int_range(pl.len()) == (pl.len().over(ids) > 1).arg_max()
    failed = _errors.in_plan(pl.when(first & (pl.len().over(ids) > 1).any()).then(message))
    return judged.with_columns(pl.when(failed.is_null()).then(pl.col(relevance)).alias(relevance))


@overload
def join_run_qrels(
    run: pl.DataFrame,
    qrels: pl.DataFrame,
    *,
    by: str | Sequence[str] | None = ...,
    columns: Columns | None = ...,
) -> pl.DataFrame: ...
@overload
def join_run_qrels(
    run: object,
    qrels: object,
    *,
    by: str | Sequence[str] | None = ...,
    columns: Columns | None = ...,
) -> pl.LazyFrame | pl.DataFrame: ...


def join_run_qrels(
    run: object,
    qrels: object,
    *,
    by: str | Sequence[str] | None = None,
    columns: Columns | None = None,
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
    cols = columns or Columns()
    keys_by = normalise_by(by)
    run, qrels = as_polars(run, "run"), as_polars(qrels, "qrels")
    run_lf, qrels_lf = run.lazy(), qrels.lazy()
    run_schema, qrels_schema = run_lf.collect_schema(), qrels_lf.collect_schema()
    ids = [cols.query, cols.item]
    for name, role in [*((k, "by") for k in keys_by), (cols.query, "query"), (cols.item, "item")]:
        if name not in run_schema:
            raise _errors.column_not_found(name, role, run_schema.names(), where="the run")
    for name in [*ids, cols.relevance]:
        if name not in qrels_schema:
            raise _errors.column_not_found(name, "qrels", qrels_schema.names(), where="the qrels")
    for name in ids:
        if run_schema[name] != qrels_schema[name]:
            msg = (
                f"column {name!r} is {run_schema[name]} in the run but {qrels_schema[name]} in the "
                "qrels; cast one so they match"
            )
            raise ColumnTypeError(msg)
    if cols.relevance in run_schema:
        msg = f"the run already has a relevance column {cols.relevance!r}; drop or rename it"
        raise ColumnTypeError(msg)
    ignored = [k for k in keys_by if k in qrels_schema]
    note = (
        f" (the qrels' {', '.join(map(repr, ignored))} is ignored: every run is judged against all the qrels)"
    )
    judged_ids = [*ids, cols.intent] if cols.intent in qrels_schema else ids  # intent qrels: one per intent
    judged = _unique_judgments(qrels, judged_ids, cols.relevance, note if ignored else "")
    if keys_by:
        judged = run_lf.select(keys_by).unique().join(judged, how="cross")
    out = run_lf.join(judged, on=[*keys_by, *ids], how="full", coalesce=True)
    if isinstance(run, pl.DataFrame) and isinstance(qrels, pl.DataFrame):
        return out.collect()
    return out
