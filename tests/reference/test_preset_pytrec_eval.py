"""preset="pytrec_eval" against pytrec_eval (trec_eval 9.0.x inside) on generated frames with ties.

The default (trec_eval 10.0) and pytrec_eval agree on every all_trec measure
but iprec_at_recall and 11pt_avg, where 10.0 asks for round(x R) relevant
items and 9.x for int(x R + 0.9) (test_pytrec_eval_all_trec compares those
only where both rules agree). Under the preset every level of every query
must match, and the preset must change nothing else.
"""

from __future__ import annotations

import polars as pl
import pytest
import pytrec_eval
from hypothesis import example, given
from hypothesis import strategies as st
from peers import as_dicts, valid_judgments
from strategies import ALL_TIED_STR, POPULATION, eval_frames

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

TOLERANCE = 1e-9
LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
IPREC = [f"iprec_at_recall_{x:.2f}" for x in LEVELS]
OTHERS = ["map", "P_5", "ndcg_cut_10", "recip_rank", "Rprec", "bpref", "num_rel_ret"]


def check(frame: pl.DataFrame, relevance_level: int) -> int:
    """Compare every level and 11pt_avg; return how many (query, level) pairs the two rules split."""
    frame = valid_judgments(frame)
    qrels, run = as_dicts(frame)
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, {"iprec_at_recall", "11pt_avg", *OTHERS}, relevance_level=relevance_level
    )
    want = evaluator.evaluate(run)
    names = [*IPREC, "11pt_avg", *OTHERS]
    out = prm.evaluate(frame, names, per_query=True, preset="pytrec_eval", relevance_level=relevance_level)
    default = prm.evaluate(frame, names, per_query=True, relevance_level=relevance_level)
    got = {str(row["query"]): row for row in out.iter_rows(named=True)}
    assert sorted(got) == sorted(want)
    bad = [
        f"{q} {m}: ours {got[q][m]!r}, pytrec_eval {want[q][m]!r}"
        for q in want
        for m in names
        if abs(got[q][m] - want[q][m]) > TOLERANCE
    ]
    assert not bad, "\n".join([*bad, str(frame)])
    assert out.select(OTHERS).equals(default.select(OTHERS))  # the preset moves only the recall levels
    return sum(out[m].to_list() != default[m].to_list() for m in IPREC)


@given(eval_frames(), st.sampled_from([1, 2]))
@example(POPULATION, 1)
@example(ALL_TIED_STR, 1)
def test_pytrec_eval_preset_matches_every_recall_level(frame: pl.DataFrame, relevance_level: int) -> None:
    check(frame, relevance_level)


def test_the_rules_differ_on_trec_eval_collection() -> None:
    qrels = prm.read_trec_qrels(prm.demo_path("qrels.test"))
    run = prm.read_trec_run(prm.demo_path("results.test")).drop("run")
    frame = prm.join_run_qrels(run, qrels).with_columns(pl.col("relevance").cast(pl.Int64))
    assert check(frame, 1) > 0  # the collection has levels where 9.x and 10.0 disagree: the test can fail
