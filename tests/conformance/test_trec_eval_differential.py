"""The ``rankmetrics`` command against NIST trec_eval 10.0 itself: stdout byte for byte.

The oracle is a trec_eval 10.0 binary: the path in the environment variable
``TREC_EVAL``, else ``trec_eval`` on ``PATH`` (build it from
https://github.com/usnistgov/trec_eval at tag ``v10.0`` with ``make``). Without
one every test here skips, saying so.

Random collections (seeded): graded, negative (unjudged in the pool) and zero
grades, documents never judged, relevant documents never retrieved, tied and
negative scores, judged queries without a relevant document, run-only and
qrels-only queries, integer-like and string ids. Each collection is evaluated
under six flag sets, ``-m all_trec`` (with ``set_F.0.5`` in one of them), and a
seventh with ``-l 0`` and parameters.
The collections are evaluated a few at a time (one invocation per group and
flag set, their query ids disjoint): every query's lines are compared, and the
``all`` lines of every group. Without ``-c`` trec_eval 10.0 stops at a judged
query the run lacks, so those flag sets read judgments without the qrels-only
queries; ``--refuse-missing`` is checked against that stop separately. Then
malformed inputs both must refuse.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from polars_rankmetrics.cli import main

_BINARY = os.environ.get("TREC_EVAL") or shutil.which("trec_eval")
_HOW = (
    "set TREC_EVAL to a trec_eval 10.0 binary (or put trec_eval on PATH): "
    "git clone https://github.com/usnistgov/trec_eval && cd trec_eval && git checkout v10.0 && make"
)


def _version() -> str:
    if _BINARY is None:
        return ""
    try:
        done = subprocess.run([_BINARY, "-v"], capture_output=True, text=True, check=False, timeout=30)  # noqa: S603
    except OSError:
        return ""
    return (done.stdout + done.stderr).strip()


# Another seed fuzzes further: PRM_DIFFERENTIAL_SEED=7 pytest tests/conformance/test_trec_eval_differential.py
SEED = int(os.environ.get("PRM_DIFFERENTIAL_SEED", "31"))
_VERSION = _version()
_FOUND = f"{_BINARY or 'none found'}: {_VERSION or 'not runnable'}"
pytestmark = pytest.mark.skipif(_BINARY is None, reason=f"no trec_eval 10.0 to compare with; {_HOW}")


@pytest.fixture(autouse=True)
def _trec_eval_10() -> None:
    """A binary given but not trec_eval 10.0 is an error, not a skip: the comparison would mislead."""
    if not _VERSION.startswith("trec_eval version 10.0"):
        pytest.fail(f"not trec_eval 10.0 ({_FOUND}); {_HOW}")


FLAG_SETS = (
    ("-q", "-m", "all_trec"),
    ("-q", "-c", "-m", "all_trec"),
    ("-q", "-l", "2", "-m", "all_trec"),
    ("-q", "-J", "-m", "all_trec"),
    ("-q", "-M", "5", "-m", "all_trec", "-m", "set_F.0.5"),
    ("-q", "-c", "-l", "2", "-J", "-m", "all_trec"),
    # Beyond the six: grade 0 relevant, parameters (rbp's ties at p=0.5, gains, levels).
    (
        "-q",
        "-l",
        "0",
        "-m",
        "all_trec",
        "-m",
        "rbp.p=0.5",
        "-m",
        "ndcg.1=3,2=9",
        "-m",
        "iprec_at_recall..25,.33",
    ),
)
COLLECTIONS = 200
GROUP = 2  # collections per invocation


@dataclass
class Collection:
    """One random collection's lines; `qrels_only` are the judged queries the run lacks."""

    qrels: list[str]
    run: list[str]
    qrels_only: set[str]


def _collection(rng: random.Random, tag: int) -> Collection:
    """A random collection whose query ids all carry `tag`, so that collections can share a file."""
    int_ids = rng.random() < 0.5
    names = rng.sample(range(1, 40), rng.randint(1, 5))
    queries = [str(tag * 100 + n) if int_ids else f"q{tag}_{n}" for n in names]
    kinds = rng.choices(["both", "both", "both", "qrels", "run"], k=len(queries))
    kinds[0] = "both"
    runid = rng.choice(["run1", "STANDARD", "r-2"])
    qrels, run, qrels_only = [], [], set()
    for query, kind in zip(queries, kinds, strict=True):
        pool = [str(d) if int_ids else f"d{d}" for d in rng.sample(range(1, 60), rng.randint(1, 25))]
        judged = rng.sample(pool, rng.randint(1, len(pool)))
        grades = [-1, 0, 0, 0, 1, 1, 2, 3] if rng.random() < 0.8 else [0, -1]  # some without a relevant one
        if kind != "run":
            given = [rng.choice(grades) for _ in judged]
            given[0] = max(given[0], 0)  # trec_eval 10.0 fails on a query judged only below 0
            qrels += [f"{query} 0 {doc} {grade}" for doc, grade in zip(judged, given, strict=True)]
        if kind == "qrels":
            qrels_only.add(query)
            continue
        retrieved = rng.sample(pool, rng.randint(1, len(pool)))  # some judged ones never retrieved
        retrieved += [f"u{j}" for j in range(rng.randint(0, 4))]  # never judged
        scores = [0.5, 1.0, 2.0, 2.5, -1.25] if rng.random() < 0.5 else None  # ties
        for rank, doc in enumerate(retrieved, start=1):
            score = rng.choice(scores) if scores else round(rng.uniform(-5, 20), 3)
            run.append(f"{query} Q0 {doc} {rank} {score} {runid}")
    rng.shuffle(qrels)
    rng.shuffle(run)
    return Collection(qrels, run, qrels_only)


def _trec_eval(*args: str | Path) -> tuple[int, bytes, str]:
    assert _BINARY is not None
    done = subprocess.run([_BINARY, *map(str, args)], capture_output=True, check=False, timeout=60)  # noqa: S603
    return done.returncode, done.stdout, done.stderr.decode(errors="replace")


def _ours(*args: str | Path) -> tuple[int, bytes, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue().encode(), err.getvalue()


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines))
    return path


def _groups() -> list[list[Collection]]:
    rng = random.Random(SEED)  # noqa: S311 (test data)
    collections = [_collection(rng, tag) for tag in range(COLLECTIONS)]
    return [collections[i : i + GROUP] for i in range(0, COLLECTIONS, GROUP)]


def _first_difference(ours: bytes, theirs: bytes) -> str:
    for mine, oracle in zip(ours.decode().splitlines(), theirs.decode().splitlines(), strict=False):
        if mine != oracle:
            return f"ours {mine!r}, trec_eval {oracle!r}"
    return f"{len(ours)} bytes, trec_eval {len(theirs)}"


@pytest.mark.parametrize("flags", FLAG_SETS, ids=" ".join)
def test_random_collections_print_what_trec_eval_prints(tmp_path: Path, flags: tuple[str, ...]) -> None:
    """Every group of random collections under the flag set: the same stdout, byte for byte."""
    complete = "-c" in flags
    compared = 0
    for number, group in enumerate(_groups()):
        qrels_lines = [
            line for c in group for line in c.qrels if complete or line.split()[0] not in c.qrels_only
        ]
        qrels = _write(tmp_path / f"{number}.qrels", qrels_lines)
        run = _write(tmp_path / f"{number}.run", [line for c in group for line in c.run])
        want = _trec_eval(*flags, qrels, run)
        got = _ours(*flags, qrels, run)
        assert want[0] == 0, want[2]
        assert got[0] == 0, got[2]
        assert got[1] == want[1], f"group {number}: {_first_difference(got[1], want[1])}"
        compared += 1
    assert compared * GROUP >= COLLECTIONS


def test_refuse_missing_stops_where_trec_eval_stops(tmp_path: Path) -> None:
    """Without -c, a judged query the run lacks: trec_eval 10.0 prints the queries before it and exits 4."""
    checked = 0
    for number, group in enumerate(_groups()):
        collection = group[0]
        if not collection.qrels_only:
            continue
        qrels = _write(tmp_path / f"{number}.qrels", collection.qrels)
        run = _write(tmp_path / f"{number}.run", collection.run)
        status, stdout, stderr = _trec_eval("-q", "-m", "all_trec", qrels, run)
        missing = stderr.split("'")[1]  # trec_eval: result qid 'X' not found in qrels
        assert status == 4
        assert missing in collection.qrels_only
        got = _ours("--refuse-missing", "-q", "-m", "all_trec", qrels, run)
        assert got[:2] == (4, stdout)
        assert f"result qid '{missing}' not found in qrels" in got[2]
        # Without the flag the command evaluates the queries the run has.
        assert _ours("-q", "-m", "all_trec", qrels, run)[0] == 0
        checked += 1
    assert checked >= 5


MALFORMED = {
    "a run line of five fields": ("a 0 d1 1\n", "a Q0 d1 1 2.0\n"),
    "a document twice in a query's ranking": ("a 0 d1 1\n", "a Q0 d1 1 2 r\na Q0 d1 2 1 r\n"),
    "a document judged twice": ("a 0 d1 1\na 0 d1 0\n", "a Q0 d1 1 2 r\n"),
    "a qrels line of three fields": ("a 0 d1\n", "a Q0 d1 1 2 r\n"),
    "a qrels line of five fields": ("a 0 d1 1 5\n", "a Q0 d1 1 2 r\n"),
    "an empty run": ("a 0 d1 1\n", ""),
    "empty judgments": ("", "a Q0 d1 1 2 r\n"),
    "judgments given as the run": ("a 0 d1 1\n", "a 0 d1 1\n"),
    "a run of comments only": ("a 0 d1 1\n", "# nothing\n\n"),
    "no query in common": ("a 0 d1 1\n", "b Q0 d1 1 2 r\n"),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_malformed_inputs_both_refuse(tmp_path: Path, case: str) -> None:
    """Inputs trec_eval 10.0 refuses: the command refuses them too, printing nothing on stdout."""
    qrels_text, run_text = MALFORMED[case]
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run.write_text(run_text)
    want = _trec_eval("-q", "-m", "all_trec", qrels, run)
    got = _ours("-q", "-m", "all_trec", qrels, run)
    assert want[0] != 0
    assert want[1] == b""
    assert got[0] != 0
    assert got[1] == b""
    assert "Traceback" not in got[2]


def test_run_from_standard_input(tmp_path: Path) -> None:
    """``-`` as the run reads standard input in both."""
    (group, *_) = _groups()
    collection = group[1]
    judged = [line for line in collection.qrels if line.split()[0] not in collection.qrels_only]
    qrels = _write(tmp_path / "qrels", judged)
    text = "".join(f"{line}\n" for line in collection.run)
    assert _BINARY is not None
    want = subprocess.run(  # noqa: S603
        [_BINARY, "-q", "-m", "all_trec", str(qrels), "-"],
        input=text.encode(),
        capture_output=True,
        check=True,
    ).stdout
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    got = subprocess.run(  # noqa: S603
        [sys.executable, "-m", "polars_rankmetrics", "-q", "-m", "all_trec", str(qrels), "-"],
        input=text.encode(), capture_output=True, check=True, env=env,
    ).stdout  # fmt: skip
    assert got == want
