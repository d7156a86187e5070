"""LensKit's IPS-weighted RBP, transcribed onto the installed LensKit: the oracle of ``prm.ips_rbp``.

LensKit added ``IPSRBP`` in commit de8fb829 ("metrics: add IPS-weighted RBP", PR #1182,
2026; https://github.com/lenskit/lkpy), file ``src/lenskit/metrics/ranking/_ips.py``;
the oracles' environment has LensKit 2025.8.1 (the last release for Python 3.11), which
lacks it. :class:`IPSRBP` below is that class on 2025.8.1's own ``ItemList``,
``RankingMetricBase`` (``truncate``) and ``GeometricRankWeight`` (``weight``:
``exp(log(p) (rank - 1))``, ``series_sum``: ``1 / (1 - p)``, unchanged at de8fb829):
``measure_list`` is lines 115-144 of ``_ips.py``, with the propensities read as
``FieldPropensity`` reads them (``src/lenskit/metrics/ranking/_propensity.py``, lines
195-203) and inverted as ``PropensityModel.weights`` does (lines 49-53).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from peers import oracle

_data = oracle("lenskit.data", "oracles")
_base = oracle("lenskit.metrics.ranking._base", "oracles")
_weighting = oracle("lenskit.metrics.ranking._weighting", "oracles")

ItemList = _data.ItemList


class FieldPropensity:
    """_propensity.py lines 175-203: propensities from a field of the test item list."""

    def __init__(self, field: str = "propensity") -> None:
        """Read the propensities from `field`."""
        self.field = field

    def propensities(self, items: ItemList) -> np.ndarray:
        """_propensity.py lines 195-203."""
        ps = items.field(self.field)
        if ps is None:
            msg = f"test items have no field {self.field}"
            raise KeyError(msg)
        if len(ps) and not np.all(np.isfinite(ps) & (ps > 0)):
            msg = f"field {self.field} has non-positive propensities"
            raise ValueError(msg)
        return np.asarray(ps, dtype=np.float64)

    def weights(self, items: ItemList) -> np.ndarray:
        """_propensity.py lines 49-53."""
        return np.reciprocal(self.propensities(items))


class IPSRBP(_base.ListMetric, _base.RankingMetricBase):  # type: ignore[misc, name-defined]
    """_ips.py lines 25-144."""

    def __init__(
        self,
        n: int | None = None,
        *,
        propensity: FieldPropensity,
        patience: float = 0.85,
        self_normalized: bool = True,
    ) -> None:
        """_ips.py lines 91-105."""
        super().__init__(n)
        self.propensity = propensity
        self.patience = patience
        self.weight = _weighting.GeometricRankWeight(patience)
        self.self_normalized = self_normalized

    @property
    def label(self) -> str:
        """_ips.py lines 107-112 (without the cutoff)."""
        return "IPSRBP"

    def measure_list(self, recs: ItemList, test: ItemList) -> float:
        """_ips.py lines 115-144."""
        if len(test) == 0:
            return np.nan
        item_weights = self.propensity.weights(test)
        recs = self.truncate(recs)
        ranks = recs.ranks()
        if ranks is None:
            msg = "item list is not ordered"
            raise TypeError(msg)
        rank_weights = self.weight.weight(ranks)
        wmax = self.weight.series_sum()
        normalization = wmax if wmax is not None else np.sum(rank_weights).item()
        if normalization == 0:
            return np.nan
        good = recs.isin(test)
        weights = pd.Series(item_weights, index=test.ids())
        hits = weights.reindex(recs.ids()[good]).to_numpy(dtype=np.float64)
        gain = np.dot(hits, rank_weights[good]).item() / normalization
        if not self.self_normalized:
            return gain
        total = np.sum(item_weights).item()
        return gain / total if total else np.nan
