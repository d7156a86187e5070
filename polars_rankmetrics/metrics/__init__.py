"""Metric families: one module each; every metric a typed spec and a constructor.

Each module lists its constructors in ``__all__`` and its specs in
``SPECS``; this package gathers the first (``prm.<name>`` re-exports them)
and lists the modules in :data:`FAMILIES`, whose ``SPECS`` the registry
(``polars_rankmetrics._registry``) reads. It imports nothing above it.
"""

from __future__ import annotations

from polars_rankmetrics.metrics import (
    binary,
    calibration,
    classification,
    counts,
    cumulative,
    distribution,
    diversity,
    exposure,
    graded,
    history_similarity,
    information,
    interpolated,
    judged,
    overlap,
    parity,
    popularity,
    rank,
    recsys,
    similarity,
    surprise,
    text,
    user,
)
from polars_rankmetrics.metrics.binary import *  # noqa: F403
from polars_rankmetrics.metrics.calibration import *  # noqa: F403
from polars_rankmetrics.metrics.classification import *  # noqa: F403
from polars_rankmetrics.metrics.counts import *  # noqa: F403
from polars_rankmetrics.metrics.cumulative import *  # noqa: F403
from polars_rankmetrics.metrics.distribution import *  # noqa: F403
from polars_rankmetrics.metrics.diversity import *  # noqa: F403
from polars_rankmetrics.metrics.exposure import *  # noqa: F403
from polars_rankmetrics.metrics.graded import *  # noqa: F403
from polars_rankmetrics.metrics.history_similarity import *  # noqa: F403
from polars_rankmetrics.metrics.information import *  # noqa: F403
from polars_rankmetrics.metrics.interpolated import *  # noqa: F403
from polars_rankmetrics.metrics.judged import *  # noqa: F403
from polars_rankmetrics.metrics.overlap import *  # noqa: F403
from polars_rankmetrics.metrics.parity import *  # noqa: F403
from polars_rankmetrics.metrics.popularity import *  # noqa: F403
from polars_rankmetrics.metrics.rank import *  # noqa: F403
from polars_rankmetrics.metrics.recsys import *  # noqa: F403
from polars_rankmetrics.metrics.similarity import *  # noqa: F403
from polars_rankmetrics.metrics.surprise import *  # noqa: F403
from polars_rankmetrics.metrics.text import *  # noqa: F403
from polars_rankmetrics.metrics.user import *  # noqa: F403

__all__: list[str] = []
__all__ += binary.__all__
__all__ += calibration.__all__
__all__ += classification.__all__
__all__ += counts.__all__
__all__ += cumulative.__all__
__all__ += distribution.__all__
__all__ += diversity.__all__
__all__ += exposure.__all__
__all__ += graded.__all__
__all__ += history_similarity.__all__
__all__ += information.__all__
__all__ += interpolated.__all__
__all__ += judged.__all__
__all__ += overlap.__all__
__all__ += parity.__all__
__all__ += popularity.__all__
__all__ += rank.__all__
__all__ += recsys.__all__
__all__ += similarity.__all__
__all__ += surprise.__all__
__all__ += text.__all__
__all__ += user.__all__

FAMILIES = (
    binary,
    rank,
    graded,
    cumulative,
    interpolated,
    judged,
    user,
    counts,
    text,
    recsys,
    distribution,
    similarity,
    information,
    popularity,
    parity,
    surprise,
    calibration,
    history_similarity,
    exposure,
    classification,
    overlap,
    diversity,
)
"""Every family module, in the order the registry and the docs list them."""
