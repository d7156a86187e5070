"""User-model metrics: rank-biased precision (Moffat and Zobel 2008) and ERR (Chapelle et al. 2009)."""

from __future__ import annotations

from typing import Annotated

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows, fixed_point_sum, from_fixed_point, power
from polars_rankmetrics._spec import (
    OPEN_UNIT,
    POSITIVE,
    Metric,
    QuerySpec,
    Spellings,
    TieSupport,
    TrecMeasure,
)
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.metrics._core import keep_none, num_relevant, num_retrieved, within
from polars_rankmetrics.metrics.graded import keep_gain

__all__ = ["err", "rbp", "rbp_resid"]


def _discount(rows: Rows, p: float) -> pl.Expr:
    """P ** (rank - 1): the chance the user reaches the rank."""
    return power(p, rows.rank - 1)


def _rbp(m: Metric, rows: Rows) -> pl.Expr:
    # trec_eval's rbp: the gain (the grade under the default "linear" convention), scaled into
    # [0, 1] by the query's top gain when above 1; gain="binary" gives LensKit's RBP.
    p = m.number("p")
    gain = rows.gain
    top = gain.max().cast(pl.Float64)
    # A per-query scale keeps tiny terms (p=0.01 at rank 15: 9.9e-29), see Rows.scaled_sum.
    total = rows.scaled_sum(pl.when(within(rows, None) & (gain != 0)).then(gain * _discount(rows, p)))
    scaled = pl.when(top > 1).then(total / top).otherwise(total).fill_null(0.0)
    if rows.conventions.rbp_normalization == "achievable":
        # LensKit's RBP(normalize=True): over the first min(R, n) discounts, (1 - p**m) / (1 - p).
        m_ = pl.min_horizontal(num_relevant(rows), num_retrieved(rows)).cast(pl.Int64)
        best = 1.0 - power(p, m_)
        return pl.when(m_ > 0).then((1.0 - p) * scaled / best).otherwise(0.0)
    return (1.0 - p) * scaled


RBP = QuerySpec(
    name="rbp",
    measures=(TrecMeasure("rbp", 35, "pairs"),),
    spellings=Spellings(ir_measures=("RBP",)),
    needs=frozenset({"gain", "num_rel"}),
    trec=("rbp",),
    keep=keep_gain,
    value=_rbp,
    ties=TieSupport(extremal=True),
)


def _unjudged(rows: Rows) -> pl.Expr:
    grade = rows.grade
    return within(rows, None) & (grade.is_null() | (grade < 0))


def _unjudged_columns(p: float) -> tuple[str, str, str]:
    """Names of rbp_resid's per-query columns: the first unjudged rank, any unjudged item, the sum from it."""
    return f"__prm_rbp_unjudged_first_{p!r}", f"__prm_rbp_unjudged_{p!r}", f"__prm_rbp_unjudged_sum_{p!r}"


def _unjudged_aggregations(p: float, rows: Rows) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    # The discounts p ** (r - 1) of the unjudged ranks r are summed as p ** (r - first), first the
    # query's first unjudged rank: the largest term is 1, so the exact sum's 2**-64 grid holds every
    # term to 2**-64 of the sum, however deep the ranks (p=0.01 at rank 15 is 1e-28 of rank 1), and
    # the value multiplies p ** (first - 1) back. In the engine `first` is a column of its own,
    # added before the sum's window reads it; a group view takes the minimum in place.
    unjudged = _unjudged(rows)
    first = pl.when(unjudged).then(rows.rank).min()
    rank = rows.rank.cast(pl.Int64)
    from_first = pl.when(unjudged).then(power(p, rank - rows.column(_unjudged_columns(p)[0], first)))
    return first, unjudged.any(), fixed_point_sum(from_first)


def _rbp_resid_whole(m: Metric, rows: Rows) -> list[pl.Expr]:
    # Unjudged items are most of a run: summed over the whole query before the engine drops
    # them, so rbp_resid keeps only the judged rows (its value reads just the per-query counts).
    p = m.number("p")
    names, aggregations = _unjudged_columns(p), _unjudged_aggregations(p, rows)
    return [rows.window(name, agg) for name, agg in zip(names, aggregations, strict=True)]


def _rbp_resid(m: Metric, rows: Rows) -> pl.Expr:
    # The rbp mass the judgments cannot settle: unjudged ranks plus everything past the list.
    p = m.number("p")
    names, aggregations = _unjudged_columns(p), _unjudged_aggregations(p, rows)
    first, found, total = (rows.whole_query(n, a) for n, a in zip(names, aggregations, strict=True))
    beyond = power(p, num_retrieved(rows))
    unjudged = from_fixed_point(total) * power(p, first.cast(pl.Int64) - 1)
    return pl.when(found).then(beyond + (1.0 - p) * unjudged).otherwise(0.0)


RBP_RESID = QuerySpec(
    name="rbp_resid",
    measures=(TrecMeasure("rbp_resid", 36, "pairs"),),
    needs=frozenset({"grade"}),
    trec=("rbp_resid",),
    keep=keep_none,
    whole=_rbp_resid_whole,
    value=_rbp_resid,
    ties=TieSupport(why="a residual (the weight of unjudged items), not a score"),
)


def _err_rows(m: Metric, rows: Rows) -> list[pl.Expr]:
    # The prepared view computes the survival product as a column of its own (an ordered window).
    max_grade = m.number("max_grade")
    return [err_survival(rows, max_grade).alias(err_survival_column(max_grade))]


def _err(m: Metric, rows: Rows) -> pl.Expr:
    max_grade = m.number("max_grade")
    stop = stop_probability(rows, max_grade)
    survival = rows.column(err_survival_column(max_grade), err_survival(rows, max_grade))
    return rows.scaled_sum(stop * survival / rows.rank.cast(pl.Float64), within(rows, m.k))


def _err_refuse(m: Metric, conventions: Conventions) -> str | None:
    # ERR reads the gain as its grade g: "linear" is the grade, "binary" 1 for a relevant item,
    # a {grade: gain} mapping the grade each grade counts as.
    gain = m.gain() or conventions.gain
    if gain not in ("exponential", "thresholded_exponential"):
        return None
    return (
        f"does not take gain={gain!r}: its stopping probability (2**g - 1) / 2**max_grade is "
        "already exponential in the grade g; use gain='linear' (the grade), 'binary' or a mapping"
    )


ERR = QuerySpec(
    name="err",
    spellings=Spellings(ir_measures=("ERR",)),
    needs=frozenset({"gain"}),
    rows=_err_rows,
    keep=keep_gain,
    value=_err,
    ties=TieSupport(extremal=True),
    refuse=_err_refuse,
)


def stop_probability(rows: Rows, max_grade: float) -> pl.Expr:
    """ERR's R_i = (2**g - 1) / 2**max_grade; 0 for unjudged or negative grades.

    g is the gain: the grade under ``gain="linear"``, 1 for a relevant item under ``"binary"``,
    the mapped value under a ``{grade: gain}`` mapping.
    """
    grade = rows.gain.fill_null(0.0).clip(0.0, max_grade)
    return (pl.lit(2.0).pow(grade) - 1.0) / pl.lit(2.0**max_grade)


def err_survival_column(max_grade: float) -> str:
    """Name of the column holding prod_{i < rank} (1 - R_i) for ERR."""
    return f"__prm_err_survival_{max_grade!r}"


def err_survival(rows: Rows, max_grade: float) -> pl.Expr:
    """Prod over the items ranked above of (1 - R_i): the chance the user reaches the item."""
    keep = 1.0 - pl.when(rows.rank.is_not_null()).then(stop_probability(rows, max_grade)).otherwise(0.0)
    return rows.in_rank_order(keep.cum_prod()) / keep


@constructor(RBP)
def rbp(p: Annotated[float, OPEN_UNIT] = 0.9) -> Metric:
    """Rank-biased precision: ``(1 - p) * sum gain_i * p**(i - 1)`` (Moffat and Zobel, 2008).

    As trec_eval's ``rbp``: gains follow the ``gain`` convention of
    :func:`evaluate` (the grade by default), scaled into [0, 1] by the
    query's highest gain when it exceeds 1; ``gain="binary"`` gives each
    relevant item gain 1 (LensKit's ``RBP``). Under
    ``rbp_normalization="achievable"`` the sum is divided by the first
    min(R, n) discounts instead of ``1 / (1 - p)`` (LensKit's
    ``RBP(normalize=True)``; n the list's length). Its residual, the mass left to
    unjudged items and the unseen tail, is :func:`rbp_resid`.

    Parameters
    ----------
    p
        Persistence: the chance the user moves on to the next item.

    Returns
    -------
    Metric
        ``rbp`` (``rbp(p)`` when p is not 0.9), averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["a", "b"],
    ...     "score": [2.0, 1.0], "relevance": [1, 1]})
    >>> prm.evaluate(df, [prm.rbp(0.5)])
    shape: (1, 1)
    ┌────────────┐
    │ rbp(p=0.5) │
    │ ---        │
    │ f64        │
    ╞════════════╡
    │ 0.75       │
    └────────────┘
    """


@constructor(RBP_RESID)
def rbp_resid(p: Annotated[float, OPEN_UNIT] = 0.9) -> Metric:
    """The residual of rank-biased precision: how much rbp could still grow.

    ``p**n + (1 - p) * sum over unjudged ranks i of p**(i - 1)`` for a list of
    n items; 0 when every retrieved item is judged (trec_eval ``rbp_resid``).

    Parameters
    ----------
    p
        Persistence.

    Returns
    -------
    Metric
        ``rbp_resid``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["a", "b"],
    ...     "score": [2.0, 1.0], "relevance": [1, None]})
    >>> prm.evaluate(df, [prm.rbp_resid(0.5)])
    shape: (1, 1)
    ┌──────────────────┐
    │ rbp_resid(p=0.5) │
    │ ---              │
    │ f64              │
    ╞══════════════════╡
    │ 0.5              │
    └──────────────────┘
    """


@constructor(ERR)
def err(k: int | None = None, *, max_grade: Annotated[float, POSITIVE] = 4.0) -> Metric:
    """Expected reciprocal rank (Chapelle, Metzler, Zhang and Grinspan, 2009).

    ``sum_r (1/r) R_r prod_{i<r} (1 - R_i)`` with ``R = (2**g - 1) / 2**max_grade``:
    the expected reciprocal of the rank where a cascading user stops.
    Unjudged items and negative grades stop no one; grades above
    `max_grade` count as `max_grade`. g is the gain read as a grade: the
    grade under ``gain="linear"``, 1 for a relevant item and 0 otherwise
    under ``"binary"``, the mapped value under a ``{grade: gain}`` mapping;
    ``"exponential"`` is refused (R is already exponential in the grade).

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.
    max_grade
        The top of the grade scale (4, as in the TREC Web track's gdeval).

    Returns
    -------
    Metric
        ``err@k``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["a", "b"],
    ...     "score": [2.0, 1.0], "relevance": [1, 4]})
    >>> # R = 1/16 at rank 1, 15/16 at rank 2: 1/16 + (1/2)(15/16)(15/16) = 0.50195...
    >>> prm.evaluate(df, [prm.err(2)]).with_columns(pl.col("err@2").round(4))
    shape: (1, 1)
    ┌───────┐
    │ err@2 │
    │ ---   │
    │ f64   │
    ╞═══════╡
    │ 0.502 │
    └───────┘
    """


SPECS = (spec_of(rbp), spec_of(rbp_resid), spec_of(err))
