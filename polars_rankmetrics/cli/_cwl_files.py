"""cwl_eval 1.0.12's input files, read as it reads them: gains, a run, costs.

Each reader splits a line on whitespace as ``cwl_eval`` does and reads
numbers with Python's ``float`` (its parser). Where ``cwl_eval`` stops with a
traceback (a line with too few fields, a number it cannot read), the readers
raise :class:`~polars_rankmetrics.TrecFormatError` naming the file and line.

- The gain file (TREC qrels): ``topic iteration doc gain`` and any further
  fields; a (topic, doc) given twice keeps its last gain.
- The run: ``topic element_type doc rank score run``, exactly six fields.
  Its rank and score are not read: a ranking is the file's lines in order,
  and a topic's ranking ends where a line of another topic starts (a topic
  whose lines are not together is evaluated once per stretch, as
  ``cwl_eval`` does).
- The cost file: ``element_type cost``, exactly two fields; a run line's
  element type (its second field) gives its item's cost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

import polars_rankmetrics as prm

__all__ = ["CwlRun", "read_costs", "read_gains", "read_run"]


def _lines(path: Path) -> list[str]:
    """The file's lines as ``cwl_eval`` reads them (text, universal newlines); a NUL byte is refused."""
    try:
        text = path.read_text()
    except UnicodeDecodeError as err:
        raise prm.TrecFormatError.unreadable(path, f"not a UTF-8 text file: {err}") from None
    lines = text.split("\n")  # readline's lines: only a newline ends one (not splitlines' \f or \x1c)
    if lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, 1):
        if "\x00" in line:
            raise prm.TrecFormatError.nul_byte(path, number)
    return lines


def _number(path: Path, number: int, text: str, line: str) -> float:
    """``float(text)`` as ``cwl_eval`` reads a gain or cost; NaN and infinities are refused."""
    try:
        value = float(text)
    except ValueError:
        raise prm.TrecFormatError.bad_line(path, number, f"a number, not {text!r}", line) from None
    if not math.isfinite(value):
        raise prm.TrecFormatError.bad_line(path, number, f"a finite number, not {text!r}", line)
    return value


def read_gains(path: Path) -> pl.DataFrame:
    r"""A gain file (TREC qrels: ``topic iteration doc gain ...``) as (topic, doc, gain).

    Parameters
    ----------
    path
        The file.

    Returns
    -------
    polars.DataFrame
        One row per (topic, doc), its last gain in the file, in the order
        each pair first appears.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from polars_rankmetrics.cli._cwl_files import read_gains
    >>> path = Path(tempfile.mkdtemp()) / "gains"
    >>> _ = path.write_text("T1 0 D1 1\nT1 0 D2 0.5\nT1 0 D1 0.25\n")
    >>> read_gains(path)
    shape: (2, 3)
    ┌───────┬─────┬──────┐
    │ topic ┆ doc ┆ gain │
    │ ---   ┆ --- ┆ ---  │
    │ str   ┆ str ┆ f64  │
    ╞═══════╪═════╪══════╡
    │ T1    ┆ D1  ┆ 0.25 │
    │ T1    ┆ D2  ┆ 0.5  │
    └───────┴─────┴──────┘
    """
    gains: dict[tuple[str, str], float] = {}
    for number, line in enumerate(_lines(path), 1):
        parts = line.split()
        if len(parts) < 4:
            raise prm.TrecFormatError.bad_line(path, number, "4 fields: topic iteration doc gain", line)
        gains[parts[0], parts[2]] = _number(path, number, parts[3], line)
    return pl.DataFrame(
        {"topic": [t for t, _ in gains], "doc": [d for _, d in gains], "gain": list(gains.values())},
        schema={"topic": pl.String, "doc": pl.String, "gain": pl.Float64},
    )


def read_costs(path: Path) -> dict[str, float]:
    r"""A cost file (``element_type cost`` lines) as {element type: cost}; a type given twice keeps its last.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from polars_rankmetrics.cli._cwl_files import read_costs
    >>> path = Path(tempfile.mkdtemp()) / "costs"
    >>> _ = path.write_text("E1 1.0\nE2  2.5\n")
    >>> read_costs(path)
    {'E1': 1.0, 'E2': 2.5}
    """
    costs: dict[str, float] = {}
    for number, line in enumerate(_lines(path), 1):
        parts = line.split()
        if len(parts) != 2:
            raise prm.TrecFormatError.bad_line(path, number, "2 fields: element_type cost", line)
        costs[parts[0]] = _number(path, number, parts[1], line)
    return costs


@dataclass(frozen=True)
class CwlRun:
    """A run as ``cwl_eval`` reads it: its rankings (one per stretch of a topic's lines), in file order.

    ``rows`` holds (block, topic, position, doc, element_type): ``block`` numbers
    the rankings from 0 in file order, ``position`` the items of each from 1.
    ``error`` is the malformed line's error, when the file has one: the rankings
    before it are complete (``cwl_eval`` prints them before it stops), the one
    it interrupts (``block`` ``len(topics) - 1``) is not.
    """

    rows: pl.DataFrame
    topics: list[str]
    error: prm.TrecFormatError | None = field(default=None)

    @property
    def complete(self) -> int:
        """How many rankings are complete: all, or all but the one a malformed line interrupts."""
        return max(len(self.topics) - (self.error is not None), 0)


def read_run(path: Path) -> CwlRun:
    r"""A run file (``topic element_type doc rank score run``, six fields) as its rankings.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from polars_rankmetrics.cli._cwl_files import read_run
    >>> path = Path(tempfile.mkdtemp()) / "run"
    >>> _ = path.write_text("T1 E1 D1 1 9 r\nT1 E2 D2 2 8 r\nT2 E1 D1 1 9 r\nT1 E1 D3 1 9 r\n")
    >>> run = read_run(path)
    >>> run.topics
    ['T1', 'T2', 'T1']
    >>> run.rows
    shape: (4, 5)
    ┌───────┬───────┬──────────┬─────┬──────────────┐
    │ block ┆ topic ┆ position ┆ doc ┆ element_type │
    │ ---   ┆ ---   ┆ ---      ┆ --- ┆ ---          │
    │ u32   ┆ str   ┆ u32      ┆ str ┆ str          │
    ╞═══════╪═══════╪══════════╪═════╪══════════════╡
    │ 0     ┆ T1    ┆ 1        ┆ D1  ┆ E1           │
    │ 0     ┆ T1    ┆ 2        ┆ D2  ┆ E2           │
    │ 1     ┆ T2    ┆ 1        ┆ D1  ┆ E1           │
    │ 2     ┆ T1    ┆ 1        ┆ D3  ┆ E1           │
    └───────┴───────┴──────────┴─────┴──────────────┘
    """
    topics: list[str] = []
    columns: dict[str, list[object]] = {k: [] for k in ("block", "topic", "position", "doc", "element_type")}
    position = 0
    error = None
    for number, line in enumerate(_lines(path), 1):
        parts = line.split()
        if len(parts) != 6:
            error = prm.TrecFormatError.bad_line(
                path, number, "6 fields: topic element_type doc rank score run", line
            )
            break
        topic, element_type, doc = parts[0], parts[1], parts[2]
        if not topics or topics[-1] != topic:
            topics.append(topic)
            position = 0
        position += 1
        for name, value in zip(columns, (len(topics) - 1, topic, position, doc, element_type), strict=True):
            columns[name].append(value)
    schema = {
        "block": pl.UInt32,
        "topic": pl.String,
        "position": pl.UInt32,
        "doc": pl.String,
        "element_type": pl.String,
    }
    return CwlRun(pl.DataFrame(columns, schema=schema), topics, error)
