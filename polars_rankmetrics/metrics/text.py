"""Text measures: trec_eval's relstring, the grades of the top items as one string."""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._kernel import Rows
from polars_rankmetrics._spec import Metric, QuerySpec, TrecMeasure
from polars_rankmetrics.exceptions import UnknownMetricError
from polars_rankmetrics.metrics._core import keep_within, num_retrieved

__all__ = ["relstring"]


def _grade_char(grade: pl.Expr) -> pl.Expr:
    digit = grade.cast(pl.Int64).cast(pl.String)
    return (
        pl.when(grade.is_null()).then(pl.lit("-"))  # outside the pool
        .when(grade < 0).then(pl.lit("."))  # pooled, not judged
        .when(grade > 9).then(pl.lit(">"))
        .otherwise(digit)
    )  # fmt: skip


def _keep_shown(m: Metric, rows: Rows) -> pl.Expr:
    # The pooled rows shown: a rank within k without one holds an item outside the pool ("-").
    return keep_within(rows, 10 if m.k is None else m.k) & rows.grade.is_not_null()


def _relstring(m: Metric, rows: Rows) -> pl.Expr:
    # One character per rank: a fixed set of per-position picks keeps the plan a plain aggregation;
    # a rank up to the list's length with no pooled row holds an unpooled item.
    k = 10 if m.k is None else m.k
    char = _grade_char(rows.grade)
    shown = num_retrieved(rows, k)
    chars = [
        pl.when(position <= shown).then(char.filter(rows.rank == position).first().fill_null("-"))
        for position in range(1, k + 1)
    ]
    return pl.concat_str(chars, ignore_nulls=True)


def _relstring_measure(numbers: tuple[float, ...]) -> Metric:
    """trec_eval's ``relstring.n``: the length truncated to an integer, at least 1."""
    length = int(numbers[0])  # trec_eval truncates the length to an integer
    if length < 1:
        raise UnknownMetricError.bad_measure(None, f"the length must be at least 1, got {numbers[0]:g}")
    return relstring(length)


RELSTRING = QuerySpec(
    name="relstring",
    measures=(
        TrecMeasure(
            "relstring", 12, "numbers", (10,), summary=False, average="none", build=_relstring_measure
        ),
    ),
    k="optional",
    aggregate="none",
    kind="str",
    needs=frozenset({"grade"}),
    trec=("relstring_{k}", "relstring"),
    keep=_keep_shown,
    value=_relstring,
)


def relstring(k: int = 10) -> Metric:
    """The grades of the top `k` items as a string, as trec_eval's ``relstring``.

    One character per rank: the grade's digit, ``>`` above 9, ``-`` for an
    item outside the judgment pool (null grade), ``.`` for a pooled but
    unjudged one (negative grade). Per query only: the aggregate is null.
    It shows the judgments, not gains: the ``gain`` convention leaves it as is.

    Parameters
    ----------
    k
        How many ranks to show (trec_eval's default 10).

    Returns
    -------
    Metric
        ``relstring@k``, a String per query.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [3.0, 2.0, 1.0], "relevance": [2, None, -1]})
    >>> prm.evaluate(df, [prm.relstring(5)], per_query=True)
    shape: (1, 2)
    ┌───────┬─────────────┐
    │ query ┆ relstring@5 │
    │ ---   ┆ ---         │
    │ i64   ┆ str         │
    ╞═══════╪═════════════╡
    │ 1     ┆ 2-.         │
    └───────┴─────────────┘
    """
    return Metric(RELSTRING, k)


SPECS = (RELSTRING,)
