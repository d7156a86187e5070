"""The errors polars-rankmetrics raises: every one is a :class:`RankMetricsError`."""

from __future__ import annotations

__all__ = [
    "ColumnNotFoundError",
    "ColumnTypeError",
    "InnerJoinWarning",
    "InvalidDataError",
    "InvalidInputError",
    "InvalidParameterError",
    "MissingQueriesError",
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


class MissingQueriesError(InvalidDataError):
    """Systems compared without a value for the same queries, and no policy says what to do.

    `detail` says which system lacks which queries; the message adds the remedy in the caller's
    spelling (``missing='zero'`` in Python, ``--missing zero`` on the command line).
    """

    def __init__(self, detail: str, remedy: str) -> None:
        super().__init__(f"{detail}. {remedy}")
        self.detail = detail


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


class InnerJoinWarning(RankMetricsWarning):
    """A frame whose every row is both retrieved and judged, read by a metric that needs the others.

    That is the signature of an inner join of a run and its judgments, which drops the judged items
    the run did not retrieve: recall, AP, R-precision and the ideal DCG then read too few relevant
    items. Build the frame with :func:`polars_rankmetrics.join_run_qrels`, or pass the judgments as
    ``evaluate(run, ..., qrels=qrels)``. A frame that really holds every judged item (each candidate
    scored and labelled) may silence it:
    ``warnings.filterwarnings("ignore", category=prm.InnerJoinWarning)``.
    """
