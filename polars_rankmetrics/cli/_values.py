"""trec_eval's arithmetic on the library's per-query values: its ``-nan`` and its ``all`` line.

The library computes each query's value; what trec_eval prints from them
follows trec_eval 10.0's own arithmetic, which this module reproduces:

- its queries are the judged ones, in ``strcmp`` order of their ids (it reads
  the qrels sorted, trec_eval.c's main loop);
- the ``all`` line of a measure is a running double sum over those queries, in
  that order, divided by their number (``te_acc_meas_s``, ``te_calc_avg_meas_s``):
  not the exact mean the library gives, so it can round the other way in the
  fourth decimal; ``gm_map`` and ``gm_bpref`` sum ``log(max(value, 1e-5))`` and
  take ``exp`` of the mean; the counts are summed, and with ``-c`` ``num_rel``
  counts every judgment graded above 0 whatever ``-l`` (``m_num_rel.c``);
- with ``-J``, a query left with nothing retrieved has interpolated precision
  0/0 at every recall level that rounds (``lround(level * num_rel)``) to no
  relevant document, and so has ``11pt_avg``: trec_eval prints ``-nan``, and the
  NaN carries into the ``all`` line's sum.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

from polars_rankmetrics.cli._measures import Line

__all__ = [
    "MIN_GEO_MEAN",
    "complete_num_rel",
    "empty_nan_levels",
    "is_empty_nan",
    "lround",
    "summary_value",
    "trec_order",
]

MIN_GEO_MEAN = 0.00001  # trec_eval.h: the floor of a value before the log of the geometric means


def trec_order(queries: Sequence[str]) -> list[str]:
    """The queries in trec_eval's order: ``strcmp`` of the ids, which is code-point order in UTF-8."""
    return sorted(queries, key=lambda q: q.encode("utf-8", "surrogateescape"))


def lround(x: float) -> int:
    """C's ``lround``: to the nearest integer, halves away from zero (``x - trunc(x)`` is exact)."""
    whole = math.trunc(x)
    frac = x - whole
    if frac >= 0.5:
        return whole + 1
    if frac <= -0.5:
        return whole - 1
    return whole


def empty_nan_levels(line: Line) -> tuple[float, ...]:
    """The recall levels of an interpolated-precision line (``iprec_at_recall``, ``11pt_avg``), else ()."""
    if not line.measure.empty_nan or line.metric is None:
        return ()
    name = line.metric.spec.params[0].name
    return (line.metric.number(name),) if name == "recall" else line.metric.numbers(name)


def is_empty_nan(levels: tuple[float, ...], num_rel: int) -> bool:
    """Whether an empty ranking's value is 0/0: some level rounds to no relevant document."""
    return any(lround(level * num_rel) <= 0 for level in levels)


def summary_value(line: Line, values: Sequence[object], complete_num_rel: int | None) -> object:
    """The ``all`` value of a line from its per-query values in trec_eval's order.

    `complete_num_rel` is, with ``-c``, the number of judgments graded above
    0 (None without ``-c``).
    """
    average = line.measure.average
    if average == "none":  # runid prints the run's name, relstring no all line
        return None
    if average == "count":
        return len(values)
    if average == "num_rel" and complete_num_rel is not None:
        return complete_num_rel
    if average in {"sum", "num_rel"}:
        return sum(int(v) for v in values)  # type: ignore[call-overload]
    total = 0.0
    for value in values:  # a running double sum, in order, as trec_eval accumulates
        v = float(value)  # type: ignore[arg-type]
        total += math.log(max(v, MIN_GEO_MEAN)) if average == "gm" else v
    mean = total / len(values) if values else total
    return math.exp(mean) if average == "gm" else mean


def complete_num_rel(qrels: pl.DataFrame, relevance: str) -> int:
    """``num_rel`` on the ``all`` line with ``-c``: every judgment graded above 0, whatever ``-l``."""
    return int((qrels[relevance] > 0).sum())
