"""preset="torchmetrics" against torchmetrics' retrieval metrics (the ``oracles`` extra), metric by metric.

torchmetrics reads one list of (prediction, target) pairs per query (its
``indexes``): every item of the list has a target, 0 for one nobody judged
(written here as a null grade, so at least one item of a query is graded:
a query with no judged row is not evaluated, DESIGN section 3). Its rules,
read in ``torchmetrics/functional/retrieval/*.py`` and ``retrieval/base.py``
(1.9):

- RetrievalNormalizedDCG averages gains over tied predictions (scikit-learn's
  ``_tie_average_dcg``): ``ties="average"``, compared on lists with ties; the
  ideal list is the list's targets, best first (every item is ranked).
- RetrievalMAP, RetrievalMRR, RetrievalPrecision and RetrievalRecall zero the
  target of an item predicted ``<= 0``: such an item is "not retrieved" (a
  null score here); RetrievalMAP divides by the relevant items found in the
  top k (``ap_denominator="found"``). Their order inside a tie is
  ``torch.topk``'s, which no rule reproduces: compared on tie-free lists.
- RetrievalHitRate, RetrievalRPrecision and nDCG rank every item, whatever
  its prediction: compared on lists whose items are all retrieved (positive
  predictions). So is precision without a cutoff, which divides by the
  list's length, unretrieved items included.
- A query without a relevant item scores 0 and counts (``empty_target_action
  ="neg"``, the default); so does one with no item predicted above 0
  (``missing="zero"``).
- Binary metrics take ``target = grade >= 1`` (negative grades are not
  relevant: as here); nDCG takes the grade as gain, and a negative one as a
  negative gain where we give 0 (README: presets), so nDCG is compared on
  grades >= 0.
- torchmetrics computes in float32: values agree to 1e-6, not 1e-9.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from peers import oracle

import polars_rankmetrics as prm

torch = oracle("torch")
tm = oracle("torchmetrics")
F = oracle("torchmetrics.functional.retrieval")

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

TOLERANCE = 1e-6  # torchmetrics' float32
CUTOFFS = (1, 2, 3, 5, 10)
TIED_SCORES = (0.5, 1.0, 2.0, 4.0)  # four values over up to eight items: ties are common
SCHEMA = {"query": pl.String, "item": pl.String, "score": pl.Float64, "relevance": pl.Int64}


@st.composite
def lists(draw: st.DrawFn, *, ties: bool, unretrieved: bool, negative: bool) -> pl.DataFrame:
    """Up to five queries of 1..8 items; scores tied or distinct, some unretrieved (null), grades."""
    grades = (None, 0, 0, 1, 2, 3, *((-1,) if negative else ()))
    rows = []
    for query in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 8))
        graded = [draw(st.sampled_from(grades)) for _ in range(n)]
        if all(g is None for g in graded):
            graded[0] = 0  # a query with no judged row is not evaluated (module docstring)
        if ties:
            scores: list[float | None] = [draw(st.sampled_from(TIED_SCORES)) for _ in range(n)]
        else:
            scores = [float(s) for s in draw(st.permutations(range(1, n + 1)))]
        if unretrieved:
            scores = [None if draw(st.booleans()) and draw(st.booleans()) else s for s in scores]
        rows += [(f"q{query}", f"d{i}", s, g) for i, (s, g) in enumerate(zip(scores, graded, strict=True))]
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")


def tensors(rows: pl.DataFrame, *, graded: bool) -> tuple[object, object]:
    """One query's (preds, target): an unretrieved item predicted -1; the grade or ``grade >= 1``."""
    preds = torch.tensor([-1.0 if s is None else s for s in rows["score"]], dtype=torch.float32)
    grades = [g or 0 for g in rows["relevance"]]
    target = [g if graded else int(g >= 1) for g in grades]
    return preds, torch.tensor(target, dtype=torch.long)


def by_query(frame: pl.DataFrame) -> dict[str, pl.DataFrame]:
    return {str(q): rows for (q,), rows in frame.group_by(["query"])}


def compare(frame: pl.DataFrame, named: dict[str, tuple[object, bool]], **conventions: object) -> None:
    """Ours (preset="torchmetrics") against torchmetrics per query and as means over queries.

    `named` maps our metric name to (torchmetrics' class instance, whether it takes graded targets).
    """
    names = list(named)
    ours = prm.evaluate(frame, names, per_query=True, preset="torchmetrics", **conventions)
    got = {row[0]: row[1:] for row in ours.iter_rows()}
    queries = by_query(frame)
    assert sorted(got) == sorted(queries)
    bad = []
    for j, (name, (metric, graded)) in enumerate(named.items()):
        for i, (query, rows) in enumerate(sorted(queries.items())):
            preds, target = tensors(rows, graded=graded)
            metric.update(preds, target, indexes=torch.full_like(target, i))
            # Per query: the class's own rule for a query without a relevant item, then its metric.
            want = metric._metric(preds, target).item() if target.sum() else 0.0  # noqa: SLF001
            if abs(got[query][j] - want) > TOLERANCE:
                bad.append(f"{query} {name}: ours {got[query][j]!r}, torchmetrics {want!r}")
        mean = prm.evaluate(frame, [name], preset="torchmetrics", **conventions).item()
        want_mean = metric.compute().item()
        if abs(mean - want_mean) > TOLERANCE:
            bad.append(f"mean {name}: ours {mean!r}, torchmetrics {want_mean!r}")
    assert not bad, "\n".join([*bad, str(frame)])


@given(frame=lists(ties=True, unretrieved=False, negative=False), k=st.sampled_from(CUTOFFS))
def test_ndcg_with_ties(frame: pl.DataFrame, k: int) -> None:
    compare(
        frame,
        {
            f"ndcg@{k}": (tm.retrieval.RetrievalNormalizedDCG(top_k=k), True),
            "ndcg": (tm.retrieval.RetrievalNormalizedDCG(), True),
        },
    )


@given(frame=lists(ties=False, unretrieved=True, negative=True), k=st.sampled_from(CUTOFFS))
def test_ap_rr_precision_recall_with_unretrieved_items(frame: pl.DataFrame, k: int) -> None:
    # Tie-free: ties="text" equals every order, and map@k with ap_denominator="found" needs it.
    compare(
        frame,
        {
            f"map@{k}": (tm.retrieval.RetrievalMAP(top_k=k), False),
            "map": (tm.retrieval.RetrievalMAP(), False),
            f"mrr@{k}": (tm.retrieval.RetrievalMRR(top_k=k), False),
            "mrr": (tm.retrieval.RetrievalMRR(), False),
            f"precision@{k}": (tm.retrieval.RetrievalPrecision(top_k=k), False),
            f"recall@{k}": (tm.retrieval.RetrievalRecall(top_k=k), False),
            "recall": (tm.retrieval.RetrievalRecall(), False),
        },
        ties="text",
    )


@given(frame=lists(ties=False, unretrieved=False, negative=True), k=st.sampled_from(CUTOFFS))
def test_hit_rate_r_precision_precision_on_ranked_lists(frame: pl.DataFrame, k: int) -> None:
    compare(
        frame,
        {
            f"hit_rate@{k}": (tm.retrieval.RetrievalHitRate(top_k=k), False),
            "hit_rate": (tm.retrieval.RetrievalHitRate(), False),
            "r_precision": (tm.retrieval.RetrievalRPrecision(), False),
            "precision": (tm.retrieval.RetrievalPrecision(), False),
            f"precision@{k}": (tm.retrieval.RetrievalPrecision(top_k=k), False),
        },
    )


def test_ap_denominators_by_hand() -> None:
    # Relevant items at ranks 2 and 4 of five, a third relevant item unretrieved; AP@3 finds one.
    frame = pl.DataFrame(
        {
            "query": ["q"] * 6,
            "item": list("abcdef"),
            "score": [5.0, 4.0, 3.0, 2.0, 1.0, None],
            "relevance": [0, 1, 0, 1, 0, 1],
        }
    )
    preds, target = tensors(frame, graded=False)
    want = F.retrieval_average_precision(preds, target, top_k=3).item()
    assert want == pytest.approx(0.5)  # (1/2) / 1 found
    ours = prm.evaluate(frame, ["map@3", "map"], preset="torchmetrics", ties="text").row(0)
    assert ours == pytest.approx((want, (1 / 2 + 2 / 4) / 2), abs=1e-12)
    assert prm.evaluate(frame, ["map@3"]).item() == pytest.approx(0.5 / 3)  # trec_eval: over R


def test_ties_averaged_in_ndcg_by_hand() -> None:
    frame = pl.DataFrame(
        {"query": ["q"] * 3, "item": ["a", "b", "c"], "score": [1.0, 1.0, 0.5], "relevance": [3, 0, 1]}
    )
    preds, target = tensors(frame, graded=True)
    want = F.retrieval_normalized_dcg(preds, target).item()
    assert prm.evaluate(frame, ["ndcg"], preset="torchmetrics").item() == pytest.approx(want, abs=TOLERANCE)
    assert prm.evaluate(frame, ["ndcg"]).item() != pytest.approx(want, abs=1e-3)  # text order differs


def test_map_at_k_refuses_average_ties() -> None:
    frame = pl.DataFrame({"query": ["q"] * 2, "item": ["a", "b"], "score": [1.0, 1.0], "relevance": [1, 0]})
    with pytest.raises(prm.InvalidParameterError, match=r"ap_denominator='found'.*ties='text'"):
        prm.evaluate(frame, ["map@1"], preset="torchmetrics")
