"""What several metric families' tests share: hand-made frames and small evaluation helpers.

Reference implementations shared with the cross-family tests stay beside them
(``tests/beyond_reference.py``, ``tests/recsys_reference.py``); generated data
is ``tests/strategies.py``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import log2
from typing import Any

import polars as pl

import polars_rankmetrics as prm

# q1 in trec_eval order (score desc, ties by item text desc):
#   a 0.9 (grade 0), c 0.8 (0), b 0.8 (2), f 0.5 (unjudged), d 0.1 (1); e judged 3, never retrieved.
# q2: judged, nothing relevant.  q3: run only (no judgments).  q4: qrels only.
TREC_FRAME = pl.DataFrame(
    {
        "query": ["q1"] * 6 + ["q2", "q2", "q3", "q4"],
        "item": ["a", "b", "c", "d", "e", "f", "a", "b", "a", "z"],
        "score": [0.9, 0.8, 0.8, 0.1, None, 0.5, 0.3, 0.2, 0.7, None],
        "relevance": [0, 2, 0, 1, 3, None, 0, -1, None, 1],
    }
)
# q1's AP (relevant b at rank 3 and d at rank 5, of 3 relevant) and nDCG@5 (linear gains).
AP_Q1 = (1 / 3 + 2 / 5) / 3
NDCG5_Q1 = (2 / log2(4) + 1 / log2(6)) / (3 + 2 / log2(3) + 1 / log2(4))

# Relevant items at ranks 2 (grade 1) and 4 (grade 3) of four, a third (grade 1) never retrieved.
TWO_HITS_OF_THREE = pl.DataFrame(
    {
        "query": ["q"] * 5,
        "item": list("abcde"),
        "score": [5.0, 4.0, 3.0, 2.0, None],
        "relevance": [0, 1, 0, 3, 1],
    }
)


def per_query(
    frame: pl.DataFrame, metrics: Sequence[str | prm.Metric], **options: object
) -> dict[Any, dict[str, Any]]:
    """``evaluate(..., per_query=True)`` as {query: {metric: value}}."""
    out = prm.evaluate(frame, metrics, per_query=True, **options)  # type: ignore[arg-type]
    return {row.pop("query"): row for row in out.iter_rows(named=True)}
