"""trec_eval's ``-m`` specs (``P.5,10``, ``ndcg.1=3,2=9``, ``official``) read into output lines."""

from __future__ import annotations

import re
from collections.abc import Sequence

import polars_rankmetrics as prm
from polars_rankmetrics.cli._measures import (
    BY_NAME,
    MEASURES,
    NICKNAMES,
    NOT_SUPPORTED,
    Line,
    Measure,
    supported,
)

__all__ = ["parse_measures"]

_INT = re.compile(r"\s*[+-]?\d+")
_REAL = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _number(text: str, pattern: re.Pattern[str]) -> float:
    """Read a parameter as C's atol/atof do (the leading number: cutoff '23.4' is 23), but never garbage."""
    match = pattern.match(text)
    if match is None:
        msg = f"parameter {text!r} is not a number"
        raise prm.UnknownMetricError(msg)
    return float(match.group())


def _unique(values: list[float]) -> list[float]:
    if len(set(values)) < len(values):
        msg = "duplicate cutoffs"
        raise prm.UnknownMetricError(msg)
    return values


def _cutoffs(text: str) -> list[int]:
    values = _unique(sorted(_number(p, _INT) for p in text.split(",")))
    if values[0] <= 0:
        msg = "cutoffs must be positive"
        raise prm.UnknownMetricError(msg)
    return [int(v) for v in values]


def _levels(text: str) -> list[float]:
    return _unique(sorted(_number(p, _REAL) for p in text.split(",")))


def _numbers(text: str) -> tuple[float, ...]:
    return tuple(_number(p, _REAL) for p in text.split(","))


def _pairs(text: str) -> dict[str, float]:
    pairs = [part.split("=") for part in text.split(",")]
    if any(len(pair) != 2 for pair in pairs):
        msg = "parameters must be name=value pairs, separated by ','"
        raise prm.UnknownMetricError(msg)
    return {name: _number(value, _REAL) for name, value in pairs}


def _lines(measure: Measure, text: str | None) -> list[Line]:
    """The output lines of one measure, its parameters read from `text` (None: the defaults)."""
    name, build, kind = measure.name, measure.build, measure.params
    if build is None:
        return [Line(name, measure, None)]
    if kind == "none":
        return [Line(name, measure, build(None))]
    if kind == "cutoffs":
        ks = measure.default if text is None else _cutoffs(text)
        return [Line(f"{name}_{int(k)}", measure, build(int(k))) for k in ks]
    if kind == "levels":
        xs = measure.default if text is None else _levels(text)
        # trec_eval writes the level with %3.2f into a buffer of len(name) + 10 bytes.
        return [Line(f"{name}_{x:3.2f}"[: len(name) + 9], measure, build(x)) for x in xs]
    printed = name if text is None else f"{name}_{text}"  # trec_eval prints the parameters as given
    if kind == "numbers":
        return [Line(printed, measure, build(measure.default if text is None else _numbers(text)))]
    return [Line(printed, measure, build({} if text is None else _pairs(text)))]


def _members(name: str, spec: str) -> tuple[str, ...]:
    if name in NICKNAMES:
        return NICKNAMES[name]
    if name in BY_NAME:
        return (name,)
    if name in NOT_SUPPORTED:
        msg = f"measure {spec!r}: trec_eval's {name!r} is not supported: {NOT_SUPPORTED[name]}"
        raise prm.UnknownMetricError(msg)
    msg = f"unknown measure {spec!r} (trec_eval: illegal measure); supported: {supported()}"
    raise prm.UnknownMetricError(msg)


def _marked(specs: Sequence[str]) -> tuple[set[str], dict[str, tuple[str, str]]]:
    """The measures the specs name, and each one's parameter text (with its spec): the first given."""
    marked: set[str] = set()
    params: dict[str, tuple[str, str]] = {}
    for spec in specs:
        name, dot, text = spec.partition(".")
        marked.update(_members(name, spec))
        if not dot:
            continue
        if name in NICKNAMES or BY_NAME[name].params == "none":
            msg = f"measure {spec!r}: {name!r} takes no parameters"
            raise prm.UnknownMetricError(msg)
        if not text:
            msg = f"measure {spec!r}: empty parameter list"
            raise prm.UnknownMetricError(msg)
        params.setdefault(name, (text, spec))
    return marked, params


def parse_measures(specs: Sequence[str]) -> list[Line]:
    """Turn trec_eval ``-m`` specs into the output lines, in trec_eval's print order.

    Parameters
    ----------
    specs
        ``-m`` arguments: ``map``, ``P`` (default cutoffs), ``P.5,10``,
        ``iprec_at_recall..1,.5``, ``ndcg.1=3,2=9``, ``utility.2,-1,0,0``,
        or a nickname: ``official``, ``set``, ``all_trec``. As in trec_eval,
        the first spec that gives a measure parameters wins; cutoffs are
        sorted and read as integers (``23.4`` is 23).

    Returns
    -------
    list of Line
        Each line's printed name and metric, measures in trec_eval's order.

    Raises
    ------
    UnknownMetricError
        An unknown or unsupported measure, or a malformed parameter (the
        message quotes the spec).

    Examples
    --------
    >>> [line.name for line in parse_measures(["ndcg_cut.20,5", "map", "iprec_at_recall..5"])]
    ['map', 'iprec_at_recall_0.50', 'ndcg_cut_5', 'ndcg_cut_20']
    """
    marked, params = _marked(specs)
    lines: list[Line] = []
    for measure in MEASURES:
        if measure.name not in marked:
            continue
        text, spec = params.get(measure.name, (None, measure.name))
        try:
            lines += _lines(measure, text)
        except prm.RankMetricsError as err:
            msg = f"measure {spec!r}: {err}"
            raise prm.UnknownMetricError(msg) from err
    return lines
