"""The ``.rank`` namespace on DataFrame and LazyFrame: thin methods over :func:`evaluate`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Generic, TypedDict, TypeVar

import polars as pl

from polars_rankmetrics import metrics
from polars_rankmetrics._registry import Metric
from polars_rankmetrics.checks import validate
from polars_rankmetrics.chunked import evaluate_chunked
from polars_rankmetrics.evaluate import MetricLike, evaluate, population
from polars_rankmetrics.metrics.catalog import Catalog
from polars_rankmetrics.metrics.recsys import MissingItems

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

    def evaluate_chunked(
        self,
        metrics: MetricLike | Sequence[MetricLike],
        *,
        rows_per_chunk: int = 5_000_000,
        progress: bool = False,
        **options: Unpack[Options],
    ) -> pl.DataFrame:
        """Evaluate one range of queries at a time, in bounded memory; see :func:`evaluate_chunked`."""
        return evaluate_chunked(self._frame, metrics, rows_per_chunk=rows_per_chunk, progress=progress, **options)

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

    # --- recommender metrics ----------------------------------------------------------------------

    def mar(self, k: int, **options: Unpack[Options]) -> FrameT:
        """Mean average recall at `k` (recmetrics); see :func:`mar`."""
        return self._one(metrics.mar(k), options)

    def map_capped(self, k: int, **options: Unpack[Options]) -> FrameT:
        """Mean average precision at `k` over ``min(R, k)`` (ml_metrics); see :func:`map_capped`."""
        return self._one(metrics.map_capped(k), options)

    def mpr(
        self,
        *,
        missing_items: MissingItems = "bottom",
        n_items: int | None = None,
        **options: Unpack[Options],
    ) -> FrameT:
        """Mean percentage ranking; see :func:`mpr`."""
        return self._one(metrics.mpr(missing_items=missing_items, n_items=n_items), options)

    def coverage(self, k: int | None = None, *, catalog: Catalog = None, **options: Unpack[Options]) -> FrameT:
        """Catalog coverage at `k`, per `by` group; see :func:`coverage`."""
        return self._one(metrics.coverage(k, catalog=catalog), options)

    def gini(self, k: int | None = None, *, catalog: Catalog = None, **options: Unpack[Options]) -> FrameT:
        """Gini index of the top-`k` recommendation counts, per `by` group; see :func:`gini`."""
        return self._one(metrics.gini(k, catalog=catalog), options)

    def entropy(self, k: int | None = None, **options: Unpack[Options]) -> FrameT:
        """Entropy (bits) of the top-`k` recommendations, per `by` group; see :func:`entropy`."""
        return self._one(metrics.entropy(k), options)

    def personalization(self, k: int | None = None, **options: Unpack[Options]) -> FrameT:
        """Personalization at `k`, per `by` group; see :func:`personalization`."""
        return self._one(metrics.personalization(k), options)

    def intra_list_similarity(
        self,
        k: int | None = None,
        *,
        features: pl.DataFrame | pl.LazyFrame,
        **options: Unpack[Options],
    ) -> FrameT:
        """Intra-list similarity at `k`, per `by` group; see :func:`intra_list_similarity`."""
        return self._one(metrics.intra_list_similarity(k, features=features), options)

    def novelty(
        self,
        k: int | None = None,
        *,
        popularity: pl.DataFrame | pl.LazyFrame | None = None,
        n_users: int | None = None,
        interactions: pl.DataFrame | pl.LazyFrame | None = None,
        **options: Unpack[Options],
    ) -> FrameT:
        """Novelty at `k`, per `by` group; see :func:`novelty`."""
        metric = metrics.novelty(k, popularity=popularity, n_users=n_users, interactions=interactions)
        return self._one(metric, options)
