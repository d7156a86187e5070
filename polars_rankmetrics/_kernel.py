"""The bottom layer: the internal columns, the view of a query's rows that metrics read, exact sums.

Metrics (``metrics/``) read their inputs from a :class:`Rows` view, never
from column names: the engine (``_engine/``) hands them the view of its
prepared frame (:meth:`Rows.prepared`, these columns), the public
expression builders (``polars_rankmetrics.expr``) a view computed inline
from one query's rows. This module imports only the conventions' types, so
neither layer needs the other to know them.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import polars as pl

from polars_rankmetrics.conventions import Conventions, Gain

RANK = "__prm_rank"  # 1-based retrieval rank within depth; null when not retrieved
REL = "__prm_rel"  # judged relevant: grade >= relevance_level and grade >= 0
GRADE = "__prm_grade"  # the relevance grade, null when outside the pool
HIT_RANK = "__prm_hit_rank"  # rank of a retrieved relevant item among those items
JUDGED_RANK = "__prm_judged_rank"  # rank of a retrieved judged (grade >= 0) item among those
POOL_RANK = "__prm_pool_rank"  # rank of a retrieved pooled (non-null grade) item among those
NUM_REL = "__prm_num_rel"  # the query's number of relevant items, on every row
NUM_NONREL = "__prm_num_nonrel"  # the query's number of judged non-relevant items, on every row
NUM_RET = "__prm_num_ret"  # the query's number of retrieved items (within depth), on every row
NUM_LISTED = "__prm_num_listed"  # the query's number of retrieved items before -J: who counts as retrieved
ITEM = "__prm_item"  # the item id, for catalog metrics
INTENTS = "__prm_intents"  # a relevant item's intents (List[String]), for the intent-aware metrics


def gain_key(gain: Gain) -> str:
    """A stable text key for a gain convention, used to name its columns."""
    if isinstance(gain, str):
        return gain
    return ",".join(f"{float(k)!r}={float(v)!r}" for k, v in sorted(gain.items()))


@dataclass(frozen=True)
class GainColumns:
    """The columns of one gain convention: the gain of each row, its ideal rank, the query's gain scale.

    `scale` (None when every non-zero gain is 2**-3 or more, so :func:`exact_sum`'s
    grid holds the gain sums) names the column of the query's :func:`query_scale`
    of its gains, which DCG's sums read (:meth:`Rows.gain_sum`).
    """

    gain: str
    ideal_rank: str
    scale: str | None = None


def gain_columns(index: int, *, fine: bool = False) -> GainColumns:
    """Column names for the `index`-th gain convention of an evaluation (`fine`: gains below 2**-3 occur)."""
    scale = f"__prm_gain_scale_{index}" if fine else None
    return GainColumns(gain=f"__prm_gain_{index}", ideal_rank=f"__prm_ideal_rank_{index}", scale=scale)


@dataclass(frozen=True)
class Rows:
    """One query's rows as a metric reads them: every input of a query-scope metric.

    Each attribute is a per-row expression (the counts are the same on
    every row of a query); a metric's value aggregates them (``sum``,
    ``first``, ``max``...) to one value per query. Two views exist:

    - :meth:`prepared`, evaluate's: the columns of the prepared frame,
      computed once per evaluation by ``_engine.prepare`` (windows per
      query, in any row order);
    - the group view of ``polars_rankmetrics.expr``: the same quantities
      computed inline from the rows of one group, put in rank order first
      (`keys` is None).

    Attributes
    ----------
    rank
        1-based retrieval rank within depth (UInt32); null when not retrieved.
    rel
        Relevant: ``grade >= relevance_level`` and ``grade >= 0`` (never null).
    grade
        The relevance grade as Float64; null outside the judgment pool.
    hit_rank, judged_rank, pool_rank
        The rank of a retrieved relevant / judged (grade >= 0) / pooled
        (non-null grade) item among those items; null for the others.
    num_rel, num_nonrel, num_ret
        The query's relevant items, judged non-relevant items (retrieved or
        not) and retrieved items (within depth).
    gain, ideal_rank
        The gain of the metric's gain convention (0 for unjudged and
        negative grades) and the position of a positive gain in the ideal
        ordering (null for the others).
    keys
        The prepared frame's window keys; None for a view whose rows are
        one query already in rank order.
    iprec_rule
        How a recall level x becomes a number of relevant items in
        ``iprec_at_recall``: ``"round"`` (trec_eval 10.0) or ``"trec_eval_9"``
        (``int(x * R + 0.9)``); the conventions' ``iprec_rule``.
    ap_denominator
        What average precision at a cutoff divides by: ``"relevant"`` (R),
        ``"min_k_relevant"`` or ``"found"``; the conventions' ``ap_denominator``.
    gain_scale
        The query's scale of its gains (:func:`query_scale`'s factor): a
        per-row column in the prepared view, an aggregation in a group view;
        None where every non-zero gain is 2**-3 or more (the fixed grid).
    conventions
        The evaluation's conventions, for the families that read one more
        (``discount``, ``ideal``, ``rbp_normalization``, the denominators).
    fields
        How a group view reads a per-row input (:meth:`input`); None in the
        prepared view, whose inputs are columns.
    """

    rank: pl.Expr
    rel: pl.Expr
    grade: pl.Expr
    hit_rank: pl.Expr
    judged_rank: pl.Expr
    pool_rank: pl.Expr
    num_rel: pl.Expr
    num_nonrel: pl.Expr
    num_ret: pl.Expr
    gain: pl.Expr
    ideal_rank: pl.Expr
    keys: tuple[str, ...] | None = None
    iprec_rule: str = "round"
    ap_denominator: str = "relevant"
    terms: dict[str, pl.Expr] | None = field(default=None, compare=False, repr=False)
    gain_scale: pl.Expr | None = None
    conventions: Conventions = field(default_factory=Conventions, compare=False, repr=False)
    fields: Callable[[str], pl.Expr] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def prepared(  # noqa: PLR0913, PLR0917  (the view's inputs, each named)
        cls,
        gain: GainColumns | None = None,
        keys: tuple[str, ...] = (),
        iprec_rule: str = "round",
        ap_denominator: str = "relevant",
        terms: dict[str, pl.Expr] | None = None,
        conventions: Conventions | None = None,
    ) -> Rows:
        """Evaluate's view: the prepared frame's columns (`gain`: the metric's gain columns).

        `terms` collects the per-row terms the metrics share (:meth:`term`): the
        engine adds each as a column once, before the per-query aggregation.
        """
        names = gain or gain_columns(0)
        return cls(
            rank=pl.col(RANK),
            rel=pl.col(REL),
            grade=pl.col(GRADE),
            hit_rank=pl.col(HIT_RANK),
            judged_rank=pl.col(JUDGED_RANK),
            pool_rank=pl.col(POOL_RANK),
            num_rel=pl.col(NUM_REL),
            num_nonrel=pl.col(NUM_NONREL),
            num_ret=pl.col(NUM_RET),
            gain=pl.col(names.gain),
            ideal_rank=pl.col(names.ideal_rank),
            keys=keys,
            iprec_rule=iprec_rule,
            ap_denominator=ap_denominator,
            terms=terms,
            gain_scale=None if names.scale is None else pl.col(names.scale),
            conventions=conventions or Conventions(),
        )

    def input(self, name: str) -> pl.Expr:
        """A per-row input the engine carried (a spec's ``RowInput``): its column, or the group's field."""
        return pl.col(name) if self.fields is None else self.fields(name)

    def in_rank_order(self, running: pl.Expr) -> pl.Expr:
        """`running` (a cumulative expression: ``cum_prod``...) computed over the rows in rank order.

        Unretrieved rows come last. In the prepared view it is a window per
        query ordered by rank, for a per-row column of the prepare stage
        (see :meth:`column`); in a group view the rows are in rank order
        already.
        """
        if self.keys is None:
            return running
        last = pl.lit(2**31, dtype=pl.UInt32)  # unretrieved rows after every rank
        return running.over(list(self.keys), order_by=self.rank.fill_null(last))

    def column(self, name: str, expr: pl.Expr) -> pl.Expr:
        """A per-row quantity that needs its own window: the column `name` the engine added, or `expr` inline.

        The engine adds ``expr.alias(name)`` from the spec's ``rows`` hook
        before it aggregates (windows cannot run inside an aggregation); a
        group view evaluates `expr` in place. Both read the same formula.
        """
        return expr if self.keys is None else pl.col(name)

    def term(self, expr: pl.Expr) -> pl.Expr:
        """A per-row term several aggregations read: one column of the prepared frame, or `expr` inline.

        In the engine's view the term is registered once (by its expression) and
        read as a column, so ten cutoffs of one sum cast and take logs once; a
        group view evaluates `expr` in place.
        """
        if self.keys is None or self.terms is None:
            return expr
        name = "__prm_term_" + hashlib.sha1(expr.meta.serialize(), usedforsecurity=False).hexdigest()[:16]
        self.terms.setdefault(name, expr.alias(name))
        return pl.col(name)

    def exact_sum(self, term: pl.Expr, where: pl.Expr | None = None) -> pl.Expr:
        """:func:`exact_sum` of `term` over the rows in `where` (every row when None).

        The fixed-point value of `term` is a shared :meth:`term`, so the sums of
        one term over several masks (cutoffs) share its cast; the integers summed
        are those of ``exact_sum(pl.when(where).then(term))``, so are the bits.
        `term` must be null, not NaN or infinite, on rows it is not defined for.
        """
        scaled = self.term(fixed_point(term))
        return from_fixed_point((scaled if where is None else pl.when(where).then(scaled)).sum())

    def scaled_sum(self, term: pl.Expr, where: pl.Expr | None = None) -> pl.Expr:
        """:meth:`exact_sum` at a scale from the query's largest |term|: tiny terms kept.

        For terms that can be as small as a double holds (RBP's ``p ** (rank - 1)``
        at p=0.01 is 9.9e-29 at rank 15, which :func:`exact_sum`'s 2**-64 grid
        drops): the terms are scaled by 2**s, s from the query's largest |term|
        (:func:`query_scale`; a maximum does not depend on row order), and
        summed exactly as Int128, so each is held to 2**-61 of that largest term.
        Where the largest |term| is 2**-3 or more the scale is 2**64,
        :func:`exact_sum`'s own: the same integers, the same bits. The scale is
        taken over every row of the query, whatever `where` masks (cutoffs
        share it). In the engine's view it is a window column over the query's
        rows, an extra pass that costs (an aggregation that reads its own
        maximum would fall back from the streaming engine); a group view takes
        the maximum in place.
        """
        factor = query_scale(term)
        if self.keys is not None and self.terms is not None:
            # The factor is a column of its own, added before the scaled terms that read it.
            window = self.term(factor.over(list(self.keys)))
            scaled = self.term(scaled_terms(term, window))
            total = (scaled if where is None else pl.when(where).then(scaled)).sum()
            return from_scaled(total, window.first())
        masked = term if where is None else pl.when(where).then(term)
        return from_scaled(scaled_terms(masked, factor).sum(), factor)

    def gain_sum(self, term: pl.Expr, where: pl.Expr | None = None) -> pl.Expr:
        """The exact sum of gain terms (each at most its gain in size, DCG's), at the query's gain scale.

        Where gains can be tiny (a ``{grade: gain}`` mapping of small gains, fractional
        grades) the terms are scaled by :attr:`gain_scale`, the query's scale of its
        largest |gain| over all its rows, so a query whose gains are all tiny keeps
        its digits (``{1: 1e-30}``); else this is :meth:`exact_sum`, the same bits.
        The scale is the query's, not the masked rows': a cutoff whose terms are all
        below 2**-61 of the query's largest gain keeps only those bits.
        """
        if self.gain_scale is None:
            return self.exact_sum(term, where)
        scaled = self.term(scaled_terms(term, self.gain_scale))
        total = (scaled if where is None else pl.when(where).then(scaled)).sum()
        return from_scaled(total, self.gain_scale if self.keys is None else self.gain_scale.first())

    def whole_query(self, name: str, aggregation: pl.Expr) -> pl.Expr:
        """A per-query `aggregation` over every row of the query, even those the family does not keep.

        The engine computes it before it drops rows, as a window (:meth:`window`) into
        the column `name`, and the value reads that column's first row; a group view
        aggregates in place. A family that reads few rows but needs one sum over all
        of them (rbp_resid's unjudged ranks) keeps its rows filtered this way.
        """
        return aggregation if self.keys is None else pl.col(name).first()

    def window(self, name: str, aggregation: pl.Expr) -> pl.Expr:
        """The engine's column for :meth:`whole_query`: `aggregation` per query, on every row."""
        assert self.keys is not None, "a window over the prepared frame's keys"
        return aggregation.over(list(self.keys)).alias(name)


VALUE = "__prm_value"  # a table or catalog metric's value column, per (keys...)


_FIXED_POINT = 2.0**64


def fixed_point(terms: pl.Expr) -> pl.Expr:
    """Each term scaled by 2**64 and truncated to an Int128: what :func:`fixed_point_sum` adds up."""
    return (terms.cast(pl.Float64) * _FIXED_POINT).cast(pl.Int128)


def fixed_point_sum(terms: pl.Expr) -> pl.Expr:
    """The exact integer state of :func:`exact_sum`: the terms scaled by 2**64, as an Int128 sum.

    States of disjoint row sets add up exactly (in Polars, or in Spark as
    Decimal(38, 0)); :func:`from_fixed_point` turns a total into the float
    :func:`exact_sum` gives for all the rows at once, bit for bit.
    """
    return fixed_point(terms).sum()


def from_fixed_point(total: pl.Expr) -> pl.Expr:
    """The float of an Int128 fixed-point total (see :func:`fixed_point_sum`)."""
    return total.cast(pl.Float64) / _FIXED_POINT


def exact_sum(terms: pl.Expr) -> pl.Expr:
    """Sum of floats that does not depend on row order, engine or partitioning.

    A float sum depends on the order of its terms, and neither a group_by
    nor the streaming engine keeps row order. Each term is scaled by 2**64
    and truncated to an Int128 (error below 2**-64 per term), the integers
    are summed exactly, and the total is converted back: the same rows give
    the same bits, whatever their order.

    Where exactness stops: terms in [2**-11, 2**63) are held exactly (their
    53 bits lie above 2**-64); smaller terms lose the bits below 2**-64 and
    terms below 2**-64 vanish, so n terms are low by up to n * 2**-64 in
    total; terms of 2**63 or more (and NaN, infinities) fail the Int128 cast,
    which :func:`polars_rankmetrics.exceptions._plan.from_polars` words. Tiny terms
    need a scale from the group's largest term: :meth:`Rows.scaled_sum` for a
    query's terms (a window: a group_by aggregation that reads its own maximum
    falls back from the streaming engine to the in-memory one, Polars 2.1),
    :func:`banded` for a mean's values (states that merge across chunks and
    Spark partitions by their band). Null terms are skipped: mask terms
    with ``pl.when(mask).then(term)``, not ``term.filter(mask)``, which makes
    the streaming engine fall back to the in-memory one.
    """
    return from_fixed_point(fixed_point_sum(terms))


# The per-group scale of :meth:`Rows.scaled_sum`: 2**s with s = 61 - floor(log2(max |term|)) rounded up
# to even, at least 64 (exact_sum's own grid) and at most 1136 (the smallest subnormal, 2**-1074, to
# 2**62). A double holds powers of two up to 2**1023 only: the scale is one factor, 2**(s / 2), applied twice.
_SCALE_LOW, _SCALE_HIGH = 32.0, 568.0
GRID_LARGEST = 2.0 ** (61 - 2 * _SCALE_LOW)  # 2**-3: a largest |term| this or more scales as exact_sum does


def query_scale(terms: pl.Expr) -> pl.Expr:
    """The factor of a group's exact sum (an aggregation): 2**(s / 2), applied twice (a scale of 2**s).

    ``s / 2 = ceil((61 - floor(log2(max |term|))) / 2)`` clipped to [32, 568]: the
    largest term scaled lies below 2**63 (``log2`` rounding up only lowers it), so
    the Int128 sum of up to 2**64 terms cannot wrap; 2**64 (:func:`exact_sum`'s
    grid) where the largest |term| is 2**-3 or more, or where there is none.
    Multiplying a term by the factor, twice, is exact.
    """
    top = terms.cast(pl.Float64).abs().max()
    half = ((61.0 - top.log(2).floor()) / 2.0).ceil().fill_nan(_SCALE_LOW).fill_null(_SCALE_LOW)
    return pl.lit(2.0).pow(half.clip(_SCALE_LOW, _SCALE_HIGH))


def scaled_terms(terms: pl.Expr, factor: pl.Expr) -> pl.Expr:
    """Each term times the group's scale (:func:`query_scale`'s factor, twice), as an Int128."""
    return (terms.cast(pl.Float64) * factor * factor).cast(pl.Int128)


def from_scaled(total: pl.Expr, factor: pl.Expr) -> pl.Expr:
    """The float of an Int128 total of :func:`scaled_terms`: divided by the factor twice (once exactly)."""
    return total.cast(pl.Float64) / factor / factor


# A sum over queries (a mean's state) in 64-bit bands: band b holds bits from 2**-(64 * b) down to
# 2**-(64 * (b + 1)); band 0 is fixed_point's (bits from 2**62). A group's state is its values' bits
# in the band of its largest |value| (its top band) and the next, each an exact Int128 sum, with
# the band's factor 2**(32 * (b + 1)) (its integers are the values times that factor twice). Band 16
# reaches 2**-1088, below the smallest double (2**-1074); zero lies in band 16.
_BAND_LAST = 16.0
_BAND_STEP = 2.0**32  # the factor of one band down


def band_factor(values: pl.Expr) -> pl.Expr:
    """The factor of the top band of `values` (an aggregation): 2**(32 * (b + 1)), b in [0, 16].

    b is the band of the largest |value| (0 from 2**-64 up; null for no values).
    """
    lead = values.cast(pl.Float64).abs().max().log(2).floor()  # the leading bit: -inf for 0
    band = ((-1.0 - lead) / 64.0).floor().clip(0.0, _BAND_LAST)
    return pl.lit(2.0).pow(band * 32.0 + 32.0)


def banded(values: pl.Expr, factor: pl.Expr, high: pl.Expr | None = None) -> tuple[pl.Expr, pl.Expr]:
    """Each value's integers in its group's top band and the next: (high, low); `factor` is the band's.

    ``scaled = value * factor * factor`` is exact (a power of two; below
    2**64 past band 0, below 2**127 in band 0 for values below 2**63);
    ``high`` is it truncated toward zero (:func:`fixed_point`'s integer in
    band 0; NaN, infinite and too large values fail the cast there, as they
    do in fixed_point) and ``low`` the next 64 bits of the fraction left
    (``scaled - high``: exact, of the value's sign). A value of a band below
    the next one is dropped: less than 2**-64 of the group's largest. The
    sums of high and low of a group, with its factor, are its state; states
    merge exactly (:func:`merge_bands`), whatever the partition. `high`, when
    given, is the column of high parts already cast, which low then reads.
    """
    scaled = values.cast(pl.Float64) * factor * factor
    high = scaled.cast(pl.Int128) if high is None else high
    return high, ((scaled - high.cast(pl.Float64)) * _FIXED_POINT).cast(pl.Int128)


def merge_bands(factor: pl.Expr, high: pl.Expr, low: pl.Expr, top: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """The (high, low) sums of states (rows of `factor`, `high`, `low`) at `top`, the least factor.

    States of the top band add up; a state one band lower (its factor
    2**32 times the top's) adds its high sum to low (its values' bits at
    that grid, exactly what a state of all the values would have summed)
    and drops its low; states further down are dropped (their values lie
    below the grid). `top` is a window or a scalar. Factors are powers of
    two: the comparisons are exact.
    """
    zero = pl.lit(0, dtype=pl.Int128)
    at_top, next_band = factor == top, factor == top * _BAND_STEP
    high_sum = pl.when(at_top).then(high).otherwise(zero).sum()
    low_sum = pl.when(at_top).then(low).when(next_band).then(high).otherwise(zero).sum()
    return high_sum, low_sum


def from_bands(factor: pl.Expr, high: pl.Expr, low: pl.Expr) -> pl.Expr:
    """The float of a banded state: ``(high + low * 2**-64) / factor**2``, divided in two steps."""
    return (high.cast(pl.Float64) + low.cast(pl.Float64) / _FIXED_POINT) / factor / factor


def exact_sum_horizontal(terms: list[pl.Expr]) -> pl.Expr:
    """Row-wise sum of float columns, exact and independent of the engine (see :func:`exact_sum`)."""
    scaled = [fixed_point(t) for t in terms]
    return pl.sum_horizontal(scaled).cast(pl.Float64) / _FIXED_POINT


def power(base: float, exponent: pl.Expr) -> pl.Expr:
    """``base ** exponent`` for a constant base, the same bits however many values there are.

    Polars's ``pow`` takes a repeated-multiplication path when the exponent
    is a single value (one query alone) and libm's ``pow`` for a column: 0.9**4
    came out one ulp apart. ``exp(exponent * ln(base))`` is elementwise for
    every length.
    """
    return (exponent.cast(pl.Float64) * math.log(base)).exp()


def ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """``numerator / denominator`` as Float64, 0 where the denominator is 0; a true division.

    Polars divides a column by a literal as a multiplication by the literal's
    reciprocal (3 * (1/5) = 0.6000000000000001) but a single group's value by
    true division (0.6): a value would then depend on which other queries
    share the call. A literal denominator is made a column (``+ 0 * len()``,
    exact) so every query gets trec_eval's true quotient, alone or together.
    """
    den = denominator.cast(pl.Float64)
    if denominator.meta.is_literal(allow_aliasing=True):
        den = den + pl.len().cast(pl.Float64) * 0.0
    return pl.when(den > 0).then(numerator.cast(pl.Float64) / den).otherwise(0.0)
