"""Progress reports for long evaluations: a tqdm bar when it can be shown, a line per step, or a callback."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["Progress", "Reporter", "reporter"]

Progress = Callable[[int, int, int, float], None]  # (chunk, chunks, rows so far, seconds so far)


def _line(chunk: int, chunks: int, rows: int, seconds: float) -> None:
    print(  # noqa: T201
        f"polars_rankmetrics: chunk {chunk}/{chunks} done, {rows:,} rows in {seconds:.1f} s",
        file=sys.stderr,
        flush=True,
    )


def _watched() -> bool:
    """Whether a person is watching: stderr is a terminal (not a file, a pipe or a notebook's capture)."""
    isatty = getattr(sys.stderr, "isatty", None)
    return callable(isatty) and bool(isatty())


def _bar_available() -> bool:
    """Whether a bar can be drawn: tqdm is installed (extra ``progress``) and stderr is a terminal."""
    return importlib.util.find_spec("tqdm") is not None and _watched()


class Reporter:
    """Reports each finished chunk; :meth:`close` ends a bar. Does nothing when made with nothing."""

    def __init__(self, chunks: int, rows: int, report: Progress | None, *, bar: bool) -> None:
        self._report = report
        self._bar: Any = None
        self._rows = 0
        if bar:
            from tqdm.auto import tqdm  # type: ignore[import-untyped]  # noqa: PLC0415  (optional extra)

            self._bar = tqdm(
                total=rows, unit="row", unit_scale=True, desc=f"rankmetrics ({chunks} chunks)", leave=False
            )

    def __call__(self, chunk: int, chunks: int, rows: int, seconds: float) -> None:
        """Report that chunk `chunk` of `chunks` is done: `rows` rows in `seconds` so far."""
        if self._bar is not None:
            self._bar.update(rows - self._rows)
            self._rows = rows
        if self._report is not None:
            self._report(chunk, chunks, rows, seconds)

    def close(self) -> None:
        """End the bar, if one is drawn."""
        if self._bar is not None:
            self._bar.close()


def reporter(progress: bool | Progress | None, chunks: int, rows: int) -> Reporter:
    """The reporter for the `progress` option of a run of `chunks` chunks over `rows` rows.

    None (the default): a tqdm bar on stderr when tqdm is installed, stderr is a
    terminal and there is more than one chunk; nothing otherwise. True: the bar
    when stderr is a terminal, or one line per chunk there when tqdm is not
    installed; nothing when stderr is not a terminal (a log file, a pipe): a
    report is for a person watching. False: nothing. A callable: called after
    each chunk with (chunk, chunks, rows so far, seconds so far), wherever it runs.
    """
    if callable(progress):
        return Reporter(chunks, rows, progress, bar=False)
    if progress is False:
        return Reporter(chunks, rows, None, bar=False)
    bar = _bar_available() and (progress is True or chunks > 1)
    line = _line if progress is True and not bar and _watched() else None
    return Reporter(chunks, rows, line, bar=bar)
