"""Every order of the tied items of small queries, as frames with explicit ranks (the tie tests' oracle).

A query whose retrieved items fall in tie groups (equal scores) has as many
orders as the product of the groups' factorials. :func:`every_order` writes
each order as its own query of a frame with a ``rank`` column (no ties left),
so that one evaluation with trec_eval's conventions gives the metric's value
under every order; the policies' values are then the maximum, the minimum
and the plain mean of those, computed here in Python.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from typing import Any

import polars as pl
from hypothesis import strategies as st

SCORES = (1.0, 2.0, 3.0)  # three scores over at most six items: ties everywhere
GRADES = (None, -1, 0, 1, 2, 3)
ITEMS = ("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8")
MAX_ORDERS = 720


@st.composite
def tied_queries(draw: st.DrawFn, max_items: int = 6) -> pl.DataFrame:
    """One or two small queries with ties, graded and negative grades, unjudged and unretrieved items."""
    rows: list[dict[str, Any]] = []
    for query in draw(st.sampled_from([("q1",), ("q1", "q2")])):
        n = draw(st.integers(1, max_items))
        items = draw(st.permutations(ITEMS))[:n]
        for item in items:
            score = draw(st.sampled_from(SCORES))
            rows.append(
                {"query": query, "item": item, "score": score, "relevance": draw(st.sampled_from(GRADES))}
            )
        missed = draw(
            st.lists(st.sampled_from([i for i in ITEMS if i not in items]), max_size=2, unique=True)
        )
        rows.extend(
            {"query": query, "item": item, "score": None, "relevance": draw(st.sampled_from(GRADES))}
            for item in missed
        )
    schema = {"query": pl.String, "item": pl.String, "score": pl.Float64, "relevance": pl.Int64}
    return pl.DataFrame(rows, schema=schema)


def _orders(scored: Sequence[tuple[str, float]]) -> Iterator[list[str]]:
    """Every ranking of `scored` items that keeps score descending (each tie group permuted)."""
    groups = [
        [item for item, _ in group]
        for _, group in itertools.groupby(sorted(scored, key=lambda p: -p[1]), key=lambda p: p[1])
    ]
    for choice in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [item for group in choice for item in group]


def every_order(frame: pl.DataFrame) -> pl.DataFrame:
    """One query ``"<query>/<n>"`` per order of each query's ties, ranks explicit; unretrieved rows kept."""
    out: list[dict[str, Any]] = []
    for (query,), rows in frame.group_by(["query"]):
        scored = [(r["item"], r["score"]) for r in rows.iter_rows(named=True) if r["score"] is not None]
        grade = dict(zip(rows["item"], rows["relevance"], strict=True))
        unretrieved = [r["item"] for r in rows.iter_rows(named=True) if r["score"] is None]
        for n, order in enumerate(_orders(scored)):
            name = f"{query}/{n}"
            out.extend(
                {"query": name, "item": i, "rank": r, "relevance": grade[i]} for r, i in enumerate(order, 1)
            )
            out.extend({"query": name, "item": i, "rank": None, "relevance": grade[i]} for i in unretrieved)
    schema = {"query": pl.String, "item": pl.String, "rank": pl.Int64, "relevance": pl.Int64}
    return pl.DataFrame(out, schema=schema)


def n_orders(frame: pl.DataFrame) -> int:
    """How many orders :func:`every_order` writes for `frame`."""
    sizes = frame.filter(pl.col("score").is_not_null()).group_by("query", "score").len()["len"]
    return sum(1 for _ in sizes) and math.prod(math.factorial(s) for s in sizes)


def over_orders(frame: pl.DataFrame, metrics: Sequence[str], **conventions: Any) -> pl.DataFrame:  # noqa: ANN401
    """Per query of `frame`: each metric's value under every order of its ties (a list column each)."""
    import polars_rankmetrics as prm  # noqa: PLC0415  (the library under test)

    orders = every_order(frame)
    values = prm.evaluate(
        orders, list(metrics), per_query=True, columns=prm.Columns(rank="rank"), **conventions
    )
    query = pl.col("query").str.split("/").list.first()
    return values.group_by(query).agg(pl.col(m) for m in metrics).sort("query")
