"""intersection against RecTools' Intersection (with its own ref_k): its unit-test cases and its algorithm.

RecTools does not install beside this project's pins, so its algorithm is transcribed here from its
source (RecTools main, commit 41a5a63):

- ``rectools/metrics/intersection.py`` 96-106 (``Intersection.calc_per_user``): the recommendations
  with ``rank <= k`` become the interactions of ``Recall(k=ref_k)`` of the reference
  (``ref_k`` is k when None); an empty reference gives no user at all (NaN).
- ``rectools/metrics/classification.py`` 316 and 534-535 (``Recall``, ``calc_confusions``): per user
  of those interactions, the items whose reference rank is at most ref_k over the user's items;
  ``rectools/metrics/base.py`` 97-103 (``merge_reco``): a left join, so a user the reference lacks
  scores 0 and a user with nothing within k is not evaluated.

Both rank columns are read as given (RecTools' reading): the preset "rectools" for the run, the
reference's column named ``rank`` always.
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

SCHEMA = {"query": pl.Int64, "item": pl.Int64, "rank": pl.Int64}


def _per_user(
    reco: dict[str, list[int]], ref: dict[str, list[int]], k: int, ref_k: int = 0
) -> dict[int, float]:
    metric = prm.intersection(k, ref_k=ref_k, reference=pl.DataFrame(ref, schema=SCHEMA))
    out = prm.evaluate(pl.DataFrame(reco, schema=SCHEMA), [metric], per_query=True, preset="rectools")
    return {q: v for q, v in out.iter_rows() if v is not None}  # a user with nothing within k: null


# tests/metrics/test_intersection.py (RecTools, commit 41a5a63), TestIntersection.test_calc.
RECO = {
    "query": [1, 1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5],
    "item": [1, 2, 1, 1, 2, 1, 2, 3, 1, 2, 3, 4],
    "rank": [3, 1, 1, 7, 5, 2, 1, 8, 1, 2, 2, 9],
}
REF = {
    "query": [1, 1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5],
    "item": [1, 3, 1, 1, 2, 1, 2, 3, 1, 2, 3, 4],
    "rank": [3, 2, 1, 1, 4, 5, 1, 2, 3, 4, 1, 7],
}


@pytest.mark.parametrize(
    ("k", "ref_k", "expected"),
    [
        (2, 2, {1: 0.0, 2: 1.0, 4: 1 / 2, 5: 1 / 3}),
        (3, 0, {1: 1 / 2, 2: 1.0, 4: 1 / 2, 5: 2 / 3}),  # ref_k=None there: k
        (3, 6, {1: 1 / 2, 2: 1.0, 4: 1.0, 5: 1.0}),
    ],
)
def test_rectools_cases(k: int, ref_k: int, expected: dict[int, float]) -> None:
    got = _per_user(RECO, REF, k, ref_k)
    assert got == pytest.approx(expected, abs=1e-12)
    metric = prm.intersection(k, ref_k=ref_k, reference=pl.DataFrame(REF, schema=SCHEMA))
    mean = prm.evaluate(pl.DataFrame(RECO, schema=SCHEMA), [metric], preset="rectools")[str(metric)].item()
    assert mean == pytest.approx(sum(expected.values()) / len(expected), abs=1e-12)


def test_rectools_calc_intersection_metrics() -> None:
    """TestCalcIntersectionMetrics.test_single_ref_reco: Intersection(k=2, ref_k=1) is 0.75."""
    reco = {"query": [1, 1, 2], "item": [3, 2, 1], "rank": [1, 2, 1]}
    ref = {"query": [1, 1, 2], "item": [3, 5, 1], "rank": [1, 2, 1]}
    metric = prm.intersection(2, ref_k=1, reference=pl.DataFrame(ref, schema=SCHEMA))
    assert str(metric) == "intersection(ref_k=1)@2"
    assert prm.evaluate(pl.DataFrame(reco, schema=SCHEMA), [metric], preset="rectools").item() == 0.75
    assert str(prm.parse("Intersection(ref_k=1)@2")) == "intersection(ref_k=1)@2"  # RecTools' spelling


def test_the_reference_is_required_and_checked() -> None:
    with pytest.raises(InvalidParameterError, match="a reference run"):
        prm.intersection(2)
    with pytest.raises(InvalidParameterError, match="ref_k"):
        prm.intersection(2, ref_k=1.5, reference=pl.DataFrame(REF, schema=SCHEMA))
    twice = pl.DataFrame({"query": [1, 1], "item": [1, 1], "rank": [1, 2]}, schema=SCHEMA)
    with pytest.raises(InvalidDataError, match="more than once"):
        prm.evaluate(pl.DataFrame(RECO, schema=SCHEMA), [prm.intersection(2, reference=twice)])


def test_a_scored_reference_and_string_ids() -> None:
    """A score column ranks the reference (higher first, ties by the higher item id)."""
    run = pl.DataFrame({"query": ["q", "q", "q"], "item": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    ref = pl.DataFrame({"query": ["q", "q", "q"], "item": ["c", "b", "x"], "score": [0.5, 0.5, 0.1]})
    out = prm.evaluate(run, [prm.intersection(2, ref_k=1, reference=ref), prm.intersection(3, reference=ref)])
    assert out.row(0) == (0.0, pytest.approx(2 / 3))  # top 1 of the reference: c (c > b among ties)


# --- RecTools' algorithm (module docstring) on generated data -------------------------------------


def _rectools(reco: Reco, ref: Reco, k: int, ref_k: int) -> dict[int, float]:
    out: dict[int, float] = {}
    for user, ranks in reco.items():
        top = [item for item, r in ranks.items() if r <= k]
        if top:
            shared = [item for item in top if ref.get(user, {}).get(item, ref_k + 1) <= ref_k]
            out[user] = len(shared) / len(top)
    return out


def _lists(draw: st.DrawFn, users: int) -> Reco:
    out: Reco = {}
    for user in range(users):
        items = draw(st.lists(st.integers(0, 9), unique=True, max_size=7))
        ranks = draw(st.lists(st.integers(1, 9), min_size=len(items), max_size=len(items)))  # ties too
        if items:
            out[user] = dict(zip(items, ranks, strict=True))
    return out


def _table(reco: Reco) -> pl.DataFrame:
    rows = [(u, i, r) for u, items in reco.items() for i, r in items.items()]
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")


@settings(max_examples=60, deadline=None)
@given(data=st.data(), k=st.integers(1, 6), ref_k=st.integers(0, 6))
def test_rectools_algorithm_on_generated_data(data: st.DataObject, k: int, ref_k: int) -> None:
    users = data.draw(st.integers(1, 6))
    reco, ref = (
        data.draw(st.composite(lambda d: _lists(d, users))()),
        data.draw(st.composite(lambda d: _lists(d, users))()),
    )
    if not reco or not ref:
        return
    want = _rectools(reco, ref, k, ref_k or k)
    metric = prm.intersection(k, ref_k=ref_k, reference=_table(ref))
    out = prm.evaluate(_table(reco), [metric], per_query=True, preset="rectools")
    got = {q: v for q, v in out.iter_rows() if v is not None}
    assert got == pytest.approx(want, abs=1e-12)
