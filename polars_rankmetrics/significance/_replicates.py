"""Replicates of a system (seeds, folds): per-query values averaged over them, their spread measured.

A per-query frame with a replicate column holds one row per (system,
replicate, query). :func:`average` turns it into one row per (system,
query), each value the mean over the system's replicates, and measures the
between-replicate standard deviation: the standard deviation, over the
replicates, of the system's mean over queries. The means are taken over
sorted values, so that the result never depends on the input's row order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics.exceptions import ColumnNotFoundError, InvalidDataError, InvalidParameterError
from polars_rankmetrics.exceptions._parameters import check_choice

Unequal = Literal["error", "mean"]
UNEQUAL: tuple[Unequal, ...] = ("error", "mean")

N_REPLICATES = "n_replicates"
REPLICATE_STD = "replicate_std"
_SHOWN = 5


@dataclass(frozen=True)
class Averaged:
    """Per-query values averaged over replicates, and each (system, metric)'s replicate spread.

    Attributes
    ----------
    per_query
        One row per (system, query): the `by` and `query` columns and the
        metric columns, each the mean over the system's replicates.
    spread
        One row per (system, metric): the `by` column, ``metric``,
        ``n_replicates`` and ``replicate_std`` (null for one replicate).
    """

    per_query: pl.DataFrame
    spread: pl.DataFrame


def check(replicates: object, unequal: object, by: str, query: str) -> None:
    """Check the replicate column's name and the unequal-count policy."""
    if replicates is None:
        return
    if not isinstance(replicates, str):
        raise InvalidParameterError.out_of_domain(
            "replicates", "the name of the column naming the replicate, or None", replicates
        )
    if replicates in (by, query):
        raise InvalidParameterError.out_of_domain(
            "replicates", "a column other than `by` and `query`", replicates
        )
    check_choice(unequal, "unequal_replicates", UNEQUAL)


def average(  # noqa: PLR0913
    frame: object,
    *,
    by: str,
    query: str,
    replicates: str,
    metrics: Sequence[str],
    unequal: Unequal,
) -> Averaged:
    """Average `metrics` over the replicates of each (system, query); see the module docstring.

    Raises InvalidDataError for null replicate ids, duplicate (system,
    replicate, query) rows, and (with ``unequal="error"``) systems or
    queries with different numbers of replicates.
    """
    df = as_polars(frame, "per_query").lazy().collect()
    if replicates not in df.columns:
        raise ColumnNotFoundError.from_missing_and_available(replicates, "replicate", df.columns)
    if replicates in metrics:
        raise InvalidParameterError.same_column("metric", replicates, "replicate")
    df = df.select(by, query, replicates, *metrics)
    if df.get_column(replicates).null_count():
        raise InvalidDataError.null_values(replicates, "every row needs a replicate")
    dupes = df.group_by(by, replicates, query).len().filter(pl.col("len") > 1)
    if dupes.height:
        rows = dupes.sort(by, replicates, query).select(by, replicates, query).rows()[:_SHOWN]
        examples = ", ".join(map(repr, rows))
        raise InvalidDataError.several_rows(("system", "replicate", "query"), dupes.height, examples)
    counts = df.group_by(by, query).agg(pl.col(replicates).n_unique().alias(N_REPLICATES))
    per_system = df.group_by(by).agg(pl.col(replicates).n_unique().alias(N_REPLICATES))
    if unequal == "error" and (
        counts.get_column(N_REPLICATES).n_unique() > 1 or per_system.get_column(N_REPLICATES).n_unique() > 1
    ):
        shown = per_system.sort(by).rows()[:_SHOWN]
        uneven = counts.filter(pl.col(N_REPLICATES) < pl.col(N_REPLICATES).max().over(by)).sort(by, query)
        where = f"; e.g. (system, query) {uneven.select(by, query).row(0)!r}" if uneven.height else ""
        raise InvalidDataError.uneven_replicates(replicates, ", ".join(map(repr, shown)), where)
    # Null values are left in place: the paired checks downstream name them.
    averaged = df.group_by(by, query).agg(pl.col(m).sort().mean() for m in metrics)
    system_means = df.group_by(by, replicates).agg(pl.col(m).sort().mean() for m in metrics)
    spread = (
        system_means.group_by(by)
        .agg(pl.len().alias(N_REPLICATES), *(pl.col(m).sort().std(ddof=1) for m in metrics))
        .unpivot(index=[by, N_REPLICATES], on=list(metrics), variable_name="metric", value_name=REPLICATE_STD)
        .select(by, "metric", pl.col(N_REPLICATES).cast(pl.Int64), REPLICATE_STD)
    )
    return Averaged(per_query=averaged, spread=spread)
