"""However a plan the library built is collected, the first line is the library's sentence."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm

BAD = pl.LazyFrame(
    {"query": [1, 1, 2], "item": ["a", "b", "a"], "score": [0.9, float("nan"), 0.3], "relevance": [1, 0, 1]}
)
SENTENCE = "score column 'score' holds NaN or infinite scores in query=1"


def _ways(tmp_path: Path) -> dict[str, object]:
    plan = prm.evaluate(BAD, ["ndcg@10"], per_query=True)
    return {
        "collect": plan.collect,
        "streaming": lambda: plan.collect(engine="streaming"),
        "sink_parquet": lambda: plan.sink_parquet(tmp_path / "out.parquet"),
        "sink_csv": lambda: plan.sink_csv(tmp_path / "out.csv"),
        "collect_batches": lambda: list(plan.collect_batches()),
        "after a filter": lambda: plan.filter(pl.col("ndcg@10") > 0).collect(),
        "after a join": lambda: plan.join(pl.LazyFrame({"query": [1, 2]}), on="query").collect(),
        "evaluate_chunked": lambda: prm.evaluate_chunked(BAD, ["ndcg@10"]),
        "prm.collect": lambda: prm.collect(plan),
        "namespace": lambda: BAD.rank.evaluate(["ndcg@10"]).collect(engine="streaming"),
    }


@pytest.mark.parametrize(
    "way",
    ["collect", "streaming", "sink_parquet", "sink_csv", "collect_batches", "after a filter", "after a join",
     "evaluate_chunked", "prm.collect", "namespace"],
)  # fmt: skip
def test_a_plain_collect_raises_the_library_error_first(way: str, tmp_path: Path) -> None:
    with pytest.raises(prm.InvalidDataError) as raised:
        _ways(tmp_path)[way]()  # type: ignore[operator]
    first = str(raised.value).splitlines()[0]
    assert first.startswith(SENTENCE), first
    assert "strict_cast" not in str(raised.value)
    assert "conversion from" not in str(raised.value)


def test_the_plan_is_a_polars_lazyframe_and_runs_as_one() -> None:
    good = BAD.with_columns(pl.col("score").fill_nan(0.1))
    plan = prm.evaluate(good, ["ndcg@10"])
    assert isinstance(plan, pl.LazyFrame)
    assert plan.collect().equals(pl.LazyFrame.collect(plan))
    assert isinstance(
        prm.join_run_qrels(good.drop("relevance"), good.select("query", "item", "relevance")), pl.LazyFrame
    )


def test_polars_own_collect_all_keeps_the_sentence_inside() -> None:
    plan = prm.evaluate(BAD, ["ndcg@10"])
    with pytest.raises(pl.exceptions.InvalidOperationError, match=f"polars_rankmetrics: {SENTENCE}"):
        pl.collect_all([plan])
