"""The diversity suite against pyndeval (ndeval.c 4.5 inside), per query, on generated intent data.

Frames: queries with several intents, items relevant to several intents,
graded judgments (binary at the relevance level), judgments of 0, items
judged for some intents only, unjudged retrieved items, relevant items
never retrieved, queries with no relevant intent, run-only and qrels-only
queries, ties in score. pyndeval breaks score ties by ascending id, this
library (trec_eval) by descending id: pyndeval gets the ranking as
``-position`` in the library's order, so both rank the same.
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl
import pyndeval
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import trec_order

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings(
    "ignore::polars_rankmetrics.RankMetricsWarning"
)  # generated data is often degenerate on purpose (evaluate warns)

TOLERANCE = 1e-9
ITEMS = ("d1", "d2", "d3", "d10", "d11", "a", "b", "Z", "d9", "x")
INTENTS = ("1", "2", "3", "4")
CUTOFFS = (1, 2, 3, 5, 10, 20)
OURS = [f"{m}@{k}" for m in ("alpha_ndcg", "err_ia", "nerr_ia", "p_ia", "strec") for k in CUTOFFS]
OURS += ["nrbp", "nnrbp", "map_ia"]
THEIRS = {"alpha_ndcg": "alpha-nDCG", "err_ia": "ERR-IA", "nerr_ia": "nERR-IA", "p_ia": "P-IA",
          "strec": "strec", "nrbp": "NRBP", "nnrbp": "nNRBP", "map_ia": "MAP-IA"}  # fmt: skip


@st.composite
def intent_data(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A run (query, item, score) and intent qrels (query, intent, item, relevance)."""
    run: list[dict[str, Any]] = []
    qrels: list[dict[str, Any]] = []
    for query in draw(st.lists(st.sampled_from(["1", "2", "3", "7"]), unique=True, min_size=1, max_size=4)):
        items = draw(st.lists(st.sampled_from(ITEMS), unique=True, min_size=1, max_size=len(ITEMS)))
        for item in items:
            if draw(st.integers(0, 4)):  # retrieved (ties: three scores)
                run.append({"query": query, "item": item, "score": float(draw(st.integers(0, 2)))})
            intents = draw(st.lists(st.sampled_from(INTENTS), unique=True, max_size=3))
            qrels.extend(
                {"query": query, "intent": intent, "item": item, "relevance": draw(st.integers(0, 2))}
                for intent in intents
            )
    run_schema = {"query": pl.String, "item": pl.String, "score": pl.Float64}
    qrels_schema = {"query": pl.String, "intent": pl.String, "item": pl.String, "relevance": pl.Int64}
    return pl.DataFrame(run, schema=run_schema), pl.DataFrame(qrels, schema=qrels_schema)


def theirs(run: pl.DataFrame, qrels: pl.DataFrame, alpha: float, beta: float) -> dict[str, dict[str, float]]:
    ordered: list[tuple[str, str, float]] = []
    for (query,), rows in run.group_by("query"):
        ranking = trec_order([(r["item"], r["score"]) for r in rows.iter_rows(named=True)])
        ordered += [(str(query), item, -float(i)) for i, item in enumerate(ranking)]
    ordered.sort(key=lambda r: r[0])  # pyndeval reads each query's rows together
    measures = [THEIRS[m.split("@")[0]] + (f"@{m.split('@')[1]}" if "@" in m else "") for m in OURS]
    judged = [(r["query"], r["intent"], r["item"], r["relevance"]) for r in qrels.iter_rows(named=True)]
    if not judged or not ordered:
        return {}
    out = pyndeval.ndeval(judged, ordered, measures=measures, alpha=alpha, beta=beta)
    return {q: dict(zip(OURS, (values[m] for m in measures), strict=True)) for q, values in out.items()}


def evaluated(  # noqa: PLR0913  (evaluate's options, spelled out)
    frame: pl.DataFrame,
    names: list[str],
    alpha: float = 0.5,
    beta: float = 0.5,
    by: str | None = None,
    *,
    per_query: bool = False,
) -> pl.DataFrame:
    """``prm.evaluate`` of `names`, alpha and beta given where a family takes them; columns as named."""
    metrics = []
    for name in names:
        metric = prm.parse(name)
        taken = {p.name for p in metric.spec.params}
        values = {key: value for key, value in (("alpha", alpha), ("beta", beta)) if key in taken}
        metrics.append(prm.Metric(metric.spec, metric.k, **values) if values else metric)
    out = prm.evaluate(frame, metrics, by=by, per_query=per_query)
    return out.rename({str(m): name for m, name in zip(metrics, names, strict=True)})


@settings(max_examples=max(20, settings().max_examples // 2))
@given(data=intent_data(), alpha=st.sampled_from([0.5, 0.25, 0.0, 1.0]), beta=st.sampled_from([0.5, 0.8]))
def test_diversity_suite_matches_pyndeval(
    data: tuple[pl.DataFrame, pl.DataFrame], alpha: float, beta: float
) -> None:
    run, qrels = data
    want = theirs(run, qrels, alpha, beta)
    frame = prm.join_run_qrels(run, qrels)
    got = evaluated(frame, OURS, alpha, beta, per_query=True)
    got_rows = {row.pop("query"): row for row in got.iter_rows(named=True)}
    assert got_rows.keys() == want.keys()
    for query, values in want.items():
        for name, value in values.items():
            if math.isnan(value):  # ndeval divides 0 by 0 for nNRBP without a relevant intent
                assert name == "nnrbp"
                assert got_rows[query][name] == 0.0
                continue
            assert math.isclose(got_rows[query][name], value, abs_tol=TOLERANCE), (
                query,
                name,
                got_rows[query][name],
                value,
            )


def test_names_and_errors() -> None:
    frame = pl.DataFrame({"query": ["1"], "item": ["a"], "score": [1.0], "intent": ["x"], "relevance": [1]})
    got = prm.evaluate(frame, ["alpha-nDCG@5", "alpha_nDCG@5", "StRecall@5"], per_query=True)
    assert got.columns == ["query", "alpha-nDCG@5", "alpha_nDCG@5", "StRecall@5"]
    assert got.row(0)[1:] == (1.0, 1.0, 1.0)
    with pytest.raises(prm.UnknownMetricError, match="alpha_ndcg"):
        prm.evaluate(frame, ["alpha_dcg@5"])
    with pytest.raises(prm.UnknownMetricError, match="needs a cutoff: write alpha_ndcg@k"):
        prm.evaluate(frame, ["alpha_ndcg"])  # the one registry's refusal
    with pytest.raises(prm.InvalidParameterError, match="alpha"):
        prm.evaluate(frame, ["nrbp(alpha=1.5)"])


@settings(max_examples=max(10, settings().max_examples // 4))
@given(data=intent_data())
def test_by_model_matches_pyndeval_run_by_run(data: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    run, qrels = data
    runs = pl.concat(
        [run.with_columns(model=pl.lit("a")), run.with_columns(model=pl.lit("b"), score=-pl.col("score"))]
    )
    frame = prm.join_run_qrels(runs, qrels, by="model")
    got = evaluated(frame, OURS, by="model", per_query=True)
    for model in ("a", "b"):
        one = runs.filter(pl.col("model") == model).drop("model")
        want = theirs(one, qrels, 0.5, 0.5)
        rows = {
            r.pop("query"): r
            for r in got.filter(pl.col("model") == model).drop("model").iter_rows(named=True)
        }
        assert rows.keys() == want.keys()
        for query, values in want.items():
            for name, value in values.items():
                expected = 0.0 if math.isnan(value) else value
                assert math.isclose(rows[query][name], expected, abs_tol=TOLERANCE), (model, query, name)
    means = evaluated(frame, OURS, by="model")
    per_query = got.group_by("model").agg(pl.col(OURS).mean()).sort("model")
    for name in OURS:
        for mean, reference in zip(means[name], per_query[name], strict=True):
            assert math.isclose(mean, reference, abs_tol=TOLERANCE), name


def test_join_run_qrels_keeps_the_intent() -> None:
    run = pl.DataFrame({"query": ["1", "1"], "item": ["d1", "d3"], "score": [2.0, 1.0]})
    qrels = pl.DataFrame({"query": ["1", "1", "1"], "intent": ["1", "2", "2"], "item": ["d1", "d1", "d2"],
                          "relevance": [1, 1, 0]})  # fmt: skip
    joined = prm.join_run_qrels(run, qrels).sort("item", "intent")
    assert joined.to_dict(as_series=False) == {
        "query": ["1", "1", "1", "1"], "item": ["d1", "d1", "d2", "d3"], "score": [2.0, 2.0, None, 1.0],
        "intent": ["1", "2", "2", None], "relevance": [1, 1, 0, None],
    }  # fmt: skip
