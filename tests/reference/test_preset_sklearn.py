"""preset="sklearn" against scikit-learn's ndcg_score / dcg_score on generated lists with ties.

scikit-learn scores one row of candidates per query: every candidate has a
score (y_score) and a grade (y_true, 0 for unjudged), nothing is judged but
left out of the list, grades are not negative (it rejects them) and a list
has at least two items (it rejects one). Tied scores share the average gain
of their group (``ignore_ties=False``, its default), which is
``ties="average"``. A list whose every candidate is unjudged (null grade)
scores 0 in scikit-learn (its y_true is all zeros) but is not evaluated
here (no judged row: prm.population's run_only): write sklearn's zeros as grade 0.
Its ``average_precision_score`` is a classifier's AP (a
tie group enters as one threshold), not a ranking AP, so it is not compared.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import dcg_score, ndcg_score

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

TOLERANCE = 1e-9
SCORES = (0.0, 0.5, 1.0, 2.0)  # four values over up to eight items: ties are common
CUTOFFS = (1, 2, 3, 5, 10)


@st.composite
def candidate_lists(draw: st.DrawFn) -> pl.DataFrame:
    """Up to five queries of 2..8 scored candidates, grades 0..4 or unjudged, ties, all-zero lists."""
    rows = []
    for query in range(draw(st.integers(1, 5))):
        n = draw(st.integers(2, 8))
        grades = [draw(st.sampled_from((None, 0, 0, 1, 2, 3, 4))) for _ in range(n)]
        if all(g is None for g in grades):
            grades[0] = 0  # a query with no judged row is not evaluated (module docstring)
        rows += [(f"q{query}", f"d{i}", draw(st.sampled_from(SCORES)), g) for i, g in enumerate(grades)]
    schema = {"query": pl.String, "item": pl.String, "score": pl.Float64, "relevance": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def sklearn_values(frame: pl.DataFrame, k: int) -> dict[str, tuple[float, float, float, float]]:
    """Per query: ndcg@k, dcg@k, ndcg, dcg from scikit-learn (one query per call)."""
    out = {}
    for (query,), rows in frame.group_by(["query"]):
        y_true = [[float(g or 0) for g in rows["relevance"]]]
        y_score = [rows["score"].to_list()]
        out[str(query)] = (
            float(ndcg_score(y_true, y_score, k=k)),
            float(dcg_score(y_true, y_score, k=k)),
            float(ndcg_score(y_true, y_score)),
            float(dcg_score(y_true, y_score)),
        )
    return out


@given(frame=candidate_lists(), k=st.sampled_from(CUTOFFS))
def test_sklearn_preset_matches_ndcg_score_and_dcg_score(frame: pl.DataFrame, k: int) -> None:
    names = [f"ndcg@{k}", f"dcg@{k}", "ndcg", "dcg"]
    ours = prm.evaluate(frame, names, per_query=True, preset="sklearn")
    got = {row[0]: row[1:] for row in ours.iter_rows()}
    want = sklearn_values(frame, k)
    assert sorted(got) == sorted(want)
    bad = [
        f"{q} {name}: ours {g!r}, sklearn {w!r}"
        for q in want
        for name, g, w in zip(names, got[q], want[q], strict=True)
        if abs(g - w) > TOLERANCE
    ]
    assert not bad, "\n".join([*bad, str(frame)])
    # The mean over queries is sklearn's mean over samples (every query counts, all-zero ones as 0).
    mean = prm.evaluate(frame, [f"ndcg@{k}"], preset="sklearn").item()
    assert abs(mean - sum(v[0] for v in want.values()) / len(want)) < TOLERANCE


def test_sklearn_ties_by_hand() -> None:
    # Two items tied at the top, grades 3 and 0: each position holds gain 1.5 in expectation.
    frame = pl.DataFrame(
        {"query": ["q"] * 3, "item": ["a", "b", "c"], "score": [1.0, 1.0, 0.5], "relevance": [3, 0, 1]}
    )
    want = ndcg_score([[3, 0, 1]], [[1.0, 1.0, 0.5]])
    assert prm.evaluate(frame, ["ndcg"], preset="sklearn").item() == pytest.approx(want, abs=1e-12)
    assert prm.evaluate(frame, ["ndcg"]).item() != pytest.approx(want, abs=1e-6)  # text order differs
