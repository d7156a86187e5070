"""user (metrics/user.py): ERR, RBP and its residual against plain implementations from the papers.

ERR (Chapelle, Metzler, Zhang, Grinspan 2009, eq. 3 and algorithm 1):
ERR = sum_r (1/r) R_r prod_{i<r} (1 - R_i), with R_i = (2**g_i - 1) / 2**g_max.
RBP (Moffat and Zobel 2008, eq. 4): RBP = (1 - p) sum_i r_i p**(i - 1), with
trec_eval's grade scaling (grades divided by the query's top grade when it
exceeds 1); the residual is p**n + (1 - p) sum over unjudged ranks of p**(i - 1).
Peer oracles: the trec_eval binary (tests/conformance/), LensKit's RBP
(tests/reference/test_preset_lenskit.py).
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import eval_frames, trec_order

import polars_rankmetrics as prm
from metrics._helpers import DEGENERATE_DATA, per_query

TOLERANCE = 1e-12


def ranked_grades(frame: pl.DataFrame) -> dict[object, tuple[list[float | None], list[float]]]:
    """Per query: grades of the retrieved items in trec_eval order, and all judged grades."""
    out: dict[object, tuple[list[float | None], list[float]]] = {}
    for (query,), rows in frame.group_by("query"):
        retrieved = [(r["item"], r["score"]) for r in rows.iter_rows(named=True) if r["score"] is not None]
        grade = {r["item"]: r["relevance"] for r in rows.iter_rows(named=True)}
        judged = [float(g) for g in grade.values() if g is not None and g >= 0]
        out[query] = ([grade[i] for i in trec_order(retrieved)], judged)
    return out


def err(grades: list[float | None], k: int | None, max_grade: float) -> float:
    p_reach, total = 1.0, 0.0
    for r, g in enumerate(grades[:k] if k else grades, start=1):
        grade = 0.0 if g is None or g < 0 else min(g, max_grade)
        stop = (2**grade - 1) / 2**max_grade
        total += p_reach * stop / r
        p_reach *= 1 - stop
    return total


def rbp(grades: list[float | None], judged: list[float], p: float) -> float:
    top = max(judged, default=0.0)
    scale = top if top > 1 else 1.0
    return (1 - p) * sum(((g or 0.0) if (g or 0.0) > 0 else 0.0) / scale * p**i for i, g in enumerate(grades))


def rbp_resid(grades: list[float | None], p: float) -> float:
    unjudged = [i for i, g in enumerate(grades) if g is None or g < 0]
    return p ** len(grades) + (1 - p) * sum(p**i for i in unjudged) if unjudged else 0.0


@DEGENERATE_DATA
@given(eval_frames(), st.sampled_from([None, 1, 3, 10]), st.sampled_from([1.0, 3.0, 4.0]))
def test_err_matches_the_paper(frame: pl.DataFrame, k: int | None, max_grade: float) -> None:
    metric = prm.err(k, max_grade=max_grade)
    got = per_query(frame, [metric])
    for query, (grades, _) in ranked_grades(frame).items():
        if query in got:
            want = err(grades, k, max_grade)
            assert abs(got[query][str(metric)] - want) <= TOLERANCE, (query, grades, want)


@DEGENERATE_DATA
@given(eval_frames(), st.sampled_from([0.5, 0.8, 0.9, 0.95]))
def test_rbp_and_residual_match_the_paper(frame: pl.DataFrame, p: float) -> None:
    metrics = [prm.rbp(p), prm.rbp_resid(p)]
    got = per_query(frame, metrics)
    for query, (grades, judged) in ranked_grades(frame).items():
        if query in got:
            assert abs(got[query][str(metrics[0])] - rbp(grades, judged, p)) <= TOLERANCE, (query, grades)
            assert abs(got[query][str(metrics[1])] - rbp_resid(grades, p)) <= TOLERANCE, (query, grades)


def test_err_of_a_perfect_single_item_is_its_stop_probability() -> None:
    frame = pl.DataFrame({"query": [1], "item": ["a"], "score": [1.0], "relevance": [4]})
    assert prm.evaluate(frame, [prm.err(10)])["err@10"][0] == 15 / 16


def test_rbp_with_binary_gain_is_lenskits() -> None:
    """The issue's case: rbp(p=0.5) of grades [1, 5] is 0.75 with binary gains (0.35 linear)."""
    frame = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [2.0, 1.0], "relevance": [1, 5]})
    # binary: (1 - 0.5) * (1 + 0.5) = 0.75; linear, scaled by the top grade 5: 0.5 * (1 + 5 * 0.5) / 5
    assert prm.evaluate(frame, ["rbp(p=0.5)"], gain="binary").item() == pytest.approx(0.75)
    assert prm.evaluate(frame, ["rbp(p=0.5)"]).item() == pytest.approx(0.35)
    # err reads a relevant item's gain 1 as its grade: R = 1/16 at both ranks.
    r = 1 / 16
    assert prm.evaluate(frame, ["err"], gain="binary").item() == pytest.approx(r + (1 - r) * r / 2)
