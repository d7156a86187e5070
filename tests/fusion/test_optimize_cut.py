"""optimize_fusion's cut plan (a metric at a cutoff) gives each candidate the value of fuse + evaluate.

The oracle is the public path, candidate by candidate: ``fuse`` with the
candidate's weights or k, ``join_run_qrels`` and ``evaluate`` on the
fused run's whole lists, its own ids. The data has tied scores, lists
longer than the cutoff and shorter, items missing from some runs, graded,
zero and negative grades, judged items no run lists, queries no one judged
and judged queries no run lists, string and integer ids.
"""

from __future__ import annotations

import random

import polars as pl
import pytest

import polars_rankmetrics as prm
from fusion.ranx_oracle import generate
from polars_rankmetrics._registry import specs
from polars_rankmetrics.exceptions import InvalidDataError
from polars_rankmetrics.fusion._cut import WIDE_METHODS, cutoff

METRICS = ["ndcg@3", "dcg@3", "precision@3", "recall@4", "f1@3", "map@3", "mrr@2", "hits@3", "hit_rate@3"]


def _qrels(frame: pl.DataFrame, seed: int) -> pl.DataFrame:
    """Grades -1..3 on some listed and unlisted items; one query unjudged, one judged but never listed."""
    rng = random.Random(seed)  # noqa: S311  (test data)
    dtypes = frame.schema
    int_ids = dtypes["item"].is_integer()
    queries = sorted(set(frame["query"]), key=str)
    rows = []
    for q in queries[1:]:  # the first query is listed but never judged
        items = sorted(set(frame.filter(pl.col("query") == q)["item"]), key=str)
        rows += [(q, i, rng.choice([-1, 0, 1, 1, 2, 3])) for i in items if rng.random() < 0.6]
        rows.append((q, 999 if int_ids else "unlisted", rng.choice([0, 2])))
    for n, grade in enumerate([1, 0, -1]):  # judged queries no run lists
        rows.append((10**6 + n if int_ids else f"judged only {n}", 5 if int_ids else "d5", grade))
    schema = {"query": dtypes["query"], "item": dtypes["item"], "relevance": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def _oracle(
    frame: pl.DataFrame,
    qrels: pl.DataFrame,
    method: str,
    candidate: object,
    *,
    evaluation: tuple[str, object],
) -> float:
    """The candidate's metric from fuse + join_run_qrels + evaluate."""
    if method == "rrf":
        fused = prm.fuse(frame, method, k=candidate)  # type: ignore[arg-type]
    else:
        weights = dict(zip(sorted(set(frame["run"])), candidate, strict=True))  # type: ignore[call-overload]
        fused = prm.fuse(frame, method, weights=weights)
    metric, conventions = evaluation
    value = prm.evaluate(prm.join_run_qrels(fused, qrels), metric, conventions=conventions).item()  # type: ignore[arg-type]
    return float(value)


CONVENTIONS: list[object] = [
    "ranx",
    "trec_eval",
    prm.Conventions(relevance_level=2, missing="zero"),
    prm.Conventions(relevance_level=0, missing="zero"),
    prm.Conventions(gain={0: 0.5, 2: 3.0}, missing="zero"),
    prm.Conventions(gain="exponential", ap_denominator="min_k_relevant", no_relevant="skip"),
]


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("method", sorted(WIDE_METHODS))
def test_every_candidate_is_fuse_then_evaluate(method: str, metric: str) -> None:
    conventions = CONVENTIONS[(METRICS.index(metric) + len(method)) % len(CONVENTIONS)]
    assert cutoff(method, metric, conventions) is not None  # the cut plan is the one tested
    for seed in range(2):
        frame = generate(seed + 70, ties=True, int_ids=seed == 1, n_runs=2 + seed, n_queries=7)
        qrels = _qrels(frame, seed)
        grid: list[object] = [1, 2, 60] if method == "rrf" else _weight_grid(2 + seed)
        search = prm.optimize_fusion(frame, qrels, method, metric=metric, grid=grid, conventions=conventions)
        expected = [_oracle(frame, qrels, method, c, evaluation=(metric, conventions)) for c in grid]
        assert search.table[metric].to_list() == expected


def _weight_grid(n_runs: int) -> list[object]:
    """A few weight tuples, one per run: equal, one-sided, negative."""
    return [
        (1.0,) * n_runs,
        (0.0,) * (n_runs - 1) + (1.0,),
        (0.3,) + (0.7,) * (n_runs - 1),
        (-0.5,) + (1.0,) * (n_runs - 1),
    ]


def test_conventions_that_read_past_the_cutoff_evaluate_whole_lists() -> None:
    for conventions in ("sklearn", prm.Conventions(depth=5), prm.Conventions(judged_only=True)):
        assert cutoff("wsum", "ndcg@3", conventions) is None
    assert cutoff("wsum", "map", None) is None  # no cutoff
    assert cutoff("wsum", "err@3", None) is None  # not a cut family
    assert cutoff("w_bordafuse", "ndcg@3", None) is None  # not a wide method
    assert all(specs()[name].top_k_only for name in ("ndcg", "map", "recall"))
    frame = generate(75, ties=True, n_runs=2, n_queries=7)
    qrels = _qrels(frame, 5)
    grid = _weight_grid(2)
    for conventions in ("sklearn", prm.Conventions(judged_only=True)):
        search = prm.optimize_fusion(
            frame, qrels, "wsum", metric="ndcg@3", grid=grid, conventions=conventions
        )
        expected = [_oracle(frame, qrels, "wsum", c, evaluation=("ndcg@3", conventions)) for c in grid]
        assert search.table["ndcg@3"].to_list() == expected


def test_a_run_listing_an_item_twice_raises() -> None:
    frame = generate(76, ties=False, n_runs=2, n_queries=4)
    doubled = pl.concat([frame, frame.head(1)])
    qrels = _qrels(frame, 6)
    with pytest.raises(InvalidDataError, match="duplicate"):
        prm.optimize_fusion(doubled, qrels, "wsum", metric="ndcg@3", step=0.5)
