"""The ``.rank`` namespace on DataFrame and LazyFrame: thin methods over :func:`evaluate`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Generic, TypedDict, TypeVar

import polars as pl

from polars_rankmetrics import metrics
from polars_rankmetrics._registry import Metric
from polars_rankmetrics.checks import validate
from polars_rankmetrics.evaluate import MetricLike, evaluate, population

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from polars_rankmetrics._schema import Columns
    from polars_rankmetrics.conventions import Gain, Missing

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)

__all__ = ["RankFrame"]


class Options(TypedDict, total=False):
    """The keyword options of :func:`evaluate`, for type checkers and IDEs."""

    by: str | Sequence[str] | None
    per_query: bool
    columns: Columns | None
    depth: int | None
    relevance_level: float | None
    missing: Missing | None
    gain: Gain | None
    judged_only: bool | None
    preset: str | None
    check: bool


class PopulationOptions(TypedDict, total=False):
    """The keyword options of :func:`population`."""

    by: str | Sequence[str] | None
    columns: Columns | None
    depth: int | None
    relevance_level: float | None
    missing: Missing | None
    preset: str | None


class ValidateOptions(TypedDict, total=False):
    """The keyword options of :func:`validate`."""

    by: str | Sequence[str] | None
    columns: Columns | None


@pl.api.register_dataframe_namespace("rank")
@pl.api.register_lazyframe_namespace("rank")
class RankFrame(Generic[FrameT]):
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
    >>> df.rank.mrr(by="model")
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

    def evaluate(self, metrics: MetricLike | Sequence[MetricLike], **options: Unpack[Options]) -> FrameT:
        """Evaluate many metrics in one plan; see :func:`evaluate`."""
        return evaluate(self._frame, metrics, **options)

    def population(self, **options: Unpack[PopulationOptions]) -> FrameT:
        """Count queries per population case; see :func:`population`."""
        return population(self._frame, **options)

    def validate(self, **options: Unpack[ValidateOptions]) -> FrameT:
        """Check the data against the frame contract and return the frame; see :func:`validate`."""
        validate(self._frame, **options)
        return self._frame

    def _one(self, metric: Metric, options: Options) -> FrameT:
        return evaluate(self._frame, [metric], **options)

    def precision(self, k: int | None = None, **options: Unpack[Options]) -> FrameT:
        """Precision at `k`; see :func:`precision`."""
        return self._one(metrics.precision(k), options)

    def recall(self, k: int | None = None, **options: Unpack[Options]) -> FrameT:
        """Recall at `k`; see :func:`recall`."""
        return self._one(metrics.recall(k), options)

    def f1(self, k: int | None = None, **options: Unpack[Options]) -> FrameT:
        """F1 at `k`; see :func:`f1`."""
        return self._one(metrics.f1(k), options)

    def hit_rate(self, k: int | None = None, **options: Unpack[Options]) -> FrameT:
        """Hit rate (success) at `k`; see :func:`hit_rate`."""
        return self._one(metrics.hit_rate(k), options)

    def mrr(self, k: int | None = None, **options: Unpack[Options]) -> FrameT:
        """Mean reciprocal rank at `k`; see :func:`reciprocal_rank`."""
        return self._one(metrics.reciprocal_rank(k), options)

    def map(self, k: int | None = None, **options: Unpack[Options]) -> FrameT:
        """Mean average precision at `k`; see :func:`average_precision`."""
        return self._one(metrics.average_precision(k), options)

    def ndcg(self, k: int | None = None, **options: Unpack[Options]) -> FrameT:
        """Normalised DCG at `k`; see :func:`ndcg`."""
        return self._one(metrics.ndcg(k), options)

    def dcg(self, k: int | None = None, **options: Unpack[Options]) -> FrameT:
        """DCG at `k`; see :func:`dcg`."""
        return self._one(metrics.dcg(k), options)

    def r_precision(self, **options: Unpack[Options]) -> FrameT:
        """R-precision; see :func:`r_precision`."""
        return self._one(metrics.r_precision(), options)
