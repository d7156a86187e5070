"""The one ranking pass: order, hit flags, gains and ideal order, computed once.

Every metric of an evaluation reads the internal columns this module adds;
none of them sorts or ranks again. The ranking is a window rank of
``struct(score, item_text)`` per (by..., query): trec_eval's order, score
descending with ties broken by the item's text descending. Ranks among
subsets (relevant hits, judged items, pooled items) rank the same struct
with the other rows masked out, in the same window pass.

trec_eval's relevance classes: a null grade is an item outside the judgment
pool, a negative grade a pooled but unjudged item, a grade ``>= 0`` a judged
item, relevant when ``>= relevance_level``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

import polars as pl

from polars_rankmetrics._schema import ResolvedSchema
from polars_rankmetrics.conventions import Conventions, Gain

RANK = "__prm_rank"  # 1-based retrieval rank within depth; null when not retrieved
REL = "__prm_rel"  # judged relevant: grade >= relevance_level and grade >= 0
GRADE = "__prm_grade"  # the relevance grade, null when outside the pool
HIT_RANK = "__prm_hit_rank"  # rank of a retrieved relevant item among those items
JUDGED_RANK = "__prm_judged_rank"  # rank of a retrieved judged (grade >= 0) item among those
POOL_RANK = "__prm_pool_rank"  # rank of a retrieved pooled (non-null grade) item among those
NUM_REL = "__prm_num_rel"  # the query's number of relevant items, on every row
NUM_NONREL = "__prm_num_nonrel"  # the query's number of judged non-relevant items, on every row
JUDGED = "__prm_judged"  # the row has a relevance grade
ITEM = "__prm_item"  # the item id, for catalog metrics
NUM_RET = "__prm_num_ret"  # the query's number of retrieved items, on every row

NEEDS = frozenset(
    {"grade", "hit_rank", "judged_rank", "pool_rank", "num_rel", "num_nonrel", "num_ret", "gain", "ideal_rank", "item"}
)


def gain_key(gain: Gain) -> str:
    """A stable text key for a gain convention, used to name its columns."""
    if isinstance(gain, str):
        return gain
    return ",".join(f"{float(k)!r}={float(v)!r}" for k, v in sorted(gain.items()))


@dataclass(frozen=True)
class GainColumns:
    """The columns of one gain convention: the gain of each row and its ideal rank."""

    gain: str
    ideal_rank: str


def gain_columns(gain: Gain, index: int) -> GainColumns:
    """Column names for the `index`-th gain convention of an evaluation."""
    del gain  # the names depend only on the index; kept for readability at call sites
    return GainColumns(gain=f"__prm_gain_{index}", ideal_rank=f"__prm_ideal_rank_{index}")


@dataclass(frozen=True)
class Prepared:
    """A prepared frame and the key columns its metrics group by."""

    frame: pl.LazyFrame
    keys: tuple[str, ...]


def gain_expr(grade: pl.Expr, gain: Gain) -> pl.Expr:
    """Return the gain of `grade` under the `gain` convention; 0 for negative or null."""
    g = grade.cast(pl.Float64)
    if gain == "linear":
        value = g
    elif gain == "exponential":
        value = pl.lit(2.0).pow(g) - 1.0
    else:
        assert isinstance(gain, Mapping)  # noqa: S101  (checked by Conventions)
        value = g.replace([float(k) for k in gain], [float(v) for v in gain.values()])
    return pl.when(g >= 0).then(value).otherwise(0.0).fill_null(0.0)


def prepare(
    lf: pl.LazyFrame,
    schema: ResolvedSchema,
    conventions: Conventions,
    needs: Collection[str],
    gains: Mapping[str, tuple[Gain, GainColumns]] | None = None,
    rows: Callable[[tuple[str, ...]], list[pl.Expr]] | None = None,
) -> Prepared:
    """Add the internal columns every requested metric reads, in one window pass.

    `gains` maps each gain convention's key to the convention and its columns;
    `rows` builds, from the window keys, extra per-row columns that read the
    ranks (added after the depth cut).
    """
    cols = schema.columns
    keys = (*schema.by, cols.query)
    item_text = pl.col(cols.item) if schema.item_is_string else pl.col(cols.item).cast(pl.String)
    order = pl.col(schema.order_column)
    # A struct ranked descending: higher score first, then higher item text.
    key = -order.cast(pl.Int64) if schema.order_is_rank else order
    order_struct = pl.struct(key.alias("k"), item_text.alias("i"))
    # Catalog metrics need no judgments: without a relevance column every item is unjudged.
    grade = pl.col(cols.relevance) if schema.has_relevance else pl.lit(None, dtype=pl.Float64)
    judged = (grade >= 0).fill_null(value=False)
    relevant = ((grade >= conventions.relevance_level) & judged).fill_null(value=False)
    retrieved = order.is_not_null()
    if conventions.judged_only:
        # trec_eval -J: unjudged items are dropped from the ranking before ranks are given.
        retrieved = retrieved & judged

    def rank_among(mask: pl.Expr) -> pl.Expr:
        return pl.when(mask).then(order_struct).rank("ordinal", descending=True).over(keys)

    windows: list[pl.Expr] = [
        rank_among(retrieved).alias(RANK),
        relevant.alias(REL),
        grade.is_not_null().alias(JUDGED),
    ]
    if "grade" in needs:
        windows.append(grade.cast(pl.Float64).alias(GRADE))
    if "hit_rank" in needs:
        windows.append(rank_among(retrieved & relevant).alias(HIT_RANK))
    if "judged_rank" in needs:
        windows.append(rank_among(retrieved & judged).alias(JUDGED_RANK))
    if "pool_rank" in needs:
        windows.append(rank_among(retrieved & grade.is_not_null()).alias(POOL_RANK))
    if "num_rel" in needs:
        windows.append(relevant.sum().over(keys).alias(NUM_REL))
    if "num_ret" in needs:
        windows.append(retrieved.sum().over(keys).alias(NUM_RET))
    if "item" in needs:
        windows.append(pl.col(cols.item).alias(ITEM))
    if "num_nonrel" in needs:
        windows.append((judged & ~relevant).sum().over(keys).alias(NUM_NONREL))
    for gain, names in (gains or {}).values():
        value = gain_expr(grade, gain)
        windows.append(value.alias(names.gain))
        positive = pl.when(value > 0).then(value)
        windows.append(positive.rank("ordinal", descending=True).over(keys).alias(names.ideal_rank))

    full_rank = RANK
    if conventions.depth is not None and conventions.judged_only:
        # trec_eval applies -M to the whole ranking before -J drops the unjudged items.
        full_rank = "__prm_full_rank"
        windows.append(rank_among(order.is_not_null()).alias(full_rank))
    out = lf.select(*keys, *windows)
    if conventions.depth is not None:
        # trec_eval -M: items past the depth were never retrieved; judged ones still count for R.
        # Every subset rank cuts where the full rank does (depth cuts a prefix of the ranking).
        cut = pl.col(full_rank) <= conventions.depth
        subsets = {"hit_rank": HIT_RANK, "judged_rank": JUDGED_RANK, "pool_rank": POOL_RANK}
        ranks = [RANK, *(name for need, name in subsets.items() if need in needs)]
        out = out.with_columns(pl.when(cut).then(pl.col(c)).alias(c) for c in ranks)
    extra = rows(keys) if rows is not None else []
    if extra:
        out = out.with_columns(extra)
    return Prepared(frame=out, keys=keys)
