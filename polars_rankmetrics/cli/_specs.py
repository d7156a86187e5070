"""trec_eval's ``-m`` specs (``P.5,10``, ``ndcg.1=3,2=9``, ``official``) read into output lines."""

from __future__ import annotations

import difflib
import math
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
    if match is None or not math.isfinite(float(match.group())):  # 1e400 reads as inf
        raise prm.UnknownMetricError.not_a_number(text, finite=match is not None)
    return float(match.group())


def _unique(values: list[float]) -> list[float]:
    if len(set(values)) < len(values):
        raise prm.UnknownMetricError.bad_measure(None, "duplicate cutoffs")
    return values


_LONG_MAX = 2**63 - 1  # C's long: atol saturates there (glibc's strtol)


def _long(text: str) -> int:
    """Read a cutoff as C's atol does: the leading integer, saturated to a long; never garbage."""
    match = _INT.match(text)
    if match is None:
        raise prm.UnknownMetricError.not_a_number(text, finite=False)
    return max(-_LONG_MAX - 1, min(_LONG_MAX, int(match.group())))


def _cutoffs(text: str) -> list[int]:
    values = sorted(_long(p) for p in text.split(","))
    if len(set(values)) < len(values):
        raise prm.UnknownMetricError.bad_measure(None, "duplicate cutoffs")
    if values[0] <= 0:
        raise prm.UnknownMetricError.bad_measure(None, "cutoffs must be positive")
    return values


def _levels(text: str) -> list[float]:
    return _unique(sorted(_number(p, _REAL) for p in text.split(",")))


def _numbers(text: str) -> tuple[float, ...]:
    return tuple(_number(p, _REAL) for p in text.split(","))


def _pairs(text: str) -> dict[str, float]:
    pairs = [part.split("=") for part in text.split(",")]
    if any(len(pair) != 2 for pair in pairs):
        raise prm.UnknownMetricError.bad_measure(
            None, "parameters must be name=value pairs, separated by ','"
        )
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
        raise prm.UnknownMetricError.bad_measure(
            spec, f"trec_eval's {name!r} is not supported: {NOT_SUPPORTED[name]}"
        )
    raise prm.UnknownMetricError.unknown_measure(spec, _suggestions(spec), supported())


def _library_spelling(spec: str) -> list[str]:
    """trec_eval's specs for a library name: ``mrr`` is ``recip_rank``, ``ndcg@10`` ``ndcg_cut.10``."""
    try:
        metric = prm.parse(spec)
    except ValueError:  # not a library name either (the library's errors are ValueErrors)
        return []
    found = []
    for measure in MEASURES:
        if measure.build is not None and measure.params == "none":
            spelling, built = measure.name, measure.build(None)
        elif measure.build is not None and measure.params == "cutoffs" and metric.k is not None:
            spelling, built = f"{measure.name}.{metric.k}", measure.build(metric.k)
        else:
            continue
        if str(built) == str(metric):
            found.append(spelling)
    return found


def _suggestions(spec: str) -> list[str]:
    """Valid specs close to an unknown one, best first.

    The spec it spells exactly: trec_eval's printed name of a line (``P_10``
    is ``P.10``), a name in another case (``MAP``) or the library's name of
    a metric (``ndcg@10``); else the measure names that difflib finds close
    (``ndcg_ct.10``), with the parameters as given.
    """
    name, dot, text = spec.partition(".")
    names = {n.lower(): n for n in [*NICKNAMES, *BY_NAME]}
    with_params = sorted((m.name for m in MEASURES if m.params != "none"), key=len, reverse=True)
    printed = [f"{m}.{spec[len(m) + 1 :]}" for m in with_params if spec.startswith(f"{m}_")][:1]
    case = [f"{names[name.lower()]}{dot}{text}"] if name.lower() in names else []
    exact = [c for c in dict.fromkeys([*printed, *case, *_library_spelling(spec)]) if _valid(c)]
    if exact:
        return exact
    close = [names[n] for n in difflib.get_close_matches(name.lower(), names, n=3)]
    return [c for c in (f"{m}{dot}{text}" for m in close) if _valid(c)]


def _valid(spec: str) -> bool:
    """Whether `spec` is a measure spec the command reads; only a known name is tried, so never suggests."""
    if spec.partition(".")[0] not in {*NICKNAMES, *BY_NAME}:
        return False
    try:
        parse_measures([spec])
    except prm.RankMetricsError:
        return False
    return True


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
            raise prm.UnknownMetricError.bad_measure(spec, f"{name!r} takes no parameters")
        if not text:
            raise prm.UnknownMetricError.bad_measure(spec, "empty parameter list")
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
            raise prm.UnknownMetricError.bad_measure(spec, str(err)) from err
    return lines
