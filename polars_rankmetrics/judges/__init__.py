"""Judgments from two sources (people's, a model's): their agreement, and the systems' under each.

:func:`agreement` gives Cohen's kappa and Krippendorff's alpha on the pairs
both judged, :func:`confusion_table` the table of grades behind them.
"""

from __future__ import annotations

from polars_rankmetrics.judges._agreement import agreement, confusion_table

__all__ = ["agreement", "confusion_table"]
