"""prm.fill_judgments and prm.judgment_shares against plain per-query references."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


@st.composite
def run_and_two_sources(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Two systems' rankings (tied scores), people's judgments with holes, a model's over most of the pool."""
    string_ids = draw(st.booleans())
    items = [f"d{i}" if string_ids else i for i in range(8)]
    run_rows, people, model = [], [], []
    for q in range(draw(st.integers(1, 3))):
        query = f"q{q}" if string_ids else q
        for item in items:
            if draw(st.booleans()):
                people.append((query, item, draw(st.integers(-1, 3))))
            if draw(st.booleans()):
                model.append((query, item, draw(st.integers(0, 3))))
        for system in ("s1", "s2"):
            listed = draw(st.lists(st.sampled_from(items), min_size=1, max_size=6, unique=True))
            run_rows += [(system, query, item, float(draw(st.integers(0, 4)))) for item in listed]
    run = pl.DataFrame(run_rows, schema=["system", "query", "item", "score"], orient="row")
    ids = pl.String if string_ids else pl.Int64
    schema = {"query": ids, "item": ids, "relevance": pl.Int64}
    frames = [pl.DataFrame(r, schema=schema, orient="row") for r in (people, model)]
    return run, frames[0], frames[1]


def _filled(people: pl.DataFrame, model: pl.DataFrame) -> dict[tuple[object, object], tuple[float, str]]:
    out = {(q, i): (float(g), "model") for q, i, g in model.rows()}
    out.update({(q, i): (float(g), "people") for q, i, g in people.rows()})
    return out


@settings(max_examples=30)
@given(run_and_two_sources())
def test_fill_judgments_people_first(data: tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]) -> None:
    _, people, model = data
    got = prm.fill_judgments(people, model)
    assert {(q, i): (g, s) for q, i, g, s in got.rows()} == _filled(people, model)
    assert got.height == len(_filled(people, model))


@settings(max_examples=30)
@given(run_and_two_sources(), st.sampled_from([None, 1, 3]))
def test_judgment_shares_equal_a_plain_loop(
    data: tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame], k: int | None
) -> None:
    run, people, model = data
    labels = _filled(people, model)
    got = prm.judgment_shares(run, prm.fill_judgments(people, model), k=k, by="system")
    sources = {s for _, s in labels.values()}
    expected = {}
    for (system, query), rows in run.group_by("system", "query"):
        # trec_eval's order: score descending, ties by the item's text descending.
        ordered = sorted(rows.rows(), key=lambda r: (r[3], str(r[2])), reverse=True)[:k]
        gains = dict.fromkeys(sources, 0.0)
        counts = {s: [0, 0] for s in sources}
        for _, _, item, _ in ordered:
            if (query, item) in labels:
                grade, s = labels[(query, item)]
                counts[s][0] += 1
                if grade >= 1:
                    counts[s][1] += 1
                    gains[s] += grade
        total = sum(gains.values())
        for s in sources:
            share = gains[s] / total if total > 0 else None
            expected[(system, query, s)] = (counts[s][0], counts[s][1], gains[s], share)
    rows = {(r[0], r[1], r[2]): tuple(r[3:]) for r in got.rows()}
    assert rows == expected


def test_judgment_shares_overall_and_with_ranks() -> None:
    filled = prm.fill_judgments(
        pl.DataFrame({"query": [1, 2], "item": ["a", "a"], "relevance": [1, 0]}),
        pl.DataFrame({"query": [1, 2, 2], "item": ["b", "b", "c"], "relevance": [3, 2, 2]}),
    )
    run = pl.DataFrame({"query": [1, 1, 2, 2, 2], "item": ["a", "b", "a", "b", "c"], "rank": [2, 1, 1, 2, 3]})
    got = prm.judgment_shares(run, filled, k=2, per_query=False)
    # Top 2: query 1 holds b (model, 3) and a (people, 1); query 2 a (people, 0) and b (model, 2).
    assert got.rows() == [("model", 2, 2, 5.0, 5 / 6), ("people", 2, 1, 1.0, 1 / 6)]


def test_evaluating_with_filled_judgments_reads_both_sources() -> None:
    people = pl.DataFrame({"query": [1], "item": ["a"], "relevance": [0]})
    model = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "relevance": [2, 1]})
    run = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [2.0, 1.0]})
    filled = prm.fill_judgments(people, model)
    # People's 0 on a wins over the model's 2; b has the model's 1: P@2 = 1/2, P@1 = 0.
    assert prm.evaluate(run, ["p@1", "p@2"], qrels=filled).row(0) == (0.0, 0.5)


def test_fill_judgments_bad_input() -> None:
    people = pl.DataFrame({"query": [1], "item": ["a"], "relevance": [1]})
    with pytest.raises(prm.InvalidDataError, match="another scale"):
        prm.fill_judgments(people, people.with_columns(relevance=pl.lit(0.7)))
    with pytest.raises(prm.InvalidParameterError, match="sources"):
        prm.fill_judgments(people, people, sources=("x", "x"))
    with pytest.raises(prm.InvalidParameterError, match="source"):
        prm.fill_judgments(people, people, source="item")
    with pytest.raises(prm.InvalidDataError, match="duplicate"):
        prm.fill_judgments(pl.concat([people, people]), people)
    run = pl.DataFrame({"query": [1], "item": ["a"], "score": [1.0]})
    with pytest.raises(prm.ColumnNotFoundError, match="source"):
        prm.judgment_shares(run, people)
    with pytest.raises(prm.ColumnNotFoundError, match="score"):
        prm.judgment_shares(run.drop("score"), prm.fill_judgments(people, people))
    with pytest.raises(prm.InvalidParameterError, match="`k`"):
        prm.judgment_shares(run, prm.fill_judgments(people, people), k=0)
