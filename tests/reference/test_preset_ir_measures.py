"""preset="ir_measures" against ir_measures (its pytrec_eval provider) on generated frames with ties.

ir_measures gives every judged query a value: one the run never answered
gets the measure's default, 0 (``missing="zero"``); pytrec_eval computes the
rest, so trec_eval 9's recall levels apply (``iprec_rule="trec_eval_9"``).
The measures are asked for by ir_measures' own names, which our parser reads.
"""

from __future__ import annotations

import ir_measures
import polars as pl
import pytest
from hypothesis import example, given
from peers import UNANSWERED, as_dicts, valid_judgments
from strategies import ALL_TIED_STR, POPULATION, eval_frames

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

TOLERANCE = 1e-9
NAMES = ["nDCG@10", "nDCG", "P@5", "AP", "AP@10", "RR", "R@100", "Rprec", "Success@5", "Bpref", "NumRet"]
LEVELS = ["IPrec@0.3", "IPrec@0.7"]


def check(frame: pl.DataFrame) -> None:
    frame = valid_judgments(frame)
    qrels, run = as_dicts(frame)
    measures = [ir_measures.parse_measure(n) for n in [*NAMES, *LEVELS]]
    want: dict[str, dict[str, float]] = {}
    for metric in ir_measures.iter_calc(measures, qrels, run):
        want.setdefault(metric.query_id, {})[str(metric.measure)] = float(metric.value)
    ours = [*NAMES, "iprec_at_recall(0.3)", "iprec_at_recall(0.7)"]
    out = prm.evaluate(frame, ours, per_query=True, preset="ir_measures")
    got = {str(row[0]): dict(zip([*NAMES, *LEVELS], row[1:], strict=True)) for row in out.iter_rows()}
    assert sorted(got) == sorted(want), frame
    bad = [
        f"{q} {m}: ours {got[q][m]!r}, ir_measures {want[q][m]!r}"
        for q in want
        for m in want[q]
        if abs(got[q][m] - want[q][m]) > TOLERANCE
    ]
    assert not bad, "\n".join([*bad, str(frame)])
    if want:  # and the means: every judged query counts
        means = prm.evaluate(frame, NAMES, preset="ir_measures").row(0, named=True)
        aggregate = {str(m): v for m, v in ir_measures.calc_aggregate(measures, qrels, run).items()}
        assert all(abs(means[n] - aggregate[n]) < TOLERANCE for n in NAMES if n != "NumRet"), (
            means,
            aggregate,
        )


@given(eval_frames())
@example(POPULATION)
@example(ALL_TIED_STR)
def test_ir_measures_preset_matches_ir_measures(frame: pl.DataFrame) -> None:
    check(frame)


def test_unanswered_judged_query_scores_zero_and_counts() -> None:
    frame = UNANSWERED
    check(frame)
    assert prm.evaluate(frame, ["AP"], preset="ir_measures").item() == 0.5
    assert prm.evaluate(frame, ["AP"]).item() == 1.0  # trec_eval skips q2
