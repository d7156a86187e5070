"""trec_eval's output: its number formats and its ``name<TAB>query<TAB>value`` line layout."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import polars as pl

from polars_rankmetrics.cli._measures import Line

__all__ = ["fixed4", "query_rows", "summary_rows"]


def _value(line: Line, value: object) -> str:
    """A value as trec_eval prints it: %ld for counts, quoted text for relstring, else %6.4f.

    A NaN prints as glibc prints trec_eval's 0/0 with %6.4f: ``  -nan``.
    """
    kind = line.metric.spec.kind if line.metric is not None else "str"
    if kind == "int":
        return str(value)
    if kind == "str":
        return f"'{'' if value is None else value}'"
    return _fixed4(float(value))  # type: ignore[arg-type]


def _row(name: str, query: str, value: str) -> str:
    return f"{name:<22}\t{query}\t{value}\n"


_FAST_BELOW = 1e5  # below it, value * 10**4 is under 10**9: its rounding error is below 1.2e-7
_TIE_MARGIN = 1e-6  # a scaled value this close to a half rounds in Python, which rounds the exact value


def _fast_text(x: pl.Expr) -> pl.Expr:
    """``%6.4f`` of the values it prints exactly (see `fixed4`), null for the rest."""
    scaled = x * 10_000.0
    fast = (
        x.is_finite()
        & (x >= 0.0)
        & (x < _FAST_BELOW)
        & ((x != 0.0) | ((1.0 / x) > 0.0))  # +0.0, not -0.0
        & ((scaled - scaled.floor() - 0.5).abs() > _TIE_MARGIN)
    )
    return pl.when(fast).then(x.cast(pl.Decimal(20, 4)).cast(pl.String))


def fixed4(values: pl.DataFrame) -> pl.DataFrame:
    """``%6.4f`` of each value of each column, as C and Python print it, made in Polars where that is exact.

    ``%6.4f`` rounds the exact binary value to four decimals, halves to even.
    A value in [0, 10**5) that is not within 1e-6 of a half at the fourth
    decimal (after scaling by 10**4, whose error is below 1.2e-7 there)
    rounds the same whichever way its scaled value rounds, so the engine
    prints it as a four-decimal ``Decimal``; the rest (ties such as 1/32,
    negative values and -0.0, large, infinite and NaN values) print through
    Python's own ``%`` operator, NaN as trec_eval's ``  -nan``. A million
    values take a sixth of the time of ``%`` on each.

    Examples
    --------
    >>> fixed4(pl.DataFrame({"x": [0.03125, 0.123456, 1.0, -0.5, float("nan")]}))
    shape: (5, 1)
    ┌─────────┐
    │ x       │
    │ ---     │
    │ str     │
    ╞═════════╡
    │ 0.0312  │
    │ 0.1235  │
    │ 1.0000  │
    │ -0.5000 │
    │   -nan  │
    └─────────┘
    """
    printed = values.select(_fast_text(pl.col(name).cast(pl.Float64)) for name in values.columns)
    for name in values.columns:
        text = printed[name]
        if text.null_count():
            slow = text.is_null().arg_true()
            kept = values[name].gather(slow).to_list()
            printed = printed.with_columns(text.scatter(slow, [_fixed4(float(v)) for v in kept]))
    return printed


def _fixed4(value: float) -> str:
    """``%6.4f`` of one value, NaN printed as glibc prints trec_eval's 0/0."""
    return f"{'-nan':>6}" if math.isnan(value) else f"{value:6.4f}"


def _is_number(line: Line) -> bool:
    return line.metric is not None and line.metric.spec.kind == "float"


def query_rows(
    lines: list[Line], queries: Sequence[str], values: Sequence[Sequence[object]], block: int = 2048
) -> Iterator[str]:
    """The per-query (``-q``) output: a block of lines per query (trec_eval's order), measures in table order.

    ``values[i][j]`` is line i's value for query j. The numbers print a
    column at a time (`fixed4`) into one frame of texts (about the output's
    size: 33 MB for the million lines of ``-q -m all_trec`` at 10k queries,
    below the evaluation's own peak), and each query's lines are put
    together in the engine `block` queries at a time: one string per block,
    made as it is written, never the whole output as one Python text.
    """
    shown = [(line, column) for line, column in zip(lines, values, strict=True) if line.measure.per_query]
    if not shown:
        return
    numbers = {
        f"t{i}": pl.Series(values=column, dtype=pl.Float64, strict=False)
        for i, (line, column) in enumerate(shown)
        if _is_number(line)
    }
    others = {
        f"t{i}": pl.Series(values=[_value(line, value) for value in column], dtype=pl.String)
        for i, (line, column) in enumerate(shown)
        if not _is_number(line)
    }
    texts = pl.DataFrame({"query": pl.Series(values=queries, dtype=pl.String)} | others)
    if numbers:
        texts = texts.hstack(fixed4(pl.DataFrame(numbers)))
    query, tab, newline = pl.col("query"), pl.lit("\t"), pl.lit("\n")
    parts = [
        part
        for i, (line, _) in enumerate(shown)
        for part in (pl.lit(f"{line.name:<22}\t"), query, tab, pl.col(f"t{i}"), newline)
    ]
    for start in range(0, len(queries), block):
        yield "".join(texts.slice(start, block).select(pl.concat_str(parts)).to_series().to_list())


def summary_rows(lines: list[Line], summary: Sequence[object], runid: str) -> list[str]:
    """The ``all`` output lines from each line's ``all`` value; ``runid`` prints the run's name."""
    return [
        _row(line.name, "all", runid if line.metric is None else _value(line, value))
        for line, value in zip(lines, summary, strict=True)
        if line.measure.summary
    ]
