"""Judgments from two sources (people's, a model's): their agreement, and the systems' under each.

:func:`agreement` gives Cohen's kappa and Krippendorff's alpha on the pairs
both judged, :func:`confusion_table` the table of grades behind them;
:func:`system_agreement` and :func:`system_swaps` whether the systems rank
the same under each.
"""

from __future__ import annotations

from polars_rankmetrics.judges._agreement import agreement, confusion_table
from polars_rankmetrics.judges._systems import system_agreement, system_swaps

__all__ = ["agreement", "confusion_table", "system_agreement", "system_swaps"]
