"""debias_qrels against RecTools' debias_interactions: its test case and its algorithm on generated judgments.

RecTools does not install beside this project's pins, so ``debias_interactions`` is transcribed here
with pandas from its source (RecTools main, commit 41a5a63, ``rectools/metrics/debias.py`` 103-132):
each item's distinct users, pandas' quartiles of those counts, the border
``int(q3 + iqr_coef * (q3 - q1))``, and for every item above it ``sample(frac=1).head(border)``.
Its random draw (numpy's, from ``random_state``) is not reproduced: what must agree is every row of the
items at or below the border, and for each item above it the number kept, all from its own rows.
"""

from __future__ import annotations

import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm
from polars_rankmetrics.exceptions import ColumnNotFoundError, InvalidParameterError

Pairs = list[tuple[int, int]]


def _rectools(pairs: Pairs, iqr_coef: float) -> tuple[int, pd.DataFrame]:
    """The border and RecTools' result (its random draw with random_state=32)."""
    interactions = pd.DataFrame(pairs, columns=["user_id", "item_id"])
    popularity = interactions.groupby("item_id", sort=False)["user_id"].nunique()
    quantiles = popularity.quantile(q=[0.25, 0.75])
    q1, q3 = quantiles.loc[0.25], quantiles.loc[0.75]
    border = int(q3 + iqr_coef * (q3 - q1))
    outside = popularity[popularity > border].index
    mask = interactions["item_id"].isin(outside)
    sampled = interactions[mask].sample(frac=1.0, random_state=32).groupby("item_id").head(border)
    return border, pd.concat([interactions[~mask], sampled], ignore_index=True)


def _check(pairs: Pairs, iqr_coef: float, seed: int = 0) -> pl.DataFrame:
    qrels = pl.DataFrame(pairs, schema=["query", "item"], orient="row").with_columns(relevance=1)
    got = prm.debias_qrels(qrels, iqr_coef=iqr_coef, seed=seed)
    border, want = _rectools(pairs, iqr_coef)
    kept = {(int(u), int(i)) for u, i in want.itertuples(index=False)}
    rows = set(got.select("query", "item").iter_rows())
    assert rows <= set(pairs)
    counts = want.groupby("item_id").size().to_dict()
    assert dict(got.group_by("item").len().iter_rows()) == counts
    popularity = pd.Series([i for _, i in pairs]).value_counts()
    small = {p for p in pairs if popularity[p[1]] <= border}
    assert {p for p in rows if p in small} == small == {p for p in kept if p in small}
    return got


def test_rectools_case() -> None:
    """tests/metrics/test_debias.py, test_debias_interactions: item 1's 8 users down to 5."""
    users = [1, 1, 2, 3, 3, 3, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8]
    items = [1, 2, 1, 1, 2, 3, 4, 5, 6, 1, 1, 2, 3, 1, 1, 1]
    got = _check(list(zip(users, items, strict=True)), 1.5)
    assert got.filter(pl.col("item") == 1).height == 5  # RecTools keeps users 1, 2, 3, 5, 7 (its draw)
    assert got.filter(pl.col("item") != 1).height == 8


def test_no_judgments_and_other_rows() -> None:
    """test_debias_interactions_when_no_interactions; judged non-relevant rows stay."""
    empty = pl.DataFrame(schema={"query": pl.Int64, "item": pl.Int64, "relevance": pl.Int64})
    assert prm.debias_qrels(empty).height == 0
    lazy = pl.LazyFrame({"query": [1, 2, 3, 4, 5], "item": [1, 1, 1, 1, 2], "relevance": [1, 1, 1, 0, 1]})
    out = prm.debias_qrels(lazy, iqr_coef=0.0)  # popularity 3 and 1: Q1 1.5, Q3 2.5, border 2
    assert isinstance(out, pl.LazyFrame)
    frame = out.collect()
    assert frame.filter(pl.col("relevance") == 1, pl.col("item") == 1).height == 2
    assert frame.filter(pl.col("relevance") == 0).height == 1
    with pytest.raises(ColumnNotFoundError):
        prm.debias_qrels(pl.DataFrame({"query": [1], "item": [1]}))
    with pytest.raises(InvalidParameterError, match="seed"):
        prm.debias_qrels(empty, seed=-1)


def test_the_draw_does_not_depend_on_row_order() -> None:
    pairs = [(u, 1) for u in range(20)] + [(u, 2) for u in range(3)] + [(0, 3), (1, 4)]
    qrels = pl.DataFrame(pairs, schema=["query", "item"], orient="row").with_columns(relevance=1)
    one = prm.debias_qrels(qrels, seed=7).sort("query", "item")
    other = prm.debias_qrels(qrels.reverse(), seed=7).sort("query", "item")
    assert one.equals(other)
    assert not one.equals(prm.debias_qrels(qrels, seed=8).sort("query", "item"))


@settings(max_examples=60, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.integers(0, 15), st.integers(0, 8)), min_size=1, max_size=60, unique=True),
    iqr_coef=st.sampled_from([0.0, 0.5, 1.0, 1.5, 3.0]),
    seed=st.integers(0, 5),
)
def test_rectools_algorithm_on_generated_judgments(pairs: Pairs, iqr_coef: float, seed: int) -> None:
    _check(pairs, iqr_coef, seed)
