"""Rank fusion: several runs in one long frame fused into one, as lazy Polars plans.

:func:`fuse` combines runs with ranx's methods and normalisations;
:func:`optimize_fusion` searches a method's weights or parameter by
evaluating every candidate in one plan. The definitions live in the
modules: ``_normalize`` (normalisations), ``_methods`` (unsupervised
methods), ``_condorcet``, ``_supervised`` (trained on judgments).
"""

from __future__ import annotations

from polars_rankmetrics.fusion._fuse import fuse
from polars_rankmetrics.fusion._optimize import FusionSearch, optimize_fusion

__all__ = ["FusionSearch", "fuse", "optimize_fusion"]
