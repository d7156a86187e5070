"""Generated recommendation data for the beyond-accuracy oracle tests, and comparison helpers.

Several models (``by="model"``), users with one item, users without history,
cold items (ranked, never in the training pairs), popularity ties, items in
several categories, baseline lists with tied scores, string and integer ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl
from hypothesis import settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

TOLERANCE = 1e-12
FEWER = settings(max_examples=max(10, settings().max_examples // 3))

# --- the generated lists' schema, shared with tests/metrics/_helpers.py's Lists ----------------------


def item_dtype(ids: str) -> pl.DataType:
    """The dtype of generated item ids: ``"int"`` (Int64) or ``"str"`` (String)."""
    return pl.Int64() if ids == "int" else pl.String()


def id_pool(ids: str, size: int) -> list[Any]:
    """`size` item ids: multi-digit integers, or strings that do not sort like them."""
    return [10 * j + 7 for j in range(size)] if ids == "int" else [f"i{9 - j}x" for j in range(size)]


def list_schema(ids: str) -> dict[str, pl.DataType]:
    """The schema of generated ranked lists: model, query (the user), item, score, relevance."""
    return {
        "model": pl.String(),
        "query": pl.Int64(),
        "item": item_dtype(ids),
        "score": pl.Float64(),
        "relevance": pl.Int64(),
    }


def list_frame(rows: list[tuple[Any, ...]], ids: str, by: str | None, *, judged: bool = True) -> pl.DataFrame:
    """(model, query, item, score[, relevance]) rows in :func:`list_schema`; no model column without `by`."""
    schema = list_schema(ids) if judged else {k: v for k, v in list_schema(ids).items() if k != "relevance"}
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    return frame if by else frame.drop("model")


def rows_of(out: pl.DataFrame, by: str | None) -> dict[str | None, dict[str, Any]]:
    """An evaluation's rows by its `by` key (None: its one row)."""
    if by is None:
        assert out.height == 1
        return {None: out.row(0, named=True)}
    return {row.pop(by): row for row in out.iter_rows(named=True)}


@dataclass
class Case:
    """Lists per model and user, and the training pairs."""

    ids: str
    lists: dict[str, dict[int, list[Any]]]  # model -> user -> ranked items
    pairs: list[tuple[int, Any]]  # (user, item) training interactions, repeats included
    categories: dict[Any, set[str]] = field(default_factory=dict)  # item -> its categories (one or more)
    baseline: dict[int, list[tuple[Any, float]]] = field(default_factory=dict)  # user -> (item, score)

    @property
    def by(self) -> str | None:
        """The grouping key: "model" when there are several models."""
        return "model" if len(self.lists) > 1 else None

    def frame(self) -> pl.DataFrame:
        """One row per (model, user, ranked item), scores descending."""
        rows = [
            (model, user, item, float(len(items) - position))
            for model, users in self.lists.items()
            for user, items in users.items()
            for position, item in enumerate(items)
        ]
        return list_frame(rows, self.ids, self.by, judged=False)

    def interactions(self) -> pl.DataFrame:
        """The training pairs as a (user, item_id) frame."""
        return pl.DataFrame(
            {"user": [u for u, _ in self.pairs], "item_id": [i for _, i in self.pairs]},
            schema={"user": pl.Int64, "item_id": item_dtype(self.ids)},
        )

    def items(self) -> set[Any]:
        """Every item: ranked or in the training pairs."""
        ranked = {i for users in self.lists.values() for items in users.values() for i in items}
        return ranked | {i for _, i in self.pairs}

    def category_frame(self) -> pl.DataFrame:
        """(item, genre) rows, an item once per category."""
        rows = [(i, g) for i, gs in self.categories.items() for g in sorted(gs)]
        return pl.DataFrame(rows, schema={"item": item_dtype(self.ids), "genre": pl.String}, orient="row")

    def baseline_frame(self) -> pl.DataFrame:
        """(user, item, score) rows of the baseline model."""
        rows = [(u, i, s) for u, pairs in self.baseline.items() for i, s in pairs]
        return pl.DataFrame(
            rows, schema={"user": pl.Int64, "item": item_dtype(self.ids), "score": pl.Float64}, orient="row"
        )

    def baseline_lists(self) -> dict[int, list[Any]]:
        """The baseline's ranked lists: score descending, ties by item id."""
        return {
            u: [i for i, _ in sorted(pairs, key=lambda p: (-p[1], p[0]))]
            for u, pairs in self.baseline.items()
        }

    def train(self) -> dict[int, set[Any]]:
        """Each user's training items."""
        seen: dict[int, set[Any]] = {}
        for user, item in self.pairs:
            seen.setdefault(user, set()).add(item)
        return seen


@st.composite
def cases(draw: st.DrawFn) -> Case:
    ids = draw(st.sampled_from(["int", "str"]))
    size = draw(st.integers(2, 9))
    pool = id_pool(ids, size)
    lists: dict[str, dict[int, list[Any]]] = {}
    for model in ("als", "pop")[: draw(st.integers(1, 2))]:
        users = draw(st.lists(st.integers(0, 7), min_size=1, max_size=5, unique=True))
        lists[model] = {}
        for user in users:
            order = draw(st.permutations(pool))
            lists[model][user] = list(order[: draw(st.integers(1, size))])
    warm = draw(st.lists(st.sampled_from(pool), min_size=1, unique=True))  # the rest are cold
    # Users 0..9: some with lists and no history, some with history and no list; repeats included.
    pairs = [(u, item) for item in warm for u in draw(st.lists(st.integers(0, 9), min_size=1, max_size=6))]
    genres = ["drama", "comedy", "horror"]
    categories = {i: set(draw(st.lists(st.sampled_from(genres), min_size=1, max_size=3))) for i in pool}
    baseline = {
        u: [(i, float(draw(st.integers(0, 2)))) for i in draw(st.lists(st.sampled_from(pool), unique=True))]
        for u in draw(st.lists(st.integers(0, 9), unique=True, max_size=6))
    }
    return Case(ids, lists, pairs, categories, {u: b for u, b in baseline.items() if b})


def values(case: Case, metrics: list[prm.Metric]) -> dict[str | None, dict[str, Any]]:
    return values_of(case, prm.evaluate(case.frame(), metrics, by=case.by))


def values_of(case: Case, out: pl.DataFrame) -> dict[str | None, dict[str, Any]]:
    """An evaluation's rows by model (None without models), as :func:`values` gives them."""
    return rows_of(out, case.by)


def close(got: float | None, want: float | None) -> bool:
    if want is None or got is None:
        return got is want
    return abs(got - want) <= TOLERANCE


def top(users: dict[int, list[Any]], k: int | None) -> dict[int, list[Any]]:
    return {u: items[:k] for u, items in users.items()}


GRADES = st.sampled_from([None, -1, 0, 1, 2])


def judged(case: Case, draw: st.DrawFn) -> tuple[pl.DataFrame, dict[int, set[Any]]]:
    """Each model's lists joined to one set of judgments (user -> item -> grade), and the relevant sets."""
    pool = sorted(case.items(), key=str)
    users = sorted({u for users in case.lists.values() for u in users} | {8, 9})  # 8, 9: judged, no list
    grades: dict[int, dict[Any, int]] = {}
    for user in users:
        picked = draw(st.lists(st.sampled_from(pool), unique=True, max_size=len(pool)))
        grades[user] = {i: g for i in picked if (g := draw(GRADES)) is not None}
    rows: list[tuple[Any, ...]] = []
    for model, lists in case.lists.items():
        for user in users:
            ranked = lists.get(user, [])
            rows += [
                (model, user, i, float(len(ranked) - n), grades[user].get(i)) for n, i in enumerate(ranked)
            ]
            rows += [(model, user, i, None, g) for i, g in grades[user].items() if i not in ranked]
    frame = list_frame(rows, case.ids, case.by)
    relevant = {u: {i for i, g in gs.items() if g >= 1} for u, gs in grades.items()}
    return frame, relevant
