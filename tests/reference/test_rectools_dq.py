"""sufficient_reco and sufficient_reco_deep against RecTools' SufficientReco (deep False and True).

RecTools does not install beside this project's pins, so its algorithm is transcribed here from its
source (RecTools main, commit 41a5a63), ``rectools/metrics/dq.py`` 129-137
(``SufficientReco.calc_per_user``): per user of the recommendations, the rows of rank <= k (the
rank read as given: gaps leave positions empty, tied ranks count each row), ``n >= k`` as 0/1, or
with ``deep=True`` ``min(n / k, 1)``; a user with nothing within k scores 0.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

SCHEMA = {"query": pl.Int64, "item": pl.Int64, "rank": pl.Int64}


def _per_user(reco: pl.DataFrame, names: list[str]) -> pl.DataFrame:
    return prm.evaluate(reco, names, per_query=True, preset="rectools").sort("query")


def test_rectools_cases() -> None:
    """tests/metrics/test_dq.py (RecTools, commit 41a5a63), TestSufficientReco: k = 2."""
    reco = pl.DataFrame(
        {"query": [1, 1, 1, 2, 2, 3, 4], "item": [1, 2, 3, 1, 2, 1, 1], "rank": [1, 2, 3, 1, 1, 3, 2]},
        schema=SCHEMA,
    )
    got = _per_user(reco, ["SufficientReco@2", "sufficient_reco_deep@2"])
    assert got["query"].to_list() == [1, 2, 3, 4]
    assert got["SufficientReco@2"].to_list() == [1.0, 1.0, 0.0, 0.0]  # test_calc_default
    assert got["sufficient_reco_deep@2"].to_list() == [1.0, 1.0, 0.0, 0.5]  # test_calc_deep
    mean = prm.evaluate(reco, ["sufficient_reco_deep@2"], preset="rectools").item()
    assert mean == pytest.approx(2.5 / 4)


def test_rectools_docstring_example() -> None:
    """dq.py's docstring: k=1 [1, 1, 1], k=4 [0, 0, 1], k=4 deep [0.5, 0.75, 1]."""
    reco = pl.DataFrame(
        {"query": [1, 1, 2, 2, 2, 3, 3, 3, 3, 3], "item": [1, 2, 1, 2, 3, 1, 2, 3, 4, 5],
         "rank": [1, 2, 1, 2, 3, 1, 2, 3, 4, 5]},
        schema=SCHEMA,
    )  # fmt: skip
    got = _per_user(reco, ["sufficient_reco@1", "sufficient_reco@4", "sufficient_reco_deep@4"])
    assert got.drop("query").rows() == [(1.0, 0.0, 0.5), (1.0, 0.0, 0.75), (1.0, 1.0, 1.0)]


@settings(max_examples=60, deadline=None)
@given(
    lists=st.dictionaries(
        st.integers(0, 6),
        st.dictionaries(st.integers(0, 9), st.integers(1, 8), min_size=1, max_size=7),
        min_size=1,
    ),
    k=st.integers(1, 6),
)
def test_rectools_algorithm_on_generated_data(lists: dict[int, dict[int, int]], k: int) -> None:
    """Tied and gapped given ranks, read as RecTools reads them."""
    rows = [(u, i, r) for u, items in lists.items() for i, r in items.items()]
    reco = pl.DataFrame(rows, schema=SCHEMA, orient="row")
    got = _per_user(reco, [f"sufficient_reco@{k}", f"sufficient_reco_deep@{k}"])
    n = {u: sum(r <= k for r in items.values()) for u, items in lists.items()}
    assert got["query"].to_list() == sorted(lists)
    assert got[f"sufficient_reco@{k}"].to_list() == [float(n[u] >= k) for u in sorted(lists)]
    assert got[f"sufficient_reco_deep@{k}"].to_list() == pytest.approx(
        [min(n[u] / k, 1.0) for u in sorted(lists)]
    )
