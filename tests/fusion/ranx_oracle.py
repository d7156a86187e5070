"""Generated runs and ranx's fusion of them: the oracle of tests/fusion.

Runs are drawn from a seeded generator: 2-5 runs, queries some runs have no
list for (ranx gets an empty list there: its runs must share their queries),
items some runs miss, negative scores, string or integer ids, and either
tie-free scores or scores drawn from a few values (ties).

ranx's ``zmuv`` normalisation loses the list that follows an empty one
(numba's parallel loop over a NaN mean), so it is compared on runs that
list every query (`every_query`).
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import polars as pl

RANK_BASED = {
    "rrf", "isr", "log_isr", "logn_isr", "rbc", "bordafuse", "w_bordafuse", "condorcet", "w_condorcet",
    "posfuse", "probfuse", "slidefuse", "bayesfuse", "mapfuse", "segfuse",
}  # fmt: skip
"""Methods that read each run's order: compared on tie-free runs (ranx orders ties by numba's sort)."""


def generate(  # noqa: PLR0913
    seed: int,
    *,
    ties: bool,
    int_ids: bool = False,
    complete: bool = False,
    every_query: bool = False,
    n_runs: int | None = None,
    n_queries: int = 6,
) -> pl.DataFrame:
    """A long frame (run, query, item, score) of 2-5 runs."""
    rng = random.Random(seed)  # noqa: S311  (test data)
    n_runs = n_runs or rng.randint(2, 5)
    rows: list[tuple[str, object, object, float]] = []
    for q in range(n_queries):
        pool = list(range(rng.randint(1, 12)))
        for r in range(n_runs):
            if not (complete or every_query) and q > 0 and rng.random() < 0.15:
                continue  # this run has no list for the query (query 0 is in every run)
            items = pool if complete else rng.sample(pool, rng.randint(1, len(pool)))
            for i in items:
                score = rng.choice([-1.0, 0.0, 0.5, 2.0]) if ties else rng.uniform(-5, 5)
                qid: object = q if int_ids else f"q{q}"
                iid: object = i * 7 if int_ids else f"d{i}"
                rows.append((f"run{r}", qid, iid, score))
    return pl.DataFrame(rows, schema=["run", "query", "item", "score"], orient="row")


def to_ranx(frame: pl.DataFrame) -> list[Any]:
    """One ranx Run per run (sorted by name), every query present (empty where the run has none)."""
    from ranx import Run  # noqa: PLC0415

    queries = sorted({str(q) for q in frame["query"]})
    runs = []
    for name in sorted(set(frame["run"])):
        part = frame.filter(pl.col("run") == name)
        d: dict[str, dict[str, float]] = {q: {} for q in queries}
        for q, i, s in part.select("query", "item", "score").iter_rows():
            d[str(q)][str(i)] = s
        runs.append(Run.from_dict(d, name=name))
    return runs


def qrels_to_ranx(qrels: pl.DataFrame, queries: list[str]) -> Any:  # noqa: ANN401
    from ranx import Qrels  # noqa: PLC0415

    d: dict[str, dict[str, int]] = {q: {} for q in queries}
    for q, i, rel in qrels.select("query", "item", "relevance").iter_rows():
        d[str(q)][str(i)] = int(rel)
    return Qrels.from_dict(d)


def ranx_fuse(
    runs: list[Any], method: str, norm: str | None, params: dict[str, Any]
) -> dict[str, dict[str, float]]:
    from ranx import fuse  # noqa: PLC0415

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's type-safety warnings
        fused = fuse(runs, norm=norm, method=method, params=params)
    return {q: dict(docs) for q, docs in fused.run.items()}


def ours_as_dict(fused: pl.DataFrame) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for q, i, s in fused.select("query", "item", "score").iter_rows():
        out.setdefault(str(q), {})[str(i)] = s
    return out


def assert_same(ours: dict[str, dict[str, float]], theirs: dict[str, dict[str, float]]) -> None:
    """The same items per query, scores equal to 1e-12 (relative above 1)."""
    theirs = {q: d for q, d in theirs.items() if d}
    assert set(ours) == set(theirs)
    for q, docs in theirs.items():
        assert set(ours[q]) == set(docs), q
        for doc, expected in docs.items():
            got = ours[q][doc]
            assert abs(got - expected) <= 1e-12 * max(1.0, abs(expected)), (q, doc, got, expected)


def qrels_for(frame: pl.DataFrame, seed: int) -> pl.DataFrame:
    """Judgments of some listed items and some unlisted ones, grades 0-2, every query judged."""
    rng = random.Random(seed + 1000)  # noqa: S311  (test data)
    rows = []
    for (q,), part in frame.sort("query").group_by("query", maintain_order=True):  # a fixed order
        items = sorted(set(part["item"]), key=str)
        rows.extend((q, i, rng.choice([0, 1, 1, 2])) for i in items if rng.random() < 0.5)
        rows.append((q, "unlisted" if isinstance(q, str) else -1, 1))
    dtypes = frame.schema
    return pl.DataFrame(
        rows, schema={"query": dtypes["query"], "item": dtypes["item"], "relevance": pl.Int64}, orient="row"
    )
