"""preset="ranx" against ranx on generated frames without ties.

ranx raises when a judged query is missing from the run unless
``make_comparable=True``, which gives it an empty ranking: it scores 0 and
counts (``missing="zero"``); run-only queries are dropped, as here. ranx
orders tied scores by numpy's unstable argsort of the insertion order, which
no convention can reproduce: the frames here have distinct scores (the
trec_eval order of a generated frame, written as scores), and the preset
keeps trec_eval's text order for ties. ranx's gains come only from items at
or above the relevance level (``clean_qrels``), ours from every judged grade:
equal at the default level 1 with integer grades, which is what is compared.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import example, given, settings
from peers import UNANSWERED, as_dicts, without_ties
from ranx import Qrels, Run, evaluate
from strategies import POPULATION, eval_frames

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

TOLERANCE = 1e-9
NAMES = [
    "ndcg@5", "ndcg", "precision@5", "recall@10", "map", "map@5", "mrr", "mrr@3",
    "r-precision", "hit_rate@3", "f1@5", "hits@3", "hits",
]  # fmt: skip


def check(frame: pl.DataFrame) -> None:
    frame = without_ties(frame)
    qrels, run = as_dicts(frame)
    answered = {q: docs for q, docs in run.items() if q in qrels}
    if not answered:
        return  # ranx cannot build an empty Qrels or Run (it raises)
    peer_run = Run(answered)
    evaluate(Qrels(qrels), peer_run, NAMES, make_comparable=True)
    out = prm.evaluate(frame, NAMES, per_query=True, preset="ranx")
    got = {str(row[0]): dict(zip(NAMES, row[1:], strict=True)) for row in out.iter_rows()}
    assert sorted(got) == sorted(qrels), frame
    bad = [
        f"{q} {m}: ours {got[q][m]!r}, ranx {float(peer_run.scores[m][q])!r}"
        for m in NAMES
        for q in qrels
        if abs(got[q][m] - float(peer_run.scores[m][q])) > TOLERANCE
    ]
    assert not bad, "\n".join([*bad, str(frame)])


@given(eval_frames())
@example(POPULATION)
@settings(max_examples=30)  # ranx recompiles (numba) for some inputs: up to seconds a call
def test_ranx_preset_matches_ranx_without_ties(frame: pl.DataFrame) -> None:
    check(frame)


def test_unanswered_judged_query_scores_zero_and_counts() -> None:
    frame = UNANSWERED
    check(frame)
    assert prm.evaluate(frame, ["ndcg@5"], preset="ranx").item() == 0.5
    assert prm.evaluate(frame, ["ndcg@5"]).item() == 1.0  # trec_eval skips q2
