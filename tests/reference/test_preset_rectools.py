"""preset="rectools" against RecTools 0.19's own unit-test cases and its formulas on generated data.

RecTools 0.19 does not install beside this project's pins (it needs numpy < 2 and attrs < 24 on
Python 3.11), so its metrics are transcribed here from its source, rectools 0.19.0:

- ``rectools/metrics/base.py`` 97-103 (``merge_reco``): the interactions (the relevant items, one
  per user and item) left-joined with the recommendations: the users evaluated are those with an
  interaction; one without a recommendation scores 0.
- ``rectools/metrics/ranking.py`` 173-233 and 283-287 (``MAP``): precision at each relevant rank r
  within k, ``hits up to r / r``, summed and divided by the user's interactions (or by k,
  ``divide_by_k=True``); the rank column is the position itself (a lone item of rank 3 is third).
- ``ranking.py`` 442-465 (``NDCG``, ``divide_by_achievable=False``): ``1 / log2(rank + 1)`` per
  relevant rank within k, over ``sum_{i=1..k} 1 / log2(i + 1)``.
- ``ranking.py`` 566-572 (``MRR``): 1 / the smallest relevant rank within k, else 0.
- ``rectools/metrics/classification.py`` 290-292, 315-316, 438-440: ``Precision`` tp / k,
  ``Recall`` tp / liked, ``HitRate`` tp > 0.

Ranks here are distinct per user: RecTools' precision exceeds 1 with tied ranks and its AP with
duplicate interactions (its own test ``test_when_duplicates_in_interactions`` expects 3.5 / 3),
bugs the preset does not copy.
"""

from __future__ import annotations

import math

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

CUTOFFS = (1, 2, 3, 5)


def _frame(reco: dict[str, list[int]], interactions: dict[str, list[int]]) -> pl.DataFrame:
    """RecTools' tables (user, item, rank) and (user, item) as one frame: relevance 1 per interaction."""
    run = pl.DataFrame(reco, schema={"query": pl.Int64, "item": pl.Int64, "rank": pl.Int64})
    qrels = pl.DataFrame(interactions, schema={"query": pl.Int64, "item": pl.Int64}).with_columns(
        relevance=pl.lit(1, dtype=pl.Int64)
    )
    return prm.join_run_qrels(run, qrels)


def _per_user(frame: pl.DataFrame, names: list[str], **options: object) -> dict[str, list[float]]:
    out = prm.evaluate(frame, names, per_query=True, preset="rectools", **options).sort("query")  # type: ignore[arg-type]
    return {name: out[name].to_list() for name in ["query", *names]}


# tests/metrics/test_ranking.py (RecTools, commit 073cc96), TestMAP.test_calc.
MAP_RECO = {
    "query": [1, 1, 2, 3, 3, 3, 3, 3, 4, 5, 5, 5, 7, 8, 9],
    "item": [1, 3, 1, 1, 2, 3, 4, 5, 1, 1, 2, 3, 1, 2, 1],
    "rank": [9, 1, 3, 1, 3, 5, 7, 9, 1, 1, 2, 3, 2, 1, 1],
}
MAP_INTERACTIONS = {
    "query": [1, 1, 2, 3, 3, 3, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8],
    "item": [1, 2, 1, 1, 2, 3, 4, 5, 6, 1, 1, 2, 3, 1, 1, 1],
}


@pytest.mark.parametrize(
    ("k", "divide_by_k", "expected"),
    [
        (1, False, [0, 0, 1 / 6, 1, 1 / 3, 0, 0, 0]),
        (3, False, [0, 1 / 3, 1 / 6 * (1 / 1 + 2 / 3), 1, 1, 0, 1 * (1 / 2), 0]),
        (1, True, [0, 0, 1, 1, 1, 0, 0, 0]),
        (3, True, [0, 1 / 9, 1 / 3 * (1 / 1 + 2 / 3), 1 / 3, 1, 0, 1 / 3 * (1 / 2), 0]),
    ],
)
def test_rectools_map_cases(k: int, divide_by_k: bool, expected: list[float]) -> None:
    options = {"ap_denominator": "k"} if divide_by_k else {}
    got = _per_user(_frame(MAP_RECO, MAP_INTERACTIONS), [f"MAP@{k}"], **options)
    assert got["query"] == [1, 2, 3, 4, 5, 6, 7, 8]  # user 9 has no interaction: not evaluated
    assert got[f"MAP@{k}"] == pytest.approx(expected, abs=1e-12)


NDCG_RECO = {
    "query": [1, 2, 3, 3, 3, 4, 5, 5, 5, 5, 6],
    "item": [1, 2, 1, 2, 3, 1, 1, 2, 3, 5, 1],
    "rank": [9, 1, 1, 2, 3, 1, 3, 7, 9, 1, 1],
}
NDCG_INTERACTIONS = {
    "query": [1, 2, 3, 3, 3, 4, 5, 5, 5, 5],
    "item": [1, 1, 1, 2, 3, 1, 1, 2, 3, 4],
}
IDCG_AT_3 = 1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)


@pytest.mark.parametrize(
    ("k", "expected"),
    [(1, [0, 0, 1, 1, 0]), (3, [0, 0, 1, 1 / IDCG_AT_3, 0.5 / IDCG_AT_3])],
)
def test_rectools_ndcg_cases(k: int, expected: list[float]) -> None:
    got = _per_user(_frame(NDCG_RECO, NDCG_INTERACTIONS), [f"NDCG@{k}"])
    assert got["query"] == [1, 2, 3, 4, 5]
    assert got[f"NDCG@{k}"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(("k", "expected"), [(1, [0, 0, 1, 1, 0]), (3, [0, 0, 1, 1, 1 / 3])])
def test_rectools_mrr_cases(k: int, expected: list[float]) -> None:
    reco = {key: values[:-1] for key, values in NDCG_RECO.items()}  # TestMRR: the same without user 6
    got = _per_user(_frame(reco, NDCG_INTERACTIONS), [f"MRR@{k}"])
    assert got[f"MRR@{k}"] == pytest.approx(expected, abs=1e-12)


def test_the_issues_cases() -> None:
    """A lone item of rank 3: MRR@3 = MAP@3 = 1/3; one relevant item at rank 1: NDCG@3 = 0.4693."""
    gapped = _frame({"query": [1], "item": [7], "rank": [3]}, {"query": [1], "item": [7]})
    got = _per_user(gapped, ["MRR@3", "MAP@3"])
    assert got["MRR@3"] == pytest.approx([1 / 3])
    assert got["MAP@3"] == pytest.approx([1 / 3])
    top = _frame({"query": [1, 1], "item": [7, 8], "rank": [1, 2]}, {"query": [1], "item": [7]})
    assert _per_user(top, ["NDCG@3"])["NDCG@3"] == pytest.approx([1 / IDCG_AT_3])
    assert round(1 / IDCG_AT_3, 4) == 0.4693


# --- RecTools' formulas (module docstring) on generated data -------------------------------------

Reco = dict[int, dict[int, int]]  # user -> {item: rank}
Liked = dict[int, set[int]]  # user -> interactions


def _rectools(reco: Reco, liked: Liked, k: int) -> dict[str, dict[int, float]]:
    """Per user with an interaction: MAP, MAP divide_by_k, NDCG, MRR, Precision, Recall, HitRate at k."""
    idcg = sum(1 / math.log2(i + 1) for i in range(1, k + 1))
    out: dict[str, dict[int, float]] = {m: {} for m in ("map", "map_k", "ndcg", "mrr", "p", "r", "hit")}
    for user, items in liked.items():
        ranks = sorted(r for item, r in reco.get(user, {}).items() if item in items and r <= k)
        ap = sum((i + 1) / r for i, r in enumerate(ranks))
        out["map"][user] = ap / len(items)
        out["map_k"][user] = ap / k
        out["ndcg"][user] = sum(1 / math.log2(r + 1) for r in ranks) / idcg
        out["mrr"][user] = 1 / ranks[0] if ranks else 0.0
        out["p"][user] = len(ranks) / k
        out["r"][user] = len(ranks) / len(items)
        out["hit"][user] = float(bool(ranks))
    return out


@st.composite
def rectools_tables(draw: st.DrawFn) -> tuple[Reco, Liked]:
    """Recommendations with distinct, gapped ranks per user, and interactions (some users only one)."""
    reco: dict[int, dict[int, int]] = {}
    liked: dict[int, set[int]] = {}
    for user in range(draw(st.integers(1, 6))):
        items = draw(st.lists(st.integers(0, 9), unique=True, max_size=6))
        ranks = draw(st.lists(st.integers(1, 8), unique=True, min_size=len(items), max_size=len(items)))
        if items:
            reco[user] = dict(zip(items, ranks, strict=True))
        chosen = draw(st.sets(st.integers(0, 9), max_size=5))
        if chosen:
            liked[user] = chosen
    return reco, liked


@settings(max_examples=60, deadline=None)
@given(tables=rectools_tables())
def test_rectools_formulas_on_generated_data(tables: tuple[Reco, Liked]) -> None:
    reco, liked = tables
    run = {"query": [u for u, r in reco.items() for _ in r], "item": [i for r in reco.values() for i in r],
           "rank": [x for r in reco.values() for x in r.values()]}  # fmt: skip
    interactions = {
        "query": [u for u, s in liked.items() for _ in s],
        "item": [i for s in liked.values() for i in s],
    }
    frame = _frame(run, interactions)
    for k in CUTOFFS:
        want = _rectools(reco, liked, k)
        names = {"map": f"MAP@{k}", "ndcg": f"NDCG@{k}", "mrr": f"MRR@{k}", "p": f"Precision@{k}",
                 "r": f"Recall@{k}", "hit": f"HitRate@{k}"}  # fmt: skip
        if not liked:
            continue
        got = _per_user(frame, list(names.values()))
        got_k = _per_user(frame, [f"MAP@{k}"], ap_denominator="k")
        assert got["query"] == sorted(liked)
        for key, name in names.items():
            assert got[name] == pytest.approx([want[key][u] for u in sorted(liked)], abs=1e-12), name
        assert got_k[f"MAP@{k}"] == pytest.approx([want["map_k"][u] for u in sorted(liked)], abs=1e-12)


# tests/metrics/test_classification.py (RecTools, commit 073cc96), TestMCC.test_calc with CATALOG = range(10).
CLS_RECO = {"query": [1, 1, 1, 2, 2, 3, 4], "item": [1, 2, 3, 1, 2, 1, 1], "rank": [1, 2, 3, 1, 2, 1, 1]}
CLS_INTERACTIONS = {"query": [1, 1, 1, 3, 4, 5], "item": [4, 2, 3, 1, 2, 2]}


def test_rectools_mcc_cases() -> None:
    """1/sqrt(21), 2/3, -1/6, -1/6, as RecTools' test expects.

    User 5 has an interaction and no recommendation: RecTools counts k false positives for it,
    and so does the formula here (the preset's ``missing="zero"`` evaluates the user).
    """
    got = _per_user(_frame(CLS_RECO, CLS_INTERACTIONS), ["MCC(n_items=10)@2", "Precision@2", "Recall@2"])
    assert got["query"] == [1, 3, 4, 5]
    assert got["MCC(n_items=10)@2"] == pytest.approx([1 / 21**0.5, 2 / 3, -1 / 6, -1 / 6], abs=1e-12)
    assert got["Precision@2"] == pytest.approx([0.5, 0.5, 0.0, 0.0])  # TestPrecision
    assert got["Recall@2"] == pytest.approx([1 / 3, 1, 0, 0])  # TestRecall


def _rectools_mcc(reco: Reco, liked: Liked, k: int, n_items: int) -> dict[int, float]:
    """classification.py 409-418 with calc_confusions 531-537: fp = k - tp, tn = n_items - k - fn."""
    out = {}
    for user, items in liked.items():
        tp = sum(1 for item, r in reco.get(user, {}).items() if item in items and r <= k)
        fp, fn = k - tp, len(items) - tp
        tn = n_items - k - fn
        denominator = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
        out[user] = (tp * tn - fp * fn) / denominator if denominator else 0.0
    return out


@settings(max_examples=60, deadline=None)
@given(tables=rectools_tables())
def test_rectools_mcc_on_generated_data(tables: tuple[Reco, Liked]) -> None:
    reco, liked = tables
    if not liked:
        return
    run = {"query": [u for u, r in reco.items() for _ in r], "item": [i for r in reco.values() for i in r],
           "rank": [x for r in reco.values() for x in r.values()]}  # fmt: skip
    interactions = {
        "query": [u for u, s in liked.items() for _ in s],
        "item": [i for s in liked.values() for i in s],
    }
    for k in CUTOFFS:
        want = _rectools_mcc(reco, liked, k, 20)
        got = _per_user(_frame(run, interactions), [f"MCC(n_items=20)@{k}"])
        assert got["query"] == sorted(liked)
        assert got[f"MCC(n_items=20)@{k}"] == pytest.approx([want[u] for u in sorted(liked)], abs=1e-12)


def test_rectools_covered_users_cases() -> None:
    """dq.py's CoveredUsers doctest: per user [1, 0, 0, 0] at k=1 and [1, 1, 0, 0] at k=2."""
    frame = _frame(
        {"query": [1, 1, 2], "item": [1, 2, 1], "rank": [1, 2, 2]}, {"query": [1, 2, 3, 4], "item": [1] * 4}
    )
    got = _per_user(frame, ["CoveredUsers@1", "covered_users@2"])
    assert got["CoveredUsers@1"] == [1.0, 0.0, 0.0, 0.0]
    assert got["covered_users@2"] == [1.0, 1.0, 0.0, 0.0]


@settings(max_examples=60, deadline=None)
@given(tables=rectools_tables())
def test_rectools_covered_users_on_generated_data(tables: tuple[Reco, Liked]) -> None:
    """dq.py 271-274: a target user (with an interaction) is covered when a rank <= k is listed for it."""
    reco, liked = tables
    if not liked:
        return
    run = {"query": [u for u, r in reco.items() for _ in r], "item": [i for r in reco.values() for i in r],
           "rank": [x for r in reco.values() for x in r.values()]}  # fmt: skip
    interactions = {
        "query": [u for u, s in liked.items() for _ in s],
        "item": [i for s in liked.values() for i in s],
    }
    for k in CUTOFFS:
        got = _per_user(_frame(run, interactions), [f"covered_users@{k}"])
        want = [float(any(r <= k for r in reco.get(u, {}).values())) for u in sorted(liked)]
        assert got[f"covered_users@{k}"] == want
