"""Adversarial evaluation frames for the Spark tests, from a seed (the frame contract of prm.Columns).

Every frame mixes ties (six scores), graded and negative grades, unjudged
retrieved items, judged items never retrieved, queries with no relevant
item, run-only and qrels-only queries, one-item lists and lists longer than
Spark's Arrow batches; ids are strings or integers (integer items whose text
order differs from their numeric order), under zero, one or two `by` keys.
"""

from __future__ import annotations

import random
from typing import Literal

import polars as pl

SCORES = (0.0, 0.5, 1.0, 1.5, 2.0, -1.0)
GRADES = (0, 1, 2, 3, 4, -1, -2)
KINDS = ("mixed", "mixed", "mixed", "qrels_only", "run_only", "no_relevant", "one_item")
LONGEST = 30
# Spark's Arrow batch size in the tests' session (conftest.py), below most lists' length:
# a partition's batches cut queries in two, which a route reading batch by batch gets wrong.
MAX_RECORDS_PER_BATCH = 7


def frame(seed: int, ids: Literal["str", "int"], by: tuple[str, ...] = (), queries: int = 24) -> pl.DataFrame:
    """A frame of `queries` queries per `by` group (two values per key)."""
    rng = random.Random(seed)  # noqa: S311  (test data, not secrets)
    groups: list[tuple[str, ...]] = [()]
    for key in by:
        groups = [(*g, f"{key}-{v}") for g in groups for v in ("x", "y")]
    rows = []
    for group in groups:
        for q in rng.sample(range(1, 400), queries):
            kind = rng.choice(KINDS)
            n = 1 if kind == "one_item" else rng.randint(1, LONGEST)
            items = rng.sample(range(1, 2000), n)  # text order ("9" > "10") differs from numeric
            for item in items:
                score = None if kind == "qrels_only" else rng.choice(SCORES)
                grade = None if kind == "run_only" else rng.choice(GRADES)
                if kind == "no_relevant" and grade is not None:
                    grade = min(grade, 0)
                if kind == "mixed" and rng.random() < 0.2:  # a judged item never retrieved
                    score = None
                if kind == "mixed" and score is not None and grade is not None and rng.random() < 0.2:
                    grade = None  # retrieved, unjudged
                qid: object = q if ids == "int" else f"q{q}"
                iid: object = item if ids == "int" else f"d{item}"
                rows.append((*group, qid, iid, score, grade))
    schema = {
        **dict.fromkeys(by, pl.String),
        "query": pl.Int64 if ids == "int" else pl.String,
        "item": pl.Int64 if ids == "int" else pl.String,
        "score": pl.Float64,
        "relevance": pl.Int64,
    }
    return pl.DataFrame(rows, schema=schema, orient="row")
