"""Paired significance tests, vectorised over every comparison at once.

Each test takes the per-query deltas of many comparisons as the columns of
one ``(n queries, k comparisons)`` matrix (Tukey's test takes the systems'
values instead) and returns, per column, a two-sided p-value and an
interval of the mean delta. The resampling tests draw every resample from
one ``numpy.random.Generator`` and share the draws between columns: a
column's result depends on the seed, the number of queries (and, for
Tukey's test, of systems), never on which other columns are computed with
it. Resamples are processed in chunks of about ``CHUNK_CELLS`` random
values, a size fixed by the data's shape, so the same seed gives the same
bits. No Python loop runs over resamples or queries: a chunk is one matrix
product or one gather.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from polars_rankmetrics.significance._deps import require

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

CHUNK_CELLS = 1 << 20  # random values drawn per chunk of resamples (8 MiB as float64)
TIE = 1e-9  # statistics closer than TIE x the deltas' mean absolute value are ties (rounding, not data)


@dataclass(frozen=True)
class Result:
    """Per column: the two-sided p-value and the interval of the mean delta."""

    p_value: Floats
    ci_low: Floats
    ci_high: Floats


def _chunks(total: int, width: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of consecutive chunks of `total` rows, each about CHUNK_CELLS / width rows."""
    rows = max(1, CHUNK_CELLS // max(1, width))
    for start in range(0, total, rows):
        yield start, min(total, start + rows)


def _tolerance(d: Floats) -> Floats:
    tol: Floats = TIE * np.mean(np.abs(d), axis=0)
    return tol


def _constant(d: Floats) -> npt.NDArray[np.bool_]:
    """Columns whose deltas are all equal (exactly: their sample variance is 0)."""
    same: npt.NDArray[np.bool_] = np.all(d == d[:1], axis=0)
    return same


def effect_size(d: Floats) -> Floats:
    """Mean delta over the deltas' standard deviation (ddof=1); NaN where the deltas are all equal."""
    sd = np.where(_constant(d), np.nan, d.std(axis=0, ddof=1))
    out: Floats = d.mean(axis=0) / sd
    return out


def paired_t(d: Floats, alpha: float) -> Result:
    """Paired Student t test (two-sided) and the t interval of the mean delta.

    The t statistic is ``mean / (sd / sqrt(n))`` with ``n - 1`` degrees of
    freedom, as ``scipy.stats.ttest_rel``. Where every delta is the same the
    statistic is 0/0 or infinite: the p-value is then 1 (all deltas 0) or 0
    (all equal and non-zero), and the interval is the single point.
    """
    stats = require("scipy.stats", "prm.compare(test='t')")
    n = d.shape[0]
    mean = d.mean(axis=0)
    constant = _constant(d)
    se = np.where(constant, 0.0, d.std(axis=0, ddof=1)) / np.sqrt(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / se
    p = np.where(constant, np.where(mean == 0, 1.0, 0.0), 2.0 * stats.t.sf(np.abs(t), n - 1))
    half = stats.t.ppf(1.0 - alpha / 2.0, n - 1) * se
    return Result(p, mean - half, mean + half)


def wilcoxon(d: Floats, alpha: float) -> Result:
    """Wilcoxon signed-rank test, as ``scipy.stats.wilcoxon(d)`` with its defaults, and the t interval.

    scipy's defaults: ``zero_method="wilcox"`` (zero deltas are dropped
    before ranking) and ``method="auto"`` (the exact distribution for small
    samples without ties or zeros, an exact permutation test for up to 13
    deltas with ties or zeros, else the normal approximation). scipy makes
    that choice once per call, from every column it is given, so each
    comparison gets its own call: a loop over comparisons, not over queries.
    Where every delta is 0 scipy has no p-value (NaN); it is 1 here. A rank
    test has no interval of the mean delta: the interval is the t interval.
    """
    stats = require("scipy.stats", "prm.compare(test='wilcoxon')")
    p = np.ones(d.shape[1])
    for column in np.flatnonzero(np.any(d != 0, axis=0)):
        p[column] = stats.wilcoxon(d[:, column]).pvalue
    t = paired_t(d, alpha)
    return Result(p, t.ci_low, t.ci_high)


def _signs(n: int, start: int, stop: int, rng: np.random.Generator | None) -> Floats:
    """Rows ``start:stop`` of the sign vectors: all 2**n in binary order (rng None), else random."""
    if rng is None:
        codes = np.arange(start, stop, dtype=np.int64)[:, None] >> np.arange(n, dtype=np.int64)
        bits = codes & 1
    else:
        bits = rng.integers(0, 2, size=(stop - start, n), dtype=np.int64)
    return (1 - 2 * bits).astype(np.float64)


def randomization(d: Floats, alpha: float, n_resamples: int, rng: np.random.Generator) -> Result:
    """Paired sign-flip randomization test of the mean delta (Fisher's; Smucker et al., 2007), two-sided.

    Under the null hypothesis each query's delta is as likely to have
    either sign. A resample multiplies the deltas by random signs; ``b``
    counts the resamples whose ``|mean|`` is at least the observed one.
    When ``2**n <= n_resamples`` every sign vector is enumerated (the
    identity, that is the observed statistic, among them) and the p-value is
    exact: ``b / 2**n``. Otherwise ``n_resamples`` random sign vectors give
    ``(b + 1) / (n_resamples + 1)``, the observed statistic counted once
    (Phipson & Smyth, 2010: never 0, and a valid test). Statistics within
    ``TIE`` of each other count as equal. The interval inverts the test:
    ``mean +/- q``, with ``q`` the ``1 - alpha`` quantile of the resampled
    ``|mean|``.
    """
    n, k = d.shape
    exact = n < 63 and 2**n <= n_resamples  # 2**63 overflows the int64 codes
    total = 2**n if exact else n_resamples
    observed = np.abs(d.mean(axis=0))
    tol = _tolerance(d)
    null = np.empty((total, k))
    for start, stop in _chunks(total, n):
        null[start:stop] = np.abs(_signs(n, start, stop, None if exact else rng) @ d) / n
    b = np.count_nonzero(null >= observed - tol, axis=0)
    p = b / total if exact else (b + 1) / (total + 1)
    half = np.quantile(null, 1.0 - alpha, axis=0)
    mean = d.mean(axis=0)
    return Result(p.astype(np.float64), mean - half, mean + half)


def bootstrap(d: Floats, alpha: float, n_resamples: int, rng: np.random.Generator) -> Result:
    """Paired bootstrap of the mean delta: percentile interval and a p-value from the same resamples.

    A resample draws n queries with replacement (the same queries for every
    column, so the systems stay paired) and takes the mean of their deltas.
    The interval holds the ``alpha / 2`` and ``1 - alpha / 2`` quantiles of
    the resampled means (the percentile method, as
    ``scipy.stats.bootstrap(method="percentile")``). The p-value inverts that
    interval: with ``b_le`` and ``b_ge`` the resampled means at most and at
    least 0, ``p = min(1, 2 (min(b_le, b_ge) + 1) / (n_resamples + 1))``,
    so p < alpha about when the interval excludes 0 (Efron & Tibshirani,
    1993, section 15.4).
    """
    n, k = d.shape
    tol = _tolerance(d)
    means = np.empty((n_resamples, k))
    for start, stop in _chunks(n_resamples, n):
        rows = stop - start
        picks = rng.integers(0, n, size=(rows, n), dtype=np.int64)
        # How often each query is drawn, per resample: one bincount over the chunk.
        flat = (picks + n * np.arange(rows, dtype=np.int64)[:, None]).ravel()
        counts = np.bincount(flat, minlength=rows * n).reshape(rows, n).astype(np.float64)
        means[start:stop] = (counts @ d) / n
    low, high = np.quantile(means, [alpha / 2.0, 1.0 - alpha / 2.0], axis=0)
    at_most = np.count_nonzero(means <= tol, axis=0)
    at_least = np.count_nonzero(means >= -tol, axis=0)
    p = np.minimum(1.0, 2.0 * (np.minimum(at_most, at_least) + 1) / (n_resamples + 1))
    return Result(p, low, high)


def tukey(x: Floats, pairs: Ints, alpha: float, n_resamples: int, rng: np.random.Generator) -> Result:
    """Randomised Tukey HSD test (Carterette, 2012; Sakai, 2014): all pairs, family-wise error controlled.

    `x` holds each metric's values, ``(metrics, n queries, systems)``;
    `pairs` the ``(system, baseline)`` column indices compared. A resample
    permutes the systems' values independently within each query and keeps
    the largest difference between two systems' means (the range of the
    means). A pair's p-value is ``(b + 1) / (n_resamples + 1)``, ``b``
    counting the resamples whose range is at least the pair's observed
    ``|delta|``: the null distribution is that of the largest difference
    over all systems, so the p-values hold for the whole family as they
    are. The interval is simultaneous: ``delta +/- q``, with ``q`` the
    ``1 - alpha`` quantile of the resampled range. The result's arrays
    have the shape ``(metrics, pairs)``.
    """
    n_metrics, n, n_systems = x.shape
    means = x.mean(axis=1)  # (metrics, systems)
    delta = means[:, pairs[:, 0]] - means[:, pairs[:, 1]]
    tol = TIE * np.mean(np.abs(x - x.mean(axis=2, keepdims=True)), axis=(1, 2))[:, None]
    flat = x.reshape(n_metrics, n * n_systems)
    ranges = np.empty((n_resamples, n_metrics))
    slots = np.arange(n_systems, dtype=np.int64)
    offsets = (n_systems * np.arange(n, dtype=np.int64))[:, None]
    for start, stop in _chunks(n_resamples, n * n_systems):
        rows = stop - start
        # perm[r, q, s]: the system whose value query q puts in slot s in resample r.
        perm = rng.permuted(np.broadcast_to(slots, (rows * n, n_systems)), axis=1).reshape(rows, n, n_systems)
        index = (perm + offsets).transpose(0, 2, 1)  # (rows, slots, queries): a view
        sums = np.stack([np.take(values, index).sum(axis=2) for values in flat])  # (metrics, rows, slots)
        ranges[start:stop] = ((sums.max(axis=2) - sums.min(axis=2)) / n).T
    ordered = np.sort(ranges, axis=0)
    b = np.stack(
        [
            n_resamples - np.searchsorted(ordered[:, m], np.abs(delta[m]) - tol[m], side="left")
            for m in range(n_metrics)
        ]
    )
    p = (b + 1) / (n_resamples + 1)
    half = np.quantile(ranges, 1.0 - alpha, axis=0)[:, None]
    return Result(p.astype(np.float64), delta - half, delta + half)
