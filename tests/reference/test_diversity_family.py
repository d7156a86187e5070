"""The intent-aware measures as a family of the one evaluation: prm.evaluate against pyndeval and pytrec_eval.

On the intent data of test_ndeval_reference.py: ``prm.evaluate`` of the
joined frame mixes diversity measures (oracle: pyndeval, ndeval.c 4.5) and
classic ones (oracle: pytrec_eval, on the judgments' highest grade per
item, the reading of an intent frame by a classic metric); a frame without
intents is ndeval's reading of a TREC qrels file (intent "0" throughout);
DataFrame == LazyFrame == streaming == the qrels argument ==
evaluate_chunked, bit for bit.
"""

from __future__ import annotations

import math
import pathlib
import tempfile

import polars as pl
import pytest
import pytrec_eval
from hypothesis import given, settings
from polars.testing import assert_frame_equal
from test_ndeval_reference import OURS, TOLERANCE, intent_data, theirs

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

CLASSIC = {"ndcg@10": "ndcg_cut_10", "P_5": "P_5", "map": "map", "recip_rank": "recip_rank"}
MIXED = ["alpha_ndcg@20", "ndcg@10", "nnrbp", "P_5", "err_ia@5", "map", "strec@3", "recip_rank", "map_ia"]


def _close(got: float, want: float, where: object) -> None:
    want = 0.0 if math.isnan(want) else want  # ndeval divides 0 by 0 for nNRBP without a relevant intent
    assert math.isclose(got, want, abs_tol=TOLERANCE), (where, got, want)


def _pytrec(run: pl.DataFrame, qrels: pl.DataFrame) -> dict[str, dict[str, float]]:
    """pytrec_eval on the highest grade of each judged item (an item relevant to an intent is relevant)."""
    best = qrels.group_by("query", "item").agg(pl.col("relevance").max())
    judged: dict[str, dict[str, int]] = {}
    for q, item, grade in best.iter_rows():
        judged.setdefault(q, {})[item] = int(grade)
    scored: dict[str, dict[str, float]] = {}
    for q, item, score in run.iter_rows():
        scored.setdefault(q, {})[item] = float(score)
    measures = {"ndcg_cut", "P", "map", "recip_rank"}
    return pytrec_eval.RelevanceEvaluator(judged, measures).evaluate(scored)


@settings(max_examples=max(15, settings().max_examples // 4))
@given(data=intent_data())
def test_evaluate_mixes_diversity_and_classic_metrics(data: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    run, qrels = data
    got = prm.evaluate(prm.join_run_qrels(run, qrels), MIXED, per_query=True)
    diversity, classic = theirs(run, qrels, 0.5, 0.5), _pytrec(run, qrels)
    rows = {row.pop("query"): row for row in got.iter_rows(named=True)}
    assert rows.keys() == diversity.keys()
    for query, row in rows.items():
        for name, value in row.items():
            want = classic[query][CLASSIC[name]] if name in CLASSIC else diversity[query][name]
            _close(value, want, (query, name))


@settings(max_examples=max(10, settings().max_examples // 6))
@given(data=intent_data())
def test_a_frame_without_intents_is_one_intent_per_query(data: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    run, qrels = data
    plain = qrels.group_by("query", "item").agg(pl.col("relevance").max())
    want = theirs(run, plain.with_columns(intent=pl.lit("0")).select(qrels.columns), 0.5, 0.5)
    got = prm.evaluate(prm.join_run_qrels(run, plain), OURS, per_query=True)
    rows = {row.pop("query"): row for row in got.iter_rows(named=True)}
    assert rows.keys() == want.keys()
    for query, row in rows.items():
        for name, value in row.items():
            _close(value, want[query][name], (query, name))


@settings(max_examples=max(10, settings().max_examples // 6))
@given(data=intent_data())
def test_every_path_gives_the_same_bits(data: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    run, qrels = data
    runs = pl.concat(
        [run.with_columns(model=pl.lit("a")), run.with_columns(model=pl.lit("b"), score=-pl.col("score"))]
    )
    frame = prm.join_run_qrels(runs, qrels, by="model")
    for per_query in (True, False):
        want = prm.evaluate(frame, MIXED, by="model", per_query=per_query)
        lazy = prm.evaluate(frame.lazy(), MIXED, by="model", per_query=per_query)
        assert_frame_equal(lazy.collect(), want, check_exact=True)
        assert_frame_equal(lazy.collect(engine="streaming"), want, check_exact=True)
        joined = prm.evaluate(runs, MIXED, by="model", per_query=per_query, qrels=qrels)
        assert_frame_equal(joined, want, check_exact=True)
        lazily_joined = prm.join_run_qrels(runs.lazy(), qrels.lazy(), by="model")
        chunked = prm.evaluate_chunked(
            lazily_joined, MIXED, by="model", per_query=per_query, rows_per_chunk=5, progress=False
        )
        assert_frame_equal(chunked, want, check_exact=True)
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=1)
    want = prm.evaluate(frame, MIXED, by="model", per_query=True)
    assert_frame_equal(prm.evaluate(shuffled, MIXED, by="model", per_query=True), want, check_exact=True)


def test_alpha_and_beta_are_parameters_of_the_metric() -> None:
    frame = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
                          "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
                          "relevance": [1, 1, 1, None, 1]})  # fmt: skip
    named = prm.evaluate(frame, ["alpha_ndcg(alpha=0.3)@3", "nrbp(0.3,0.8)"])
    built = prm.evaluate(frame, [prm.alpha_ndcg(3, alpha=0.3), prm.nrbp(alpha=0.3, beta=0.8)])
    assert named.row(0) == built.row(0)
    assert built.columns == ["alpha_ndcg(alpha=0.3)@3", "nrbp(alpha=0.3,beta=0.8)"]
    assert frame.rank.alpha_ndcg(3, alpha=0.3).row(0) == named.row(0)[:1]
    with pytest.raises(prm.InvalidParameterError, match="alpha"):
        prm.alpha_ndcg(3, alpha=1.5)


def test_ndeval_qrels_are_read_strictly() -> None:
    path = pathlib.Path(tempfile.mkdtemp()) / "qrels.ndeval"
    path.write_text("# topic subtopic docno judgment\n1 1 d1 1\n1 2 d1 0\n1 2 d2 2\n")
    read = prm.read_trec_qrels(path, intents=True)
    assert read.to_dict(as_series=False) == {"query": ["1", "1", "1"], "intent": ["1", "2", "2"],
                                             "item": ["d1", "d1", "d2"], "relevance": [1, 0, 2]}  # fmt: skip
    assert_frame_equal(prm.scan_trec_qrels(path, intents=True).collect(), read)
    path.write_text("1 1 d1 1\n1 2 d1 x\n")
    with pytest.raises(prm.TrecFormatError, match="line 2"):
        prm.read_trec_qrels(path, intents=True)


def test_an_intent_judged_twice_is_refused() -> None:
    run = pl.DataFrame({"query": ["1"], "item": ["d1"], "score": [1.0]})
    qrels = pl.DataFrame(
        {"query": ["1", "1"], "intent": ["a", "a"], "item": ["d1", "d1"], "relevance": [1, 0]}
    )
    with pytest.raises(prm.InvalidDataError, match=r"\(query, item, intent\)"):
        prm.join_run_qrels(run, qrels)


def test_an_intent_frame_breaking_its_contract_is_refused() -> None:
    frame = pl.DataFrame({"query": ["1"] * 3, "item": ["d1", "d1", "d2"], "score": [3.0, 3.0, 1.0],
                          "intent": ["a", "b", "a"], "relevance": [1, 1, 1]})  # fmt: skip
    assert prm.validate(frame) is None  # one row per (query, item, intent): no duplicate
    scores = frame.with_columns(score=pl.Series([3.0, 2.0, 1.0]))
    twice = frame.with_columns(intent=pl.lit("a"))
    for bad, words in ((scores, "several values of 'score'"), (twice, "more than once for intent a")):
        for metrics in (["alpha_ndcg@2", "ndcg@2"], ["ndcg@2"]):
            with pytest.raises(prm.InvalidDataError, match=r"item d1 of query 1|\(query, item, intent\)"):
                prm.evaluate(bad, metrics)
            with pytest.raises(prm.InvalidDataError, match=words):
                prm.collect(prm.evaluate(bad.lazy(), metrics))
        prm.evaluate(bad, ["alpha_ndcg@2", "ndcg@2"], check=False)  # no check: the item's best score
