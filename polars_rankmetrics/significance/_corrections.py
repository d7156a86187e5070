"""Multiple-comparison corrections of one family of p-values: Holm, Bonferroni, Benjamini-Hochberg.

Each function takes the p-values of one family (one metric's comparisons)
and returns the adjusted p-values in the same order, capped at 1; a
comparison is significant at level alpha when its adjusted p-value is
below alpha. They agree with ``statsmodels.stats.multitest.multipletests``
(methods ``"holm"``, ``"bonferroni"``, ``"fdr_bh"``).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

Correction = Literal["holm", "bonferroni", "bh"]

Floats = npt.NDArray[np.float64]


def bonferroni(p: Floats) -> Floats:
    """``min(1, m p)``: controls the family-wise error rate (Bonferroni, 1936)."""
    return np.minimum(1.0, p * p.size)


def holm(p: Floats) -> Floats:
    """Holm's step-down: the i-th smallest is ``max_{j <= i} min(1, (m - j + 1) p_(j))`` (Holm, 1979)."""
    m = p.size
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty_like(p)
    out[order] = np.minimum(1.0, stepped)
    return out


def benjamini_hochberg(p: Floats) -> Floats:
    """Benjamini-Hochberg step-up: ``min_{j >= i} min(1, m p_(j) / j)``; controls the false discovery rate."""
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    stepped = np.minimum.accumulate(scaled[::-1])[::-1]
    out = np.empty_like(p)
    out[order] = np.minimum(1.0, stepped)
    return out


def adjust(p: Floats, correction: Correction | None) -> Floats:
    """The adjusted p-values of one family under `correction` (None: unchanged)."""
    if p.size == 0 or correction is None:
        return p.copy()
    return {"holm": holm, "bonferroni": bonferroni, "bh": benjamini_hochberg}[correction](p)
