"""fuse() and optimize_fusion() refuse bad input with the library's errors, naming what is wrong."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.fusion._names import METHODS

RUNS = pl.DataFrame(
    {
        "run": ["a", "a", "b", "b"],
        "query": ["q1", "q1", "q1", "q2"],
        "item": ["x", "y", "x", "z"],
        "score": [2.0, 1.0, 0.5, 0.3],
    }
)
QRELS = pl.DataFrame({"query": ["q1"], "item": ["x"], "relevance": [1]})


def test_an_unknown_method_lists_the_valid_ones() -> None:
    with pytest.raises(prm.InvalidParameterError, match=r"`method` must be one of .*'rrf'.*got 'rfr'"):
        prm.fuse(RUNS, "rfr")


def test_other_spellings_are_accepted() -> None:
    for spelling, name in [
        ("combsum", "sum"),
        ("CombMNZ", "mnz"),
        ("comb_anz", "anz"),
        ("borda", "bordafuse"),
    ]:
        assert prm.fuse(RUNS, spelling).sort("item").equals(prm.fuse(RUNS, name).sort("item"))
    assert prm.fuse(RUNS, "sum", norm="min_max").sort("item").equals(prm.fuse(RUNS, "sum").sort("item"))


def test_an_unknown_norm_lists_the_valid_ones() -> None:
    with pytest.raises(prm.InvalidParameterError, match=r"`norm` must be one of .*'zmuv'.*got 'z'"):
        prm.fuse(RUNS, "sum", norm="z")


def test_missing_and_unwanted_weights() -> None:
    with pytest.raises(prm.InvalidParameterError, match=r"`weights` of fusion method 'wsum' must be"):
        prm.fuse(RUNS, "wsum")
    with pytest.raises(prm.InvalidParameterError, match=r"run 'b' of column 'run' has no weight"):
        prm.fuse(RUNS, "wsum", weights={"a": 1.0})
    with pytest.raises(prm.InvalidParameterError, match=r"weights\['a'\]` of fusion method 'wsum'"):
        prm.fuse(RUNS, "wsum", weights={"a": float("nan"), "b": 1.0})
    with pytest.raises(prm.InvalidParameterError, match=r"'rrf' takes no weights"):
        prm.fuse(RUNS, "rrf", weights={"a": 1.0, "b": 1.0})


def test_a_lazy_run_without_weight_fails_in_the_plan() -> None:
    lazy = prm.fuse(RUNS.lazy(), "wsum", weights={"a": 1.0})
    with pytest.raises(prm.InvalidDataError, match=r"run b has no weight"):
        prm.collect(lazy)


def test_bad_and_unknown_params() -> None:
    with pytest.raises(
        prm.InvalidParameterError, match=r"`k` of fusion method 'rrf' must be a real number >= 0, got -1"
    ):
        prm.fuse(RUNS, "rrf", k=-1)
    with pytest.raises(
        prm.InvalidParameterError, match=r"`phi` of fusion method 'rbc' must be .*\[0, 1\], got 2"
    ):
        prm.fuse(RUNS, "rbc", phi=2)
    with pytest.raises(prm.InvalidParameterError, match=r"'rbc' needs `phi`"):
        prm.fuse(RUNS, "rbc")
    with pytest.raises(prm.InvalidParameterError, match=r"'rrf' has no parameter 'phi'; its parameters: k"):
        prm.fuse(RUNS, "rrf", phi=0.5)
    with pytest.raises(prm.InvalidParameterError, match=r"`n_segments` .* an integer >= 1, got 2.5"):
        prm.fuse(RUNS, "probfuse", qrels=QRELS, n_segments=2.5)


def test_supervised_methods_need_qrels_and_others_refuse_them() -> None:
    with pytest.raises(prm.InvalidParameterError, match=r"'posfuse' is trained on judgments: pass qrels="):
        prm.fuse(RUNS, "posfuse")
    with pytest.raises(prm.InvalidParameterError, match=r"'sum' is not trained: it takes no qrels"):
        prm.fuse(RUNS, "sum", qrels=QRELS)
    with pytest.raises(prm.ColumnNotFoundError, match=r"relevance column 'relevance' not found.*the qrels"):
        prm.fuse(RUNS, "posfuse", qrels=QRELS.drop("relevance"))


def test_missing_and_mistyped_columns() -> None:
    with pytest.raises(prm.ColumnNotFoundError, match=r"by column 'system' not found.*the runs has columns"):
        prm.fuse(RUNS, "sum", by="system")
    with pytest.raises(prm.ColumnNotFoundError, match=r"score column 'score' not found"):
        prm.fuse(RUNS.drop("score"), "sum")
    with pytest.raises(prm.ColumnTypeError, match=r"score column 'score' must be numeric"):
        prm.fuse(RUNS.with_columns(pl.col("score").cast(pl.String)), "sum")
    with pytest.raises(prm.InvalidInputError):
        prm.fuse([1, 2], "sum")  # type: ignore[type-var]


def test_optimize_fusion_refuses_what_it_cannot_search() -> None:
    with pytest.raises(prm.InvalidParameterError, match=r"'sum' has neither"):
        prm.optimize_fusion(RUNS, QRELS, "sum")
    with pytest.raises(prm.InvalidParameterError, match=r"`batch_size`"):
        prm.optimize_fusion(RUNS, QRELS, "wsum", batch_size=0)
    with pytest.raises(prm.InvalidParameterError, match=r"`grid` .* weight tuples of 2"):
        prm.optimize_fusion(RUNS, QRELS, "wsum", grid=[(1.0,)])
    with pytest.raises(prm.InvalidParameterError, match=r"`k` of fusion method 'rrf'"):
        prm.optimize_fusion(RUNS, QRELS, "rrf", grid=[10, -5])


def test_bad_data_in_a_dataframe_raises_unless_unchecked() -> None:
    duplicated = pl.concat([RUNS, RUNS.head(1)])
    with pytest.raises(
        prm.InvalidDataError, match=r"duplicate \(run, query, item\) row.*run='a', query='q1', item='x'"
    ):
        prm.fuse(duplicated, "sum")
    with pytest.raises(prm.InvalidDataError, match=r"NaN"):
        prm.fuse(
            RUNS.with_columns(
                pl.when(pl.col("item") == "y").then(float("nan")).otherwise("score").alias("score")
            ),
            "sum",
        )
    with pytest.raises(prm.InvalidDataError, match=r"null"):
        prm.fuse(
            RUNS.with_columns(pl.when(pl.col("item") == "y").then(None).otherwise("item").alias("item")),
            "sum",
        )
    assert prm.fuse(duplicated, "sum", check=False).height == 3


@pytest.mark.parametrize("method", sorted(METHODS))
def test_a_run_listing_an_item_twice_raises_for_every_method(method: str) -> None:
    """The duplicate is found by the fusion's own aggregation (condorcet: by validate), named alike."""
    params = {
        "gmnz": {"gamma": 0.5},
        "rbc": {"phi": 0.8},
        "probfuse": {"n_segments": 3},
        "slidefuse": {"w": 2},
    }
    kwargs: dict[str, object] = dict(params.get(method, {}))
    if METHODS[method].weighted:
        kwargs["weights"] = {"a": 0.4, "b": 0.6}
    if METHODS[method].supervised:
        kwargs["qrels"] = QRELS
    again = RUNS.filter(pl.col("item") == "y").with_columns(pl.lit(-3.0).alias("score"))  # listed last
    with pytest.raises(
        prm.InvalidDataError, match=r"duplicate \(run, query, item\) row.*run='a', query='q1', item='y'"
    ):
        prm.fuse(pl.concat([again, RUNS]), method, **kwargs)  # type: ignore[arg-type]
    assert prm.fuse(RUNS, method, **kwargs).height == 3  # type: ignore[arg-type]


def test_an_infinite_score_or_a_null_run_name_raises() -> None:
    with pytest.raises(prm.InvalidDataError, match=r"infinite|NaN"):
        prm.fuse(RUNS.with_columns(pl.col("score").replace(0.5, float("inf"))), "rrf")
    with pytest.raises(prm.InvalidDataError, match=r"null"):
        prm.fuse(RUNS.with_columns(pl.col("run").replace("b", None)), "rrf")
