"""Which tie policies each metric family defines (conventions ``ties=``), a table, not code paths.

``"text"`` (trec_eval's order) is every metric's. ``"optimistic"`` and
``"pessimistic"`` put higher / lower grades first inside a tie
(``_engine.prepare.tie_break``): for the families listed in
:data:`EXTREMAL` that order gives the best / worst value any order of the
tied items could give (the tie tests check it against every order). For the
others (estimates such as infAP, residuals, "lower is better" and catalog
metrics) no order is "best", and the policy is refused with an error.
``"average"`` is the expected value over every order, in closed form, for
the families of :data:`AVERAGE`; any other family refuses it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping

import polars as pl

from polars_rankmetrics._kernel import Rows, exact_sum, ratio
from polars_rankmetrics._spec import Metric
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.metrics._core import ap_denominator, num_relevant, num_retrieved, within
from polars_rankmetrics.metrics.graded import idcg_at

__all__ = [
    "AVERAGE",
    "DEFINED",
    "EXTREMAL",
    "EXTREMAL_WITHOUT_DEPTH",
    "ORDER_FREE_WITHOUT_DEPTH",
    "TIE_BEFORE",
    "TIE_FIRST",
    "TIE_GAIN",
    "TIE_REL",
    "TIE_SIZE",
    "TIE_START",
    "UNDEFINED_WHY",
    "increasing",
    "refusal",
    "tie_gain",
]

EXTREMAL: frozenset[str] = frozenset(
    {
        "precision", "recall", "f1", "hit_rate", "relative_precision", "set_map",
        "r_precision", "mrr", "map", "gm_map", "bing", "dcg", "ndcg", "ndcg_rel", "rndcg",
        "iprec_at_recall", "11pt_avg", "rprec_mult", "bpref", "gm_bpref",
        "rbp", "err", "num_ret", "num_rel", "num_rel_ret", "num_q", "mar", "map_capped",
        "f_beta", "set_f", "recall_at_precision", "auroc",
    }
)  # fmt: skip
"""Families whose value the grade-first order maximises (and the grade-last order minimises)."""

EXTREMAL_WITHOUT_DEPTH: frozenset[str] = frozenset({"auroc"})
"""Families of :data:`EXTREMAL` the grade order extremises only without a depth.

With a depth, ROC AUC gains when a tie crossing the depth keeps unjudged items above it
rather than judged non-relevant ones (those fall out of the ranking and tie with the relevant
items left out, half a pair each); the grade order keeps the non-relevant ones.
"""


def increasing(gain: object) -> bool:
    """Whether a gain convention never gives a higher grade a lower gain (grade order = gain order).

    ``"linear"`` and ``"exponential"`` do; a ``{grade: gain}`` mapping (unmapped grades keep
    their linear gain: ``{1: 3, 2: 7}`` gives grade 3 a gain of 3) is checked on its keys and on
    every integer grade up to one past its largest key.

    Examples
    --------
    >>> from polars_rankmetrics.metrics._ties import increasing
    >>> increasing("exponential"), increasing({1: 1.5, 2: 2.5}), increasing({1: 3, 2: 7})
    (True, True, False)
    """
    if not isinstance(gain, Mapping):
        return True
    mapped = {float(g): float(v) for g, v in gain.items() if float(g) >= 0}
    top = max(mapped, default=0.0)
    grades = sorted({*mapped, *(float(g) for g in range(int(top) + 2))})
    values = [mapped.get(g, g) for g in grades]
    return all(a <= b for a, b in itertools.pairwise(values))


UNDEFINED_WHY: Mapping[str, str] = {
    "infap": "an estimate that is not monotone in the order of the tied items",
    "unjudged": "it counts unjudged items, which no grade order puts first or last",
    "rbp_resid": "a residual (the weight of unjudged items), not a score",
    "g": "trec_eval's G discounts by the gain found so far, so a larger gain first can lower it",
    "utility": "its coefficients say whether relevant items first raise or lower it",
    "num_nonrel_judged_ret": "a count of non-relevant items, not a score",
    "fallout": (
        "lower is better, and the grade order ranks judged non-relevant items above unjudged ones, so "
        "neither grade order gives its best or worst value; its expectation over tie orders is not "
        "implemented"
    ),
    "recall_at_precision": "a maximum over cutoffs, whose expectation over tie orders has no closed form",
    "auroc": "its expectation over tie orders (ties counting one half) is not implemented",
}
"""Why a family defines no optimistic / pessimistic value, where there is more to say than "not listed"."""


# ``ties="average"``: the exact expectation over every order of the tied items, in closed form.
#
# Inside a tie group of n retrieved items starting at position s and holding r relevant items,
# each position is relevant with probability rho = r / n and holds gain mean(gain) in expectation
# (McSherry and Najork, ECIR 2008). The group's rows, ranked in text order, occupy exactly its
# positions s .. s + n - 1, so a sum over positions is a sum over the rows, each row standing
# for its position: E[DCG@k] = sum over rows within k of mean_gain / log2(rank + 1), and so on.
# Prepare adds the per-row tie columns (the ranking's first stage for s, n, rho and the mean
# gains; the second for H and the first-hit probability); the formulas below read them.

TIE_START = "__prm_tie_start"  # s: the first position of the row's tie group (retrieved rows)
TIE_SIZE = "__prm_tie_size"  # n: the number of retrieved items in the group
TIE_REL = "__prm_tie_rel"  # rho = r / n: the share of relevant items in the group
TIE_BEFORE = "__prm_tie_before"  # H: the relevant items in the groups before (groups with r > 0)
TIE_FIRST = "__prm_tie_first"  # P(the row's position holds the first relevant item of the ranking)
TIE_GAIN = "_tie"  # suffix of a gain column: the mean gain of the row's tie group


def tie_gain(rows: Rows) -> pl.Expr:
    """The mean gain of each row's tie group, for the metric's gain convention."""
    return pl.col(rows.gain.meta.output_name() + TIE_GAIN)


def _expected_hits(rows: Rows, k: int | None) -> pl.Expr:
    """E[relevant items within the top k]: the sum of rho over the positions within k."""
    return exact_sum(pl.when(within(rows, k)).then(pl.col(TIE_REL)))


def _room(rows: Rows, k: int | None) -> pl.Expr:
    return num_retrieved(rows) if k is None else pl.lit(k, dtype=pl.UInt32)


def _precision(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(_expected_hits(rows, m.k), num_retrieved(rows) if m.k is None else pl.lit(m.k))


def _recall(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(_expected_hits(rows, m.k), num_relevant(rows))


def _f1(m: Metric, rows: Rows) -> pl.Expr:
    n = num_retrieved(rows) if m.k is None else pl.lit(m.k)
    return ratio(2 * _expected_hits(rows, m.k), n + num_relevant(rows))


def _f_beta(m: Metric, rows: Rows) -> pl.Expr:
    # Linear in the hits: (1 + b^2) E[hits@k] / (b^2 R + n).
    b2 = m.number("beta") ** 2
    n = num_retrieved(rows) if m.k is None else pl.lit(m.k)
    return ratio((1.0 + b2) * _expected_hits(rows, m.k), b2 * num_relevant(rows).cast(pl.Float64) + n)


def _set_f(m: Metric, rows: Rows) -> pl.Expr:
    # Linear in the hits too: (1 + x) E[hits] / (x R + n), trec_eval's weight x unsquared.
    x = m.number("beta")
    expected = (1.0 + x) * _expected_hits(rows, None)
    return ratio(expected, x * num_relevant(rows).cast(pl.Float64) + num_retrieved(rows))


def _relative_precision(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(_expected_hits(rows, m.k), pl.min_horizontal(_room(rows, m.k), num_relevant(rows)))


def _r_precision(_m: Metric, rows: Rows) -> pl.Expr:
    top = rows.rank <= rows.num_rel
    return ratio(exact_sum(pl.when(top).then(pl.col(TIE_REL))), num_relevant(rows))


def _hit_rate(m: Metric, rows: Rows) -> pl.Expr:
    # P(the first relevant item lies within k): the first-hit probabilities of the positions within k.
    return exact_sum(pl.when(within(rows, m.k)).then(pl.col(TIE_FIRST))).clip(0.0, 1.0)


def _mrr(m: Metric, rows: Rows) -> pl.Expr:
    return exact_sum(pl.when(within(rows, m.k)).then(pl.col(TIE_FIRST) / rows.rank.cast(pl.Float64)))


def _map(m: Metric, rows: Rows) -> pl.Expr:
    # E[rel(p) * (1 + relevant above p)] / p at each position p of a group (s, n, r):
    # rho * (1 + H) from the groups above, plus (p - s) * r (r - 1) / (n (n - 1)) from the group itself.
    rho, n = pl.col(TIE_REL), pl.col(TIE_SIZE).cast(pl.Float64)
    r = rho * n
    pair = pl.when(n > 1).then(r * (r - 1.0) / (n * (n - 1.0))).otherwise(0.0)
    above = (rows.rank.cast(pl.Float64) - pl.col(TIE_START).cast(pl.Float64)) * pair
    term = (rho * (1.0 + pl.col(TIE_BEFORE).cast(pl.Float64)) + above) / rows.rank.cast(pl.Float64)
    # R and min(k, R) do not depend on the order; the relevant items found do (refused at a cutoff).
    return ratio(exact_sum(pl.when(within(rows, m.k) & (rho > 0)).then(term)), ap_denominator(rows, m.k))


def _dcg_at(rows: Rows, k: int | None) -> pl.Expr:
    gain = tie_gain(rows)
    return exact_sum(
        pl.when(within(rows, k) & (gain != 0)).then(gain / (rows.rank.cast(pl.Float64) + 1.0).log(2))
    )


def _dcg(m: Metric, rows: Rows) -> pl.Expr:
    return _dcg_at(rows, m.k)


def _ndcg(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(_dcg_at(rows, m.k), idcg_at(rows, m.k))


Value = Callable[[Metric, Rows], pl.Expr]

AVERAGE: Mapping[str, Value | None] = {
    "precision": _precision,
    "recall": _recall,
    "f1": _f1,
    "f_beta": _f_beta,
    "set_f": _set_f,
    "relative_precision": _relative_precision,
    "r_precision": _r_precision,
    "hit_rate": _hit_rate,
    "mrr": _mrr,
    "map": _map,
    "dcg": _dcg,
    "ndcg": _ndcg,
    # The same value under every order of the ties (without a depth): the family's own value.
    "set_map": None,
    "utility": None,
    "num_ret": None,
    "num_rel": None,
    "num_rel_ret": None,
    "num_q": None,
    "num_nonrel_judged_ret": None,
}
"""The expected value of each family that defines ``ties="average"`` (None: order-free, its own value)."""

ORDER_FREE_WITHOUT_DEPTH: frozenset[str] = frozenset(
    {"set_map", "utility", "num_rel_ret", "num_nonrel_judged_ret"}
)
"""Families of :data:`AVERAGE` free of the order only without a depth (which cuts tied items)."""

DEFINED: Mapping[str, frozenset[str]] = {
    "optimistic": EXTREMAL,
    "pessimistic": EXTREMAL,
    "average": frozenset(AVERAGE),
}
"""The families that define each tie policy besides ``"text"``."""


def refusal(metric: Metric, conventions: Conventions) -> tuple[frozenset[str], str] | None:
    """Why `metric` cannot take the conventions' tie policy, or None when it can.

    Returns the families that do define the policy (for the message) and the reason; every
    family-specific refusal is written here, none in the engine.
    """
    policy, family = conventions.ties, metric.spec.name
    defined = DEFINED[policy]
    if family not in defined:
        return defined, UNDEFINED_WHY.get(family, "")
    if family == "map" and metric.k is not None and conventions.ap_denominator == "found":
        # The relevant items found in the top k vary with the order of a tie across the cutoff:
        # the expectation of the ratio has no closed form, and pushing a relevant item past the
        # cutoff can raise the ratio, so the grade order is no extreme either.
        why = (
            "with ap_denominator='found' the relevant items found at the cutoff depend on the order "
            "of the ties; average precision without a cutoff takes it"
        )
        return defined - {"map"}, why
    gain = metric.gain() or conventions.gain
    if policy != "average" and metric.spec.graded and not increasing(gain):
        return (
            defined,
            "its gains do not increase with the grade, so the grade order is not the best or worst",
        )
    if policy != "average" and conventions.depth is not None and family in EXTREMAL_WITHOUT_DEPTH:
        why = f"with depth={conventions.depth} the grade order is not its best or worst order"
        return defined - EXTREMAL_WITHOUT_DEPTH, why
    if policy == "average" and conventions.depth is not None and family in ORDER_FREE_WITHOUT_DEPTH:
        why = f"with depth={conventions.depth} its value depends on which tied items the depth cuts"
        return defined - ORDER_FREE_WITHOUT_DEPTH, why
    return None
