"""psp, psndcg and psrecall against pyxclib's functions, transcribed (``pyxclib_xc_metrics.py``).

The frames are drawn with ties, graded, negative and unjudged grades, relevant
items never retrieved, queries without a relevant item, run-only and
qrels-only queries, string and integer ids. The oracle receives each query's
ranking in trec_eval's order (score descending, ties by the item's text
descending) as pyxclib's sorted integer indices, padded to k with its pad
index, the relevant items (``relevance >= 1``) as its csr label matrix, and the
inverse propensities. Its rows are the queries evaluate counts with
``missing="zero"``: every query with a judged row.

- ``normalize="oracle"`` equals pyxclib's ``psprecision``, ``psrecall`` and
  ``psndcg`` (the last with its means in float64; pyxclib keeps them in
  float32, which agrees to 1e-6 relative) to 1e-12;
- the default is Jain et al.'s per-query value averaged over queries: the
  numerator of pyxclib's ratio (``_precision``, ``_recall``, ``_ndcg`` of the
  ranking's flags), to 1e-12;
- propensities from training counts equal ``compute_inv_propesity``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest
import scipy.sparse as sp
from hypothesis import event, given, settings
from hypothesis import strategies as st
from pyxclib_xc_metrics import compute_inv_propesity, psndcg, psprecision, psrecall
from strategies import eval_frames

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

ORACLES = {"psp": psprecision, "psrecall": psrecall, "psndcg": psndcg}


def _layout(frame: pl.DataFrame) -> tuple[list[Any], list[Any], dict[Any, int]]:
    """The evaluated queries (a judged row), the items, and each item's label index."""
    queries = sorted(
        frame.group_by("query").agg(pl.col("relevance").is_not_null().any().alias("j")).filter("j")["query"],
        key=str,
    )
    items = sorted(frame["item"].unique().to_list(), key=str)
    return queries, items, {item: i for i, item in enumerate(items)}


def _oracle_inputs(frame: pl.DataFrame, k: int) -> tuple[np.ndarray, sp.csr_matrix, list[Any], list[Any]]:
    """The inputs of pyxclib: sorted top-k label indices (padded), the csr label matrix; a row per query."""
    queries, items, index = _layout(frame)
    pad = len(items)
    ranking = np.full((len(queries), k), pad, dtype=np.int64)
    labels = np.zeros((len(queries), len(items)))
    for row, query in enumerate(queries):
        rows = frame.filter(pl.col("query") == query).to_dicts()
        ranked = sorted(
            (r for r in rows if r["score"] is not None), key=lambda r: (r["score"], str(r["item"]))
        )
        ranked.reverse()  # score descending, ties by the item's text descending (trec_eval's order)
        for position, r in enumerate(ranked[:k]):
            ranking[row, position] = index[r["item"]]
        for r in rows:
            if r["relevance"] is not None and r["relevance"] >= 1:
                labels[row, index[r["item"]]] = 1.0
    return ranking, sp.csr_matrix(labels), queries, items


@st.composite
def cases(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame, int]:
    frame = draw(eval_frames())
    items = sorted(frame["item"].unique().to_list(), key=str)
    props = draw(st.lists(st.sampled_from([1.0, 0.5, 0.25, 0.9, 0.013, 0.3, 0.77]), min_size=len(items),
                          max_size=len(items)))  # fmt: skip
    side = pl.DataFrame({"item": pl.Series(items, dtype=frame["item"].dtype), "propensity": props})
    return frame, side, draw(st.integers(1, 6))


def _ours(frame: pl.DataFrame, metric: prm.Metric) -> float | None:
    out = prm.evaluate(frame, metric, missing="zero")
    return None if out.is_empty() else out.item()


@settings(max_examples=60, deadline=None)
@given(case=cases(), family=st.sampled_from(sorted(ORACLES)))
def test_propensity_scored_metrics_equal_pyxclib(
    case: tuple[pl.DataFrame, pl.DataFrame, int], family: str
) -> None:
    frame, side, k = case
    ranking, labels, queries, items = _oracle_inputs(frame, k)
    if not queries or labels.sum() == 0:
        return  # pyxclib divides 0 by 0: no value to compare (ours: tested below)
    event("compared with pyxclib")
    order = {item: i for i, item in enumerate(side["item"].to_list())}
    inv_psp = np.array([1.0 / side["propensity"][order[item]] for item in items])
    oracle = ORACLES[family]
    options = {"ndcg_dtype": np.float64} if family == "psndcg" else {}
    ratio, numerator = oracle(ranking, labels, inv_psp, k, **options)
    constructor = getattr(prm, family)
    ours_ratio = _ours(frame, constructor(k, propensities=side, normalize="oracle"))
    ours_mean = _ours(frame, constructor(k, propensities=side))
    assert ours_ratio == pytest.approx(ratio, rel=1e-12, abs=1e-12)
    assert ours_mean == pytest.approx(numerator, rel=1e-12, abs=1e-12)
    if family == "psndcg":  # pyxclib's own float32 means
        assert ours_ratio == pytest.approx(oracle(ranking, labels, inv_psp, k)[0], rel=1e-6)


@settings(max_examples=30, deadline=None)
@given(case=cases(), a_b=st.sampled_from([None, "wikipedia", "amazon", (0.7, 3.0)]), data=st.data())
def test_propensities_from_counts_equal_compute_inv_propesity(
    case: tuple[pl.DataFrame, pl.DataFrame, int],
    a_b: str | tuple[float, float] | None,
    data: st.DataObject,
) -> None:
    frame, _, k = case
    ranking, labels, queries, items = _oracle_inputs(frame, k)
    if not queries or labels.sum() == 0:
        return
    event("compared with pyxclib")
    n_train = data.draw(st.integers(3, 40))
    train = np.array(data.draw(st.lists(st.lists(st.booleans(), min_size=len(items), max_size=len(items)),
                                        min_size=n_train, max_size=n_train)), dtype=float)  # fmt: skip
    named = {None: (0.55, 1.5), "wikipedia": (0.5, 0.4), "amazon": (0.6, 2.6)}
    a, b = a_b if isinstance(a_b, tuple) else named[a_b]
    inv_psp = compute_inv_propesity(sp.csr_matrix(train), a, b)
    counts = train.sum(axis=0)
    seen = counts > 0  # an item never seen has no row: count 0, as in the label matrix
    ids = [i for i, s in zip(items, seen, strict=True) if s]
    side = pl.DataFrame(
        {"item": pl.Series(ids, dtype=frame["item"].dtype), "count": counts[seen].astype(int)}
    )
    model: dict[str, Any] = {"dataset": a_b} if isinstance(a_b, str) else {}
    if isinstance(a_b, tuple):
        model = {"a": a, "b": b}
    ratio, _ = psprecision(ranking, labels, inv_psp, k)
    ours = _ours(frame, prm.psp(k, counts=side, n=n_train, normalize="oracle", **model))
    assert ours == pytest.approx(ratio, rel=1e-12, abs=1e-12)


def test_psp_by_hand_with_a_query_without_relevant_items() -> None:
    """A query without a relevant item scores 0 and weighs 0 under the oracle normalisation."""
    df = pl.DataFrame({"query": ["q1", "q1", "q2", "q3"], "item": ["a", "b", "a", "c"],
                       "score": [2.0, 1.0, 1.0, None], "relevance": [0, 1, 0, 1]})  # fmt: skip
    side = pl.DataFrame({"item": ["a", "b", "c"], "propensity": [0.5, 0.25, 0.1]})
    out = prm.evaluate(df, [prm.psp(2, propensities=side), prm.psp(2, propensities=side, normalize="oracle")],
                       per_query=True, missing="zero")  # fmt: skip
    # q1: b (1/0.25 = 4) at rank 2 -> 4/2 = 2; its oracle (b first) also 2 -> 1. q2: 0, oracle 0.
    # q3: c never retrieved -> 0; oracle 10/2 = 5 -> 0.
    assert out.sort("query").rows() == [("q1", 2.0, 1.0), ("q2", 0.0, 0.0), ("q3", 0.0, 0.0)]
    both = [prm.psp(2, propensities=side), prm.psp(2, propensities=side, normalize="oracle")]
    means = prm.evaluate(df, both, missing="zero")
    assert means.row(0) == pytest.approx((2.0 / 3, 2.0 / 7), rel=1e-15)
