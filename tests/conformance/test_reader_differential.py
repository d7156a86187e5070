"""The TREC readers against trec_eval 10.0 on mutated files: the same fields, or a refusal naming the line.

trec_eval splits a line on C's ``isspace`` (ASCII space, tab, LF, VT, FF,
CR), ends a line at LF only, skips blank lines and lines starting with ``#``,
and miscounts its lines at a NUL byte (it may abort). Each case below mutates a valid run or
qrels file (bytes inserted, lines cut or joined, separators swapped for
other ASCII or Unicode spaces, NULs, the file truncated) and runs both
``trec_eval`` and ``rankmetrics`` on it:

- both accept it: the same stdout, byte for byte;
- trec_eval refuses it: so does the command, printing nothing on stdout;
- only the command refuses it (the library reader is stricter: a score
  ``atof`` would misread, a relevance that is not an integer, bytes that are
  not UTF-8, a NUL byte, a document twice): its message names the line;
- only trec_eval refuses it, for a blank line or a second comment line in
  qrels (trec_eval 10.0's qrels reader skips neither; the library skips
  both, as trec_eval's run reader does): trec_eval then prints what the
  command printed once those lines are removed.

The binary is the session fixture ``trec_eval_binary`` (``TREC_EVAL``, else
built from the shared source: ``tests/conformance/conftest.py``).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import subprocess
import warnings
from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.cli import main

SEED = int(os.environ.get("PRM_DIFFERENTIAL_SEED", "39"))
CASES = 300
FLAGS = ("-q", "-m", "num_ret", "-m", "num_rel_ret", "-m", "map", "-m", "P.5", "-m", "ndcg_cut.10")
QRELS = b"q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq1 0 d9 1\nq2 0 d4 1\nq2 0 d5 1\nq2 0 d6 0\n"
RUN = (
    b"q1 Q0 d1 1 9.5 r\nq1 Q0 d2 2 8.25 r\nq1 Q0 d7 3 7 r\nq1 Q0 d3 4 6.5 r\nq1 Q0 d8 5 6.5 r\n"
    b"q2 Q0 d5 1 3 r\nq2 Q0 d6 2 2 r\nq2 Q0 d4 3 1.5 r\nq2 Q0 d0 4 -1 r\n"
)
NBSP, IDEOGRAPHIC = "\u00a0".encode(), "\u3000".encode()
INSERTED = [
    b" ",
    b"\t",
    b"\x0b",
    b"\x0c",
    b"\r",
    NBSP,
    IDEOGRAPHIC,
    b"x",
    b"7",
    b"#",
    b"\n",
    b"\x00",
    b"-",
    b".",
    b"\xff",
]
SEPARATORS = [b"\t", b"\x0b", b"\x0c", b"\r", b"  ", b" \t ", NBSP, IDEOGRAPHIC, b"\r\n"]


def _mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One to three mutations of `data` (most often one), and their description."""
    done = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        kind = rng.choice(["insert", "insert", "swap", "swap", "swap", "cut", "join", "truncate"])
        if kind == "insert":
            at, byte = rng.randrange(len(data) + 1), rng.choice(INSERTED)
            data = data[:at] + byte + data[at:]
        elif kind == "swap":
            spaces = [m.start() for m in re.finditer(b" ", data)]
            if not spaces:
                continue
            at, byte = rng.choice(spaces), rng.choice(SEPARATORS)
            data = data[:at] + byte + data[at + 1 :]
        elif kind == "cut":  # a line loses its end
            lines = data.split(b"\n")
            i = rng.randrange(len(lines))
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
            data, at = b"\n".join(lines), i
        elif kind == "join":  # two lines become one
            ends = [m.start() for m in re.finditer(b"\n", data)]
            if not ends:
                continue
            at = rng.choice(ends)
            data = data[:at] + data[at + 1 :]
        else:
            at = rng.randrange(len(data) + 1)
            data = data[:at]
        done.append(f"{kind}@{at}")
    return data, " ".join(done)


def _trec_eval(binary: Path, qrels: Path, run: Path) -> tuple[int, bytes, str]:
    command = [str(binary), *FLAGS, str(qrels), str(run)]
    done = subprocess.run(command, capture_output=True, check=False, timeout=60)  # noqa: S603
    return done.returncode, done.stdout, done.stderr.decode(errors="replace")


def _ours(qrels: Path, run: Path) -> tuple[int, bytes, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("ignore", prm.RankMetricsWarning)  # CR inside a line: the reader's hint
        code = main(["--refuse-missing", *FLAGS, str(qrels), str(run)])  # trec_eval's stop at a missing query
    return code, out.getvalue().encode(), err.getvalue()


def _cases() -> list[tuple[str, bytes, bytes]]:
    rng = random.Random(SEED)  # noqa: S311 (test data)
    cases = []
    for number in range(CASES):
        which = "run" if number % 3 else "qrels"
        mutated, how = _mutate(RUN if which == "run" else QRELS, rng)
        qrels, run = (QRELS, mutated) if which == "run" else (mutated, RUN)
        cases.append((f"{number} {which} {how}", qrels, run))
    return cases


# Refusals only the command makes (the library is stricter than trec_eval): each names the line.
_STRICTER = re.compile(r"line \d+")


def test_mutated_files_read_as_trec_eval_reads_them(tmp_path: Path, trec_eval_binary: Path) -> None:
    """Every mutated file: the same stdout, both refuse, or only ours refuses, naming the line."""
    outcomes = {"same": 0, "both refuse": 0, "stricter": 0, "laxer": 0}
    for case, qrels_bytes, run_bytes in _cases():
        qrels, run = tmp_path / "qrels", tmp_path / "run"
        qrels.write_bytes(qrels_bytes)
        run.write_bytes(run_bytes)
        want = _trec_eval(trec_eval_binary, qrels, run)
        got = _ours(qrels, run)
        assert "Traceback" not in got[2], case
        # Status 4: a judged query the run lacks: both print the queries before it and stop.
        read = want[0] in (0, 4)
        ours_read = got[0] == 0 or (
            read and got[0] == 4
        )  # an empty run: trec_eval 2, ours 4, both print nothing
        if read and ours_read:
            assert got[:2] == want[:2], f"{case}: ours {got!r}, trec_eval {want!r}"
            outcomes["same"] += 1
        elif ours_read:
            qrels.write_bytes(_without_blank_and_comment_lines(qrels_bytes))
            assert _trec_eval(trec_eval_binary, qrels, run)[:2] == got[:2], f"{case}: ours {got!r}"
            outcomes["laxer"] += 1
        elif read:
            assert _STRICTER.search(got[2]), f"{case}: ours refuses without naming a line: {got[2]}"
            outcomes["stricter"] += 1
        else:
            assert got[1] == b"", case
            outcomes["both refuse"] += 1
    # The mutations reach each outcome (a generator that only broke files would test little).
    assert outcomes["same"] >= 60, outcomes
    assert outcomes["stricter"] >= 5, outcomes
    assert outcomes["both refuse"] >= 20, outcomes


def _without_blank_and_comment_lines(data: bytes) -> bytes:
    lines = data.split(b"\n")
    kept = [line for line in lines if line.strip() and not line.lstrip().startswith(b"#")]
    return b"".join(line + b"\n" for line in kept)


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("space", ["\u00a0", "\u3000", "\u2003", "\u0085"])
def test_unicode_spaces_stay_inside_a_field(tmp_path: Path, trec_eval_binary: Path, space: str) -> None:
    """``q1 Q0 a<space>x 1 3.0 r``: trec_eval reads the docno 'a<space>x' and the score 3.0."""
    qrels = _write(tmp_path, "qrels", b"q1 0 b 1\nq1 0 c 1\nq1 0 d 1\nq1 0 e 1\n")
    text = f"q1 Q0 a{space}x 1 3.0 r\nq1 Q0 b 2 2.0 r\n"
    run = _write(tmp_path, "run", text.encode())
    frame = prm.read_trec_run(run)
    assert frame.row(0) == ("q1", f"a{space}x", 3.0, "r")
    want = _trec_eval(trec_eval_binary, qrels, run)
    assert want[0] == 0
    assert b"map                   \tq1\t0.1250\n" in want[1]  # b at rank 2 of 4 relevant: 1/2 / 4
    assert _ours(qrels, run)[1] == want[1]


def test_cr_only_line_ends_read_as_one_line_with_a_warning(tmp_path: Path, trec_eval_binary: Path) -> None:
    """CR-only line ends: one line for trec_eval and the command; read_trec_run says so."""
    qrels = _write(tmp_path, "qrels", b"q1 0 a 1\nq1 0 b 1\n")
    run = _write(tmp_path, "run", b"q1 Q0 a 1 3.0 r\rq1 Q0 b 2 2.0 r\rq1 Q0 c 3 1.0 r\r")
    want = _trec_eval(trec_eval_binary, qrels, run)
    assert b"num_ret               \tq1\t1\n" in want[1]
    with pytest.warns(prm.RankMetricsWarning, match="line 1 holds a carriage return"):
        frame = prm.read_trec_run(run)
    assert frame["item"].to_list() == ["a"]
    assert _ours(qrels, run)[1] == want[1]


def test_a_nul_byte_is_refused_naming_its_line(tmp_path: Path, trec_eval_binary: Path) -> None:
    """trec_eval counts lines up to a NUL, parses past it (here it aborts); the reader names line 2."""
    qrels = _write(tmp_path, "qrels", b"q1 0 a 1\nq1 0 b 1\n")
    run = _write(tmp_path, "run", b"q1 Q0 a 1 3.0 r\nq1 Q0 b 2 2.0 r\x00\nq1 Q0 c 3 1.0 r\n")
    want = _trec_eval(trec_eval_binary, qrels, run)
    assert want[0] != 0  # malloc(): invalid size, SIGABRT
    with pytest.raises(prm.TrecFormatError, match="line 2: holds a NUL byte"):
        prm.read_trec_run(run)
    with pytest.raises(prm.TrecFormatError, match="line 2: holds a NUL byte"):
        prm.scan_trec_run(run)
    assert _ours(qrels, run)[0] != 0


def test_the_fields_split_as_the_reference_reader_splits(tmp_path: Path) -> None:
    """read_trec_run on the mutated runs both accept: the fields of a plain reading of trec_eval's rule."""
    checked = 0
    for case, _, run_bytes in _cases():
        run = _write(tmp_path, "run", run_bytes)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", prm.RankMetricsWarning)
                frame = prm.read_trec_run(run)
        except prm.TrecFormatError:
            continue
        want = _reference_run(run_bytes)
        assert frame.rows() == want, case
        checked += 1
    assert checked >= 40


def _reference_run(data: bytes) -> list[tuple[str, str, float, str]]:
    """trec_eval's get_trec_results.c, read plainly: LF ends a line, C isspace splits, '#' lines skipped."""
    rows = []
    for line in data.split(b"\n"):
        fields = line.split()  # bytes.split(): ASCII whitespace only, as C's isspace
        if not fields or fields[0].startswith(b"#"):
            continue
        query, _, item, _, score, run = fields[:6]
        rows.append((query.decode(), item.decode(), float(score), run.decode()))
    return rows


def test_unicode_fields_in_frames_keep_their_spaces(tmp_path: Path) -> None:
    """read_trec_qrels: a docno with U+3000 inside is one field, its relevance read."""
    path = _write(tmp_path, "qrels", "q1 0 a\u3000b 2\n".encode())
    assert prm.read_trec_qrels(path).rows() == [("q1", "a\u3000b", 2)]
    assert pl.DataFrame(prm.read_trec_qrels(path)).height == 1
