"""optimize_fusion() finds ranx's best weights and parameters on small generated runs.

The runs list the same items per query with tie-free scores and are fused
unnormalised (min-max puts a 0 and a 1 in every list, and equal weights then
tie items whose 0 and 1 swap), so the fused runs ranx and the library
evaluate have no ties to order differently; every query is judged (ranx
requires the run's and the qrels' queries to match).
"""

from __future__ import annotations

import warnings
from typing import Any

import polars as pl
import pytest

import polars_rankmetrics as prm
from fusion.ranx_oracle import generate, qrels_for, qrels_to_ranx, ranx_fuse, to_ranx
from polars_rankmetrics.fusion._optimize import steps, weight_grid


def _ranx_search(
    frame: pl.DataFrame, qrels: pl.DataFrame, method: str, metric: str, **kwargs: float
) -> tuple[dict[str, Any], list[float]]:
    """Ranx's best parameters and every candidate's metric, in grid order."""
    from ranx import optimize_fusion  # noqa: PLC0415

    runs = to_ranx(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ranx_qrels = qrels_to_ranx(qrels, sorted({str(q) for q in frame["query"]}))
        best, report = optimize_fusion(
            ranx_qrels, runs, norm=None, method=method, metric=metric, show_progress=False,
            return_optimization_report=True, **kwargs,
        )  # fmt: skip
    return best, list(report.results)


def _ranx_best(
    frame: pl.DataFrame, qrels: pl.DataFrame, method: str, metric: str, **kwargs: float
) -> dict[str, Any]:
    return _ranx_search(frame, qrels, method, metric, **kwargs)[0]


@pytest.mark.parametrize("method", ["wsum", "mixed", "wmnz"])
@pytest.mark.parametrize(("n_runs", "step"), [(2, 0.1), (3, 0.25)])
def test_best_weights_equal_ranx(method: str, n_runs: int, step: float) -> None:
    for seed in range(3):
        frame = generate(seed + 40, ties=False, complete=True, n_runs=n_runs, n_queries=8)
        qrels = qrels_for(frame, seed)
        ours = prm.optimize_fusion(frame, qrels, method, metric="ndcg@10", step=step, norm=None)
        theirs, report = _ranx_search(frame, qrels, method, "ndcg@10", step=step)
        assert list(ours.best["weights"].values()) == list(theirs["weights"])  # type: ignore[attr-defined]
        assert ours.table.height == len(weight_grid(n_runs, step)) == len(report)
        for got, expected in zip(ours.table["ndcg@10"], report, strict=True):
            assert abs(got - expected) <= 1e-12


def test_best_gamma_equals_ranx_when_every_candidate_ties() -> None:
    """Complete runs: every gamma ranks alike, so ranx's rule picks the last candidate."""
    frame = generate(3, ties=False, complete=True, n_runs=2)
    qrels = qrels_for(frame, 3)
    ours = prm.optimize_fusion(frame, qrels, "gmnz", metric="map", step=0.1, norm=None)
    theirs = _ranx_best(frame, qrels, "gmnz", "map", step=0.1)
    assert ours.best == {"gamma": theirs["gamma"]} == {"gamma": 1.0}
    assert ours.table["map"].n_unique() == 1


def test_best_k_equals_ranx_on_three_runs() -> None:
    frame = generate(5, ties=False, complete=True, n_runs=3, n_queries=10)
    qrels = qrels_for(frame, 5)
    ours = prm.optimize_fusion(frame, qrels, "rrf", metric="ndcg@5", norm=None)
    theirs, report = _ranx_search(frame, qrels, "rrf", "ndcg@5")
    assert ours.table["k"].to_list() == list(range(10, 101, 10))
    differ = [
        k
        for k, got, want in zip(ours.table["k"], ours.table["ndcg@5"], report, strict=True)
        if abs(got - want) > 1e-12
    ]
    if not differ:
        assert ours.best == {"k": theirs["k"]}
    # Three runs' reciprocal ranks can sum to equal scores (a tie ranx orders by its unstable sort, the
    # library by item id): a candidate may differ only where its fused run ties.
    for k in differ:
        fused = prm.fuse(frame, "rrf", norm=None, k=k)
        ties = fused.group_by("query", "score").len().filter(pl.col("len") > 1)
        assert ties.height > 0, k
    assert len(differ) <= len(report) // 2


def test_the_grids_are_ranxs() -> None:
    from ranx.fusion_optimization.optimize_weights import (  # noqa: PLC0415
        get_possible_weights,
        get_trial_configs,
    )

    for step in (0.1, 0.2, 0.25, 0.05):
        assert steps(0.0, 1.0, step) == get_possible_weights(step)
        for n in (2, 3):
            assert weight_grid(n, step) == get_trial_configs(get_possible_weights(step), n)


def test_batches_give_the_same_table() -> None:
    frame = generate(8, ties=False, complete=True, n_runs=2)
    qrels = qrels_for(frame, 8)
    whole = prm.optimize_fusion(frame, qrels, "wsum", metric="ndcg@10")
    batched = prm.optimize_fusion(frame, qrels, "wsum", metric="ndcg@10", batch_size=3)
    assert whole.table.equals(batched.table)
    assert whole.best == batched.best


def _ranx_fused(frame: pl.DataFrame, qrels: pl.DataFrame, method: str, value: int) -> pl.DataFrame:
    """Ranx's fused run for one candidate (trained by ranx) as a frame (query, item, score), ids as text."""
    from ranx import fusion as rf  # noqa: PLC0415

    runs = to_ranx(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ranx_qrels = qrels_to_ranx(qrels, sorted({str(q) for q in frame["query"]}))
        if method == "slidefuse":
            params: dict[str, Any] = {"probs": rf.slidefuse_train(ranx_qrels, runs), "w": value}
        else:
            params = {"probs": rf.probfuse_train(ranx_qrels, runs, value)}
        fused = ranx_fuse(runs, method, None, params)
    rows = [(q, d, s) for q, docs in fused.items() for d, s in docs.items()]
    return pl.DataFrame(rows, schema=["query", "item", "score"], orient="row")


def _near_ties(fused: pl.DataFrame) -> bool:
    """Whether two items of a query score within 1e-12 of each other without being equal.

    Probfuse and slidefuse score every item of a segment alike, so their fused runs tie
    by construction; ranx and the library round the trained probabilities differently in the
    last bit, so a tie in one run can be two scores an ulp apart in the other, ordered apart.
    """
    gaps = fused.sort("query", "score").with_columns(pl.col("score").diff().over("query").alias("gap"))
    return gaps.filter((pl.col("gap") > 0) & (pl.col("gap") < 1e-12)).height > 0


def _ranx_fused_metric(frame: pl.DataFrame, qrels: pl.DataFrame, method: str, value: int) -> float:
    """Ranx's fused run for one candidate (trained by ranx), evaluated by prm.evaluate.

    The fused runs of these methods tie often, and ranx orders ties its own
    way; evaluating ranx's fused scores with the library's order isolates
    what optimize_fusion adds: the training, the fusion and the grid per candidate.
    """
    run = _ranx_fused(frame, qrels, method, value)
    judged = qrels.with_columns(pl.col("query").cast(pl.String), pl.col("item").cast(pl.String))
    return float(prm.evaluate(prm.join_run_qrels(run, judged), "ndcg@10", conventions="ranx").item())


@pytest.mark.parametrize(("method", "param"), [("slidefuse", "w"), ("probfuse", "n_segments")])
def test_every_candidate_of_a_supervised_method_is_ranxs(method: str, param: str) -> None:
    """Each candidate's metric is that of ranx's fused run; the best is the last of the highest."""
    grid = range(1, 7)
    for seed in range(2):
        frame = generate(seed + 60, ties=False, complete=True, n_runs=2, n_queries=8)
        qrels = qrels_for(frame, seed)
        ours = prm.optimize_fusion(frame, qrels, method, metric="ndcg@10", norm=None, grid=grid)
        expected = [_ranx_fused_metric(frame, qrels, method, v) for v in grid]
        ours_fused = [prm.fuse(frame, method, norm=None, qrels=qrels, **{param: v}) for v in grid]
        exact = 0
        for v, got, want, fused in zip(grid, ours.table["ndcg@10"], expected, ours_fused, strict=True):
            if abs(got - want) <= 1e-12:
                exact += 1
                continue
            # A different value only where the two fused runs hold near-ties (an ulp apart).
            near = _near_ties(_ranx_fused(frame, qrels, method, v)) or _near_ties(
                fused.select(pl.col("query").cast(pl.String), pl.col("item").cast(pl.String), "score")
            )
            assert near, (method, v, got, want)
        assert exact >= len(grid) // 2, (method, exact)
        top = max(expected)
        assert ours.best == {param: max(v for v, m in zip(grid, expected, strict=True) if m == top)}
