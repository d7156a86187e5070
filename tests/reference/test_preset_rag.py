"""preset="llamaindex" and preset="ragas" with prm.from_id_lists against the RAG frameworks' ID-based metrics.

LlamaIndex is installed (the oracles extra): its classes are called. Ragas (0.4.3) pulls langchain,
openai and datasets and downgrades rich and tenacity, so it is not installed beside the rest; its two
ID-based metrics are transcribed below from its source, file and line cited.
"""

from __future__ import annotations

import math
import sys

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

# A generated question may retrieve no reference id: evaluate warns, as it should.
pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

# Every id of a list is relevant with gain 1 and every metric reads the whole retrieved list.
OURS = {
    "hit_rate": "hit_rate",
    "mrr": "mrr",
    "precision": "precision",
    "recall": "recall",
    "ap": "ap",
    "ndcg": "ndcg",
}
SET_BASED = ("hit_rate", "precision", "recall")  # each id once in LlamaIndex too: equal on any list
POSITION_BASED = ("mrr", "ap", "ndcg")  # LlamaIndex reads every copy of a repeated id


def ragas_id_based_context_precision(retrieved: list[object], reference: list[object]) -> float:
    """Ragas 0.4.3, ragas/metrics/_context_precision.py, IDBasedContextPrecision._single_turn_ascore.

    Lines 286-303: both lists as sets of ``str(id)``; the retrieved ids found among the reference
    ids over the retrieved ids (NaN for no retrieved id, line 291).
    """
    retrieved_ids = {str(i) for i in retrieved}
    reference_ids = {str(i) for i in reference}
    hits = sum(1 for i in retrieved_ids if i in reference_ids)
    return hits / len(retrieved_ids)


def ragas_id_based_context_recall(retrieved: list[object], reference: list[object]) -> float:
    """Ragas 0.4.3, ragas/metrics/_context_recall.py, IDBasedContextRecall._single_turn_ascore.

    Lines 262-272: both lists as sets of ``str(id)``; the reference ids found among the retrieved
    ids over the reference ids (NaN for no reference id).
    """
    retrieved_ids = {str(i) for i in retrieved}
    reference_ids = {str(i) for i in reference}
    hits = sum(1 for i in reference_ids if i in retrieved_ids)
    return hits / len(reference_ids)


@st.composite
def rag_samples(draw: st.DrawFn) -> pl.DataFrame:
    """Questions with retrieved ids (repeats included) and reference ids (repeats included), never empty."""
    pool = [f"n{i}" for i in range(draw(st.integers(2, 10)))]
    rows = []
    for q in range(draw(st.integers(1, 6))):
        retrieved = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=8))
        reference = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4))
        rows.append((f"q{q}", retrieved, reference))
    return pl.DataFrame(rows, schema=["query", "retrieved_ids", "reference_ids"], orient="row")


def _llamaindex(name: str, retrieved: list[str], expected: list[str]) -> float:
    li = pytest.importorskip(
        "llama_index.core.evaluation.retrieval.metrics"
    )  # the Ragas tests run without it
    metric = li.METRIC_REGISTRY[name]()
    return float(metric.compute(expected_ids=expected, retrieved_ids=retrieved).score)


def _ours(samples: pl.DataFrame, names: list[str], preset: str) -> dict[str, dict[str, float]]:
    run, qrels = prm.from_id_lists(samples)
    out = prm.evaluate(run, names, qrels=qrels, preset=preset, per_query=True)
    return {row.pop("query"): row for row in out.iter_rows(named=True)}


def _same(name: str, got: float, theirs: float) -> bool:
    """Bit for bit, but AP and NDCG within 4 ulps.

    Their sums here are exact (fixed point, then rounded once), LlamaIndex's float additions in list
    order; NDCG's discount is Polars' ``log(2)`` (ln x / ln 2), LlamaIndex's ``math.log2``: the two
    differ in the last bit for 76 of the ranks 2..199.
    """
    if name in ("ap", "ndcg"):
        return math.isclose(got, theirs, rel_tol=4 * sys.float_info.epsilon, abs_tol=0.0)
    return got == theirs


@settings(max_examples=80)
@given(rag_samples())
def test_llamaindex_preset_equals_llamaindex(samples: pl.DataFrame) -> None:
    ours = _ours(samples, list(OURS.values()), "llamaindex")
    assert set(ours) == set(samples["query"])
    for query, retrieved, expected in samples.iter_rows():
        # The rule: a repeated retrieved id once, at its first position; a repeated expected id once.
        once, expected_once = list(dict.fromkeys(retrieved)), list(dict.fromkeys(expected))
        for name, ours_name in OURS.items():
            got = ours[query][ours_name]
            theirs = _llamaindex(name, retrieved, expected)
            if name in SET_BASED or (once == retrieved and (name != "ndcg" or expected_once == expected)):
                assert _same(name, got, theirs), (query, name, got, theirs)
            else:  # LlamaIndex reads every copy (and its NDCG's ideal list every expected copy)
                assert _same(name, got, _llamaindex(name, once, expected_once)), (query, name)
            assert 0.0 <= got <= 1.0


@settings(max_examples=80)
@given(rag_samples())
def test_ragas_preset_equals_ragas_id_based_metrics(samples: pl.DataFrame) -> None:
    ours = _ours(samples, ["precision", "recall"], "ragas")
    for query, retrieved, reference in samples.iter_rows():
        assert ours[query]["precision"] == ragas_id_based_context_precision(retrieved, reference)
        assert ours[query]["recall"] == ragas_id_based_context_recall(retrieved, reference)


def test_llamaindex_leaves_the_unit_interval_on_repeated_ids_and_the_rule_does_not() -> None:
    samples = pl.DataFrame({"query": ["q"], "retrieved_ids": [["id1", "id1"]], "reference_ids": [["id1"]]})
    assert _llamaindex("ap", ["id1", "id1"], ["id1"]) == 2.0
    assert _llamaindex("ndcg", ["id1", "id1"], ["id1"]) > 1.0
    ours = _ours(samples, ["ap", "ndcg", "mrr"], "llamaindex")["q"]
    assert ours == {"ap": 1.0, "ndcg": 1.0, "mrr": 1.0}


def test_from_id_lists_bad_input() -> None:
    good = pl.DataFrame({"query": ["q"], "retrieved_ids": [["a"]], "reference_ids": [["a"]]})
    with pytest.raises(prm.ColumnNotFoundError, match="retrieved_ids"):
        prm.from_id_lists(good.drop("retrieved_ids"))
    with pytest.raises(prm.ColumnTypeError, match="list"):
        prm.from_id_lists(good.with_columns(pl.lit("a").alias("reference_ids")))
    with pytest.raises(prm.InvalidDataError, match="question"):
        prm.from_id_lists(pl.concat([good, good]))
    with pytest.raises(prm.InvalidDataError, match="null id"):
        prm.from_id_lists(good.with_columns(pl.lit([None], pl.List(pl.String)).alias("retrieved_ids")))
