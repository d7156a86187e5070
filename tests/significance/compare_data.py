"""Frames and plain references for the compare tests.

The references are written the slow, obvious way (loops over every sign
vector or label permutation, exact integer arithmetic) so that they share
nothing with the vectorised library code they check.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import polars as pl

GRID = 64  # test values are multiples of 1/GRID: sums are exact in binary floating point


def frame(
    values: dict[str, Sequence[float]], metric: str = "m", queries: Sequence[object] | None = None
) -> pl.DataFrame:
    """One row per (system, query): `values` maps a system to its per-query values."""
    n = len(next(iter(values.values())))
    ids = list(queries) if queries is not None else [f"q{i:02d}" for i in range(n)]
    return pl.DataFrame(
        {
            "system": [s for s in values for _ in range(n)],
            "query": ids * len(values),
            metric: [float(v) for vs in values.values() for v in vs],
        }
    )


def random_frame(
    n_queries: int, n_systems: int, metrics: Sequence[str] = ("m",), seed: int = 0, shift: float = 0.0
) -> pl.DataFrame:
    """Grid-valued random scores; system s is better by ``shift * s`` on average."""
    rng = np.random.default_rng(seed)
    columns: dict[str, list[object]] = {
        "system": [f"s{s}" for s in range(n_systems) for _ in range(n_queries)],
        "query": [f"q{q:03d}" for _ in range(n_systems) for q in range(n_queries)],
    }
    for metric in metrics:
        base = rng.integers(0, GRID, size=n_queries)
        cells = [
            np.clip(base + rng.integers(-16, 17, size=n_queries) + round(shift * s * GRID), 0, GRID) / GRID
            for s in range(n_systems)
        ]
        columns[metric] = [float(v) for c in cells for v in c]
    return pl.DataFrame(columns)


def exact_sign_flip_p(deltas: Sequence[Fraction]) -> Fraction:
    """Two-sided p of the sign-flip test over all 2**n sign vectors, the observed one included."""
    observed = abs(sum(deltas))
    count = 0
    for signs in itertools.product((1, -1), repeat=len(deltas)):
        if abs(sum(s * d for s, d in zip(signs, deltas, strict=True))) >= observed:
            count += 1
    return Fraction(count, 2 ** len(deltas))


def exact_tukey_p(values: Sequence[Sequence[Fraction]], system: int, baseline: int) -> Fraction:
    """Randomised Tukey HSD p over every within-query permutation of the systems' values.

    `values[q][s]` is system s on query q; the p-value counts the label
    permutations whose largest difference between two systems' sums is at
    least the observed difference of `system` and `baseline`.
    """
    n_systems = len(values[0])
    observed = abs(sum(row[system] - row[baseline] for row in values))
    orders = list(itertools.permutations(range(n_systems)))
    count = total = 0
    for choice in itertools.product(orders, repeat=len(values)):
        sums = [
            sum(row[order[s]] for row, order in zip(values, choice, strict=True)) for s in range(n_systems)
        ]
        total += 1
        if max(sums) - min(sums) >= observed:
            count += 1
    return Fraction(count, total)
