"""Metric families: one module each; every metric a typed spec and a constructor.

The registry (``polars_rankmetrics._registry``) lists every module's ``SPECS``;
this package imports nothing above it.
"""

from __future__ import annotations

from polars_rankmetrics.metrics.binary import (
    f1,
    hit_rate,
    precision,
    r_precision,
    recall,
    relative_precision,
    set_map,
    utility,
)
from polars_rankmetrics.metrics.calibration import category_diversity, miscalibration
from polars_rankmetrics.metrics.classification import auroc, f_beta, fallout, recall_at_precision, set_f
from polars_rankmetrics.metrics.counts import num_q, num_rel, num_rel_ret, num_ret
from polars_rankmetrics.metrics.cumulative import g, ndcg_rel, rndcg
from polars_rankmetrics.metrics.distribution import coverage, entropy, gini
from polars_rankmetrics.metrics.diversity import alpha_ndcg, err_ia, map_ia, nerr_ia, nnrbp, nrbp, p_ia, strec
from polars_rankmetrics.metrics.exposure import awrf, exposure_disparity, exposure_share
from polars_rankmetrics.metrics.graded import dcg, ndcg
from polars_rankmetrics.metrics.history_similarity import serendipity
from polars_rankmetrics.metrics.information import novelty
from polars_rankmetrics.metrics.interpolated import eleven_point_average, iprec_at_recall, rprec_mult
from polars_rankmetrics.metrics.judged import bpref, gm_bpref, infap, num_nonrel_judged_ret, unjudged
from polars_rankmetrics.metrics.overlap import compat, rbo
from polars_rankmetrics.metrics.parity import pop_reo, pop_rsp
from polars_rankmetrics.metrics.popularity import aclt, aplt, arp, tail_percentage
from polars_rankmetrics.metrics.rank import average_precision, bing, gm_map, reciprocal_rank
from polars_rankmetrics.metrics.recsys import map_capped, mar, mpr
from polars_rankmetrics.metrics.similarity import intra_list_similarity, personalization
from polars_rankmetrics.metrics.surprise import surprisal, unexpectedness
from polars_rankmetrics.metrics.text import relstring
from polars_rankmetrics.metrics.user import err, rbp, rbp_resid

__all__ = [
    "aclt",
    "alpha_ndcg",
    "aplt",
    "arp",
    "auroc",
    "average_precision",
    "awrf",
    "bing",
    "bpref",
    "category_diversity",
    "compat",
    "coverage",
    "dcg",
    "eleven_point_average",
    "entropy",
    "err",
    "err_ia",
    "exposure_disparity",
    "exposure_share",
    "f1",
    "f_beta",
    "fallout",
    "g",
    "gini",
    "gm_bpref",
    "gm_map",
    "hit_rate",
    "infap",
    "intra_list_similarity",
    "iprec_at_recall",
    "map_capped",
    "map_ia",
    "mar",
    "miscalibration",
    "mpr",
    "ndcg",
    "ndcg_rel",
    "nerr_ia",
    "nnrbp",
    "novelty",
    "nrbp",
    "num_nonrel_judged_ret",
    "num_q",
    "num_rel",
    "num_rel_ret",
    "num_ret",
    "p_ia",
    "personalization",
    "pop_reo",
    "pop_rsp",
    "precision",
    "r_precision",
    "rbo",
    "rbp",
    "rbp_resid",
    "recall",
    "recall_at_precision",
    "reciprocal_rank",
    "relative_precision",
    "relstring",
    "rndcg",
    "rprec_mult",
    "serendipity",
    "set_f",
    "set_map",
    "strec",
    "surprisal",
    "tail_percentage",
    "unexpectedness",
    "unjudged",
    "utility",
]
