"""A torchmetrics Metric over :class:`polars_rankmetrics.Accumulator`: ranking metrics in training loops.

Needs the ``torch`` extra (torch and torchmetrics); imported only as
``polars_rankmetrics.torch_metric``. Each process reduces its batches to an
accumulator's exact states; when torchmetrics synchronises (``compute()``
under ``torch.distributed``, as in PyTorch Lightning's ``validation_step``),
every process's state travels as one byte tensor through torchmetrics' own
gather and the states are merged, so every process computes what
:func:`polars_rankmetrics.evaluate` gives on the union of the data, bit for bit.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any

import polars as pl
import torch
from torchmetrics import Metric

from polars_rankmetrics._engine import MetricLike
from polars_rankmetrics.accumulate import Accumulator

__all__ = ["AccumulatorMetric"]

_LENGTH = 8  # bytes of each state's length prefix in the gathered tensor


class AccumulatorMetric(Metric):
    """``torchmetrics.Metric`` whose state is an :class:`~polars_rankmetrics.Accumulator`.

    Parameters
    ----------
    metrics
        As for :func:`polars_rankmetrics.evaluate` (``["ndcg@10", "mrr@10"]``).
    **options
        :class:`~polars_rankmetrics.Accumulator`'s options (``by=``,
        ``conventions="torchmetrics"``, ``queries=``...), then torchmetrics'
        own keyword arguments (``sync_on_compute=``, ``process_group=``...).

    Notes
    -----
    ``update(preds, target, indexes)`` takes torchmetrics' retrieval arguments
    (tensors on any device are moved to the CPU), or a frame as ``update(batch)``.
    ``compute()`` returns a dict of metric name to float64 tensor when the result
    is one row (no `by`, no ``per_query``), which ``LightningModule.log_dict``
    takes; else the Polars DataFrame :func:`~polars_rankmetrics.evaluate` returns.
    The state is synchronised as pickled bytes in a ``uint8`` tensor (torchmetrics
    gathers it with ``dist_reduce_fx="cat"``), each state prefixed by its length.

    Examples
    --------
    >>> import torch
    >>> from polars_rankmetrics.torch_metric import AccumulatorMetric
    >>> metric = AccumulatorMetric(["ndcg@2", "mrr"], conventions="torchmetrics")
    >>> preds, target = torch.tensor([0.9, 0.2, 0.4, 0.7]), torch.tensor([0, 1, 1, 0])
    >>> metric.update(preds, target, indexes=torch.tensor([0, 0, 1, 1]))
    >>> {name: round(value.item(), 4) for name, value in metric.compute().items()}
    {'ndcg@2': 0.6309, 'mrr': 0.5}
    """

    full_state_update = False
    higher_is_better: bool | None = None
    is_differentiable = False

    def __init__(self, metrics: MetricLike | Sequence[MetricLike], **options: Any) -> None:  # noqa: ANN401
        names = ("queries", "by", "per_query", "columns", "conventions", "check", "aggregate")
        ours = {k: v for k, v in options.items() if k in names or k not in _TORCHMETRICS_OPTIONS}
        super().__init__(**{k: v for k, v in options.items() if k not in ours})
        self.accumulator = Accumulator(metrics, **ours)
        self.add_state("_prm_states", default=[], dist_reduce_fx="cat")

    def update(
        self,
        preds: object = None,
        target: object = None,
        indexes: object = None,
        *,
        batch: object = None,
    ) -> None:
        """Add a batch: torchmetrics' (preds, target, indexes), or a frame as ``batch=``."""
        if batch is not None:
            self.accumulator.update(batch)
        else:
            self.accumulator.update(preds=preds, target=target, indexes=indexes)

    def _sync_dist(self, dist_sync_fn: Any = None, process_group: Any = None) -> None:  # noqa: ANN401
        """Put this process's state in the gathered tensor, then let torchmetrics gather it."""
        payload = pickle.dumps(self.accumulator)
        framed = len(payload).to_bytes(_LENGTH, "little") + payload
        self._prm_states = [torch.frombuffer(bytearray(framed), dtype=torch.uint8)]
        if dist_sync_fn is None:
            super()._sync_dist(process_group=process_group)
        else:
            super()._sync_dist(dist_sync_fn, process_group=process_group)

    def _merged(self) -> Accumulator:
        """Every process's accumulator merged (after a sync), or this process's alone."""
        states = self._prm_states
        if not isinstance(states, torch.Tensor) or states.numel() == 0:
            return self.accumulator
        data, start = bytes(states.cpu().numpy().tobytes()), 0
        merged: Accumulator | None = None
        while start < len(data):
            size = int.from_bytes(data[start : start + _LENGTH], "little")
            part = pickle.loads(data[start + _LENGTH : start + _LENGTH + size])  # noqa: S301  (our processes' own bytes)
            merged = part if merged is None else merged.merge(part)
            start += _LENGTH + size
        assert merged is not None
        return merged

    def compute(self) -> dict[str, torch.Tensor] | pl.DataFrame:
        """The metrics over every process's batches: name -> tensor for one row, else the frame."""
        frame = self._merged().compute()
        if self.accumulator._req.by or self.accumulator._req.per_query:  # noqa: SLF001  (our own request)
            return frame
        row = frame.row(0, named=True) if frame.height else dict.fromkeys(frame.columns)
        return {
            name: torch.tensor(float("nan") if v is None else v, dtype=torch.float64)
            for name, v in row.items()
        }

    def reset(self) -> None:
        """Forget every batch: torchmetrics' states and the accumulator's."""
        super().reset()
        self.accumulator.reset()


# torchmetrics.Metric's own keyword arguments (passed to it, not to the accumulator).
_TORCHMETRICS_OPTIONS = frozenset(
    {
        "compute_on_cpu",
        "dist_sync_on_step",
        "process_group",
        "dist_sync_fn",
        "distributed_available_fn",
        "sync_on_compute",
        "compute_with_cache",
    }
)
