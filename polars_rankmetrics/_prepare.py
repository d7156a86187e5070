"""The one ranking pass: order, hit flags, gains and ideal order, computed once.

Every metric of an evaluation reads the internal columns this module adds;
none of them sorts or ranks again. The ranking is a window rank of
``struct(score, item_text)`` per (by..., query): trec_eval's order, score
descending with ties broken by the item's text descending.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import polars as pl

from polars_rankmetrics._schema import ResolvedSchema
from polars_rankmetrics.conventions import Conventions

RANK = "__prm_rank"  # 1-based retrieval rank within depth; null when not retrieved
REL = "__prm_rel"  # judged relevant: grade >= relevance_level and grade >= 0
GAIN = "__prm_gain"  # gain of the grade; 0 for unjudged and negative grades
HIT_RANK = "__prm_hit_rank"  # rank of a retrieved relevant item among those items
IDEAL_RANK = "__prm_ideal_rank"  # rank of a positive-gain item in the ideal order
NUM_REL = "__prm_num_rel"  # the query's number of relevant items, on every row
JUDGED = "__prm_judged"  # the row has a relevance grade

NEEDS = frozenset({"gain", "hit_rank", "ideal_rank", "num_rel"})


@dataclass(frozen=True)
class Prepared:
    """A prepared frame and the key columns its metrics group by."""

    frame: pl.LazyFrame
    keys: tuple[str, ...]


def gain_expr(grade: pl.Expr, gain: object) -> pl.Expr:
    """Return the gain of `grade` under the `gain` convention; 0 for negative or null."""
    g = grade.cast(pl.Float64)
    if gain == "linear":
        value = g
    elif gain == "exponential":
        value = pl.lit(2.0).pow(g) - 1.0
    else:
        mapping = dict(gain)  # type: ignore[call-overload]
        value = g.replace(
            [float(k) for k in mapping], [float(v) for v in mapping.values()]
        )
    return pl.when(g >= 0).then(value).otherwise(0.0).fill_null(0.0)


def prepare(
    lf: pl.LazyFrame,
    schema: ResolvedSchema,
    conventions: Conventions,
    needs: Collection[str],
) -> Prepared:
    """Add the internal columns every requested metric reads, in one window pass."""
    cols = schema.columns
    keys = (*schema.by, cols.query)
    item_text = pl.col(cols.item) if schema.item_is_string else pl.col(cols.item).cast(pl.String)
    order = pl.col(schema.order_column)
    # A struct ranked descending: higher score first, then higher item text.
    # Null order keys (unjudged-but-not-retrieved rows) sort last and are masked.
    key = -order.cast(pl.Int64) if schema.order_is_rank else order
    order_struct = pl.struct(key.alias("k"), item_text.alias("i"))
    retrieved = order.is_not_null()
    grade = pl.col(cols.relevance)
    relevant = ((grade >= conventions.relevance_level) & (grade >= 0)).fill_null(value=False)

    windows: list[pl.Expr] = [
        pl.when(retrieved).then(order_struct.rank("ordinal", descending=True).over(keys)).alias(RANK),
        relevant.alias(REL),
        grade.is_not_null().alias(JUDGED),
    ]
    if "hit_rank" in needs:
        hits = pl.when(retrieved & relevant).then(order_struct)
        windows.append(hits.rank("ordinal", descending=True).over(keys).alias(HIT_RANK))
    if "num_rel" in needs:
        windows.append(relevant.sum().over(keys).alias(NUM_REL))
    if "gain" in needs or "ideal_rank" in needs:
        gain = gain_expr(grade, conventions.gain)
        windows.append(gain.alias(GAIN))
        if "ideal_rank" in needs:
            positive = pl.when(gain > 0).then(gain)
            windows.append(positive.rank("ordinal", descending=True).over(keys).alias(IDEAL_RANK))

    out = lf.select(*keys, *windows)
    if conventions.depth is not None:
        # trec_eval -M: items past the depth were never retrieved; judged ones still count for R.
        out = out.with_columns(pl.when(pl.col(RANK) <= conventions.depth).then(pl.col(RANK)).alias(RANK))
    return Prepared(frame=out, keys=keys)
