"""Comparing systems: paired significance tests, intervals, power, agreement, tables and plots.

:func:`compare` tests every system against a baseline (or every pair) on
every metric of a per-query evaluation; :func:`summarize` gives each
system's mean with an interval; :func:`power` plans the number of queries;
:func:`discriminative_power` counts the pairs each metric tells apart;
:func:`rank_correlation` measures how two columns order the systems;
:func:`table` and :func:`table_markdown` lay a comparison out;
:mod:`polars_rankmetrics.compare.plots` draws per-query wins and losses,
metric@k curves and ASL curves. numpy, scipy and great_tables are optional
dependencies, imported when first needed:
``pip install "polars-rankmetrics[compare]"``.
"""

from __future__ import annotations

from polars_rankmetrics.compare import plots
from polars_rankmetrics.compare._agreement import rank_correlation
from polars_rankmetrics.compare._compare import compare
from polars_rankmetrics.compare._discriminative import discriminative_power
from polars_rankmetrics.compare._power import power
from polars_rankmetrics.compare._summary import summarize
from polars_rankmetrics.compare.table import table, table_markdown

__all__ = [
    "compare",
    "discriminative_power",
    "plots",
    "power",
    "rank_correlation",
    "summarize",
    "table",
    "table_markdown",
]
