"""trec_eval's measures as this command reads them: the one table, its nicknames and the -m syntax.

``MEASURES`` lists every measure the command prints, in trec_eval's order, with
trec_eval's facts about it (its parameter syntax, defaults, which lines it
prints): each is declared on its family's spec (``MetricSpec.measures``, a
``TrecMeasure``), so a family and its trec_eval measures are one declaration.
A line's metric is ``prm.parse`` of trec_eval's own line name (``P_5``,
``ndcg_cut_10``, ``recip_rank``) where the registry reads it. ``cli._specs``
reads ``-m`` specs (``P.5,10``, ``ndcg.1=3,2=9``, ``all_trec``) into output lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import polars_rankmetrics as prm
from polars_rankmetrics import _spec
from polars_rankmetrics._registry import SPECS

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

MeasureParams = _spec.MeasureParams  # how a measure reads its parameters (trec_eval's meas_init.c)
Average = _spec.MeasureAverage  # how trec_eval's `all` line combines the per-query values (meas_avg.c)


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


def _graded(family: str) -> Callable[[dict[str, float]], prm.Metric]:
    """A gain-based measure: ``level=gain`` pairs whose level is an integer map gains."""

    def build(pairs: dict[str, float]) -> prm.Metric:
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


def _builder(spec: _spec.MetricSpec, measure: _spec.TrecMeasure) -> Callable[..., prm.Metric]:
    """The metric of one parameter value of `measure`, a measure of `spec`'s family.

    The registry reads the line name of a measure without parameters (``map``)
    or with cutoffs (``P_5``); a level is the constructor's one argument; pairs
    are gains, or rbp's persistence; numbers are the family's own (``build``).
    """
    constructor: Callable[..., prm.Metric] = getattr(prm, spec.python_name)
    if measure.build is not None:
        return measure.build
    if measure.params == "none":
        return _fixed(measure.name)
    if measure.params == "cutoffs":
        return _cut(measure.name)
    if measure.params == "levels":
        return constructor
    if any(p.kind == "gain" for p in spec.params):
        return _graded(spec.name)
    return _persistence(constructor)


def _measures() -> tuple[Measure, ...]:
    """Every measure the families declare (their ``measures``), in trec_eval's order, after runid."""
    declared = sorted(
        ((measure, spec) for spec in SPECS for measure in spec.measures), key=lambda pair: pair[0].position
    )
    built = [
        Measure(
            m.name, _builder(spec, m), m.params, m.default, m.per_query, m.summary, m.average, m.empty_nan
        )
        for m, spec in declared
    ]
    return (Measure("runid", None, per_query=False, average="none"), *built)


# Every measure this command prints, in trec_eval's order (measures.c,
# te_trec_measures): trec_eval prints measures in this order whatever the
# order of its -m flags. Each is declared on its family's spec.
MEASURES: tuple[Measure, ...] = _measures()

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
