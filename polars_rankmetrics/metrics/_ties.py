"""Tie policies (conventions ``ties=``): the columns they read and the one rule that refuses them.

``"text"`` (trec_eval's order) is every metric's. ``"optimistic"`` and
``"pessimistic"`` put higher / lower grades first inside a tie
(``_engine.prepare.tie_break``): for the families whose spec declares
``TieSupport(extremal=True)`` that order gives the best / worst value any order of
the tied items could give (the tie tests check it against every order). For
the others (estimates such as infAP, residuals, "lower is better" and catalog
metrics) no order is "best", and the policy is refused with an error.
``"average"`` is the expected value over every order, in closed form, for the
families whose spec gives ``TieSupport(average=...)`` (written beside each family,
from the tie columns below); any other family refuses it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping

import polars as pl

from polars_rankmetrics._kernel import Rows, exact_sum
from polars_rankmetrics._spec import Metric, MetricSpec
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.metrics._core import discount, num_retrieved, within

__all__ = [
    "TIE_BEFORE",
    "TIE_FIRST",
    "TIE_GAIN",
    "TIE_REL",
    "TIE_SIZE",
    "TIE_START",
    "defining",
    "expected_dcg_at",
    "expected_hits",
    "increasing",
    "refusal",
    "room",
    "tie_gain",
]


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


def expected_hits(rows: Rows, k: int | None) -> pl.Expr:
    """E[relevant items within the top k]: the sum of rho over the positions within k."""
    return exact_sum(pl.when(within(rows, k)).then(pl.col(TIE_REL)))


def room(rows: Rows, k: int | None) -> pl.Expr:
    return num_retrieved(rows) if k is None else pl.lit(k, dtype=pl.UInt32)


def expected_dcg_at(rows: Rows, k: int | None) -> pl.Expr:
    """E[DCG@k]: the mean gain of each row's tie group over the discount of its rank."""
    gain = tie_gain(rows)
    term = gain / discount(rows.rank, rows.conventions.dcg_discount)
    return rows.gain_sum(pl.when(gain != 0).then(term), within(rows, k))


def defining(specs: Iterable[MetricSpec], policy: str, conventions: Conventions) -> frozenset[str]:
    """The families of `specs` that define `policy` under the conventions' depth (for the error)."""
    depth = conventions.depth is not None
    names = set()
    for spec in specs:
        ties = spec.ties
        if not ties.defines(policy):
            continue
        if depth and policy != "average" and not ties.extremal_with_depth:
            continue
        if depth and policy == "average" and ties.average == "order-free" and not ties.order_free_with_depth:
            continue
        names.add(spec.name)
    return frozenset(names)


def refusal(
    metric: Metric, conventions: Conventions, specs: Iterable[MetricSpec]
) -> tuple[frozenset[str], str] | None:
    """Why `metric` cannot take the conventions' tie policy, or None when it can.

    Returns the families of `specs` that do define the policy (for the message)
    and the reason: the family's ``TieSupport`` says which policies it defines and why
    not the others; this rule adds what holds for every family (gains that do
    not grow with the grade, a depth that cuts the tied items).
    """
    policy, ties = conventions.ties, metric.spec.ties
    specs = tuple(specs)
    defined = defining(specs, policy, conventions)
    if not ties.defines(policy):
        return defined, ties.why
    own = ties.refuse(metric, conventions) if ties.refuse is not None else None
    if own:
        return defined - {metric.spec.name}, own
    gain = metric.gain() or conventions.gain
    if policy != "average" and metric.spec.graded and not increasing(gain):
        return (
            defined,
            "its gains do not increase with the grade, so the grade order is not the best or worst",
        )
    if metric.spec.name not in defined:  # defined only without a depth
        if policy == "average":
            why = f"with depth={conventions.depth} its value depends on which tied items the depth cuts"
        else:
            why = f"with depth={conventions.depth} the grade order is not its best or worst order"
        return defined, why
    return None
