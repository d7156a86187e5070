"""Which tie policies each metric family defines (conventions ``ties=``), a table, not code paths.

``"text"`` (trec_eval's order) is every metric's. ``"optimistic"`` and
``"pessimistic"`` put higher / lower grades first inside a tie
(``_engine.prepare.tie_break``): for the families listed in
:data:`EXTREMAL` that order gives the best / worst value any order of the
tied items could give (the tie tests check it against every order). For the
others (estimates such as infAP, residuals, "lower is better" and catalog
metrics) no order is "best", and the policy is refused with an error.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["DEFINED", "EXTREMAL", "UNDEFINED_WHY"]

EXTREMAL: frozenset[str] = frozenset(
    {
        "precision", "recall", "f1", "hit_rate", "relative_precision", "set_map", "utility",
        "r_precision", "mrr", "map", "gm_map", "bing", "dcg", "ndcg", "ndcg_rel", "rndcg",
        "iprec_at_recall", "11pt_avg", "rprec_mult", "bpref", "gm_bpref", "num_nonrel_judged_ret",
        "rbp", "err", "num_ret", "num_rel", "num_rel_ret", "num_q", "mar", "map_capped",
    }
)  # fmt: skip
"""Families whose value the grade-first order maximises (and the grade-last order minimises)."""

UNDEFINED_WHY: Mapping[str, str] = {
    "infap": "an estimate that is not monotone in the order of the tied items",
    "unjudged": "it counts unjudged items, which no grade order puts first or last",
    "rbp_resid": "a residual (the weight of unjudged items), not a score",
    "g": "trec_eval's G discounts by the gain found so far, so a larger gain first can lower it",
}
"""Why a family defines no optimistic / pessimistic value, where there is more to say than "not listed"."""

DEFINED: Mapping[str, frozenset[str]] = {
    "optimistic": EXTREMAL,
    "pessimistic": EXTREMAL,
    "average": frozenset(),
}
"""The families that define each tie policy besides ``"text"``."""
