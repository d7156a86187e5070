"""The unsupervised fusion methods: each run's value for an item, then one aggregation per item.

Definitions are ranx's (``ranx.fusion``). For an item x of a query, with
s_r(x) its normalised score in run r, r(x) its 1-based rank there, R(x) the
runs that list it and n the number of runs:

===============  ===============================================================
``sum``          sum over R(x) of s_r(x)                   (CombSUM, Fox & Shaw 1993)
``mnz``          |R(x)| * sum s_r(x)                        (CombMNZ, Fox & Shaw 1993)
``anz``          sum s_r(x) / |R(x)|                        (CombANZ, Fox & Shaw 1993)
``max``/``min``  max/min of s_r(x), with -1e9/1e9 for a run missing x (CombMAX/MIN)
``med``          the median of s_r(x) over R(x)             (CombMED, Fox & Shaw 1993)
``gmnz``         |R(x)|**gamma * sum s_r(x)                 (CombGMNZ, Lee 1997)
``wsum``         sum w_r s_r(x)
``wmnz``         sum s_r(x) * sum over R(x) of w_r          (WMNZ, Wu 2012)
``mixed``        sqrt(|R(x)|) * sum w_r s_r(x)              (Mixed, Wu 2012)
``rrf``          sum 1 / (k + r(x))                         (Cormack et al. 2009)
``isr``          |R(x)| * sum 1 / r(x)**2                   (Mourão et al. 2015)
``log_isr``      log(|R(x)|) * sum 1 / r(x)**2              (Mourão et al. 2015)
``logn_isr``     log(|R(x)| + sigma) * sum 1 / r(x)**2      (Mourão et al. 2015)
``rbc``          sum (1 - phi) * phi**(r(x) - 1)            (Bailey et al. 2017)
``bordafuse``    sum over every run of its Borda points: c - r(x) + 1 when listed,
                 (c - len_r + 1) / 2 otherwise, c the query's candidates (Aslam & Montague 2001)
``w_bordafuse``  the same points, weighted by w_r
===============  ===============================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from polars_rankmetrics._kernel import exact_sum
from polars_rankmetrics.fusion._normalize import (
    CANDIDATES,
    LEN,
    PRESENT,
    RANK,
    RUN,
    VALUE,
    Layout,
    densified,
)

__all__ = [
    "BITS_OR",
    "BITS_SUM",
    "MIN_ODD",
    "RUNS",
    "TERM",
    "WEIGHT",
    "combined",
    "listed",
    "run_bits",
    "terms",
]

TERM = "__fuse_term"  # one run's value for the item
WEIGHT = "__fuse_weight"  # the run's weight
RUNS = "__fuse_runs"  # the number of runs
BITS_SUM, BITS_OR = "__fuse_bits_sum", "__fuse_bits_or"  # run_bits()
_BIT = "__fuse_bit"
MIN_ODD = -6.906754778648554  # log(0.001 / 0.999): bayesfuse's log odds for an item a run misses

_PER_RANK = {"rrf", "isr", "log_isr", "logn_isr", "rbc"}
_BORDA = {"bordafuse", "w_bordafuse"}
_WEIGHTED_TERM = {"wsum", "mixed", "w_bordafuse"}
_PARAM = {"logn_isr": "sigma", "gmnz": "gamma"}  # methods whose aggregation reads a parameter
_PARAM_COLUMN = "__fuse_param"
_POS = "__fuse_middle"  # 1.0 on the item's middle term(s), for the median


def listed(lf: pl.LazyFrame, method: str, lay: Layout) -> pl.LazyFrame:
    """The rows a method's terms are over: the runs' lists, or every candidate in every run (Borda)."""
    return densified(lf, lay) if method in _BORDA else lf


def terms(lf: pl.LazyFrame, method: str, params: Mapping[str, pl.Expr]) -> pl.LazyFrame:
    """`lf` (:func:`listed`, with WEIGHT for weighted methods) with each run's TERM for the item."""
    r = pl.col(RANK)
    if method in _BORDA:  # on the candidate grid (`listed`)
        c, n = pl.col(CANDIDATES), pl.col(LEN)
        term = pl.when(pl.col(PRESENT)).then(c - r + 1).otherwise((c - n + 1) / 2)
    elif method == "rrf":
        term = 1.0 / (params["k"] + r)
    elif method == "rbc":
        phi = params["phi"]
        term = (1.0 - phi) * phi.pow(r - 1)
    elif method in _PER_RANK:
        term = 1.0 / r.cast(pl.Float64).pow(2)
    else:
        term = pl.col(VALUE)
    if method in _WEIGHTED_TERM:
        term = pl.col(WEIGHT) * term
    return lf.with_columns(term.cast(pl.Float64).alias(TERM))


def _middle(item_keys: list[str]) -> pl.Expr:
    """1.0 on the item's middle term(s) by value, else 0.0 (a median aggregation leaves streaming)."""
    pos = pl.col(TERM).rank("ordinal").over(item_keys)
    count = pl.len().over(item_keys)
    return ((pos == (count + 1) // 2) | (pos == count // 2 + 1)).cast(pl.Float64)


def run_bits(names: pl.Series) -> pl.Expr:
    """Each row's run as a bit, 2**j for run j of `names` (the runs' distinct names, at most 63).

    :func:`combined` sums the item's bits (BITS_SUM) and takes their bitwise
    or (BITS_OR): the two differ only when a run lists the item twice.
    """
    bits = [1 << j for j in range(len(names))]
    return pl.col(RUN).replace_strict(names, bits, return_dtype=pl.UInt64).alias(_BIT)


def combined(  # noqa: PLR0913
    lf: pl.LazyFrame,
    method: str,
    params: Mapping[str, pl.Expr],
    lay: Layout,
    keys: Sequence[str] = (),
    *,
    bits: pl.Expr | None = None,
) -> pl.LazyFrame:
    """One row per (keys..., query, item) with the fused score under the name VALUE.

    With `bits` (:func:`run_bits`), also BITS_SUM and BITS_OR.
    """
    item_keys = [*keys, lay.query, lay.item]
    if method in {"max", "min", "bayesfuse"}:  # they read the number of runs
        runs = pl.col(RUN).n_unique()
        lf = lf.with_columns((runs.over(keys) if keys else runs).alias(RUNS))
    if method == "med":
        lf = lf.with_columns(_middle(item_keys).alias(_POS))
    if method in _PARAM:  # a column: a grid search varies it per candidate
        lf = lf.with_columns(params[_PARAM[method]].alias(_PARAM_COLUMN))
    # An exact sum over the runs: a float sum's last bit depends on the order the rows arrive in,
    # which flips near-ties (and so the rankings) from one call to the next.
    s, c, n, p = exact_sum(pl.col(TERM)), pl.len(), pl.col(RUNS).first(), pl.col(_PARAM_COLUMN).first()
    score = {
        "mnz": s * c,
        "isr": s * c,
        "anz": s / c,
        "log_isr": s * c.cast(pl.Float64).log(),
        "logn_isr": s * (c + p).log(),
        "gmnz": s * c.cast(pl.Float64).pow(p),
        "wmnz": s * pl.col(WEIGHT).sum(),
        "mixed": s * c.cast(pl.Float64).sqrt(),
        "max": pl.when(c < n).then(pl.max_horizontal(pl.col(TERM).max(), -1e9)).otherwise(pl.col(TERM).max()),
        "min": pl.when(c < n).then(pl.min_horizontal(pl.col(TERM).min(), 1e9)).otherwise(pl.col(TERM).min()),
        "med": (pl.col(TERM) * pl.col(_POS)).sum() / pl.col(_POS).sum(),
        "bayesfuse": s + (n - c) * MIN_ODD,
    }.get(method, s)
    checks = []
    if bits is not None:  # a column first: an expression inside the aggregation runs group by group
        lf = lf.with_columns(bits)
        checks = [pl.col(_BIT).sum().alias(BITS_SUM), pl.col(_BIT).bitwise_or().alias(BITS_OR)]
    return lf.group_by(item_keys).agg(score.cast(pl.Float64).alias(VALUE), *checks)
