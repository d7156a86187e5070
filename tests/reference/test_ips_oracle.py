"""The IPS and SNIPS families against LensKit's IPS-weighted RBP and a plain reference from the definitions.

- ``ips_rbp`` (both estimators, with and without a cutoff) equals LensKit's ``IPSRBP``
  transcribed onto the installed LensKit (``lenskit_ips_rbp.py``, file and lines cited
  there) to 1e-12, per user with a test item (LensKit gives the others NaN);
- with every weight 1, each IPS family is its plain metric, and ``ips_rbp`` LensKit 2025.8.1's
  own ``RBP`` (binary relevance);
- every family and estimator equals :func:`reference` (the module docstring of
  ``polars_rankmetrics.metrics.ips``, written out as loops over each query's ranked rows) to
  1e-12, on generated frames: ties, graded, negative and unjudged grades, unretrieved relevant
  items, queries without a relevant item, string and integer ids.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peers import oracle
from strategies import eval_frames

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

PROPENSITIES = [1.0, 0.5, 0.25, 0.9, 0.013, 0.3, 0.77]


@st.composite
def lists(draw: st.DrawFn) -> tuple[dict[str, list[str]], dict[str, set[str]], dict[str, float]]:
    """Per user an ordered list and a set of test items (maybe empty); a propensity per item."""
    pool = [f"i{j}" for j in range(10)]
    recs: dict[str, list[str]] = {}
    test: dict[str, set[str]] = {}
    for user in range(draw(st.integers(1, 6))):
        recs[f"u{user}"] = draw(st.lists(st.sampled_from(pool), unique=True, max_size=7))
        test[f"u{user}"] = draw(st.sets(st.sampled_from(pool), max_size=5))
    props = {item: draw(st.sampled_from(PROPENSITIES)) for item in pool}
    return recs, test, props


def _frame(recs: dict[str, list[str]], test: dict[str, set[str]]) -> pl.DataFrame:
    rows: list[tuple[str, str, float | None, int]] = []
    for user, items in recs.items():
        rows += [(user, item, float(len(items) - i), int(item in test[user])) for i, item in enumerate(items)]
        rows += [(user, item, None, 1) for item in sorted(test[user] - set(items))]
    schema = {"query": pl.String, "item": pl.String, "score": pl.Float64, "relevance": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


@settings(max_examples=60, deadline=None)
@given(case=lists(), k=st.sampled_from([None, 1, 3, 5]), patience=st.sampled_from([0.85, 0.5, 0.95]),
       snips=st.booleans())  # fmt: skip
def test_ips_rbp_equals_lenskit_ipsrbp(case: Any, k: int | None, patience: float, snips: bool) -> None:  # noqa: ANN401
    from lenskit_ips_rbp import IPSRBP, FieldPropensity, ItemList  # noqa: PLC0415  (skips without LensKit)

    recs, test, props = case
    frame = _frame(recs, test)
    side = pl.DataFrame({"item": list(props), "propensity": list(props.values())})
    estimator = "snips" if snips else "ips"
    metric = prm.ips_rbp(k, p=patience, propensities=side, estimator=estimator)
    ours = dict(prm.evaluate(frame, metric, per_query=True, missing="zero").rows()) if frame.height else {}
    lk = IPSRBP(k, propensity=FieldPropensity(), patience=patience, self_normalized=snips)
    compared = 0
    for user, items in recs.items():
        if not test[user]:
            continue  # LensKit: NaN, left out of its mean
        tested = sorted(test[user])
        expected = lk.measure_list(
            ItemList(item_ids=items, ordered=True),
            ItemList(item_ids=tested, propensity=np.array([props[i] for i in tested])),
        )
        assert ours[user] == pytest.approx(expected, rel=1e-12, abs=1e-15), user
        compared += 1
    assert compared == sum(1 for t in test.values() if t)


@settings(max_examples=30, deadline=None)
@given(case=lists(), k=st.sampled_from([None, 1, 3]), patience=st.sampled_from([0.85, 0.5]))
def test_uniform_weights_give_the_plain_metrics(case: Any, k: int | None, patience: float) -> None:  # noqa: ANN401
    recs, test, _ = case
    frame = _frame(recs, test).with_columns(w=pl.lit(1.0))
    if frame.is_empty():
        return
    kk = k or 4
    pairs = [
        (prm.ips_precision(kk, weights="w"), prm.precision(kk)),
        (prm.ips_recall(k, weights="w"), prm.recall(k)),
        (prm.ips_ndcg(k, weights="w"), prm.ndcg(k)),  # grades 0 and 1: binary gains
        (prm.ips_mrr(k, weights="w"), prm.reciprocal_rank(k)),
        (prm.ips_hit_rate(k, weights="w"), prm.hit_rate(k)),
    ]
    for ips, plain in pairs:
        got = prm.evaluate(frame, ips, per_query=True, missing="zero").sort("query")
        want = prm.evaluate(frame, plain, per_query=True, missing="zero").sort("query")
        assert got.to_series(1).to_list() == pytest.approx(want.to_series(1).to_list(), rel=1e-12, abs=1e-15)
    ranking = oracle("lenskit.metrics.ranking", "oracles")
    weighted = prm.ips_rbp(k, p=patience, weights="w")
    ours = dict(prm.evaluate(frame, weighted, per_query=True, missing="zero").rows())
    for user, items in recs.items():
        if test[user]:
            lk = ranking.RBP(k, patience=patience).measure_list(
                oracle("lenskit.data", "oracles").ItemList(item_ids=items, ordered=True),
                oracle("lenskit.data", "oracles").ItemList(item_ids=sorted(test[user])),
            )
            assert ours[user] == pytest.approx(lk, rel=1e-12, abs=1e-15)


def reference(rows: list[dict[str, Any]], family: str, k: int | None, snips: bool, p: float = 0.85) -> float:
    """One query's IPS (or SNIPS) value from the definitions, rows carrying ``w`` (the weight)."""
    ranked = sorted((r for r in rows if r["score"] is not None), key=lambda r: (r["score"], str(r["item"])))
    ranked.reverse()  # score descending, ties by the item's text descending
    relevant = [r for r in rows if r["relevance"] is not None and r["relevance"] >= 1]
    top = ranked if k is None else ranked[:k]
    hits = [(i, r) for i, r in enumerate(top, start=1) if r["relevance"] is not None and r["relevance"] >= 1]
    if family == "ips_precision":
        value = sum(r["w"] for _, r in hits) / (k or 1)
    elif family == "ips_recall":
        value = sum(r["w"] for _, r in hits) / len(relevant) if relevant else 0.0
    elif family == "ips_ndcg":
        ideal = len(relevant) if k is None else min(k, len(relevant))
        idcg = sum(1 / math.log2(i + 1) for i in range(1, ideal + 1))
        dcg = sum(r["w"] / math.log2(i + 1) for i, r in hits)
        value = dcg / idcg if idcg > 0 else 0.0
    elif family == "ips_rbp":
        value = (1 - p) * sum(r["w"] * p ** (i - 1) for i, r in hits)
    elif family == "ips_mrr":
        value = hits[0][1]["w"] / hits[0][0] if hits else 0.0
    else:
        value = hits[0][1]["w"] if hits else 0.0
    if snips:
        total = sum(r["w"] for r in relevant)
        value = value / total if total > 0 else 0.0
    return value


FAMILIES = ["ips_precision", "ips_recall", "ips_ndcg", "ips_rbp", "ips_mrr", "ips_hit_rate"]


@settings(max_examples=60, deadline=None)
@given(frame=eval_frames(), family=st.sampled_from(FAMILIES), k=st.sampled_from([1, 2, 5]),
       snips=st.booleans(), data=st.data())  # fmt: skip
def test_ips_families_equal_the_reference(
    frame: pl.DataFrame, family: str, k: int, snips: bool, data: st.DataObject
) -> None:
    weights = data.draw(st.lists(st.sampled_from([1.0, 2.0, 0.0, 77.5, 1 / 0.3]), min_size=frame.height,
                                 max_size=frame.height))  # fmt: skip
    frame = frame.with_columns(w=pl.Series(weights, dtype=pl.Float64))
    estimator = "snips" if snips else "ips"
    constructor = getattr(prm, family)
    cut = k if family == "ips_precision" or data.draw(st.booleans()) else None
    metric = constructor(cut, weights="w", estimator=estimator)
    out = prm.evaluate(frame, metric, per_query=True, missing="zero")
    judged = {q for q, r in frame.select("query", "relevance").iter_rows() if r is not None}
    assert set(out["query"]) == judged
    for query, value in out.iter_rows():
        rows = frame.filter(pl.col("query") == query).to_dicts()
        expected = reference(rows, family, metric.k, snips)
        assert value == pytest.approx(expected, rel=1e-12, abs=1e-12), (query, family)
