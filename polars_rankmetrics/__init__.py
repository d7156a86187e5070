"""polars-rankmetrics: ranking evaluation as lazy Polars expressions.

Importing the package registers the ``.rank`` namespace on DataFrame and
LazyFrame. The modules a plain evaluation does not use (``expr``, ``plots``,
fusion, the significance tests, the judges, curves, chunked evaluation, id
lists) are imported when one of their names is first read, so that
``import polars_rankmetrics`` and the ``rankmetrics`` command start fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from polars_rankmetrics import (
    _allocator,  # noqa: F401  (first: the command's allocator, before Polars loads)
    metrics,
)
from polars_rankmetrics._demo import demo_path
from polars_rankmetrics._registry import parse, valid_names
from polars_rankmetrics._schema import Columns
from polars_rankmetrics._spec import Metric
from polars_rankmetrics.checks import validate
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.evaluation import collect, evaluate, population
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InnerJoinWarning,
    InvalidDataError,
    InvalidInputError,
    InvalidParameterError,
    MissingQueriesError,
    RankMetricsError,
    RankMetricsWarning,
    TrecFormatError,
    UnknownMetricError,
)
from polars_rankmetrics.io import (
    join_run_qrels,
    read_trec_qrels,
    read_trec_run,
    scan_trec_qrels,
    scan_trec_run,
)
from polars_rankmetrics.namespace import RankFrame

if TYPE_CHECKING:
    from polars_rankmetrics import expr, offpolicy, plots
    from polars_rankmetrics.accumulate import Accumulator
    from polars_rankmetrics.chunked import evaluate_chunked
    from polars_rankmetrics.curves import pr_curve
    from polars_rankmetrics.debias import debias_qrels
    from polars_rankmetrics.fusion import FusionSearch, fuse, optimize_fusion
    from polars_rankmetrics.id_lists import from_id_lists
    from polars_rankmetrics.judges import (
        agreement,
        confusion_table,
        fill_judgments,
        judgment_shares,
        system_agreement,
        system_swaps,
    )
    from polars_rankmetrics.significance import (
        compare,
        discriminative_power,
        power,
        rank_correlation,
        summarize,
    )
    from polars_rankmetrics.significance.table import table, table_markdown

# Public names imported when first read (module, attribute; None: the module itself).
_LAZY: dict[str, tuple[str, str | None]] = {
    "Accumulator": ("polars_rankmetrics.accumulate", "Accumulator"),
    "expr": ("polars_rankmetrics.expr", None),
    "plots": ("polars_rankmetrics.plots", None),
    "offpolicy": ("polars_rankmetrics.offpolicy", None),
    "evaluate_chunked": ("polars_rankmetrics.chunked", "evaluate_chunked"),
    "pr_curve": ("polars_rankmetrics.curves", "pr_curve"),
    "debias_qrels": ("polars_rankmetrics.debias", "debias_qrels"),
    "FusionSearch": ("polars_rankmetrics.fusion", "FusionSearch"),
    "fuse": ("polars_rankmetrics.fusion", "fuse"),
    "from_id_lists": ("polars_rankmetrics.id_lists", "from_id_lists"),
    "optimize_fusion": ("polars_rankmetrics.fusion", "optimize_fusion"),
    **{
        name: ("polars_rankmetrics.judges", name)
        for name in (
            "agreement",
            "confusion_table",
            "fill_judgments",
            "judgment_shares",
            "system_agreement",
            "system_swaps",
        )
    },
    "compare": ("polars_rankmetrics.significance", "compare"),
    "discriminative_power": ("polars_rankmetrics.significance", "discriminative_power"),
    "power": ("polars_rankmetrics.significance", "power"),
    "rank_correlation": ("polars_rankmetrics.significance", "rank_correlation"),
    "summarize": ("polars_rankmetrics.significance", "summarize"),
    "table": ("polars_rankmetrics.significance", "table"),
    "table_markdown": ("polars_rankmetrics.significance", "table_markdown"),
}


def __getattr__(name: str) -> Any:  # noqa: ANN401  (any of the lazy names)
    """Import a lazily exported name on first use and keep it in the package's namespace."""
    if name not in _LAZY:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    module_name, attribute = _LAZY[name]
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The package's names, the lazy ones included."""
    return sorted({*globals(), *_LAZY})


# The metric constructors at run time, from the family modules (metrics.FAMILIES).
globals().update({name: getattr(metrics, name) for name in metrics.__all__})

if TYPE_CHECKING:  # the metric constructors, for type checkers (written by tools/gen_namespace.py)
    from polars_rankmetrics.metrics import aclt as aclt
    from polars_rankmetrics.metrics import alpha_ndcg as alpha_ndcg
    from polars_rankmetrics.metrics import aplt as aplt
    from polars_rankmetrics.metrics import arp as arp
    from polars_rankmetrics.metrics import auroc as auroc
    from polars_rankmetrics.metrics import average_precision as average_precision
    from polars_rankmetrics.metrics import awrf as awrf
    from polars_rankmetrics.metrics import binary_cost_gain as binary_cost_gain
    from polars_rankmetrics.metrics import bpref as bpref
    from polars_rankmetrics.metrics import category_diversity as category_diversity
    from polars_rankmetrics.metrics import compat as compat
    from polars_rankmetrics.metrics import cost_gain as cost_gain
    from polars_rankmetrics.metrics import coverage as coverage
    from polars_rankmetrics.metrics import covered_users as covered_users
    from polars_rankmetrics.metrics import cwl_ap as cwl_ap
    from polars_rankmetrics.metrics import cwl_bpm as cwl_bpm
    from polars_rankmetrics.metrics import cwl_bpm_dynamic as cwl_bpm_dynamic
    from polars_rankmetrics.metrics import cwl_ift_c1 as cwl_ift_c1
    from polars_rankmetrics.metrics import cwl_ift_c1_c2 as cwl_ift_c1_c2
    from polars_rankmetrics.metrics import cwl_ift_c2 as cwl_ift_c2
    from polars_rankmetrics.metrics import cwl_insq as cwl_insq
    from polars_rankmetrics.metrics import cwl_inst as cwl_inst
    from polars_rankmetrics.metrics import cwl_ndcg as cwl_ndcg
    from polars_rankmetrics.metrics import cwl_nerr8 as cwl_nerr8
    from polars_rankmetrics.metrics import cwl_nerr9 as cwl_nerr9
    from polars_rankmetrics.metrics import cwl_nerr10 as cwl_nerr10
    from polars_rankmetrics.metrics import cwl_nerr11 as cwl_nerr11
    from polars_rankmetrics.metrics import cwl_npv as cwl_npv
    from polars_rankmetrics.metrics import cwl_precision as cwl_precision
    from polars_rankmetrics.metrics import cwl_rbp as cwl_rbp
    from polars_rankmetrics.metrics import cwl_rr as cwl_rr
    from polars_rankmetrics.metrics import cwl_set as cwl_set
    from polars_rankmetrics.metrics import cwl_tbg as cwl_tbg
    from polars_rankmetrics.metrics import cwl_trap as cwl_trap
    from polars_rankmetrics.metrics import cwl_umeasure as cwl_umeasure
    from polars_rankmetrics.metrics import dcg as dcg
    from polars_rankmetrics.metrics import eleven_point_average as eleven_point_average
    from polars_rankmetrics.metrics import entropy as entropy
    from polars_rankmetrics.metrics import err as err
    from polars_rankmetrics.metrics import err_ia as err_ia
    from polars_rankmetrics.metrics import exposure_disparity as exposure_disparity
    from polars_rankmetrics.metrics import exposure_gini as exposure_gini
    from polars_rankmetrics.metrics import exposure_share as exposure_share
    from polars_rankmetrics.metrics import f1 as f1
    from polars_rankmetrics.metrics import f_beta as f_beta
    from polars_rankmetrics.metrics import fallout as fallout
    from polars_rankmetrics.metrics import gauc as gauc
    from polars_rankmetrics.metrics import gauc_weighted as gauc_weighted
    from polars_rankmetrics.metrics import gini as gini
    from polars_rankmetrics.metrics import gm_bpref as gm_bpref
    from polars_rankmetrics.metrics import gm_map as gm_map
    from polars_rankmetrics.metrics import hit_rate as hit_rate
    from polars_rankmetrics.metrics import hits as hits
    from polars_rankmetrics.metrics import infap as infap
    from polars_rankmetrics.metrics import intersection as intersection
    from polars_rankmetrics.metrics import intra_list_similarity as intra_list_similarity
    from polars_rankmetrics.metrics import iprec_at_recall as iprec_at_recall
    from polars_rankmetrics.metrics import ips_hit_rate as ips_hit_rate
    from polars_rankmetrics.metrics import ips_mrr as ips_mrr
    from polars_rankmetrics.metrics import ips_ndcg as ips_ndcg
    from polars_rankmetrics.metrics import ips_precision as ips_precision
    from polars_rankmetrics.metrics import ips_rbp as ips_rbp
    from polars_rankmetrics.metrics import ips_recall as ips_recall
    from polars_rankmetrics.metrics import least_item_promoted as least_item_promoted
    from polars_rankmetrics.metrics import map_capped as map_capped
    from polars_rankmetrics.metrics import map_ia as map_ia
    from polars_rankmetrics.metrics import mar as mar
    from polars_rankmetrics.metrics import mcc as mcc
    from polars_rankmetrics.metrics import mean_pop_rank as mean_pop_rank
    from polars_rankmetrics.metrics import miscalibration as miscalibration
    from polars_rankmetrics.metrics import mpr as mpr
    from polars_rankmetrics.metrics import ndcg as ndcg
    from polars_rankmetrics.metrics import ndcg_rel as ndcg_rel
    from polars_rankmetrics.metrics import nerr_ia as nerr_ia
    from polars_rankmetrics.metrics import nnrbp as nnrbp
    from polars_rankmetrics.metrics import novelty as novelty
    from polars_rankmetrics.metrics import nrbp as nrbp
    from polars_rankmetrics.metrics import num_nonrel_judged_ret as num_nonrel_judged_ret
    from polars_rankmetrics.metrics import num_q as num_q
    from polars_rankmetrics.metrics import num_rel as num_rel
    from polars_rankmetrics.metrics import num_rel_ret as num_rel_ret
    from polars_rankmetrics.metrics import num_ret as num_ret
    from polars_rankmetrics.metrics import p_ia as p_ia
    from polars_rankmetrics.metrics import pap as pap
    from polars_rankmetrics.metrics import partial_auc as partial_auc
    from polars_rankmetrics.metrics import personalization as personalization
    from polars_rankmetrics.metrics import pop_reo as pop_reo
    from polars_rankmetrics.metrics import pop_rsp as pop_rsp
    from polars_rankmetrics.metrics import precision as precision
    from polars_rankmetrics.metrics import psndcg as psndcg
    from polars_rankmetrics.metrics import psp as psp
    from polars_rankmetrics.metrics import psrecall as psrecall
    from polars_rankmetrics.metrics import r_precision as r_precision
    from polars_rankmetrics.metrics import rank_biased_entropy as rank_biased_entropy
    from polars_rankmetrics.metrics import rbo as rbo
    from polars_rankmetrics.metrics import rbo_normalized as rbo_normalized
    from polars_rankmetrics.metrics import rbp as rbp
    from polars_rankmetrics.metrics import rbp_resid as rbp_resid
    from polars_rankmetrics.metrics import recall as recall
    from polars_rankmetrics.metrics import recall_at_precision as recall_at_precision
    from polars_rankmetrics.metrics import reciprocal_rank as reciprocal_rank
    from polars_rankmetrics.metrics import relative_precision as relative_precision
    from polars_rankmetrics.metrics import relstring as relstring
    from polars_rankmetrics.metrics import rndcg as rndcg
    from polars_rankmetrics.metrics import rprec_mult as rprec_mult
    from polars_rankmetrics.metrics import serendipity as serendipity
    from polars_rankmetrics.metrics import set_f as set_f
    from polars_rankmetrics.metrics import set_map as set_map
    from polars_rankmetrics.metrics import strec as strec
    from polars_rankmetrics.metrics import sufficient_reco as sufficient_reco
    from polars_rankmetrics.metrics import sufficient_reco_deep as sufficient_reco_deep
    from polars_rankmetrics.metrics import surprisal as surprisal
    from polars_rankmetrics.metrics import tail_percentage as tail_percentage
    from polars_rankmetrics.metrics import unexpectedness as unexpectedness
    from polars_rankmetrics.metrics import unjudged as unjudged
    from polars_rankmetrics.metrics import utility as utility

__version__ = "0.1.0"

__all__ = [  # noqa: PLE0604 (the families' names, read at run time)
    "Accumulator",
    "ColumnNotFoundError",
    "ColumnTypeError",
    "Columns",
    "Conventions",
    "FusionSearch",
    "InnerJoinWarning",
    "InvalidDataError",
    "InvalidInputError",
    "InvalidParameterError",
    "Metric",
    "MissingQueriesError",
    "RankFrame",
    "RankMetricsError",
    "RankMetricsWarning",
    "TrecFormatError",
    "UnknownMetricError",
    "agreement",
    "collect",
    "compare",
    "confusion_table",
    "debias_qrels",
    "demo_path",
    "discriminative_power",
    "evaluate",
    "evaluate_chunked",
    "expr",
    "fill_judgments",
    "from_id_lists",
    "fuse",
    "join_run_qrels",
    "judgment_shares",
    "optimize_fusion",
    "parse",
    "offpolicy",
    "plots",
    "population",
    "power",
    "pr_curve",
    "rank_correlation",
    "read_trec_qrels",
    "read_trec_run",
    "scan_trec_qrels",
    "scan_trec_run",
    "summarize",
    "system_agreement",
    "system_swaps",
    "table",
    "table_markdown",
    "valid_names",
    "validate",
    *metrics.__all__,  # the metric constructors (prm.ndcg, prm.rbp...): each family module's __all__
]
