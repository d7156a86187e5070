"""Bad data fails on every path inside the evaluation's own plan (issue 11, point 1).

Each case once gave a number without a word on the LazyFrame path (a NaN
score gave ndcg@10 0.7698, a null query id 0.8770, a duplicated row 0.7447
where the true value was 0.7268); now every path raises, naming the column,
the rule and the query.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl
import pytest

import polars_rankmetrics as prm

GOOD = pl.DataFrame(
    {
        "model": ["x", "x", "x", "x", "x"],
        "query": ["q1", "q1", "q1", "q2", "q2"],
        "item": ["a", "b", "c", "a", "b"],
        "score": [0.9, 0.5, 0.1, 0.8, 0.3],
        "relevance": [1, 0, 2, 1, None],
    }
)


def _set(column: str, row: int, value: object) -> Callable[[pl.DataFrame], pl.DataFrame]:
    def change(df: pl.DataFrame) -> pl.DataFrame:
        dtype = df.schema[column]
        return df.with_columns(
            pl.when(pl.int_range(pl.len()) == row)
            .then(pl.lit(value, dtype=dtype))
            .otherwise(pl.col(column))
            .alias(column)
        )

    return change


CASES = {
    "nan score": (
        _set("score", 1, float("nan")),
        r"score column 'score' holds NaN or infinite scores in query='q1'",
    ),
    "inf score": (
        _set("score", 3, float("inf")),
        r"score column 'score' holds NaN or infinite scores in query='q2'",
    ),
    "null item": (_set("item", 0, None), r"item column 'item' holds null ids in query='q1'"),
    "null query": (_set("query", 4, None), r"query column 'query' holds null ids"),
    "duplicate": (
        lambda df: pl.concat([df, df.head(1)]),
        r"1 duplicate \(query, item\) row\(s\) in query='q1'",
    ),
    "nan grade": (
        lambda df: df.with_columns(pl.col("relevance").cast(pl.Float64)).pipe(
            _set("relevance", 2, float("nan"))
        ),
        r"relevance column 'relevance' holds NaN grades.*in query='q1'",
    ),
}


@pytest.mark.parametrize("case", CASES, ids=str)
def test_lazyframe_path_raises_at_collect(case: str) -> None:
    change, match = CASES[case]
    bad = change(GOOD).drop("model")
    plan = prm.evaluate(bad.lazy(), ["ndcg@10", "map"])
    with pytest.raises(prm.InvalidDataError, match=match):
        prm.collect(plan)
    # A plain collect of the plan evaluate returned raises the same error (issue 38, point 5) ...
    with pytest.raises(prm.InvalidDataError, match=match):
        plan.collect()
    with pytest.raises(prm.InvalidDataError, match=match):
        plan.collect(engine="streaming")
    # ... but pl.collect_all goes round it: Polars' error, the library's sentence inside.
    with pytest.raises(pl.exceptions.InvalidOperationError, match="polars_rankmetrics: "):
        pl.collect_all([plan])


@pytest.mark.parametrize("case", CASES, ids=str)
def test_dataframe_path_raises_our_error(case: str) -> None:
    change, _ = CASES[case]
    with pytest.raises(prm.InvalidDataError):
        prm.evaluate(change(GOOD).drop("model"), ["ndcg@10"])


@pytest.mark.parametrize("case", CASES, ids=str)
def test_per_query_namespace_and_chunked_paths_raise(case: str) -> None:
    change, match = CASES[case]
    bad = change(GOOD).drop("model").lazy()
    with pytest.raises(prm.InvalidDataError, match=match):
        prm.collect(bad.rank.evaluate(["ndcg@10"], per_query=True))
    with pytest.raises(prm.InvalidDataError, match=match):
        prm.collect(bad.rank.ndcg(10))
    if (
        case != "null query"
    ):  # a null query id fails the chunking pass itself (tests/property/test_chunked.py)
        with pytest.raises(prm.InvalidDataError, match=match):
            prm.evaluate_chunked(bad, ["ndcg@10"], rows_per_chunk=2)


def test_check_false_skips_the_checks() -> None:
    bad = pl.concat([GOOD, GOOD.head(1)]).drop("model").lazy()
    assert prm.evaluate(bad, ["map"], check=False).collect().height == 1


def test_checked_and_unchecked_plans_agree_on_good_data() -> None:
    for frame in (GOOD, GOOD.lazy()):
        checked = prm.evaluate(frame, ["ndcg@10", "map", "P_1"], by="model", per_query=True)
        unchecked = prm.evaluate(frame, ["ndcg@10", "map", "P_1"], by="model", per_query=True, check=False)
        got = checked if isinstance(checked, pl.DataFrame) else checked.collect()
        want = unchecked if isinstance(unchecked, pl.DataFrame) else unchecked.collect()
        assert got.equals(want)


def test_a_query_the_population_rules_skip_is_still_checked() -> None:
    """A judged query with nothing retrieved is skipped by missing='skip', but its bad rows still fail."""
    qrels_only = pl.DataFrame(
        {"query": ["q3", "q3"], "item": ["a", "a"], "score": [None, None], "relevance": [1, 0]}
    )
    frame = pl.concat([GOOD.drop("model"), qrels_only], how="vertical_relaxed")
    with pytest.raises(prm.InvalidDataError, match=r"duplicate .* in query='q3'"):
        prm.collect(prm.evaluate(frame.lazy(), ["map"]))


def test_null_by_key_and_the_by_hint() -> None:
    stacked = pl.concat([GOOD, GOOD.with_columns(model=pl.lit("y"))])
    with pytest.raises(prm.InvalidDataError, match="pass by='model'"):
        prm.collect(prm.evaluate(stacked.lazy(), ["map"]))
    with_null = stacked.with_columns(
        pl.when(pl.col("item") == "c").then(None).otherwise("model").alias("model")
    )
    with pytest.raises(prm.InvalidDataError, match="by column 'model' holds null values"):
        prm.collect(prm.evaluate(with_null.lazy(), ["map"], by="model"))


def test_rank_below_one() -> None:
    ranked = GOOD.drop("score", "model").with_columns(rank=pl.Series([1, 0, 2, 1, 2]))
    with pytest.raises(prm.InvalidDataError, match=r"rank column 'rank' holds ranks below 1 in query='q1'"):
        prm.collect(prm.evaluate(ranked.lazy(), ["map"]))
