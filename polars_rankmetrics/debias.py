"""RecTools' debiased evaluation: the relevant judgments of popular items down-sampled before evaluating."""

from __future__ import annotations

import math
from typing import TypeVar

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns, ColumnsLike
from polars_rankmetrics.exceptions import ColumnNotFoundError, InvalidParameterError

__all__ = ["debias_qrels"]

Frame = TypeVar("Frame", pl.DataFrame, pl.LazyFrame)

_POPULARITY = "__prm_popularity"
_BORDER = "__prm_border"
_DRAW = "__prm_draw"


def _check(iqr_coef: object, seed: object, relevance_level: object) -> None:
    if isinstance(iqr_coef, bool) or not isinstance(iqr_coef, (int, float)) or not math.isfinite(iqr_coef):
        raise InvalidParameterError.out_of_domain("iqr_coef", "a finite number", iqr_coef)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidParameterError.out_of_domain("seed", "an integer from 0", seed)
    if isinstance(relevance_level, bool) or not isinstance(relevance_level, (int, float)):
        raise InvalidParameterError.out_of_domain("relevance_level", "a number", relevance_level)


def debias_qrels(
    qrels: Frame,
    *,
    iqr_coef: float = 1.5,
    seed: int = 0,
    relevance_level: float = 1.0,
    columns: ColumnsLike = None,
) -> Frame:
    """Down-sample the relevant judgments of popular items, as RecTools' ``DebiasConfig`` does.

    RecTools' debiased metrics (``debias_interactions``) evaluate against a
    test set in which no item is relevant for more users than
    ``B = int(Q3 + iqr_coef * (Q3 - Q1))``, with Q1 and Q3 the quartiles
    (linear interpolation, as pandas' ``quantile``) of the items'
    popularity, each item's number of distinct queries (users) judging it
    relevant. An item above ``B`` keeps ``B`` of its relevant judgments,
    drawn at random; its others are removed, so a list that ranks one of
    them ranks an unjudged item. Other rows (every judgment of the other
    items, and the non-relevant ones) are kept. Evaluate the result as
    usual: ``prm.evaluate(prm.join_run_qrels(run, debias_qrels(qrels)),
    ["ndcg@10", "partial_auc@10"], preset="rectools")``.

    Parameters
    ----------
    qrels
        The judgments: query, item and relevance columns (a DataFrame or a
        LazyFrame; the result is the same kind).
    iqr_coef
        The interquartile range's coefficient (RecTools' ``iqr_coef``).
    seed
        Which judgments of an item above the border are kept: those of the
        ``B`` smallest hashes of (seed, query), a draw that does not depend
        on the rows' order (RecTools' ``random_state`` draws with numpy:
        the border and the number kept per item are the same, the users
        kept are not).
    relevance_level
        The smallest relevant grade (the conventions' ``relevance_level``).
    columns
        Column names; defaults to ``Columns()``.

    Returns
    -------
    pl.DataFrame or pl.LazyFrame
        The judgments without the removed rows, in the input's columns.

    Raises
    ------
    ColumnNotFoundError
        A query, item or relevance column is missing.
    InvalidParameterError
        `iqr_coef` not a finite number, `seed` not an integer from 0.

    References
    ----------
    RecTools, ``rectools/metrics/debias.py`` (``DebiasConfig``,
    ``debias_interactions``).

    Examples
    --------
    Item a is relevant for 8 users, b for 3, c for 2, three items for one:
    Q1 = 1, Q3 = 2.75 and the border is ``int(2.75 + 1.5 * 1.75) = 5``.

    >>> qrels = pl.DataFrame({"query": [1, 1, 2, 3, 3, 3, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8],
    ...     "item": list("abaabcdefaabcaaa"), "relevance": 1})
    >>> debiased = prm.debias_qrels(qrels)
    >>> debiased.group_by("item").len().sort("item")
    shape: (6, 2)
    ┌──────┬─────┐
    │ item ┆ len │
    │ ---  ┆ --- │
    │ str  ┆ u32 │
    ╞══════╪═════╡
    │ a    ┆ 5   │
    │ b    ┆ 3   │
    │ c    ┆ 2   │
    │ d    ┆ 1   │
    │ e    ┆ 1   │
    │ f    ┆ 1   │
    └──────┴─────┘
    """
    _check(iqr_coef, seed, relevance_level)
    frame = as_polars(qrels, "qrels")
    cols = Columns.of(columns)
    names = frame.collect_schema().names()
    for name, role in ((cols.query, "query"), (cols.item, "item"), (cols.relevance, "relevance")):
        if name not in names:
            raise ColumnNotFoundError.from_missing_and_available(name, role, names)
    query, item = pl.col(cols.query), pl.col(cols.item)
    relevant = (pl.col(cols.relevance) >= relevance_level) & (pl.col(cols.relevance) >= 0)
    lazy = frame.lazy()
    # debias.py 108-115: each item's distinct users, their quartiles, the border.
    popularity = lazy.filter(relevant).group_by(item).agg(query.n_unique().alias(_POPULARITY))
    pop = pl.col(_POPULARITY).cast(pl.Float64)
    q1, q3 = pop.quantile(0.25, interpolation="linear"), pop.quantile(0.75, interpolation="linear")
    border = popularity.select((q3 + iqr_coef * (q3 - q1)).floor().alias(_BORDER))
    # debias.py 117-127: an item above the border keeps that many of its relevant rows.
    draw = pl.struct(query.hash(seed).alias("h"), query.cast(pl.String).alias("q")).rank("ordinal")
    marked = (
        lazy.join(popularity, on=cols.item, how="left")
        .join(border, how="cross")
        .with_columns(pl.when(relevant).then(draw.over(cols.item, relevant)).alias(_DRAW))
    )
    above = pl.col(_POPULARITY).cast(pl.Float64) > pl.col(_BORDER)
    keep = (
        ~relevant.fill_null(value=False) | ~above.fill_null(value=False) | (pl.col(_DRAW) <= pl.col(_BORDER))
    )
    out = marked.filter(keep).select(names)
    return out.collect() if isinstance(frame, pl.DataFrame) else out
