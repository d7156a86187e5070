"""The LazyFrames the library returns: Polars' LazyFrame, whose collects raise the library's errors.

A data error found inside a plan (``_errors.in_plan``) reaches Polars as a failed cast, and Polars
raises its own ``InvalidOperationError`` with the library's sentence deep inside and a dump of the
plan. Polars has no expression that raises another type, and none whose message starts with a given
text. So every plan the library returns is a :class:`Plan`: a ``pl.LazyFrame`` subclass (every Polars
method works, and the frames made from it by ``filter``, ``join``, ``with_columns``... are Plans too)
whose ``collect``, ``collect_batches`` and ``sink_*`` raise the library's error, the message first and
alone. ``pl.collect_all`` and a ``pl.concat`` with other frames make plain LazyFrames again: there,
``prm.collect`` gives the typed error.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import polars as pl

from polars_rankmetrics._schema import recalled, remember
from polars_rankmetrics.exceptions import _plan as _errors

__all__ = ["Plan", "as_plan", "translated"]


def translated(err: BaseException) -> BaseException | None:
    """The library's error for a Polars error from one of its plans, or None when it is not one."""
    ours = _errors.from_polars(err) if isinstance(err, Exception) else None
    if ours is not None:
        return ours
    if isinstance(err, _errors.SOURCE_ERRORS):
        return _errors.from_source(err)
    return None


def _raising(name: str) -> Callable[..., Any]:
    method = getattr(pl.LazyFrame, name)

    @functools.wraps(method)
    def run(self: Plan, *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401  (Polars' own signature)
        try:
            out = method(self, *args, **kwargs)
        except (pl.exceptions.PolarsError, OSError) as err:
            ours = translated(err)
            if ours is None:
                raise
            raise ours from None
        if name == "collect":
            made = recalled(self)
            if made is not None:  # the per-query frame knows its system and query columns
                remember(out, *made)
        if isinstance(out, Iterator):
            return _batches(out)
        return out

    return run


def _batches(batches: Iterator[Any]) -> Iterator[Any]:
    """`batches`, whose errors are the library's."""
    try:
        yield from batches
    except (pl.exceptions.PolarsError, OSError) as err:
        ours = translated(err)
        if ours is None:
            raise
        raise ours from None


class Plan(pl.LazyFrame):
    """A plan the library built: a ``pl.LazyFrame`` whose collects raise the library's errors.

    Examples
    --------
    >>> lf = pl.LazyFrame({"query": [1, 1], "item": ["a", "b"],
    ...     "score": [0.9, float("nan")], "relevance": [1, 0]})
    >>> plan = prm.evaluate(lf, ["ndcg@10"])
    >>> isinstance(plan, pl.LazyFrame)
    True
    >>> plan.collect(engine="streaming")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    polars_rankmetrics.exceptions.InvalidDataError: score column 'score' holds NaN or infinite scores ...
    """


_COLLECTS = (
    "collect",
    "collect_batches",
    "sink_parquet",
    "sink_ipc",
    "sink_csv",
    "sink_ndjson",
    "sink_batches",
    "sink_delta",
    "sink_iceberg",
)
for _name in _COLLECTS:
    if hasattr(pl.LazyFrame, _name):
        setattr(Plan, _name, _raising(_name))


def as_plan(lf: pl.LazyFrame) -> Plan:
    """`lf` as a :class:`Plan` (the same plan; nothing is copied or run)."""
    if isinstance(lf, Plan):
        return lf
    return Plan._from_pyldf(lf._ldf)  # type: ignore[return-value]  # noqa: SLF001  (Polars' own constructor)
