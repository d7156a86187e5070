"""prm.system_agreement and prm.system_swaps against scipy's kendalltau and plain references."""

from __future__ import annotations

import itertools
import math

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

scipy_stats = pytest.importorskip("scipy.stats")

METRICS = ["ndcg@3", "p@2", "map", "mrr"]
# Generated systems may retrieve only unjudged items of a query: evaluate warns, as it should.
pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


@st.composite
def systems_and_two_qrels(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Several systems over a few queries (ties in scores), judged twice, every query judged by both."""
    n_systems = draw(st.integers(2, 6))
    n_queries = draw(st.integers(1, 4))
    items = [f"d{i}" for i in range(6)]
    run_rows, rows_a, rows_b = [], [], []
    for q in range(n_queries):
        judged = draw(st.lists(st.sampled_from(items), min_size=1, max_size=6, unique=True))
        for item in judged:
            rows_a.append((q, item, draw(st.integers(-1, 3))))
            rows_b.append((q, item, draw(st.integers(0, 3))))
        for s in range(n_systems):
            listed = draw(st.lists(st.sampled_from(items), min_size=1, max_size=5, unique=True))
            run_rows += [(f"s{s}", q, item, float(draw(st.integers(0, 3)))) for item in listed]
    run = pl.DataFrame(run_rows, schema=["system", "query", "item", "score"], orient="row")
    qrels = [
        pl.DataFrame(rows, schema=["query", "item", "relevance"], orient="row") for rows in (rows_a, rows_b)
    ]
    return run, qrels[0], qrels[1]


def _tau_ap(truth: list[float], other: list[float]) -> float:
    """Yilmaz, Aslam and Robertson (2008): the systems sorted by `truth`, best first."""
    order = sorted(range(len(truth)), key=lambda i: -truth[i])
    n = len(order)
    total = 0.0
    for pos in range(1, n):
        below = order[pos]
        correct = sum(1 for above in order[:pos] if other[above] > other[below])
        total += correct / pos
    return 2.0 / (n - 1) * total - 1.0


def _top(values: dict[str, float], k: int) -> set[str]:
    ordered = sorted(values, key=lambda s: (-values[s], s))
    return set(ordered[:k])


@settings(max_examples=25)
@given(systems_and_two_qrels(), st.integers(1, 4))
def test_system_agreement_equals_scipy_and_references(
    data: tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame], k: int
) -> None:
    run, qa, qb = data
    got = prm.system_agreement(run, qa, qb, METRICS, k=k)
    ma = prm.evaluate(run, METRICS, by="system", qrels=qa)
    mb = prm.evaluate(run, METRICS, by="system", qrels=qb)
    systems = ma["system"].to_list()
    assert mb["system"].to_list() == systems
    for row in got.iter_rows(named=True):
        x, y = ma[row["metric"]].to_list(), mb[row["metric"]].to_list()
        n = len(systems)
        assert (row["systems"], row["pairs"]) == (n, n * (n - 1) // 2)
        if len(set(x)) == 1 or len(set(y)) == 1:
            assert row["tau_b"] is None
        else:
            assert abs(row["tau_b"] - scipy_stats.kendalltau(x, y).statistic) <= 1e-12
        if len(set(x)) < n or len(set(y)) < n:
            assert row["tau_ap"] is None
        else:
            assert abs(row["tau_ap"] - _tau_ap(x, y)) <= 1e-12
        swaps = sum(1 for i, j in itertools.combinations(range(n), 2) if (x[i] - x[j]) * (y[i] - y[j]) < 0)
        assert row["swaps"] == swaps
        top = min(k, n)
        va, vb = dict(zip(systems, x, strict=True)), dict(zip(systems, y, strict=True))
        assert row["top_k_overlap"] == len(_top(va, top) & _top(vb, top)) / top


@settings(max_examples=25)
@given(systems_and_two_qrels())
def test_system_swaps_lists_every_discordant_pair(
    data: tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame],
) -> None:
    run, qa, qb = data
    swaps = prm.system_swaps(run, qa, qb, METRICS)
    ma = prm.evaluate(run, METRICS, by="system", qrels=qa).rows_by_key("system", named=True, unique=True)
    mb = prm.evaluate(run, METRICS, by="system", qrels=qb).rows_by_key("system", named=True, unique=True)
    expected = set()
    for m in METRICS:
        for s, t in itertools.permutations(ma, 2):
            if ma[s][m] > ma[t][m] and mb[t][m] > mb[s][m]:
                expected.add((m, s, t, ma[s][m] - ma[t][m], mb[t][m] - mb[s][m]))
    got = {
        (r["metric"], r["higher_under_a"], r["higher_under_b"], r["delta_a"], r["delta_b"])
        for r in swaps.iter_rows(named=True)
    }
    assert got == expected
    counts = prm.system_agreement(run, qa, qb, METRICS)
    for m, n in counts.select("metric", "swaps").iter_rows():
        assert swaps.filter(pl.col("metric") == m).height == n


def test_system_agreement_same_judgments_agree_fully() -> None:
    run = pl.DataFrame(
        {
            "system": ["a", "a", "b", "b", "c", "c"],
            "query": [1] * 6,
            "item": ["x", "y", "y", "z", "z", "x"],
            "score": [2.0, 1.0] * 3,
        }
    )
    qrels = pl.DataFrame({"query": [1, 1, 1], "item": ["x", "y", "z"], "relevance": [3, 1, 0]})
    got = prm.system_agreement(run, qrels, qrels, ["ndcg@2"]).row(0, named=True)
    assert (got["tau_b"], got["tau_ap"], got["top_k_overlap"], got["swaps"]) == (1.0, 1.0, 1.0, 0)
    assert math.isclose(got["tau_b"], 1.0)


def test_system_agreement_bad_input() -> None:
    run = pl.DataFrame({"system": ["a", "a"], "query": [1, 1], "item": ["x", "y"], "score": [2.0, 1.0]})
    qrels = pl.DataFrame({"query": [1, 1], "item": ["x", "y"], "relevance": [1, 0]})
    with pytest.raises(prm.InvalidDataError, match="names 1 system"):
        prm.system_agreement(run, qrels, qrels, ["ndcg@2"])
    with pytest.raises(prm.InvalidDataError, match="names 1 system"):
        prm.system_swaps(run, qrels, qrels, ["ndcg@2"])
    two = pl.concat([run, run.with_columns(system=pl.lit("b"), query=pl.lit(2, pl.Int64))])
    with pytest.raises(prm.InvalidDataError, match="under `qrels_a`"):
        prm.system_agreement(two, qrels, qrels, ["ndcg@2"])  # system b has no judged query
    with pytest.raises(prm.InvalidParameterError, match="`k`"):
        prm.system_agreement(run, qrels, qrels, ["ndcg@2"], k=0)
    with pytest.raises(prm.UnknownMetricError):
        prm.system_agreement(run, qrels, qrels, ["nope@2"])
