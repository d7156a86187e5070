"""Unusual but legal inputs end in the library's own error, or work, on every path (issue 31, D1-D8).

Each case runs through the DataFrame, the LazyFrame (``prm.collect``, in-memory
and streaming) and ``evaluate_chunked`` where the input reaches them; the
expected values come from the same frame with an ordinary dtype.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import expr as rx
from polars_rankmetrics.exceptions import (
    ColumnTypeError,
    InvalidDataError,
    InvalidInputError,
    InvalidParameterError,
    RankMetricsError,
    TrecFormatError,
)

FRAME = pl.DataFrame(
    {
        "query": ["a", "a", "a", "b", "b"],
        "item": ["x", "y", "w", "z", "v"],
        "score": [3.0, 2.0, 1.0, 2.0, 1.0],
        "relevance": [1, 0, 2, 0, 1],
    }
)
METRICS = ["ndcg@10", "map", "P@2"]

_PATHS: dict[str, Callable[..., pl.DataFrame]] = {
    "dataframe": prm.evaluate,
    "per_query": lambda df, m, **kw: prm.evaluate(df, m, per_query=True, **kw).drop("query"),
    "lazy": lambda df, m, **kw: prm.collect(prm.evaluate(df.lazy(), m, **kw)),
    "streaming": lambda df, m, **kw: prm.collect(prm.evaluate(df.lazy(), m, **kw), engine="streaming"),
    "chunked": lambda df, m, **kw: prm.evaluate_chunked(df.lazy(), m, rows_per_chunk=2, **kw),
}


@pytest.mark.parametrize("path", list(_PATHS))
def test_d1_a_decimal_relevance_evaluates_as_its_numbers(path: str) -> None:
    decimal = FRAME.with_columns(pl.col("relevance").cast(pl.Decimal(10, 2)))
    expected = _PATHS[path](FRAME.with_columns(pl.col("relevance").cast(pl.Float64)), METRICS)
    assert _PATHS[path](decimal, METRICS).equals(expected)


@pytest.mark.parametrize("path", list(_PATHS))
@pytest.mark.parametrize(
    ("dtype", "ranks"),
    [
        (pl.UInt64, [1, 2**63, 2**64 - 1, 2**63 + 7, 5]),
        (pl.Int128, [1, 2**100, 3, 2**120, 5]),
        (pl.UInt128, [2**127 + 1, 2**128 - 1, 3, 9, 2**127]),
    ],
    ids=["uint64", "int128", "uint128"],
)
def test_d2_ranks_past_int64_order_as_integers(path: str, dtype: pl.DataType, ranks: list[int]) -> None:
    wide = FRAME.drop("score").with_columns(rank=pl.Series(ranks, dtype=dtype))
    # The same order with small ranks: their positions among the query's ranks.
    small = wide.with_columns(pl.col("rank").rank("ordinal").over("query").cast(pl.Int64))
    assert _PATHS[path](wide, METRICS).equals(_PATHS[path](small, METRICS))


@pytest.mark.parametrize("reader", ["read", "scan"])
def test_d3_a_qrels_grade_past_int64_names_the_file_and_line(tmp_path: Path, reader: str) -> None:
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 d1 1\n1 0 d2 99999999999999999999\n")
    read = prm.read_trec_qrels if reader == "read" else lambda p: prm.collect(prm.scan_trec_qrels(p))
    with pytest.raises(TrecFormatError, match=rf"{qrels}: line 2: .*outside the 64-bit integer range"):
        read(qrels)


@pytest.mark.parametrize(
    "call",
    [
        lambda: prm.precision(10**5000),
        lambda: prm.parse("P@" + "9" * 5000),
        lambda: prm.parse("P_" + "9" * 5000),
    ],
    ids=["constructor", "name", "trec_name"],
)
def test_d4_a_cutoff_of_thousands_of_digits_is_a_parameter_error(call: Callable[[], object]) -> None:
    with pytest.raises(
        InvalidParameterError,
        match=r"`k`.* below 2\*\*127 .*got (an integer of 16,610 bits|a number of 5,000 digits)",
    ):
        call()


@pytest.mark.parametrize("k", [2**127, 2**127 + 1])
def test_d4_a_cutoff_past_polars_integers_is_a_parameter_error(k: int) -> None:
    with pytest.raises(InvalidParameterError, match=r"below 2\*\*127 .*got an integer of 128 bits"):
        prm.precision(k)
    with pytest.raises(InvalidParameterError, match=r"below 2\*\*127"):
        prm.evaluate(FRAME, [f"P@{k}"])


def test_d4_the_largest_accepted_cutoff_evaluates() -> None:
    k = 2**127 - 1
    got = prm.evaluate(FRAME, [prm.precision(k), f"P@{k}", prm.recall(k)], per_query=True)
    a, b = float(Fraction(2, k)), float(Fraction(1, k))  # hits / k: 1.2e-38 and 5.9e-39
    assert got.rows() == [("a", a, a, 1.0), ("b", b, b, 1.0)]


@pytest.mark.parametrize("path", list(_PATHS))
@pytest.mark.parametrize(
    ("frame", "kwargs", "match"),
    [
        (FRAME.with_columns(run=pl.lit("r")), {"by": ["run", "run"]}, r"`by` must name each column once"),
        (FRAME.with_columns(__prm_rank=pl.lit(1)), {"by": "__prm_rank"}, r"'__prm_rank'.* reserved"),
    ],
    ids=["repeated_by", "reserved_by"],
)
def test_d5_repeated_or_reserved_by_columns(path: str, frame: pl.DataFrame, kwargs: dict, match: str) -> None:
    with pytest.raises(InvalidParameterError, match=match):
        _PATHS[path](frame, METRICS, **kwargs)


def test_d5_one_column_for_two_roles_or_a_reserved_name() -> None:
    with pytest.raises(InvalidParameterError, match=r"the query and item columns are both 'y'"):
        prm.Columns(query="y", item="y")
    with pytest.raises(InvalidParameterError, match=r"relevance column '__prm_grade'.* reserved"):
        prm.Columns(relevance="__prm_grade")


def _parquet_sources(tmp: Path) -> dict[str, list[Path]]:
    first = tmp / "a.parquet"
    FRAME.write_parquet(first)
    other = FRAME.with_columns(pl.col("query") + "2")
    floats, renamed, categorical = tmp / "f.parquet", tmp / "r.parquet", tmp / "c.parquet"
    other.with_columns(pl.col("relevance").cast(pl.Float32)).write_parquet(floats)
    other.rename({"relevance": "rel"}).write_parquet(renamed)
    other.with_columns(pl.col("query").cast(pl.Categorical)).write_parquet(categorical)
    (tmp / "text.parquet").write_text("not parquet")
    (tmp / "cut.parquet").write_bytes(first.read_bytes()[:60])
    return {
        "missing": [tmp / "nope.parquet"],
        "not_parquet": [tmp / "text.parquet"],
        "truncated": [tmp / "cut.parquet"],
        "int_vs_float": [first, floats],
        "renamed": [first, renamed],
        "string_vs_categorical": [first, categorical],
    }


_SCANNED: dict[str, Callable[[pl.LazyFrame], object]] = {
    "collect": lambda lf: prm.collect(prm.evaluate(lf, METRICS)),
    "streaming": lambda lf: prm.collect(prm.evaluate(lf, METRICS), engine="streaming"),
    "chunked": lambda lf: prm.evaluate_chunked(lf, METRICS, rows_per_chunk=2),
    "validate": prm.validate,
}


@pytest.mark.parametrize("how", list(_SCANNED))
@pytest.mark.parametrize(
    "source", ["missing", "not_parquet", "truncated", "int_vs_float", "renamed", "string_vs_categorical"]
)
def test_d6_a_bad_scan_source_is_a_data_error(tmp_path: Path, how: str, source: str) -> None:
    files = _parquet_sources(tmp_path)[source]
    if how == "validate" and source == "int_vs_float":  # validate reads no integer grade: nothing to refuse
        assert prm.validate(pl.scan_parquet(files)) is None
        return
    with pytest.raises(InvalidDataError, match=r"cannot read the frame's input") as info:
        _SCANNED[how](pl.scan_parquet(files))
    assert info.value.__cause__ is None
    assert len(str(info.value)) < 600


@pytest.mark.parametrize("reader", [prm.scan_trec_run, prm.scan_trec_qrels, prm.read_trec_run])
def test_d6_a_missing_trec_file_is_a_format_error_at_once(tmp_path: Path, reader: Callable) -> None:
    with pytest.raises(TrecFormatError, match=r"missing: not a readable file"):
        reader(tmp_path / "missing")


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: prm.evaluate(FRAME, None), "metrics"),
        (lambda: prm.evaluate(FRAME, 5), "metrics"),
        (lambda: prm.evaluate(FRAME, METRICS, by=5), "by"),
        (lambda: prm.evaluate(FRAME, METRICS, by=["query", 3]), "by"),
        (lambda: prm.evaluate_chunked(FRAME.lazy(), METRICS, by=5), "by"),
        (lambda: prm.read_trec_run(None), "path"),
        (lambda: prm.read_trec_run(3), "path"),
        (lambda: prm.scan_trec_qrels(None), "path"),
        (lambda: prm.Columns(query=3), r"Columns\(query=...\)"),
    ],
)
def test_d7_arguments_of_the_wrong_type(call: Callable[[], object], name: str) -> None:
    with pytest.raises(InvalidInputError, match=rf"`{name}` must be"):
        call()
    with pytest.raises(TypeError):  # still a TypeError for code that catches one
        call()


@pytest.mark.parametrize("role", ["score", "relevance"])
def test_d8_builders_read_a_decimal_score_or_grade_as_evaluate_does(role: str) -> None:
    decimal = FRAME.with_columns(pl.col(role).cast(pl.Decimal(10, 2)))
    built = [rx.ndcg(10), rx.average_precision(), rx.precision(2)]
    got = decimal.group_by("query").agg(built).sort("query").drop("query")
    expected = prm.evaluate(FRAME, METRICS, per_query=True).drop("query")
    assert got.rows() == expected.rows()


@pytest.mark.parametrize(
    "item",
    [pl.Series([[1], [2], [3], [4], [5]]), pl.Series([object()] * 5, dtype=pl.Object)],
    ids=["list", "object"],
)
def test_d8_builders_refuse_a_nested_item_column_naming_it(item: pl.Series) -> None:
    lf = FRAME.with_columns(item.alias("item")).lazy().group_by("query").agg(rx.ndcg(10))
    with pytest.raises(
        ColumnTypeError, match=r"expr\.ndcg: the item column 'item' must be of a scalar dtype"
    ):
        prm.collect(lf)
    with pytest.raises(pl.exceptions.PolarsError, match=r"the item column 'item' must be of a scalar dtype"):
        lf.collect()  # Polars' own collect: its error, carrying the message


_LONG = "q" * 100_000


@pytest.mark.parametrize(
    "call",
    [
        lambda: prm.evaluate(FRAME.with_columns(query=pl.lit(_LONG), item=pl.lit("x")), METRICS),
        lambda: prm.collect(
            prm.evaluate(FRAME.with_columns(query=pl.lit(_LONG), item=pl.lit("x")).lazy(), METRICS)
        ),
        lambda: prm.validate(FRAME.with_columns(query=pl.lit(_LONG), item=pl.lit("x"))),
        lambda: prm.evaluate(FRAME, [_LONG]),
        lambda: prm.evaluate(FRAME, METRICS, by=_LONG),
        lambda: prm.evaluate(FRAME, METRICS, columns=prm.Columns(query=_LONG)),
        lambda: prm.evaluate(FRAME, METRICS, gain=_LONG),
        lambda: prm.join_run_qrels(
            FRAME.drop("relevance"), pl.concat([FRAME, FRAME]).with_columns(item=pl.lit(_LONG))
        ),
    ],
    ids=[
        "duplicate_ids",
        "in_plan",
        "validate",
        "metric_name",
        "by",
        "columns",
        "gain",
        "duplicate_judgments",
    ],
)
def test_long_values_are_cut_in_messages(call: Callable[[], object]) -> None:
    with pytest.raises(RankMetricsError) as info:
        call()
    message = str(info.value)
    assert "q" * 98 in message
    assert "q" * 101 not in message
    assert "... (100002 characters)" in message or "... (100000 characters)" in message
    assert len(message) < 5_000  # an unknown name's message lists the valid names


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"conventions": {"gain": "linear"}}, "conventions"),
        ({"conventions": ["trec_eval"]}, "conventions"),
        ({"ties": ["text"]}, "ties"),
        ({"missing": {"zero": 1}}, "missing"),
    ],
)
def test_d7_an_unhashable_choice_is_a_parameter_error(kwargs: dict, name: str) -> None:
    """A dict or a list where a name is chosen: the library's error naming the parameter, not a TypeError."""
    with pytest.raises(InvalidParameterError, match=rf"`{name}` must be one of"):
        prm.evaluate(FRAME, METRICS, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"per_query": "yes"}, "per_query"), ({"check": "no"}, "check"), ({"columns": "query"}, "columns")],
)
def test_d7_a_flag_or_columns_of_the_wrong_type(kwargs: dict, name: str) -> None:
    """check='no' would read as True: refused, naming it; columns is a prm.Columns or a mapping."""
    with pytest.raises(InvalidInputError, match=rf"`{name}` must be"):
        prm.evaluate(FRAME, METRICS, **kwargs)


def test_columns_as_a_mapping_of_roles() -> None:
    """A {role: column} mapping reads as prm.Columns(**mapping); an unknown role is named."""
    renamed = FRAME.rename({"query": "user"})
    mapped = prm.evaluate(renamed, METRICS, columns={"query": "user"})
    assert mapped.equals(prm.evaluate(renamed, METRICS, columns=prm.Columns(query="user")))
    with pytest.raises(InvalidParameterError, match=r"prm\.Columns has no parameter 'users'"):
        prm.evaluate(renamed, METRICS, columns={"users": "user"})


def test_collect_takes_a_lazyframe_or_a_collected_frame() -> None:
    """prm.collect(DataFrame) returns it (evaluate's eager result); anything else is named."""
    done = prm.evaluate(FRAME, METRICS)
    assert prm.collect(done) is done
    with pytest.raises(InvalidInputError, match="`lf` must be a Polars LazyFrame"):
        prm.collect(None)  # type: ignore[arg-type]
