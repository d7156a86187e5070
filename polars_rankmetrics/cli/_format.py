"""trec_eval's output: its number formats and its ``name<TAB>query<TAB>value`` line layout."""

from __future__ import annotations

import polars as pl

from polars_rankmetrics.cli._measures import Line

__all__ = ["query_rows", "summary_rows"]


def _value(line: Line, value: object) -> str:
    """A value as trec_eval prints it: %ld for counts, quoted text for relstring, else %6.4f."""
    kind = line.metric.spec.kind if line.metric is not None else "str"
    if kind == "int":
        return str(value)
    if kind == "str":
        return f"'{'' if value is None else value}'"
    return f"{value:6.4f}"


def _row(name: str, query: str, value: str) -> str:
    return f"{name:<22}\t{query}\t{value}\n"


def query_rows(lines: list[Line], per_query: pl.DataFrame) -> list[str]:
    """The per-query (``-q``) output lines: queries ordered by id as text, measures in table order."""
    rows = {str(row["query"]): row for row in per_query.iter_rows(named=True)}
    return [
        _row(line.name, query, _value(line, rows[query][line.column]))
        for query in sorted(rows)  # by id as text: trec_eval orders queries with strcmp
        for line in lines
        if line.measure.per_query
    ]


def summary_rows(lines: list[Line], summary: pl.DataFrame, runid: str) -> list[str]:
    """The ``all`` output lines; ``runid`` prints the run's name."""
    return [
        _row(line.name, "all", runid if line.metric is None else _value(line, summary[line.column][0]))
        for line in lines
        if line.measure.summary
    ]
