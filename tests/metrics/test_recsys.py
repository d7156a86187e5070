"""recsys (metrics/recsys.py): mar, map_capped, mpr and gauc by hand and against plain references.

mar, map_capped and mpr: by hand, and against tests/recsys_reference.py (recmetrics' and ml_metrics'
formulas) on generated lists. gauc and gauc_weighted: against a plain count of (relevant, other)
pairs on generated frames, and RecBole's own cases. Peer oracles: RecBole, Elliot and RecTools
(tests/reference/test_preset_recbole.py, test_preset_elliot.py, test_preset_rectools.py).

The definition (Zhou et al., KDD 2018, as RecBole and Elliot compute it on a full ranking): per
list, the share of (relevant retrieved, other retrieved) pairs in which the relevant item comes
first, in the order every metric uses (score descending, then the item text descending);
``gauc`` averages it over the lists that have both kinds of item, ``gauc_weighted`` weights each
list by its relevant items retrieved. Unjudged and judged non-relevant retrieved items are both
"other"; relevant items never retrieved make no pair.
"""

from __future__ import annotations

import polars as pl
import pytest
import recsys_reference as ref
from beyond_cases import FEWER
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import eval_frames, trec_order

import polars_rankmetrics as prm
from metrics._helpers import (
    DEGENERATE_DATA,
    LISTS,
    Lists,
    assert_by_model,
    assert_close,
    recommendation_lists,
)


def _pairs(frame: pl.DataFrame) -> dict[object, tuple[float, int]]:
    """Per evaluated query with both kinds of item: (AUC by counting pairs, relevant retrieved)."""
    out: dict[object, tuple[float, int]] = {}
    for (query,), rows in frame.group_by("query"):
        if rows["relevance"].is_null().all():
            continue  # a query without a judgment is not evaluated
        retrieved = rows.filter(pl.col("score").is_not_null())
        order = trec_order(list(zip(retrieved["item"], retrieved["score"], strict=True)))
        grade = dict(zip(retrieved["item"], retrieved["relevance"], strict=True))
        relevant = [g is not None and g >= 1 for g in (grade[i] for i in order)]
        p, n = sum(relevant), len(relevant) - sum(relevant)
        if p and n:
            right = sum(1 for i, a in enumerate(relevant) if a for b in relevant[i + 1 :] if not b)
            out[query] = (right / (p * n), p)
    return out


@DEGENERATE_DATA
@settings(max_examples=80, deadline=None)
@given(frame=eval_frames())
def test_gauc_counts_pairs(frame: pl.DataFrame) -> None:
    want = _pairs(frame)
    got = prm.evaluate(frame, ["gauc"], per_query=True)
    values = {q: v for q, v in zip(got["query"], got["gauc"], strict=True) if v is not None}
    assert values.keys() == want.keys()
    for query, (auc, _) in want.items():
        assert values[query] == pytest.approx(auc, abs=1e-12)
    mean = prm.evaluate(frame, ["gauc", "gauc_weighted"])
    if want:
        assert mean["gauc"].item() == pytest.approx(sum(a for a, _ in want.values()) / len(want), abs=1e-12)
        weighted = sum(a * p for a, p in want.values()) / sum(p for _, p in want.values())
        assert mean["gauc_weighted"].item() == pytest.approx(weighted, abs=1e-12)


def test_gauc_by_hand() -> None:
    """Relevant at ranks 2 and 3 of 3: no pair right, AUC 0; relevant first of 3: 1; means 1/2 and 1/3."""
    frame = pl.DataFrame({"query": [1, 1, 1, 2, 2, 2], "item": ["a", "b", "c"] * 2,
        "score": [0.9, 0.5, 0.1, 0.8, 0.5, 0.2], "relevance": [0, 1, 1, 1, 0, None]})  # fmt: skip
    got = prm.evaluate(frame, ["gauc", "GAUC", "gauc_weighted"])
    assert got.row(0) == pytest.approx((0.5, 0.5, 1 / 3))


def _lists(*flags: str) -> pl.DataFrame:
    """One list per string, 'p' a relevant item and 'n' another, in rank order."""
    rows = [
        (u, f"i{i}", float(len(s) - i), int(c == "p")) for u, s in enumerate(flags) for i, c in enumerate(s)
    ]
    return pl.DataFrame(rows, schema=["query", "item", "score", "relevance"], orient="row")


def test_recboles_own_gauc_cases() -> None:
    """RecBole's tests/metrics/test_rank_metrics.py (commit 21e1ce8), test_gauc, as ranked lists.

    Case 0: lists of 2, 3, 5 items with 1, 2, 3 positives of rank sums 1, 4, 9 (0.5833...);
    case 1: a list of 3 with its positive last, one without a positive, one without a negative
    (the last two removed): 0.
    """
    case0 = (1 * (2 - 0 / 2 - 1 / 1) / 1 + 2 * (3 - 1 / 2 - 4 / 2) / 1 + 3 * (5 - 2 / 2 - 9 / 3) / 2) / 6
    assert prm.evaluate(_lists("pn", "pnp", "pnpnp"), ["gauc_weighted"]).item() == pytest.approx(case0)
    assert case0 == pytest.approx(0.5833, abs=1e-4)
    assert prm.evaluate(_lists("nnp", "nnnnnn", "pppp"), ["gauc_weighted"]).item() == pytest.approx(0.0)


# --- mar, map_capped and mpr ---


# A data error found while the plan runs: Polars' error carrying our message (a LazyFrame), or
# InvalidDataError should evaluate() translate it when it collects a DataFrame itself.
DATA_ERROR = (pl.exceptions.InvalidOperationError, prm.InvalidDataError)


def test_mar_map_capped_and_mpr_hand_computed() -> None:
    metrics: list[str | prm.Metric] = ["mar@2", "map_capped@2", "mpr", prm.mpr(missing_items="ignore")]
    # als user 1: b at rank 2 (grade 2), e missed: R = 2. precision at b = 1/2.
    #   mar@2 = 1/2 / 2, map_capped@2 = 1/2 / min(2, 2). user 2: a at rank 1: 1. user 3: R = 0: 0.
    #   mpr: user 1: b pct 1/2 weight 2, e bottom weight 1; user 2: a pct 0 weight 1.
    # pop: user 1: b at 2 (grade 2): 1/2; user 2: a at 1: 1. mpr: b pct 1 (w 2), a pct 0 (w 1).
    want = {
        "als": {"mar@2": (1 / 4 + 1 + 0) / 3, "map_capped@2": (1 / 4 + 1 + 0) / 3,
                "mpr": (2 * 0.5 + 1 * 1.0 + 0.0) / 4, "mpr_ignore": (2 * 0.5) / 3},
        "pop": {"mar@2": 0.75, "map_capped@2": 0.75, "mpr": 2 / 3, "mpr_ignore": 2 / 3},
    }  # fmt: skip
    assert_by_model(metrics, want, LISTS)


def test_map_capped_divides_by_k_when_more_items_are_relevant() -> None:
    frame = pl.DataFrame({"query": [1] * 4, "item": list("abcd"), "score": [4.0, 3.0, None, None],
                          "relevance": [1, 1, 1, 1]})  # fmt: skip
    out = prm.evaluate(frame, ["map_capped@2", "mar@2"])
    assert out.row(0) == pytest.approx((1.0, 0.5))


def test_mpr_random_needs_the_catalog_size_and_a_fitting_one() -> None:
    frame = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"], "score": [2.0, 1.0, None],
                          "relevance": [0, 1, 1]})  # fmt: skip
    # N = 5: b at rank 2 -> 1/4; c missing -> (5 + 2 - 1) / (2 * 4) = 3/4.
    assert prm.evaluate(frame, [prm.mpr(missing_items="random", n_items=5)]).item() == pytest.approx(0.5)
    with pytest.raises(DATA_ERROR, match="ranks more items than n_items=1"):
        prm.evaluate(frame, [prm.mpr(missing_items="random", n_items=1)])


def test_mpr_per_user_is_null_without_a_positive_grade() -> None:
    frame = pl.DataFrame({"query": [1, 2], "item": ["a", "a"], "score": [1.0, 1.0], "relevance": [0, 3]})
    out = prm.evaluate(frame, ["mpr"], per_query=True)
    assert out["mpr"].to_list() == [None, 0.0]
    assert prm.evaluate(frame, ["mpr"]).item() == 0.0


@DEGENERATE_DATA
@FEWER
@given(recommendation_lists(relevance=True))
def test_mar_and_map_capped_match_recmetrics_and_ml_metrics(data: Lists) -> None:
    cutoffs = (1, 2, 3, 10)
    metrics = [m for k in cutoffs for m in (prm.mar(k), prm.map_capped(k), f"map@{k}")]
    for model, row in data.rows(metrics).items():
        users = list(zip(data.lists[model], data.weights[model], strict=True))
        for k in cutoffs:
            actual = [[i for i, g in w.items() if g >= 1] for _, w in users]
            want_mar = sum(ref.ark(a, p, k) for a, (p, _) in zip(actual, users, strict=True)) / len(users)
            want_apk = sum(ref.apk(a, p, k) for a, (p, _) in zip(actual, users, strict=True)) / len(users)
            assert_close(row[f"mar@{k}"], want_mar)
            assert_close(row[f"map_capped@{k}"], want_apk)
            assert_close(row[f"map@{k}"], want_mar)  # the same number as trec_eval's map_cut


@DEGENERATE_DATA
@FEWER
@given(recommendation_lists(relevance=True), st.integers(0, 5))
def test_mpr_matches_reference(data: Lists, spare: int) -> None:
    frame = data.frame()
    n_items = len(data.pool) + spare
    metrics = [prm.mpr(), prm.mpr(missing_items="ignore"), prm.mpr(missing_items="random", n_items=n_items)]
    for model, row in data.rows(metrics).items():
        users = list(zip(data.lists[model], data.weights[model], strict=True))
        assert_close(row["mpr"], ref.mpr(users, "bottom"))
        assert_close(row["mpr_ignore"], ref.mpr(users, "ignore"))
        assert_close(row[f"mpr_random(n_items={n_items})"], ref.mpr(users, "random", n_items))
    per_user = prm.evaluate(frame, [prm.mpr()], per_query=True, by=data.by)
    for user in per_user.iter_rows(named=True):
        model = user.get("model", next(iter(data.lists)))
        ranked, weights = data.lists[model][user["query"]], data.weights[model][user["query"]]
        assert_close(user["mpr"], ref.mpr([(ranked, weights)], "bottom"))
