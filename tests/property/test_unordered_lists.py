"""Catalog metrics alone skip the ordering of lists no longer than their smallest cutoff: same bits.

Catalog metrics read a row's position only as "within the top k", so when no
query-scope metric is requested, a list of at most min(k) retrieved items
takes no ordering window (every retrieved row is within every cutoff; any
list, when no metric has a cutoff). Each test compares against the ordered
path, which a query-scope metric in the same request forces.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

CATALOGS = [
    [prm.coverage(2), prm.gini(1), prm.entropy(2), prm.personalization(1), prm.personalization(3)],
    [prm.coverage(3), prm.personalization(3)],
    [prm.coverage(), prm.gini(), prm.entropy()],  # no cutoff: no list is ordered
]


@st.composite
def runs(draw: st.DrawFn) -> pl.DataFrame:
    """Lists shorter than, as long as and longer than the cutoffs; ranks (ties, gaps, nulls) or scores."""
    by_rank = draw(st.booleans())
    rows: list[tuple[str, int, int, float | None, int | None, int | None]] = []
    for model in range(draw(st.integers(1, 2))):
        for query in range(draw(st.integers(1, 5))):
            items = draw(st.lists(st.integers(0, 12), min_size=0, max_size=6, unique=True))
            for item in items:
                score = draw(st.one_of(st.none(), st.sampled_from([0.5, 1.0, 2.0, 3.5])))
                rank = draw(st.one_of(st.none(), st.integers(1, 3), st.sampled_from([5, 9])))
                grade = draw(st.one_of(st.none(), st.integers(-1, 2)))
                rows.append((f"m{model}", query, item, score, rank, grade))
    frame = pl.DataFrame(
        rows,
        schema={
            "model": pl.String,
            "query": pl.Int64,
            "item": pl.Int64,
            "score": pl.Float64,
            "rank": pl.Int64,
            "relevance": pl.Int64,
        },
        orient="row",
    )
    frame = frame.drop("score" if by_rank else "rank")
    if draw(st.booleans()):
        frame = frame.with_columns(pl.col("item").cast(pl.String))
    return frame


@settings(max_examples=80, deadline=None)
@given(runs(), st.sampled_from(CATALOGS))
def test_catalog_metrics_alone_equal_the_ordered_path(frame: pl.DataFrame, metrics: list[prm.Metric]) -> None:
    if frame.is_empty():
        return
    names = [str(m) for m in metrics]
    # A query-scope metric beside them makes every list ordered (positions are read per row).
    ordered = prm.evaluate(frame.lazy(), [*metrics, "num_ret"], by="model").collect(engine="streaming")
    want = ordered.select("model", *names).sort("model")
    for data in (frame, frame.drop("relevance")):
        got = prm.evaluate(data.lazy(), metrics, by="model").collect(engine="streaming").sort("model")
        assert_frame_equal(got, want)
        assert_frame_equal(prm.evaluate(data, metrics, by="model").sort("model"), want)
