"""The per-query building blocks of the intent-aware measures: relevant pairs, hits, ndeval's greedy ideal.

A prepared frame with intents has one row per (query, item) and, on the
rows of relevant items, the list of the intents the item is relevant to
(:data:`polars_rankmetrics._kernel.INTENTS`). Exploded, those rows are the
relevant (query, intent, item) pairs that ndeval reads; their rank is the
item's rank in the one ranking of the evaluation.

The ideal ranking is NP-hard; ndeval builds it greedily: at each rank the
item of the highest gain given the items already placed, ties to the
greater item id (``strcmp``). Each rank of the greedy ideal is one step of
expressions over every query at once, never a loop over queries; the steps
run when the plan is built, on the relevant pairs alone (at most the
deepest cutoff asked for; for ``nnrbp``, as many steps as the most relevant
items a query has), and the plan reads their result as a frame.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import polars as pl

from polars_rankmetrics._kernel import INTENTS, ITEM, RANK, REL, exact_sum, power
from polars_rankmetrics.exceptions import _plan as _errors

Q, D, J, R, GAIN, C = "__q", "__item", "__intent", "__rank", "__gain", "__c"


def key(keys: tuple[str, ...]) -> pl.Expr:
    """One column for a ranking's keys: the query, or a struct of (by..., query)."""
    return pl.struct(keys) if len(keys) > 1 else pl.col(keys[0])


def pairs(frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    """The relevant (query, intent, item) pairs of the prepared frame, with the item's rank (null: missed)."""
    relevant = frame.filter(pl.col(REL)).select(
        key(keys).alias(Q),
        pl.col(INTENTS).alias(J),
        pl.col(ITEM).cast(pl.String).alias(D),
        pl.col(RANK).alias(R),
    )
    return relevant.explode(J).filter(pl.col(J).is_not_null())


def power0(base: float, exponent: pl.Expr) -> pl.Expr:
    """``base ** exponent`` for a constant base in [0, 1], 0 ** 0 being 1 (ndeval multiplies gains down)."""
    if base == 0:
        return pl.when(exponent == 0).then(1.0).otherwise(0.0)
    return power(base, exponent)


def relevant_hits(relevant: pl.LazyFrame, alpha: float) -> pl.LazyFrame:
    """The retrieved relevant pairs: rank, C (the items above relevant to the intent), gain, __nrel."""
    per_intent = relevant.group_by(Q, J).agg(pl.len().cast(pl.Float64).alias("__nrel"))
    found = relevant.filter(pl.col(R).is_not_null()).with_columns(
        (pl.col(R).rank("ordinal").over(Q, J) - 1).alias(C)
    )
    found = found.with_columns(power0(1.0 - alpha, pl.col(C)).alias(GAIN))
    return found.join(per_intent, on=[Q, J])


@dataclass
class _Ideal:
    """ndeval's greedy ideal of every query as placed so far: a deeper one resumes it."""

    placed: pl.DataFrame  # (query, intent, item, placed?)
    seen: pl.DataFrame  # (query, intent, C: the items placed relevant to it)
    out: list[pl.DataFrame] = field(default_factory=list)  # (query, position, gain) per step
    exhausted: bool = False  # every relevant item placed


def _start(relevant: pl.DataFrame) -> _Ideal:
    placed = relevant.select(Q, J, D).with_columns(pl.lit(value=False).alias("__placed"))
    seen = relevant.select(Q, J).unique().with_columns(pl.lit(0, dtype=pl.Int64).alias(C))
    return _Ideal(placed, seen)


def _extend(relevant: pl.DataFrame, ideal: _Ideal, steps: int, alpha: float) -> None:
    """Place positions up to `steps` of every query, each step in every query at once.

    Each step places the unplaced item of the highest gain given the items placed
    (ties to the greater item id), as ndeval's idealResult.
    """
    for step in range(len(ideal.out) + 1, steps + 1):
        open_ = ideal.placed.filter(~pl.col("__placed")).join(ideal.seen, on=[Q, J])
        if open_.is_empty():
            ideal.exhausted = True
            return
        scores = open_.group_by(Q, D).agg(exact_sum(power0(1.0 - alpha, pl.col(C))).alias(GAIN))
        best = scores.group_by(Q).agg(
            pl.col(D).sort_by([GAIN, D], descending=[True, True]).first(), pl.col(GAIN).max()
        )
        # The position as a materialised column: a frame's literal column divides by its reciprocal.
        position = pl.int_range(pl.len(), dtype=pl.Int64) * 0 + step
        ideal.out.append(best.select(Q, position.alias(R), GAIN))
        chosen = best.select(Q, D, pl.lit(value=True).alias("__now"))
        ideal.placed = ideal.placed.join(chosen, on=[Q, D], how="left").select(
            Q, J, D, (pl.col("__placed") | pl.col("__now").fill_null(value=False)).alias("__placed")
        )
        covered = relevant.join(chosen, on=[Q, D]).group_by(Q, J).agg(pl.len().cast(pl.Int64).alias("__n"))
        ideal.seen = ideal.seen.join(covered, on=[Q, J], how="left").select(
            Q, J, (pl.col(C) + pl.col("__n").fill_null(0)).alias(C)
        )


def _positions(relevant: pl.DataFrame, ideal: _Ideal) -> pl.DataFrame:
    """(query, position, gain) of every position placed so far."""
    if not ideal.out:
        return pl.DataFrame(schema={Q: relevant.schema[Q], R: pl.Int64(), GAIN: pl.Float64()})
    return pl.concat(ideal.out)


def _collect(lf: pl.LazyFrame) -> pl.DataFrame:
    """Collect while the plan is built, streaming: a data error is raised as the library's error.

    The streaming engine bounds the memory of this pass over the frame (evaluate_chunked
    builds a plan of the whole frame once, for its schema).
    """
    try:
        return lf.collect(engine="streaming")
    except pl.exceptions.PolarsError as err:
        ours = _errors.from_polars(err)
        if ours is None:
            raise
        raise ours from None


@dataclass
class _Memo:
    """The relevant pairs of one prepared frame, collected once, and the greedy ideals placed from them."""

    frame: weakref.ref[pl.LazyFrame]
    keys: tuple[str, ...]
    pairs: pl.DataFrame
    ideals: dict[float, _Ideal] = field(default_factory=dict)  # by alpha


_LAST: list[_Memo] = []  # one slot: the frame being planned (a weak reference: it keeps nothing alive)


def greedy(frame: pl.LazyFrame, keys: tuple[str, ...], depth: int | None, alpha: float) -> pl.LazyFrame:
    """The greedy ideal's (query, position, gain) to `depth` or deeper (None: every relevant item), now.

    The metrics of one evaluation share the prepared frame: its relevant pairs are
    collected once, and the ideal of an alpha is placed once, resumed when a metric
    asks deeper (each position is the same step whatever the depth: the same bits).
    Positions past `depth` may be there: the metrics read positions within their cutoff.
    """
    memo = _LAST[0] if _LAST and _LAST[0].frame() is frame and _LAST[0].keys == keys else None
    if memo is None:
        memo = _Memo(weakref.ref(frame), keys, _collect(pairs(frame, keys).select(Q, J, D)))
        _LAST[:] = [memo]
    if alpha not in memo.ideals:
        memo.ideals[alpha] = _start(memo.pairs)
    ideal = memo.ideals[alpha]
    steps = depth
    if steps is None:
        steps = int(memo.pairs.select(pl.col(D).n_unique().over(Q).max()).item() or 0)
    if not ideal.exhausted:
        _extend(memo.pairs, ideal, steps, alpha)
    return _positions(memo.pairs, ideal).lazy()
