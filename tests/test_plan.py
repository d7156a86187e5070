"""The plan: pure expressions, one ranking, and no fallback from the streaming engine."""

from __future__ import annotations

import re

import polars as pl
import pytest
from plans import fallback_nodes as fallbacks

import polars_rankmetrics as prm


@pytest.fixture(scope="module")
def frame() -> pl.LazyFrame:
    run = prm.read_trec_run(prm.demo_path("results.test"))
    qrels = prm.read_trec_qrels(prm.demo_path("qrels.rel_level"))
    return prm.join_run_qrels(run, qrels, by="run").lazy()


def all_trec() -> list[str]:
    cutoffs = (5, 10, 100)
    return [
        "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
        "iprec_at_recall_0.20", "11pt_avg", "infAP", "gm_bpref", "Rprec_mult_0.20", "utility", "binG",
        "ndcg", "set_P", "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret",
        "rbp", "rbp_resid", "relstring", "err@10", "f1@10", "mrr@10", "dcg@10", "ndcg(1=1,2=3,3=7)@10",
        *(
            f"{m}_{k}"
            for m in ("P", "recall", "ndcg_cut", "map_cut", "relative_P", "success", "unj")
            for k in cutoffs
        ),
    ]  # fmt: skip


def test_the_detector_sees_a_known_fallback(frame: pl.LazyFrame) -> None:
    known = frame.group_by("query").agg(
        (pl.col("score").filter(pl.col("score") > 0) * 2.0).cast(pl.Int128).sum()
    )
    assert fallbacks(known)


@pytest.mark.parametrize(
    "options", [{}, {"depth": 50}, {"judged_only": True}, {"per_query": True}, {"gain": {1: 3, 2: 9}}]
)
def test_all_trec_streams_without_fallback(frame: pl.LazyFrame, options: dict[str, object]) -> None:
    lf = prm.evaluate(frame, all_trec(), by="run", **options)  # type: ignore[arg-type]
    assert fallbacks(lf) == []


def test_plan_calls_no_python(frame: pl.LazyFrame) -> None:
    udf = frame.with_columns(pl.col("score").map_elements(lambda x: x, return_dtype=pl.Float64))
    assert "python" in udf.explain().lower()  # the marker this test looks for
    plan = prm.evaluate(frame, [*all_trec(), "G", "ndcg_rel", "Rndcg"], by="run").explain().lower()
    assert "python" not in plan
    assert "map_batches" not in plan
    assert "map_elements" not in plan


def test_the_ranking_is_computed_once(frame: pl.LazyFrame) -> None:
    plan = prm.evaluate(frame, all_trec(), by="run").explain()
    # One struct rank over (score, item text), whatever the number of metrics and cutoffs.
    assert plan.count("as_struct") == 1


def test_streaming_equals_in_memory(frame: pl.LazyFrame) -> None:
    lf = prm.evaluate(frame, [*all_trec(), "G", "ndcg_rel", "Rndcg"], by="run", per_query=True)
    assert lf.collect(engine="streaming").equals(lf.collect(engine="in-memory"))


def test_validate_streams_without_fallback(frame: pl.LazyFrame) -> None:
    from polars_rankmetrics.checks import _checks  # noqa: PLC0415

    _, _, flags, counts = _checks(frame, prm.Columns(), ("run",))
    assert fallbacks(flags) == []
    assert fallbacks(counts) == []


def test_cutoffs_of_one_sum_share_its_term(frame: pl.LazyFrame) -> None:
    # nDCG and AP at three cutoffs each: one DCG, one IDCG and one precision-at-hit term column,
    # each scaled and cast once, whatever the number of cutoffs.
    metrics = ["ndcg_cut_5", "ndcg_cut_10", "ndcg_cut_100", "map_cut_5", "map_cut_10", "map"]
    plan = prm.evaluate(frame, metrics, by="run", check=False).explain()
    assert len(set(re.findall(r"__prm_term_[0-9a-f]{16}", plan))) == 3
    one = prm.evaluate(frame, ["ndcg_cut_5", "map"], by="run", check=False).explain()
    # Two cutoffs more of each add only their own means' casts across queries (two each: the
    # high and low parts of a mean's banded exact sum).
    assert plan.count("strict_cast(Int128)") == one.count("strict_cast(Int128)") + 8


def test_table_measures_and_rbp_resid_stream_without_fallback(frame: pl.LazyFrame) -> None:
    # They read the rows of non-zero gain (events per query) and windows over every row.
    lf = prm.evaluate(frame, ["G", "ndcg_rel", "Rndcg", "rbp_resid", "map"], by="run", per_query=True)
    assert fallbacks(lf) == []
