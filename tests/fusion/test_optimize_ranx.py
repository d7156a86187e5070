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
from fusion.ranx_oracle import generate, qrels_for, qrels_to_ranx, to_ranx
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
    theirs = _ranx_best(frame, qrels, "rrf", "ndcg@5")
    assert ours.best == {"k": theirs["k"]}
    assert ours.table["k"].to_list() == list(range(10, 101, 10))


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
