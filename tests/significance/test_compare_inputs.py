"""prm.compare's inputs: missing-query policies, other frame types, errors that name the culprit."""

from __future__ import annotations

import math

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import polars_rankmetrics as prm
from significance.compare_data import frame

# System "b" has no row for q2 and q4; "c" none for q4.
VALUES = {
    "a": [0.5, 0.25, 0.75, 0.5, 1.0],
    "b": [0.75, 0.5, 1.0, 0.25, 0.5],
    "c": [0.25, 0.5, 0.5, 0.0, 0.75],
}
QUERIES = ["q1", "q2", "q3", "q4", "q5"]
ABSENT = {("b", "q2"), ("b", "q4"), ("c", "q4")}


def _with_gaps() -> pl.DataFrame:
    full = frame(VALUES, queries=QUERIES)
    keep = ~pl.struct("system", "query").is_in(
        pl.Series([{"system": s, "query": q} for s, q in sorted(ABSENT)]).implode()
    )
    return full.filter(keep)


def test_missing_error_names_the_systems_and_the_queries() -> None:
    """The default refuses, naming each system with its absent queries, and the two other policies."""
    with pytest.raises(prm.InvalidDataError) as info:
        prm.compare(_with_gaps(), by="system")
    message = str(info.value)
    assert "system 'b' has no row for 2 of the 5 queries: 'q2', 'q4'" in message
    assert "system 'c' has no row for 1 of the 5 queries: 'q4'" in message
    assert "missing='zero'" in message
    assert "missing='intersect'" in message
    assert "'a'" not in message.split(".", maxsplit=1)[0]  # system a has every query


@pytest.mark.parametrize("test", ["t", "wilcoxon", "randomization"])
def test_missing_zero_scores_absent_queries_zero(test: str) -> None:
    """missing='zero' gives what the frame with explicit zeros gives (trec_eval -c)."""
    zeros = frame(
        {
            s: [0.0 if (s, q) in ABSENT else v for q, v in zip(QUERIES, vs, strict=True)]
            for s, vs in VALUES.items()
        },
        queries=QUERIES,
    )
    got = prm.compare(_with_gaps(), by="system", test=test, missing="zero", seed=1)
    want = prm.compare(zeros, by="system", test=test, seed=1)
    assert_frame_equal(got.drop("missing"), want.drop("missing"), check_exact=True)
    assert got["missing"].unique().to_list() == ["zero"]  # the table's note reads it
    assert got["n"].unique().to_list() == [5]


@pytest.mark.parametrize("test", ["t", "bootstrap", "tukey"])
def test_missing_intersect_keeps_the_queries_every_system_has(test: str) -> None:
    """missing='intersect' gives what the frame restricted to q1, q3, q5 gives."""
    common = frame(VALUES, queries=QUERIES).filter(pl.col("query").is_in(["q1", "q3", "q5"]))
    got = prm.compare(_with_gaps(), by="system", test=test, missing="intersect", seed=1)
    want = prm.compare(common, by="system", test=test, seed=1)
    assert_frame_equal(got.drop("missing"), want.drop("missing"), check_exact=True)
    assert got["missing"].unique().to_list() == ["intersect"]
    assert got["n"].unique().to_list() == [3]


def test_intersect_down_to_one_query_is_an_error() -> None:
    """Fewer than 2 paired queries left: the error says how many, and which."""
    df = frame({"a": [0.5, 0.25], "b": [0.75, 0.5]}).filter(
        ~((pl.col("system") == "b") & (pl.col("query") == "q00"))
    )
    with pytest.raises(
        prm.InvalidDataError, match=r"1 paired query \('q01'\); a paired test needs at least 2"
    ):
        prm.compare(df, by="system", missing="intersect")


def test_one_query_is_an_error() -> None:
    """A single query cannot be tested."""
    with pytest.raises(prm.InvalidDataError, match="at least 2"):
        prm.compare(frame({"a": [0.5], "b": [0.75]}), by="system")


def test_one_system_is_an_error() -> None:
    """A single system: nothing to compare; the message names it."""
    with pytest.raises(prm.InvalidDataError, match=r"names 1 system\(s\) \('a'\); compare needs 2"):
        prm.compare(frame({"a": [0.5, 0.25]}), by="system")


@pytest.mark.parametrize("bad", [math.nan, math.inf, None])
def test_nan_infinite_or_null_values_are_named(bad: float | None) -> None:
    """The message names the metric, the system and the query of the bad value."""
    df = frame({"a": [0.5, 0.25, 0.75], "b": [0.75, 0.5, 1.0]}).with_columns(
        pl.when((pl.col("system") == "b") & (pl.col("query") == "q01"))
        .then(bad)
        .otherwise(pl.col("m"))
        .alias("m")
    )
    with pytest.raises(
        prm.InvalidDataError, match=r"metric 'm' has 1 NaN, infinite or null.*system 'b', query 'q01'"
    ):
        prm.compare(df, by="system")


def test_duplicate_system_query_rows_are_named() -> None:
    """Two rows for one (system, query) pair: the pair is named."""
    df = frame({"a": [0.5, 0.25], "b": [0.75, 0.5]})
    with pytest.raises(prm.InvalidDataError, match=r"\('b', 'q01'\)"):
        prm.compare(pl.concat([df, df.tail(1)]), by="system")


def test_null_system_is_an_error() -> None:
    """A row without a system cannot be paired."""
    df = frame({"a": [0.5, 0.25], "b": [0.75, 0.5]}).with_columns(
        pl.when(pl.col("m") == 0.5).then(None).otherwise(pl.col("system")).alias("system")
    )
    with pytest.raises(prm.InvalidDataError, match="column 'system' has 2 null value"):
        prm.compare(df, by="system")


def test_unknown_baseline_lists_the_systems() -> None:
    """A baseline that is not a system: the message lists the systems."""
    with pytest.raises(
        prm.InvalidParameterError, match=r"baseline 'bm25' is not in column 'system'.*'a', 'b'"
    ):
        prm.compare(frame({"a": [0.5, 0.25], "b": [0.75, 0.5]}), by="system", baseline="bm25")


@pytest.mark.parametrize(
    ("kwargs", "error", "pattern"),
    [
        ({"by": "run"}, prm.ColumnNotFoundError, r"`by` column 'run' not found.*'system', 'query', 'm'"),
        ({"query": "qid"}, prm.ColumnNotFoundError, r"`query` column 'qid' not found"),
        ({"metrics": "n"}, prm.ColumnNotFoundError, r"metric column 'n' not found"),
        ({"metrics": ["m", "m"]}, prm.InvalidParameterError, r"unique, got 'm' more than once"),
        ({"metrics": []}, prm.InvalidParameterError, r"`metrics` is empty"),
        ({"metrics": "query"}, prm.InvalidParameterError, r"metric 'query' is the query column"),
        ({"test": "anova"}, prm.InvalidParameterError, r"`test` must be one of 't', 'randomization'"),
        ({"correction": "sidak"}, prm.InvalidParameterError, r"`correction` must be one of"),
        ({"missing": "skip"}, prm.InvalidParameterError, r"`missing` must be one of"),
        ({"alpha": 1.0}, prm.InvalidParameterError, r"`alpha` must be in \(0, 1\), got 1.0"),
        ({"alpha": "0.05"}, prm.InvalidParameterError, r"`alpha` must be a real number"),
        ({"n_resamples": 0}, prm.InvalidParameterError, r"`n_resamples` must be a positive integer, got 0"),
        ({"seed": -1}, prm.InvalidParameterError, r"`seed` must be a non-negative integer or None, got -1"),
        ({"by": "delta"}, prm.InvalidParameterError, r"`by` must be a column name other than compare's"),
    ],
)
def test_bad_parameters_name_the_culprit(
    kwargs: dict[str, object], error: type[Exception], pattern: str
) -> None:
    """Each bad parameter raises the library's error, naming the parameter and the value."""
    df = frame({"a": [0.5, 0.25], "b": [0.75, 0.5]})
    arguments: dict[str, object] = {"by": "system", **kwargs}
    with pytest.raises(error, match=pattern):
        prm.compare(df, **arguments)  # type: ignore[arg-type]


def test_a_string_metric_column_is_a_type_error() -> None:
    """A metric column of strings: ColumnTypeError naming the column and its dtype."""
    df = frame({"a": [0.5, 0.25], "b": [0.75, 0.5]}).with_columns(pl.col("m").cast(pl.String))
    with pytest.raises(prm.ColumnTypeError, match=r"metric column 'm' must be numeric, got dtype String"):
        prm.compare(df, by="system", metrics="m")


def test_metrics_none_takes_every_numeric_column() -> None:
    """metrics=None compares each numeric column but the system and query; strings are left out."""
    df = frame({"a": [0.5, 0.25, 1.0], "b": [0.75, 0.5, 0.5]}).with_columns(
        (pl.col("m") * 2).alias("k"), pl.lit("x").alias("note")
    )
    assert prm.compare(df, by="system")["metric"].to_list() == ["m", "k"]


def test_pandas_pyarrow_and_lazy_inputs_give_the_same_frame() -> None:
    """A pandas DataFrame, a pyarrow Table and a LazyFrame are compared as the Polars DataFrame."""
    df = frame(VALUES, queries=QUERIES)
    expected = prm.compare(df, by="system", test="randomization", seed=5, n_resamples=500)
    for other in (df.to_pandas(), df.to_arrow(), df.lazy()):
        got = prm.compare(other, by="system", test="randomization", seed=5, n_resamples=500)  # type: ignore[arg-type]
        assert_frame_equal(got, expected, check_exact=True)


def test_a_list_is_not_a_frame() -> None:
    """Anything else: InvalidInputError naming the parameter."""
    with pytest.raises(prm.InvalidInputError, match="`per_query` must be a Polars DataFrame"):
        prm.compare([("a", "q1", 0.5)], by="system")  # type: ignore[arg-type]


def test_input_is_not_mutated() -> None:
    """The frame passed in is unchanged."""
    df = _with_gaps()
    before = df.clone()
    prm.compare(df, by="system", missing="zero")
    assert_frame_equal(df, before)


def test_integer_ids_and_the_output_schema() -> None:
    """Integer systems and queries: the system column keeps its dtype; the columns are the documented ones."""
    df = pl.DataFrame(
        {"model": [1, 1, 1, 2, 2, 2], "qid": [7, 8, 9] * 2, "ndcg": [0.5, 0.25, 0.75, 0.5, 0.5, 1.0]}
    )
    out = prm.compare(df, by="model", query="qid", baseline=1)
    assert out.columns == [
        "model", "baseline", "metric", "n", "mean", "baseline_mean", "delta", "ci_low", "ci_high",
        "p_value", "p_adjusted", "significant", "effect_size", "test", "correction", "alpha", "missing",
        "paired_on", "p_text",
    ]  # fmt: skip
    assert out["paired_on"].to_list() == ["qid"]
    assert out.schema["model"] == out.schema["baseline"] == pl.Int64
    assert (out["model"][0], out["baseline"][0], out["baseline_mean"][0]) == (2, 1, 0.5)
    assert out["mean"][0] == pytest.approx(2 / 3)
