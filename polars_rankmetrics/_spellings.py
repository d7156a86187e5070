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
    # The names recommender and RAG libraries give (matched in any case when no name matches exactly:
    # MRR, Map@10, HR@10, hitrate@10, NDCG@10, Recall@10...). RecBole
    # (https://recbole.io/docs/user_guide/evaluation_support.html): hit, mrr, ndcg, map, precision, recall,
    # itemcoverage, averagepopularity, giniindex, shannonentropy, tailpercentage.
    "HR": "hit_rate",
    "HitRate": "hit_rate",
    "Hit": "hit_rate",
    "MRR": "mrr",
    "MAP": "map",
    "NDCG": "ndcg",
    "Recall": "recall",
    "Precision": "precision",
    "ItemCoverage": "coverage",
    "AveragePopularity": "arp",
    "GiniIndex": "gini",
    "ShannonEntropy": "entropy",
    # RecTools (rectools.metrics): HitRate, MAP, MRR, NDCG, Precision, Recall above; and these
    # (its IntraListDiversity is a distance, not our similarity: no spelling).
    "MeanInvUserFreq": "novelty",
    "CatalogCoverage": "coverage",
    "AvgRecPopularity": "arp",
    # LensKit (lenskit.metrics): Hit, NDCG, Precision, Recall above; and these.
    "RecipRank": "mrr",
    "DCG": "dcg",
    # RePlay (replay.metrics): HitRate, MAP, MRR, NDCG, Precision, Recall, Surprisal, Unexpectedness,
    # CategoricalDiversity are above or aliases of ours; and these.
    "Coverage": "coverage",
    "Novelty": "novelty",
    # torchmetrics' functional names (torchmetrics.functional.retrieval).
    "retrieval_precision": "precision",
    "retrieval_recall": "recall",
    "retrieval_average_precision": "map",
    "retrieval_reciprocal_rank": "mrr",
    "retrieval_normalized_dcg": "ndcg",
    "retrieval_hit_rate": "hit_rate",
    "retrieval_r_precision": "r_precision",
    "retrieval_fall_out": "fallout",
    "retrieval_auroc": "auroc",
    # LlamaIndex's retrieval metrics (llama_index.core.evaluation.retrieval.metrics): their metric_name
    # (hit_rate, mrr, precision, recall, ap, ndcg are ours already) and class names.
    "AveragePrecision": "map",
}
"""Other libraries' metric names, each the spelling of one of our families."""

_DOTTED = re.compile(r"^(?P<name>[A-Za-z_0-9]+)\.(?P<param>\d*\.?\d+)\Z")


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
