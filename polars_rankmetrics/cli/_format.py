"""trec_eval's output: its number formats and its ``name<TAB>query<TAB>value`` line layout."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

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


def _values(line: Line, column: Sequence[object]) -> list[str]:
    """A column of values as `_value` prints each, in one pass (``%6.4f`` is the f-string's ``6.4f``)."""
    kind = line.metric.spec.kind if line.metric is not None else "str"
    if kind != "float":
        return [_value(line, value) for value in column]
    texts = list(map("%6.4f".__mod__, column))
    return [f"{'-nan':>6}" if text == "   nan" else text for text in texts] if "   nan" in texts else texts


def query_rows(
    lines: list[Line], queries: Sequence[str], values: Sequence[Sequence[object]], block: int = 512
) -> Iterator[str]:
    """The per-query (``-q``) output: a block of lines per query (trec_eval's order), measures in table order.

    ``values[i][j]`` is line i's value for query j. The values print a column
    at a time (a million values in a fraction of the time of a call per
    value), `block` queries at a time: one string per block of queries, made
    as it is written, so that the whole output (a million lines for ``-q -m
    all_trec`` at 10k queries, 80 MB of text) never stands in memory at once.
    """
    shown = [(line, column) for line, column in zip(lines, values, strict=True) if line.measure.per_query]
    prefixes = [f"{line.name:<22}\t" for line, _ in shown]
    for start in range(0, len(queries), block):
        end = start + block
        texts = [_values(line, column[start:end]) for line, column in shown]
        yield "".join([
            f"{prefix}{query}\t{column[j]}\n"
            for j, query in enumerate(queries[start:end])
            for prefix, column in zip(prefixes, texts, strict=True)
        ])  # fmt: skip


def summary_rows(lines: list[Line], summary: Sequence[object], runid: str) -> list[str]:
    """The ``all`` output lines from each line's ``all`` value; ``runid`` prints the run's name."""
    return [
        _row(line.name, "all", runid if line.metric is None else _value(line, value))
        for line, value in zip(lines, summary, strict=True)
        if line.measure.summary
    ]
