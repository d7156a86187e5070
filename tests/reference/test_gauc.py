"""gauc and gauc_weighted against a plain count of (relevant, other) pairs, on generated frames.

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
from hypothesis import given, settings

import polars_rankmetrics as prm
from tests.strategies import eval_frames, trec_order

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


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
