"""Recommender metrics against plain-Python reference implementations (tests/recsys_reference.py).

Generated data: ragged lists, single users, string and integer ids, several
models in one frame (``by="model"``), catalogs with duplicate ids, zero
feature vectors, relevant items missing from the lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl
import pytest
import recsys_reference as ref
from hypothesis import example, given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings(
    "ignore::polars_rankmetrics.RankMetricsWarning"
)  # generated data is often degenerate on purpose

TOLERANCE = 1e-9
CUTOFFS = (1, 3, None)
# A third of the loaded profile's examples (tests/conftest.py): every example evaluates many
# catalog metrics, each its own small plan, and the whole suite should stay under a minute.
FEWER = settings(max_examples=max(10, settings().max_examples // 3))
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
        rows: list[dict[str, Any]] = []
        for model, users in self.lists.items():
            for user, items in enumerate(users):
                weights = self.weights.get(model, [{}] * len(users))[user]
                for position, item in enumerate(items):
                    score = float(len(items) - position)
                    rows.append({"model": model, "query": user, "item": item, "score": score,
                                 "relevance": weights.get(item, 0)})  # fmt: skip
                rows.extend(
                    {"model": model, "query": user, "item": item, "score": None, "relevance": grade}
                    for item, grade in weights.items()
                    if item not in items
                )
        item_dtype = pl.Int64 if self.ids == "int" else pl.String
        schema = {
            "model": pl.String,
            "query": pl.Int64,
            "item": item_dtype,
            "score": pl.Float64,
            "relevance": pl.Int64,
        }
        frame = pl.DataFrame(rows, schema=schema)
        return frame if self.by else frame.drop("model")

    def expected(self, fn: Any) -> dict[str | None, Any]:  # noqa: ANN401
        """`fn(model, lists)` per model, keyed like the evaluation's output rows."""
        return {(model if self.by else None): fn(model, users) for model, users in self.lists.items()}


@st.composite
def recommendation_lists(draw: st.DrawFn, *, max_pool: int = 8, relevance: bool = False) -> Lists:
    ids = draw(st.sampled_from(["int", "str"]))
    size = draw(st.integers(1, max_pool))
    # Multi-digit integer ids and strings that do not sort like them.
    pool: list[Any] = (
        [10 * j + 7 for j in range(size)] if ids == "int" else [f"i{9 - j}x" for j in range(size)]
    )
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


def rows_of(out: pl.DataFrame, by: str | None) -> dict[str | None, dict[str, Any]]:
    if by is None:
        assert out.height == 1
        return {None: out.row(0, named=True)}
    return {row.pop(by): row for row in out.iter_rows(named=True)}


def assert_close(got: float | None, want: float | None) -> None:
    if want is None:
        assert got is None
    else:
        assert got is not None
        assert abs(got - want) <= TOLERANCE, (got, want)


# --- catalog scope -------------------------------------------------------------------------------


@FEWER
@given(recommendation_lists())
@example(Lists("str", ["A", "B", "C", "D", "X", "Z"], {"als": [list("ABCD"), list("ABCX"), list("ABCZ")]}))
def test_personalization_coverage_gini_entropy_match_reference(data: Lists) -> None:
    frame = data.frame()
    metrics: list[Any] = []
    for k in CUTOFFS:
        metrics += [prm.personalization(k), prm.coverage(k), prm.gini(k), prm.entropy(k)]
        metrics += [prm.coverage(k, catalog="group"), prm.gini(k, catalog="group")]
    out = rows_of(prm.evaluate(frame, metrics, by=data.by), data.by)
    # The default catalog: the items ranked anywhere, in any model's lists (one catalog for all);
    # catalog="group": those ranked in the model's own lists.
    shared = [i for key in out for items in data.lists[key or MODELS[0]] for i in items]
    for k in CUTOFFS:
        suffix = "" if k is None else f"@{k}"
        want_p = data.expected(lambda _m, users, k=k: ref.personalization(ref.top(users, k)))
        own = data.expected(lambda _m, users: [i for items in users for i in items])
        for key, row in out.items():
            top = ref.top(data.lists[key or MODELS[0]], k)
            assert_close(row[f"personalization{suffix}"], want_p[key])
            for catalog, name in ((shared, "{}"), (own[key], "{}(catalog=group)")):
                assert_close(row[name.format("coverage") + suffix], ref.coverage(top, catalog))
                assert_close(row[name.format("gini") + suffix], ref.gini(top, catalog))
                assert_close(row[name.format("gini") + suffix], ref.gini_mean_difference(top, catalog))
            assert_close(row[f"entropy{suffix}"], ref.entropy(top))


def test_personalization_recmetrics_example() -> None:
    # recmetrics' documented example: three lists sharing three of four items.
    frame = Lists("str", [], {"als": [list("ABCD"), list("ABCX"), list("ABCZ")]}).frame()
    out = prm.evaluate(frame, [prm.personalization()])
    assert out["personalization"][0] == pytest.approx(0.25, abs=1e-12)


@FEWER
@given(recommendation_lists(), st.integers(0, 4), st.data())
def test_catalog_frame_with_duplicates_and_extra_items(data: Lists, extra: int, draw: st.DataObject) -> None:
    # The catalog: every pool item (some twice), plus items nobody recommends.
    extras = [-1 - j for j in range(extra)] if data.ids == "int" else [f"extra{j}" for j in range(extra)]
    doubled = draw.draw(st.lists(st.sampled_from(data.pool), max_size=4))
    catalog = pl.Series("item", data.pool + extras + doubled)
    frame = data.frame()
    metrics = [m(k, catalog=c) for k in (1, None) for m in (prm.coverage, prm.gini) for c in (catalog,)]
    out = rows_of(prm.evaluate(frame, metrics, by=data.by), data.by)
    sized = rows_of(prm.evaluate(frame, [prm.coverage(2, catalog=len(set(catalog)))], by=data.by), data.by)
    for key, row in out.items():
        users = data.lists[key or MODELS[0]]
        for k in (1, None):
            suffix = "" if k is None else f"@{k}"
            assert_close(row[f"coverage{suffix}"], ref.coverage(ref.top(users, k), list(catalog)))
            assert_close(row[f"gini{suffix}"], ref.gini(ref.top(users, k), list(catalog)))
        assert_close(sized[key]["coverage@2"], ref.coverage(ref.top(users, 2), list(catalog)))


@FEWER
@given(recommendation_lists(), st.data())
def test_intra_list_similarity_matches_reference(data: Lists, draw: st.DataObject) -> None:
    width = draw.draw(st.integers(1, 4))
    # Small integer features: zero vectors, parallel and opposite vectors are common.
    vector = st.lists(st.integers(-2, 2).map(float), min_size=width, max_size=width)
    features = {item: draw.draw(vector) for item in data.pool}
    layout = draw.draw(st.sampled_from(["wide", "list", "array", "lazy_array"]))
    table = _features_frame(features, layout)
    frame = data.frame()
    out = rows_of(
        prm.evaluate(frame, [prm.intra_list_similarity(k, features=table) for k in CUTOFFS], by=data.by),
        data.by,
    )
    for key, row in out.items():
        for k in CUTOFFS:
            suffix = "" if k is None else f"@{k}"
            want = ref.intra_list_similarity(ref.top(data.lists[key or MODELS[0]], k), features)
            assert_close(row[f"intra_list_similarity{suffix}"], want)


def _features_frame(features: dict[Any, list[float]], layout: str) -> pl.DataFrame | pl.LazyFrame:
    items = list(features)
    vectors = [features[i] for i in items]
    width = len(vectors[0])
    if layout == "wide":
        return pl.DataFrame({"item": items, **{f"f{j}": [v[j] for v in vectors] for j in range(width)}})
    table = pl.DataFrame({"item": items, "vec": vectors})
    if layout == "list":
        return table
    table = table.with_columns(pl.col("vec").list.to_array(width))
    return table if layout == "array" else table.lazy()


@FEWER
@given(recommendation_lists(), st.data())
def test_novelty_matches_reference(data: Lists, draw: st.DataObject) -> None:
    n_users = draw.draw(st.integers(1, 50))
    pop = {item: draw.draw(st.integers(1, n_users)) for item in data.pool}
    table = pl.DataFrame({"item": list(pop), "count": list(pop.values())})
    frame = data.frame()
    out = rows_of(
        prm.evaluate(frame, [prm.novelty(k, popularity=table, n_users=n_users) for k in CUTOFFS], by=data.by),
        data.by,
    )
    for key, row in out.items():
        users = data.lists[key or MODELS[0]]
        for k in CUTOFFS:
            suffix = "" if k is None else f"@{k}"
            assert_close(row[f"novelty{suffix}"], ref.novelty(ref.top(users, k), pop, n_users))
            if all(len(items) >= (k or 0) for items in users) and k is not None:
                # recmetrics divides by the requested n; equal when every list is full.
                assert_close(
                    row[f"novelty{suffix}"], ref.recmetrics_novelty(ref.top(users, k), pop, n_users, k)
                )


@FEWER
@given(recommendation_lists(), st.data())
def test_novelty_from_interactions_matches_counts(data: Lists, draw: st.DataObject) -> None:
    # (user, item) interactions, repeats included: counts are distinct users per item.
    n_users = draw.draw(st.integers(1, 6))
    pairs = [
        (u, item) for item in data.pool for u in draw.draw(st.lists(st.integers(0, n_users - 1), min_size=1))
    ]
    interactions = pl.DataFrame({"user": [u for u, _ in pairs], "item_id": [i for _, i in pairs]})
    users_of: dict[Any, set[int]] = {}
    for u, item in pairs:
        users_of.setdefault(item, set()).add(u)
    pop = {item: len(us) for item, us in users_of.items()}
    total = len({u for u, _ in pairs})
    out = rows_of(
        prm.evaluate(data.frame(), [prm.novelty(2, interactions=interactions)], by=data.by), data.by
    )
    for key, row in out.items():
        assert_close(row["novelty@2"], ref.novelty(ref.top(data.lists[key or MODELS[0]], 2), pop, total))


# --- query scope -----------------------------------------------------------------------------------


@FEWER
@given(recommendation_lists(relevance=True))
def test_mar_and_map_capped_match_recmetrics_and_ml_metrics(data: Lists) -> None:
    frame = data.frame()
    cutoffs = (1, 2, 3, 10)
    metrics = [m for k in cutoffs for m in (prm.mar(k), prm.map_capped(k), f"map@{k}")]
    out = rows_of(prm.evaluate(frame, metrics, by=data.by), data.by)
    for key, row in out.items():
        model = key or MODELS[0]
        users = list(zip(data.lists[model], data.weights[model], strict=True))
        for k in cutoffs:
            actual = [[i for i, g in w.items() if g >= 1] for _, w in users]
            want_mar = sum(ref.ark(a, p, k) for a, (p, _) in zip(actual, users, strict=True)) / len(users)
            want_apk = sum(ref.apk(a, p, k) for a, (p, _) in zip(actual, users, strict=True)) / len(users)
            assert_close(row[f"mar@{k}"], want_mar)
            assert_close(row[f"map_capped@{k}"], want_apk)
            assert_close(row[f"map@{k}"], want_mar)  # the same number as trec_eval's map_cut


@FEWER
@given(recommendation_lists(relevance=True), st.integers(0, 5))
def test_mpr_matches_reference(data: Lists, spare: int) -> None:
    frame = data.frame()
    n_items = len(data.pool) + spare
    metrics = [prm.mpr(), prm.mpr(missing_items="ignore"), prm.mpr(missing_items="random", n_items=n_items)]
    out = rows_of(prm.evaluate(frame, metrics, by=data.by), data.by)
    for key, row in out.items():
        model = key or MODELS[0]
        users = list(zip(data.lists[model], data.weights[model], strict=True))
        assert_close(row["mpr"], ref.mpr(users, "bottom"))
        assert_close(row["mpr_ignore"], ref.mpr(users, "ignore"))
        assert_close(row[f"mpr_random(n_items={n_items})"], ref.mpr(users, "random", n_items))
    per_user = prm.evaluate(frame, [prm.mpr()], per_query=True, by=data.by)
    for user in per_user.iter_rows(named=True):
        model = user.get("model", MODELS[0])
        ranked, weights = data.lists[model][user["query"]], data.weights[model][user["query"]]
        assert_close(user["mpr"], ref.mpr([(ranked, weights)], "bottom"))


# --- errors on generated data ----------------------------------------------------------------------


@FEWER
@given(recommendation_lists(max_pool=5))
def test_items_without_features_are_named(data: Lists) -> None:
    frame = data.frame()
    missing = data.pool[-1]
    ids = pl.Series("item", data.pool[:-1], dtype=pl.Int64 if data.ids == "int" else pl.String)
    features = pl.DataFrame({"item": ids, "x": pl.Series([1.0] * len(ids), dtype=pl.Float64)})
    recommended = any(missing in items for users in data.lists.values() for items in users)
    metric = prm.intra_list_similarity(None, features=features)
    if not recommended:
        prm.evaluate(frame, [metric], by=data.by)
        return
    with pytest.raises(
        (pl.exceptions.InvalidOperationError, prm.InvalidDataError),
        match=f"item '{missing}' of the ranked lists has no row",
    ):
        prm.evaluate(frame, [metric], by=data.by)
