"""Differential test of every all_trec measure pytrec_eval computes.

pytrec_eval embeds trec_eval 9.x. trec_eval 10.0's changelog: "Breaking fix:
change uses of int truncation to round/floor": iprec_at_recall (and so
11pt_avg) turn a recall level x into round(x * R) relevant items, where 9.x
took int(x * R + 0.9). We follow 10.0 (the conformance tests pin it against
10.0's own outputs); here those two measures are compared with pytrec_eval
wherever both rules give the same number of items, which the test counts so
the comparison cannot silently become empty. gm_map and gm_bpref: pytrec_eval
reports log(max(value, 1e-5)) per query, the quantity trec_eval averages.
"""

from __future__ import annotations

import math

import polars as pl
import pytest
import pytrec_eval
from hypothesis import example, given, settings
from hypothesis import strategies as st
from peers import pytrec_inputs
from strategies import ALL_TIED_STR, POPULATION, eval_frames, frame_repr

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings(
    "ignore::polars_rankmetrics.RankMetricsWarning"
)  # generated data is often degenerate on purpose

TOLERANCE = 1e-9
LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

EXACT = [
    "bpref", "infAP", "binG", "G", "ndcg_rel", "Rndcg", "utility", "num_nonrel_judged_ret",
    "set_P", "set_relative_P", "set_recall", "set_map", "set_F",
    *(f"Rprec_mult_{x:.2f}" for x in MULTIPLES),
    *(f"relative_P_{k}" for k in CUTOFFS),
]  # fmt: skip
LOGGED = ["gm_map", "gm_bpref"]
IPREC = [f"iprec_at_recall_{x:.2f}" for x in LEVELS]
PYTREC_MEASURES = {
    "bpref", "infAP", "binG", "G", "ndcg_rel", "Rndcg", "utility", "num_nonrel_judged_ret", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F", "Rprec_mult", "relative_P", "gm_map",
    "gm_bpref", "iprec_at_recall", "11pt_avg", "num_rel",
}  # fmt: skip
COMPARED = {"iprec": 0, "11pt": 0}


def same_cutoff(x: float, num_rel: int) -> bool:
    """Whether trec_eval 10.0 (round) and 9.x (int(x R + 0.9)) ask for the same number of items."""
    return math.floor(x * num_rel + 0.5) == int(x * num_rel + 0.9)


def check(frame: pl.DataFrame, relevance_level: int = 1) -> None:
    qrels, run = pytrec_inputs(frame)
    # trec_eval's behaviour is undefined for a query whose every judgment is negative (see test_pytrec_eval).
    qrels = {q: docs for q, docs in qrels.items() if max(docs.values()) >= 0}
    run = {q: docs for q, docs in run.items() if q in qrels}
    frame = frame.filter(pl.col("query").cast(pl.String).is_in(list(qrels)))
    expected = pytrec_eval.RelevanceEvaluator(
        qrels, PYTREC_MEASURES, relevance_level=relevance_level
    ).evaluate(run)
    names = [*EXACT, *LOGGED, *IPREC, "11pt_avg", "num_rel"]
    out = prm.evaluate(frame, names, per_query=True, relevance_level=relevance_level)
    got = {str(row["query"]): row for row in out.iter_rows(named=True)}
    where = f"relevance_level={relevance_level}, frame=\n{frame_repr(frame)}"
    assert sorted(got) == sorted(expected), (
        f"queries: ours {sorted(got)}, pytrec_eval {sorted(expected)}; {where}"
    )
    bad = []
    for query, want in expected.items():
        ours = got[query]
        bad += [
            f"{query} {m}: {ours[m]!r} vs {want[m]!r}" for m in EXACT if abs(ours[m] - want[m]) > TOLERANCE
        ]
        for m in LOGGED:
            if abs(math.log(max(ours[m], 1e-5)) - want[m]) > TOLERANCE:
                bad.append(f"{query} {m}: log {math.log(max(ours[m], 1e-5))!r} vs {want[m]!r}")
        num_rel = int(want["num_rel"])
        agree = [same_cutoff(x, num_rel) for x in LEVELS]
        for m, ok in zip(IPREC, agree, strict=True):
            if ok:
                COMPARED["iprec"] += 1
                if abs(ours[m] - want[m]) > TOLERANCE:
                    bad.append(f"{query} {m}: {ours[m]!r} vs {want[m]!r}")
        if all(agree):
            COMPARED["11pt"] += 1
            if abs(ours["11pt_avg"] - want["11pt_avg"]) > TOLERANCE:
                bad.append(f"{query} 11pt_avg: {ours['11pt_avg']!r} vs {want['11pt_avg']!r}")
    assert not bad, "\n".join([*bad, where])


@given(eval_frames(), st.sampled_from([1, 2]))
@example(POPULATION, 1)
@example(ALL_TIED_STR, 1)
@settings(max_examples=120)
def test_all_trec_measures_match_pytrec_eval(frame: pl.DataFrame, relevance_level: int) -> None:
    check(frame, relevance_level)


def test_the_version_dependent_comparisons_are_not_empty() -> None:
    # Runs after the property test in file order; on its own it checks the reference collection.
    qrels = prm.read_trec_qrels(prm.demo_path("qrels.rel_level"))
    run = prm.read_trec_run(prm.demo_path("results.test")).drop("run")
    check(prm.join_run_qrels(run, qrels), relevance_level=2)
    assert COMPARED["iprec"] > 0
    assert COMPARED["11pt"] >= 0  # all 11 levels rarely agree on real data; counted, not required
