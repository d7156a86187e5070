"""The names users type from other libraries, as spellings of our metric families.

ir_measures' measure names (``nDCG@10``, ``P@5``, ``AP``, ``RR@10``,
``R@100``), ranx's (``ndcg@10``, ``precision@5``, ``mrr``, ``r-precision``;
most are our canonical names already), torchmetrics' class names
(``RetrievalMAP``, ``RetrievalFallOut``, ``RetrievalAUROC``...) and trec_eval's ``-m`` form with a dot
(``ndcg_cut.10``, ``P.5``, ``iprec_at_recall.0.10``) parse to the same
metrics as our names; ``str(metric)`` gives the canonical name back. A
spelling is a table entry here, not a code path.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["SPELLINGS", "dotted"]

SPELLINGS: Mapping[str, str] = {
    # ir_measures (https://ir-measur.es/en/latest/measures.html): name -> our family.
    "nDCG": "ndcg",
    "R": "recall",
    "AP": "map",
    "RR": "mrr",
    "Success": "hit_rate",
    "Rprec": "r_precision",
    "Bpref": "bpref",
    "ERR": "err",
    "RBP": "rbp",
    "NumRet": "num_ret",
    "NumRel": "num_rel",
    "NumRelRet": "num_rel_ret",
    "NumQ": "num_q",
    "SetP": "precision",
    "SetR": "recall",
    "SetF": "f1",
    # ranx (https://amenra.github.io/ranx/metrics/): the ones that are not our names already.
    "r-precision": "r_precision",
    "r_precision": "r_precision",
    "hit-rate": "hit_rate",
    # torchmetrics' retrieval metrics (https://lightning.ai/docs/torchmetrics/stable/retrieval/),
    # class names; their values under ours need the preset "torchmetrics" where it differs.
    "RetrievalPrecision": "precision",
    "RetrievalRecall": "recall",
    "RetrievalMAP": "map",
    "RetrievalMRR": "mrr",
    "RetrievalNormalizedDCG": "ndcg",
    "RetrievalHitRate": "hit_rate",
    "RetrievalRPrecision": "r_precision",
    "RetrievalFallOut": "fallout",
    "RetrievalAUROC": "auroc",
    "RetrievalRecallAtFixedPrecision": "recall_at_precision",
    # scikit-learn's scorer name and torchmetrics' classification class for ROC AUC.
    "roc_auc": "auroc",
    "AUROC": "auroc",
}
"""Other libraries' metric names, each the spelling of one of our families."""

_DOTTED = re.compile(r"^(?P<name>[A-Za-z_0-9]+)\.(?P<param>\d*\.?\d+)$", re.ASCII)


def dotted(name: str) -> str | None:
    """trec_eval's ``-m`` spelling of one measure (``P.5``, ``ndcg_cut.10``) as its report name (``P_5``).

    Returns None when `name` has no such form.

    Examples
    --------
    >>> from polars_rankmetrics._spellings import dotted
    >>> dotted("ndcg_cut.10"), dotted("iprec_at_recall.0.10"), dotted("ndcg@10")
    ('ndcg_cut_10', 'iprec_at_recall_0.10', None)
    """
    match = _DOTTED.match(name)
    return None if match is None else f"{match.group('name')}_{match.group('param')}"
