"""preset="torchmetrics" against torchmetrics' retrieval metrics on generated candidate lists.

torchmetrics scores the candidates it is given, one (pred, target) per row
grouped by a query index: a judgment of an item the run never ranked does
not exist for it, so R and the ideal list come from the candidates
(``judgments="retrieved"``); our frames also carry such qrels-only rows,
which the preset must ignore. A query without a relevant target scores 0
and counts (``empty_target_action="neg"``, the default). RetrievalMAP with
``top_k`` divides by the relevant items found in the top k
(``ap_denominator="found"``). nDCG averages the gains of tied scores
(``ties="average"``); the other metrics take torch.topk's / argsort's order
inside a tie, which is not reproducible, so they are compared on tie-free
lists. Known differences, not generated here: torchmetrics treats a
relevant target whose pred is <= 0 as not relevant in AP, precision,
recall and RR (scores here are positive); its nDCG takes negative targets
as negative gains (we give them 0); a query whose every row is unjudged is
not evaluated here (prm.population: run_only) while torchmetrics sees zeros: its
rows are written as grade 0.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peers import oracle

import polars_rankmetrics as prm

pytestmark = [
    pytest.mark.oracles,
    pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning"),
]

torch = oracle("torch", "oracles")
functional = oracle("torchmetrics.functional.retrieval", "oracles")
retrieval = oracle("torchmetrics.retrieval", "oracles")

TOLERANCE = 1e-6  # torchmetrics computes in float32
CUTOFFS = (1, 2, 3, 5, 10)
TIED_SCORES = (0.25, 0.5, 1.0, 2.0)


@st.composite
def candidate_lists(draw: st.DrawFn, *, graded: bool, tied: bool) -> pl.DataFrame:
    """Up to five queries of 1..8 candidates (positive scores), plus judged items never retrieved."""
    rows = []
    for query in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 8))
        grades = (None, 0, 0, 1, 2, 3) if graded else (None, 0, 0, 1, 1)
        judged = [draw(st.sampled_from(grades)) for _ in range(n)]
        if all(g is None for g in judged):
            judged[0] = 0  # a query with no judged row is not evaluated (module docstring)
        if tied:
            scores = [draw(st.sampled_from(TIED_SCORES)) for _ in range(n)]
        else:
            scores = [float(s) for s in draw(st.permutations(range(1, n + 1)))]
        rows += [(f"q{query}", f"d{i}", scores[i], judged[i]) for i in range(n)]
        # Relevant items the run never retrieved: torchmetrics never sees them.
        rows += [(f"q{query}", f"u{j}", None, 1) for j in range(draw(st.integers(0, 2)))]
    schema = {"query": pl.String, "item": pl.String, "score": pl.Float64, "relevance": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def _tensors(rows: pl.DataFrame) -> tuple[object, object]:
    ranked = rows.filter(pl.col("score").is_not_null())
    preds = torch.tensor(ranked["score"].to_list(), dtype=torch.float64)
    target = torch.tensor(ranked["relevance"].fill_null(0).to_list(), dtype=torch.long)
    return preds, target


def _peer(name: str, k: int, preds: object, target: object) -> float:
    binary = target > 0
    calls = {
        f"ndcg@{k}": lambda: functional.retrieval_normalized_dcg(preds, target, top_k=k),
        "ndcg": lambda: functional.retrieval_normalized_dcg(preds, target),
        f"map@{k}": lambda: functional.retrieval_average_precision(preds, binary, top_k=k),
        "map": lambda: functional.retrieval_average_precision(preds, binary),
        f"mrr@{k}": lambda: functional.retrieval_reciprocal_rank(preds, binary, top_k=k),
        f"precision@{k}": lambda: functional.retrieval_precision(preds, binary, top_k=k),
        "precision": lambda: functional.retrieval_precision(preds, binary),
        f"recall@{k}": lambda: functional.retrieval_recall(preds, binary, top_k=k),
        f"hit_rate@{k}": lambda: functional.retrieval_hit_rate(preds, binary, top_k=k),
        "r_precision": lambda: functional.retrieval_r_precision(preds, binary),
    }
    return float(calls[name]())


def _compare(frame: pl.DataFrame, names: list[str], k: int, **overrides: str) -> None:
    ours = prm.evaluate(frame, names, per_query=True, preset="torchmetrics", **overrides)  # type: ignore[arg-type]
    assert sorted(ours["query"]) == sorted(frame["query"].unique())  # every query counts
    bad = []
    for row in ours.iter_rows(named=True):
        preds, target = _tensors(frame.filter(pl.col("query") == row["query"]))
        for name in names:
            want = _peer(name, k, preds, target)
            if abs(row[name] - want) > TOLERANCE:
                bad.append(f"{row['query']} {name}: ours {row[name]!r}, torchmetrics {want!r}")
    assert not bad, "\n".join([*bad, str(frame)])


@settings(max_examples=60, deadline=None)
@given(frame=candidate_lists(graded=False, tied=False), k=st.sampled_from(CUTOFFS))
def test_binary_metrics_match_on_tie_free_lists(frame: pl.DataFrame, k: int) -> None:
    names = [f"mrr@{k}", f"precision@{k}", "precision", f"recall@{k}", f"hit_rate@{k}", "r_precision", "map"]
    _compare(frame, names, k)
    # AP at a cutoff over the relevant found: ties="average" has no closed form for it (refused).
    _compare(frame, [f"map@{k}"], k, ties="text")


@settings(max_examples=60, deadline=None)
@given(frame=candidate_lists(graded=True, tied=True), k=st.sampled_from(CUTOFFS))
def test_ndcg_matches_on_graded_lists_with_ties(frame: pl.DataFrame, k: int) -> None:
    _compare(frame, [f"ndcg@{k}", "ndcg"], k)


def _module_mean(module: object, frame: pl.DataFrame, *, binary: bool) -> float:
    ranked = frame.filter(pl.col("score").is_not_null())
    indexes = torch.tensor(ranked["query"].str.slice(1).cast(pl.Int64).to_list())
    preds = torch.tensor(ranked["score"].to_list(), dtype=torch.float64)
    target = torch.tensor(ranked["relevance"].fill_null(0).to_list(), dtype=torch.long)
    return float(module(preds, target > 0 if binary else target, indexes=indexes))  # type: ignore[operator]


@settings(max_examples=30, deadline=None)
@given(
    tied=candidate_lists(graded=True, tied=True),
    tie_free=candidate_lists(graded=False, tied=False),
    k=st.sampled_from(CUTOFFS),
)
def test_means_match_the_modules(tied: pl.DataFrame, tie_free: pl.DataFrame, k: int) -> None:
    # The modules group by a query index and average over queries, empty ones scoring 0.
    want = _module_mean(retrieval.RetrievalNormalizedDCG(top_k=k), tied, binary=False)
    got = prm.evaluate(tied, [f"ndcg@{k}"], preset="torchmetrics").item()
    assert abs(got - want) < TOLERANCE
    for module, name in [
        (retrieval.RetrievalRecall(top_k=k), f"recall@{k}"),
        (retrieval.RetrievalMRR(top_k=k), f"mrr@{k}"),
        (retrieval.RetrievalPrecision(top_k=k), f"precision@{k}"),
    ]:
        want = _module_mean(module, tie_free, binary=True)
        got = prm.evaluate(tie_free, [name], preset="torchmetrics").item()
        assert abs(got - want) < TOLERANCE, name


def test_ap_at_a_cutoff_under_averaged_ties_is_refused() -> None:
    frame = pl.DataFrame({"query": ["q"] * 2, "item": ["a", "b"], "score": [1.0, 1.0], "relevance": [1, 0]})
    with pytest.raises(prm.InvalidParameterError, match=r"ap_denominator='found'.*ties='text'"):
        prm.evaluate(frame, ["map@1"], preset="torchmetrics")
