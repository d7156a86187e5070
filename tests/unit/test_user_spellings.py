"""Names users type from ranx, ir_measures and trec_eval's -m parse to our metrics and round-trip."""

from __future__ import annotations

import pytest

import polars_rankmetrics as prm

SPELLED = [
    # ranx
    ("ndcg@10", "ndcg@10"),
    ("precision@5", "precision@5"),
    ("recall@100", "recall@100"),
    ("mrr", "mrr"),
    ("map@100", "map@100"),
    ("hit_rate@10", "hit_rate@10"),
    ("r-precision", "r_precision"),
    # ir_measures
    ("nDCG@10", "ndcg@10"),
    ("nDCG", "ndcg"),
    ("P@5", "precision@5"),
    ("AP", "map"),
    ("AP@10", "map@10"),
    ("RR", "mrr"),
    ("RR@10", "mrr@10"),
    ("R@100", "recall@100"),
    ("Success@5", "hit_rate@5"),
    ("Rprec", "r_precision"),
    ("Bpref", "bpref"),
    ("RBP(p=0.8)", "rbp(p=0.8)"),
    ("NumRelRet", "num_rel_ret"),
    ("ERR@20", "err@20"),
    ("SetF", "f1"),
    # torchmetrics' classes, scikit-learn's scorer
    ("RetrievalMAP@10", "map@10"),
    ("RetrievalNormalizedDCG@5", "ndcg@5"),
    ("RetrievalFallOut@5", "fallout@5"),
    ("RetrievalAUROC", "auroc"),
    ("AUROC(max_fpr=0.5)", "auroc(max_fpr=0.5)"),
    ("roc_auc", "auroc"),
    ("RetrievalRecallAtFixedPrecision(precision=0.5)@3", "recall_at_precision(precision=0.5)@3"),
    # our own alternatives
    ("fbeta(beta=2)@3", "f_beta(beta=2)@3"),
    ("fall_out@5", "fallout@5"),
    # trec_eval, its report names and its -m form
    ("ndcg_cut_10", "ndcg@10"),
    ("ndcg_cut.10", "ndcg@10"),
    ("P_5", "precision@5"),
    ("P.5", "precision@5"),
    ("recall.100", "recall@100"),
    ("map_cut.100", "map@100"),
    ("success.5", "hit_rate@5"),
    ("iprec_at_recall.0.10", "iprec_at_recall(recall=0.1)"),
]


@pytest.mark.parametrize(("typed", "canonical"), SPELLED)
def test_spelling_parses_and_round_trips(typed: str, canonical: str) -> None:
    metric = prm.parse(typed)
    assert str(metric) == canonical
    assert prm.parse(str(metric)) == metric


def test_ir_measures_and_trec_spellings_are_the_same_metric() -> None:
    assert prm.parse("nDCG@10") == prm.parse("ndcg_cut.10") == prm.parse("ndcg@10") == prm.ndcg(10)
    assert prm.parse("AP") == prm.parse("map") == prm.average_precision()


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        ("P_10x", "P_k"),
        ("nDGC@10", "ndcg@k"),
        ("ndcg_cutt_10", "ndcg_cut_k"),
        ("mrrr", "mrr"),
        ("falout@5", "fallout@k"),
        ("RetrievalFalOut", "RetrievalFallOut@k"),
        ("f_betta@3", "f_beta@k"),
    ],
)
def test_unknown_name_suggests_the_closest(typed: str, suggested: str) -> None:
    with pytest.raises(prm.UnknownMetricError, match=rf"did you mean [^?]*'{suggested}'"):
        prm.parse(typed)


def test_other_libraries_spellings_are_listed_as_valid() -> None:
    names = prm.valid_names()
    assert {"nDCG@k", "AP@k", "RR@k", "R@k", "r-precision"} <= set(names)


@pytest.mark.parametrize("name", ["alpha_ndcg@10", "alpha_nDCG@20", "ERR_IA@5", "nrbp", "StRecall@10"])
def test_diversity_names_are_metrics_of_the_one_registry(name: str) -> None:
    assert prm.parse(name).spec.needs >= {"intents"}
    assert name.split("@", maxsplit=1)[0] + ("@k" if "@" in name else "") in prm.valid_names()


def test_torchmetrics_spellings_are_listed_as_valid() -> None:
    names = set(prm.valid_names())
    torchmetrics = {"RetrievalMAP@k", "RetrievalFallOut@k", "RetrievalAUROC"}
    torchmetrics |= {"RetrievalRecallAtFixedPrecision@k"}
    assert torchmetrics <= names


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [("alpha-nDCG@20", "alpha_ndcg@20"), ("alpha_nDCG@20", "alpha_ndcg@20"), ("ERR_IA@5", "err_ia@5"),
     ("nERR-IA@5", "nerr_ia@5"), ("NRBP", "nrbp"), ("nNRBP", "nnrbp"), ("P_IA@5", "p_ia@5"),
     ("AP_IA", "map_ia"), ("MAP-IA", "map_ia"), ("StRecall@10", "strec@10")],
)  # fmt: skip
def test_diversity_spellings_parse_and_round_trip(typed: str, canonical: str) -> None:
    metric = prm.parse(typed)
    assert str(metric) == canonical
    assert prm.parse(str(metric)) == metric


@pytest.mark.parametrize(("typed", "suggested"), [("alpha_ndgc@10", "alpha_ndcg"), ("StRecal@5", "StRecall")])
def test_misspelt_diversity_names_suggest_the_closest(typed: str, suggested: str) -> None:
    with pytest.raises(prm.UnknownMetricError, match=rf"did you mean [^?]*'{suggested}@k'"):
        prm.parse(typed)
