"""The .rank namespace: registration, frame type kept, laziness, typed twin."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm


@pytest.fixture
def df() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "model": ["x", "x", "x", "y", "y", "y"],
            "query": ["q1", "q1", "q2", "q1", "q1", "q2"],
            "item": ["a", "b", "a", "a", "b", "a"],
            "score": [0.9, 0.1, 0.5, 0.1, 0.9, 0.5],
            "relevance": [0, 1, 1, 0, 1, 1],
        }
    )


def test_namespace_is_registered_on_both_frame_types(df: pl.DataFrame) -> None:
    assert isinstance(df.rank, prm.RankFrame)
    assert isinstance(df.lazy().rank, prm.RankFrame)


def test_dataframe_in_dataframe_out_lazy_in_lazy_out(df: pl.DataFrame) -> None:
    eager = df.rank.ndcg(k=10, by="model")
    lazy = df.lazy().rank.ndcg(k=10, by="model")
    assert isinstance(eager, pl.DataFrame)
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(eager)


def test_each_method_equals_evaluate_of_its_metric(df: pl.DataFrame) -> None:
    cases = {
        "precision": ("precision@2", {"k": 2}),
        "recall": ("recall@2", {"k": 2}),
        "f1": ("f1@2", {"k": 2}),
        "hit_rate": ("hit_rate@1", {"k": 1}),
        "mrr": ("mrr@1", {"k": 1}),
        "map": ("map", {}),
        "ndcg": ("ndcg@1", {"k": 1}),
        "dcg": ("dcg@2", {"k": 2}),
        "r_precision": ("r_precision", {}),
    }
    for method, (name, kwargs) in cases.items():
        got = getattr(df.rank, method)(**kwargs, by="model")
        assert got.equals(prm.evaluate(df, [name], by="model")), method
        assert got.columns == ["model", name]


def test_by_model_gives_one_row_per_model(df: pl.DataFrame) -> None:
    out = df.rank.evaluate(["mrr", "num_q"], by="model")
    # x: q1 first hit at rank 2 (0.5), q2 at rank 1 (1.0); y: both at rank 1.
    assert out.to_dict(as_series=False) == {"model": ["x", "y"], "mrr": [0.75, 1.0], "num_q": [2, 2]}


def test_per_query_has_keys_then_metrics_sorted(df: pl.DataFrame) -> None:
    out = df.rank.evaluate(["P_1"], by="model", per_query=True)
    assert out.columns == ["model", "query", "P_1"]
    assert out.rows() == [("x", "q1", 0.0), ("x", "q2", 1.0), ("y", "q1", 1.0), ("y", "q2", 1.0)]


def test_output_named_as_written(df: pl.DataFrame) -> None:
    out = prm.evaluate(df, ["P_1", "precision@1", prm.ndcg(3), "recip_rank"], by="model")
    assert out.columns == ["model", "P_1", "precision@1", "ndcg@3", "recip_rank"]
    assert out["P_1"].equals(out["precision@1"].alias("P_1"))


def test_typed_twin_works_without_the_namespace(df: pl.DataFrame) -> None:
    assert prm.RankFrame(df).map(by="model").equals(df.rank.map(by="model"))


def test_lazy_evaluation_reads_nothing_until_collected(tmp_path: object, df: pl.DataFrame) -> None:
    path = f"{tmp_path}/frame.parquet"
    df.write_parquet(path)
    lazy = pl.scan_parquet(path).rank.evaluate(["map@100"], by="model")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect(engine="streaming").equals(df.rank.evaluate(["map@100"], by="model"))


def test_validate_and_population_through_the_namespace(df: pl.DataFrame) -> None:
    assert df.rank.validate(by="model") is df
    pop = df.rank.population(by="model")
    assert pop["evaluated"].to_list() == [2, 2]


def test_metric_round_trip() -> None:
    for name in ["ndcg@10", "ndcg", "map@100", "mrr", "mrr@10", "precision@5", "recall@100",
                 "f1@3", "hit_rate@10", "dcg@5", "r_precision", "num_ret", "num_rel", "num_rel_ret", "num_q"]:
        assert str(prm.parse(name)) == name
    trec = {"P_10": "precision@10", "ndcg_cut_10": "ndcg@10", "recip_rank": "mrr", "map_cut_100": "map@100",
            "Rprec": "r_precision", "success_5": "hit_rate@5", "recall_100": "recall@100"}
    for name, canonical in trec.items():
        assert str(prm.parse(name)) == canonical
    assert prm.parse("P@10") == prm.precision(10)
