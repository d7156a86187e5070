"""What several metric families' tests share: hand-made frames, generated lists, evaluation helpers.

The plain reference implementations several families use (and the cross-family tests of
``tests/reference/test_per_list_values.py``) are ``tests/recsys_reference.py`` and
``tests/beyond_reference.py``, with ``tests/beyond_cases.py``'s generated cases; generated
ranked frames with judgments are ``tests/strategies.py``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import log2
from typing import Any

import polars as pl
import pytest
from beyond_cases import id_pool, list_frame, rows_of
from hypothesis import strategies as st

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


# Query t: x (grade 1) and y (0) tied at the top, z (2) third; w (0) judged, never retrieved.
# Optimistic order (the higher grade first): x, y, z; pessimistic (and trec_eval's text order,
# item ids descending): y, x, z; average: the mean over both orders.
TIED = pl.DataFrame(
    {
        "query": ["t"] * 4,
        "item": ["x", "y", "z", "w"],
        "score": [1.0, 1.0, 0.5, None],
        "relevance": [1, 0, 2, 0],
    }
)
POLICIES = ("text", "optimistic", "pessimistic", "average")


def by_policy(frame: pl.DataFrame, metric: str) -> dict[str, float]:
    """The metric's mean on `frame` under each tie policy of POLICIES."""
    return {ties: prm.evaluate(frame, [metric], ties=ties).item() for ties in POLICIES}  # type: ignore[arg-type]


# Query j: r1 (grade 1), n1 (0), u (outside the judgments), r2 (1), n2 (0) retrieved in that
# order; r3 (1) and n3 (0) judged, never retrieved. R = 3 relevant, 3 judged non-relevant.
INCOMPLETE = pl.DataFrame(
    {
        "query": ["j"] * 7,
        "item": ["r1", "n1", "u", "r2", "n2", "r3", "n3"],
        "score": [5.0, 4.0, 3.0, 2.0, 1.0, None, None],
        "relevance": [1, 0, None, 1, 0, 1, 0],
    }
)


def per_query(
    frame: pl.DataFrame, metrics: Sequence[str | prm.Metric], **options: object
) -> dict[Any, dict[str, Any]]:
    """``evaluate(..., per_query=True)`` as {query: {metric: value}}."""
    out = prm.evaluate(frame, metrics, per_query=True, **options)  # type: ignore[arg-type]
    return {row.pop("query"): row for row in out.iter_rows(named=True)}


def assert_trec_frame_values(expected_q1: dict[str, float]) -> None:
    """On TREC_FRAME: q1's values as expected, q2's (nothing relevant) 0; q3 and q4 not evaluated."""
    got = per_query(TREC_FRAME, list(expected_q1))
    assert set(got) == {"q1", "q2"}  # q3 has no judgments, q4 retrieved nothing
    assert got["q1"] == pytest.approx(expected_q1, abs=1e-12)
    assert got["q2"] == pytest.approx(dict.fromkeys(expected_q1, 0))


def by_model(out: pl.DataFrame) -> dict[str, dict[str, Any]]:
    """An evaluation ``by="model"`` as {model: {metric: value}}."""
    return {row.pop("model"): row for row in out.iter_rows(named=True)}


def assert_by_model(
    metrics: Sequence[str | prm.Metric], want: dict[str, dict[str, float]], frame: pl.DataFrame | None = None
) -> None:
    """``evaluate(frame, metrics, by="model")`` (RUN by default) gives `want`, model by model."""
    got = by_model(prm.evaluate(RUN if frame is None else frame, metrics, by="model"))
    assert set(got) == set(want)
    for model, values in want.items():
        assert got[model] == pytest.approx(values, abs=1e-12), model


# Generated data is often degenerate on purpose (a catalog of one item, no relevant item): its
# warnings are expected; hand-made frames keep the default (every warning an error).
DEGENERATE_DATA = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

# --- hand-made recommendation lists ------------------------------------------------------------
# Two models. "als": user 1 ranks a, b, c; user 2 ranks a, c; user 3 ranks d.
# "pop": users 1 and 2 both rank a, b. Relevance: user 1 likes b (grade 2) and e (never ranked).
LISTS = pl.DataFrame(
    {
        "model": ["als"] * 7 + ["pop"] * 4,
        "query": [1, 1, 1, 1, 2, 2, 3, 1, 1, 2, 2],
        "item": ["a", "b", "c", "e", "a", "c", "d", "a", "b", "a", "b"],
        "score": [3.0, 2.0, 1.0, None, 2.0, 1.0, 1.0, 2.0, 1.0, 2.0, 1.0],
        "relevance": [0, 2, 0, 1, 1, 0, 0, 0, 2, 1, 0],
    }
)
RUN = LISTS.filter(pl.col("score").is_not_null()).drop("relevance")  # catalog metrics need no judgments
FEATURES = pl.DataFrame({"item": ["a", "b", "c", "d"], "x": [1.0, 1.0, 0.0, 0.0], "y": [0.0, 1.0, 1.0, 0.0]})
POPULARITY = pl.DataFrame({"item": ["a", "b", "c", "d"], "users": [8, 4, 2, 1]})

# --- generated recommendation lists (tests/recsys_reference.py's inputs) --------------------------
# Ragged lists, single users, string and integer ids, several models in one frame
# (``by="model"``), relevant items missing from the lists.

TOLERANCE = 1e-9
CUTOFFS = (1, 3, None)
MODELS = ("als", "pop")


@dataclass
class Lists:
    """Recommendation lists per model, and the frame that holds them."""

    ids: str  # "int" or "str"
    pool: list[Any]  # every item id that can appear
    lists: dict[str, list[list[Any]]]  # model -> one ranked list per user
    weights: dict[str, list[dict[Any, int]]] = field(default_factory=dict)  # model -> per user {item: grade}

    @property
    def by(self) -> str | None:
        """The grouping key: "model" when the frame holds several models."""
        return "model" if len(self.lists) > 1 else None

    def frame(self) -> pl.DataFrame:
        """One row per (model, user, item): ranked items with descending scores, missing relevant items."""
        rows: list[tuple[Any, ...]] = []
        for model, users in self.lists.items():
            for user, items in enumerate(users):
                weights = self.weights.get(model, [{}] * len(users))[user]
                for position, item in enumerate(items):
                    rows.append((model, user, item, float(len(items) - position), weights.get(item, 0)))
                rows.extend(
                    (model, user, item, None, grade) for item, grade in weights.items() if item not in items
                )
        return list_frame(rows, self.ids, self.by)

    def rows(self, metrics: Sequence[str | prm.Metric]) -> dict[str, dict[str, Any]]:
        """``evaluate(frame, metrics, by=by)``'s rows by model name (the one model's without `by`).

        Every model has its row: each ranks an item for each of its users.
        """
        out = rows_of(prm.evaluate(self.frame(), metrics, by=self.by), self.by)
        named = {(next(iter(self.lists)) if key is None else key): row for key, row in out.items()}
        assert set(named) == set(self.lists), (set(named), set(self.lists))
        return named


@st.composite
def recommendation_lists(draw: st.DrawFn, *, max_pool: int = 8, relevance: bool = False) -> Lists:
    ids = draw(st.sampled_from(["int", "str"]))
    size = draw(st.integers(1, max_pool))
    # Multi-digit integer ids and strings that do not sort like them.
    pool = id_pool(ids, size)
    models = MODELS[: draw(st.integers(1, 2))]
    lists: dict[str, list[list[Any]]] = {}
    weights: dict[str, list[dict[Any, int]]] = {}
    for model in models:
        n_users = draw(st.integers(1, 5))
        users = []
        for _ in range(n_users):
            order = draw(st.permutations(pool))
            users.append(list(order[: draw(st.integers(1, size))]))
        lists[model] = users
        if relevance:
            weights[model] = [
                draw(st.dictionaries(st.sampled_from(pool), st.integers(0, 3), max_size=size)) for _ in users
            ]
    return Lists(ids, pool, lists, weights)


def assert_close(got: float | None, want: float | None) -> None:
    if want is None:
        assert got is None
    else:
        assert got is not None
        assert abs(got - want) <= TOLERANCE, (got, want)
