"""The peers' own documented examples, with the values their docs print (torchmetrics, scikit-learn)."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm


def test_torchmetrics_fallout_docstring_example() -> None:
    # RetrievalFallOut(top_k=2) on indexes [0,0,0,1,1,1,1]: tensor(0.5000).
    frame = pl.DataFrame({
        "query": [0, 0, 0, 1, 1, 1, 1],
        "item": ["a", "b", "c", "a", "b", "c", "d"],
        "score": [0.2, 0.3, 0.5, 0.1, 0.3, 0.5, 0.2],
        "relevance": [0, 0, 1, 0, 1, 0, 1],
    })  # fmt: skip
    assert prm.evaluate(frame, [prm.fallout(2)]).item() == 0.5


def test_torchmetrics_precision_recall_curve_docstring_example() -> None:
    # retrieval_precision_recall_curve([0.2, 0.3, 0.5], [True, False, True], max_k=2):
    # precisions [1.0, 0.5], recalls [0.5, 0.5].
    frame = pl.DataFrame({"query": [0, 0, 0], "item": ["a", "b", "c"], "score": [0.2, 0.3, 0.5],
                          "relevance": [1, 0, 1]})  # fmt: skip
    curve = prm.pr_curve(frame, ks=[1, 2])
    assert curve.to_dict(as_series=False) == {"k": [1, 2], "precision": [1.0, 0.5], "recall": [0.5, 0.5]}


def test_sklearn_roc_auc_docstring_style_example() -> None:
    # roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75 (scikit-learn's user guide).
    frame = pl.DataFrame({"query": [1] * 4, "item": ["a", "b", "c", "d"], "score": [0.1, 0.4, 0.35, 0.8],
                          "relevance": [0, 0, 1, 1]})  # fmt: skip
    assert prm.evaluate(frame, [prm.auroc()]).item() == pytest.approx(0.75, abs=1e-12)
