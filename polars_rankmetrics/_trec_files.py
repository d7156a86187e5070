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
- blank lines and lines starting with ``#`` are skipped; tabs and runs of
  spaces separate fields; CRLF line ends and a UTF-8 byte-order mark are
  accepted; bytes that are not UTF-8 are an error naming the line.
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Literal

import polars as pl

from polars_rankmetrics.exceptions import InvalidInputError, TrecFormatError
from polars_rankmetrics.exceptions import _plan as _errors

FileKind = Literal["run", "qrels"]

LINE = "__prm_line"
_TEXT = "__prm_text"
_FIELDS = {
    "run": ["query", "q0", "item", "rank", "score", "run"],
    "qrels": ["query", "iteration", "item", "relevance"],
}
_LAYOUT = {"run": "'query Q0 docno rank score runid'", "qrels": "'query iteration docno relevance'"}
_PATTERN = {
    "run": r"^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)(?:\s.*)?$",
    "qrels": r"^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$",
}
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
    text = pl.col(_TEXT).str.strip_chars()
    return lf.with_columns(text.alias(_TEXT)).filter(
        text.is_not_null() & (text != "") & ~text.str.starts_with("#")
    )


def _problem(kind: FileKind, fields: pl.Expr) -> pl.Expr:
    """What is wrong with a line, in words, or null."""
    text = pl.col(_TEXT)
    count = text.str.count_matches(r"\S+")
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


def scan(path: str | Path, kind: FileKind) -> pl.LazyFrame:
    """The fields of every line of a TREC file, as strings; the plan fails on a bad line."""
    if not isinstance(path, (str, PathLike)):
        raise InvalidInputError.from_type(
            "path", f"the path of a TREC {kind} file (str or os.PathLike)", path
        )
    if not Path(path).is_file():  # a scan names a missing file at once, as a read does
        raise TrecFormatError.unreadable(path, "not a readable file")
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
        if "field" in str(err).lower():  # a NUL byte splits a line into several columns
            why = "not a text file of TREC lines: it holds NUL bytes"
        else:
            why = f"not a text file of TREC lines ({type(err).__name__}: {str(err).splitlines()[0]})"
        raise TrecFormatError.unreadable(path, why) from err
    except OSError as err:
        raise TrecFormatError.unreadable(path, f"cannot be read ({err})") from err
