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

from collections.abc import Mapping
from typing import Annotated, Literal

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import ITEM, NUM_RET, RANK, REL, VALUE, GainColumns, exact_sum, power
from polars_rankmetrics._spec import OPEN_UNIT, Metric, Param, TableSpec
from polars_rankmetrics.exceptions import ColumnNotFoundError, ColumnTypeError, InvalidParameterError
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.metrics._side import (
    SideColumns,
    as_lazy,
    by_role,
    item_text,
    same_dtype,
    side_columns,
)
from polars_rankmetrics.metrics._ties import TIE_START

__all__ = ["compat", "rbo"]


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


def _reference(
    metric: Metric, query: str, query_dtype: pl.DataType, item_dtype: pl.DataType, *, aware: bool
) -> pl.LazyFrame:
    """The reference run as (query, ITEM, OTHER): its items ranked by score (or rank), ties by item id.

    `aware` adds TOP_OTHER, each item's first position in its tie group (1 + the items above it).
    """
    value = metric.side("reference")
    if value is None:
        remedy = "prm.rbo(p=0.9, reference=frame_of_query_item_and_score)"
        raise InvalidParameterError.needs("rbo", "a reference run", remedy)
    frame = as_lazy(value, "reference")
    schema = frame.collect_schema()
    names, columns = schema.names(), side_columns(metric.side("columns"))
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
    0. Like every per-query metric it is averaged over the queries the
    evaluation counts, those with a judged row: a run without judgments
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
        The side frames' column names where they differ from the defaults: a ``{role: name}``
        mapping or a :class:`~polars_rankmetrics.Columns` (its query, item, score and rank names).
        Roles read here: ``query``, ``item`` and ``score`` or ``rank`` (`reference`). A side frame
        is read by name, never by position: by default a role's column is the first of its usual
        names the frame has (``user``, ``user_id``, ``query``...; ``item``, ``item_id``, ``doc``...;
        ``count``, ``popularity``, ``users``, ``n``; ``category``, ``group``, ``label``, ``genre``;
        ``weight``, ``share``; ``score``; ``rank``). A role no column is found for is a
        ColumnNotFoundError naming the ``columns=`` that reads it.

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


SPECS = (RBO, spec_of(compat))
