"""No silent surprise: judgments passed apart, an inner-joined frame, one clear error, quiet progress."""

from __future__ import annotations

import io
import warnings
from typing import Any

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import _engine, cli

METRICS = ["map", "ndcg@10", "recall@100", "P_10", "bpref", "recip_rank", "num_rel"]


def demo() -> tuple[pl.DataFrame, pl.DataFrame]:
    run = prm.read_trec_run(prm.demo_path("results.test")).drop("run")
    return run, prm.read_trec_qrels(prm.demo_path("qrels.test"))


def two_models() -> pl.DataFrame:
    run, _ = demo()
    worse = run.with_columns(-pl.col("score")).filter(pl.col("query") != "303")
    return pl.concat([run.with_columns(model=pl.lit("a")), worse.with_columns(model=pl.lit("b"))])


@pytest.mark.parametrize("per_query", [False, True])
@pytest.mark.parametrize("by", [None, "model"])
def test_qrels_equals_join_run_qrels_then_evaluate_bit_for_bit(by: str | None, per_query: bool) -> None:
    run, qrels = demo()
    runs = two_models() if by else run
    want = prm.evaluate(prm.join_run_qrels(runs, qrels, by=by), METRICS, by=by, per_query=per_query)
    eager = prm.evaluate(runs, METRICS, by=by, per_query=per_query, qrels=qrels)
    lazy = prm.evaluate(runs.lazy(), METRICS, by=by, per_query=per_query, qrels=qrels.lazy())
    assert isinstance(lazy, pl.LazyFrame)
    assert eager.equals(want)
    assert lazy.collect(engine="streaming").equals(want)
    assert prm.RankFrame(runs).evaluate(METRICS, by=by, per_query=per_query, qrels=qrels).equals(want)
    assert runs.rank.average_precision(by=by, per_query=per_query, qrels=qrels).equals(want.drop(METRICS[1:]))
    chunked = prm.evaluate_chunked(
        runs.lazy(), METRICS, by=by, per_query=per_query, qrels=qrels, rows_per_chunk=700
    )
    assert chunked.equals(want)


def test_qrels_with_missing_zero_counts_queries_the_run_missed() -> None:
    run, qrels = demo()
    partial = run.filter(pl.col("query") != "302")
    want = prm.evaluate(prm.join_run_qrels(partial, qrels), ["map"], missing="zero")
    assert prm.evaluate(partial, ["map"], qrels=qrels, missing="zero").equals(want)
    assert prm.evaluate(partial, ["map"], qrels=qrels, missing="zero", per_query=True).height == 3


def test_an_inner_joined_frame_warns_naming_the_fix() -> None:
    run, qrels = demo()
    inner = run.join(qrels, on=["query", "item"], how="inner")
    with pytest.warns(prm.InnerJoinWarning, match=r"inner join.*map.*prm\.join_run_qrels.*qrels=qrels"):
        inner_map = prm.evaluate(inner, ["map", "P_10"])
    assert inner_map["map"].item() > prm.evaluate(prm.join_run_qrels(run, qrels), ["map"])["map"].item()
    with pytest.warns(prm.InnerJoinWarning):
        prm.evaluate(inner, ["recall@10"], per_query=True)


def test_no_inner_join_warning_on_a_joined_frame_or_for_metrics_that_do_not_care() -> None:
    run, qrels = demo()
    inner = run.join(qrels, on=["query", "item"], how="inner")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        joined = prm.evaluate(prm.join_run_qrels(run, qrels), METRICS)
        passed_apart = prm.evaluate(run, METRICS, qrels=qrels)
        retrieved = prm.evaluate(inner, ["P_10", "recip_rank", "num_ret"])  # they read what was retrieved
        prm.evaluate(inner.lazy(), ["map"]).collect()  # a plan cannot warn when it runs
    assert [str(w.message) for w in caught] == []
    assert joined.equals(passed_apart)  # the same frame, joined before or inside evaluate
    assert retrieved["num_ret"].item() == inner.height  # every row of the inner join was retrieved


def test_a_data_error_surfaces_once_without_polars_text(monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[Any] = []
    build = _engine.build

    def counted(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401  (a spy passes everything on)
        builds.append(args)
        return build(*args, **kwargs)

    monkeypatch.setattr(_engine, "build", counted)
    frame = pl.DataFrame({"query": [1, 1], "item": ["a", "a"], "score": [0.9, 0.5], "relevance": [1, 0]})
    with pytest.raises(prm.InvalidDataError, match=r"duplicate \(query, item\) row") as caught:
        prm.evaluate(frame, ["ndcg@10"])
    assert len(builds) == 1  # evaluated once: no second, unchecked evaluation
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__
    assert "polars" not in str(caught.value).lower().replace("polars_rankmetrics", "")
    with pytest.raises(prm.InvalidDataError) as lazily:
        prm.collect(prm.evaluate(frame.lazy(), ["ndcg@10"]))
    assert lazily.value.__cause__ is None
    assert lazily.value.__suppress_context__


def test_progress_is_silent_when_nobody_watches(monkeypatch: pytest.MonkeyPatch) -> None:
    run, qrels = demo()
    frame = prm.join_run_qrels(run, qrels).lazy()
    err = io.StringIO()  # not a terminal
    monkeypatch.setattr("sys.stderr", err)
    prm.evaluate_chunked(frame, ["map"], rows_per_chunk=500, progress=True)
    prm.evaluate_chunked(frame, ["map"], rows_per_chunk=500)
    assert err.getvalue() == ""
    seen: list[int] = []
    prm.evaluate_chunked(frame, ["map"], rows_per_chunk=500, progress=lambda i, *_: seen.append(i))
    assert seen == [1, 2, 3]  # a callable is called wherever it runs


def test_compare_and_its_table_state_the_missing_query_policy() -> None:
    per_query = pl.DataFrame(
        {"system": ["a"] * 3 + ["b"] * 2, "query": [1, 2, 3, 1, 2], "map": [0.5, 0.25, 0.75, 0.5, 1.0]}
    )
    zero = prm.compare(per_query, by="system", missing="zero")
    assert zero["missing"].to_list() == ["zero"]
    assert zero["baseline_mean"].item() == pytest.approx(0.5)  # over queries 1-3
    assert zero["mean"].item() == pytest.approx(0.5)  # b: (0.5 + 1.0 + 0) / 3, not evaluate's 0.75
    assert "score 0 for it (missing-query policy: zero" in prm.table_markdown(zero)
    common = prm.compare(per_query, by="system", missing="intersect")
    assert "Only the queries every system has are compared" in prm.table_markdown(common)
    with pytest.raises(prm.MissingQueriesError, match=r"no row for 1 of the 3 queries: 3.*missing='zero'"):
        prm.compare(per_query, by="system")


def test_the_cli_names_its_own_flags(capsys: pytest.CaptureFixture[str]) -> None:
    qrels, full, trunc = (str(prm.demo_path(n)) for n in ("qrels.test", "results.test", "results.trunc"))
    assert cli.main(["compare", qrels, full, trunc, "-m", "map"]) == 1
    err = capsys.readouterr().err
    assert "--missing zero" in err
    assert "--missing intersect" in err
    assert "missing=" not in err


def test_the_precision_recall_curve_names_each_k() -> None:
    run, qrels = demo()
    chart = prm.plots.pr_curve(prm.join_run_qrels(run, qrels), ks=[1, 5, 10])
    spec = chart.to_dict()
    line, labels = spec["layer"]
    assert line["mark"] == {"type": "line", "point": True}
    assert labels["mark"]["type"] == "text"
    assert labels["transform"] == [{"calculate": "'k=' + datum.k", "as": "label"}]
    assert labels["encoding"]["text"]["field"] == "label"
    assert [row["k"] for row in spec["data"]["values"]] == [1, 5, 10]
