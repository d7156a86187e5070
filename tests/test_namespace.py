"""The .rank namespace: registration, frame type kept, laziness, typed twin."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import _request
from polars_rankmetrics._registry import SPECS
from polars_rankmetrics._request import OPTIONS
from polars_rankmetrics._spec import MetricSpec


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
        "reciprocal_rank": ("mrr@1", {"k": 1}),
        "average_precision": ("map", {}),
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
    got = prm.RankFrame(df).average_precision(by="model")
    assert got.equals(df.rank.average_precision(by="model"))


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_every_metric_has_a_constructor_and_a_method_of_one_name(spec: MetricSpec) -> None:
    """Each registered family is reachable as prm.<name>(...) and df.rank.<name>(...) alike."""
    constructor = getattr(prm, spec.python_name)
    method = getattr(prm.RankFrame, spec.python_name)
    assert spec.python_name in prm.__all__
    own = list(inspect.signature(constructor).parameters)
    assert list(inspect.signature(method).parameters)[1 : len(own) + 1] == own
    options = inspect.signature(method).parameters["options"]
    assert options.kind is inspect.Parameter.VAR_KEYWORD
    typed = "MetricOptions" if "gain" in own else "EvaluateOptions"
    assert options.annotation == f"Unpack[{typed}]", (spec.python_name, options.annotation)
    keys = getattr(_request, typed).__optional_keys__
    assert set(OPTIONS) <= keys
    assert ("gain" in keys) == (typed == "EvaluateOptions")  # a metric's own gain replaces the convention
    assert "Parameters" in (method.__doc__ or "")


def test_every_constructor_builds_its_own_family() -> None:
    """A constructor called with its defaults (and a required cutoff) gives a metric of a family it owns."""
    needs = {"mar": {"k": 3}, "map_capped": {"k": 3}, "unjudged": {"k": 3},
             "iprec_at_recall": {"recall": 0.5}, "recall_at_precision": {"precision": 0.5},
             "rprec_mult": {"multiple": 2.0}, "mpr": {}, "mcc": {"k": 3, "n_items": 10},
             "covered_users": {"k": 3},
             "novelty": {"popularity": pl.DataFrame({"item": ["a"], "count": [1]}), "n_users": 2},
             "intra_list_similarity": {"features": pl.DataFrame({"item": ["a"], "x": [1.0]})},
             "rbo": {"reference": pl.DataFrame({"query": ["q"], "item": ["a"], "score": [1.0]})},
             **{name: {"interactions": pl.DataFrame({"user": [1], "item": ["a"]})}
                for name in ("arp", "aplt", "aclt", "tail_percentage", "pop_rsp", "pop_reo",
                             "mean_pop_rank")},
             "surprisal": {"k": 3, "interactions": pl.DataFrame({"user": [1], "item": ["a"]})},
             "unexpectedness": {"k": 3, "baseline": pl.DataFrame({"user": [1], "item": ["a"], "s": [1.0]})},
             "category_diversity": {"k": 3, "categories": pl.DataFrame({"item": ["a"], "g": ["x"]})},
             "miscalibration": {"history": pl.DataFrame({"user": [1], "item": ["a"]}),
                                "categories": pl.DataFrame({"item": ["a"], "g": ["x"]})},
             "serendipity": {"history": pl.DataFrame({"user": [1], "item": ["a"]})},
             **{name: {"groups": pl.DataFrame({"item": ["a"], "g": ["x"]})}
                for name in ("exposure_disparity", "awrf")},
             "exposure_share": {"groups": pl.DataFrame({"i": ["a"], "g": ["x"]}), "group": "x"},
             **{name: {"k": 3} for name in ("alpha_ndcg", "err_ia", "nerr_ia", "p_ia", "strec")},
             **{name: {"k": 3, "propensities": "p"} for name in ("psp", "psndcg", "psrecall")},
             **{name: {"k": 3, "weights": "w"}
                for name in ("ips_precision", "ips_recall", "ips_ndcg", "ips_rbp", "ips_mrr",
                             "ips_hit_rate")}}  # fmt: skip
    names = {spec.python_name for spec in SPECS}
    for name in names:
        metric = getattr(prm, name)(**needs.get(name, {}))
        assert metric.spec.python_name == name
        if all(p.kind != "side" for p in metric.spec.params):  # side inputs stay out of names
            assert prm.parse(str(metric)) == metric


def test_generated_namespace_module_is_current() -> None:
    """polars_rankmetrics/_namespace.pyi is what tools/gen_namespace.py writes from the constructors."""
    tool = Path(__file__).resolve().parents[1] / "tools" / "gen_namespace.py"
    command = [sys.executable, str(tool), "--check"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603  (our own tool)
    assert done.returncode == 0, done.stderr


def test_renamed_methods_keep_a_deprecated_alias(df: pl.DataFrame) -> None:
    with pytest.warns(DeprecationWarning, match="use df.rank.reciprocal_rank"):
        old = df.rank.mrr(by="model")
    assert old.equals(df.rank.reciprocal_rank(by="model"))
    with pytest.warns(DeprecationWarning, match="use df.rank.average_precision"):
        old = df.rank.map(10, by="model")
    assert old.equals(df.rank.average_precision(10, by="model"))


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
    for name in [
        "ndcg@10",
        "ndcg",
        "map@100",
        "mrr",
        "mrr@10",
        "precision@5",
        "recall@100",
        "f1@3",
        "hit_rate@10",
        "dcg@5",
        "r_precision",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "num_q",
    ]:
        assert str(prm.parse(name)) == name
    trec = {
        "P_10": "precision@10",
        "ndcg_cut_10": "ndcg@10",
        "recip_rank": "mrr",
        "map_cut_100": "map@100",
        "Rprec": "r_precision",
        "success_5": "hit_rate@5",
        "recall_100": "recall@100",
    }
    for name, canonical in trec.items():
        assert str(prm.parse(name)) == canonical
    assert prm.parse("P@10") == prm.precision(10)


def test_the_namespace_options_are_the_requests() -> None:
    """`.rank`'s typed options list every option of the evaluate request, and nothing else."""
    from polars_rankmetrics._request import Request  # noqa: PLC0415

    assert set(_request.Options.__annotations__) == set(OPTIONS)
    assert set(OPTIONS) | {"metrics", "frame"} == set(Request.__dataclass_fields__)


def test_every_entry_point_takes_the_one_declaration_of_the_options() -> None:
    """One declaration of the options (``EvaluateOptions``), and evaluate's signature the same.

    evaluate spells the options out (its documented signature: the request's,
    name for name and default for default); evaluate_chunked, spark.evaluate
    and the request take ``EvaluateOptions``.
    """
    import inspect  # noqa: PLC0415

    from polars_rankmetrics._request import request  # noqa: PLC0415
    from polars_rankmetrics.spark._api import evaluate as spark_evaluate  # noqa: PLC0415

    spelled = inspect.signature(prm.evaluate).parameters
    assert [n for n, p in spelled.items() if p.kind is p.KEYWORD_ONLY] == list(OPTIONS)
    defaults = {"by": None, "per_query": False, "columns": None, "conventions": None, "check": True,
                "aggregate": "mean", "qrels": None}  # fmt: skip
    assert {n: spelled[n].default for n in OPTIONS} == defaults
    req = request(["map"])
    assert {n: getattr(req, n) for n in ("by", "per_query", "check", "aggregate", "qrels")} == {
        "by": (),
        "per_query": False,
        "check": True,
        "aggregate": "mean",
        "qrels": None,
    }
    for entry in (prm.evaluate_chunked, spark_evaluate, request):
        options = inspect.signature(entry).parameters["options"]
        assert options.kind is options.VAR_KEYWORD
        assert "EvaluateOptions" in str(options.annotation), entry
