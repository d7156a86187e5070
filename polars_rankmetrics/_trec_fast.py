"""The fast path of the TREC readers: plainly written files through Polars' CSV reader.

Most run and qrels files are plain: ASCII, one space between fields, no
blank or comment lines, no tabs or CR. For those, the strict line parser of
:mod:`polars_rankmetrics._trec_files` splits exactly where a single-space
CSV reader does, so Polars' reader gives the same frame at its own speed.
Anything else (a comment, a BOM, CRLF, a byte outside ASCII, a NUL, a
missing or extra field, a score or relevance the strict parser would
refuse) returns None, and the caller reads the file with the strict parser,
which names the offending line or reads what the fast path would not. A
small file (up to :data:`SMALL` bytes) whose fields are separated by tabs
or runs of spaces, as trec_eval's own test files are, is first made plain:
each run of spaces and tabs becomes one space, which splits every line
where the strict parser splits it (any line that starts or ends with
one still falls back); the strict parser's fixed cost (its regular
expressions, a second plan) is most of a small file's read.

The fields parse as the strict parser parses them: a score as Polars'
string-to-float cast does (the CSV reader refuses exactly the strings the
cast turns to null, and agrees on every other value), a relevance as an
integer of ASCII digits with an optional sign; non-finite scores fall back.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Literal

import polars as pl

from polars_rankmetrics import _trec_files

_S = pl.String
_SCHEMA: dict[str, dict[str, type[pl.DataType]]] = {
    "run": {"query": _S, "q0": _S, "item": _S, "rank": _S, "score": pl.Float64, "run": _S},
    "qrels": {"query": _S, "iteration": _S, "item": _S, "relevance": pl.Int64},
}
# Bytes outside a plain file: whitespace other than the space and the line feed, and NUL.
_IRREGULAR = (b"\t", b"\r", b"\x0b", b"\x0c", b"\x00")
SMALL = 1 << 20
"""Bytes up to which a file separated by tabs or runs of spaces is made plain (see the module's docstring)."""


def _plain(data: bytes) -> bool:
    """True when the file is ASCII whose only whitespace is the space and the line feed.

    Empty fields (two spaces, a leading or trailing space, a blank line)
    come out of the CSV reader as nulls or extra fields, checked after it.
    """
    return data.isascii() and not any(byte in data for byte in _IRREGULAR)


def _one_space(data: bytes) -> bytes:
    """Every run of spaces and tabs as one space: where the strict parser splits, the CSV reader does."""
    data = data.replace(b"\t", b" ")
    while b"  " in data:
        data = data.replace(b"  ", b" ")
    return data


def read(path: str | Path, kind: Literal["run", "qrels"]) -> pl.DataFrame | None:
    """The file's fields (run: query q0 item rank score run; qrels: query iteration item relevance), or None.

    None when the file is not plain (see the module's docstring): the
    strict parser then reads it. A path that is not a regular file, or
    bytes holding NUL, are refused here (TrecFormatError), before Polars
    sees them; a carriage return inside a line warns.
    """
    _trec_files.regular(path, kind)  # a FIFO would block the read below for ever
    try:
        data = Path(path).read_bytes()  # the bytes, not the name: Polars would read 'q[1].txt' as a pattern
    except OSError:  # not readable: the strict reader says why
        return None
    _trec_files.check_bytes(data, path)
    if len(data) <= SMALL and (b"\t" in data or b"  " in data):
        data = _one_space(data)
    if not data or not _plain(data):
        return None
    try:
        frame = pl.read_csv(
            io.BytesIO(data), separator=" ", has_header=False, schema=_SCHEMA[kind], quote_char=None
        )
    except pl.exceptions.PolarsError:
        return None
    if any(frame.null_count().row(0)):
        return None  # a missing or empty field, or a blank line
    regular = pl.col("query").str.starts_with("#").any().not_()  # no comment line
    if kind == "run":
        regular &= pl.col("score").is_finite().all()
    return frame if frame.select(regular).item() else None
