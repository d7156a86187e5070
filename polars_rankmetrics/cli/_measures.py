"""trec_eval's measures as this command reads them: the one table, its nicknames and the -m syntax.

``MEASURES`` lists every measure the command prints, in trec_eval's order, with
trec_eval's facts about it (its parameter syntax, defaults, which lines it
prints). Which library metric computes a measure is the registry's to say: a
line's metric is ``prm.parse`` of trec_eval's own line name (``P_5``,
``ndcg_cut_10``, ``recip_rank``), so the two never hold separate tables of
names. ``cli._specs`` reads ``-m`` specs (``P.5,10``, ``ndcg.1=3,2=9``,
``all_trec``) into output lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import polars_rankmetrics as prm

__all__ = [
    "BY_NAME",
    "MEASURES",
    "NICKNAMES",
    "NOT_SUPPORTED",
    "Average",
    "Line",
    "Measure",
    "MeasureParams",
    "supported",
]

# How a measure reads its parameters (trec_eval's meas_init.c):
#   none     no parameter ("map")
#   cutoffs  integer cutoffs, sorted, one line each ("P.5,10" -> P_5, P_10)
#   levels   real cutoffs, sorted, one line each ("iprec_at_recall..1" -> iprec_at_recall_0.10)
#   numbers  real parameters in the order given, one line ("utility.2,-1,0,0" -> utility_2,-1,0,0)
#   pairs    name=value parameters, one line ("ndcg.1=3,2=9" -> ndcg_1=3,2=9)
MeasureParams = Literal["none", "cutoffs", "levels", "numbers", "pairs"]

# How trec_eval's `all` line combines the per-query values (meas_avg.c and the m_*.c calc_avg functions):
#   mean    a running double sum over the queries in trec_eval's order, divided by their number
#   gm      the same over log(max(value, 1e-5)), then exp (gm_map, gm_bpref)
#   sum     the sum of the counts (num_ret, num_rel_ret, num_nonrel_judged_ret)
#   num_rel the sum of the counts; with -c the judgments graded above 0, whatever -l (m_num_rel.c)
#   count   the number of queries (num_q)
#   none    no average (runid, relstring)
Average = Literal["mean", "gm", "sum", "num_rel", "count", "none"]


@dataclass(frozen=True)
class Measure:
    """One trec_eval measure: its name, parameters and the library metric it prints.

    Attributes
    ----------
    name
        trec_eval's measure name, as written after ``-m``.
    build
        The library metric for one parameter value: a cutoff (``cutoffs``),
        a level (``levels``), the tuple of numbers (``numbers``), the
        ``{name: value}`` pairs (``pairs``), or None (``none``). None only
        for ``runid``, which is text.
    params
        How the measure reads parameters (see ``MeasureParams``).
    default
        The parameters trec_eval uses when none are given.
    per_query, summary
        Whether trec_eval prints the measure per query (``-q``) and in the
        ``all`` lines.
    average
        How the ``all`` line combines the per-query values (see ``Average``).
    empty_nan
        Whether trec_eval's value of an empty ranking (``-J`` leaving nothing)
        is 0/0 at the recall levels that round to no relevant document
        (``iprec_at_recall``, ``11pt_avg``): trec_eval prints ``-nan``.
    """

    name: str
    build: Callable[..., prm.Metric] | None
    params: MeasureParams = "none"
    default: tuple[float, ...] = ()
    per_query: bool = True
    summary: bool = True
    average: Average = "mean"
    empty_nan: bool = False


@dataclass(frozen=True)
class Line:
    """One output line per query (or ``all``): the name trec_eval prints and the metric."""

    name: str
    measure: Measure
    metric: prm.Metric | None  # None for runid

    @property
    def column(self) -> str:
        """The evaluation's output column of the metric."""
        return str(self.metric)


def _fixed(spelling: str) -> Callable[[None], prm.Metric]:
    return lambda _: prm.parse(spelling)


def _cut(measure: str) -> Callable[[int], prm.Metric]:
    """A cutoff measure: the registry reads trec_eval's line name ``P_5``."""
    return lambda k: prm.parse(f"{measure}_{k}")


def _graded(measure: str) -> Callable[[dict[str, float]], prm.Metric]:
    """A gain-based measure: ``level=gain`` pairs whose level is an integer map gains."""

    def build(pairs: dict[str, float]) -> prm.Metric:
        family = prm.parse(measure).name  # the registry's family for trec_eval's name
        gains = _gains(pairs)
        return prm.parse(family + (f"({','.join(f'{g}={v!r}' for g, v in gains.items())})" if gains else ""))

    return build


def _persistence(build: Callable[[float], prm.Metric]) -> Callable[[dict[str, float]], prm.Metric]:
    """The rbp measures: the ``p=`` pair sets the persistence."""

    def metric(pairs: dict[str, float]) -> prm.Metric:
        if _gains(pairs):
            raise prm.UnknownMetricError.bad_measure(
                None, "rbp gains (level=gain parameters) are not supported; only p=..."
            )
        return build(pairs.get("p", 0.9))

    return metric


def _relstring(numbers: tuple[float, ...]) -> prm.Metric:
    length = int(numbers[0])  # trec_eval truncates the length to an integer
    if length < 1:
        raise prm.UnknownMetricError.bad_measure(None, f"the length must be at least 1, got {numbers[0]:g}")
    return prm.relstring(length)


def _utility(numbers: tuple[float, ...]) -> prm.Metric:
    if len(numbers) != 4:
        raise prm.UnknownMetricError.bad_measure(None, f"utility takes 4 coefficients, got {len(numbers)}")
    return prm.utility(*numbers)


def _eleven_point(levels: tuple[float, ...]) -> prm.Metric:
    if list(levels) != sorted(levels):
        # trec_eval's 11pt_avg scans the levels assuming increasing order; its value for others differs.
        raise prm.UnknownMetricError.bad_measure(None, "the recall levels must be in increasing order")
    return prm.eleven_point_average(levels)


def _set_f(numbers: tuple[float, ...]) -> prm.Metric:
    # trec_eval's beta weighs recall unsquared, (1 + b) P R / (b P + R): prm.set_f, not f_beta.
    return prm.set_f(beta=numbers[0])


_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # P, recall, ndcg_cut, map_cut, relative_P
_TENTHS = tuple(i / 10 for i in range(11))  # iprec_at_recall, 11pt_avg
_FIFTHS = tuple(i / 5 for i in range(1, 11))  # Rprec_mult

# Every measure this command prints, in trec_eval's order (measures.c,
# te_trec_measures): trec_eval prints measures in this order whatever the
# order of its -m flags. The one table of measures.
MEASURES: tuple[Measure, ...] = (
    Measure("runid", None, per_query=False, average="none"),
    Measure("num_q", _fixed("num_q"), per_query=False, average="count"),
    Measure("num_ret", _fixed("num_ret"), average="sum"),
    Measure("num_rel", _fixed("num_rel"), average="num_rel"),
    Measure("num_rel_ret", _fixed("num_rel_ret"), average="sum"),
    Measure("map", _fixed("map")),
    Measure("gm_map", _fixed("gm_map"), per_query=False, average="gm"),
    Measure("Rprec", _fixed("Rprec")),
    Measure("bpref", _fixed("bpref")),
    Measure("recip_rank", _fixed("recip_rank")),
    Measure("iprec_at_recall", prm.iprec_at_recall, "levels", _TENTHS, empty_nan=True),
    Measure("P", _cut("P"), "cutoffs", _CUTOFFS),
    Measure("relstring", _relstring, "numbers", (10,), summary=False, average="none"),
    Measure("recall", _cut("recall"), "cutoffs", _CUTOFFS),
    Measure("infAP", _fixed("infAP")),
    Measure("gm_bpref", _fixed("gm_bpref"), per_query=False, average="gm"),
    Measure("Rprec_mult", prm.rprec_mult, "levels", _FIFTHS),
    Measure("utility", _utility, "numbers", (1, -1, 0, 0)),
    Measure("11pt_avg", _eleven_point, "numbers", _TENTHS, empty_nan=True),
    Measure("binG", _fixed("binG")),
    Measure("G", _graded("G"), "pairs"),
    Measure("dcg", _graded("dcg"), "pairs"),
    Measure("ndcg", _graded("ndcg"), "pairs"),
    Measure("ndcg_rel", _graded("ndcg_rel"), "pairs"),
    Measure("Rndcg", _graded("Rndcg"), "pairs"),
    Measure("ndcg_cut", _cut("ndcg_cut"), "cutoffs", _CUTOFFS),
    Measure("map_cut", _cut("map_cut"), "cutoffs", _CUTOFFS),
    Measure("relative_P", _cut("relative_P"), "cutoffs", _CUTOFFS),
    Measure("success", _cut("success"), "cutoffs", (1, 5, 10)),
    Measure("set_P", _fixed("set_P")),
    Measure("set_relative_P", _fixed("set_relative_P")),
    Measure("set_recall", _fixed("set_recall")),
    Measure("set_map", _fixed("set_map")),
    Measure("set_F", _set_f, "numbers", (1,)),
    Measure("num_nonrel_judged_ret", _fixed("num_nonrel_judged_ret"), average="sum"),
    Measure("rbp", _persistence(prm.rbp), "pairs"),
    Measure("rbp_resid", _persistence(prm.rbp_resid), "pairs"),
    Measure("unj", _cut("unj"), "cutoffs", (5, 10, 20)),
)

# trec_eval's nicknames (measures.c), in its spelling.
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
        "bpref", "recip_rank", "iprec_at_recall", "P",
    ),
    "set": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
        "set_relative_P", "set_map", "set_F",
    ),
    "all_trec": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
        "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp",
        "rbp_resid", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P",
        "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G",
        "set_P", "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret",
    ),
}  # fmt: skip

# trec_eval measures and nicknames this command does not print, and why.
_PREFS_MEASURES = (
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
    "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg",
    "P_avgjg", "Rprec_mult_avgjg", "all_prefs", "prefs", "qrels_jg",
)  # fmt: skip
NOT_SUPPORTED: dict[str, str] = {
    "ideal_dcg": "polars_rankmetrics does not compute it yet",
    "yaap": "polars_rankmetrics does not compute it yet",
    **dict.fromkeys(
        _PREFS_MEASURES,
        "it needs trec_eval's preference or jg judgment formats (-R), which this command does not read",
    ),
}

BY_NAME: dict[str, Measure] = {m.name: m for m in MEASURES}


def supported() -> str:
    """Every measure name and nickname, as the error messages list them."""
    return ", ".join([*NICKNAMES, *BY_NAME])


def _gains(pairs: dict[str, float]) -> dict[int, float] | None:
    """The ``level=gain`` pairs; trec_eval ignores a name that is not an integer (``p=``)."""
    gains = {int(name): gain for name, gain in pairs.items() if re.fullmatch(r"[+-]?\d+", name)}
    if any(level < 0 for level in gains):
        # trec_eval would give that gain to unjudged documents (its levels -1 and -2).
        raise prm.UnknownMetricError.bad_measure(None, "gains of negative relevance levels are not supported")
    return gains or None
