"""The library's errors back from Spark's Python workers, with the library's message alone.

A worker's exception reaches the driver as pyspark's ``PythonException``,
whose text is the worker's traceback: the library's class and message are
on its last lines (``polars_rankmetrics.exceptions.InvalidDataError: ...``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from pyspark.errors import PythonException

from polars_rankmetrics import exceptions
from polars_rankmetrics.exceptions import RankMetricsError

__all__ = ["from_spark", "reraised"]

T = TypeVar("T")

_RAISED = re.compile(
    r"polars_rankmetrics\.exceptions\.(\w+): (.*?)(?:\n\s*\n|\n\s*at |\n\s*SQLSTATE|\Z)", re.DOTALL
)


def from_spark(err: BaseException) -> RankMetricsError | None:
    """The library's error a worker raised inside `err`, or None if `err` carries none."""
    found = None
    for found in _RAISED.finditer(str(err)):  # noqa: B007  (the last one: the error raised)
        pass
    if found is None:
        return None
    cls = getattr(exceptions, found.group(1), None)
    if not (isinstance(cls, type) and issubclass(cls, RankMetricsError)):
        return None
    return cls.from_worded(found.group(2).strip())


def reraised(action: Callable[[], T]) -> T:
    """`action()`, with a worker's library error raised as the library's own class."""
    try:
        return action()
    except PythonException as err:
        ours = from_spark(err)
        if ours is None:
            raise
        raise ours from None
