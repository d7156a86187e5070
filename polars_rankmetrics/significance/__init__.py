"""Comparing systems: paired significance tests, intervals, power, agreement, tables and plots.

:func:`compare` tests every system against a baseline (or every pair) on
every metric of a per-query evaluation; :func:`summarize` gives each
system's mean with an interval; :func:`power` plans the number of queries;
:func:`discriminative_power` counts the pairs each metric tells apart;
:func:`rank_correlation` measures how two columns order the systems;
:func:`table` and :func:`table_markdown` lay a comparison out;
:mod:`polars_rankmetrics.plots` draws per-query wins and losses,
metric@k curves and ASL curves (``prm.plots.deltas``...). numpy, scipy and great_tables are optional
dependencies, imported when first needed:
``pip install "polars-rankmetrics[significance]"``.
"""

from __future__ import annotations

from polars_rankmetrics.significance._agreement import rank_correlation
from polars_rankmetrics.significance._compare import compare
from polars_rankmetrics.significance._discriminative import discriminative_power
from polars_rankmetrics.significance._power import power
from polars_rankmetrics.significance._summary import summarize
from polars_rankmetrics.significance.table import table, table_markdown

__all__ = [
    "compare",
    "discriminative_power",
    "power",
    "rank_correlation",
    "summarize",
    "table",
    "table_markdown",
]
