"""Rank-biased overlap: a ranking against a reference run (RBO_ext) or the judgments' ideal ranking (Compat).

Both count, at every depth ``d``, the overlap ``X_d`` of the two rankings'
top-``d`` prefixes. An item in both rankings, at ranks ``r`` and ``t``,
adds 1 to ``X_d`` for every ``d >= max(r, t)``: the per-depth sums are one
cumulative count over events (an item's ``max(r, t)``, then each depth),
ordered by depth within the query, and every sum over depths is exact.
RBO's tie-aware form counts the same way with ``r`` and ``t`` the first
positions of the items' tie groups, and counts the items seen by each depth
(an item at its group's first position) alike.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Literal

import polars as pl

from polars_rankmetrics._declare import SIDE, constructor, spec_of
from polars_rankmetrics._kernel import ITEM, NUM_RET, RANK, REL, VALUE, GainColumns, exact_sum, power, ratio
from polars_rankmetrics._spec import OPEN_UNIT, Interval, Metric, Param, Spellings, TableSpec
from polars_rankmetrics.exceptions import ColumnNotFoundError, ColumnTypeError, InvalidParameterError
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.metrics._core import keep_top
from polars_rankmetrics.metrics._side import (
    SideColumns,
    as_lazy,
    by_role,
    columns_of,
    item_text,
    same_dtype,
)
from polars_rankmetrics.metrics._ties import TIE_START

__all__ = ["compat", "intersection", "least_item_promoted", "rbo", "rbo_normalized"]


POS = "__prm_overlap_pos"  # a depth (a rank in the longer ranking) or an event's depth
X = "__prm_overlap"  # X_d: items in both top-d prefixes
SEEN = "__prm_overlap_seen"  # items of the two rankings seen by depth d (tie-aware: whole tie groups)
N = "__prm_overlap_n"  # the run's length
M = "__prm_overlap_m"  # the other ranking's length
OTHER = "__prm_overlap_t"  # the rank in the other ranking
TOP = "__prm_overlap_top"  # the first position of the item's tie group in the run
TOP_OTHER = "__prm_overlap_top_t"  # the same in the reference
BAD = "__prm_overlap_bad"
TieHandling = Literal["break", "aware"]
TIE_HANDLING: tuple[TieHandling, ...] = ("break", "aware")


def _counted(depths: pl.LazyFrame, events: Mapping[str, pl.LazyFrame], keys: tuple[str, ...]) -> pl.LazyFrame:
    """Each depth row (keys, POS, N, M) with, per name of `events`, its events (keys, POS) at or above it."""
    names, none = list(events), pl.lit(None, pl.UInt32)
    rows = [
        frame.select(*keys, POS, *(pl.lit(int(c == name), pl.UInt32).alias(c) for c in names),
                     none.alias(N), none.alias(M))
        for name, frame in events.items()
    ]  # fmt: skip
    rows.append(depths.select(*keys, POS, *(pl.lit(0, pl.UInt32).alias(c) for c in names), N, M))
    is_depth = pl.col(N).is_not_null()
    order = pl.col(POS).cast(pl.UInt64) * 2 + is_depth.cast(pl.UInt64)  # events before depths
    counted = pl.concat(rows, how="vertical_relaxed").with_columns(
        pl.col(names).cum_sum().over(list(keys), order_by=order)
    )
    return counted.filter(is_depth)


# --- rbo: against a reference run ---------------------------------------------------------------------


def _reference(  # noqa: PLR0913  (the frame's id types, and how to read the reference)
    metric: Metric,
    query: str,
    query_dtype: pl.DataType,
    item_dtype: pl.DataType,
    *,
    aware: bool,
    given: bool = False,
) -> pl.LazyFrame:
    """The reference run as (query, ITEM, OTHER): its items ranked by score (or rank), ties by item id.

    `aware` adds TOP_OTHER, each item's first position in its tie group (1 + the items above it).
    `given`: a rank column's values are OTHER themselves, gaps and ties kept (RecTools' reading).
    """
    value = metric.side("reference")
    if value is None:
        example = "p=0.9, " if metric.name == "rbo" else "5, "
        remedy = f"prm.{metric.name}({example}reference=frame_of_query_item_and_score)"
        raise InvalidParameterError.needs(metric.name, "a reference run", remedy)
    frame = as_lazy(value, "reference")
    schema = frame.collect_schema()
    names, columns = schema.names(), columns_of(metric)
    q, item = by_role(names, "reference", ("user", "item"), columns)
    # The order: the score, else the rank (lower first), as the frame's own; `columns=` names either.
    ranked_by = "rank" if "rank" in columns or ("score" not in columns and "score" not in names) else "score"
    if ranked_by == "rank" and "rank" not in columns and "rank" not in names:
        fix = "columns={'score': ...} (or {'rank': ...} for a rank, lower first)"
        raise ColumnNotFoundError.side_role("reference", "score", ("score", "rank"), names, fix)
    order = by_role(names, "reference", (ranked_by,), columns)[0]
    if not schema[order].is_numeric():
        raise ColumnTypeError.from_dtype(order, "reference score (or rank)", "numeric", schema[order])
    key = -pl.col(order).cast(pl.Float64) if ranked_by == "rank" else pl.col(order).cast(pl.Float64)
    text = pl.col(item).cast(pl.String)
    ranked = pl.struct(key.alias("k"), text.alias("i")).rank("ordinal", descending=True).over(q)
    if given and ranked_by == "rank":
        ranked = pl.col(order).cast(pl.Float64).clip(upper_bound=2.0**31).cast(pl.UInt32, strict=False)
    tops = [key.rank("min", descending=True).over(q).cast(pl.UInt32).alias(TOP_OTHER)] if aware else []
    bad = (
        pl.when(pl.col(q).is_null() | pl.col(item).is_null())
        .then(pl.lit("`reference` holds a null query or item id"))
        .when(pl.col(order).is_null() | ~pl.col(order).cast(pl.Float64).is_finite())
        .then(pl.format("`reference` has no finite {} for item {}", pl.lit(order), item_text(pl.col(item))))
        .when(pl.len().over(q, item) > 1)
        .then(pl.format("`reference` holds item {} more than once for one query", item_text(pl.col(item))))
    )
    if ranked_by == "rank":  # as the main frame's ranks: whole numbers from 1
        rank = pl.col(order).cast(pl.Float64)
        bad = bad.when((rank < 1) | (rank != rank.floor())).then(
            pl.format(
                "`reference` ranks item {} at {}: ranks are whole numbers from 1",
                item_text(pl.col(item)),
                pl.col(order),
            )
        )
    return frame.select(
        same_dtype(pl.col(q), schema[q], query_dtype, "reference").alias(query),
        same_dtype(pl.col(item), schema[item], item_dtype, "reference").alias(ITEM),
        ranked.cast(pl.UInt32).alias(OTHER),
        *tops,
        bad.alias(BAD),
    )


def _broken(p: float, depths: pl.LazyFrame, common: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    """(keys, N, M, VALUE): RBO_ext of the two rankings, ties broken (eq. 32)."""
    common = common.select(*keys, pl.max_horizontal(POS, OTHER).alias(POS))
    d = pl.col(POS)
    short = pl.min_horizontal(N, M).cast(pl.Float64)
    out = (
        _counted(depths, {X: common}, keys)
        .group_by(keys)
        .agg(
            pl.col(N, M).first(),
            d.max().cast(pl.Float64).alias("__l"),
            exact_sum(power(p, d) / d * pl.col(X)).alias("__t1"),
            pl.when(d <= short).then(pl.col(X)).max().fill_null(0).cast(pl.Float64).alias("__xs"),
            pl.col(X).max().cast(pl.Float64).alias("__xl"),
            exact_sum(pl.when(d > short).then(power(p, d) * (d - short) / d)).alias("__t2"),
        )
    )
    s, xs, xl, last = short, pl.col("__xs"), pl.col("__xl"), pl.col("__l")
    rbo = (1 - p) / p * (pl.col("__t1") + xs / s * pl.col("__t2")) + ((xl - xs) / last + xs / s) * power(
        p, last
    )
    return out.select(*keys, N, M, rbo.alias(VALUE))


def _aware(  # noqa: PLR0913, PLR0917  (the two rankings, each as rows and as depths)
    p: float,
    depths: pl.LazyFrame,
    common: pl.LazyFrame,
    run: pl.LazyFrame,
    against: pl.LazyFrame,
    keys: tuple[str, ...],
) -> pl.LazyFrame:
    """(keys, N, M, VALUE): RBO_ext with ties, Webber, Moffat and Zobel's section 4.3 (see :func:`rbo`).

    With ``s`` and ``l`` the shorter and longer lengths, ``e = max(d - s, 0)`` and ``D_d`` the
    items seen by depth ``d`` in both rankings plus ``e`` (the extrapolated ones),
    ``A_d = 2 (X_d + e A_s) / D_d``: two exact sums over depths, ``2 X_d p^d / D_d`` and
    ``2 e p^d / D_d``, the second scaled by the query's ``A_s`` afterwards.
    """
    seen = pl.concat(
        [run.select(*keys, pl.col(TOP).alias(POS)), against.select(*keys, pl.col(TOP_OTHER).alias(POS))]
    )
    events = {X: common.select(*keys, pl.max_horizontal(TOP, TOP_OTHER).alias(POS)), SEEN: seen}
    d, x, short = (
        pl.col(POS).cast(pl.Float64),
        pl.col(X).cast(pl.Float64),
        pl.min_horizontal(N, M).cast(pl.Float64),
    )
    extra = (d - short).clip(lower_bound=0.0)
    shown = pl.col(SEEN).cast(pl.Float64) + extra  # D_d
    out = (
        _counted(depths, events, keys)
        .group_by(keys)
        .agg(
            pl.col(N, M).first(),
            d.max().alias("__l"),
            exact_sum(power(p, d) * 2.0 * x / shown).alias("__t1"),
            exact_sum(pl.when(d > short).then(power(p, d) * 2.0 * extra / shown)).alias("__t2"),
            pl.when(d == short).then(2.0 * x / shown).max().alias("__as"),
            x.max().alias("__xl"),
        )
    )
    a_s, last = pl.col("__as"), pl.col("__l")
    s = pl.min_horizontal(N, M).cast(pl.Float64)
    rbo = (1 - p) / p * (pl.col("__t1") + a_s * pl.col("__t2")) + (
        pl.col("__xl") + (last - s) * a_s
    ) / last * power(p, last)
    return out.select(*keys, N, M, rbo.alias(VALUE))


def _rbo_table(m: Metric, _g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    p, query, aware = m.number("p"), keys[-1], m.side("tie_handling") == "aware"
    schema = frame.collect_schema()
    ref = _reference(m, query, schema[query], schema[ITEM], aware=aware)
    lengths = ref.group_by(query).agg(pl.len().cast(pl.UInt32).alias(M), pl.col(BAD).drop_nulls().min())
    lists = frame.group_by(*keys).agg(pl.col(NUM_RET).first().alias(N)).join(lengths, on=query, how="left")
    lists = lists.with_columns(pl.col(M).fill_null(0))
    tops = [pl.col(TIE_START).alias(TOP)] if aware else []
    run = frame.filter(pl.col(RANK).is_not_null()).select(*keys, ITEM, pl.col(RANK).alias(POS), *tops)
    against = lists.join(ref, on=query)  # the reference's items, for each ranking of its query
    depths = pl.concat(
        [
            run.join(lists, on=list(keys)).select(*keys, POS, N, M),
            against.filter(pl.col(OTHER) > pl.col(N)).select(*keys, pl.col(OTHER).alias(POS), N, M),
        ]
    )
    common = run.join(ref, on=[query, ITEM])
    out = _aware(p, depths, common, run, against, keys) if aware else _broken(p, depths, common, keys)
    value = pl.when((pl.col(N) > 0) & (pl.col(M) > 0)).then(pl.col(VALUE)).otherwise(0.0)
    out = out.join(lists.select(*keys, BAD), on=list(keys), how="left")
    return out.select(*keys, pl.coalesce(_errors.in_plan(pl.col(BAD)), value).alias(VALUE))


def _tie_needs(metric: Metric) -> frozenset[str]:
    """The run's tie groups (their first positions) when ties count as ties."""
    return frozenset({"tie_start"}) if metric.side("tie_handling") == "aware" else frozenset()


RBO = TableSpec(
    name="rbo",
    k="none",
    needs=frozenset({"item"}),
    judgments=False,  # two rankings' overlap: no relevance column needed
    params=(
        Param("p", 0.9, domain=OPEN_UNIT),
        Param("reference", None, "side"),
        Param("tie_handling", None, "side"),
        Param("columns", None, "side"),
    ),
    table=_rbo_table,
    needs_of=_tie_needs,
)


def rbo(
    *,
    p: float = 0.9,
    reference: pl.DataFrame | pl.LazyFrame | None = None,
    tie_handling: TieHandling = "break",
    columns: SideColumns = None,
) -> Metric:
    """Rank-biased overlap of each query's ranking with a reference run's: extrapolated RBO_ext.

    With ``X_d`` the items in both top-``d`` prefixes, ``s`` and ``l`` the
    lengths of the shorter and the longer ranking (Webber, Moffat and
    Zobel, 2010, eq. 32)::

        RBO_ext = (1-p)/p * (sum_{d=1..l} X_d p^d / d + sum_{d=s+1..l} X_s (d-s) p^d / (s d))
                  + ((X_l - X_s) / l + X_s / s) p^l

    It is 1 for identical rankings and 0 for disjoint ones; ``p`` sets how
    top-heavy it is (at ``p = 0.9`` the first 10 ranks carry 86% of the
    weight). A query the reference lacks (or that retrieved nothing) scores
    0. LensKit's ``rank_biased_overlap`` is another variant, truncated at a
    depth and divided by its weights' sum: :func:`rbo_normalized`. Like
    every per-query metric it is averaged over the queries the evaluation
    counts, those with a judged row: a run without judgments
    takes a relevance column of zeros (``run.with_columns(relevance=0)``).

    TieSupport: by default (``tie_handling="break"``) tied scores are ordered as in every
    other metric, by the evaluation's tie rule (score, then item id, the
    higher first), in the reference alike: the value is that of two tie-free
    rankings. With ``tie_handling="aware"``, the paper's tie-aware form (section
    4.3; RBO^w in Corsi and Urbano, 2024, who spell out its extrapolation):
    a tie group occupies its positions together, and a top-``d`` prefix holds
    every item whose group starts at or above ``d`` (the first position of
    a group is 1 + the items ranked strictly above it). With ``X_d`` the
    items in both such prefixes, ``S_d`` the items the two prefixes hold
    (together; it may exceed ``2d``) and ``e = max(d - s, 0)`` the items
    the shorter ranking is extrapolated to hold past its end, the agreement
    at depth ``d`` is::

        A_d = 2 (X_d + e A_s) / (S_d + e)
        RBO_ext = (1-p)/p * sum_{d=1..l} A_d p^d + (X_l + (l - s) A_s) / l * p^l

    Without ties ``S_d + e = 2d`` and the two forms agree. The run's tie
    groups are its items of equal score (or rank) within the evaluation's
    depth, the reference's its items of equal score (or rank).

    Parameters
    ----------
    p
        The persistence, in (0, 1).
    reference
        The reference run: a DataFrame or LazyFrame of the query id, the
        item id and a score (higher first) or a rank (lower first), read by
        name: ``query`` (or ``user``, ``qid``...), ``item`` (or ``doc``,
        ``docno``...), then ``score``, else ``rank``; other names through
        `columns`. Its ids are matched with the frame's query and item columns.
    tie_handling
        ``"break"`` (tied items ordered by id, in both rankings) or
        ``"aware"`` (tied items share their positions, as above).

    columns
        Column names for the ``query``, ``item`` and ``score`` or ``rank`` of `reference`, where not
        the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``rbo`` (``rbo(p=0.8)``, ``rbo(tie_handling=aware)``), a value per query
        averaged over queries.

    Raises
    ------
    InvalidParameterError
        No `reference`, `p` outside (0, 1), or `tie_handling` neither "break"
        nor "aware".
    ColumnNotFoundError, ColumnTypeError
        `reference` has fewer than three columns, a non-numeric score, or
        ids of another type than the frame's.
    InvalidDataError
        (when evaluated) `reference` has a null id or score, or an item
        twice for one query.

    References
    ----------
    Webber, Moffat & Zobel (2010), A similarity measure for indefinite
    rankings, ACM TOIS 28(4).
    Corsi & Urbano (2024), The treatment of ties in rank-biased overlap,
    SIGIR 2024.

    Examples
    --------
    >>> run = pl.DataFrame({"query": ["q1"] * 4 + ["q2"] * 2, "item": ["a", "b", "c", "d", "x", "y"],
    ...     "score": [4.0, 3.0, 2.0, 1.0, 2.0, 1.0], "relevance": 0})
    >>> reference = pl.DataFrame({"query": ["q1"] * 3 + ["q2"] * 2, "item": ["b", "a", "e", "x", "y"],
    ...     "rank": [1, 2, 3, 1, 2]})
    >>> prm.evaluate(run, [prm.rbo(reference=reference), prm.rbo(p=0.5, reference=reference)], per_query=True)
    shape: (2, 3)
    ┌───────┬──────┬────────────┐
    │ query ┆ rbo  ┆ rbo(p=0.5) │
    │ ---   ┆ ---  ┆ ---        │
    │ str   ┆ f64  ┆ f64        │
    ╞═══════╪══════╪════════════╡
    │ q1    ┆ 0.63 ┆ 0.416667   │
    │ q2    ┆ 1.0  ┆ 1.0        │
    └───────┴──────┴────────────┘

    Tied items, b and c in the run (positions 2 and 3), a and b in the
    reference (positions 1 and 2): with ``tie_handling="aware"`` the top-1
    prefixes hold {a} and {a, b}, so ``A_1 = 2 * 1 / 3``.

    >>> run = pl.DataFrame({"query": "q1", "item": ["a", "b", "c", "d"],
    ...     "score": [4.0, 3.0, 3.0, 1.0], "relevance": 0})
    >>> reference = pl.DataFrame({"query": "q1", "item": ["b", "a", "e"], "rank": [1, 1, 3]})
    >>> aware = prm.rbo(reference=reference, tie_handling="aware")
    >>> prm.evaluate(run, [prm.rbo(reference=reference), aware])
    shape: (1, 2)
    ┌───────┬─────────────────────────┐
    │ rbo   ┆ rbo(tie_handling=aware) │
    │ ---   ┆ ---                     │
    │ f64   ┆ f64                     │
    ╞═══════╪═════════════════════════╡
    │ 0.585 ┆ 0.678667                │
    └───────┴─────────────────────────┘
    """
    if not isinstance(tie_handling, str) or tie_handling not in TIE_HANDLING:
        raise InvalidParameterError.out_of_domain(
            "tie_handling", "'break' or 'aware'", tie_handling, metric="rbo"
        )
    aware = None if tie_handling == "break" else tie_handling
    metric = Metric(RBO, None, p=p, reference=reference, tie_handling=aware, columns=columns)
    if reference is None:
        _reference(
            metric, "query", pl.String(), pl.String(), aware=False
        )  # raises: the message says how to give one
    elif not isinstance(reference, (pl.DataFrame, pl.LazyFrame)):
        raise InvalidParameterError.from_type("reference", "a polars DataFrame or LazyFrame", reference)
    return metric


# --- compat: against the ideal ranking of the judgments -----------------------------------------------


def _compat_table(m: Metric, g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    p = m.number("p")
    relevant = frame.filter(pl.col(REL))
    # The ideal ranking: gain (the grade under gain="linear"), then the run's own order (retrieved
    # first); unretrieved items, never in both rankings, only fill the ideal's prefixes.
    retrieved_first = (-pl.col(RANK).cast(pl.Int64)).fill_null(-(2**62))
    ideal = pl.struct(pl.col(g.gain).alias("g"), retrieved_first.alias("r"), item_text().alias("i"))
    relevant = relevant.with_columns(
        ideal.rank("ordinal", descending=True).over(list(keys)).cast(pl.UInt32).alias(OTHER),
        pl.len().over(list(keys)).cast(pl.UInt32).alias(M),
    )
    lists = frame.group_by(*keys).agg(
        pl.col(NUM_RET).first().alias(N), pl.col(REL).sum().cast(pl.UInt32).alias(M)
    )
    run = frame.filter(pl.col(RANK).is_not_null()).join(lists.select(*keys, M), on=list(keys))
    depths = pl.concat(
        [
            run.select(*keys, pl.col(RANK).alias(POS), pl.col(NUM_RET).alias(N), M),
            relevant.filter(pl.col(OTHER) > pl.col(NUM_RET)).select(
                *keys, pl.col(OTHER).alias(POS), pl.col(NUM_RET).alias(N), M
            ),
        ]
    )
    common = relevant.filter(pl.col(RANK).is_not_null()).select(
        *keys, pl.max_horizontal(RANK, OTHER).alias(POS)
    )
    d = pl.col(POS)
    weight = power(p, d - 1) / d
    out = (
        _counted(depths, {X: common}, keys)
        .group_by(keys)
        .agg(
            exact_sum(weight * pl.col(X)).alias("__score"),
            exact_sum(weight * pl.min_horizontal(d, M)).alias("__best"),
        )
    )
    value = pl.when(pl.col("__best") > 0).then(pl.col("__score") / pl.col("__best")).otherwise(0.0)
    return out.select(*keys, value.alias(VALUE))


COMPAT = TableSpec(
    name="compat",
    aliases=("Compat",),
    needs=frozenset({"gain", "item"}),
    table=_compat_table,
)


@constructor(COMPAT)
def compat(*, p: Annotated[float, OPEN_UNIT] = 0.95) -> Metric:
    """Compatibility: rank-biased overlap of the ranking with the ideal ranking of the judgments.

    The ideal ranking lists the relevant items by gain (the grade under the
    default ``gain="linear"``), the higher first;
    among equal grades, the items the ranking retrieved come first, in its
    order (the ideal most compatible with it). With ``X_d`` the items in
    both top-``d`` prefixes, ``R`` the relevant items, ``n`` the ranking's
    length and ``l = max(n, R)`` (Clarke, Vtyurina and Smucker, 2020, as
    ir_measures' ``Compat(p)``, normalised)::

        Compat = sum_{d=1..l} p^(d-1) X_d / d  /  sum_{d=1..l} p^(d-1) min(d, R) / d

    the RBO of the ranking and the ideal, truncated at depth ``l``, over
    that of the ideal with itself. A query without relevant items scores 0.

    Parameters
    ----------
    p
        The persistence, in (0, 1).

    Returns
    -------
    Metric
        ``compat`` (``compat(p=0.8)``), averaged over queries; ir_measures
        name ``Compat``.

    References
    ----------
    Clarke, Vtyurina & Smucker (2020), Assessing top-k preferences, ACM TOIS 39(3).

    Examples
    --------
    >>> df = pl.DataFrame({"query": ["q1"] * 4, "item": ["a", "b", "c", "d"],
    ...     "score": [4.0, 3.0, 2.0, 1.0], "relevance": [0, 2, 1, 2]})
    >>> prm.evaluate(df, [prm.compat(), prm.compat(p=0.5)])
    shape: (1, 2)
    ┌─────────┬───────────────┐
    │ compat  ┆ compat(p=0.5) │
    │ ---     ┆ ---           │
    │ f64     ┆ f64           │
    ╞═════════╪═══════════════╡
    │ 0.49197 ┆ 0.276836      │
    └─────────┴───────────────┘
    """


# --- intersection: the share of the top k in a reference's top ref_k (RecTools) ------------------------


_DEPTH = Interval(low=0.0, integer=True)  # ref_k: 0 reads k


def _intersection_table(
    m: Metric, _g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]
) -> pl.LazyFrame:
    k, query = m.k or 0, keys[-1]
    ref_k = m.number("ref_k") or float(k)
    schema = frame.collect_schema()
    ref = _reference(m, query, schema[query], schema[ITEM], aware=False, given=True)
    bad = ref.group_by(query).agg(pl.col(BAD).drop_nulls().min())
    top = frame.select(*keys, ITEM, (pl.col(RANK) <= k).fill_null(value=False).alias(POS))
    shared = ref.filter(pl.col(OTHER) <= ref_k).select(query, ITEM, pl.lit(value=True).alias(X))
    counted = (
        top.join(shared, on=[query, ITEM], how="left")
        .group_by(keys)
        .agg(
            pl.col(POS).sum().alias(N),
            (pl.col(POS) & pl.col(X).fill_null(value=False)).sum().alias(M),
        )
        .join(bad, on=query, how="left")
    )
    # RecTools' intersection.py 96-106: Recall@ref_k of the reference against the top k as interactions.
    value = pl.when(pl.col(N) > 0).then(pl.col(M).cast(pl.Float64) / pl.col(N).cast(pl.Float64))
    return counted.select(*keys, pl.coalesce(_errors.in_plan(pl.col(BAD)), value).alias(VALUE))


def _check_reference(m: Metric) -> None:
    reference = m.side("reference")
    if reference is None:
        _reference(m, "query", pl.String(), pl.String(), aware=False)  # raises: the message says how
    elif not isinstance(reference, (pl.DataFrame, pl.LazyFrame)):
        raise InvalidParameterError.from_type("reference", "a polars DataFrame or LazyFrame", reference)


INTERSECTION = TableSpec(
    name="intersection",
    spellings=Spellings(recommenders=("Intersection",)),
    needs=frozenset({"item"}),
    judgments=False,  # two rankings' overlap: no relevance column needed
    keep=keep_top,
    table=_intersection_table,
)


@constructor(INTERSECTION, check=_check_reference)
def intersection(
    k: int,
    *,
    ref_k: Annotated[float, _DEPTH] = 0,
    reference: Annotated[pl.DataFrame | pl.LazyFrame | None, SIDE] = None,
    columns: SideColumns = None,
) -> Metric:
    """Share of the top `k` that a reference run holds in its top `ref_k` (RecTools' ``Intersection``).

    Per query, with ``T_k`` the items of the ranking within the top `k` and
    ``U`` those of the reference within its top `ref_k` (`k` when not given)::

        intersection@k = |T_k & U| / |T_k|

    RecTools' ``Intersection(k, ref_k)``: Recall@ref_k of the reference
    with the top `k` as the relevant items. A query the reference lacks
    scores 0; a query with nothing within the top `k` (a given rank past
    it, ``ranks="given"``) has no value (null, not averaged). Like
    :func:`rbo` it reads no judgments: a frame without a relevance column
    counts every query that retrieved something, one with judgments the
    queries the evaluation counts.

    Parameters
    ----------
    k
        Cutoff of the ranking (required).
    ref_k
        Cutoff of the reference; 0 (the default) reads `k`.
    reference
        The reference run: a DataFrame or LazyFrame whose first three
        columns are the query id, the item id and a score (higher first;
        ties broken by item id, the higher first) or, when the third column
        is named ``rank``, a rank read as given: an item is within `ref_k`
        when its rank is at most `ref_k`, gaps and ties kept, as RecTools
        reads its rank column.
    columns
        Column names for the ``query``, ``item`` and ``score`` or ``rank`` of `reference`, where not
        the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``intersection@k`` (``intersection(ref_k=10)@5``), averaged over
        queries; RecTools' spelling ``Intersection@k``.

    Raises
    ------
    InvalidParameterError
        No `reference`, or `ref_k` not a whole number from 0.
    ColumnNotFoundError, ColumnTypeError
        `reference` has fewer than three columns, a non-numeric score, or
        ids of another type than the frame's.
    InvalidDataError
        (when evaluated) `reference` has a null id or score, an item twice
        for one query, or a rank that is not a whole number from 1.

    References
    ----------
    RecTools, ``rectools/metrics/intersection.py`` (``Intersection``).

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "b"],
    ...     "score": [3.0, 2.0, 1.0, 2.0, 1.0]})
    >>> reference = pl.DataFrame({"query": [1, 1, 1, 2], "item": ["c", "a", "d", "x"], "rank": [1, 2, 3, 1]})
    >>> prm.evaluate(df, [prm.intersection(2, reference=reference),
    ...     prm.intersection(2, ref_k=1, reference=reference)], per_query=True)
    shape: (2, 3)
    ┌───────┬────────────────┬─────────────────────────┐
    │ query ┆ intersection@2 ┆ intersection(ref_k=1)@2 │
    │ ---   ┆ ---            ┆ ---                     │
    │ i64   ┆ f64            ┆ f64                     │
    ╞═══════╪════════════════╪═════════════════════════╡
    │ 1     ┆ 0.5            ┆ 0.0                     │
    │ 2     ┆ 0.0            ┆ 0.0                     │
    └───────┴────────────────┴─────────────────────────┘
    """


# --- rbo_normalized: RBO truncated at a depth, over the weights' sum (LensKit) ----------------------------


def _rbo_normalized_table(
    m: Metric, _g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]
) -> pl.LazyFrame:
    n, p, query = m.k or 0, m.number("p"), keys[-1]
    schema = frame.collect_schema()
    ref = _reference(m, query, schema[query], schema[ITEM], aware=False)
    bad = ref.group_by(query).agg(pl.col(BAD).drop_nulls().min())
    # An item in both top-d prefixes for every d >= max(r, t) adds sum_{d=max..n} p^(d-1) / d.
    tail = [math.fsum(p ** (d - 1) / d for d in range(m_, n + 1)) for m_ in range(1, n + 1)]
    weights = math.fsum(p ** (d - 1) for d in range(1, n + 1))
    common = (
        frame.filter(pl.col(RANK) <= n)
        .select(*keys, ITEM, RANK)
        .join(ref.filter(pl.col(OTHER) <= n), on=[query, ITEM])
    )
    deepest = pl.max_horizontal(RANK, OTHER).cast(pl.Int64)
    term = deepest.replace_strict(list(range(1, n + 1)), tail, return_dtype=pl.Float64)
    scores = common.group_by(keys).agg(exact_sum(term).alias("__prm_rbo"))
    lists = frame.select(*keys).unique().join(bad, on=query, how="left")
    out = lists.join(scores, on=list(keys), how="left")
    value = ratio(pl.col("__prm_rbo").fill_null(0.0), pl.lit(weights))  # a true quotient
    return out.select(*keys, pl.coalesce(_errors.in_plan(pl.col(BAD)), value).alias(VALUE))


RBO_NORMALIZED = TableSpec(
    name="rbo_normalized",
    spellings=Spellings(recommenders=("rank_biased_overlap",)),
    needs=frozenset({"item"}),
    judgments=False,  # two rankings' overlap: no relevance column needed
    keep=keep_top,
    table=_rbo_normalized_table,
)


@constructor(RBO_NORMALIZED, check=_check_reference)
def rbo_normalized(
    k: int,
    *,
    p: Annotated[float, OPEN_UNIT] = 0.85,
    reference: Annotated[pl.DataFrame | pl.LazyFrame | None, SIDE] = None,
    columns: SideColumns = None,
) -> Metric:
    """Rank-biased overlap truncated at depth `k`, over its weights' sum (LensKit's ``rank_biased_overlap``).

    With ``X_d`` the items in both top-``d`` prefixes (a list shorter than
    ``d`` is all of it)::

        RBO@k = sum_{d=1..k} p^(d-1) X_d / d  /  sum_{d=1..k} p^(d-1)

    Webber, Moffat and Zobel's truncated sum (their RBO_min without the
    residual, eq. 11) rescaled so that two identical rankings of `k` items
    or more score 1; the agreement past depth `k` is ignored, and a short
    list is not extrapolated (:func:`rbo`'s RBO_ext is). This is LensKit's
    ``rank_biased_overlap(reference, reranked, GeometricRankWeight(p), n=k)``:
    on ``[3, 2, 6, 7, 1]`` against ``[1, 2, 3, 4, 5]`` at ``p = 0.9`` it is
    0.4269 at ``k = 5`` (``rbo``, at its default ``p = 0.9``, is 0.5291). A query the reference
    lacks scores 0.

    Parameters
    ----------
    k
        The depth (LensKit's ``n``, 10 by default there).
    p
        The persistence (LensKit's default ``GeometricRankWeight(0.85)``).
    reference
        The reference run, as for :func:`rbo`: its first three columns are
        the query id, the item id and a score (higher first) or, named
        ``rank``, a rank (lower first); ties by item id.
    columns
        Column names for the ``query``, ``item`` and ``score`` or ``rank`` of `reference`, where not
        the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``rbo_normalized@k`` (``rbo_normalized(p=0.9)@5``), averaged over
        queries; LensKit's spelling ``rank_biased_overlap@k``.

    Raises
    ------
    InvalidParameterError
        No `reference`, or `p` outside (0, 1).
    InvalidDataError
        (when evaluated) `reference` has a null id or score, or an item
        twice for one query.

    References
    ----------
    Webber, Moffat & Zobel (2010), A similarity measure for indefinite
    rankings, ACM TOIS 28(4). LensKit, ``lenskit/metrics/reranking/_rbo.py``.

    Examples
    --------
    >>> run = pl.DataFrame({"query": 1, "item": [3, 2, 6, 7, 1], "score": [5.0, 4, 3, 2, 1]})
    >>> reference = pl.DataFrame({"query": 1, "item": [1, 2, 3, 4, 5], "rank": [1, 2, 3, 4, 5]})
    >>> prm.evaluate(run, [prm.rbo_normalized(5, p=0.9, reference=reference),
    ...     prm.rbo(p=0.9, reference=reference)]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────────────────┬────────┐
    │ rbo_normalized(p=0.9)@5 ┆ rbo    │
    │ ---                     ┆ ---    │
    │ f64                     ┆ f64    │
    ╞═════════════════════════╪════════╡
    │ 0.4269                  ┆ 0.5291 │
    └─────────────────────────┴────────┘
    """


# --- least_item_promoted: how far from below k the deepest promoted item came (LensKit) -------------------


def _lip_table(m: Metric, _g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    n, query = m.k or 0, keys[-1]
    schema = frame.collect_schema()
    ref = _reference(m, query, schema[query], schema[ITEM], aware=False)
    referenced = ref.group_by(query).agg(pl.col(BAD).drop_nulls().min(), pl.len().alias(M))
    # LensKit's _lip.py 40-49: the largest 0-based reference index of a top-n item, at least n, minus n.
    deepest = (
        frame.filter(pl.col(RANK) <= n)
        .select(*keys, ITEM)
        .join(ref, on=[query, ITEM])
        .group_by(keys)
        .agg((pl.col(OTHER).max().cast(pl.Int64) - 1).alias(X))
    )
    lists = frame.select(*keys).unique().join(referenced, on=query, how="left")
    out = lists.join(deepest, on=list(keys), how="left")
    value = pl.when(pl.col(M) > 0).then((pl.col(X).fill_null(0) - n).clip(lower_bound=0).cast(pl.Float64))
    return out.select(*keys, pl.coalesce(_errors.in_plan(pl.col(BAD)), value).alias(VALUE))


LEAST_ITEM_PROMOTED = TableSpec(
    name="least_item_promoted",
    aliases=("lip",),
    needs=frozenset({"item"}),
    judgments=False,  # two rankings' overlap: no relevance column needed
    keep=keep_top,
    table=_lip_table,
)


@constructor(LEAST_ITEM_PROMOTED, check=_check_reference)
def least_item_promoted(
    k: int,
    *,
    reference: Annotated[pl.DataFrame | pl.LazyFrame | None, SIDE] = None,
    columns: SideColumns = None,
) -> Metric:
    """Least item promoted: how far below the top `k` of a reference the deepest item of the top `k` came.

    For a reranked list and the reference it reranks (LensKit's
    ``least_item_promoted``), with ``t_i`` the 1-based rank in the reference
    of an item ``i`` of the ranking's top `k`::

        LIP@k = max(0, max_i (t_i - 1) - k)

    0 when every item of the top `k` comes from the reference's top
    ``k + 1`` (LensKit counts the 0-based index: an item just below the
    top `k` of the reference, at rank ``k + 1``, scores 0 too); items the
    reference lacks are skipped. A query the reference lacks has no value
    (null, LensKit's NaN), not averaged. A number of positions, not a share.

    Parameters
    ----------
    k
        The depth (LensKit's ``n``, 10 by default there).
    reference
        The reference (base) ranking, as for :func:`rbo`: its first three
        columns are the query id, the item id and a score (higher first) or,
        named ``rank``, a rank (lower first); ties by item id.
    columns
        Column names for the ``query``, ``item`` and ``score`` or ``rank`` of `reference`, where not
        the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``least_item_promoted@k``, averaged over queries; alias ``lip@k``.

    References
    ----------
    LensKit, ``lenskit/metrics/reranking/_lip.py`` (``least_item_promoted``).

    Examples
    --------
    LensKit's own case: item 6, sixth in the reference (index 5), reranked
    into the top 3, was promoted from 2 places below it.

    >>> run = pl.DataFrame({"query": 1, "item": [6, 2, 3, 1], "score": [4.0, 3, 2, 1]})
    >>> reference = pl.DataFrame({"query": 1, "item": [1, 2, 3, 4, 5, 6], "rank": [1, 2, 3, 4, 5, 6]})
    >>> prm.evaluate(run, [prm.least_item_promoted(3, reference=reference),
    ...     prm.least_item_promoted(1, reference=reference)])
    shape: (1, 2)
    ┌───────────────────────┬───────────────────────┐
    │ least_item_promoted@3 ┆ least_item_promoted@1 │
    │ ---                   ┆ ---                   │
    │ f64                   ┆ f64                   │
    ╞═══════════════════════╪═══════════════════════╡
    │ 2.0                   ┆ 4.0                   │
    └───────────────────────┴───────────────────────┘
    """


SPECS = (
    RBO, spec_of(compat), spec_of(intersection), spec_of(rbo_normalized), spec_of(least_item_promoted),
)  # fmt: skip
