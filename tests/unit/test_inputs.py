"""Frames users have: pandas, pyarrow and Arrow-stream objects, converted once to Polars."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics.exceptions import InvalidInputError

RUN = {"query": ["q1", "q1", "q2"], "item": ["a", "b", "a"], "score": [0.5, 0.2, 0.9]}
QRELS = {"query": ["q1", "q2"], "item": ["b", "c"], "relevance": [1, 2]}


class _ArrowStream:
    """An object that only exports an Arrow stream (PyCapsule interface), as DuckDB or Ibis results do."""

    def __init__(self, table: pa.Table) -> None:
        self._table = table

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        return self._table.__arrow_c_stream__(requested_schema)


def _inputs(data: dict[str, list[Any]] = RUN) -> dict[str, Any]:
    table = pa.table(data)
    return {
        "pandas": pd.DataFrame(data),
        "pyarrow table": table,
        "pyarrow record batch": table.to_batches()[0],
        "arrow stream": _ArrowStream(table),
    }


def test_polars_frames_pass_through_unchanged() -> None:
    """The very object comes back: no copy, a LazyFrame is not collected."""
    df, lf = pl.DataFrame(RUN), pl.LazyFrame(RUN)
    assert as_polars(df) is df
    assert as_polars(lf) is lf


@pytest.mark.parametrize("kind", list(_inputs()))
def test_other_frames_are_converted_to_a_polars_dataframe(kind: str) -> None:
    """pandas, pyarrow and Arrow-stream objects become the same Polars DataFrame."""
    out = as_polars(_inputs()[kind])
    assert isinstance(out, pl.DataFrame)
    assert out.equals(pl.DataFrame(RUN))


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ([("q1", "a", 0.5)], "got list"),
        (RUN, "got dict"),
        (pl.Series([1.0]), r"got polars\.series\.series\.Series \(that is one column"),
        (pd.Series([1.0]), r"got pandas\..*Series \(that is one column"),
        (pa.chunked_array([[1.0]]), r"got pyarrow\.lib\.ChunkedArray \(that is one column"),
    ],
)
def test_anything_else_is_an_invalid_input_naming_type_and_what_is_accepted(value: object, name: str) -> None:
    """The message names the parameter, what is accepted and the type received."""
    accepted = (
        r"`run` must be a Polars DataFrame or LazyFrame, a pandas DataFrame, a pyarrow Table or "
        r"RecordBatch, or an object that exports an Arrow stream \(__arrow_c_stream__\); "
    )
    with pytest.raises(InvalidInputError, match=accepted + name):
        as_polars(value, what="run")


def test_invalid_input_is_a_rank_metrics_error_and_a_type_error() -> None:
    """``except prm.RankMetricsError``, ``except ValueError`` and ``except TypeError`` all catch it."""
    assert issubclass(prm.InvalidInputError, prm.RankMetricsError)
    assert issubclass(prm.InvalidInputError, ValueError)
    assert issubclass(prm.InvalidInputError, TypeError)


def test_a_failed_conversion_is_an_invalid_input_saying_why() -> None:
    """A pandas column of Python objects cannot become Arrow: the error says so, as ours."""
    frame = pd.DataFrame({"query": [object()], "item": ["a"], "score": [1.0]})
    with pytest.raises(InvalidInputError, match="`qrels`: the pandas DataFrame could not be converted"):
        as_polars(frame, what="qrels")


def test_pandas_is_not_imported_by_the_library() -> None:
    """Importing polars_rankmetrics (and checking a Polars frame) leaves pandas unimported."""
    code = (
        "import sys, polars as pl, polars_rankmetrics as prm\n"
        "from polars_rankmetrics._inputs import as_polars\n"
        "as_polars(pl.DataFrame({'a': [1]}))\n"
        "assert 'pandas' not in sys.modules, 'pandas was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)  # noqa: S603 (our own interpreter and code)


@pytest.mark.parametrize("kind", list(_inputs()))
def test_join_run_qrels_accepts_every_input(kind: str) -> None:
    """A pandas or Arrow run and qrels give the same Polars frame as Polars inputs do."""
    expected = prm.join_run_qrels(pl.DataFrame(RUN), pl.DataFrame(QRELS)).sort("query", "item")
    run = _inputs()[kind]
    qrels = pd.DataFrame(QRELS) if kind == "pandas" else pa.table(QRELS)
    out = prm.join_run_qrels(run, qrels)
    assert isinstance(out, pl.DataFrame)
    assert out.sort("query", "item").equals(expected)


def test_join_run_qrels_keeps_a_lazy_run_lazy_with_a_pandas_qrels() -> None:
    """A LazyFrame run still gives a LazyFrame; the pandas qrels is converted once."""
    out = prm.join_run_qrels(pl.LazyFrame(RUN), pd.DataFrame(QRELS))
    assert isinstance(out, pl.LazyFrame)
    assert out.collect().height == 4


def test_join_run_qrels_names_the_bad_argument() -> None:
    """A wrong type names `run` or `qrels`."""
    with pytest.raises(InvalidInputError, match=r"`qrels` must be .*; got list"):
        prm.join_run_qrels(pl.DataFrame(RUN), [1, 2])
    with pytest.raises(InvalidInputError, match=r"`run` must be .*; got str"):
        prm.join_run_qrels("run.txt", pl.DataFrame(QRELS))  # type: ignore[call-overload]


@pytest.mark.parametrize("kind", list(_inputs()))
def test_validate_accepts_every_input(kind: str) -> None:
    """Pandas and Arrow frames are validated too, with the same findings."""
    frame = {**RUN, "relevance": [1, 0, None]}
    prm.validate(_inputs(frame)[kind])
    twice = {name: [*values, values[0]] for name, values in frame.items()}
    with pytest.raises(
        prm.InvalidDataError, match=r"1 duplicate \(query, item\) row\(s\): query='q1', item='a'"
    ):
        prm.validate(_inputs(twice)[kind])


def test_validate_names_a_wrong_type() -> None:
    """A wrong type names what is accepted."""
    with pytest.raises(InvalidInputError, match=r"`frame` must be .*; got list"):
        prm.validate([1, 2])  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", list(_inputs()))
def test_evaluate_population_and_chunked_accept_every_input(kind: str) -> None:
    """Every entry point that takes a frame takes pandas and Arrow frames, returning Polars DataFrames."""
    frame = {**RUN, "relevance": [1, 0, None]}
    polars_frame = pl.DataFrame(frame)
    for entry in (
        lambda f: prm.evaluate(f, ["map", "ndcg@10"]),
        lambda f: prm.evaluate(f, ["map"], per_query=True),
        prm.population,
        lambda f: prm.evaluate_chunked(f, ["map", "ndcg@10"], rows_per_chunk=2),
    ):
        out = entry(_inputs(frame)[kind])
        assert isinstance(out, pl.DataFrame)
        assert out.equals(entry(polars_frame))


def test_evaluate_names_a_wrong_type() -> None:
    """A list of tuples is not a frame: the error names the parameter and what is accepted."""
    with pytest.raises(InvalidInputError, match=r"`frame` must be a Polars DataFrame or LazyFrame, a pandas"):
        prm.evaluate([("q1", "a", 1.0, 1)], ["map"])  # type: ignore[type-var]
    with pytest.raises(InvalidInputError, match=r"`frame` must be .*; got dict"):
        prm.evaluate_chunked(RUN, ["map"])  # type: ignore[arg-type]
