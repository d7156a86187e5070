"""Metric families: one module each, every metric an expression builder."""

from __future__ import annotations

from polars_rankmetrics.metrics.binary import f1, hit_rate, precision, r_precision, recall
from polars_rankmetrics.metrics.counts import num_q, num_rel, num_rel_ret, num_ret
from polars_rankmetrics.metrics.graded import dcg, ndcg
from polars_rankmetrics.metrics.rank import average_precision, reciprocal_rank

__all__ = [
    "average_precision",
    "dcg",
    "f1",
    "hit_rate",
    "ndcg",
    "num_q",
    "num_rel",
    "num_rel_ret",
    "num_ret",
    "precision",
    "r_precision",
    "recall",
    "reciprocal_rank",
]
