"""Comparing systems: paired significance tests, comparison tables and plots.

:func:`compare` tests every system against a baseline (or every pair) on
every metric of a per-query evaluation; :func:`table` and
:func:`table_markdown` lay the result out; :mod:`polars_rankmetrics.compare.plots`
draws per-query wins and losses and metric@k curves. numpy, scipy and
great_tables are optional dependencies, imported when first needed:
``pip install "polars-rankmetrics[compare]"``.
"""

from __future__ import annotations

from polars_rankmetrics.compare import plots
from polars_rankmetrics.compare._compare import compare
from polars_rankmetrics.compare.table import table, table_markdown

__all__ = ["compare", "plots", "table", "table_markdown"]
