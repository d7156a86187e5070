"""rank_correlation(): how two columns of system means order the systems (Kendall, Spearman, tau_ap)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import recalled
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)
from polars_rankmetrics.exceptions._parameters import check_choice
from polars_rankmetrics.significance._deps import require

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["rank_correlation"]

CorrelationMethod = Literal["tau_b", "tau_ap", "spearman"]


def _columns(means: object, x: str, y: str, by: str) -> pl.DataFrame:
    df = as_polars(means, "means").lazy().collect()
    for role, column in (("`by`", by), ("`x`", x), ("`y`", y)):
        if not isinstance(column, str):
            raise InvalidParameterError.out_of_domain(role.strip("`"), "a column name", column)
        if column not in df.columns:
            raise ColumnNotFoundError.from_missing_and_available(column, role, df.columns)
    for column in (x, y):
        if not df.schema[column].is_numeric():
            raise ColumnTypeError.from_dtype(column, "metric", "numeric", df.schema[column])
    if by in (x, y):
        raise InvalidParameterError.out_of_domain("by", "a column other than `x` and `y`", by)
    _check_values(df, x, y, by)
    return df.select(pl.col(x).cast(pl.Float64).alias("x"), pl.col(y).cast(pl.Float64).alias("y"))


def _check_values(df: pl.DataFrame, x: str, y: str, by: str) -> None:
    """Null or repeated systems, NaN or null values, fewer than 2 systems: InvalidDataError."""
    systems = df.get_column(by)
    if systems.null_count():
        raise InvalidDataError.null_values(by, "every row needs a system")
    if systems.is_duplicated().any():
        twice = systems.filter(systems.is_duplicated())[0]
        raise InvalidDataError.repeated_value(f"column {by!r}", "system", twice)
    for column in (x, y):
        value = pl.col(column).cast(pl.Float64)
        bad = df.filter(value.is_null() | ~value.is_finite())
        if bad.height:
            where = f"system {bad.get_column(by)[0]!r}"
            raise InvalidDataError.not_finite(f"column {column!r}", None, where)
    if df.height < 2:
        listed = ", ".join(map(repr, df.get_column(by).to_list()))
        raise InvalidDataError.too_few(
            f"column {by!r} names {df.height} system(s) ({listed})", "a rank correlation"
        )


def _tau_b(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float:
    np = require("numpy", "prm.rank_correlation")
    upper = np.triu_indices(len(x), k=1)
    sx = np.sign(x[:, None] - x[None, :])[upper]
    sy = np.sign(y[:, None] - y[None, :])[upper]
    pairs = len(sx)
    tied_x, tied_y = int(np.count_nonzero(sx == 0)), int(np.count_nonzero(sy == 0))
    score = int(np.sum(sx * sy))
    return float(score / np.sqrt(float(pairs - tied_x) * float(pairs - tied_y)))


def _spearman(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float:
    np = require("numpy", "prm.rank_correlation")
    rx = pl.Series(x).rank("average").to_numpy().astype(np.float64)
    ry = pl.Series(y).rank("average").to_numpy().astype(np.float64)
    dx, dy = rx - rx.mean(), ry - ry.mean()
    return float(np.sum(dx * dy) / np.sqrt(np.sum(dx * dx) * np.sum(dy * dy)))


def _tau_ap(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float:
    np = require("numpy", "prm.rank_correlation")
    order = np.argsort(-x, kind="stable")  # the truth's order, best first
    ys = y[order]
    n = len(ys)
    above = np.tril(np.ones((n, n), dtype=bool), k=-1)  # above[i, j]: j ranked above i by x
    correct = np.count_nonzero(above & (ys[None, :] > ys[:, None]), axis=1)[1:]
    return float(2.0 / (n - 1) * np.sum(correct / np.arange(1, n)) - 1.0)


def rank_correlation(
    means: pl.DataFrame | pl.LazyFrame,
    *,
    x: str,
    y: str,
    by: str | None = None,
    method: CorrelationMethod = "tau_b",
) -> float:
    """How the systems' values in column `y` order them against their order by column `x`.

    Higher values are better in both columns. Use it for two metrics
    (``x="ndcg@10", y="map"``), or one metric under two sets of judgments.

    - ``"tau_b"``: Kendall's tau-b, ``(C - D) / sqrt((P - T_x)(P - T_y))``
      over the ``P`` system pairs, ``C`` concordant, ``D`` discordant,
      ``T_x``, ``T_y`` tied in `x`, in `y` (``scipy.stats.kendalltau``).
    - ``"spearman"``: Pearson's correlation of the average ranks
      (``scipy.stats.spearmanr``).
    - ``"tau_ap"``: the AP rank correlation, `x` the truth: with the
      systems sorted by `x`, best first, ``2 / (N - 1) sum_{i=2..N} C(i) /
      (i - 1) - 1``, ``C(i)`` the systems above the i-th that `y` also
      puts above it: swaps near the top cost more (Yilmaz, Aslam and
      Robertson, 2008). It is defined for orderings without ties.

    Parameters
    ----------
    means
        One row per system: the `by` column and the columns `x` and `y`
        (what ``prm.evaluate(frame, metrics, by=by)`` returns).
    x, y
        The two columns; `x` is the reference ("truth") for ``tau_ap``.
    by
        The column naming the system.
        None takes the one `by` key of the frame :func:`evaluate` returned,
        else ``"system"``.
    method
        ``"tau_b"``, ``"tau_ap"`` or ``"spearman"``.

    Returns
    -------
    float
        In [-1, 1].

    Raises
    ------
    ColumnNotFoundError, ColumnTypeError, InvalidParameterError
        A column missing or not numeric; `method` not one of the three.
    InvalidDataError
        Fewer than 2 systems, a system named twice, a NaN or null value, a
        column with one value for every system (no order: undefined), or
        ties in `x` or `y` for ``"tau_ap"``.

    References
    ----------
    Kendall (1945), The treatment of ties in ranking problems, Biometrika 33(3).
    Yilmaz, Aslam & Robertson (2008), A new rank correlation coefficient for
    information retrieval, SIGIR.

    Examples
    --------
    >>> means = pl.DataFrame({"system": ["a", "b", "c", "d"],
    ...     "ndcg@10": [0.41, 0.38, 0.35, 0.20], "map": [0.30, 0.33, 0.25, 0.10]})
    >>> pl.DataFrame({m: [prm.rank_correlation(means, x="ndcg@10", y="map", method=m)]
    ...     for m in ("tau_b", "tau_ap", "spearman")})
    shape: (1, 3)
    ┌──────────┬──────────┬──────────┐
    │ tau_b    ┆ tau_ap   ┆ spearman │
    │ ---      ┆ ---      ┆ ---      │
    │ f64      ┆ f64      ┆ f64      │
    ╞══════════╪══════════╪══════════╡
    │ 0.666667 ┆ 0.333333 ┆ 0.8      │
    └──────────┴──────────┴──────────┘
    """
    check_choice(method, "method", ("tau_b", "tau_ap", "spearman"))
    require("numpy", "prm.rank_correlation")
    made = recalled(means)
    by = by if by is not None else made[0][0] if made is not None and len(made[0]) == 1 else "system"
    df = _columns(means, x, y, by)
    xs, ys = df.get_column("x").to_numpy(), df.get_column("y").to_numpy()
    for name, values in ((x, xs), (y, ys)):
        if (values == values[0]).all():
            raise InvalidDataError.undefined(
                f"column {name!r} has one value for every system", "no order, the correlation is undefined"
            )
        if method == "tau_ap" and len(set(values.tolist())) < len(values):
            raise InvalidDataError.undefined(
                f"column {name!r} ties systems",
                "tau_ap is defined for orderings without ties; use method='tau_b'",
            )
    if method == "tau_b":
        return _tau_b(xs, ys)
    if method == "spearman":
        return _spearman(xs, ys)
    return _tau_ap(xs, ys)
