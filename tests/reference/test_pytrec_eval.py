"""Differential tests: evaluate() against pytrec_eval on generated frames (CONTRIBUTING.md).

pytrec_eval is a test dependency (the ``test`` extra), so it is imported
plainly: a missing oracle fails the suite instead of skipping it.

pytrec_eval evaluates the queries present both in the run and in the
qrels, exactly the population of our default ``missing="skip"``: a judged
query with no retrieved item and a run-only query are both left out.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest
import pytrec_eval
from hypothesis import example, given
from hypothesis import strategies as st
from peers import pytrec_inputs
from strategies import (
    ALL_TIED_INT,
    ALL_TIED_STR,
    EMPTY_INT,
    EMPTY_STR,
    NEGATIVE_ONLY,
    ONLY_UNJUDGED,
    POPULATION,
    eval_frames,
    frame_repr,
)

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings(
    "ignore::polars_rankmetrics.RankMetricsWarning"
)  # generated data is often degenerate on purpose

TOLERANCE = 1e-9

MEASURES = (
    "P_5",
    "P_10",
    "recall_5",
    "recall_100",
    "map",
    "map_cut_5",
    "map_cut_100",
    "ndcg",
    "ndcg_cut_5",
    "ndcg_cut_10",
    "recip_rank",
    "Rprec",
    "success_1",
    "success_5",
    "num_ret",
    "num_rel",
    "num_rel_ret",
)

Scores = dict[str, dict[str, float]]  # {query: {measure: value}}


def pytrec_scores(frame: pl.DataFrame, *, relevance_level: int = 1, depth: int | None = None) -> Scores:
    """Per-query values from pytrec_eval: {query: {measure: value}}.

    A query whose every judgment is negative is undefined behaviour in
    trec_eval (9.x, embedded in pytrec_eval, and 10.0 alike): form_res_rels.c
    sizes its per-grade counts from the largest grade, ``max_rel + 1``, and
    ``memset``s that many longs, so ``max_rel == -2`` writes a negative size
    (pytrec_eval segfaults) and ``max_rel == -1`` returns UNDEF or garbage
    depending on which query came before. Such queries are judged (they
    have qrels rows) with no relevant item, so by trec_eval's population
    rule they count and score 0; their expected values are written here
    from that rule instead of asking pytrec_eval.
    """
    qrels, run = pytrec_inputs(frame, depth=depth)
    undefined = {q for q, docs in qrels.items() if max(docs.values()) < 0}
    expected: Scores = {
        q: {m: float(len(run[q])) if m == "num_ret" else 0.0 for m in MEASURES} for q in undefined if q in run
    }
    qrels = {q: docs for q, docs in qrels.items() if q not in undefined}
    run = {q: docs for q, docs in run.items() if q not in undefined}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES), relevance_level=relevance_level)
    return {**expected, **evaluator.evaluate(run)}


def our_scores(frame: pl.DataFrame, **conventions: Any) -> Scores:  # noqa: ANN401
    """Per-query values from evaluate(), keyed like pytrec_eval's."""
    out = prm.evaluate(frame, list(MEASURES), per_query=True, **conventions)
    assert out.columns == ["query", *MEASURES]
    return {str(row["query"]): {m: float(row[m]) for m in MEASURES} for row in out.iter_rows(named=True)}


def assert_matches_pytrec_eval(
    frame: pl.DataFrame, *, relevance_level: int = 1, depth: int | None = None, means: bool = False
) -> None:
    """Compare every measure of every query (and, with `means`, the averages) with pytrec_eval."""
    expected = pytrec_scores(frame, relevance_level=relevance_level, depth=depth)
    got = our_scores(frame, relevance_level=relevance_level, depth=depth)
    where = f"relevance_level={relevance_level}, depth={depth}, frame=\n{frame_repr(frame)}"
    assert sorted(got) == sorted(expected), (
        f"evaluated queries differ: ours {sorted(got)}, pytrec_eval {sorted(expected)}; {where}"
    )
    mismatches = [
        f"{query} {m}: ours {got[query][m]!r}, pytrec_eval {expected[query][m]!r}"
        for query in sorted(expected)
        for m in MEASURES
        if abs(got[query][m] - expected[query][m]) > TOLERANCE
    ]
    assert not mismatches, "\n".join([*mismatches, where])
    if not means:
        return

    aggregated = prm.evaluate(frame, list(MEASURES), relevance_level=relevance_level, depth=depth)
    if not expected:
        assert aggregated.is_empty(), f"no evaluated query, yet a result row; {where}"
        return
    assert aggregated.height == 1
    for m in MEASURES:
        values = [expected[q][m] for q in expected]
        want = pytrec_eval.compute_aggregated_measure(m, values)
        ours = aggregated[m][0]
        assert abs(ours - want) <= TOLERANCE, f"mean {m}: ours {ours!r}, pytrec_eval {want!r}; {where}"


@given(frame=eval_frames())
@example(frame=NEGATIVE_ONLY)
@example(frame=EMPTY_STR)
@example(frame=EMPTY_INT)
@example(frame=ONLY_UNJUDGED)
@example(frame=ALL_TIED_INT)
@example(frame=ALL_TIED_STR)
@example(frame=POPULATION)
def test_trec_measures_match_pytrec_eval(frame: pl.DataFrame) -> None:
    assert_matches_pytrec_eval(frame, means=True)


@given(frame=eval_frames())
@example(frame=EMPTY_INT)
@example(frame=ALL_TIED_INT)
@example(frame=POPULATION)
@example(frame=NEGATIVE_ONLY)
def test_trec_measures_match_pytrec_eval_relevance_level_2(frame: pl.DataFrame) -> None:
    assert_matches_pytrec_eval(frame, relevance_level=2)


@given(frame=eval_frames(), depth=st.integers(min_value=1, max_value=6))
@example(frame=EMPTY_STR, depth=1)
@example(frame=ALL_TIED_INT, depth=2)
@example(frame=POPULATION, depth=1)
def test_trec_measures_match_pytrec_eval_at_depth(frame: pl.DataFrame, depth: int) -> None:
    assert_matches_pytrec_eval(frame, depth=depth)


def test_integer_items_tie_break_on_text() -> None:
    # Tied at the top: "9" sorts above "10" as text, so the relevant 9 is first.
    frame = pl.DataFrame({"query": [1, 1], "item": [10, 9], "score": [1.0, 1.0], "relevance": [0, 1]})
    assert_matches_pytrec_eval(frame, means=True)
    assert our_scores(frame)["1"]["recip_rank"] == 1.0
