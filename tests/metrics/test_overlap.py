"""overlap (metrics/overlap.py): rbo against the `rbo` package's RBO_ext, compat against ir_measures' Compat.

The peer oracles (the `rbo` package, ir_measures) are here. rbo(tie_handling="aware"), the
tie-aware RBO_ext, is checked against a plain reference and published values:

The reference below is written from the definition (Webber, Moffat and Zobel, TOIS 2010,
section 4.3, with the extrapolation spelled out by Corsi and Urbano, SIGIR 2024, as RBO^w):
a tie group occupies its positions together; the top-d prefix of a ranking holds every item
whose group starts at or above d; with X_d the items in both prefixes, S_d the items the two
prefixes hold, s <= l the lengths and e = max(d - s, 0):

    A_d = 2 (X_d + e A_s) / (S_d + e)
    RBO_ext = (1-p)/p sum_{d=1..l} A_d p^d + (X_l + (l - s) A_s) / l p^l

The published cases are rows of Corsi and Urbano's test table (rbo/test.csv of
github.com/julian-urbano/sigir2024-rbo, column w.ext) and the example of their README.
"""

from __future__ import annotations

import importlib
import os
import re
from types import ModuleType

import ir_measures
import numpy as np
import polars as pl
import pytest
from ir_measures import Compat
from plans import calls_python, fallback_nodes

import polars_rankmetrics as prm
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)


def _ranked(items: list[object], scores: list[float]) -> list[object]:
    """The library's order: score descending, then item id as text descending."""
    return [
        i for i, _ in sorted(zip(items, scores, strict=True), key=lambda r: (r[1], str(r[0])), reverse=True)
    ]


def _runs(seed: int, ints: bool) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Two systems' runs and a reference over 12 queries: overlapping pools, lengths 1 to 15, tied scores."""
    rng = np.random.default_rng(seed)
    run, ref = [], []
    for q in range(12):
        pool = [f"d{i}" for i in rng.permutation(25)] if not ints else [int(i) for i in rng.permutation(25)]
        for system in ("a", "b"):
            n = int(rng.integers(1, 16))
            items = list(rng.choice(len(pool), size=n, replace=False))
            run += [(system, q, pool[i], float(rng.integers(0, 6)), 0) for i in items]
        if q != 11:  # query 11: absent from the reference
            m = int(rng.integers(1, 16))
            items = list(rng.choice(len(pool), size=m, replace=False))
            ref += [(q, pool[i], float(s)) for s, i in zip(rng.permutation(m), items, strict=True)]
    run_df = pl.DataFrame(run, schema=["system", "query", "item", "score", "relevance"], orient="row")
    return run_df, pl.DataFrame(ref, schema=["qid", "doc", "score"], orient="row")


def _rbo_package() -> ModuleType:
    """The `rbo` package: .ci/run installs it (--no-deps: it declares numpy<2) and requires it."""
    if os.environ.get("PRM_REQUIRE_ORACLES"):
        return importlib.import_module("rbo")
    return pytest.importorskip(
        "rbo", reason="the oracle rbo is installed by .ci/run (pip install --no-deps rbo)"
    )


@pytest.mark.oracles
@pytest.mark.parametrize(
    ("seed", "ints", "p"), [(0, False, 0.9), (1, True, 0.8), (2, False, 0.98), (3, True, 0.5)]
)
def test_rbo_matches_the_rbo_package(seed: int, ints: bool, p: float) -> None:
    rbo_package = _rbo_package()
    run, ref = _runs(seed, ints)
    metric = prm.rbo(p=p, reference=ref)
    out = prm.evaluate(
        run.sample(fraction=1.0, shuffle=True, seed=seed), [metric], by="system", per_query=True
    )
    assert out.height == 24
    for system, query, value in out.iter_rows():
        mine = run.filter(system=system, query=query)
        theirs = ref.filter(qid=query)
        s = _ranked(mine["item"].to_list(), mine["score"].to_list())
        t = _ranked(theirs["doc"].to_list(), theirs["score"].to_list())
        expected = rbo_package.RankingSimilarity(s, t).rbo_ext(p=p) if t else 0.0
        assert value == pytest.approx(expected, abs=1e-12), (system, query)
    mean = prm.evaluate(run, [metric], by="system")
    assert mean.sort("system")[str(metric)].to_list() == pytest.approx(
        out.group_by("system").agg(pl.col(str(metric)).mean()).sort("system")[str(metric)].to_list(),
        abs=1e-15,
    )


def test_rbo_reads_a_reference_by_rank_and_is_one_against_itself() -> None:
    run, _ = _runs(5, ints=False)
    a = run.filter(system="a")
    ranks = a.with_columns(pl.col("score").rank("ordinal", descending=True).over("query").alias("rank"))
    # The same order, as ranks: ties between scores were broken by item id, the reference keeps that order.
    ref = a.with_columns(
        pl.struct(pl.col("score"), pl.col("item"))
        .rank("ordinal", descending=True)
        .over("query")
        .alias("rank")
    ).select("query", "item", "rank")
    assert ranks.height == ref.height
    out = prm.evaluate(a, [prm.rbo(reference=ref)], per_query=True)
    assert out["rbo"].to_list() == pytest.approx([1.0] * out.height, abs=1e-12)
    lazy = prm.evaluate(a.lazy(), [prm.rbo(reference=ref.lazy())], per_query=True).collect()
    assert lazy.equals(out)
    streamed = prm.evaluate(a.lazy(), [prm.rbo(reference=ref.lazy())], per_query=True).collect(
        engine="streaming"
    )
    assert streamed.equals(out)
    assert a.rank.rbo(reference=ref).equals(prm.evaluate(a, [prm.rbo(reference=ref)]))


def test_rbo_refusals() -> None:
    run, ref = _runs(0, ints=False)
    run = run.filter(system="a")
    with pytest.raises(InvalidParameterError, match="reference"):
        prm.rbo()
    with pytest.raises(InvalidParameterError, match="reference"):
        prm.rbo(reference={"q": [1]})  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="p"):
        prm.rbo(p=1.0, reference=ref)
    with pytest.raises(ColumnNotFoundError, match="score"):
        prm.evaluate(run, [prm.rbo(reference=ref.select("qid", "doc"))])
    with pytest.raises(ColumnTypeError, match="score"):
        prm.evaluate(run, [prm.rbo(reference=ref.with_columns(pl.col("score").cast(pl.String)))])
    with pytest.raises(ColumnTypeError, match="reference"):
        prm.evaluate(run, [prm.rbo(reference=ref.with_columns(pl.col("doc").str.slice(1).cast(pl.Int64)))])
    with pytest.raises(InvalidDataError, match="more than once"):
        prm.evaluate(run, [prm.rbo(reference=pl.concat([ref, ref.head(1)]))])
    with pytest.raises(InvalidDataError, match="finite"):
        prm.evaluate(run, [prm.rbo(reference=ref.with_columns(score=pl.lit(float("nan"))))])
    with pytest.raises(InvalidParameterError, match="reference"):
        prm.evaluate(run, ["rbo"])


def _judged(seed: int) -> tuple[pl.DataFrame, dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Graded and negative grades, unjudged and unretrieved relevant items, a query without relevant."""
    rng = np.random.default_rng(seed)
    rows, qrels, run = [], {}, {}
    for q in range(15):
        qid = f"q{q}"
        pool = [f"d{i}" for i in range(20)]
        grades = {
            d: int(g) for d, g in zip(pool, rng.integers(-1, 4, size=20), strict=True) if rng.random() < 0.6
        }
        if q == 3:
            grades = dict.fromkeys(list(grades)[:4], 0)  # judged, nothing relevant
        n = int(rng.integers(1, 15))
        retrieved = list(rng.choice(20, size=n, replace=False))
        scores = {pool[i]: float(s) + 1 for s, i in zip(rng.permutation(n), retrieved, strict=True)}
        qrels[qid], run[qid] = grades, scores
        rows += [(qid, d, scores.get(d), grades.get(d)) for d in pool if d in grades or d in scores]
    return pl.DataFrame(rows, schema=["query", "item", "score", "relevance"], orient="row"), qrels, run


@pytest.mark.parametrize(("seed", "p"), [(0, 0.95), (1, 0.8), (2, 0.5)])
def test_compat_matches_ir_measures(seed: int, p: float) -> None:
    df, qrels, run = _judged(seed)
    out = prm.evaluate(df, [prm.compat(p=p)], per_query=True)
    expected = {m.query_id: m.value for m in ir_measures.iter_calc([Compat(p=p)], qrels, run)}
    got = dict(out.iter_rows())
    assert set(got) == set(expected)
    for query, value in expected.items():
        assert got[query] == pytest.approx(value, abs=1e-12), query
    assert got["q3"] == 0.0
    assert str(prm.parse("Compat(p=0.8)")) == "compat(p=0.8)"


def test_rbo_plan_streams_without_python() -> None:
    """The side input's plan, like every metric's: no Python UDF, no in-memory fallback when streaming."""
    run, ref = _runs(4, ints=False)
    for per_query in (True, False):
        plan = prm.evaluate(
            run.lazy(), [prm.rbo(reference=ref.lazy()), prm.compat()], by="system", per_query=per_query
        )
        assert not calls_python(plan)
        assert not fallback_nodes(plan), fallback_nodes(plan)[:1]


# rbo(tie_handling="aware"): the tie-aware RBO_ext.

Ranking = list[tuple[object, float]]  # (item, score): equal scores are tied, the higher first


def _tops(ranking: Ranking) -> dict[object, int]:
    """Each item's first position in its tie group: 1 + the items scored strictly higher."""
    return {item: 1 + sum(1 for _, other in ranking if other > score) for item, score in ranking}


def reference_rbo(run: Ranking, ref: Ranking, p: float) -> float:
    """Tie-aware RBO_ext, one depth at a time (0 when either ranking is empty)."""
    if not run or not ref:
        return 0.0
    a, b = _tops(run), _tops(ref)
    s, l = min(len(a), len(b)), max(len(a), len(b))  # noqa: E741  (the paper's l)
    agreement: dict[int, float] = {}
    for d in range(1, l + 1):
        overlap = sum(1 for item in a if item in b and max(a[item], b[item]) <= d)
        held = sum(1 for t in a.values() if t <= d) + sum(1 for t in b.values() if t <= d)
        extra = max(d - s, 0)
        agreement[d] = 2 * (overlap + extra * agreement.get(s, 0.0)) / (held + extra)
    x_l = sum(1 for item in a if item in b)
    total = sum(value * p**d for d, value in agreement.items())
    return (1 - p) / p * total + (x_l + (l - s) * agreement[s]) / l * p**l


def _parsed(text: str) -> Ranking:
    """The published notation, ``i3 (i1 i5) i9``: parentheses hold a tie group."""
    groups = [
        m.group(1).split() if m.group(1) else [m.group(2)] for m in re.finditer(r"\(([^)]*)\)|(\S+)", text)
    ]
    return [(item, float(len(groups) - g)) for g, group in enumerate(groups) for item in group]


PUBLISHED = [  # (x, y, p, RBO^w ext)
    ("red (blue green) yellow pink", "(blue red) white (yellow black purple) green", 0.95, 0.7068257),
    ("(i5 i9 i13 i15 i16 i19 i20) (i3 i8)", "i6 (i4 i18) i2 i7 i8 i17 i14 (i11 i12) i1",
     0.958074765324023, 0.0816485573277354),
    ("i11 (i8 i21) (i2 i18) (i6 i16 i20) (i4 i10)", "i8 (i9 i20 i21) (i2 i3) i13 i1 i11 i14 i19",
     0.93912403977192, 0.482369482292872),
    ("(i3 i6) (i2 i7) i10", "(i3 i6 i7 i10) (i1 i2)", 0.965413635276732, 0.946064537517568),
    ("i14 (i5 i12 i16) (i1 i17) (i3 i11) i8", "i12 i3 i17 i9 i8 i4 i15 (i13 i14)",
     0.942991097099648, 0.456106059590995),
    ("i1 (i4 i5 i6 i7 i9 i10 i12)", "(i2 i8 i10 i11 i16) (i3 i9 i13)", 0.93104225303903, 0.210506059521637),
    ("i8 (i3 i6 i13 i16 i19 i20 i23) i9", "i19 i20 i8 i3 (i6 i13) (i16 i18) i17 i9 (i2 i11 i14) i23",
     0.938685393844862, 0.775921051418471),
    ("(i1 i4 i6 i8 i10 i12 i13 i14 i17 i18)", "(i1 i4 i10 i13 i17 i19) i18 (i6 i20 i22) i8 i14 i9",
     0.908075936164193, 0.724213629902645),
    ("i21 i20 (i1 i16 i19) (i5 i10) i4", "(i12 i17) (i2 i3 i8 i11) (i15 i18) (i6 i13) (i7 i14) i9",
     0.930074017489188, 0.0),
]  # fmt: skip


@pytest.mark.parametrize(("x", "y", "p", "expected"), PUBLISHED)
def test_the_reference_gives_the_published_values(x: str, y: str, p: float, expected: float) -> None:
    tolerance = 5e-8 if expected == 0.7068257 else 1e-12  # the README prints 7 digits
    assert reference_rbo(_parsed(x), _parsed(y), p) == pytest.approx(expected, abs=tolerance)
    assert reference_rbo(_parsed(y), _parsed(x), p) == pytest.approx(expected, abs=tolerance)


@pytest.mark.parametrize("ints", [False, True])
def test_rbo_aware_gives_the_published_values(ints: bool) -> None:
    """Each case twice, the shorter ranking as the run and as the reference; ids as text or integers."""
    cases = [(x, y, p, e) for x, y, p, e in PUBLISHED[1:] for x, y in ((x, y), (y, x))]
    ident = (lambda item: int(item[1:])) if ints else (lambda item: item)
    for p in sorted({p for _, _, p, _ in cases}):
        chosen = [(q, x, y, e) for q, (x, y, p_, e) in enumerate(cases) if p_ == p]
        run = pl.DataFrame(
            [(q, ident(i), s, 0) for q, x, _, _ in chosen for i, s in _parsed(x)],
            schema=["query", "item", "score", "relevance"],
            orient="row",
        )
        ref = pl.DataFrame(
            [(q, ident(i), s) for q, _, y, _ in chosen for i, s in _parsed(y)],
            schema=["query", "doc", "score"],
            orient="row",
        )
        out = prm.evaluate(run, [prm.rbo(p=p, reference=ref, tie_handling="aware")], per_query=True)
        got = dict(out.iter_rows())
        assert got == pytest.approx({q: e for q, _, _, e in chosen}, abs=1e-12)


def test_rbo_aware_by_hand() -> None:
    """Run a, (b c), d; reference (b a), e: positions 1, 2, 2, 4 and 1, 1, 3; s = 3, l = 4."""
    run = pl.DataFrame(
        {"query": 1, "item": ["a", "b", "c", "d"], "score": [4.0, 3.0, 3.0, 1.0], "relevance": 0}
    )
    reference = pl.DataFrame({"query": 1, "item": ["b", "a", "e"], "rank": [1, 1, 3]})
    # d = 1: {a} and {a, b}; d = 2: {a, b, c} and {a, b}; d = 3: 3 and 3 items; d = 4: 4 + 3 + e = 1.
    agreement = [2 * 1 / 3, 2 * 2 / 5, 2 * 2 / 6, 2 * (2 + 1 * 2 / 3) / 8]
    p = 0.9
    expected = (1 - p) / p * sum(a * p ** (d + 1) for d, a in enumerate(agreement)) + (2 + 2 / 3) / 4 * p**4
    out = prm.evaluate(run, [prm.rbo(reference=reference, tie_handling="aware")])
    assert out.item() == pytest.approx(expected, abs=1e-15)
    assert reference_rbo(
        _ranking(run, "item", "score"), [("b", -1), ("a", -1), ("e", -3)], p
    ) == pytest.approx(expected, abs=1e-15)


def _tied_runs(seed: int, ints: bool) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Two systems over 14 queries with many tied scores in both rankings, lengths 1 to 12.

    Query 12 is absent from the reference; query 13 retrieves a single item against a single
    reference item; the reference also holds query 99, which no run retrieves.
    """
    rng = np.random.default_rng(seed)
    run, ref = [], []
    for q in range(14):
        pool = [int(i) if ints else f"d{i}" for i in rng.permutation(20)]
        for system in ("a", "b"):
            n = 1 if q == 13 else int(rng.integers(1, 13))
            items = rng.choice(len(pool), size=n, replace=False)
            run += [(system, q, pool[i], float(rng.integers(0, 4)), 0) for i in items]
        if q != 12:
            m = 1 if q == 13 else int(rng.integers(1, 13))
            items = rng.choice(len(pool), size=m, replace=False)
            ref += [(q, pool[i], float(rng.integers(0, 3))) for i in items]
    ref.append((99, 0 if ints else "d0", 1.0))
    run_df = pl.DataFrame(run, schema=["system", "query", "item", "score", "relevance"], orient="row")
    return run_df, pl.DataFrame(ref, schema=["qid", "doc", "score"], orient="row")


def _ranking(frame: pl.DataFrame, item: str, score: str) -> Ranking:
    return list(zip(frame[item].to_list(), frame[score].to_list(), strict=True))


@pytest.mark.parametrize(("seed", "ints", "p"), [(0, False, 0.9), (1, True, 0.7), (2, False, 0.98)])
def test_rbo_aware_matches_the_reference_on_tied_runs(seed: int, ints: bool, p: float) -> None:
    run, ref = _tied_runs(seed, ints)
    metric = prm.rbo(p=p, reference=ref, tie_handling="aware")
    shuffled = run.sample(fraction=1.0, shuffle=True, seed=seed)
    out = prm.evaluate(shuffled, [metric], by="system", per_query=True)
    assert out.height == 28
    for system, query, value in out.iter_rows():
        mine, theirs = run.filter(system=system, query=query), ref.filter(qid=query)
        expected = reference_rbo(_ranking(mine, "item", "score"), _ranking(theirs, "doc", "score"), p)
        assert value == pytest.approx(expected, abs=1e-12), (system, query)
    assert out.filter(query=12)[str(metric)].to_list() == [0.0, 0.0]
    assert run.filter(query=13).height == 2  # one item per system, against one reference item
    mean = prm.evaluate(run, [metric], by="system").sort("system")
    assert mean[str(metric)].to_list() == pytest.approx(
        out.group_by("system").agg(pl.col(str(metric)).mean()).sort("system")[str(metric)].to_list(),
        abs=1e-15,
    )


def test_rbo_aware_within_a_depth_reads_the_cut_ranking() -> None:
    """With depth=5 the run is its top 5 (score, then id): tie groups cut at the depth shrink."""
    run, ref = _tied_runs(3, ints=False)
    conventions = prm.Conventions(depth=5)
    out = prm.evaluate(
        run,
        [prm.rbo(reference=ref, tie_handling="aware")],
        by="system",
        per_query=True,
        conventions=conventions,
    )
    for system, query, value in out.iter_rows():
        mine = run.filter(system=system, query=query).sort(["score", "item"], descending=True).head(5)
        expected = reference_rbo(
            _ranking(mine, "item", "score"), _ranking(ref.filter(qid=query), "doc", "score"), 0.9
        )
        assert value == pytest.approx(expected, abs=1e-12), (system, query)


def test_rbo_aware_is_the_default_without_ties() -> None:
    run, ref = _tied_runs(4, ints=True)
    run = run.with_columns(pl.int_range(pl.len()).over("system", "query").cast(pl.Float64).alias("score"))
    ref = ref.with_columns(pl.int_range(pl.len()).over("qid").mul(-1).alias("score"))
    out = prm.evaluate(
        run,
        [prm.rbo(reference=ref), prm.rbo(reference=ref, tie_handling="aware")],
        by="system",
        per_query=True,
    )
    assert out.height == 28
    assert out["rbo(tie_handling=aware)"].to_list() == pytest.approx(out["rbo"].to_list(), abs=1e-12)
    assert out["rbo"].n_unique() > 5


def test_rbo_aware_reads_tied_ranks_and_frames_alike() -> None:
    """A reference by rank ties its equal ranks (1, 1, 2 holds a group of two, then position 3)."""
    run, ref = _tied_runs(5, ints=False)
    ranks = ref.with_columns(pl.col("score").rank("dense", descending=True).over("qid").alias("rank"))
    metric = prm.rbo(p=0.8, reference=ranks.select("qid", "doc", "rank"), tie_handling="aware")
    out = prm.evaluate(run, [metric], by="system", per_query=True)
    by_score = prm.evaluate(
        run, [prm.rbo(p=0.8, reference=ref, tie_handling="aware")], by="system", per_query=True
    )
    assert out[str(metric)].to_list() == pytest.approx(by_score[str(metric)].to_list(), abs=1e-15)
    assert out[str(metric)].to_list() != pytest.approx(
        prm.evaluate(run, [prm.rbo(p=0.8, reference=ref)], by="system", per_query=True)[
            "rbo(p=0.8)"
        ].to_list()
    )
    lazy_metric = prm.rbo(p=0.8, reference=ranks.select("qid", "doc", "rank").lazy(), tie_handling="aware")
    lazy = prm.evaluate(run.lazy(), [lazy_metric], by="system", per_query=True)
    assert lazy.collect().equals(out)
    assert lazy.collect(engine="streaming").sort("system", "query").equals(out.sort("system", "query"))
    chunked = prm.evaluate_chunked(run, [lazy_metric], rows_per_chunk=40, by="system", per_query=True)
    assert chunked.sort("system", "query").equals(out.sort("system", "query"))
    for per_query in (True, False):
        plan = prm.evaluate(
            run.lazy(), [lazy_metric, prm.rbo(reference=ref.lazy())], by="system", per_query=per_query
        )
        assert not calls_python(plan)
        assert not fallback_nodes(plan), fallback_nodes(plan)[:1]


def test_rbo_ties_names_and_refusals() -> None:
    run, ref = _tied_runs(6, ints=False)
    assert str(prm.rbo(reference=ref, tie_handling="aware")) == "rbo(tie_handling=aware)"
    assert str(prm.rbo(p=0.5, reference=ref, tie_handling="aware")) == "rbo(p=0.5,tie_handling=aware)"
    assert str(prm.rbo(p=0.5, reference=ref, tie_handling="break")) == "rbo(p=0.5)"
    with pytest.raises(
        InvalidParameterError, match="`tie_handling` of metric 'rbo' must be 'break' or 'aware'"
    ):
        prm.rbo(reference=ref, tie_handling="average")  # type: ignore[arg-type]
    aware = run.filter(system="a").rank.rbo(reference=ref, tie_handling="aware")
    assert aware.columns == ["rbo(tie_handling=aware)"]
    assert aware.equals(prm.evaluate(run.filter(system="a"), [prm.rbo(reference=ref, tie_handling="aware")]))
