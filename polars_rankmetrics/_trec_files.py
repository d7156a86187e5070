"""Reading TREC run and qrels lines strictly, in one lazy plan.

Every line is checked where it is parsed, inside the plan: a malformed
line fails the read with :class:`TrecFormatError` naming the file, the line
number, the line and what was expected (a read collects and raises it; a
scan raises when collected, through :func:`polars_rankmetrics.collect`).

The rules follow trec_eval 10.0's parsers (get_trec_results.c, get_qrels.c),
made strict where trec_eval would compute a silent wrong number:

- a run line has at least six whitespace-separated fields, ``query Q0 docno
  rank score runid``; fields after the sixth are ignored, as trec_eval does;
  the score must be a finite number (trec_eval's ``atof`` reads ``abc`` as 0);
- a qrels line has exactly four fields, ``query iteration docno relevance``,
  as trec_eval requires; the relevance must be an integer (trec_eval's
  ``atol`` reads ``1.5`` as 1 and ``abc`` as 0: here they are errors);
- fields are separated by runs of ASCII whitespace only (C's ``isspace``:
  space, tab, LF, VT, FF, CR), as trec_eval splits them: a non-breaking
  space (U+00A0) or an ideographic space (U+3000) stays inside its field;
- blank lines and lines starting with ``#`` are skipped; CRLF line ends and
  a UTF-8 byte-order mark are accepted; a line ends at LF only, as in
  trec_eval (a file with CR-only line ends is one line: the reader warns);
- bytes that are not UTF-8 are an error naming the line; a NUL byte is an
  error naming its line (trec_eval miscounts its lines there, and may abort); a path
  that is not a regular file (a FIFO, a device, a directory) is refused at
  once, before any byte is read.
"""

from __future__ import annotations

import stat
import warnings
from os import PathLike
from pathlib import Path
from typing import Literal

import polars as pl

from polars_rankmetrics.exceptions import InvalidInputError, RankMetricsWarning, TrecFormatError
from polars_rankmetrics.exceptions import _plan as _errors

FileKind = Literal["run", "qrels"]

LINE = "__prm_line"
_TEXT = "__prm_text"
_FIELDS = {
    "run": ["query", "q0", "item", "rank", "score", "run"],
    "qrels": ["query", "iteration", "item", "relevance"],
}
_LAYOUT = {"run": "'query Q0 docno rank score runid'", "qrels": "'query iteration docno relevance'"}
# C's isspace in the C locale (trec_eval's separators): Unicode spaces are not among them.
SPACE = " \t\n\x0b\x0c\r"
_S = "[ \\t\\n\\x0B\\x0C\\r]"  # one ASCII whitespace character, as a regex class
_F = "([^ \\t\\n\\x0B\\x0C\\r]+)"  # one field
_PATTERN = {
    "run": f"^{_F}{_S}+{_F}{_S}+{_F}{_S}+{_F}{_S}+{_F}{_S}+{_F}(?:{_S}(?s:.*))?$",
    "qrels": f"^{_F}{_S}+{_F}{_S}+{_F}{_S}+{_F}$",
}
_FIELD = "[^ \\t\\n\\x0B\\x0C\\r]+"
_INTEGER = r"^[+-]?\d+$"
_SHOWN = 80  # characters of an offending line quoted in the message


def _lines(path: str | Path) -> pl.LazyFrame:
    """One row per line of a text file, with its 1-based line number; comments and blanks dropped."""
    lf = pl.scan_csv(
        path,
        has_header=False,
        separator="\x00",  # one column per line: no text file holds NUL
        quote_char=None,
        schema={_TEXT: pl.String},
        row_index_name=LINE,
        row_index_offset=1,
        encoding="utf8-lossy",  # bad bytes become U+FFFD, reported below with their line
        glob=False,  # a file name is a name, not a pattern: 'q[1].txt' is one file
    )
    text = pl.col(_TEXT).str.strip_chars(SPACE)
    return lf.with_columns(text.alias(_TEXT)).filter(
        text.is_not_null() & (text != "") & ~text.str.starts_with("#")
    )


def _problem(kind: FileKind, fields: pl.Expr) -> pl.Expr:
    """What is wrong with a line, in words, or null."""
    text = pl.col(_TEXT)
    count = text.str.count_matches(_FIELD)
    wanted = 6 if kind == "run" else 4
    shape = f"expected {_LAYOUT[kind]} ({wanted} fields{' or more' if kind == 'run' else ''})"
    other = "qrels" if kind == "run" else "run"
    looks = pl.when(count == (4 if kind == "run" else 6)).then(
        pl.lit(f"; this looks like a {other} file: pass it as the {other}")
    )
    wrong_shape = pl.format(f"{shape}, got {{}} field(s){{}}", count, looks.fill_null(""))
    if kind == "run":
        score = fields.struct.field("score").cast(pl.Float64, strict=False)
        value: pl.Expr = (
            pl.when(score.is_null())
            .then(pl.lit("expected a numeric score (5th field)"))
            .when(~score.is_finite())
            .then(pl.lit("expected a finite score (5th field)"))
        )
    else:
        relevance = fields.struct.field("relevance")
        value = (
            pl.when(~relevance.str.contains(_INTEGER))
            .then(pl.lit("expected a numeric relevance (4th field), an integer (trec_eval would misread it)"))
            .when(relevance.cast(pl.Int64, strict=False).is_null())
            .then(pl.lit("the relevance (4th field) is outside the 64-bit integer range"))
        )
    problem = (
        pl.when(text.str.contains("\ufffd"))
        .then(pl.lit("not UTF-8 text"))
        .when(fields.struct.field("query").is_null())
        .then(wrong_shape)
        .otherwise(value)
    )
    return pl.format("malformed TREC line: {}", problem)


def _checked(path: str | Path, kind: FileKind) -> pl.LazyFrame:
    """The lines' fields and, per line, the message of what is wrong with it (or null)."""
    names = _FIELDS[kind]
    fields = pl.col(_TEXT).str.extract_groups(_PATTERN[kind]).struct.rename_fields(names)
    lf = _lines(path).with_columns(fields.alias("__prm_fields"))
    problem = _problem(kind, pl.col("__prm_fields"))
    shown = pl.col(_TEXT).str.slice(0, _SHOWN)
    message = pl.format(f"{path}: line {{}}: {{}}: {{}}", pl.col(LINE), problem, shown)
    return lf.with_columns(message.alias(_PROBLEM)).unnest("__prm_fields")


_PROBLEM = "__prm_problem"


_CHUNK = 1 << 20  # bytes read at a time when a file is searched for NUL

LINE_COST = 64
"""Bytes of memory a line costs the readers beyond its own bytes (its offsets, number and fields)."""
MEMORY_FACTOR = 8
"""The readers read a file in at most this many times its size (plus :data:`ALLOWANCE`)."""
ALLOWANCE = 16 << 20
"""Bytes of line overhead any file may use, whatever its size (small files of blank lines read)."""


def check_lines(path: str | PathLike[str], size: int, lines: int) -> None:
    """Refuse, before reading, a file of more lines than :data:`MEMORY_FACTOR` times its size can hold.

    A line costs about :data:`LINE_COST` bytes besides its text: a file whose lines average under
    ``LINE_COST / MEMORY_FACTOR`` (8) bytes, shorter than the shortest TREC line (``q 0 d 1``),
    would need more; a file of blank lines is the case.
    """
    if lines * LINE_COST > MEMORY_FACTOR * size + ALLOWANCE:
        shortest = LINE_COST // MEMORY_FACTOR
        raise TrecFormatError.too_many_lines(path, lines, size, shortest, MEMORY_FACTOR)


def regular(path: object, kind: FileKind) -> str | PathLike[str]:
    """The path, if it names a regular file; refused at once otherwise (a FIFO would block for ever)."""
    if not isinstance(path, (str, PathLike)):
        raise InvalidInputError.from_type(
            "path", f"the path of a TREC {kind} file (str or os.PathLike)", path
        )
    try:
        mode = Path(path).stat().st_mode
    except (OSError, ValueError):  # missing, unreadable, or a name holding NUL
        raise TrecFormatError.unreadable(path, "not a readable file") from None
    if not stat.S_ISREG(mode):
        raise TrecFormatError.not_regular(path)
    return path


def nul_line(data: bytes, first_line: int = 1) -> int | None:
    """The line number of the first NUL byte of `data` (lines counted from `first_line`), or None."""
    at = data.find(b"\x00")
    return None if at < 0 else first_line + data.count(b"\n", 0, at)


def refuse_nul(path: str | PathLike[str]) -> None:
    """Refuse a file holding a NUL byte (binary or UTF-16) or too many lines, read in bounded chunks."""
    line, size, last = 1, 0, b"\n"
    with Path(path).open("rb") as f:
        while chunk := f.read(_CHUNK):
            found = nul_line(chunk, line)
            if found is not None:
                raise TrecFormatError.nul_byte(path, found)
            line += chunk.count(b"\n")
            size, last = size + len(chunk), chunk[-1:]
    check_lines(path, size, line - (last == b"\n"))


def check_bytes(data: bytes, path: str | PathLike[str]) -> None:
    """Refuse a NUL byte; warn of a carriage return inside a line (CR-only line ends)."""
    found = nul_line(data)
    if found is not None:
        raise TrecFormatError.nul_byte(path, found)
    check_lines(path, len(data), data.count(b"\n") + (not data.endswith(b"\n")))
    at = data.find(b"\r")
    while at >= 0 and data[at + 1 : at + 2] == b"\n":
        at = data.find(b"\r", at + 1)
    if at >= 0 and data[at + 1 :].strip(SPACE.encode()):  # text after a lone CR: lines were joined
        line = 1 + data.count(b"\n", 0, at)
        warnings.warn(
            f"{path}: line {line} holds a carriage return (CR) inside it: a line ends at LF only, "
            "as trec_eval reads it, so a file with CR-only line ends reads as one line per LF and "
            "the fields after the sixth (fourth in qrels) are ignored; convert the line ends to LF",
            RankMetricsWarning,
            stacklevel=4,  # the caller of read_trec_run or read_trec_qrels
        )


def scan(path: str | Path, kind: FileKind, *, checked: bool = False) -> pl.LazyFrame:
    """The fields of every line of a TREC file, as strings; the plan fails on a bad line.

    The path must be a regular file holding no NUL byte, checked at once
    (unless `checked`: the caller has read and checked its bytes).
    """
    if not checked:
        refuse_nul(regular(path, kind))
    names = _FIELDS[kind]
    # The query column carries the check: every reader's output keeps it, so no projection drops it.
    failing = _errors.in_plan(pl.col(_PROBLEM), TrecFormatError).cast(pl.String)
    guarded = pl.coalesce(failing, pl.col("query")).alias("query")
    return _checked(path, kind).select(LINE, guarded, *names[1:])


def read(lf: pl.LazyFrame, path: str | Path, kind: FileKind) -> pl.DataFrame:
    """Collect a scan, raising the file's first bad line as :class:`TrecFormatError`."""
    try:
        return _collect(lf, path)
    except pl.exceptions.InvalidOperationError as err:
        if _errors.from_polars(err) is None:
            raise
        # The plan stops at a bad line in whichever part of the file it reached first: name the first.
        bad = _checked(path, kind).filter(pl.col(_PROBLEM).is_not_null())
        first = _collect(bad.select(pl.col(_PROBLEM).sort_by(LINE).first()), path)
        raise TrecFormatError.from_worded(first.item()) from err


def _collect(lf: pl.LazyFrame, path: str | Path) -> pl.DataFrame:
    """Collect, naming files that are not text as the library's error."""
    try:
        return lf.collect()
    except (pl.exceptions.SchemaError, pl.exceptions.ComputeError) as err:
        why = f"not a text file of TREC lines ({type(err).__name__}: {str(err).splitlines()[0]})"
        raise TrecFormatError.unreadable(path, why) from err
    except OSError as err:
        raise TrecFormatError.unreadable(path, f"cannot be read ({err})") from err
