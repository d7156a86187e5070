"""Where the exact sums stop being exact (issue 31, D9): the bound evaluate's Notes document.

Sums of float terms are integers at 2**-64, added exactly: exact for terms of
2**-11 or more, low by at most 2**-64 per term below that (tiny RBP terms and
means of tiny values vanish), the same bits on every path. Oracles: exact
rationals (``fractions.Fraction``) and ``math.fsum``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import polars as pl
import pytest

import polars_rankmetrics as prm

GRID = 2.0**-64

_PATHS: dict[str, Callable[..., pl.DataFrame]] = {
    "dataframe": lambda df, m, *, q: prm.evaluate(df, m, per_query=q),
    "streaming": lambda df, m, *, q: prm.collect(prm.evaluate(df.lazy(), m, per_query=q), engine="streaming"),
    "chunked": lambda df, m, *, q: prm.evaluate_chunked(df.lazy(), m, per_query=q, rows_per_chunk=40),
}


def _one_relevant(rank: int, queries: int = 3, length: int = 50) -> pl.DataFrame:
    """`queries` lists of `length` items, the item at `rank` the only relevant one."""
    ids = range(1, length + 1)
    one = pl.DataFrame(
        {
            "item": [f"d{i:03d}" for i in ids],
            "score": [float(length - i) for i in ids],
            "relevance": [int(i == rank) for i in ids],
        }
    )
    return pl.concat([one.with_columns(query=pl.lit(f"q{j}")) for j in range(queries)]).select(
        "query", "item", "score", "relevance"
    )


@pytest.mark.parametrize("path", list(_PATHS))
@pytest.mark.parametrize("p", [0.01, 0.05])
@pytest.mark.parametrize("rank", [15, 40])
def test_tiny_rbp_terms_are_low_by_at_most_the_grid_per_term(path: str, p: float, rank: int) -> None:
    frame = _one_relevant(rank)
    true = (1 - Fraction(p)) * Fraction(p) ** (rank - 1)  # 9.9e-29 at p=0.01, rank 15
    per_query = _PATHS[path](frame, [prm.rbp(p=p)], q=True)["rbp(p=" + repr(p) + ")"]
    mean = _PATHS[path](frame, [prm.rbp(p=p)], q=False).item()
    for got in [*per_query.to_list(), mean]:
        assert 0.0 <= true - Fraction(got) <= Fraction(GRID) * (1 + 1e-9)  # one term: one grid step
    # The documented loss, not a better result: a term below 2**-64 vanishes.
    assert (per_query == 0.0).all() == (true < Fraction(GRID))
    # The same bits on every path.
    assert per_query.equals(_PATHS["dataframe"](frame, [prm.rbp(p=p)], q=True)["rbp(p=" + repr(p) + ")"])


@pytest.mark.parametrize("path", list(_PATHS))
def test_precision_at_a_huge_cutoff_is_exact_per_query_and_bounded_in_the_mean(path: str) -> None:
    k = 10**30
    frame = pl.concat(
        [_one_relevant(3, queries=2), _one_relevant(7, queries=1).with_columns(query=pl.lit("r"))]
    )
    frame = frame.with_columns(relevance=pl.when(pl.col("query") == "r").then(1).otherwise("relevance"))
    per_query = _PATHS[path](frame, [prm.precision(k)], q=True).sort("query")
    hits = {"q0": 1, "q1": 1, "r": 50}
    for query, value in per_query.iter_rows():
        true = Fraction(hits[query], k)  # a quotient of floats (k is 1e30 as a double): one ulp or two
        assert abs(Fraction(value) - true) <= true * 2**-51
    mean = _PATHS[path](frame, [prm.precision(k)], q=False).item()
    true = Fraction(sum(hits.values()), k) / 3
    assert mean == 0.0  # every value (5e-29 at most) is below the 2**-64 grid of the mean's sum
    assert true - Fraction(mean) <= Fraction(GRID)


def test_terms_of_two_to_the_minus_eleven_or_more_sum_exactly() -> None:
    """AP's terms hit_rank / rank are correctly rounded quotients: the sum is fsum's, bit for bit."""
    ranks = [1, 3, 7, 20, 50, 333, 1024, 2000]
    length = 2048
    frame = pl.DataFrame(
        {
            "query": ["q"] * length,
            "item": [f"d{i:04d}" for i in range(1, length + 1)],
            "score": [float(length - i) for i in range(1, length + 1)],
            "relevance": [int(i in ranks) for i in range(1, length + 1)],
        }
    )
    terms = [(h + 1) / r for h, r in enumerate(ranks)]
    assert min(terms) >= 2.0**-11
    assert prm.evaluate(frame, ["map"]).item() == math.fsum(terms) / len(ranks)


def test_a_mean_of_values_of_two_to_the_minus_eleven_or_more_is_exact() -> None:
    """recall@2 of queries with few and many relevant items: the mean is fsum's, bit for bit."""
    relevant = [3, 7, 10, 1999]
    hit = [1, 2, 1, 1]
    rows = []
    for j, (n, h) in enumerate(zip(relevant, hit, strict=True)):
        rows += [(f"q{j}", f"d{i}", float(-i), int(i < h or i >= 2)) for i in range(n + 2)]
    frame = pl.DataFrame(rows, schema=["query", "item", "score", "relevance"], orient="row")
    got = prm.evaluate(frame, [prm.recall(2)], per_query=True)["recall@2"].to_list()
    assert all(v >= 2.0**-11 for v in got)
    assert prm.evaluate(frame, [prm.recall(2)]).item() == math.fsum(got) / len(got)
