"""trec_eval's output: its number formats and its ``name<TAB>query<TAB>value`` line layout."""

from __future__ import annotations

import math
from collections.abc import Sequence

from polars_rankmetrics.cli._measures import Line

__all__ = ["query_rows", "summary_rows"]


def _value(line: Line, value: object) -> str:
    """A value as trec_eval prints it: %ld for counts, quoted text for relstring, else %6.4f.

    A NaN prints as glibc prints trec_eval's 0/0 with %6.4f: ``  -nan``.
    """
    kind = line.metric.spec.kind if line.metric is not None else "str"
    if kind == "int":
        return str(value)
    if kind == "str":
        return f"'{'' if value is None else value}'"
    number = float(value)  # type: ignore[arg-type]
    return f"{'-nan':>6}" if math.isnan(number) else f"{number:6.4f}"


def _row(name: str, query: str, value: str) -> str:
    return f"{name:<22}\t{query}\t{value}\n"


def query_rows(lines: list[Line], queries: Sequence[str], values: Sequence[Sequence[object]]) -> list[str]:
    """The per-query (``-q``) output lines: `queries` in trec_eval's order, measures in table order.

    ``values[i][j]`` is line i's value for query j.
    """
    return [
        _row(line.name, query, _value(line, column[j]))
        for j, query in enumerate(queries)
        for line, column in zip(lines, values, strict=True)
        if line.measure.per_query
    ]


def summary_rows(lines: list[Line], summary: Sequence[object], runid: str) -> list[str]:
    """The ``all`` output lines from each line's ``all`` value; ``runid`` prints the run's name."""
    return [
        _row(line.name, "all", runid if line.metric is None else _value(line, value))
        for line, value in zip(lines, summary, strict=True)
        if line.measure.summary
    ]
