"""Where the exact sums stop being exact (issue 31, D9): the bounds evaluate's Notes document.

A query's terms are integers at 2**-64, added exactly: exact for terms of
2**-11 or more. RBP, rbp_resid and ERR, whose terms can be as small as a double holds,
scale each query's terms by a power of two from its largest term. A mean
over queries holds every value exactly in the 64-bit band of the group's
largest |value| and the next. Either way tiny values keep their digits (to
1e-12 here), with the same bits on every path and in any row order.
Oracles: exact rationals (``fractions.Fraction``) and ``math.fsum``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import expr as rx

RELATIVE = Fraction(1, 10**12)

_PATHS: dict[str, Callable[..., pl.DataFrame]] = {
    "dataframe": lambda df, m, *, q: prm.evaluate(df, m, per_query=q),
    "streaming": lambda df, m, *, q: prm.collect(prm.evaluate(df.lazy(), m, per_query=q), engine="streaming"),
    "chunked": lambda df, m, *, q: prm.evaluate_chunked(df.lazy(), m, per_query=q, rows_per_chunk=40),
}


def _one_relevant(rank: int, queries: int = 3, name: str = "q") -> pl.DataFrame:
    """`queries` lists of 50 items (or `rank` + 10), the item at `rank` the only relevant one."""
    length = max(50, rank + 10)
    ids = range(1, length + 1)
    one = pl.DataFrame(
        {
            "item": [f"d{i:03d}" for i in ids],
            "score": [float(length - i) for i in ids],
            "relevance": [int(i == rank) for i in ids],
        }
    )
    return pl.concat([one.with_columns(query=pl.lit(f"{name}{j}")) for j in range(queries)]).select(
        "query", "item", "score", "relevance"
    )


def _close(got: float, true: Fraction) -> bool:
    return abs(Fraction(got) - true) <= abs(true) * RELATIVE


def _mean(values: list[float]) -> Fraction:
    """The exact mean of the per-query doubles: what the mean's exact sum holds."""
    return sum(map(Fraction, values), Fraction(0)) / len(values)


@pytest.mark.parametrize("path", list(_PATHS))
@pytest.mark.parametrize("p", [0.01, 0.05])
@pytest.mark.parametrize("rank", [15, 40, 150])
def test_tiny_rbp_values_are_correct_per_query_and_in_the_mean(path: str, p: float, rank: int) -> None:
    frame = _one_relevant(rank)
    true = (1 - Fraction(p)) * Fraction(p) ** (rank - 1)  # 9.9e-29 at p=0.01, rank 15; 1e-298 at 150
    name = f"rbp(p={p!r})"
    per_query = _PATHS[path](frame, [prm.rbp(p=p)], q=True)[name]
    mean = _PATHS[path](frame, [prm.rbp(p=p)], q=False).item()
    assert all(_close(got, true) for got in per_query.to_list()), (per_query.to_list(), float(true))
    assert _close(mean, true), (mean, float(true))
    # The same bits on every path.
    assert per_query.equals(_PATHS["dataframe"](frame, [prm.rbp(p=p)], q=True)[name])
    assert mean == _PATHS["dataframe"](frame, [prm.rbp(p=p)], q=False).item()


def _unjudged_from(first: int, length: int = 60, queries: int = 3) -> pl.DataFrame:
    """`queries` lists of `length` items judged non-relevant down to rank `first`, unjudged from there."""
    ids = range(1, length + 1)
    one = pl.DataFrame(
        {
            "item": [f"d{i:03d}" for i in ids],
            "score": [float(length - i) for i in ids],
            "relevance": [0 if i < first else None for i in ids],
        },
        schema_overrides={"relevance": pl.Int64},
    )
    return pl.concat([one.with_columns(query=pl.lit(f"q{j}")) for j in range(queries)]).select(
        "query", "item", "score", "relevance"
    )


@pytest.mark.parametrize("path", list(_PATHS))
@pytest.mark.parametrize("p", [0.01, 0.05, 0.8])
@pytest.mark.parametrize("first", [2, 15, 40])
def test_rbp_resid_keeps_deep_unjudged_ranks(path: str, p: float, first: int) -> None:
    """Unjudged ranks from `first` to 60: their rbp mass p**(first - 1) - p**60, plus p**60 past the list."""
    frame = _unjudged_from(first)
    q = Fraction(p)
    true = (1 - q) * sum(q ** (r - 1) for r in range(first, 61)) + q**60  # 1e-28 at p=0.01, first 15
    name = f"rbp_resid(p={p!r})"
    per_query = _PATHS[path](frame, [prm.rbp_resid(p=p)], q=True)[name]
    mean = _PATHS[path](frame, [prm.rbp_resid(p=p)], q=False).item()
    assert all(_close(got, true) for got in per_query.to_list()), (per_query.to_list(), float(true))
    assert _close(mean, true), (mean, float(true))
    assert per_query.equals(_PATHS["dataframe"](frame, [prm.rbp_resid(p=p)], q=True)[name])


_GRADES = [3, 0, 1, None, 2, 0, 1, 0, 0, 1]  # a query's grades in rank order; a fourth query unjudged


def _graded(scale: float) -> pl.DataFrame:
    """Three queries of ten items, grades `_GRADES` times `scale` (fractional grades), rotated per query."""
    frames = []
    for j in range(3):
        grades = _GRADES[j:] + _GRADES[:j]
        frames.append(
            pl.DataFrame(
                {
                    "query": [f"q{j}"] * 10,
                    "item": [f"d{i}" for i in range(10)],
                    "score": [float(10 - i) for i in range(10)],
                    "relevance": [None if g is None else g * scale for g in grades],
                },
                schema_overrides={"relevance": pl.Float64},
            )
        )
    return pl.concat(frames)


def _dcg(gains: list[float], k: int) -> float:
    """DCG@k from the definition: sum of gain / log2(rank + 1), summed with math.fsum."""
    return math.fsum(g / math.log2(r + 1) for r, g in enumerate(gains[:k], start=1))


@pytest.mark.parametrize("path", list(_PATHS))
@pytest.mark.parametrize("scale", [1e-30, 1e-300, 2.0**-40])
def test_dcg_of_tiny_gains_keeps_its_digits(path: str, scale: float) -> None:
    """Fractional grades as small as a double holds, linear gain: DCG and nDCG as at grades 1-3."""
    frame = _graded(scale)
    metrics = [prm.dcg(k=5), prm.ndcg(k=5), prm.ndcg()]
    got = _PATHS[path](frame, metrics, q=True).sort("query")
    for j, row in enumerate(got.iter_rows()):
        gains = [0.0 if g is None else g * scale for g in _GRADES[j:] + _GRADES[:j]]
        ideal = sorted(gains, reverse=True)
        want = [_dcg(gains, 5), _dcg(gains, 5) / _dcg(ideal, 5), _dcg(gains, 10) / _dcg(ideal, 10)]
        assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(row[1:], want, strict=True)), (row, want)
    assert got.equals(_PATHS["dataframe"](frame, metrics, q=True).sort("query"))


@pytest.mark.parametrize("path", list(_PATHS))
def test_ndcg_rel_of_tiny_gains_is_what_the_gains_times_a_power_of_ten_give(path: str) -> None:
    """ndcg_rel is a mean of DCG/IDCG ratios: gains times 1e-30 change nothing (it read 0/0 before)."""
    tiny, plain = (_PATHS[path](_graded(s), ["ndcg_rel"], q=True).sort("query") for s in (1e-30, 1.0))
    assert all(
        math.isclose(a, b, rel_tol=1e-12) for a, b in zip(tiny["ndcg_rel"], plain["ndcg_rel"], strict=True)
    )
    assert min(plain["ndcg_rel"]) > 0


def test_a_gain_mapping_of_tiny_gains_keeps_its_digits_in_evaluate_and_the_builders() -> None:
    """``ndcg(gain={1: 1e-30, 2: 3e-30, 3: 1e-29})``: the same value as the mapping times 10**30."""
    frame = _graded(1.0).with_columns(pl.col("relevance").cast(pl.Int64))
    tiny, plain = {1: 1e-30, 2: 3e-30, 3: 1e-29}, {1: 1.0, 2: 3.0, 3: 10.0}
    got = prm.evaluate(frame, [prm.ndcg(k=5, gain=tiny), prm.dcg(k=5, gain=tiny)], per_query=True).sort(
        "query"
    )
    want = prm.evaluate(frame, [prm.ndcg(k=5, gain=plain), prm.dcg(k=5, gain=plain)], per_query=True).sort(
        "query"
    )
    for row, ref in zip(got.iter_rows(), want.iter_rows(), strict=True):
        assert math.isclose(row[1], ref[1], rel_tol=1e-12)
        assert math.isclose(row[2], ref[2] * 1e-30, rel_tol=1e-12)
    built = frame.group_by("query").agg(rx.ndcg(k=5, gain=tiny).alias("v")).sort("query")
    assert built["v"].to_list() == got[got.columns[1]].to_list()  # the builders: the same bits


@pytest.mark.parametrize("path", list(_PATHS))
def test_a_mean_of_values_far_apart_keeps_each_to_the_largest(path: str) -> None:
    """Relevant items at ranks 2, 15 and 40 (p=0.05): values from 0.0475 down to 1.7e-51."""
    frame = pl.concat([_one_relevant(r, queries=2, name=f"r{r}_") for r in (2, 15, 40)])
    per_query = _PATHS[path](frame, [prm.rbp(p=0.05)], q=True)["rbp(p=0.05)"].to_list()
    mean = _PATHS[path](frame, [prm.rbp(p=0.05)], q=False).item()
    assert _close(mean, _mean(per_query))
    true = sum((Fraction(19, 20) * Fraction(1, 20) ** (r - 1) for r in (2, 15, 40)), Fraction(0)) / 3
    assert _close(mean, true)
    for r in (15, 40):  # each depth alone
        alone = _PATHS[path](_one_relevant(r, queries=2), [prm.rbp(p=0.05)], q=False).item()
        assert _close(alone, Fraction(19, 20) * Fraction(1, 20) ** (r - 1))


@pytest.mark.parametrize("path", list(_PATHS))
@pytest.mark.parametrize("k", [10**30, 10**38])  # k stays below 2**127
def test_precision_at_a_huge_cutoff_is_correct_per_query_and_in_the_mean(path: str, k: int) -> None:
    frame = pl.concat(
        [_one_relevant(3, queries=2), _one_relevant(7, queries=1).with_columns(query=pl.lit("r"))]
    )
    frame = frame.with_columns(relevance=pl.when(pl.col("query") == "r").then(1).otherwise("relevance"))
    per_query = _PATHS[path](frame, [prm.precision(k)], q=True).sort("query")
    hits = {"q0": 1, "q1": 1, "r": 50}
    for query, value in per_query.iter_rows():
        true = Fraction(hits[query], k)  # a quotient of floats (k as a double): one ulp or two
        assert abs(Fraction(value) - true) <= true * 2**-51
    mean = _PATHS[path](frame, [prm.precision(k)], q=False).item()
    assert _close(mean, _mean(per_query[:, 1].to_list()))  # about 1.7e-29 (k = 1e30): not 0
    assert _close(mean, Fraction(sum(hits.values()), k) / 3)


def test_tiny_values_do_not_depend_on_row_order() -> None:
    frame = pl.concat([_one_relevant(r, queries=3, name=f"r{r}_") for r in (1, 15, 40, 150)]).with_columns(
        relevance=pl.when(pl.col("item") == "d002").then(2).otherwise("relevance")
    )
    metrics = [prm.rbp(p=0.01), prm.rbp(p=0.05), prm.precision(10**30), "err@20"]
    want = prm.evaluate(frame, metrics)
    want_q = prm.evaluate(frame, metrics, per_query=True)
    for seed in range(3):
        shuffled = frame.sample(fraction=1.0, shuffle=True, seed=seed)
        assert prm.evaluate(shuffled, metrics).equals(want)
        assert prm.evaluate(shuffled, metrics, per_query=True).equals(want_q)


def test_tiny_err_values_are_correct() -> None:
    """ERR with max_grade=200: stop chances (2**g - 1) / 2**200, so terms near 1e-61."""
    grades = [0, 1, 3, 0, 2, 1, 0, 0, 4, 0]
    frame = pl.DataFrame(
        {
            "query": ["q"] * len(grades),
            "item": [f"d{i:03d}" for i in range(len(grades))],
            "score": [float(len(grades) - i) for i in range(len(grades))],
            "relevance": grades,
        }
    )
    survival, true = Fraction(1), Fraction(0)
    for rank, grade in enumerate(grades, start=1):
        stop = Fraction(2**grade - 1, 2**200)
        true += survival * stop / rank
        survival *= 1 - stop
    for path in _PATHS.values():
        got = path(frame, [prm.err(max_grade=200.0)], q=True)["err(max_grade=200)"].item()
        assert _close(got, true), (got, float(true))  # about 6.9e-61: 0 on a 2**-64 grid


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
