"""Metric families: one module each, every metric an expression builder."""

from __future__ import annotations

from polars_rankmetrics.metrics import cumulative  # noqa: F401  (registers G, ndcg_rel, Rndcg)
from polars_rankmetrics.metrics.binary import (
    f1,
    hit_rate,
    precision,
    r_precision,
    recall,
    relative_precision,
    utility,
)
from polars_rankmetrics.metrics.catalog import (
    coverage,
    entropy,
    gini,
    intra_list_similarity,
    novelty,
    personalization,
)
from polars_rankmetrics.metrics.counts import num_q, num_rel, num_rel_ret, num_ret
from polars_rankmetrics.metrics.graded import dcg, ndcg
from polars_rankmetrics.metrics.interpolated import eleven_point_average, iprec_at_recall, rprec_mult
from polars_rankmetrics.metrics.judged import bpref, infap, unjudged
from polars_rankmetrics.metrics.rank import average_precision, reciprocal_rank
from polars_rankmetrics.metrics.recsys import map_capped, mar, mpr
from polars_rankmetrics.metrics.text import relstring
from polars_rankmetrics.metrics.user import err, rbp, rbp_resid

__all__ = [
    "average_precision",
    "bpref",
    "coverage",
    "dcg",
    "eleven_point_average",
    "entropy",
    "err",
    "f1",
    "gini",
    "hit_rate",
    "infap",
    "intra_list_similarity",
    "iprec_at_recall",
    "map_capped",
    "mar",
    "mpr",
    "ndcg",
    "novelty",
    "num_q",
    "num_rel",
    "num_rel_ret",
    "num_ret",
    "personalization",
    "precision",
    "r_precision",
    "rbp",
    "rbp_resid",
    "recall",
    "reciprocal_rank",
    "relative_precision",
    "relstring",
    "rprec_mult",
    "unjudged",
    "utility",
]
