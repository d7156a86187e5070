"""Every builder on the streaming engine, and with a rank column instead of scores.

Streaming: each builder sorts its group inside the aggregation, which Polars'
streaming group-by does not run; the aggregation falls back to the in-memory
engine, exactly one node, and the values are evaluate's. The module
docstring of ``polars_rankmetrics.expr`` documents it for every builder; the
tests below check it builder by builder, so a Polars release that streams
some of them shows up here (and the documentation is then to be updated).
"""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest
from cases import builders, names, with_propensity
from hypothesis import given, settings
from hypothesis import strategies as st
from plans import calls_python, fallback_nodes
from strategies import ALL_TIED_INT, TWO_RUNS, eval_frames
from test_agreement import CONVENTIONS, assert_same

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

KEYS = ["model", "query"]
# Two runs (one missing query 2, one all tied), an all-tied run over integer ids
# ("9" > "100" > "10" as text), and a graded query with an unretrieved relevant item.
GRADED = pl.DataFrame(
    {
        "model": ["graded"] * 6,
        "query": [3] * 6,
        "item": [1, 2, 3, 4, 5, 6],
        "score": [0.3, 0.9, 0.9, None, 0.1, 0.5],
        "relevance": [3, 0, 2, 1, None, -1],
    },
    schema=TWO_RUNS.schema,
)
FRAME = with_propensity(  # the propensity builders read its column
    pl.concat([TWO_RUNS, ALL_TIED_INT.with_columns(model=pl.lit("tied")).select(TWO_RUNS.columns), GRADED])
)
CASES = builders(depth=5)
IDS = names(CASES)


def test_the_cases_have_distinct_names() -> None:
    assert len(set(IDS)) == len(IDS)


def _with_ranks(frame: pl.DataFrame) -> pl.DataFrame:
    """The score column replaced by ranks (1 is best), ties kept tied, null where the score is."""
    keys = [k for k in KEYS if k in frame.columns]
    rank = pl.col("score").rank("dense", descending=True).over(keys)
    return frame.with_columns(rank=rank).drop("score")


@pytest.mark.parametrize("expr", CASES, ids=IDS)
def test_each_builder_on_the_streaming_engine_gives_evaluates_values(expr: pl.Expr) -> None:
    name = expr.meta.output_name()
    plan = FRAME.lazy().group_by(KEYS).agg(expr)
    streaming = plan.collect(engine="streaming")
    expected = prm.evaluate(FRAME, [name], by="model", per_query=True, missing="zero", depth=5)
    assert_same(expected, streaming, KEYS, [name])
    assert not calls_python(plan)


@pytest.mark.parametrize("expr", CASES, ids=IDS)
def test_each_builder_falls_back_to_the_in_memory_engine_in_its_aggregation_only(expr: pl.Expr) -> None:
    """As documented: the group's sort runs in memory; the scan and the rest of the plan stream."""
    plan = FRAME.lazy().filter(pl.col("query") > 0).group_by(KEYS).agg(expr).sort(KEYS)
    nodes = fallback_nodes(plan)
    assert len(nodes) == 1, nodes
    assert "AGGREGATE" in nodes[0]


@pytest.mark.parametrize("expr", CASES, ids=IDS)
def test_each_builder_reads_a_rank_column_as_it_reads_scores(expr: pl.Expr) -> None:
    by_score = builders(depth=5)[IDS.index(expr.meta.output_name())]
    by_rank = builders(depth=5, rank="rank")[IDS.index(expr.meta.output_name())]
    ranked = _with_ranks(FRAME)  # no score column left: the builder must read the ranks
    want = FRAME.group_by(KEYS).agg(by_score)
    assert_same(want, ranked.group_by(KEYS).agg(by_rank), KEYS, [expr.meta.output_name()])
    streamed = ranked.lazy().group_by(KEYS).agg(by_rank).collect(engine="streaming")
    assert_same(want, streamed, KEYS, [expr.meta.output_name()])


@settings(max_examples=20, deadline=None)
@given(
    frame=eval_frames(models=2).map(with_propensity),
    conventions=CONVENTIONS,
    use_ranks=st.booleans(),
    context=st.integers(0, 2),
)
def test_every_builder_streams_to_evaluates_values(
    frame: pl.DataFrame, conventions: dict[str, Any], *, use_ranks: bool, context: int
) -> None:
    """Generated frames and conventions, scores or ranks, in group_by, over and select (one query)."""
    exprs = builders(**conventions, **({"rank": "rank"} if use_ranks else {}))
    metrics = names(exprs)
    expected = prm.evaluate(frame, metrics, by="model", per_query=True, missing="zero", **conventions)
    lazy = (_with_ranks(frame) if use_ranks else frame).lazy()
    if context == 0:
        got = lazy.group_by(KEYS).agg(exprs).collect(engine="streaming")
    elif context == 1:
        over = lazy.select(*KEYS, *(e.over(KEYS) for e in exprs)).collect(engine="streaming")
        got = over.unique(KEYS)  # every row of a group carries the group's value
        assert got.height == frame.select(KEYS).n_unique()
    else:
        if frame.is_empty():
            return
        model, query = frame.row(0)[:2]
        one = lazy.filter((pl.col("model") == model) & (pl.col("query") == query))
        got = (
            one.select(exprs)
            .collect(engine="streaming")
            .with_columns(model=pl.lit(model), query=pl.lit(query, dtype=frame["query"].dtype))
        )
        expected = expected.filter((pl.col("model") == model) & (pl.col("query") == query))
        if expected.is_empty():  # a group without a judged row: evaluate leaves it out, we give null
            assert got.select(pl.all_horizontal(pl.col(metrics).is_null())).item()
            return
        # One group alone may differ from the same group among others in the last bit (test_contexts).
        joined = expected.join(got, on=KEYS, suffix="__rx")
        for name in metrics:
            a, b = joined[name].item(), joined[name + "__rx"].item()
            close = a == b if not isinstance(a, float) else abs(a - b) <= 1e-15 * max(1.0, abs(a))
            assert close, (name, a, b)
        return
    assert_same(expected, got, KEYS, metrics)


def test_fallback_nodes_by_context() -> None:
    """As documented: one node per group_by or over projection, one per builder in select.

    group_by_dynamic: one node with ``group_by=``; none without, its own node runs the builders.
    """
    lf = FRAME.lazy()
    two = [CASES[0], CASES[-1]]
    assert len(fallback_nodes(lf.group_by(KEYS).agg(two))) == 1
    assert len(fallback_nodes(lf.with_columns(e.over(KEYS) for e in two))) == 1
    assert len(fallback_nodes(lf.select(two))) == len(two)
    by_model = lf.sort("query").group_by_dynamic("query", every="1i", group_by="model").agg(two)
    assert len(fallback_nodes(by_model)) == 1
    assert_same(by_model.collect(), by_model.collect(engine="streaming"), KEYS, names(two))
    alone = lf.filter(pl.col("model") == "bm25").sort("query").group_by_dynamic("query", every="1i")
    assert fallback_nodes(alone.agg(two)) == []
    streamed = alone.agg(two).collect(engine="streaming")
    assert_same(alone.agg(two).collect(), streamed, ["query"], names(two))
