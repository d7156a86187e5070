"""Judgments from two sources (people's, a model's): their agreement, and the systems' under each.

:func:`agreement` gives Cohen's kappa and Krippendorff's alpha on the pairs
both judged, :func:`confusion_table` the table of grades behind them;
:func:`system_agreement` and :func:`system_swaps` whether the systems rank
the same under each; :func:`fill_judgments` fills people's holes with a
model's labels and :func:`judgment_shares` says how much gain rests on each.
"""

from __future__ import annotations

from polars_rankmetrics.judges._agreement import agreement, confusion_table
from polars_rankmetrics.judges._holes import fill_judgments, judgment_shares
from polars_rankmetrics.judges._systems import system_agreement, system_swaps

__all__ = [
    "agreement",
    "confusion_table",
    "fill_judgments",
    "judgment_shares",
    "system_agreement",
    "system_swaps",
]
