"""power(): topic set size design for the paired t test (Sakai, 2016), from a pilot's per-query deltas."""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import TYPE_CHECKING

import polars as pl

from polars_rankmetrics._schema import ColumnsLike
from polars_rankmetrics.exceptions import InvalidDataError, InvalidParameterError
from polars_rankmetrics.significance._deps import require
from polars_rankmetrics.significance._roles import read
from polars_rankmetrics.significance._summary import check_level

if TYPE_CHECKING:
    from polars_rankmetrics.significance._paired import MissingPolicy

__all__ = ["power"]

MIN_QUERIES = 2  # the paired t test has n - 1 degrees of freedom
MAX_QUERIES = 10**7
"""The most queries power plans for (given as `n_queries`, or needed for `delta`)."""
_ROUNDING = 64  # deltas whose spread is below this many ulps of the values are equal up to rounding


def t_power(effect: float, n: int, alpha: float) -> float:
    """Power of the two-sided paired t test: effect ``|delta| / sd``, `n` queries, level `alpha`.

    ``P(T > t) + P(T < -t)`` with ``T`` noncentral t (``n - 1`` degrees of
    freedom, noncentrality ``effect sqrt(n)``) and ``t`` the ``1 - alpha/2``
    quantile of Student's t: statsmodels' ``TTestPower().power``.
    """
    stats = require("scipy.stats", "prm.power")
    df = n - 1
    nc = effect * n**0.5
    upper = float(stats.t.isf(alpha / 2.0, df))
    lower = float(stats.t.ppf(alpha / 2.0, df))
    above = float(stats.nct.sf(upper, df, nc))
    below = float(stats.nct.cdf(lower, df, nc))
    if not math.isfinite(above):  # scipy's noncentral t returns NaN at some points of its tails
        above = _tail(upper, df, nc, above=True)
    if not math.isfinite(below):
        below = _tail(lower, df, nc, above=False)
    value = above + below
    if not 0.0 <= value <= 1.0 + 1e-9:
        raise InvalidDataError.undefined(
            f"the power at an effect |delta| / sd of {effect:.6g} with {n} queries",
            "the noncentral t cannot be computed there (the effect is too large or too small)",
        )
    return min(value, 1.0)


def _tail(t: float, df: int, nc: float, *, above: bool) -> float:
    """``P(T > t)`` (or ``P(T < t)``) of the noncentral t, from its definition.

    ``T = (Z + nc) / sqrt(V / df)``, ``Z`` standard normal, ``V`` chi-squared
    with `df` degrees of freedom: ``P(T > t) = E_V[P(Z > t sqrt(V / df) - nc)]``,
    integrated over ``V``'s density.
    """
    stats = require("scipy.stats", "prm.power")
    integrate = require("scipy.integrate", "prm.power")

    def term(v: float) -> float:
        x = t * math.sqrt(v / df) - nc
        return float((stats.norm.sf(x) if above else stats.norm.cdf(x)) * stats.chi2.pdf(v, df))

    value: float = integrate.quad(term, 0.0, math.inf, limit=200)[0]
    return value


def _queries_needed(effect: float, alpha: float, target: float) -> int:
    """The smallest n >= 2 whose power reaches `target` (power grows with n)."""
    stats = require("scipy.stats", "prm.power")
    guess = ((stats.norm.isf(alpha / 2.0) + stats.norm.ppf(target)) / effect) ** 2
    if not guess <= MAX_QUERIES:  # the normal approximation is below the t test's need
        raise InvalidDataError.undefined(
            f"the queries needed to detect an effect |delta| / sd of {effect:.6g}",
            f"over {MAX_QUERIES:,} queries (about {guess:.3g}): give a larger delta",
        )
    n = max(MIN_QUERIES, int(guess))
    while t_power(effect, n, alpha) < target:
        n += 1
    while n > MIN_QUERIES and t_power(effect, n - 1, alpha) >= target:
        n -= 1
    return n


def _detectable(n: int, alpha: float, target: float) -> float:
    """The effect ``|delta| / sd`` whose power with `n` queries is `target`."""
    optimize = require("scipy.optimize", "prm.power")
    high = 1.0
    while t_power(high, n, alpha) < target:
        high *= 2.0

    def gap(e: float) -> float:
        return t_power(e, n, alpha) - target

    root: float = optimize.brentq(gap, 0.0, high, xtol=1e-15, rtol=8.9e-16, maxiter=500)
    return root


def _check(delta: object, n_queries: object, target: object) -> tuple[float | None, int | None, float]:
    if delta is not None and (
        isinstance(delta, bool) or not isinstance(delta, Real) or not 0 < abs(float(delta)) < float("inf")
    ):
        raise InvalidParameterError.out_of_domain("delta", "a non-zero finite number or None", delta)
    if n_queries is not None and (
        isinstance(n_queries, bool)
        or not isinstance(n_queries, Integral)
        or not MIN_QUERIES <= int(n_queries) <= MAX_QUERIES
    ):
        domain = f"an integer in [2, {MAX_QUERIES:,}] or None"
        raise InvalidParameterError.out_of_domain("n_queries", domain, n_queries)
    if delta is None and n_queries is None:
        raise InvalidParameterError.out_of_domain(
            "delta",
            "given, or `n_queries` given: power answers the one left out (or the power, given both)",
            None,
        )
    if not isinstance(target, Real) or isinstance(target, bool) or not 0 < float(target) < 1:
        raise InvalidParameterError.out_of_domain("power", "in (0, 1)", target)
    return (
        None if delta is None else abs(float(delta)),
        None if n_queries is None else int(n_queries),
        float(target),
    )


def power(  # noqa: PLR0913
    per_query: pl.DataFrame | pl.LazyFrame,
    *,
    by: str | None = None,
    metric: str,
    delta: float | None = None,
    n_queries: int | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    baseline: object = None,
    pooled: bool = False,
    query: str | None = None,
    columns: ColumnsLike = None,
    missing: MissingPolicy = "error",
) -> pl.DataFrame:
    """Topic set size design: the queries needed, the smallest difference detectable, or the power.

    From a pilot evaluation, the standard deviation ``sd`` of the per-query
    deltas between two systems sets the power of a two-sided paired t test
    on a future test collection (Sakai, 2016). Give two of `delta`,
    `n_queries` and the target `power`; the third is computed:

    - `delta` alone: ``n_queries``, the smallest number of queries whose
      power to detect a mean delta of ``delta`` reaches `power` (the
      ``power`` column then holds the power at that number);
    - `n_queries` alone: ``delta``, the smallest mean delta detected with
      probability `power` (a root of the power function);
    - both: ``power``, as statsmodels' ``TTestPower().power(delta / sd,
      n_queries, alpha)``.

    The power is ``P(T > t) + P(T < -t)``, with ``T`` a noncentral t of
    ``n - 1`` degrees of freedom and noncentrality ``sqrt(n) |delta| / sd``,
    and ``t`` the ``1 - alpha/2`` quantile of Student's t.

    Parameters
    ----------
    per_query
        The pilot: one row per (system, query), one column per metric.
    by
        The column naming the system; None takes the one `by` key of
        the frame :func:`evaluate` returned.
    metric
        The metric column.
    delta
        The difference in means to detect (its sign does not matter).
    n_queries
        The number of queries of the planned collection (2 to 10,000,000).
    alpha
        The test's significance level.
    power
        The target power (``1 - beta``), used unless both `delta` and
        `n_queries` are given.
    baseline
        Compare every system with this one; None takes every pair.
    pooled
        One row from the pooled variance of every pair's deltas (the mean
        of their variances), its `by` and ``baseline`` null.
    query
        The query column.
    columns
        The frame's columns as :func:`evaluate` took them (a
        :class:`Columns` or a ``{"query": name}`` mapping): its ``query``
        names the query column. With neither `query` nor `columns`, the
        frame :func:`evaluate` returned knows its own, else a column
        ``query``, else the one column neither the system, a float nor a
        metric named.
    missing
        Queries some system lacks: as :func:`compare`.

    Returns
    -------
    pl.DataFrame
        One row per pair (or one pooled row): the `by` column, ``baseline``,
        ``metric``, ``sd`` (of the deltas, ``ddof=1``), ``delta``,
        ``n_queries``, ``power``.

    Raises
    ------
    InvalidParameterError
        Neither `delta` nor `n_queries`, or a value out of its domain.
    InvalidDataError
        A pair whose deltas are all equal, up to rounding (no variance: no
        power to plan; with `pooled`, only when every pair's are); a
        `delta` that would need over 10,000,000 queries; an effect so large
        or small that the noncentral t cannot be computed;
        and the data errors of :func:`compare`.
    ModuleNotFoundError
        numpy or scipy is not installed: ``pip install "polars-rankmetrics[significance]"``.

    References
    ----------
    Sakai (2016), Topic set size design, Information Retrieval Journal 19(3).

    Examples
    --------
    >>> pilot = pl.DataFrame({
    ...     "run": ["bm25"] * 6 + ["dense"] * 6,
    ...     "query": list(range(6)) * 2,
    ...     "ndcg@10": [0.2, 0.4, 0.1, 0.5, 0.3, 0.6, 0.3, 0.5, 0.1, 0.6, 0.5, 0.6],
    ... })
    >>> prm.power(pilot, by="run", metric="ndcg@10", delta=0.02).with_columns(pl.col("sd", "power").round(4))
    shape: (1, 7)
    ┌───────┬──────────┬─────────┬────────┬───────┬───────────┬────────┐
    │ run   ┆ baseline ┆ metric  ┆ sd     ┆ delta ┆ n_queries ┆ power  │
    │ ---   ┆ ---      ┆ ---     ┆ ---    ┆ ---   ┆ ---       ┆ ---    │
    │ str   ┆ str      ┆ str     ┆ f64    ┆ f64   ┆ i64       ┆ f64    │
    ╞═══════╪══════════╪═════════╪════════╪═══════╪═══════════╪════════╡
    │ dense ┆ bm25     ┆ ndcg@10 ┆ 0.0753 ┆ 0.02  ┆ 114       ┆ 0.8031 │
    └───────┴──────────┴─────────┴────────┴───────┴───────────┴────────┘
    """
    level = check_level(alpha)
    wanted_delta, wanted_n, target = _check(delta, n_queries, power)
    if not isinstance(metric, str):
        raise InvalidParameterError.out_of_domain("metric", "the name of one metric column", metric)
    np = require("numpy", "prm.power")
    from polars_rankmetrics.significance._paired import pair  # noqa: PLC0415  (needs numpy)

    per_query, by, query = read(per_query, by, query, columns, "prm.power", [metric])
    paired = pair(per_query, by=by, query=query, metrics=[metric], missing=missing)
    values, count = paired.values[0], paired.systems.len()  # values: (queries, systems)
    if baseline is not None:
        base = paired.index(baseline)
        pairs = [(s, base) for s in range(count) if s != base]
    else:
        pairs = [(j, i) for i in range(count) for j in range(i + 1, count)]
    deltas = np.stack([values[:, s] - values[:, b] for s, b in pairs], axis=1)
    # Equal up to rounding: a spread within a few ulps of the values (0.6 - 0.3 and 0.7 - 0.4 differ).
    scale = np.max(np.abs(values), initial=0.0) * np.finfo(np.float64).eps * _ROUNDING
    constant = np.ptp(deltas, axis=0) <= scale
    if constant.all() if pooled else constant.any():  # pooled: the other pairs' variance plans
        s, b = pairs[int(np.flatnonzero(constant)[0])]
        names = paired.systems.to_list()
        raise InvalidDataError.undefined(
            f"the deltas of system {names[s]!r} against {names[b]!r} on {metric!r} are all equal",
            "with no variance there is no power to plan for; give a pilot whose systems differ per query",
        )
    variances = deltas.var(axis=0, ddof=1)
    sds = [float(np.sqrt(variances.mean()))] if pooled else [float(v) for v in np.sqrt(variances)]
    answers = [_answer(sd, wanted_delta, wanted_n, level, target) for sd in sds]
    systems = paired.systems
    if pooled:
        system_col = pl.Series(by, [None], dtype=systems.dtype)
        base_col = pl.Series("baseline", [None], dtype=systems.dtype)
    else:
        system_col = systems.gather([s for s, _ in pairs])
        base_col = systems.gather([b for _, b in pairs]).alias("baseline")
    return pl.DataFrame(
        [
            system_col,
            base_col,
            pl.Series("metric", [metric] * len(sds), dtype=pl.String),
            pl.Series("sd", sds, dtype=pl.Float64),
            pl.Series("delta", [a[0] for a in answers], dtype=pl.Float64),
            pl.Series("n_queries", [a[1] for a in answers], dtype=pl.Int64),
            pl.Series("power", [a[2] for a in answers], dtype=pl.Float64),
        ]
    )


def _answer(
    sd: float, delta: float | None, n: int | None, alpha: float, target: float
) -> tuple[float, int, float]:
    """(delta, n_queries, power) for one standard deviation of the deltas."""
    if delta is not None and n is not None:
        return delta, n, t_power(delta / sd, n, alpha)
    if delta is not None:
        needed = _queries_needed(delta / sd, alpha, target)
        return delta, needed, t_power(delta / sd, needed, alpha)
    assert n is not None
    return _detectable(n, alpha, target) * sd, n, target
