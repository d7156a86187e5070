"""pr_curve(): precision and recall at many cutoffs, as a long frame."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns, ColumnsLike, normalise_by
from polars_rankmetrics.evaluation import evaluate
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions._parameters import check_k
from polars_rankmetrics.metrics.binary import precision, recall

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from polars_rankmetrics.conventions import ConventionOptions, Conventions

__all__ = ["pr_curve"]

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)


MAX_CUTOFFS = 10_000
"""The most cutoffs one curve takes: each is a metric of the evaluation (checked before any work)."""


def cutoffs(ks: Sequence[int]) -> list[int]:
    """The sorted distinct cutoffs of `ks`, each a positive integer; an error for none or too many."""
    if not isinstance(ks, Sequence) or isinstance(ks, str) or not ks:
        raise InvalidParameterError.out_of_domain("ks", "a non-empty list of positive integers", ks)
    if len(ks) > MAX_CUTOFFS:
        domain = f"at most {MAX_CUTOFFS:,} cutoffs (each is a metric of the evaluation)"
        raise InvalidParameterError.out_of_domain("ks", domain, f"{len(ks):,} cutoffs")
    out: set[int] = set()
    for k in ks:
        checked = check_k(k, "ks")
        if checked is None:
            raise InvalidParameterError.out_of_domain("ks", "positive integers (None is no cutoff)", k)
        out.add(checked)
    return sorted(out)


def pr_curve(  # noqa: PLR0913
    frame: FrameT,
    ks: Sequence[int] = (1, 2, 3, 5, 10, 20, 50, 100),
    *,
    by: str | Sequence[str] | None = None,
    per_query: bool = False,
    columns: ColumnsLike = None,
    conventions: Conventions | str | None = None,
    check: bool = True,
    **overrides: Unpack[ConventionOptions],
) -> FrameT:
    """Precision@k and recall@k at each cutoff of `ks`: the precision-recall curve of the ranking.

    torchmetrics' ``RetrievalPrecisionRecallCurve`` (``adaptive_k=False``):
    precision divides by k even past the end of a list, recall by every
    relevant item of the query; one :func:`evaluate` call computes every
    cutoff over one ranking.

    Parameters
    ----------
    frame
        The evaluation frame, as for :func:`evaluate`.
    ks
        The cutoffs (positive integers; sorted, duplicates dropped): at
        most :data:`MAX_CUTOFFS` (10,000), checked before any work.
    by
        Grouping keys: one curve per group.
    per_query
        One curve per query instead of the mean over the evaluated queries.
    columns, conventions, check, **overrides
        As for :func:`evaluate`.

    Returns
    -------
    pl.DataFrame or pl.LazyFrame
        The same frame type as `frame`, long: by-keys (and ``query`` with
        `per_query`), ``k``, ``precision``, ``recall``; sorted.

    Raises
    ------
    RankMetricsError
        An empty `ks`, more than 10,000 cutoffs, or a cutoff that is not a positive integer; as
        :func:`evaluate` otherwise.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "d"],
    ...     "score": [0.9, 0.5, 0.1, 0.8, None], "relevance": [0, 1, 1, 1, 1]})
    >>> prm.pr_curve(df, ks=[1, 2, 3])
    shape: (3, 3)
    ┌─────┬───────────┬────────┐
    │ k   ┆ precision ┆ recall │
    │ --- ┆ ---       ┆ ---    │
    │ i64 ┆ f64       ┆ f64    │
    ╞═════╪═══════════╪════════╡
    │ 1   ┆ 0.5       ┆ 0.25   │
    │ 2   ┆ 0.5       ┆ 0.5    │
    │ 3   ┆ 0.5       ┆ 0.75   │
    └─────┴───────────┴────────┘
    """
    frame = as_polars(frame, "frame")
    chosen = cutoffs(ks)
    keys: list[str] = list(normalise_by(by)) + ([Columns.of(columns).query] if per_query else [])
    metrics = [m for k in chosen for m in (precision(k), recall(k))]
    wide = evaluate(
        frame, metrics, by=by, per_query=per_query, columns=columns, conventions=conventions, check=check,
        **overrides,
    )  # fmt: skip
    parts = [
        wide.select(
            *keys,
            pl.lit(k, dtype=pl.Int64).alias("k"),
            pl.col(f"precision@{k}").alias("precision"),
            pl.col(f"recall@{k}").alias("recall"),
        )
        for k in chosen
    ]
    return pl.concat(parts, how="vertical").sort([*keys, "k"])
