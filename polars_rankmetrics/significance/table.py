"""Comparison tables: systems as rows, metrics as columns, the best in bold, significance as superscripts.

:func:`table` returns a great_tables ``GT`` (HTML, LaTeX, notebooks);
:func:`table_markdown` prints the same table in Markdown through Polars'
own table formatting. Both read the frame :func:`compare` returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import polars as pl

from polars_rankmetrics.exceptions import ColumnNotFoundError, InvalidDataError, InvalidParameterError
from polars_rankmetrics.significance._compare import OUTPUT_COLUMNS
from polars_rankmetrics.significance._deps import require

if TYPE_CHECKING:
    from great_tables import GT

__all__ = ["table", "table_markdown"]

_TESTS = {
    "t": "paired t test",
    "randomization": "paired randomization (sign-flip) test",
    "bootstrap": "paired bootstrap test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "tukey": "randomised Tukey HSD test, which controls the family-wise error over all pairs",
}
_CORRECTIONS = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg"}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_REPLICATE_COLUMNS = ("n_replicates", "replicate_std", "baseline_replicate_std")


@dataclass(frozen=True)
class _Layout:
    """What both renderings show: row labels, per-cell text parts, the footnote."""

    by: str
    labels: list[str]  # one per system: "name (letter)"
    metrics: list[str]
    cells: dict[str, list[tuple[str, bool, str]]]  # metric -> per system: (value, best, superscript)
    footnote: str


def _letter(i: int) -> str:
    """a, b, ..., z, aa, ab, ...: spreadsheet-style labels."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = _LETTERS[r] + out
    return out


def _by_column(comparison: pl.DataFrame) -> str:
    names = comparison.columns
    missing = [c for c in OUTPUT_COLUMNS if c not in names]
    extra = [c for c in names if c not in OUTPUT_COLUMNS and c not in _REPLICATE_COLUMNS]
    if missing or len(extra) != 1:
        columns = f"the system column, then {', '.join(OUTPUT_COLUMNS)}"
        unexpected = extra if len(extra) != 1 else []
        raise ColumnNotFoundError.not_output_of("comparison", "prm.compare", missing, unexpected, columns)
    return extra[0]


def _footnote(comparison: pl.DataFrame) -> str:
    settings = comparison.select("test", "correction", "alpha", "n", "paired_on").unique()
    if settings.height != 1:
        why = "mixes tests, corrections, alphas or query counts: tabulate one compare() call"
        raise InvalidDataError.unusable("comparison", why)
    test, correction, alpha, n, column = settings.row(0)
    unit = "paired queries" if column == "query" else f"paired values of {column!r}"
    if test == "tukey":
        how = _TESTS["tukey"]
    else:
        family = comparison.height // comparison.get_column("metric").n_unique()
        fixed = "no correction" if correction is None else f"{_CORRECTIONS[correction]} correction"
        how = f"{_TESTS[test]}, {fixed} over each metric's {family} comparison(s)"
    policy = comparison.get_column("missing").unique().to_list() if "missing" in comparison.columns else []
    return (
        "Bold: the best mean of each metric. A superscript letter marks a mean significantly higher "
        f"than the mean of the system with that letter ({how}; alpha = {alpha:g}; {n} {unit})."
        + (_MISSING[policy[0]] if len(policy) == 1 else "")
    )


# What each missing-query policy of compare() means for the means shown (evaluate's means skip, for
# each system, the queries it has no value for).
_MISSING = {
    "error": "",
    "zero": (
        " Queries a system has no value for score 0 for it (missing-query policy: zero, as "
        "trec_eval's -c): its mean here can be lower than its own mean from evaluate, which skips them."
    ),
    "intersect": (
        " Only the queries every system has are compared (missing-query policy: intersect): a mean "
        "here can differ from the system's own mean from evaluate, over all its queries."
    ),
}


def _interval_texts(intervals: pl.DataFrame | None, by: str, decimals: int) -> dict[tuple[object, str], str]:
    """`` [low, high]`` per (system, metric) from a :func:`summarize` frame, or nothing."""
    if intervals is None:
        return {}
    if not isinstance(intervals, pl.DataFrame):
        raise InvalidParameterError.not_output_of("intervals", "prm.summarize", intervals)
    needed = [by, "metric", "ci_low", "ci_high"]
    absent = [c for c in needed if c not in intervals.columns]
    if absent:
        raise ColumnNotFoundError.not_output_of("intervals", f"prm.summarize(..., by={by!r})", absent)
    return {
        (s, m): "" if lo is None else f" [{lo:.{decimals}f}, {hi:.{decimals}f}]"
        for s, m, lo, hi in intervals.select(needed).iter_rows()
    }


def _layout(comparison: pl.DataFrame, decimals: int, intervals: pl.DataFrame | None = None) -> _Layout:
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 15:
        raise InvalidParameterError.out_of_domain("decimals", "an integer in [0, 15]", decimals)
    if not isinstance(comparison, pl.DataFrame):
        raise InvalidParameterError.not_output_of("comparison", "prm.compare", comparison)
    by = _by_column(comparison)
    if comparison.height == 0:
        raise InvalidDataError.unusable("comparison", "is empty: there is nothing to tabulate")
    footnote = _footnote(comparison)
    # Rows: the systems that are only ever a baseline first, then the others; each in sorted order.
    compared = comparison.get_column(by).unique()
    baselines = comparison.get_column("baseline").unique()
    first = baselines.filter(~baselines.is_in(compared.implode())).sort()
    rest = pl.concat([compared, baselines.filter(baselines.is_in(compared.implode()))]).unique().sort()
    systems = pl.concat([first, rest]).to_list()
    metrics = comparison.get_column("metric").unique(maintain_order=True).to_list()
    long = pl.concat(
        [
            comparison.select(pl.col(by).alias("system"), "metric", "mean"),
            comparison.select(pl.col("baseline").alias("system"), "metric", mean=pl.col("baseline_mean")),
        ]
    ).unique(["system", "metric"], keep="first", maintain_order=True)
    means = {(s, m): v for s, m, v in long.iter_rows()}
    ranges = _interval_texts(intervals, by, decimals)
    if ranges:
        footnote += " In brackets: the interval of each mean (prm.summarize)."
    letters = {s: _letter(i) for i, s in enumerate(systems)}
    separator = "" if len(systems) <= len(_LETTERS) else ","
    beats: dict[tuple[object, str], list[str]] = {}
    for system, base, metric, delta in (
        comparison.filter("significant").select(by, "baseline", "metric", "delta").iter_rows()
    ):
        higher, lower = (system, base) if delta > 0 else (base, system)
        beats.setdefault((higher, metric), []).append(letters[lower])
    cells: dict[str, list[tuple[str, bool, str]]] = {}
    for metric in metrics:
        column = [means.get((s, metric)) for s in systems]
        best = max(v for v in column if v is not None)
        cells[metric] = [
            (
                "" if v is None else f"{v:.{decimals}f}" + ranges.get((s, metric), ""),
                v is not None and v == best,
                separator.join(sorted(beats.get((s, metric), []), key=lambda x: (len(x), x))),
            )
            for s, v in zip(systems, column, strict=True)
        ]
    labels = [f"{s} ({letters[s]})" for s in systems]
    return _Layout(by=by, labels=labels, metrics=metrics, cells=cells, footnote=footnote)


def _frame(layout: _Layout, cell: Any) -> pl.DataFrame:  # noqa: ANN401  (a formatter of one cell)
    columns = {layout.by: layout.labels}
    for metric in layout.metrics:
        columns[metric] = [cell(*parts) for parts in layout.cells[metric]]
    return pl.DataFrame(columns, schema=dict.fromkeys(columns, pl.String))


def table(comparison: pl.DataFrame, *, decimals: int = 4, intervals: pl.DataFrame | None = None) -> GT:
    """A great_tables table of a comparison: each system's mean per metric, significance as superscripts.

    Parameters
    ----------
    comparison
        The frame :func:`compare` returns.
    decimals
        Digits after the decimal point.
    intervals
        The frame :func:`summarize` returns for the same systems: each cell
        then shows the interval of the system's mean, ``mean [low, high]``.

    Returns
    -------
    great_tables.GT
        Systems as rows (labelled with a letter; the baseline first), metrics
        as columns, each cell the system's mean. The best mean of each
        metric (the highest: every metric here is better higher) is in bold.
        A superscript lists the letters of the systems whose mean this one
        is significantly higher than (``significant``: after the correction);
        a source note says which test, correction and alpha. Render it with
        ``.as_raw_html()`` or ``.as_latex()``; great_tables does the
        rendering (the cells are written in its units notation, which it
        turns into bold and superscripts in HTML and in LaTeX alike).

    Raises
    ------
    ColumnNotFoundError
        `comparison` lacks a column :func:`compare` returns.
    InvalidDataError
        `comparison` is empty, or mixes settings (tests, alphas...).
    ModuleNotFoundError
        great_tables is not installed: ``pip install "polars-rankmetrics[significance]"``.

    Examples
    --------
    >>> per_query = pl.DataFrame({"run": ["a"] * 4 + ["b"] * 4, "query": [1, 2, 3, 4] * 2,
    ...     "map": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.9]})
    >>> html = prm.table(prm.compare(per_query, by="run", baseline="a")).as_raw_html()
    >>> "a (a)" in html and "<strong>0.6750</strong>" in html
    True
    """
    great_tables = require("great_tables", "prm.table")
    layout = _layout(comparison, decimals, intervals)

    def units(value: str, best: bool, marks: str) -> str:
        # great_tables' units notation: **x** is bold, ^y a superscript.
        text = f"**{value}**" if best and value else value
        return f"{text}^{marks}" if marks else text

    frame = _frame(layout, units)
    gt: GT = (
        great_tables.GT(frame, rowname_col=layout.by)
        .tab_stubhead(layout.by)
        .fmt_units(columns=layout.metrics)
        .cols_align("right", columns=layout.metrics)
        .tab_source_note(layout.footnote)
    )
    return gt


def table_markdown(
    comparison: pl.DataFrame, *, decimals: int = 4, intervals: pl.DataFrame | None = None
) -> str:
    """The table of :func:`table` in Markdown, for terminals and READMEs, through Polars' own formatting.

    Parameters
    ----------
    comparison
        The frame :func:`compare` returns.
    decimals
        Digits after the decimal point.
    intervals
        The frame :func:`summarize` returns for the same systems: each cell
        then shows the interval of the system's mean, ``mean [low, high]``.

    Returns
    -------
    str
        A Markdown table (``pl.Config(tbl_formatting="MARKDOWN")``): the best
        mean of each metric in ``**bold**``, significance letters in
        ``<sup>...</sup>`` (as :func:`table`), then a blank line and the
        footnote.

    Examples
    --------
    >>> per_query = pl.DataFrame({"run": ["a"] * 4 + ["b"] * 4, "query": [1, 2, 3, 4] * 2,
    ...     "map": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.9]})
    >>> print(prm.table_markdown(prm.compare(per_query, by="run", baseline="a")))
    | run   | map                    |
    |-------|------------------------|
    | a (a) | 0.2500                 |
    | b (b) | **0.6750**<sup>a</sup> |
    <BLANKLINE>
    Bold: the best mean of each metric. A superscript letter marks a mean significantly higher than the
    mean of the system with that letter (paired t test, Holm correction over each metric's 1
    comparison(s); alpha = 0.05; 4 paired queries).
    """
    layout = _layout(comparison, decimals, intervals)

    def markdown(value: str, best: bool, marks: str) -> str:
        text = f"**{value}**" if best and value else value
        return f"{text}<sup>{marks}</sup>" if marks else text

    frame = _frame(layout, markdown)
    with pl.Config(
        tbl_formatting="MARKDOWN",
        tbl_hide_column_data_types=True,
        tbl_hide_dataframe_shape=True,
        tbl_rows=-1,
        tbl_cols=-1,
        fmt_str_lengths=10_000,
        tbl_width_chars=65_535,
    ):
        text = str(frame)
    return f"{text}\n\n{layout.footnote}"
