"""The one ranking pass: order, hit flags, gains and ideal order, computed once.

Every metric of an evaluation reads the internal columns this module adds;
none of them sorts or ranks again. The plan has two window stages:

1. Over every row: the rank, a window rank of ``struct(score, item_text)``
   per (by..., query), trec_eval's order (score descending, ties broken by
   the item's text descending; the optimistic and pessimistic tie policies
   put the grade before the text), and the per-query counts (retrieved,
   relevant, judged) as windows.
2. Over the rows some requested metric reads (relevant items, items of
   non-zero gain, items within a cutoff...; each family says which): ranks
   among subsets (relevant hits, judged items, pooled items) as integer
   ranks of the rank, the ideal order of the gains, and family row columns.
   Most rows of a run are unjudged and past every cutoff, so this stage and
   the per-query aggregation read a small fraction of the frame.

trec_eval's relevance classes: a null grade is an item outside the judgment
pool, a negative grade a pooled but unjudged item, a grade ``>= 0`` a judged
item, relevant when ``>= relevance_level``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

import polars as pl

from polars_rankmetrics._engine import order as order_key
from polars_rankmetrics._engine import ties
from polars_rankmetrics._kernel import (
    GRADE,
    GRID_LARGEST,
    HIT_RANK,
    INTENTS,
    ITEM,
    JUDGED_RANK,
    NUM_LISTED,
    NUM_NONREL,
    NUM_REL,
    NUM_RET,
    POOL_RANK,
    RANK,
    REL,
    GainColumns,
    query_scale,
)
from polars_rankmetrics._schema import ResolvedSchema
from polars_rankmetrics.conventions import Conventions, Gain

LIST_SIZE = "__prm_list_size"  # a query's retrieved items, to split short lists from long ones
ORDER_KEY = "__prm_order_key"  # a given rank and an integer item as one Int128 (_engine/order.py)


@dataclass(frozen=True)
class Prepared:
    """A prepared frame and the key columns its metrics group by."""

    frame: pl.LazyFrame
    keys: tuple[str, ...]


def _descending(rank: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """A key whose descending order is `rank` ascending, for every integer dtype.

    Unsigned ranks count down from the dtype's maximum (a UInt64 rank of
    2**63 has no Int64 negation); signed ranks are negated in their own width
    (ranks below 1, whose negation could overflow, are bad data the checks report).
    """
    if dtype.is_unsigned_integer():
        widths: dict[pl.DataType, int] = {pl.UInt8(): 8, pl.UInt16(): 16, pl.UInt32(): 32, pl.UInt64(): 64}
        bits = widths.get(dtype, 128)
        return pl.lit(2**bits - 1, dtype=dtype) - rank
    if dtype == pl.Int128:
        return pl.lit(0, dtype=pl.Int128) - rank  # Polars has no Int128 negation
    return -rank.cast(pl.Int64)


def gain_expr(grade: pl.Expr, gain: Gain, relevance_level: float = 1.0) -> pl.Expr:
    """Return the gain of `grade` under the `gain` convention; 0 for negative or null.

    ``"binary"`` gives 1 to a relevant grade (``>= relevance_level``), 0 to the others.
    """
    g = grade.cast(pl.Float64)
    if gain == "linear":
        value = g
    elif gain == "binary":
        value = (g >= relevance_level).cast(pl.Float64)
    elif gain == "exponential":
        value = pl.lit(2.0).pow(g) - 1.0
    elif gain == "thresholded_exponential":
        # Elliot's discounted relevance: 2**(g - t + 1) - 1 above the threshold t, else 0.
        value = pl.when(g >= relevance_level).then(pl.lit(2.0).pow(g - relevance_level + 1.0) - 1.0)
        value = value.otherwise(0.0)
    else:
        assert isinstance(gain, Mapping)
        # A when/then chain, not Expr.replace: replace falls back to the in-memory engine (Polars 2.1).
        value = g
        for grade_value, mapped in reversed(list(gain.items())):
            value = pl.when(g == float(grade_value)).then(float(mapped)).otherwise(value)
    return pl.when(g >= 0).then(value).otherwise(0.0).fill_null(0.0)


def fine_gains(gain: Gain, relevance: pl.DataType) -> bool:
    """Whether a non-zero gain can be below 2**-3 (then DCG's sums take the query's gain scale).

    Integer or boolean grades give gains of 0 or at least 1 under ``"linear"``,
    ``"exponential"`` and ``"binary"``; a ``{grade: gain}`` mapping gives its values
    (and the grades it does not map, as ``"linear"``). Fractional grades (floats,
    decimals) can be anything, except under ``"binary"``.
    """
    fractional = not (relevance.is_integer() or relevance == pl.Boolean)
    if gain == "thresholded_exponential":
        return True  # a fractional threshold gives fractional exponents
    if isinstance(gain, str):
        return fractional and gain != "binary"
    return fractional or any(v != 0 and abs(v) < GRID_LARGEST for v in map(float, gain.values()))


def relevance_classes(grade: pl.Expr, relevance_level: float) -> tuple[pl.Expr, pl.Expr]:
    """(judged, relevant) flags of `grade`, never null: ``grade >= 0``; also ``>= relevance_level``."""
    judged = (grade >= 0).fill_null(value=False)
    relevant = ((grade >= relevance_level) & judged).fill_null(value=False)
    return judged, relevant


def ideal_order(gain: pl.Expr) -> pl.Expr:
    """Position of each positive gain in the ideal ordering (gain descending); null for the others."""
    return pl.when(gain > 0).then(gain).rank("ordinal", descending=True)


def tie_break(grade: pl.Expr, conventions: Conventions) -> list[pl.Expr]:
    """The order inside a tie before the item text, ranked descending: the grade for the optimistic policy.

    ``"optimistic"`` puts higher grades first, ``"pessimistic"`` lower ones
    (a null grade counts lowest); ``"text"`` and ``"average"`` (whose
    metrics read the tie groups, not this order) add nothing.
    """
    if conventions.ties not in {"optimistic", "pessimistic"}:
        return []
    lowest = grade.cast(pl.Float64).fill_null(float("-inf"))
    return [(lowest if conventions.ties == "optimistic" else -lowest).alias("g")]


def prepare(  # noqa: PLR0913, PLR0917  (the engine's one entry: each part of the request)
    lf: pl.LazyFrame,
    schema: ResolvedSchema,
    conventions: Conventions,
    needs: AbstractSet[str],
    flags: Callable[[tuple[str, ...], pl.Expr], list[pl.Expr]],
    gains: Mapping[str, tuple[Gain, GainColumns]] | None = None,
    rows: Sequence[pl.Expr] = (),
    keep: pl.Expr | None = None,
    whole: Sequence[pl.Expr] = (),
    unordered_up_to: int | None = None,
    carried: Sequence[str] = (),
) -> Prepared:
    """Add the internal columns every requested metric reads.

    `gains` maps each gain convention's key to the convention and its
    columns; `rows` are extra per-row columns that read the ranks (windows
    over the query's keys); `keep` selects the rows the metrics read (None keeps
    every row); `flags` builds, from the window keys and whether each row has a
    grade, the per-query flags' window columns (whether a query has a judged row,
    the data checks, the warnings' diagnostics: :func:`checks.window_columns`),
    computed before any row is dropped; `whole` are
    per-query windows over every row that read the ranks, also added before
    rows are dropped. With `unordered_up_to` (only cutoffs read the positions, none
    below it: catalog metrics alone), a query retrieving at most that many items
    has every retrieved row within each cutoff: its rows take position 1 and skip
    the ordering window. `carried` names columns of `lf` kept on every row as they
    are (the families' per-row inputs: propensities, weights). One row of
    each query is always kept, so every query
    reaches the per-query aggregation with its counts.

    The stages, each below: the grade; the short lists split off; the order key; the ranking
    window with the depth cut; the first window's columns (ranks, per-query counts, gains, tie
    groups, the flags); the kept rows; the second window (ranks among subsets, ideal order).
    """
    gains = gains or {}
    keys = (*schema.by, schema.columns.query)
    grade = _grade(schema, conventions)
    breaks = tie_break(grade, conventions)
    lf, short = _split_short_lists(lf, schema, conventions, keys, unordered_up_to)
    lf, in_order, descending = _order_key(lf, schema, breaks)
    ranking = _ranking(schema, conventions, grade, keys, in_order, descending, counted=short is not None)
    first = _first_columns(schema, conventions, needs, gains, keys, grade, ranking)
    first.extend(flags(keys, grade.is_not_null()))
    first.extend(pl.col(name) for name in carried)
    out = lf.select(*keys, *first)
    if short is not None:
        # Position 1 for every retrieved row: within any cutoff, and no ordering window.
        unordered = pl.when(ranking.retrieved).then(pl.lit(1, dtype=pl.UInt32)).alias(RANK)
        out = pl.concat([out, short.select(*keys, unordered, *first[1:])])
    if ranking.recount:
        out = out.with_columns(pl.col(RANK).count().over(keys).cast(pl.UInt32).alias(NUM_RET))
    for stage in _stages(whole):
        out = out.with_columns(stage)
    if keep is not None:
        out = _kept(out, keep, conventions, gains, keys)
    out = _second_window(out, needs, gains, keys)
    if conventions.ties == "average":
        out = ties.within_groups(out, keys)
    if rows:
        out = out.with_columns(rows)
    return Prepared(frame=out, keys=keys)


def _grade(schema: ResolvedSchema, conventions: Conventions) -> pl.Expr:
    """The relevance grade as the metrics read it: null for unjudged (and NaN), judgments as counted."""
    cols = schema.columns
    # Catalog metrics need no judgments: without a relevance column every item is unjudged.
    grade = pl.col(cols.relevance) if schema.has_relevance else pl.lit(None, dtype=pl.Float64)
    if schema.has_relevance and schema.relevance_dtype.is_float():
        grade = grade.fill_nan(None)  # a NaN grade is bad data the checks report; it computes as unjudged
    if conventions.judgments == "retrieved":
        # scikit-learn's and torchmetrics' R and ideal list: judgments of items never ranked do not count.
        grade = pl.when(pl.col(schema.order_column).is_not_null()).then(grade)
    return grade


def _split_short_lists(
    lf: pl.LazyFrame,
    schema: ResolvedSchema,
    conventions: Conventions,
    keys: tuple[str, ...],
    unordered_up_to: int | None,
) -> tuple[pl.LazyFrame, pl.LazyFrame | None]:
    """The lists to order, and those short enough to skip the ordering window (or None)."""
    if unordered_up_to is None or conventions.depth is not None or conventions.judged_only:
        return lf, None
    if conventions.ranks == "given" and schema.order_is_rank:
        return lf, None  # a given rank past a cutoff is outside it, however short the list
    # Whole queries fall on either side, so every per-query window below is unchanged.
    sized = lf.with_columns(pl.col(schema.order_column).count().over(keys).alias(LIST_SIZE)).cache()
    return sized.filter(pl.col(LIST_SIZE) > unordered_up_to), sized.filter(
        pl.col(LIST_SIZE) <= unordered_up_to
    )


def _order_key(
    lf: pl.LazyFrame, schema: ResolvedSchema, breaks: Sequence[pl.Expr]
) -> tuple[pl.LazyFrame, pl.Expr, bool]:
    """The frame (with the packed key, when one is used), the order expression and its direction.

    A struct ranked descending: higher score first, then higher item text; a score or a given
    rank with an integer item packs into one Int128 where it fits (the same order, an integer window).
    """
    cols = schema.columns
    order = pl.col(schema.order_column)
    if not breaks:
        pack = order_key.packed if schema.order_is_rank else order_key.scored
        found = pack(order, schema.order_dtype, pl.col(cols.item), schema.item_dtype, schema.item_digits)
        if found is not None:
            # A rank ascending, a score descending: the same directions as the struct's.
            return lf.with_columns(found.alias(ORDER_KEY)), pl.col(ORDER_KEY), not schema.order_is_rank
    key = _descending(order, schema.order_dtype) if schema.order_is_rank else order
    item_text = pl.col(cols.item) if schema.item_is_string else pl.col(cols.item).cast(pl.String)
    return lf, pl.struct(key.alias("k"), *breaks, item_text.alias("i")), True


@dataclass(frozen=True)
class _Ranking:
    """The ranking window's expressions: each row's rank, who counts as retrieved, the list size."""

    rank: pl.Expr
    retrieved: pl.Expr
    judged: pl.Expr
    relevant: pl.Expr
    num_ret: pl.Expr
    recount: bool  # the list size is recounted after the depth cut (-M with -J)


def _ranking(  # noqa: PLR0913, PLR0917
    schema: ResolvedSchema,
    conventions: Conventions,
    grade: pl.Expr,
    keys: tuple[str, ...],
    in_order: pl.Expr,
    descending: bool,
    *,
    counted: bool,
) -> _Ranking:
    """Ranks in one window, trec_eval's -J and -M applied; `counted`: the short-list split counted sizes."""
    order = pl.col(schema.order_column)
    judged, relevant = relevance_classes(grade, conventions.relevance_level)
    retrieved = order.is_not_null()
    if conventions.judged_only:
        # trec_eval -J: unjudged items are dropped from the ranking before ranks are given.
        retrieved = retrieved & judged
    rank = pl.when(retrieved).then(in_order).rank("ordinal", descending=descending).over(keys)
    if conventions.ranks == "given" and schema.order_is_rank:
        # RecTools: the rank column is the position itself, gaps kept (a lone item of rank 3 is third).
        rank = pl.when(retrieved).then(order.cast(pl.UInt32))
    # The list size, when the split counted it already (no depth, no -J: the same count).
    num_ret = pl.col(LIST_SIZE) if counted else retrieved.sum().over(keys)
    recount = False
    if conventions.depth is not None:
        # trec_eval -M: items past the depth were never retrieved; judged ones still count for R.
        if conventions.judged_only:
            # trec_eval applies -M to the whole ranking before -J drops the unjudged items.
            listed = pl.when(order.is_not_null()).then(in_order)
            full = listed.rank("ordinal", descending=descending).over(keys)
            rank = pl.when(full <= conventions.depth).then(rank)
            recount = True
        else:
            rank = pl.when(rank <= conventions.depth).then(rank)
            num_ret = pl.min_horizontal(num_ret, conventions.depth)
    return _Ranking(rank, retrieved, judged, relevant, num_ret, recount)


def _stages(columns: Sequence[pl.Expr]) -> list[list[pl.Expr]]:
    """`columns` in window stages: a column reading another of them comes in a later stage.

    A window cannot read a column of the same ``with_columns``; most plans have one stage.
    """
    left = {e.meta.output_name(): e for e in columns}
    stages: list[list[pl.Expr]] = []
    while left:
        ready = [e for e in left.values() if not set(e.meta.root_names()) & set(left)]
        if not ready:
            raise AssertionError("the per-query windows read each other in a cycle")
        stages.append(ready)
        for e in ready:
            del left[e.meta.output_name()]
    return stages


def _first_columns(  # noqa: PLR0913, PLR0917
    schema: ResolvedSchema,
    conventions: Conventions,
    needs: AbstractSet[str],
    gains: Mapping[str, tuple[Gain, GainColumns]],
    keys: tuple[str, ...],
    grade: pl.Expr,
    ranking: _Ranking,
) -> list[pl.Expr]:
    """The first window's columns: rank, relevant flag, per-query counts, grades, gains, tie groups.

    Whether a query has a judged row is a bit of the flags' window (``prepare``'s `flags`), not a count.
    """
    cols, order, relevant = schema.columns, pl.col(schema.order_column), ranking.relevant
    # trec_eval -J evaluates a query that retrieved only unjudged items (with num_ret 0):
    # whether a query retrieved anything is decided before unjudged items are dropped.
    first: list[pl.Expr] = [
        ranking.rank.alias(RANK),
        relevant.alias(REL),
        ranking.num_ret.cast(pl.UInt32).alias(NUM_RET),
        relevant.sum().over(keys).cast(pl.UInt32).alias(NUM_REL),
    ]
    if not schema.has_relevance:  # no judgments (catalog metrics): nothing to count per query
        first[3:] = [pl.lit(0, dtype=pl.UInt32).alias(NUM_REL)]
    if conventions.judged_only:  # otherwise NUM_LISTED is NUM_RET: no column of its own (4 bytes a row)
        first.append(order.is_not_null().sum().over(keys).cast(pl.UInt32).alias(NUM_LISTED))
    if needs & {"grade", "judged_rank", "pool_rank"}:
        first.append(grade.cast(pl.Float64).alias(GRADE))
    if "num_nonrel" in needs:
        first.append((ranking.judged & ~relevant).sum().over(keys).cast(pl.UInt32).alias(NUM_NONREL))
    if "item" in needs:
        first.append(pl.col(cols.item).alias(ITEM))
    if "intents" in needs:  # one list per item (_engine/intents.py), read by the intent-aware metrics
        first.append(pl.col(INTENTS))
    first.extend(_gain_columns(gains, grade, conventions.relevance_level, keys))
    key = _descending(order, schema.order_dtype) if schema.order_is_rank else order
    if conventions.ties == "average":
        group_gains = [
            (gain_expr(grade, gain, conventions.relevance_level), names.gain)
            for gain, names in gains.values()
        ]
        first.extend(ties.groups(key, ranking.retrieved, relevant, keys, group_gains))
    elif "tie_start" in needs:  # the tie groups' first positions alone (rbo's ties="aware")
        first.append(ties.start(key, ranking.retrieved, keys))
    return first


def _gain_columns(
    gains: Mapping[str, tuple[Gain, GainColumns]], grade: pl.Expr, level: float, keys: tuple[str, ...]
) -> list[pl.Expr]:
    """Each gain convention's gain, and where gains can be tiny the query's scale of them (DCG's)."""
    out: list[pl.Expr] = []
    for gain, names in gains.values():
        value = gain_expr(grade, gain, level)
        out.append(value.alias(names.gain))
        if names.scale is not None:  # the query's largest |gain| over all its rows
            out.append(query_scale(value).over(keys).alias(names.scale))
    return out


def _kept(
    out: pl.LazyFrame,
    keep: pl.Expr,
    conventions: Conventions,
    gains: Mapping[str, tuple[Gain, GainColumns]],
    keys: tuple[str, ...],
) -> pl.LazyFrame:
    """The rows the metrics read; every query keeps its top row, or all when it retrieved nothing."""
    # A given rank (ranks="given") may start past 1: the top row is the query's least rank.
    top = pl.col(RANK).min().over(keys) if conventions.ranks == "given" else 1
    anchor = (pl.col(RANK) == top) | pl.col(RANK).is_null() & (pl.col(NUM_RET) == 0)
    if conventions.ties == "average":
        keep = keep | ties.keep([names.gain for _, names in gains.values()])
    return out.filter(keep | anchor)


def _second_window(
    out: pl.LazyFrame,
    needs: AbstractSet[str],
    gains: Mapping[str, tuple[Gain, GainColumns]],
    keys: tuple[str, ...],
) -> pl.LazyFrame:
    """Ranks among the kept rows' subsets (hits, judged, pooled) and the ideal order of each gain."""
    ranked, graded = pl.col(RANK), pl.col(GRADE)

    def rank_among(mask: pl.Expr) -> pl.Expr:
        return pl.when(mask & ranked.is_not_null()).then(ranked).rank("ordinal").over(keys)

    second: list[pl.Expr] = []
    if "hit_rank" in needs:
        second.append(rank_among(pl.col(REL)).alias(HIT_RANK))
    if "judged_rank" in needs:
        second.append(rank_among(graded >= 0).alias(JUDGED_RANK))
    if "pool_rank" in needs:
        second.append(rank_among(graded.is_not_null()).alias(POOL_RANK))
    if "ideal_rank" in needs:
        second.extend(
            ideal_order(pl.col(names.gain)).over(keys).alias(names.ideal_rank) for _, names in gains.values()
        )
    return out.with_columns(second) if second else out
