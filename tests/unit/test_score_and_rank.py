"""A frame with both a score and a rank: ranked by the score, or by the rank when columns= says so."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm

METRICS = ["ndcg@2", "map", "mrr", "precision@1", "recall@2"]


@pytest.fixture
def both() -> pl.DataFrame:
    """The rank reverses the score's order (a re-ranked list), so the two orders give other values."""
    return pl.DataFrame(
        {
            "user": [1, 1, 1, 2, 2, 2],
            "movie": ["a", "b", "c", "a", "b", "c"],
            "score": [0.9, 0.5, 0.1, 0.3, 0.6, 0.2],
            "rank": [3, 2, 1, 2, 1, 3],
            "rating": [1, 0, 0, 0, 0, 1],
        }
    )


COLS = {"query": "user", "item": "movie", "relevance": "rating"}


def test_both_columns_rank_by_the_score_by_default(both: pl.DataFrame) -> None:
    out = prm.evaluate(both, METRICS, columns=COLS, per_query=True)
    by_score = prm.evaluate(both.drop("rank"), METRICS, columns=COLS, per_query=True)
    assert out.sort("user").equals(by_score.sort("user"))
    assert out.sort("user")["mrr"].to_list() == [1.0, 1 / 3]  # by score: user 1's 'a' first


def test_order_rank_ranks_by_the_rank_column(both: pl.DataFrame) -> None:
    cols = prm.Columns(query="user", item="movie", relevance="rating", order="rank")
    out = prm.evaluate(both, METRICS, columns=cols, per_query=True)
    by_rank = prm.evaluate(both.drop("score"), METRICS, columns=COLS, per_query=True)
    assert out.sort("user").equals(by_rank.sort("user"))
    assert out.sort("user")["mrr"].to_list() == [1 / 3, 1 / 3]
    assert (
        prm.evaluate(both.lazy(), METRICS, columns={**COLS, "order": "rank"})
        .collect()
        .equals(prm.evaluate(both.drop("score"), METRICS, columns=COLS))
    )


def test_order_score_names_the_score_and_unknown_orders_are_refused(both: pl.DataFrame) -> None:
    cols = {**COLS, "order": "score"}
    assert prm.evaluate(both, METRICS, columns=cols).equals(
        prm.evaluate(both.drop("rank"), METRICS, columns=COLS)
    )
    with pytest.raises(prm.ColumnNotFoundError, match="score column 'score' not found"):
        prm.evaluate(both.drop("score"), METRICS, columns=cols)
    with pytest.raises(prm.InvalidParameterError, match="order"):
        prm.Columns(order="position")  # type: ignore[arg-type]


def test_both_columns_through_join_validate_and_population(both: pl.DataFrame) -> None:
    run = both.drop("rating").filter(pl.col("movie") != "c")
    qrels = both.select("user", "movie", "rating")
    cols = prm.Columns(query="user", item="movie", relevance="rating", order="rank")
    joined = prm.join_run_qrels(run, qrels, columns=cols)
    assert prm.evaluate(joined, ["recall@1"], columns=cols).item() == 0.0
    assert prm.evaluate(joined, ["recall@1"], columns=COLS).item() == 0.5
    prm.validate(both, columns=cols)
    assert prm.population(both, columns=cols).height == 1
