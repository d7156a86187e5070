"""Every promised error: its type, and a message that names the culprit."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm


@pytest.fixture
def df() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "query": ["q1", "q1", "q2"],
            "item": ["a", "b", "a"],
            "score": [0.5, 0.2, 0.9],
            "relevance": [1, 0, 1],
        }
    )


def test_errors_are_value_errors() -> None:
    for cls in (
        prm.ColumnNotFoundError,
        prm.ColumnTypeError,
        prm.InvalidDataError,
        prm.InvalidParameterError,
        prm.TrecFormatError,
        prm.UnknownMetricError,
    ):
        assert issubclass(cls, prm.RankMetricsError)
    assert issubclass(prm.RankMetricsError, ValueError)


@pytest.mark.parametrize("column", ["query", "item", "relevance"])
def test_missing_column_is_named_with_the_columns_present(df: pl.DataFrame, column: str) -> None:
    with pytest.raises(prm.ColumnNotFoundError, match=rf"{column} column '{column}' not found.*'score'"):
        prm.evaluate(df.drop(column), ["map"])


def test_missing_by_column_is_named(df: pl.DataFrame) -> None:
    with pytest.raises(prm.ColumnNotFoundError, match="by column 'model' not found"):
        prm.evaluate(df, ["map"], by="model")


def test_renamed_column_is_found(df: pl.DataFrame) -> None:
    cols = prm.Columns(query="user")
    with pytest.raises(prm.ColumnNotFoundError, match="query column 'user' not found"):
        prm.evaluate(df, ["map"], columns=cols)
    out = prm.evaluate(df.rename({"query": "user"}), ["map"], columns=cols)
    assert out.equals(prm.evaluate(df, ["map"]))


def test_neither_score_nor_rank(df: pl.DataFrame) -> None:
    with pytest.raises(prm.ColumnNotFoundError, match="score column 'score' or a rank column 'rank'"):
        prm.evaluate(df.drop("score"), ["map"])


def test_both_score_and_rank_rank_by_the_score(df: pl.DataFrame) -> None:
    both = df.with_columns(rank=pl.lit(1))
    assert prm.evaluate(both, ["map"]).equals(prm.evaluate(df, ["map"]))
    with pytest.raises(prm.ColumnNotFoundError, match="rank column 'rank' not found"):
        prm.evaluate(df, ["map"], columns=prm.Columns(order="rank"))


@pytest.mark.parametrize(
    ("column", "value", "match"),
    [
        ("score", "x", "score column 'score' must be numeric, got dtype String"),
        ("relevance", "x", "relevance column 'relevance' must be numeric, got dtype String"),
        ("query", [1], "query column 'query' must hold hashable scalars"),
    ],
)
def test_mistyped_column(df: pl.DataFrame, column: str, value: object, match: str) -> None:
    bad = df.with_columns(pl.lit(value).alias(column))
    with pytest.raises(prm.ColumnTypeError, match=match):
        prm.evaluate(bad, ["map"])


def test_float_rank_column_is_rejected(df: pl.DataFrame) -> None:
    bad = df.drop("score").with_columns(rank=pl.lit(1.0))
    with pytest.raises(
        prm.ColumnTypeError, match="rank column 'rank' must be an integer dtype, got dtype Float64"
    ):
        prm.evaluate(bad, ["map"])


@pytest.mark.parametrize("k", [0, -3, 2.5, "10", True])
def test_bad_k(k: object) -> None:
    with pytest.raises(
        prm.InvalidParameterError, match=rf"`k` must be a positive integer or None, got {k!r}"
    ):
        prm.ndcg(k)  # type: ignore[arg-type]


def test_bad_k_in_a_name() -> None:
    with pytest.raises(
        prm.InvalidParameterError, match="`k` of metric 'ndcg' must be a positive integer, got 0"
    ):
        prm.parse("ndcg@0")


def test_bad_k_through_the_namespace(df: pl.DataFrame) -> None:
    with pytest.raises(prm.InvalidParameterError, match="`k` must be a positive integer or None, got 0"):
        df.rank.ndcg(k=0)


@pytest.mark.parametrize(
    ("option", "value", "match"),
    [
        ("depth", 0, "`depth` must be a positive integer or None, got 0"),
        ("missing", "drop", "`missing` must be one of 'skip', 'zero', got 'drop'"),
        (
            "gain",
            "cubic",
            "`gain` must be one of 'linear', 'exponential', 'binary', 'thresholded_exponential', got 'cubic'",
        ),
        ("gain", {}, "`gain` must be"),
        ("relevance_level", "high", "`relevance_level` must be a real number, got 'high'"),
        ("relevance_level", float("inf"), "`relevance_level` must be a real number, got inf"),
        ("gain", {1: float("inf")}, "`gain for grade 1` must be a real number, got inf"),
        ("gain", {float("nan"): 1}, "`gain grade` must be a real number, got nan"),
        (
            "preset",
            "trec",
            "`preset` must be one of 'trec_eval', .*'recommenders', .*'ragas'.*'elliot', got 'trec'",
        ),
        ("ties", "random", "`ties` must be one of 'text', 'average', 'optimistic', .*, got 'random'"),
        ("iprec_rule", "floor", "`iprec_rule` must be one of 'round', 'trec_eval_9', got 'floor'"),
        ("ranks", "gapped", "`ranks` must be one of 'positions', 'given', got 'gapped'"),
        ("ideal", "k", "`ideal` must be one of 'judged', 'k_slots', got 'k'"),
        ("dcg_discount", "ln", "`dcg_discount` must be one of 'log2', 'log2_clipped', got 'ln'"),
        ("rbp_normalization", "max", "`rbp_normalization` must be one of 'series', 'achievable', got 'max'"),
        ("precision_denominator", "n", "`precision_denominator` must be one of 'k', 'length', got 'n'"),
        (
            "recall_denominator",
            "k",
            "`recall_denominator` must be one of 'relevant', 'min_k_relevant', got 'k'",
        ),
        ("ap_denominator", "n", "`ap_denominator` must be one of .*'k', 'min_length_relevant', got 'n'"),
    ],
)
def test_bad_convention(df: pl.DataFrame, option: str, value: object, match: str) -> None:
    with pytest.raises(prm.InvalidParameterError, match=match):
        prm.evaluate(df, ["map"], **{option: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (
            lambda: prm.utility(float("inf")),
            "`coefficients` of metric 'utility' must be a real number, got inf",
        ),
        (lambda: prm.parse("utility(coefficients=1,nan,0,0)"), "`coefficients` .* got nan"),
        (lambda: prm.ndcg(10, gain={1: float("-inf")}), "`gain for grade 1` must be a real number, got -inf"),
    ],
)
def test_infinite_or_nan_metric_parameter(build: object, match: str) -> None:
    with pytest.raises(prm.InvalidParameterError, match=match):
        build()  # type: ignore[operator]


def test_a_term_too_large_for_the_exact_sums_is_a_data_error(df: pl.DataFrame) -> None:
    # Sums are exact in Int128 fixed point (term x 2**64): a gain of 1e20 cannot be held.
    metric = prm.ndcg(1, gain={1: 1e20})
    with pytest.raises(prm.InvalidDataError, match=r"too large.*below 2\*\*63.*gain"):
        prm.evaluate(df, [metric])
    with pytest.raises(prm.InvalidDataError, match=r"too large.*below 2\*\*63"):
        prm.collect(prm.evaluate(df.lazy(), [metric]))
    assert prm.evaluate(df, [prm.ndcg(1, gain={1: 1e15})]).row(0) == (1.0,)


def test_unknown_metric_says_where_the_valid_names_are(df: pl.DataFrame) -> None:
    with pytest.raises(
        prm.UnknownMetricError,
        match=r"unknown metric 'ndgc@10'; did you mean 'ndcg@k'.* prm\.valid_names\(\), or the Metrics page",
    ) as raised:
        prm.evaluate(df, ["ndgc@10"])
    assert len(str(raised.value)) < 400


def test_metric_without_required_or_with_forbidden_cutoff() -> None:
    with pytest.raises(prm.UnknownMetricError, match="takes no cutoff, got num_ret@5"):
        prm.parse("num_ret@5")


def test_duplicate_and_empty_metric_lists(df: pl.DataFrame) -> None:
    with pytest.raises(
        prm.InvalidParameterError, match="`metrics` must be unique names, got \"'map' more than once\""
    ):
        prm.evaluate(df, ["map", "map"])
    with pytest.raises(prm.InvalidParameterError, match="`metrics` must be at least one metric"):
        prm.evaluate(df, [])


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_nan_or_infinite_score(df: pl.DataFrame, bad: float) -> None:
    frame = df.with_columns(score=pl.Series([0.5, bad, 0.9]))
    with pytest.raises(
        prm.InvalidDataError, match=r"score column 'score' holds NaN or infinite scores: 1 row.*item='b'"
    ):
        prm.evaluate(frame, ["map"])


@pytest.mark.parametrize("column", ["query", "item"])
def test_null_ids(df: pl.DataFrame, column: str) -> None:
    frame = df.with_columns(pl.when(pl.int_range(pl.len()) == 1).then(pl.col(column)).alias(column))
    with pytest.raises(prm.InvalidDataError, match=f"{column} column '{column}' holds null ids: 2 row"):
        prm.evaluate(frame, ["map"])


def test_rank_below_one(df: pl.DataFrame) -> None:
    frame = df.drop("score").with_columns(rank=pl.Series([1, 0, 1]))
    with pytest.raises(
        prm.InvalidDataError, match=r"rank column 'rank' holds ranks below 1: 1 row.*item='b'"
    ):
        prm.evaluate(frame, ["map"])


def test_duplicate_query_item_rows(df: pl.DataFrame) -> None:
    frame = pl.concat([df, df.head(1)])
    with pytest.raises(
        prm.InvalidDataError, match=r"1 duplicate \(query, item\) row.*query='q1', item='a' appears 2 times"
    ):
        prm.evaluate(frame, ["map"])


@pytest.mark.parametrize(
    ("dtype", "items"),
    [
        (pl.Int8, [-128, 127, 0]),
        (pl.UInt64, [2**64 - 1, 0, 2**63]),
        (pl.Int64, [-(2**63), 2**63 - 1, -1]),
        (pl.String, ["", "a", "A"]),
    ],
)
def test_the_plan_counts_duplicate_items_of_every_id_type(
    dtype: type[pl.DataType], items: list[object]
) -> None:
    """The in-plan check (a LazyFrame's): integer ids counted as they are, others hashed."""
    distinct = pl.DataFrame(
        {"query": [1, 1, 1], "item": items, "score": [0.3, 0.2, 0.1], "relevance": [1, 0, 1]},
        schema_overrides={"item": dtype},
    )
    assert prm.collect(prm.evaluate(distinct.lazy(), ["map"])).item() == pytest.approx((1 + 2 / 3) / 2)
    repeated = distinct.with_columns(pl.col("item").gather([0, 1, 0]))
    with pytest.raises(prm.InvalidDataError, match=r"1 duplicate \(query, item\) row\(s\) in query=1"):
        prm.collect(prm.evaluate(repeated.lazy(), ["map"]))


def test_duplicates_are_per_run(df: pl.DataFrame) -> None:
    two_runs = pl.concat([df.with_columns(model=pl.lit("x")), df.with_columns(model=pl.lit("y"))])
    # The same (query, item) in two runs is fine: each run's AP is 1 on q1 (a relevant item first)
    # and on q2 (its only item relevant), so each run's map is 1.
    out = prm.evaluate(two_runs, ["map"], by="model")
    assert sorted(out.rows()) == [("x", 1.0), ("y", 1.0)]
    with pytest.raises(prm.InvalidDataError, match="duplicate \\(model, query, item\\)"):
        prm.evaluate(pl.concat([two_runs, two_runs.head(1)]), ["map"], by="model")


def test_validate_collects_a_lazyframe_on_request(df: pl.DataFrame) -> None:
    lazy = pl.concat([df, df.head(1)]).lazy()
    out = prm.evaluate(lazy, ["map"])  # lazy: nothing is read yet
    assert isinstance(out, pl.LazyFrame)
    with pytest.raises(prm.InvalidDataError, match="duplicate"):
        prm.validate(lazy)


def test_check_false_skips_data_checks(df: pl.DataFrame) -> None:
    frame = df.with_columns(score=pl.Series([0.5, float("nan"), 0.9]))
    with pytest.raises(prm.InvalidDataError, match="NaN"):
        prm.evaluate(frame, ["map"])  # checked by default
    unchecked = prm.evaluate(frame, ["map"], check=False)  # the same frame evaluates without the check
    assert unchecked.columns == ["map"]
    assert unchecked.height == 1
    assert unchecked.schema["map"] == pl.Float64


def test_input_is_never_mutated(df: pl.DataFrame) -> None:
    before = df.clone()
    prm.evaluate(df, ["ndcg@10", "map", "r_precision"], per_query=True)
    df.rank.ndcg(k=3)
    assert df.equals(before)
    assert df.columns == before.columns


def test_empty_frame_gives_empty_result(df: pl.DataFrame) -> None:
    empty = df.clear()
    assert prm.evaluate(empty, ["ndcg@10", "num_q"]).shape == (0, 2)
    assert prm.evaluate(empty, ["ndcg@10"], per_query=True).columns == ["query", "ndcg@10"]
    assert prm.evaluate(empty.with_columns(model=pl.lit("x")), ["map"], by="model").height == 0


@pytest.mark.parametrize(
    ("kind", "text", "line", "match"),
    [
        ("run", "301 Q0 d1 1 2.5 R\n\n301 Q0 d2 2\n", 3, "expected 'query Q0 docno rank score runid'"),
        ("run", "# header\n301 Q0 d1 1 high R\n", 2, "numeric score"),
        ("run", "301 Q0 d1 1 nan R\n", 1, "finite score"),
        ("qrels", "301 0 d1 1\n301 0 d2\n", 2, "expected 'query iteration docno relevance'"),
        ("qrels", "301 0 d1 1\n301 0 d2 yes\n", 2, "numeric relevance"),
    ],
)
def test_malformed_trec_line_names_file_and_line(
    tmp_path: Path, kind: str, text: str, line: int, match: str
) -> None:
    path = tmp_path / f"bad.{kind}"
    path.write_text(text)
    read = prm.read_trec_run if kind == "run" else prm.read_trec_qrels
    with pytest.raises(prm.TrecFormatError, match=rf"bad\.{kind}: line {line}: malformed TREC line.*{match}"):
        read(path)


def test_join_rejects_mismatched_id_types() -> None:
    run = pl.DataFrame({"query": [1], "item": ["a"], "score": [1.0]})
    qrels = pl.DataFrame({"query": ["1"], "item": ["a"], "relevance": [1]})
    with pytest.raises(
        prm.ColumnTypeError, match="column 'query' is Int64 in the run but String in the qrels"
    ):
        prm.join_run_qrels(run, qrels)


@pytest.mark.parametrize(
    ("names", "options", "match"),
    [
        (["err"], {"gain": "exponential"}, "metric 'err' does not take gain='exponential'"),
        (["err@3"], {"gain": "thresholded_exponential"}, "metric 'err@3' does not take gain="),
        (["ndcg"], {"ideal": "k_slots"}, "metric 'ndcg' needs a cutoff under ideal='k_slots'"),
        (["G"], {"ideal": "k_slots"}, "metric 'G' does not take ideal='k_slots'"),
        (["ndcg_rel"], {"dcg_discount": "log2_clipped"}, "metric 'ndcg_rel' does not take dcg_discount="),
    ],
)
def test_a_family_refuses_conventions_it_cannot_read(
    df: pl.DataFrame, names: list[str], options: dict[str, object], match: str
) -> None:
    with pytest.raises(prm.InvalidParameterError, match=match):
        prm.evaluate(df, names, **options)  # type: ignore[arg-type]
