"""partial_auc and pap against RecTools' PartialAUC and PAP: its own unit-test cases and its algorithm.

RecTools does not install beside this project's pins (numpy < 2, attrs < 24 on Python 3.11), so
its algorithm is transcribed here from its source (RecTools main, commit 41a5a63):

- ``rectools/metrics/base.py`` 125-141 (``outer_merge_reco``): the interactions, deduplicated,
  outer-joined with the recommendations of the users that have one; every rank from 1 to the
  user's largest is present (an empty position is a row without an item, not a test positive).
- ``rectools/metrics/auc.py`` 105-138 (``fit``): ``__tp`` and ``__fp`` are the ranked rows that
  are (not) test positives; their running sums in rank order; n_pos the user's interactions.
- ``auc.py`` 175-186 (``_calc_roc_auc``): the sum of ``(k - fp_cumsum) * tp`` over the kept rows,
  over ``n_pos * k``; a user without a kept row scores 0.
- ``auc.py`` 375-380 (``PartialAUC``): the ranked rows with ``fp_cumsum < k``; ``auc.py`` 486-497
  (``PAP``): also ``test_pos_cumsum <= k``, and n_pos clipped at k.
- ``auc.py`` 131-137 and 146-173 (insufficient handling): a user with fewer than k false positives
  in its list and a test positive it misses is insufficient: excluded, or a ValueError.

The frame holds each (user, item) once, so the cases' duplicate interactions are deduplicated
here as ``outer_merge_reco`` deduplicates them.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm
from polars_rankmetrics.exceptions import InvalidDataError, InvalidParameterError

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

Reco = dict[int, dict[int, int]]  # user -> {item: rank}
Liked = dict[int, set[int]]  # user -> interactions


def _frame(reco: dict[str, list[int]], interactions: dict[str, list[int]]) -> pl.DataFrame:
    """RecTools' tables (user, item, rank) and (user, item) as one frame: relevance 1 per interaction."""
    run = pl.DataFrame(reco, schema={"query": pl.Int64, "item": pl.Int64, "rank": pl.Int64})
    qrels = (
        pl.DataFrame(interactions, schema={"query": pl.Int64, "item": pl.Int64})
        .unique()  # outer_merge_reco's drop_duplicates
        .with_columns(relevance=pl.lit(1, dtype=pl.Int64))
    )
    return prm.join_run_qrels(run, qrels)


def _per_user(frame: pl.DataFrame, metric: prm.Metric) -> tuple[list[int], list[float | None]]:
    out = prm.evaluate(frame, [metric], per_query=True, preset="rectools").sort("query")
    name = str(metric)
    kept = out.filter(pl.col(name).is_not_null())  # an excluded user: null, not averaged
    return kept["query"].to_list(), kept[name].to_list()


def _metric(family: str, k: int, handling: str) -> prm.Metric:
    build = prm.partial_auc if family == "partial_auc" else prm.pap
    return build(k, insufficient_handling=handling)  # type: ignore[arg-type]


# tests/metrics/test_auc.py (RecTools, commit 41a5a63): TestPartialAUC.test_calc, TestPAP.test_calc.
RECO = {
    "query": [1, 2, 3, 3, 3, 4, 5, 5, 5, 5],
    "item": [1, 2, 1, 2, 3, 1, 1, 2, 3, 5],
    "rank": [9, 1, 1, 2, 3, 1, 3, 7, 9, 1],
}
INTERACTIONS = {"query": [1, 2, 3, 3, 3, 4, 5, 5, 5, 5], "item": [1, 1, 1, 2, 3, 1, 1, 2, 3, 4]}


@pytest.mark.parametrize(
    ("family", "k", "handling", "expected", "users"),
    [
        ("partial_auc", 1, "ignore", [0, 0, 1, 1, 0], [1, 2, 3, 4, 5]),
        ("partial_auc", 3, "ignore", [0, 0, 1, 1, 1 / 12], [1, 2, 3, 4, 5]),
        ("partial_auc", 1, "exclude", [0, 0, 1, 1, 0], [1, 2, 3, 4, 5]),
        ("partial_auc", 3, "exclude", [0, 1, 1, 1 / 12], [1, 3, 4, 5]),  # user 2 was excluded
        ("pap", 1, "ignore", [0, 0, 1, 1, 0], [1, 2, 3, 4, 5]),
        ("pap", 3, "ignore", [0, 0, 1, 1, 1 / 9], [1, 2, 3, 4, 5]),
        ("pap", 1, "exclude", [0, 0, 1, 1, 0], [1, 2, 3, 4, 5]),
        ("pap", 3, "exclude", [0, 1, 1, 1 / 9], [1, 3, 4, 5]),
    ],
)
def test_rectools_cases(family: str, k: int, handling: str, expected: list[float], users: list[int]) -> None:
    frame = _frame(RECO, INTERACTIONS)
    metric = _metric(family, k, handling)
    got_users, got = _per_user(frame, metric)
    assert got_users == users
    assert got == pytest.approx(expected, abs=1e-12)
    mean = prm.evaluate(frame, [metric], preset="rectools")[str(metric)].item()
    assert mean == pytest.approx(sum(expected) / len(expected), abs=1e-12)


@pytest.mark.parametrize("family", ["partial_auc", "pap"])
def test_rectools_raise_when_insufficient(family: str) -> None:
    metric = _metric(family, 3, "raise")
    with pytest.raises(InvalidDataError, match="negatives"):
        prm.evaluate(_frame(RECO, INTERACTIONS), [metric], preset="rectools")
    # test_raises_when_incorrect_insufficient_handling: an unknown policy is refused when built
    with pytest.raises(InvalidParameterError, match="insufficient_handling"):
        _metric(family, 1, "strange")


# test_when_duplicates_in_interactions_sufficient / _insufficient (both families).
DUP_RECO = {"query": [1, 1, 1, 2, 2, 2], "item": [1, 2, 3, 1, 2, 3], "rank": [1, 2, 3, 4, 5, 6]}


@pytest.mark.parametrize("family", ["partial_auc", "pap"])
@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("handling", ["raise", "exclude", "ignore"])
def test_rectools_duplicates_sufficient(family: str, k: int, handling: str) -> None:
    interactions = {"query": [1, 1, 1, 2, 2, 2], "item": [1, 2, 1, 1, 2, 3]}
    got = _per_user(_frame(DUP_RECO, interactions), _metric(family, k, handling))
    assert got == ([1, 2], [1.0, 0.0])


@pytest.mark.parametrize("handling", ["ignore", "exclude"])
def test_rectools_partial_auc_duplicates_insufficient(handling: str) -> None:
    interactions = {"query": [1, 1, 1, 2, 2, 2, 1], "item": [1, 2, 1, 1, 2, 3, 10]}
    got = _per_user(_frame(DUP_RECO, interactions), _metric("partial_auc", 1, handling))
    assert got[0] == [1, 2]
    assert got[1] == pytest.approx([2 / 3, 0.0], abs=1e-12)


@pytest.mark.parametrize(
    ("handling", "expected", "users"), [("ignore", [0.5, 0.0], [1, 2]), ("exclude", [0.0], [2])]
)
def test_rectools_pap_duplicates_insufficient(handling: str, expected: list[float], users: list[int]) -> None:
    reco = {"query": [1, 2, 2, 2], "item": [1, 1, 2, 3], "rank": [1, 4, 5, 6]}
    interactions = {"query": [1, 1, 1, 2, 2, 2, 1], "item": [1, 2, 1, 1, 2, 3, 10]}
    got = _per_user(_frame(reco, interactions), _metric("pap", 2, handling))
    assert got == (users, pytest.approx(expected, abs=1e-12))


def test_rectools_docstring_example() -> None:
    """auc.py's docstring: PartialAUC(k=1) [1, 1, 0], k=3 [1, 1, 1/3], exclude [1, 1]; PAP the same."""
    reco = {"query": [1, 1, 2, 2, 2, 3, 3], "item": [1, 2, 3, 1, 2, 3, 2], "rank": [1, 2, 1, 2, 3, 1, 2]}
    interactions = {"query": [1, 1, 2, 2, 3, 3], "item": [1, 2, 1, 3, 1, 2]}
    frame = _frame(reco, interactions)
    for family in ("partial_auc", "pap"):
        assert _per_user(frame, _metric(family, 1, "ignore"))[1] == pytest.approx([1, 1, 0])
        assert _per_user(frame, _metric(family, 3, "ignore"))[1] == pytest.approx([1, 1, 1 / 3])
        assert _per_user(frame, _metric(family, 3, "exclude")) == ([1, 2], [1.0, 1.0])


# --- RecTools' algorithm (module docstring) on generated data -------------------------------------


def _rectools(reco: Reco, liked: Liked, k: int, *, pap: bool, handling: str) -> dict[int, float] | None:
    """Per test user, RecTools' value; None where handling="raise" raises."""
    out: dict[int, float] = {}
    for user, items in liked.items():
        ranks = reco.get(user, {})
        by_rank = {r: item for item, r in ranks.items()}
        fp_cumsum = pos_cumsum = 0
        numerator = 0
        for r in range(1, max(ranks.values(), default=0) + 1):  # every position, gaps filled
            tp = by_rank.get(r) in items
            fp_cumsum += not tp
            pos_cumsum += tp
            if fp_cumsum < k and (not pap or pos_cumsum <= k):
                numerator += (k - fp_cumsum) * tp
        n_pos = min(len(items), k) if pap else len(items)
        insufficient = fp_cumsum < k and any(i not in ranks for i in items)
        if insufficient and handling == "raise":
            return None
        if insufficient and handling == "exclude":
            continue
        out[user] = numerator / (n_pos * k)
    return out


@st.composite
def rectools_tables(draw: st.DrawFn) -> tuple[Reco, Liked]:
    """Recommendations with distinct, gapped ranks per user, and interactions (some users only one)."""
    reco: Reco = {}
    liked: Liked = {}
    for user in range(draw(st.integers(1, 6))):
        items = draw(st.lists(st.integers(0, 9), unique=True, max_size=7))
        ranks = draw(st.lists(st.integers(1, 9), unique=True, min_size=len(items), max_size=len(items)))
        if items:
            reco[user] = dict(zip(items, ranks, strict=True))
        chosen = draw(st.sets(st.integers(0, 9), max_size=5))
        if chosen:
            liked[user] = chosen
    return reco, liked


def _tables(reco: Reco, liked: Liked) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    run = {"query": [u for u, r in reco.items() for _ in r], "item": [i for r in reco.values() for i in r],
           "rank": [x for r in reco.values() for x in r.values()]}  # fmt: skip
    interactions = {
        "query": [u for u, s in liked.items() for _ in s],
        "item": [i for s in liked.values() for i in s],
    }
    return run, interactions


@settings(max_examples=60, deadline=None)
@given(
    tables=rectools_tables(), k=st.integers(1, 5), handling=st.sampled_from(["ignore", "exclude", "raise"])
)
def test_rectools_algorithm_on_generated_data(tables: tuple[Reco, Liked], k: int, handling: str) -> None:
    reco, liked = tables
    if not liked:
        return
    run = {"query": [u for u, r in reco.items() for _ in r], "item": [i for r in reco.values() for i in r],
           "rank": [x for r in reco.values() for x in r.values()]}  # fmt: skip
    interactions = {
        "query": [u for u, s in liked.items() for _ in s],
        "item": [i for s in liked.values() for i in s],
    }
    frame = _frame(run, interactions)
    for family in ("partial_auc", "pap"):
        want = _rectools(reco, liked, k, pap=family == "pap", handling=handling)
        metric = _metric(family, k, handling)
        if want is None:
            with pytest.raises(InvalidDataError):
                _per_user(frame, metric)
            continue
        users, got = _per_user(frame, metric)
        assert users == sorted(want)
        assert got == pytest.approx([want[u] for u in sorted(want)], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(tables=rectools_tables(), k=st.integers(1, 5))
def test_default_conventions_read_positions(tables: tuple[Reco, Liked], k: int) -> None:
    """Without the preset the ranks are positions: RecTools' value on the same lists without gaps."""
    reco, liked = tables
    dense = {
        u: {i: p + 1 for p, (i, _) in enumerate(sorted(r.items(), key=lambda x: x[1]))}
        for u, r in reco.items()
    }
    listed = {u: s for u, s in liked.items() if u in reco}
    if not listed:
        return
    run = {"query": [u for u, r in reco.items() for _ in r], "item": [i for r in reco.values() for i in r],
           "rank": [x for r in reco.values() for x in r.values()]}  # fmt: skip
    interactions = {
        "query": [u for u, s in listed.items() for _ in s],
        "item": [i for s in listed.values() for i in s],
    }
    frame = _frame(run, interactions)
    for family in ("partial_auc", "pap"):
        want = _rectools(dense, listed, k, pap=family == "pap", handling="ignore")
        assert want is not None
        out = prm.evaluate(frame, [_metric(family, k, "ignore")], per_query=True).sort("query")
        assert out["query"].to_list() == sorted(want)
        assert out[str(_metric(family, k, "ignore"))].to_list() == pytest.approx(
            [want[u] for u in sorted(want)], abs=1e-12
        )


def test_tie_policies() -> None:
    """The grade order is extremal; with a depth, which lists are insufficient depends on the tie order."""
    frame = pl.DataFrame(
        {"query": [1, 1, 1], "item": [1, 2, 3], "score": [1.0, 1.0, 0.5], "relevance": [0, 1, 1]}
    )
    best = prm.evaluate(frame, [prm.partial_auc(1)], ties="optimistic").item()
    worst = prm.evaluate(frame, [prm.partial_auc(1)], ties="pessimistic").item()
    assert (best, worst) == (0.5, 0.0)  # item 2 above or below item 1; item 3 under one negative
    with pytest.raises(InvalidParameterError, match="insufficient lists"):
        prm.evaluate(frame, [_metric("pap", 1, "exclude")], ties="optimistic", depth=2)


@settings(max_examples=30, deadline=None)
@given(tables=rectools_tables(), k=st.integers(1, 4))
def test_the_expression_builders_agree(tables: tuple[Reco, Liked], k: int) -> None:
    """prm.expr.partial_auc / pap with insufficient_handling="exclude": evaluate's values, per user."""
    from polars_rankmetrics import expr as rx  # noqa: PLC0415

    reco, liked = tables
    if not liked:
        return
    frame = _frame(*_tables(reco, liked))
    for family, build in (("partial_auc", rx.partial_auc), ("pap", rx.pap)):
        metric = _metric(family, k, "exclude")
        want = prm.evaluate(frame, [metric], per_query=True).sort("query")
        got = (
            frame.group_by("query").agg(build(k, insufficient_handling="exclude", rank="rank")).sort("query")
        )
        got = got.join(want.select("query"), on="query", how="semi")
        assert got[str(metric)].to_list() == want[str(metric)].to_list()
