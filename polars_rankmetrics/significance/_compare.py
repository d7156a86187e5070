"""compare(): pair per-query values across systems, test every comparison, correct each metric's family."""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import TYPE_CHECKING, Literal

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import ColumnsLike
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions._parameters import check_choice, check_real
from polars_rankmetrics.significance import _replicates
from polars_rankmetrics.significance._deps import require
from polars_rankmetrics.significance._replicates import Unequal
from polars_rankmetrics.significance._roles import read
from polars_rankmetrics.significance._summary import MAX_RESAMPLES

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from polars_rankmetrics.significance._corrections import Correction
    from polars_rankmetrics.significance._paired import MissingPolicy, Paired
    from polars_rankmetrics.significance._stats import Result

__all__ = ["OUTPUT_COLUMNS", "TESTS", "compare"]

Test = Literal["t", "randomization", "bootstrap", "wilcoxon", "tukey"]
TESTS: tuple[Test, ...] = ("t", "randomization", "bootstrap", "wilcoxon", "tukey")

# The output's columns after the `by` column (the system).
OUTPUT_COLUMNS = (
    "baseline",
    "metric",
    "n",
    "mean",
    "baseline_mean",
    "delta",
    "ci_low",
    "ci_high",
    "p_value",
    "p_adjusted",
    "significant",
    "effect_size",
    "test",
    "correction",
    "alpha",
    "missing",
    "paired_on",
    "p_text",
)


def _check_parameters(  # noqa: PLR0913
    *,
    by: str | None,
    test: str,
    correction: str | None,
    alpha: float,
    n_resamples: int,
    seed: int | None,
    missing: str,
) -> float:
    if by is not None and not isinstance(by, str):
        raise InvalidParameterError.out_of_domain("by", "the name of the column naming the system", by)
    if by in OUTPUT_COLUMNS:
        raise InvalidParameterError.out_of_domain(
            "by", "a column name other than compare's output columns (rename it)", by
        )
    check_choice(test, "test", TESTS)
    check_choice(correction, "correction", ("holm", "bonferroni", "bh", None))
    check_choice(missing, "missing", ("error", "zero", "intersect"))
    level = check_real(alpha, "alpha")
    if not 0 < level < 1:
        raise InvalidParameterError.out_of_domain("alpha", "in (0, 1)", alpha)
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, Integral) or n_resamples < 1:
        raise InvalidParameterError.out_of_domain("n_resamples", "a positive integer", n_resamples)
    if int(n_resamples) > MAX_RESAMPLES:  # each resample is a row of work: bounded before any draw
        domain = f"at most {MAX_RESAMPLES:,} (each resample is a row of work)"
        raise InvalidParameterError.out_of_domain("n_resamples", domain, n_resamples)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0):
        raise InvalidParameterError.out_of_domain("seed", "a non-negative integer or None", seed)
    return level


SMALLEST_SHOWN = 1e-300
"""P-values below this print as ``< 1e-300``: near and below the smallest double, the digits mean nothing."""


def p_text(p: float | None) -> str | None:
    """A p-value as text: ``< 1e-300`` below what a double shows, ``1.23e-07`` below 1e-4, else ``0.0123``.

    Examples
    --------
    >>> from polars_rankmetrics.significance._compare import p_text
    >>> [p_text(p) for p in [0.0, 2e-310, 3.14159e-12, 0.0123, 1.0]]
    ['< 1e-300', '< 1e-300', '3.14e-12', '0.0123', '1.0000']
    """
    if p is None or p != p:  # noqa: PLR0124  (NaN)
        return None
    if p < SMALLEST_SHOWN:
        return "< 1e-300"
    return f"{p:.2e}" if p < 1e-4 else f"{p:.4f}"


def _pairs(paired: Paired, baseline: object) -> npt.NDArray[np.int64]:
    """``(system, baseline)`` positions: every system against the baseline, or every pair (j > i, i)."""
    import numpy as np  # noqa: PLC0415  (an optional dependency)

    count = paired.systems.len()
    if baseline is not None:
        base = paired.index(baseline)
        return np.array([(s, base) for s in range(count) if s != base], dtype=np.int64)
    return np.array([(j, i) for i in range(count) for j in range(i + 1, count)], dtype=np.int64)


def compare(  # noqa: PLR0913
    per_query: pl.DataFrame | pl.LazyFrame,
    *,
    by: str | None = None,
    baseline: object = None,
    metrics: str | Sequence[str] | None = None,
    query: str | None = None,
    columns: ColumnsLike = None,
    test: Test = "t",
    correction: Correction | None = "holm",
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    seed: int | None = None,
    missing: MissingPolicy = "error",
    replicates: str | None = None,
    unequal_replicates: Unequal = "error",
) -> pl.DataFrame:
    """Compare systems query by query: a paired significance test per (system, metric).

    Parameters
    ----------
    per_query
        One row per (system, query), one column per metric: what
        ``prm.evaluate(frame, metrics, by=by, per_query=True)`` returns: a
        Polars DataFrame or LazyFrame, or a pandas DataFrame, pyarrow Table
        or other Arrow-stream frame. Row order does not matter; values are
        paired by query.
    by
        The column naming the system (run, model...); None takes the `by`
        key of the frame :func:`evaluate` returned (one key).
    baseline
        The system every other is compared with; None compares every pair
        (in each pair the system that sorts first is the baseline).
    metrics
        The metric columns to compare; None takes every numeric column but
        `by` and `query`.
    query
        The query column; None reads it from `columns`, else the frame
        :func:`evaluate` returned knows its own, else a column ``query``,
        else the one column that is neither the system, a float nor a
        metric named.
    columns
        The frame's columns as :func:`evaluate` took them (a
        :class:`Columns` or a ``{"query": name}`` mapping): its ``query``
        names the query column (the unit of pairing).
    test
        ``"t"``: paired Student t test, with the t interval of the mean
        delta. ``"randomization"``: paired sign-flip permutation test of the
        mean delta; every sign vector is enumerated when
        ``2**n <= n_resamples``, else the p-value is ``(b + 1) /
        (n_resamples + 1)`` with ``b`` the resamples at least as extreme as
        the observed mean; its interval inverts the test. ``"bootstrap"``:
        paired bootstrap of the mean delta, the percentile interval, and the
        p-value ``min(1, 2 (min(b_le, b_ge) + 1) / (n_resamples + 1))`` from
        the same resamples (``b_le``, ``b_ge``: resampled means at most /
        at least 0). ``"wilcoxon"``: signed-rank test as
        ``scipy.stats.wilcoxon`` with its defaults (zero deltas dropped:
        ``zero_method="wilcox"``), reported with the t interval.
        ``"tukey"``: randomised Tukey HSD (permute the systems' values within
        each query; compare each |delta| with the resampled largest
        difference between any two systems), with a simultaneous interval.
        Every test is two-sided.
    correction
        ``"holm"``, ``"bonferroni"``, ``"bh"`` (Benjamini-Hochberg) or None.
        The family is every comparison of one metric: all systems against
        the baseline, or all pairs. ``test="tukey"`` controls the
        family-wise error itself: its p-values are not corrected again
        (``p_adjusted == p_value``, and the ``correction`` column is null).
    alpha
        The significance level, and ``1 - alpha`` the intervals' level.
    n_resamples
        Resamples of the randomization, bootstrap and Tukey tests.
    seed
        Seed of their random draws: the same seed gives the same result, bit
        for bit. None draws fresh entropy.
    missing
        A query some system has no row for: ``"error"`` raises, naming the
        systems and queries; ``"zero"`` scores it 0 for that system
        (trec_eval's ``-c``); ``"intersect"`` compares on the queries every
        system has.

    Returns
    -------
    pl.DataFrame
        One row per (system, metric) compared, sorted by metric (in the
        order of `metrics`), then baseline, then system (in sorted order):
        the `by` column (the system), ``baseline``, ``metric``, ``n`` (the
        paired queries), ``mean``, ``baseline_mean``, ``delta`` (``mean -
        baseline_mean``), ``ci_low``, ``ci_high`` (the interval of the mean
        delta at level ``1 - alpha``), ``p_value``, ``p_adjusted``,
        ``significant`` (``p_adjusted < alpha``), ``effect_size`` (mean
        delta over the standard deviation of the deltas; null when they are
        all equal), and the settings, for :func:`table`: ``test``,
        ``correction``, ``alpha``, ``missing`` (the policy: with ``"zero"``
        or ``"intersect"`` a system's mean here is over other queries than
        its mean from :func:`evaluate`; the table's note says so),
        ``paired_on`` (the query column: the unit of pairing, which the
        table's note names) and ``p_text``, the p-value as printed:
        ``< 1e-300`` below what a double shows (where the test's p-value
        underflows to 0), scientific below 1e-4 (``3.14e-12``), else four
        decimals.

    Raises
    ------
    InvalidInputError
        `per_query` is not a frame.
    ColumnNotFoundError
        `by`, `query` or a metric column is not in the frame.
    ColumnTypeError
        A metric column is not numeric.
    InvalidParameterError
        A parameter out of its domain, or a `baseline` that is not a system.
    InvalidDataError
        A query missing for some system (with ``missing="error"``), fewer
        than 2 paired queries or 2 systems, null ids, duplicate (system,
        query) rows, or NaN, infinite or null values.
    ModuleNotFoundError
        numpy (every test) or scipy (``"t"``, ``"wilcoxon"``) is not
        installed: ``pip install "polars-rankmetrics[significance]"``.

    Notes
    -----
    The resampling tests share their draws across metrics and pairs; they
    hold ``n_resamples x comparisons`` statistics in memory (18 MB for
    10,000 resamples of 225 comparisons). Statistics that differ by less
    than ``1e-9`` of the deltas' mean absolute value count as ties.

    References
    ----------
    Smucker, Allan & Carterette (2007), A comparison of statistical
    significance tests for information retrieval evaluation, CIKM.
    Carterette (2012), Multiple testing in statistical analysis of
    systems-based information retrieval experiments, TOIS 30(1).
    Sakai (2014), Statistical reform in information retrieval?, SIGIR Forum.

    Examples
    --------
    >>> per_query = pl.DataFrame({
    ...     "run": ["bm25"] * 5 + ["dense"] * 5,
    ...     "query": ["q1", "q2", "q3", "q4", "q5"] * 2,
    ...     "ndcg@10": [0.2, 0.4, 0.1, 0.5, 0.3, 0.5, 0.6, 0.3, 0.7, 0.6],
    ... })
    >>> prm.compare(per_query, by="run", baseline="bm25").select(
    ...     "run", "baseline", "metric", "delta", "ci_low", "ci_high", "p_value", "significant"
    ... ).with_columns(pl.col(pl.Float64).round(4))
    shape: (1, 8)
    ┌───────┬──────────┬─────────┬───────┬────────┬─────────┬─────────┬─────────────┐
    │ run   ┆ baseline ┆ metric  ┆ delta ┆ ci_low ┆ ci_high ┆ p_value ┆ significant │
    │ ---   ┆ ---      ┆ ---     ┆ ---   ┆ ---    ┆ ---     ┆ ---     ┆ ---         │
    │ str   ┆ str      ┆ str     ┆ f64   ┆ f64    ┆ f64     ┆ f64     ┆ bool        │
    ╞═══════╪══════════╪═════════╪═══════╪════════╪═════════╪═════════╪═════════════╡
    │ dense ┆ bm25     ┆ ndcg@10 ┆ 0.24  ┆ 0.172  ┆ 0.308   ┆ 0.0006  ┆ true        │
    └───────┴──────────┴─────────┴───────┴────────┴─────────┴─────────┴─────────────┘
    """
    level = _check_parameters(
        by=by,
        test=test,
        correction=correction,
        alpha=alpha,
        n_resamples=n_resamples,
        seed=seed,
        missing=missing,
    )
    per_query, by, query = read(per_query, by, query, columns, "prm.compare", metrics, replicates)
    _replicates.check(replicates, unequal_replicates, by, query)
    require("numpy", "prm.compare")
    from polars_rankmetrics.significance._paired import metric_columns, pair  # noqa: PLC0415  (needs numpy)

    spread = None
    if replicates is not None:
        lf = as_polars(per_query, "per_query").lazy()
        schema = pl.Schema({k: v for k, v in lf.collect_schema().items() if k != replicates})
        chosen = metric_columns(schema, by, query, metrics)
        done = _replicates.average(
            lf, by=by, query=query, replicates=replicates, metrics=chosen, unequal=unequal_replicates
        )
        per_query, metrics, spread = done.per_query, chosen, done.spread
    paired = pair(per_query, by=by, query=query, metrics=metrics, missing=missing)
    pairs = _pairs(paired, baseline)
    out = _tested(
        paired, pairs, test=test, correction=correction, alpha=level, n_resamples=n_resamples, seed=seed
    )
    out = out.with_columns(
        pl.lit(missing, dtype=pl.String).alias("missing"),
        pl.lit(query, dtype=pl.String).alias("paired_on"),
        pl.Series("p_text", [p_text(p) for p in out.get_column("p_value")], dtype=pl.String),
    )
    if spread is None:
        return out
    std = _replicates.REPLICATE_STD
    return out.join(spread, on=[by, "metric"], how="left", maintain_order="left").join(
        spread.select(pl.col(by).alias("baseline"), "metric", pl.col(std).alias(f"baseline_{std}")),
        on=["baseline", "metric"],
        how="left",
        maintain_order="left",
    )


def _paired_test(
    test: Test, deltas: npt.NDArray[np.float64], alpha: float, n_resamples: int, rng: np.random.Generator
) -> Result:
    """The test on each column of `deltas` (queries x comparisons), uncorrected."""
    from polars_rankmetrics.significance import _stats  # noqa: PLC0415  (needs numpy)

    if test == "t":
        return _stats.paired_t(deltas, alpha)
    if test == "wilcoxon":
        return _stats.wilcoxon(deltas, alpha)
    if test == "randomization":
        return _stats.randomization(deltas, alpha, n_resamples, rng)
    return _stats.bootstrap(deltas, alpha, n_resamples, rng)


def _tested(  # noqa: PLR0913
    paired: Paired,
    pairs: npt.NDArray[np.int64],
    *,
    test: Test,
    correction: Correction | None,
    alpha: float,
    n_resamples: int,
    seed: int | None,
) -> pl.DataFrame:
    """Run the test on every (metric, pair) and build the output frame."""
    import numpy as np  # noqa: PLC0415  (an optional dependency)

    from polars_rankmetrics.significance import _stats  # noqa: PLC0415  (needs numpy)
    from polars_rankmetrics.significance._corrections import adjust  # noqa: PLC0415

    values = paired.values  # (metrics, queries, systems)
    n_metrics, n, _ = values.shape
    n_pairs = len(pairs)
    # deltas[q, m * n_pairs + p]: metric m, pair p, query q (metric-major columns). Each column is
    # contiguous (Fortran order), so that numpy reduces it the same way whatever the other columns.
    deltas = np.asfortranarray(
        (values[:, :, pairs[:, 0]] - values[:, :, pairs[:, 1]]).transpose(1, 0, 2).reshape(n, -1)
    )
    rng = np.random.default_rng(seed)
    if test == "tukey":
        result = _stats.tukey(values, pairs, alpha, n_resamples, rng)
        p_value, low, high = (a.reshape(-1) for a in (result.p_value, result.ci_low, result.ci_high))
        p_adjusted = p_value
    else:
        result = _paired_test(test, deltas, alpha, n_resamples, rng)
        p_value, low, high = result.p_value, result.ci_low, result.ci_high
        families = p_value.reshape(n_metrics, n_pairs)  # one family per metric
        p_adjusted = np.concatenate([adjust(family, correction) for family in families])
    means = values.mean(axis=1)  # (metrics, systems)
    mean = means[:, pairs[:, 0]].reshape(-1)
    baseline_mean = means[:, pairs[:, 1]].reshape(-1)
    systems = paired.systems
    rows = n_metrics * n_pairs
    return pl.DataFrame(
        [
            systems.gather(np.tile(pairs[:, 0], n_metrics)),
            systems.gather(np.tile(pairs[:, 1], n_metrics)).alias("baseline"),
            pl.Series("metric", np.repeat(np.array(paired.metrics, dtype=object), n_pairs), dtype=pl.String),
            pl.Series("n", [n] * rows, dtype=pl.Int64),
            pl.Series("mean", mean),
            pl.Series("baseline_mean", baseline_mean),
            pl.Series("delta", mean - baseline_mean),
            pl.Series("ci_low", low),
            pl.Series("ci_high", high),
            pl.Series("p_value", p_value),
            pl.Series("p_adjusted", p_adjusted),
            pl.Series("significant", p_adjusted < alpha),
            pl.Series("effect_size", _stats.effect_size(deltas), nan_to_null=True),
            pl.Series("test", [test] * rows, dtype=pl.String),
            pl.Series("correction", [None if test == "tukey" else correction] * rows, dtype=pl.String),
            pl.Series("alpha", [alpha] * rows, dtype=pl.Float64),
        ]
    )
