"""The names users type from recommender and RAG libraries parse to our metrics; unknown names are short."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm

TYPED = [
    ("MRR", "mrr"),
    ("MAP", "map"),
    ("HR@10", "hit_rate@10"),
    ("HitRate@10", "hit_rate@10"),
    ("hit_rate@10", "hit_rate@10"),
    ("NDCG@10", "ndcg@10"),
    ("Recall@10", "recall@10"),
    ("Precision@10", "precision@10"),
    ("MAP@10", "map@10"),
    ("MRR@10", "mrr@10"),
    # RecBole's lower-case names
    ("hit@10", "hit_rate@10"),
    ("itemcoverage@10", "coverage@10"),
    ("giniindex@10", "gini@10"),
    ("averagepopularity@10", "arp@10"),
    ("tailpercentage@10", "tail_percentage@10"),
    # RecTools
    ("MeanInvUserFreq@10", "novelty@10"),
    ("CatalogCoverage@10", "coverage@10"),
    ("AvgRecPopularity@10", "arp@10"),
    # LensKit
    ("RecipRank", "mrr"),
    ("Hit@5", "hit_rate@5"),
    # RePlay
    ("Novelty@10", "novelty@10"),
    ("Surprisal@10", "surprisal@10"),
    ("CategoricalDiversity@10", "category_diversity@10"),
    # torchmetrics: class and functional names
    ("RetrievalNormalizedDCG@10", "ndcg@10"),
    ("retrieval_normalized_dcg@10", "ndcg@10"),
    ("retrieval_average_precision", "map"),
    ("retrieval_reciprocal_rank@10", "mrr@10"),
    ("retrieval_hit_rate@10", "hit_rate@10"),
    # LlamaIndex's metric names and class names
    ("hit_rate", "hit_rate"),
    ("ap", "map"),
    ("AveragePrecision", "map"),
]


@pytest.mark.parametrize(("typed", "canonical"), TYPED)
def test_a_name_users_type_parses_to_our_metric(typed: str, canonical: str) -> None:
    assert str(prm.parse(typed)) == canonical
    for cased in (typed.lower(), typed.upper(), typed.swapcase()):
        assert str(prm.parse(cased)) == canonical, cased


def test_no_two_families_share_a_spelling_in_any_case() -> None:
    from polars_rankmetrics import _registry  # noqa: PLC0415

    seen: dict[str, str] = {}
    for spelled, spec in _registry._by_spelling().items():  # noqa: SLF001
        assert seen.setdefault(spelled.lower(), spec.name) == spec.name, spelled


def test_typed_names_evaluate_as_their_columns() -> None:
    df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "b"], "score": [0.9, 0.1, 0.8, 0.2]})
    df = df.with_columns(relevance=pl.Series([0, 1, 1, 0]))
    out = prm.evaluate(df, ["MRR", "HR@1", "NDCG@2"])
    assert out.columns == ["MRR", "HR@1", "NDCG@2"]
    assert out.row(0) == pytest.approx((0.75, 0.5, (1 / 1.584962500721156 + 1) / 2))


@pytest.mark.parametrize("name", ["ndcg@10\n", " ndcg@10", "ndcg@10 ", "\tmap"])
def test_a_name_with_blanks_around_is_refused_everywhere(name: str) -> None:
    with pytest.raises(prm.UnknownMetricError, match="blanks around it: write") as raised:
        prm.parse(name)
    assert str(raised.value).count("\n") == 0
    df = pl.DataFrame({"query": [1], "item": ["a"], "score": [1.0], "relevance": [1]})
    with pytest.raises(prm.UnknownMetricError, match="blanks around it"):
        prm.evaluate(df, [name])


@pytest.mark.parametrize(
    "typed", ["foo@10", "nDGC@10", "x" * 5000, "retrieval_ndgc@10", "P_10x", "mapp@1000000"]
)
def test_unknown_name_is_short_with_five_suggestions_at_most(typed: str) -> None:
    with pytest.raises(prm.UnknownMetricError) as raised:
        prm.parse(typed)
    message = str(raised.value)
    assert len(message) < 400, message
    assert "prm.valid_names()" in message
    assert "Metrics page" in message
    suggested = message.partition("did you mean ")[2].partition("?")[0]
    assert suggested.count("'") <= 10
