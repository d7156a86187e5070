"""fuse() equals ranx's fuse on generated runs: every method, every normalisation, to 1e-12.

Methods that read only scores are compared on runs with ties too; methods
that read each run's order on tie-free runs (ranx orders tied scores by
numba's unstable sort over its dict). ranx's ``borda`` normalisation keeps
its candidates in a Python set's order, which the order-reading methods
then read as the ranking: those pairs are not comparable, and not compared.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import polars as pl
import pytest

import polars_rankmetrics as prm
from fusion.ranx_oracle import (
    assert_same,
    generate,
    ours_as_dict,
    qrels_for,
    qrels_to_ranx,
    ranx_fuse,
    to_ranx,
)

NORMS = ["min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda", None]
SCORE_BASED = ["sum", "mnz", "anz", "max", "min", "med", "gmnz", "wsum", "wmnz", "mixed"]
ORDER_BASED = ["rrf", "isr", "log_isr", "logn_isr", "rbc", "bordafuse", "w_bordafuse"]
ORDER_NORMS = ["rank", "borda"]  # read each run's order: compared on tie-free runs
WEIGHTED = {"wsum", "wmnz", "mixed", "w_bordafuse", "w_condorcet"}
SEEDS = range(4)


def _params(method: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)  # noqa: S311  (test data)
    return {
        "gmnz": {"gamma": rng.choice([0.5, 1.3, -0.2])},
        "rrf": {"k": rng.choice([0, 10, 60])},
        "logn_isr": {"sigma": rng.choice([0.01, 0.5, 1.0])},
        "rbc": {"phi": rng.choice([0.0, 0.5, 0.9, 1.0])},
    }.get(method, {})


def _weights(frame: pl.DataFrame, seed: int) -> dict[str, float]:
    rng = random.Random(seed + 7)  # noqa: S311  (test data)
    return {name: rng.uniform(0, 1) for name in sorted(set(frame["run"]))}


def _compare(frame: pl.DataFrame, method: str, norm: str | None, seed: int) -> None:
    params = _params(method, seed)
    weights = _weights(frame, seed) if method in WEIGHTED else None
    ours = prm.fuse(frame, method, norm=norm, weights=weights, **params)
    theirs_params = {**params, **({"weights": list(weights.values())} if weights else {})}
    assert_same(ours_as_dict(ours), ranx_fuse(to_ranx(frame), method, norm, theirs_params))


@pytest.mark.parametrize("norm", [n for n in NORMS if n not in ORDER_NORMS])
@pytest.mark.parametrize("method", SCORE_BASED)
def test_score_methods_equal_ranx_with_ties(method: str, norm: str | None) -> None:
    for seed in SEEDS:
        _compare(
            generate(seed, ties=True, int_ids=seed % 2 == 1, every_query=norm == "zmuv"), method, norm, seed
        )


@pytest.mark.parametrize("norm", [n for n in NORMS if n != "borda"])
@pytest.mark.parametrize("method", ORDER_BASED)
def test_order_methods_equal_ranx_without_ties(method: str, norm: str | None) -> None:
    for seed in SEEDS:
        _compare(
            generate(seed, ties=False, int_ids=seed % 2 == 0, every_query=norm == "zmuv"), method, norm, seed
        )


@pytest.mark.parametrize("norm", [*ORDER_NORMS, "min-max"])
@pytest.mark.parametrize("method", SCORE_BASED)
def test_score_methods_equal_ranx_without_ties(method: str, norm: str | None) -> None:
    for seed in SEEDS:
        _compare(generate(seed + 50, ties=False, every_query=norm == "zmuv"), method, norm, seed)


def _strict(fused: pl.DataFrame) -> set[str]:
    """Queries whose Condorcet scores are 1..c: their majority relation is a strict order."""
    per_query = fused.group_by("query").agg(
        (pl.col("score").sort() == pl.int_range(1, pl.len() + 1).cast(pl.Float64)).all().alias("strict")
    )
    return {str(q) for q in per_query.filter("strict")["query"]}


@pytest.mark.parametrize("method", ["condorcet", "w_condorcet"])
def test_condorcet_equals_ranx_where_the_majority_is_a_strict_order(method: str) -> None:
    compared = 0
    for seed in range(6):
        frame = generate(seed, ties=False, complete=True, n_runs=3 if seed % 2 else 5)
        names = sorted(set(frame["run"]))
        weights = {n: 2.0 ** -(k + 1) for k, n in enumerate(names)} if method == "w_condorcet" else None
        ours = prm.fuse(frame, method, weights=weights)
        params = {"weights": list(weights.values())} if weights else {}
        theirs = ranx_fuse(to_ranx(frame), method, "min-max", params)
        strict = _strict(ours)
        compared += len(strict)
        keep = {q: d for q, d in ours_as_dict(ours).items() if q in strict}
        assert_same(keep, {q: d for q, d in theirs.items() if q in strict})
    assert compared >= 10


def _trained(method: str, qrels: Any, norm_runs: list[Any], params: dict[str, Any]) -> dict[str, Any]:  # noqa: ANN401
    from ranx import fusion as rf  # noqa: PLC0415

    if method == "bayesfuse":
        return {"log_odds": rf.bayesfuse_train(qrels, norm_runs)}
    if method == "mapfuse":
        return {"map_scores": rf.mapfuse_train(qrels, norm_runs)}
    if method == "probfuse":
        return {"probs": rf.probfuse_train(qrels, norm_runs, params["n_segments"])}
    if method == "slidefuse":
        return {"probs": rf.slidefuse_train(qrels, norm_runs), "w": params["w"]}
    train = {"posfuse": rf.posfuse_train, "segfuse": rf.segfuse_train}[method]
    return {"probs": train(qrels, norm_runs)}


@pytest.mark.parametrize("norm", ["min-max", "zmuv", "rank", None])
@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("bayesfuse", {}),
        ("mapfuse", {}),
        ("posfuse", {}),
        ("segfuse", {}),
        ("probfuse", {"n_segments": 3}),
        ("slidefuse", {"w": 2}),
    ],
)
def test_supervised_methods_equal_ranx(method: str, params: dict[str, Any], norm: str | None) -> None:
    from ranx.normalization import norm_switch  # noqa: PLC0415

    for seed in SEEDS:
        frame = generate(seed + 20, ties=False, int_ids=seed % 2 == 1, every_query=norm == "zmuv")
        qrels = qrels_for(frame, seed)
        runs = to_ranx(frame)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            norm_runs = runs if norm is None else [norm_switch(norm)(r) for r in runs]
            ranx_qrels = qrels_to_ranx(qrels, sorted({str(q) for q in frame["query"]}))
            theirs = ranx_fuse(runs, method, norm, _trained(method, ranx_qrels, norm_runs, params))
        ours = prm.fuse(frame, method, norm=norm, qrels=qrels, **params)
        assert_same(ours_as_dict(ours), theirs)
