"""Metric families: one module each; every metric a typed spec and a constructor.

Each module lists its constructors in ``__all__`` and its specs in
``SPECS``. :data:`FAMILIES` is every public module of this package, found
by itself (a new family is a new module, nothing else); the registry
(``polars_rankmetrics._registry``) reads their ``SPECS``, and this package
and ``prm`` re-export their ``__all__``. The import lines below are
written by ``python tools/gen_namespace.py`` from the modules' ``__all__``
so that type checkers see each name (a test fails when they are stale); at
run time the names come from :data:`FAMILIES`, whatever those lines say.
This package imports nothing above it.
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # each family's names, for type checkers (written by tools/gen_namespace.py)
    from polars_rankmetrics.metrics.binary import f1 as f1
    from polars_rankmetrics.metrics.binary import hit_rate as hit_rate
    from polars_rankmetrics.metrics.binary import precision as precision
    from polars_rankmetrics.metrics.binary import r_precision as r_precision
    from polars_rankmetrics.metrics.binary import recall as recall
    from polars_rankmetrics.metrics.binary import relative_precision as relative_precision
    from polars_rankmetrics.metrics.binary import set_map as set_map
    from polars_rankmetrics.metrics.binary import utility as utility
    from polars_rankmetrics.metrics.calibration import category_diversity as category_diversity
    from polars_rankmetrics.metrics.calibration import miscalibration as miscalibration
    from polars_rankmetrics.metrics.calibration import rank_biased_entropy as rank_biased_entropy
    from polars_rankmetrics.metrics.classification import auroc as auroc
    from polars_rankmetrics.metrics.classification import f_beta as f_beta
    from polars_rankmetrics.metrics.classification import fallout as fallout
    from polars_rankmetrics.metrics.classification import recall_at_precision as recall_at_precision
    from polars_rankmetrics.metrics.classification import set_f as set_f
    from polars_rankmetrics.metrics.counts import covered_users as covered_users
    from polars_rankmetrics.metrics.counts import hits as hits
    from polars_rankmetrics.metrics.counts import num_q as num_q
    from polars_rankmetrics.metrics.counts import num_rel as num_rel
    from polars_rankmetrics.metrics.counts import num_rel_ret as num_rel_ret
    from polars_rankmetrics.metrics.counts import num_ret as num_ret
    from polars_rankmetrics.metrics.counts import sufficient_reco as sufficient_reco
    from polars_rankmetrics.metrics.counts import sufficient_reco_deep as sufficient_reco_deep
    from polars_rankmetrics.metrics.cumulative import cost_gain as cost_gain
    from polars_rankmetrics.metrics.cumulative import ndcg_rel as ndcg_rel
    from polars_rankmetrics.metrics.cumulative import rndcg as rndcg
    from polars_rankmetrics.metrics.cwl import cwl_ap as cwl_ap
    from polars_rankmetrics.metrics.cwl import cwl_bpm as cwl_bpm
    from polars_rankmetrics.metrics.cwl import cwl_bpm_dynamic as cwl_bpm_dynamic
    from polars_rankmetrics.metrics.cwl import cwl_ift_c1 as cwl_ift_c1
    from polars_rankmetrics.metrics.cwl import cwl_ift_c1_c2 as cwl_ift_c1_c2
    from polars_rankmetrics.metrics.cwl import cwl_ift_c2 as cwl_ift_c2
    from polars_rankmetrics.metrics.cwl import cwl_insq as cwl_insq
    from polars_rankmetrics.metrics.cwl import cwl_inst as cwl_inst
    from polars_rankmetrics.metrics.cwl import cwl_ndcg as cwl_ndcg
    from polars_rankmetrics.metrics.cwl import cwl_nerr8 as cwl_nerr8
    from polars_rankmetrics.metrics.cwl import cwl_nerr9 as cwl_nerr9
    from polars_rankmetrics.metrics.cwl import cwl_nerr10 as cwl_nerr10
    from polars_rankmetrics.metrics.cwl import cwl_nerr11 as cwl_nerr11
    from polars_rankmetrics.metrics.cwl import cwl_npv as cwl_npv
    from polars_rankmetrics.metrics.cwl import cwl_precision as cwl_precision
    from polars_rankmetrics.metrics.cwl import cwl_rbp as cwl_rbp
    from polars_rankmetrics.metrics.cwl import cwl_rr as cwl_rr
    from polars_rankmetrics.metrics.cwl import cwl_set as cwl_set
    from polars_rankmetrics.metrics.cwl import cwl_tbg as cwl_tbg
    from polars_rankmetrics.metrics.cwl import cwl_trap as cwl_trap
    from polars_rankmetrics.metrics.cwl import cwl_umeasure as cwl_umeasure
    from polars_rankmetrics.metrics.distribution import coverage as coverage
    from polars_rankmetrics.metrics.distribution import entropy as entropy
    from polars_rankmetrics.metrics.distribution import exposure_gini as exposure_gini
    from polars_rankmetrics.metrics.distribution import gini as gini
    from polars_rankmetrics.metrics.diversity import alpha_ndcg as alpha_ndcg
    from polars_rankmetrics.metrics.diversity import err_ia as err_ia
    from polars_rankmetrics.metrics.diversity import map_ia as map_ia
    from polars_rankmetrics.metrics.diversity import nerr_ia as nerr_ia
    from polars_rankmetrics.metrics.diversity import nnrbp as nnrbp
    from polars_rankmetrics.metrics.diversity import nrbp as nrbp
    from polars_rankmetrics.metrics.diversity import p_ia as p_ia
    from polars_rankmetrics.metrics.diversity import strec as strec
    from polars_rankmetrics.metrics.exposure import awrf as awrf
    from polars_rankmetrics.metrics.exposure import exposure_disparity as exposure_disparity
    from polars_rankmetrics.metrics.exposure import exposure_share as exposure_share
    from polars_rankmetrics.metrics.graded import dcg as dcg
    from polars_rankmetrics.metrics.graded import ndcg as ndcg
    from polars_rankmetrics.metrics.interpolated import eleven_point_average as eleven_point_average
    from polars_rankmetrics.metrics.interpolated import iprec_at_recall as iprec_at_recall
    from polars_rankmetrics.metrics.interpolated import rprec_mult as rprec_mult
    from polars_rankmetrics.metrics.ips import ips_hit_rate as ips_hit_rate
    from polars_rankmetrics.metrics.ips import ips_mrr as ips_mrr
    from polars_rankmetrics.metrics.ips import ips_ndcg as ips_ndcg
    from polars_rankmetrics.metrics.ips import ips_precision as ips_precision
    from polars_rankmetrics.metrics.ips import ips_rbp as ips_rbp
    from polars_rankmetrics.metrics.ips import ips_recall as ips_recall
    from polars_rankmetrics.metrics.judged import bpref as bpref
    from polars_rankmetrics.metrics.judged import gm_bpref as gm_bpref
    from polars_rankmetrics.metrics.judged import infap as infap
    from polars_rankmetrics.metrics.judged import num_nonrel_judged_ret as num_nonrel_judged_ret
    from polars_rankmetrics.metrics.judged import unjudged as unjudged
    from polars_rankmetrics.metrics.novelty import novelty as novelty
    from polars_rankmetrics.metrics.overlap import compat as compat
    from polars_rankmetrics.metrics.overlap import intersection as intersection
    from polars_rankmetrics.metrics.overlap import least_item_promoted as least_item_promoted
    from polars_rankmetrics.metrics.overlap import rbo as rbo
    from polars_rankmetrics.metrics.overlap import rbo_normalized as rbo_normalized
    from polars_rankmetrics.metrics.parity import pop_reo as pop_reo
    from polars_rankmetrics.metrics.parity import pop_rsp as pop_rsp
    from polars_rankmetrics.metrics.popularity import aclt as aclt
    from polars_rankmetrics.metrics.popularity import aplt as aplt
    from polars_rankmetrics.metrics.popularity import arp as arp
    from polars_rankmetrics.metrics.popularity import mean_pop_rank as mean_pop_rank
    from polars_rankmetrics.metrics.popularity import tail_percentage as tail_percentage
    from polars_rankmetrics.metrics.propensity import psndcg as psndcg
    from polars_rankmetrics.metrics.propensity import psp as psp
    from polars_rankmetrics.metrics.propensity import psrecall as psrecall
    from polars_rankmetrics.metrics.rank import average_precision as average_precision
    from polars_rankmetrics.metrics.rank import binary_cost_gain as binary_cost_gain
    from polars_rankmetrics.metrics.rank import gm_map as gm_map
    from polars_rankmetrics.metrics.rank import reciprocal_rank as reciprocal_rank
    from polars_rankmetrics.metrics.recsys import gauc as gauc
    from polars_rankmetrics.metrics.recsys import gauc_weighted as gauc_weighted
    from polars_rankmetrics.metrics.recsys import map_capped as map_capped
    from polars_rankmetrics.metrics.recsys import mar as mar
    from polars_rankmetrics.metrics.recsys import mcc as mcc
    from polars_rankmetrics.metrics.recsys import mpr as mpr
    from polars_rankmetrics.metrics.recsys import pap as pap
    from polars_rankmetrics.metrics.recsys import partial_auc as partial_auc
    from polars_rankmetrics.metrics.serendipity import serendipity as serendipity
    from polars_rankmetrics.metrics.similarity import intra_list_similarity as intra_list_similarity
    from polars_rankmetrics.metrics.similarity import personalization as personalization
    from polars_rankmetrics.metrics.surprise import surprisal as surprisal
    from polars_rankmetrics.metrics.surprise import unexpectedness as unexpectedness
    from polars_rankmetrics.metrics.text import relstring as relstring
    from polars_rankmetrics.metrics.user import err as err
    from polars_rankmetrics.metrics.user import rbp as rbp
    from polars_rankmetrics.metrics.user import rbp_resid as rbp_resid


ORDER = (
    "binary",
    "rank",
    "graded",
    "cumulative",
    "interpolated",
    "judged",
    "user",
    "counts",
    "text",
    "recsys",
    "distribution",
    "similarity",
    "novelty",
    "popularity",
    "parity",
    "surprise",
    "calibration",
    "serendipity",
    "exposure",
    "classification",
    "overlap",
    "diversity",
)
"""Where the registry and the docs list each family; a module not named here comes after these."""


def _modules(folder: str) -> set[str]:
    """The modules and packages in `folder`, found as ``pkgutil.iter_modules`` finds them.

    Read here from the directory: importing ``pkgutil`` (and what it imports) was a few
    milliseconds of the command's start-up. A folder that is no directory (a zip) is
    left to ``pkgutil``.
    """
    if not Path(folder).is_dir():
        import pkgutil  # noqa: PLC0415

        return {m.name for m in pkgutil.iter_modules([folder])}
    names = set()
    for entry in Path(folder).iterdir():
        name = inspect.getmodulename(entry.name)
        if name is None and "." not in entry.name and entry.is_dir():
            package = any(inspect.getmodulename(f.name) == "__init__" for f in entry.iterdir())
            name = entry.name if package else None
        if name and name != "__init__" and "." not in name:
            names.add(name)
    return names


def _families() -> tuple[ModuleType, ...]:
    found = sorted({name for folder in __path__ for name in _modules(folder) if not name.startswith("_")})
    listed = [name for name in ORDER if name in found] + [name for name in found if name not in ORDER]
    return tuple(importlib.import_module(f"{__name__}.{name}") for name in listed)


FAMILIES = _families()
"""Every family module, in the order the registry and the docs list them."""

__all__ = [name for family in FAMILIES for name in family.__all__]
# The names at run time, whether or not the generated lines above are current.
globals().update({name: getattr(family, name) for family in FAMILIES for name in family.__all__})
