"""The errors polars-rankmetrics raises: every one is a :class:`RankMetricsError`."""

from __future__ import annotations

__all__ = [
    "ColumnNotFoundError",
    "ColumnTypeError",
    "InvalidDataError",
    "InvalidInputError",
    "InvalidParameterError",
    "RankMetricsError",
    "RankMetricsWarning",
    "TrecFormatError",
    "UnknownMetricError",
]


class RankMetricsError(ValueError):
    """Base class of every error raised by polars-rankmetrics."""


class ColumnNotFoundError(RankMetricsError):
    """A column the evaluation needs is not in the frame."""


class ColumnTypeError(RankMetricsError):
    """A column has a dtype the evaluation cannot use."""


class InvalidParameterError(RankMetricsError):
    """A parameter (``k``, ``depth``, ``gain``, ...) is out of its domain."""


class UnknownMetricError(RankMetricsError):
    """A metric name does not parse; the message lists the valid names."""


class InvalidDataError(RankMetricsError):
    """The data breaks the frame contract: NaN scores, null ids, duplicate rows."""


class TrecFormatError(RankMetricsError):
    """A TREC run or qrels file has a malformed line; the message names file and line."""


class InvalidInputError(RankMetricsError, TypeError):
    """An argument is of a type the library cannot read; the message names what is accepted.

    A frame, a path, `metrics` or `by` of another type raises it.

    Accepted: Polars DataFrame and LazyFrame, pandas DataFrame, pyarrow Table
    and RecordBatch, and any object that exports an Arrow stream
    (``__arrow_c_stream__``). Also a :class:`TypeError`, since the fault is
    the argument's type, so ``except TypeError`` catches it too.
    """


class RankMetricsWarning(UserWarning):
    """A result that is a number but probably not the one meant: no query evaluated, no shared ids...

    Filter it like any warning: ``warnings.filterwarnings("ignore", category=prm.RankMetricsWarning)``.
    """
