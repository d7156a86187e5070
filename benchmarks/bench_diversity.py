"""The diversity suite: prm.evaluate of the intent-aware measures against pyndeval (ndeval.c inside), same data, same run.

Generates intent qrels (``--queries`` queries, 6 intents, 200 judged items
each, about a third relevant to some intent) and a run of 1000 items per
query; checks that both give the same per-query values (1e-9) before
timing; reports the best of ``--repeat`` runs of each and the ratio.
pyndeval's time includes its Python conversion of the rows (its only
interface), ours the whole lazy plan and the greedy ideal::

    python benchmarks/bench_diversity.py                  # 200 queries
    python benchmarks/bench_diversity.py --queries 20 --repeat 1   # smoke
"""

from __future__ import annotations

import argparse
import math
import random
import time

import polars as pl
import pyndeval

import polars_rankmetrics as prm

MEASURES = ["alpha_ndcg@5", "alpha_ndcg@20", "err_ia@20", "nerr_ia@20", "nrbp", "nnrbp", "p_ia@20",
            "map_ia", "strec@20"]  # fmt: skip
THEIRS = ["alpha-nDCG@5", "alpha-nDCG@20", "ERR-IA@20", "nERR-IA@20", "NRBP", "nNRBP", "P-IA@20",
          "MAP-IA", "strec@20"]  # fmt: skip


def data(queries: int, seed: int = 7) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A run (1000 items a query) and intent qrels (200 judged items a query, 1-3 intents each)."""
    rng = random.Random(seed)  # noqa: S311  (benchmark data, not secrets)
    qrels: list[tuple[str, str, str, int]] = []
    run: list[tuple[str, str, float]] = []
    for q in range(queries):
        for d in range(200):
            intents = rng.sample(range(6), rng.randint(1, 3))
            qrels.extend((str(q), str(intent), f"d{d}", int(rng.random() < 0.2)) for intent in intents)
        run += [(str(q), f"d{d}", float(1000 - i)) for i, d in enumerate(rng.sample(range(1500), 1000))]
    qrels_frame = pl.DataFrame(qrels, schema=["query", "intent", "item", "relevance"], orient="row")
    return pl.DataFrame(run, schema=["query", "item", "score"], orient="row"), qrels_frame


def main() -> None:
    """Check, time, print."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    run, qrels = data(args.queries)
    frame = prm.join_run_qrels(run, qrels)
    judged = list(qrels.iter_rows())
    scored = list(run.iter_rows())
    ours = prm.evaluate(frame, MEASURES, per_query=True)
    theirs = pyndeval.ndeval(judged, scored, measures=THEIRS)
    for row in ours.iter_rows(named=True):
        for mine, other in zip(MEASURES, THEIRS, strict=True):
            assert math.isclose(row[mine], theirs[row["query"]][other], abs_tol=1e-9), (row["query"], mine)
    best = {"prm": math.inf, "pyndeval": math.inf}
    for _ in range(args.repeat):
        start = time.perf_counter()
        prm.evaluate(frame, MEASURES, per_query=True)
        best["prm"] = min(best["prm"], time.perf_counter() - start)
        start = time.perf_counter()
        pyndeval.ndeval(judged, scored, measures=THEIRS)
        best["pyndeval"] = min(best["pyndeval"], time.perf_counter() - start)
    rows = frame.height
    print(f"{args.queries} queries, {rows:,} frame rows; values equal (1e-9); best of {args.repeat}:")
    for name, seconds in best.items():
        print(f"  {name:9s} {seconds:7.3f} s  ({seconds / best['pyndeval']:.2f}x pyndeval)")


if __name__ == "__main__":
    main()
