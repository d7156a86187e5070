"""summarize(): each system's mean of each metric over queries, with its standard deviation and interval."""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import TYPE_CHECKING, Any, Literal

import polars as pl

from polars_rankmetrics._schema import ColumnsLike
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions._parameters import check_choice, check_real
from polars_rankmetrics.significance import _replicates
from polars_rankmetrics.significance._deps import require
from polars_rankmetrics.significance._roles import read

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["SUMMARY_COLUMNS", "bootstrap_rows", "check_level", "summarize"]

IntervalKind = Literal["t", "bootstrap"]
SUMMARY_COLUMNS = ("metric", "n", "mean", "std", "ci_low", "ci_high")
CHUNK_CELLS = 1 << 20  # query draws per chunk of bootstrap resamples


def check_level(alpha: object) -> float:
    """`alpha` as a float in (0, 1), or InvalidParameterError."""
    level = check_real(alpha, "alpha")
    if not 0 < level < 1:
        raise InvalidParameterError.out_of_domain("alpha", "in (0, 1)", alpha)
    return level


def bootstrap_rows(n: int) -> int:
    """Resamples drawn per chunk for `n` queries (``scipy.stats.bootstrap(batch=...)`` draws alike)."""
    return max(1, CHUNK_CELLS // n)


def _bootstrap(
    values: npt.NDArray[np.float64], alpha: float, n_resamples: int, entropy: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Percentile bootstrap interval of the mean of each column of `values` (queries x metrics)."""
    import numpy as np  # noqa: PLC0415  (an optional dependency)

    n = values.shape[0]
    rng = np.random.default_rng(entropy)
    means = np.empty((n_resamples, values.shape[1]))
    step = bootstrap_rows(n)
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        picks = rng.integers(0, n, size=(rows, n))
        flat = (picks + n * np.arange(rows, dtype=np.int64)[:, None]).ravel()
        counts = np.bincount(flat, minlength=rows * n).reshape(rows, n).astype(np.float64)
        means[start : start + rows] = (counts @ values) / n
    low, high = np.quantile(means, [alpha / 2.0, 1.0 - alpha / 2.0], axis=0)
    return low, high


MAX_RESAMPLES = 10_000_000
"""The most resamples (or permutations) a test or interval draws: each is a row of work."""


def _checked(by: object, interval: object, alpha: object, n_resamples: object, seed: object) -> float:
    """Check summarize's options; return the level `alpha` as a float."""
    if not isinstance(by, str):
        raise InvalidParameterError.out_of_domain("by", "the name of the column naming the system", by)
    check_choice(interval, "interval", ("t", "bootstrap"))
    level = check_level(alpha)
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, Integral) or n_resamples < 1:
        raise InvalidParameterError.out_of_domain("n_resamples", "a positive integer", n_resamples)
    if int(n_resamples) > MAX_RESAMPLES:  # each resample is a row of work: bounded before any draw
        domain = f"at most {MAX_RESAMPLES:,} (each resample is a row of work)"
        raise InvalidParameterError.out_of_domain("n_resamples", domain, n_resamples)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0):
        raise InvalidParameterError.out_of_domain("seed", "a non-negative integer or None", seed)
    return level


def _moments(
    values: Any,  # noqa: ANN401  (a numpy array, queries x metrics; numpy is optional)
    interval: str,
    level: float,
    n_resamples: int,
    entropy: int,
) -> tuple[Any, Any, Any, Any]:
    """Each column's mean, sample standard deviation and interval (nulls below two queries)."""
    np = require("numpy", "prm.summarize")
    # Each column over a power of two at least its largest magnitude: the sums cannot overflow
    # (values near 1e308 gave mean=inf), and the bits are those of the unscaled sums otherwise.
    scale = np.ldexp(
        1.0, np.frexp(np.max(np.abs(values), axis=0, initial=0.0))[1] - 1
    )  # values / scale in [-2, 2]
    mean, std, low, high = _scaled_moments(values / scale, interval, level, n_resamples, entropy)
    with np.errstate(over="ignore"):  # an interval bound beyond the largest float is inf
        return mean * scale, std * scale, low * scale, high * scale


def _scaled_moments(
    values: Any,  # noqa: ANN401
    interval: str,
    level: float,
    n_resamples: int,
    entropy: int,
) -> tuple[Any, Any, Any, Any]:
    """:func:`_moments` of values within [-2, 2]."""
    np = require("numpy", "prm.summarize")
    stats = require("scipy.stats", "prm.summarize")
    n = values.shape[0]
    mean = values.mean(axis=0)
    if n < 2:
        nothing = np.full(values.shape[1], np.nan)
        return mean, nothing, nothing, nothing
    constant = np.all(values == values[:1], axis=0)
    std = np.where(constant, 0.0, values.std(axis=0, ddof=1))
    if interval == "t":
        half = stats.t.ppf(1.0 - level / 2.0, n - 1) * std / np.sqrt(n)
        low, high = mean - half, mean + half
    else:
        low, high = _bootstrap(values, level, n_resamples, entropy)
    return mean, std, np.where(constant, mean, low), np.where(constant, mean, high)


def summarize(  # noqa: PLR0913
    per_query: pl.DataFrame | pl.LazyFrame,
    *,
    by: str | None = None,
    metrics: str | Sequence[str] | None = None,
    query: str | None = None,
    columns: ColumnsLike = None,
    interval: IntervalKind = "t",
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    seed: int | None = None,
    replicates: str | None = None,
    unequal_replicates: _replicates.Unequal = "error",
) -> pl.DataFrame:
    """Each system's mean of each metric over its queries, with the standard deviation and an interval.

    Parameters
    ----------
    per_query
        One row per (system, query) (per (system, replicate, query) with
        `replicates`), one column per metric: what
        ``prm.evaluate(frame, metrics, by=by, per_query=True)`` returns.
    by
        The column naming the system; None takes the one `by` key of
        the frame :func:`evaluate` returned.
    metrics
        The metric columns; None takes every numeric column but `by`,
        `query` and `replicates`.
    query
        The query column. Each system is summarised over the queries it has.
    columns
        The frame's columns as :func:`evaluate` took them (a
        :class:`Columns` or a ``{"query": name}`` mapping): its ``query``
        names the query column. With neither `query` nor `columns`, the
        frame :func:`evaluate` returned knows its own, else a column
        ``query``, else the one column neither the system, a float nor a
        metric named.
    interval
        ``"t"``: Student's t interval ``mean +/- t(1 - alpha/2, n - 1) std /
        sqrt(n)``, as ``scipy.stats.t.interval``. ``"bootstrap"``: the
        percentile bootstrap interval of the mean, as
        ``scipy.stats.bootstrap(method="percentile")``: `n_resamples`
        resamples of the system's queries, drawn with replacement.
    alpha
        The interval's level is ``1 - alpha``.
    n_resamples
        Bootstrap resamples.
    seed
        Seed of the bootstrap draws: the same seed gives the same bits.
        Every system draws from a generator seeded alike, so the draws are
        those of ``scipy.stats.bootstrap(..., rng=np.random.default_rng(seed),
        batch=...)`` on that system alone. None draws fresh entropy (once).
    replicates
        A column naming the replicate (seed, fold) of each row: the values
        of each (system, query) are first averaged over its replicates,
        and two columns are added: ``n_replicates`` and ``replicate_std``,
        the standard deviation over the replicates of the system's mean.
    unequal_replicates
        ``"error"`` refuses systems or queries with different numbers of
        replicates; ``"mean"`` averages whatever each (system, query) has.

    Returns
    -------
    pl.DataFrame
        One row per (system, metric), sorted by metric (in the order of
        `metrics`) then system: the `by` column, ``metric``, ``n`` (queries),
        ``mean``, ``std`` (``ddof=1``), ``ci_low``, ``ci_high``. With one
        query, ``std`` and the interval are null; where every value is
        equal, the interval is the single point.

    Raises
    ------
    ColumnNotFoundError, ColumnTypeError, InvalidParameterError, InvalidDataError
        As :func:`compare`: a missing or non-numeric column, a parameter
        out of its domain, null ids, duplicate rows, NaN or null values,
        unequal replicate counts.
    ModuleNotFoundError
        numpy or scipy is not installed: ``pip install "polars-rankmetrics[significance]"``.

    References
    ----------
    Efron & Tibshirani (1993), An Introduction to the Bootstrap, chapter 13.

    Examples
    --------
    >>> per_query = pl.DataFrame({
    ...     "run": ["bm25"] * 4 + ["dense"] * 4,
    ...     "query": ["q1", "q2", "q3", "q4"] * 2,
    ...     "ndcg@10": [0.2, 0.4, 0.1, 0.5, 0.5, 0.6, 0.3, 0.7],
    ... })
    >>> prm.summarize(per_query, by="run").with_columns(pl.col(pl.Float64).round(4))
    shape: (2, 7)
    ┌───────┬─────────┬─────┬───────┬────────┬────────┬─────────┐
    │ run   ┆ metric  ┆ n   ┆ mean  ┆ std    ┆ ci_low ┆ ci_high │
    │ ---   ┆ ---     ┆ --- ┆ ---   ┆ ---    ┆ ---    ┆ ---     │
    │ str   ┆ str     ┆ i64 ┆ f64   ┆ f64    ┆ f64    ┆ f64     │
    ╞═══════╪═════════╪═════╪═══════╪════════╪════════╪═════════╡
    │ bm25  ┆ ndcg@10 ┆ 4   ┆ 0.3   ┆ 0.1826 ┆ 0.0095 ┆ 0.5905  │
    │ dense ┆ ndcg@10 ┆ 4   ┆ 0.525 ┆ 0.1708 ┆ 0.2532 ┆ 0.7968  │
    └───────┴─────────┴─────┴───────┴────────┴────────┴─────────┘
    """
    per_query, by, query = read(per_query, by, query, columns, "prm.summarize", metrics, replicates)
    level = _checked(by, interval, alpha, n_resamples, seed)
    _replicates.check(replicates, unequal_replicates, by, query)
    np = require("numpy", "prm.summarize")
    require("scipy.stats", "prm.summarize")
    from polars_rankmetrics.significance._paired import check_rows, metric_columns  # noqa: PLC0415

    lf = per_query.lazy()
    schema = pl.Schema({k: v for k, v in lf.collect_schema().items() if k != replicates})
    chosen = metric_columns(schema, by, query, metrics)
    spread = None
    if replicates is not None:
        done = _replicates.average(
            lf, by=by, query=query, replicates=replicates, metrics=chosen, unequal=unequal_replicates
        )
        df, spread = done.per_query, done.spread
    else:
        df = lf.select(by, query, *chosen).collect()
    check_rows(df, by, query, chosen)
    entropy = int(np.random.SeedSequence(seed).entropy) if seed is None else seed
    systems = df.get_column(by).unique().sort()
    parts = []
    for system in systems:
        rows = df.filter(pl.col(by) == system).sort(query)  # the sums' order never depends on the input's
        values = np.ascontiguousarray(rows.select(pl.col(chosen).cast(pl.Float64)).to_numpy())
        n = values.shape[0]
        mean, std, low, high = _moments(values, interval, level, n_resamples, entropy)
        parts.append(
            pl.DataFrame(
                {
                    "metric": list(chosen),
                    "n": [n] * len(chosen),
                    "mean": mean,
                    "std": std,
                    "ci_low": low,
                    "ci_high": high,
                },
                schema={"metric": pl.String, "n": pl.Int64, **dict.fromkeys(SUMMARY_COLUMNS[2:], pl.Float64)},
                nan_to_null=True,
            ).select(pl.lit(system, dtype=systems.dtype).alias(by), pl.all())
        )
    order = pl.col("metric").replace_strict(list(chosen), list(range(len(chosen))), return_dtype=pl.Int64)
    out = pl.concat(parts).sort(order, pl.col(by))
    if spread is not None:
        out = out.join(spread, on=[by, "metric"], how="left", maintain_order="left")
    return out
