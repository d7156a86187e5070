"""The ``.rank`` namespace on DataFrame and LazyFrame: thin methods over :func:`evaluate`."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

import polars as pl

from polars_rankmetrics._engine import MetricLike
from polars_rankmetrics._namespace import MetricMethods
from polars_rankmetrics._registry import specs as _specs
from polars_rankmetrics._request import EvaluateOptions
from polars_rankmetrics._schema import ColumnsLike
from polars_rankmetrics._spec import Metric
from polars_rankmetrics.checks import validate
from polars_rankmetrics.conventions import ConventionOptions, Conventions
from polars_rankmetrics.evaluation import evaluate, population

if TYPE_CHECKING:
    from typing_extensions import Unpack

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)

__all__ = ["RankFrame"]


class PopulationOptions(ConventionOptions, total=False):
    """The keyword options of :func:`population`."""

    by: str | Sequence[str] | None
    columns: ColumnsLike
    conventions: Conventions | str | None


class ValidateOptions(TypedDict, total=False):
    """The keyword options of :func:`validate`."""

    by: str | Sequence[str] | None
    columns: ColumnsLike


@pl.api.register_dataframe_namespace("rank")
@pl.api.register_lazyframe_namespace("rank")
class RankFrame(MetricMethods[FrameT]):
    """Ranking metrics on a frame: ``df.rank.ndcg(k=10)``, ``lf.rank.evaluate([...])``.

    Every method forwards to :func:`evaluate` and keeps the frame type: a
    DataFrame gives a DataFrame, a LazyFrame a LazyFrame. Keyword options
    (`by`, `per_query`, `columns`, the conventions) are those of
    :func:`evaluate`. Type checkers cannot see registered namespaces; use
    ``prm.RankFrame(df).ndcg(10)`` where one matters.

    Parameters
    ----------
    frame
        The evaluation frame.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "b", "a", "b"],
    ...     "score": [0.9, 0.5, 0.8, 0.1], "relevance": [0, 1, 1, 0],
    ...     "model": ["x", "x", "x", "x"]})
    >>> df.rank.reciprocal_rank(by="model")
    shape: (1, 2)
    ┌───────┬──────┐
    │ model ┆ mrr  │
    │ ---   ┆ ---  │
    │ str   ┆ f64  │
    ╞═══════╪══════╡
    │ x     ┆ 0.75 │
    └───────┴──────┘
    """

    def __init__(self, frame: FrameT) -> None:
        self._frame: FrameT = frame

    def evaluate(
        self, metrics: MetricLike | Sequence[MetricLike], **options: Unpack[EvaluateOptions]
    ) -> FrameT:
        """Evaluate many metrics in one plan; see :func:`evaluate`."""
        return evaluate(self._frame, metrics, **options)

    def evaluate_chunked(
        self,
        metrics: MetricLike | Sequence[MetricLike],
        *,
        memory_mib: int = 512,
        rows_per_chunk: int | None = None,
        progress: bool | None = None,
        **options: Unpack[EvaluateOptions],
    ) -> pl.DataFrame:
        """Evaluate one range of queries at a time, in bounded memory; see :func:`evaluate_chunked`."""
        from polars_rankmetrics.chunked import evaluate_chunked  # noqa: PLC0415  (not at start-up)

        return evaluate_chunked(
            self._frame,
            metrics,
            memory_mib=memory_mib,
            rows_per_chunk=rows_per_chunk,
            progress=progress,
            **options,
        )

    def population(self, **options: Unpack[PopulationOptions]) -> FrameT:
        """Count queries per population case; see :func:`population`."""
        return population(self._frame, **options)

    def validate(self, **options: Unpack[ValidateOptions]) -> FrameT:
        """Check the data against the frame contract and return the frame; see :func:`validate`."""
        validate(self._frame, **options)
        return self._frame

    def _one(self, metric: Metric, options: Mapping[str, Any]) -> FrameT:
        return evaluate(self._frame, [metric], **options)

    def mrr(self, k: int | None = None, **options: Unpack[EvaluateOptions]) -> FrameT:
        """Deprecated alias of :meth:`reciprocal_rank` (the name of ``prm.reciprocal_rank``)."""
        warnings.warn(
            "df.rank.mrr is deprecated: use df.rank.reciprocal_rank", DeprecationWarning, stacklevel=2
        )
        return evaluate(self._frame, [Metric(_specs()["mrr"], k)], **options)

    def map(self, k: int | None = None, **options: Unpack[EvaluateOptions]) -> FrameT:
        """Deprecated alias of :meth:`average_precision` (the name of ``prm.average_precision``)."""
        warnings.warn(
            "df.rank.map is deprecated: use df.rank.average_precision", DeprecationWarning, stacklevel=2
        )
        return evaluate(self._frame, [Metric(_specs()["map"], k)], **options)
