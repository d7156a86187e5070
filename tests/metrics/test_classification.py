"""classification (metrics/classification.py): F-beta, fall-out, AUROC, recall at precision, the PR curve.

The peer oracles are here, with the peers' own documented examples (at the end):

- F-beta: ir_measures' ``SetF(beta=beta**2)`` (trec_eval's ``set_F``) for the
  whole list, on generated data too; a plain reference from the definition for cutoffs.
- AUROC: scikit-learn's ``roc_auc_score`` per query, the score being the
  position in trec_eval's order (ties broken as every metric breaks them),
  judged unretrieved items tied below every retrieved one.
- Fall-out, recall at fixed precision, the precision-recall curve: plain
  references written from torchmetrics' ``retrieval_fall_out``,
  ``retrieval_precision_recall_curve`` and ``_retrieval_recall_at_fixed_precision``
  (torch is not installable here), over the judged list in trec_eval's order.
"""

from __future__ import annotations

import math
from typing import Any

import ir_measures
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from strategies import eval_frames, trec_order

import polars_rankmetrics as prm
from metrics._helpers import DEGENERATE_DATA, per_query

TOLERANCE = 1e-9
CUTOFFS = (1, 3, 10, None)


class Query:
    """One query of a frame: its ranking (grades in trec_eval order) and every judged grade."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        retrieved = [(r["item"], r["score"]) for r in rows if r["score"] is not None]
        grade = {r["item"]: r["relevance"] for r in rows}
        self.ranked: list[int | None] = [grade[i] for i in trec_order(retrieved)]
        self.unretrieved: list[int] = [r["relevance"] for r in rows if r["score"] is None]
        judged = [g for g in grade.values() if g is not None and g >= 0]
        self.n_rel = sum(g >= 1 for g in judged)
        self.n_nonrel = sum(g == 0 for g in judged)

    def relevant(self, k: int | None) -> list[float]:
        """Torchmetrics' target over the top `k`, padded with zeros to `k`."""
        top = [1.0 if g is not None and g >= 1 else 0.0 for g in self.ranked][:k]
        return top + [0.0] * ((k or 0) - len(top))


def queries(frame: pl.DataFrame) -> dict[object, Query]:
    """The evaluated queries (judged, retrieved something), as evaluate counts them."""
    out = {}
    for (query,), rows in frame.group_by("query"):
        listed = list(rows.iter_rows(named=True))
        if any(r["relevance"] is not None for r in listed) and any(r["score"] is not None for r in listed):
            out[query] = Query(listed)
    return out


def assert_close(got: dict[object, dict[str, float]], want: dict[object, dict[str, float]]) -> None:
    assert got.keys() == want.keys()
    for query, values in want.items():
        for name, value in values.items():
            assert math.isclose(got[query][name], value, rel_tol=0, abs_tol=TOLERANCE), (query, name)


def f_beta(q: Query, k: int | None, beta: float) -> float:
    top = q.relevant(None)[:k] if k else q.relevant(None)
    found = sum(top)
    precision = found / (k or len(q.ranked)) if (k or q.ranked) else 0.0
    recall = found / q.n_rel if q.n_rel else 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall) if precision + recall else 0.0


def fallout(q: Query, k: int | None) -> float:
    # retrieval_fall_out: (1 - target) of the top k over all (1 - target); judged non-relevant only.
    top = q.ranked[:k] if k else q.ranked
    return sum(g == 0 for g in top) / q.n_nonrel if q.n_nonrel else 0.0


def pr_curve(q: Query, k: int) -> tuple[list[float], list[float]]:
    # retrieval_precision_recall_curve, adaptive_k=False: cumsum of the padded top k over 1..k and over R.
    relevant, cumulative, running = q.relevant(k), [], 0.0
    for value in relevant:
        running += value
        cumulative.append(running)
    if not q.n_rel:
        return [0.0] * k, [0.0] * k
    return [c / (j + 1) for j, c in enumerate(cumulative)], [c / q.n_rel for c in cumulative]


def recall_at_precision(q: Query, k: int | None, min_precision: float) -> float:
    # _retrieval_recall_at_fixed_precision: the largest recall whose precision reaches the minimum, else 0.
    precision, recall = pr_curve(q, k or max(len(q.ranked), 1))
    return max((r for p, r in zip(precision, recall, strict=True) if p >= min_precision), default=0.0)


def auroc(q: Query, max_fpr: float | None = None) -> float:
    judged = [(g, -float(i)) for i, g in enumerate(q.ranked) if g is not None and g >= 0]
    judged += [(g, -math.inf) for g in q.unretrieved if g is not None and g >= 0]
    labels = [int(g >= 1) for g, _ in judged]
    if len(set(labels)) < 2:
        return 0.0
    return float(roc_auc_score(labels, [s if s != -math.inf else -1e9 for _, s in judged], max_fpr=max_fpr))


@DEGENERATE_DATA
@given(
    frame=eval_frames(),
    beta=st.sampled_from([0.5, 1.0, 2.0, 0.25]),
    max_fpr=st.sampled_from([0.05, 0.2, 1 / 3, 0.5, 0.9]),
)
def test_f_beta_fallout_auroc_match_their_references(
    frame: pl.DataFrame, beta: float, max_fpr: float
) -> None:
    partial = prm.auroc(max_fpr=max_fpr)
    metrics = [prm.f_beta(k, beta=beta) for k in CUTOFFS] + [prm.fallout(k) for k in CUTOFFS]
    metrics += [prm.auroc(), partial]
    want = {
        query: {
            **{str(prm.f_beta(k, beta=beta)): f_beta(q, k, beta) for k in CUTOFFS},
            **{str(prm.fallout(k)): fallout(q, k) for k in CUTOFFS},
            "auroc": auroc(q),
            str(partial): auroc(q, max_fpr),
        }
        for query, q in queries(frame).items()
    }
    assert_close(per_query(frame, metrics), want)


@DEGENERATE_DATA
@given(frame=eval_frames(), p=st.sampled_from([0.0, 0.2, 1 / 3, 0.5, 2 / 3, 0.75, 1.0]))
def test_recall_at_precision_matches_torchmetrics_reference(frame: pl.DataFrame, p: float) -> None:
    metrics = [prm.recall_at_precision(k, precision=p) for k in CUTOFFS]
    want = {
        query: {str(prm.recall_at_precision(k, precision=p)): recall_at_precision(q, k, p) for k in CUTOFFS}
        for query, q in queries(frame).items()
    }
    assert_close(per_query(frame, metrics), want)


def test_ir_measures_set_f_with_beta() -> None:
    # h = 2 of n = 4 retrieved, R = 3. trec_eval's set_F.x (ir_measures' SetF(beta=x)) computes
    # (x + 1) P R / (x P + R) (m_set_F.c): x is beta squared.
    qrels = [ir_measures.Qrel("1", d, g) for d, g in [("a", 1), ("b", 0), ("c", 1), ("d", 1), ("e", 0)]]
    run = [ir_measures.ScoredDoc("1", d, s) for d, s in [("a", 4.0), ("b", 3.0), ("c", 2.0), ("e", 1.0)]]
    frame = pl.DataFrame({"query": ["1"] * 5, "item": ["a", "b", "c", "d", "e"],
                          "score": [4.0, 3.0, 2.0, None, 1.0], "relevance": [1, 0, 1, 1, 0]})  # fmt: skip
    for beta in (0.5, 1.0, 2.0, 3.0):
        (want,) = ir_measures.iter_calc([ir_measures.SetF(beta=beta * beta)], qrels, run)
        got = prm.evaluate(frame, [prm.f_beta(beta=beta)]).item()
        assert math.isclose(got, want.value, abs_tol=TOLERANCE), beta


def test_sklearn_roc_auc_with_score_ties_and_unretrieved() -> None:
    # Distinct scores, so sklearn on the raw scores is the oracle; two judged items never retrieved.
    scores = [0.9, 0.8, 0.7, 0.6, 0.5, None, None]
    grades = [0, 2, 0, 1, None, 1, 0]
    frame = pl.DataFrame({"query": [1] * 7, "item": list("abcdefg"), "score": scores, "relevance": grades})
    judged = [(g, s if s is not None else -1.0) for g, s in zip(grades, scores, strict=True) if g is not None]
    want = roc_auc_score([int(g >= 1) for g, _ in judged], [s for _, s in judged])
    assert prm.evaluate(frame, [prm.auroc()]).item() == pytest.approx(want, abs=TOLERANCE)


@DEGENERATE_DATA
@given(frame=eval_frames(), ks=st.lists(st.integers(1, 12), min_size=1, max_size=4, unique=True))
def test_pr_curve_matches_torchmetrics_reference(frame: pl.DataFrame, ks: list[int]) -> None:
    curve = prm.pr_curve(frame, ks=ks, per_query=True)
    got = {(r["query"], r["k"]): (r["precision"], r["recall"]) for r in curve.iter_rows(named=True)}
    want = {}
    for query, q in queries(frame).items():
        precision, recall = pr_curve(q, max(ks))
        want.update({(query, k): (precision[k - 1], recall[k - 1]) for k in ks})
    assert got.keys() == want.keys()
    for key, (p, r) in want.items():
        assert math.isclose(got[key][0], p, abs_tol=TOLERANCE), key
        assert math.isclose(got[key][1], r, abs_tol=TOLERANCE), key
    mean = prm.pr_curve(frame, ks=ks)
    for row in mean.iter_rows(named=True):  # the mean over queries, as torchmetrics' module returns it
        values = [want[(query, row["k"])] for query in queries(frame)]
        assert math.isclose(row["precision"], sum(p for p, _ in values) / len(values), abs_tol=TOLERANCE)
        assert math.isclose(row["recall"], sum(r for _, r in values) / len(values), abs_tol=TOLERANCE)


def _ir_measures_inputs(frame: pl.DataFrame) -> tuple[pl.DataFrame, list[Any], list[Any]]:
    """The frame without the queries trec_eval cannot evaluate, and its ir_measures qrels and run."""
    # Queries judged only with negative grades crash trec_eval (see test_pytrec_eval.py): left out.
    fine = frame.group_by("query").agg(pl.col("relevance").max().fill_null(0) >= 0).filter("relevance")
    frame = frame.filter(pl.col("query").is_in(fine["query"].implode()))
    qrels = [ir_measures.Qrel(str(r["query"]), str(r["item"]), int(r["relevance"]))
             for r in frame.iter_rows(named=True) if r["relevance"] is not None]  # fmt: skip
    run = [ir_measures.ScoredDoc(str(r["query"]), str(r["item"]), float(r["score"]))
           for r in frame.iter_rows(named=True) if r["score"] is not None]  # fmt: skip
    return frame, qrels, run


@DEGENERATE_DATA
@given(frame=eval_frames(), beta=st.sampled_from([0.5, 1.0, 2.0]))
def test_f_beta_matches_ir_measures_set_f_on_generated_data(frame: pl.DataFrame, beta: float) -> None:
    frame, qrels, run = _ir_measures_inputs(frame)
    want = {
        m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.SetF(beta=beta * beta)], qrels, run)
    }
    retrieved = {doc.query_id for doc in run}  # ir_measures scores qrels-only queries 0; trec_eval skips them
    want = {query: value for query, value in want.items() if query in retrieved}
    got = {str(q): v for q, v in prm.evaluate(frame, [prm.f_beta(beta=beta)], per_query=True).iter_rows()}
    assert got.keys() == want.keys()
    for query, value in want.items():
        assert math.isclose(got[query], value, abs_tol=TOLERANCE), query


@DEGENERATE_DATA
@given(frame=eval_frames(), beta=st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0, 3.0]))
def test_set_f_is_ir_measures_set_f_bit_for_bit(frame: pl.DataFrame, beta: float) -> None:
    # trec_eval's own weight, unsquared: prm.set_f(beta=x) is SetF(beta=x), computed as m_set_F.c
    # computes it, so the doubles agree exactly, not just closely.
    frame, qrels, run = _ir_measures_inputs(frame)
    retrieved = {doc.query_id for doc in run}  # ir_measures scores qrels-only queries 0; trec_eval skips them
    want = {
        m.query_id: m.value
        for m in ir_measures.iter_calc([ir_measures.SetF(beta=beta)], qrels, run)
        if m.query_id in retrieved
    }
    got = {str(q): v for q, v in prm.evaluate(frame, [prm.set_f(beta=beta)], per_query=True).iter_rows()}
    assert got == want


# The peers' own documented examples, with the values their docs print (torchmetrics, scikit-learn).


def test_torchmetrics_fallout_docstring_example() -> None:
    # RetrievalFallOut(top_k=2) on indexes [0,0,0,1,1,1,1]: tensor(0.5000).
    frame = pl.DataFrame({
        "query": [0, 0, 0, 1, 1, 1, 1],
        "item": ["a", "b", "c", "a", "b", "c", "d"],
        "score": [0.2, 0.3, 0.5, 0.1, 0.3, 0.5, 0.2],
        "relevance": [0, 0, 1, 0, 1, 0, 1],
    })  # fmt: skip
    assert prm.evaluate(frame, [prm.fallout(2)]).item() == 0.5


def test_torchmetrics_precision_recall_curve_docstring_example() -> None:
    # retrieval_precision_recall_curve([0.2, 0.3, 0.5], [True, False, True], max_k=2):
    # precisions [1.0, 0.5], recalls [0.5, 0.5].
    frame = pl.DataFrame({"query": [0, 0, 0], "item": ["a", "b", "c"], "score": [0.2, 0.3, 0.5],
                          "relevance": [1, 0, 1]})  # fmt: skip
    curve = prm.pr_curve(frame, ks=[1, 2])
    assert curve.to_dict(as_series=False) == {"k": [1, 2], "precision": [1.0, 0.5], "recall": [0.5, 0.5]}


def test_sklearn_roc_auc_docstring_style_example() -> None:
    # roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75 (scikit-learn's user guide).
    frame = pl.DataFrame({"query": [1] * 4, "item": ["a", "b", "c", "d"], "score": [0.1, 0.4, 0.35, 0.8],
                          "relevance": [0, 0, 1, 1]})  # fmt: skip
    assert prm.evaluate(frame, [prm.auroc()]).item() == pytest.approx(0.75, abs=1e-12)
