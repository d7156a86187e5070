"""rbo against the `rbo` package's RBO_ext; compat against ir_measures' Compat."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import ir_measures
import numpy as np
import polars as pl
import pytest
from ir_measures import Compat
from plans import calls_python, fallback_nodes

import polars_rankmetrics as prm
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)


def _ranked(items: list[object], scores: list[float]) -> list[object]:
    """The library's order: score descending, then item id as text descending."""
    return [
        i for i, _ in sorted(zip(items, scores, strict=True), key=lambda r: (r[1], str(r[0])), reverse=True)
    ]


def _runs(seed: int, ints: bool) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Two systems' runs and a reference over 12 queries: overlapping pools, lengths 1 to 15, tied scores."""
    rng = np.random.default_rng(seed)
    run, ref = [], []
    for q in range(12):
        pool = [f"d{i}" for i in rng.permutation(25)] if not ints else [int(i) for i in rng.permutation(25)]
        for system in ("a", "b"):
            n = int(rng.integers(1, 16))
            items = list(rng.choice(len(pool), size=n, replace=False))
            run += [(system, q, pool[i], float(rng.integers(0, 6)), 0) for i in items]
        if q != 11:  # query 11: absent from the reference
            m = int(rng.integers(1, 16))
            items = list(rng.choice(len(pool), size=m, replace=False))
            ref += [(q, pool[i], float(s)) for s, i in zip(rng.permutation(m), items, strict=True)]
    run_df = pl.DataFrame(run, schema=["system", "query", "item", "score", "relevance"], orient="row")
    return run_df, pl.DataFrame(ref, schema=["qid", "doc", "score"], orient="row")


def _rbo_package() -> ModuleType:
    """The `rbo` package: .ci/run installs it (--no-deps: it declares numpy<2) and requires it."""
    if os.environ.get("PRM_REQUIRE_ORACLES"):
        return importlib.import_module("rbo")
    return pytest.importorskip(
        "rbo", reason="the oracle rbo is installed by .ci/run (pip install --no-deps rbo)"
    )


@pytest.mark.oracles
@pytest.mark.parametrize(
    ("seed", "ints", "p"), [(0, False, 0.9), (1, True, 0.8), (2, False, 0.98), (3, True, 0.5)]
)
def test_rbo_matches_the_rbo_package(seed: int, ints: bool, p: float) -> None:
    rbo_package = _rbo_package()
    run, ref = _runs(seed, ints)
    metric = prm.rbo(p=p, reference=ref)
    out = prm.evaluate(
        run.sample(fraction=1.0, shuffle=True, seed=seed), [metric], by="system", per_query=True
    )
    assert out.height == 24
    for system, query, value in out.iter_rows():
        mine = run.filter(system=system, query=query)
        theirs = ref.filter(qid=query)
        s = _ranked(mine["item"].to_list(), mine["score"].to_list())
        t = _ranked(theirs["doc"].to_list(), theirs["score"].to_list())
        expected = rbo_package.RankingSimilarity(s, t).rbo_ext(p=p) if t else 0.0
        assert value == pytest.approx(expected, abs=1e-12), (system, query)
    mean = prm.evaluate(run, [metric], by="system")
    assert mean.sort("system")[str(metric)].to_list() == pytest.approx(
        out.group_by("system").agg(pl.col(str(metric)).mean()).sort("system")[str(metric)].to_list(),
        abs=1e-15,
    )


def test_rbo_reads_a_reference_by_rank_and_is_one_against_itself() -> None:
    run, _ = _runs(5, ints=False)
    a = run.filter(system="a")
    ranks = a.with_columns(pl.col("score").rank("ordinal", descending=True).over("query").alias("rank"))
    # The same order, as ranks: ties between scores were broken by item id, the reference keeps that order.
    ref = a.with_columns(
        pl.struct(pl.col("score"), pl.col("item"))
        .rank("ordinal", descending=True)
        .over("query")
        .alias("rank")
    ).select("query", "item", "rank")
    assert ranks.height == ref.height
    out = prm.evaluate(a, [prm.rbo(reference=ref)], per_query=True)
    assert out["rbo"].to_list() == pytest.approx([1.0] * out.height, abs=1e-12)
    lazy = prm.evaluate(a.lazy(), [prm.rbo(reference=ref.lazy())], per_query=True).collect()
    assert lazy.equals(out)
    streamed = prm.evaluate(a.lazy(), [prm.rbo(reference=ref.lazy())], per_query=True).collect(
        engine="streaming"
    )
    assert streamed.equals(out)
    assert a.rank.rbo(reference=ref).equals(prm.evaluate(a, [prm.rbo(reference=ref)]))


def test_rbo_refusals() -> None:
    run, ref = _runs(0, ints=False)
    run = run.filter(system="a")
    with pytest.raises(InvalidParameterError, match="reference"):
        prm.rbo()
    with pytest.raises(InvalidParameterError, match="reference"):
        prm.rbo(reference={"q": [1]})  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="p"):
        prm.rbo(p=1.0, reference=ref)
    with pytest.raises(ColumnNotFoundError, match="score"):
        prm.evaluate(run, [prm.rbo(reference=ref.select("qid", "doc"))])
    with pytest.raises(ColumnTypeError, match="score"):
        prm.evaluate(run, [prm.rbo(reference=ref.with_columns(pl.col("score").cast(pl.String)))])
    with pytest.raises(ColumnTypeError, match="reference"):
        prm.evaluate(run, [prm.rbo(reference=ref.with_columns(pl.col("doc").str.slice(1).cast(pl.Int64)))])
    with pytest.raises(InvalidDataError, match="more than once"):
        prm.evaluate(run, [prm.rbo(reference=pl.concat([ref, ref.head(1)]))])
    with pytest.raises(InvalidDataError, match="finite"):
        prm.evaluate(run, [prm.rbo(reference=ref.with_columns(score=pl.lit(float("nan"))))])
    with pytest.raises(InvalidParameterError, match="reference"):
        prm.evaluate(run, ["rbo"])


def _judged(seed: int) -> tuple[pl.DataFrame, dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Graded and negative grades, unjudged and unretrieved relevant items, a query without relevant."""
    rng = np.random.default_rng(seed)
    rows, qrels, run = [], {}, {}
    for q in range(15):
        qid = f"q{q}"
        pool = [f"d{i}" for i in range(20)]
        grades = {
            d: int(g) for d, g in zip(pool, rng.integers(-1, 4, size=20), strict=True) if rng.random() < 0.6
        }
        if q == 3:
            grades = dict.fromkeys(list(grades)[:4], 0)  # judged, nothing relevant
        n = int(rng.integers(1, 15))
        retrieved = list(rng.choice(20, size=n, replace=False))
        scores = {pool[i]: float(s) + 1 for s, i in zip(rng.permutation(n), retrieved, strict=True)}
        qrels[qid], run[qid] = grades, scores
        rows += [(qid, d, scores.get(d), grades.get(d)) for d in pool if d in grades or d in scores]
    return pl.DataFrame(rows, schema=["query", "item", "score", "relevance"], orient="row"), qrels, run


@pytest.mark.parametrize(("seed", "p"), [(0, 0.95), (1, 0.8), (2, 0.5)])
def test_compat_matches_ir_measures(seed: int, p: float) -> None:
    df, qrels, run = _judged(seed)
    out = prm.evaluate(df, [prm.compat(p=p)], per_query=True)
    expected = {m.query_id: m.value for m in ir_measures.iter_calc([Compat(p=p)], qrels, run)}
    got = dict(out.iter_rows())
    assert set(got) == set(expected)
    for query, value in expected.items():
        assert got[query] == pytest.approx(value, abs=1e-12), query
    assert got["q3"] == 0.0
    assert str(prm.parse("Compat(p=0.8)")) == "compat(p=0.8)"


def test_rbo_plan_streams_without_python() -> None:
    """The side input's plan, like every metric's: no Python UDF, no in-memory fallback when streaming."""
    run, ref = _runs(4, ints=False)
    for per_query in (True, False):
        plan = prm.evaluate(
            run.lazy(), [prm.rbo(reference=ref.lazy()), prm.compat()], by="system", per_query=per_query
        )
        assert not calls_python(plan)
        assert not fallback_nodes(plan), fallback_nodes(plan)[:1]
