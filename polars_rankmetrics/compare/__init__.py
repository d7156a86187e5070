"""Comparing systems: paired significance tests over a per-query evaluation.

:func:`compare` tests every system against a baseline (or every pair) on
every metric of a per-query evaluation. numpy and scipy are optional
dependencies, imported when first needed:
``pip install "polars-rankmetrics[compare]"``.
"""

from __future__ import annotations

from polars_rankmetrics.compare._compare import compare

__all__ = ["compare"]
