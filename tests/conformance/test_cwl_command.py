"""``rankmetrics cwl`` against cwl_eval 1.0.12: the same files, the same standard output, byte for byte.

The oracle is the ``cwl-eval`` script of the PyPI release 1.0.12, installed in a virtual environment of
its own (it pins nothing, but imports ``distutils``, gone from Python 3.12): env ``CWL_EVAL`` names it,
by default ``/work/venv-cwl/bin/cwl-eval``. Without it the tests skip, unless ``PRM_REQUIRE_ORACLES`` is
set (CI), where they fail. Both commands run as subprocesses in a temporary folder (cwl_eval writes its
``cwl.log`` there); a case passes when both print the same bytes on standard output and both succeed
or both fail. Inputs: cwl_eval's own test files and README examples (``tests/data/cwl``, see its
README) and generated collections with graded gains, unjudged items, unknown element types, costs,
topics only in the judgments or only in the run, a topic split in two stretches, repeated documents,
every measure class with drawn parameters, and the depth, cost and residual flags.

Known differences: a value on a rounding tie and the sign of a zero residual (``_same_but_ties``). A
document with a positive gain repeated within one ranking counts once in TrAP's denominator in both
(the command passes cwl_eval's count of the topic's relevant documents as ``cwl_trap(relevant=...)``):
``test_a_document_repeated_within_a_ranking``.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.oracles

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "cwl"
DEFAULT_ORACLE = "/work/venv-cwl/bin/cwl-eval"


@pytest.fixture(scope="module")
def cwl_eval() -> Path:
    """cwl_eval 1.0.12's script: ``CWL_EVAL`` or the default path; skipped when absent, failed under CI."""
    path = Path(os.environ.get("CWL_EVAL", DEFAULT_ORACLE))
    if not path.exists():
        if os.environ.get("PRM_REQUIRE_ORACLES"):
            pytest.fail(f"cwl_eval 1.0.12 is not at {path} and PRM_REQUIRE_ORACLES is set")
        pytest.skip(
            f"cwl_eval 1.0.12 is not at {path} (set CWL_EVAL; pip install cwl-eval==1.0.12 in a venv)"
        )
    return path


@dataclass(frozen=True)
class Done:
    """What a command printed on standard output, and whether it succeeded."""

    stdout: bytes
    ok: bool
    stderr: str


def _run(command: list[str], folder: Path) -> Done:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, cwd=folder, env=env, check=False, timeout=300)  # noqa: S603
    return Done(done.stdout, done.returncode == 0, done.stderr.decode(errors="replace"))


# cwl_eval's own values at full precision: its main() with each report line printing repr()s.
_FULL = """
import os, sys
from distutils.sysconfig import get_python_lib
sys.path.insert(0, os.path.join(get_python_lib(), "cwl"))
from cwl import cwl_eval
from cwl.ruler.measures.cwl_metrics import CWLMetric

def report(self):
    names = ["expected_utility", "expected_total_utility", "expected_cost", "expected_total_cost",
             "expected_items"]
    names += ["residual_" + n for n in names] if self.residuals else []
    print("\\t".join([self.ranking.topic_id, self.name()] + [repr(float(getattr(self, n))) for n in names]))

CWLMetric.report = report
sys.argv[0] = "cwl-eval"
a = cwl_eval.parse_args()
cwl_eval.main(a.result_file, a.gain_file, a.cost_file, a.metrics_file, a.bib_file, a.colnames,
              a.residuals, a.max_gain, a.min_gain, a.max_cost, a.min_cost, a.max_depth)
"""


def _on_a_tie(printed: str, full: str) -> bool:
    """Whether cwl_eval's value is within 1e-9 of halfway between two four-decimal numbers."""
    value = float(full) * 1e4
    return abs(abs(value - math.floor(value)) - 0.5) < 1e-9 * max(1.0, abs(value)) and printed != ""


def _same_but_ties(out: str, expected: str, full: str) -> None:
    """Equal lines, bar values on a rounding tie (printed either way) and the sign of a zero residual.

    A value halfway between two four-decimal numbers prints as the nearer side of its last bit, which
    the order of the float sums decides: cwl_eval sums with numpy's dot (its BLAS's order, which
    depends on the CPU), the library with its own exact sums; the two values agree to 1e-12
    (tests/reference/test_cwl_oracle.py). So a field may differ only where cwl_eval's own value, at
    full precision, is within 1e-9 of such a tie, and then by one unit of the fourth decimal; and a
    residual (columns 8-12, best minus worst) that is 0 in exact arithmetic may print as -0.0000.
    """
    ours, theirs = out.split("\n"), expected.split("\n")
    precise = [f.split("\t") for f in full.split("\n") if f.count("\t") >= 6 and not f.startswith("Topic\t")]
    assert len(ours) == len(theirs)
    values = iter(precise)
    for mine, their in zip(ours, theirs, strict=True):
        a, b = mine.split("\t"), their.split("\t")
        exact = next(values) if len(b) >= 7 and b[0] != "Topic" else b
        assert len(a) == len(b)
        assert a[:2] == b[:2]
        for column, (x, y, z) in enumerate(zip(a, b, exact, strict=True)):
            if x == y or (column >= 7 and {x, y} == {"0.0000", "-0.0000"}):
                continue
            assert _on_a_tie(y, z), (mine, their, z)
            assert abs(float(x) - float(y)) < 1.5e-4, (mine, their)


def _compare(oracle: Path, args: list[str], folder: Path) -> tuple[Done, Done]:
    """Run both; their standard outputs must be equal byte for byte, bar a value on a rounding tie.

    See ``_same_but_ties``: where the outputs differ, cwl_eval runs again printing its full values.
    """
    theirs = _run([str(oracle), *args], folder)
    ours = _run([sys.executable, "-m", "polars_rankmetrics", "cwl", *args], folder)
    why = (ours.stderr, theirs.stderr[-600:])
    out, expected = ours.stdout.decode(), theirs.stdout.decode()
    if out != expected:
        python = str(oracle.parent / "python")
        full = _run([python, "-c", _FULL, *args], folder).stdout.decode()
        _same_but_ties(out, expected, full)
    assert ours.ok == theirs.ok, why
    return theirs, ours


def _d(name: str) -> str:
    return str(DATA / name)


# cwl_eval's own files and its README's commands (``cwl-eval qrel_file result_file [-c cost_file]``).
DATA_CASES = {
    "readme-default": ["qrel_file", "result_file"],
    "readme-costs": ["qrel_file", "result_file", "-c", "$cost_file"],
    "readme-metrics": ["qrel_file", "result_file", "-m", "$metrics_file"],
    "readme-keyword-metrics-file": ["qrel_file", "result_file", "-m", "$readme_metrics_file"],
    "every-class-graded-costs-residuals": [
        "gain_file", "result_file", "-m", "$readme_positional_metrics_file", "-c", "$cost_file", "-r", "-n",
    ],
    "metrics-costs-residuals-header": [
        "qrel_file", "result_file", "-m", "$metrics_file", "-c", "$cost_file", "-r", "-n",
    ],
    "graded-default-residuals": ["gain_file", "result_file", "-r"],
    "precision": ["gain_file", "result_file", "-m", "$precision_metrics", "-n"],
    "dcg-precision-depth-7-fails": [
        "gain_file", "result_file", "-m", "$dcg_precision_metrics_file", "--max_depth", "7",
    ],
    "dcg-precision-depth-25": [
        "gain_file", "result_file", "-m", "$dcg_precision_metrics_file", "--max_depth", "25", "-r",
    ],
    "every-class-depth-5": [
        "gain_file", "result_file", "-m", "$readme_positional_metrics_file", "--max_depth", "5", "-r",
    ],
    "big-gains-refused": ["big_gain_file", "result_file"],
    "big-gains-allowed-inst-refuses": ["big_gain_file", "result_file", "--max_gain", "2"],
    "big-gains-precision": [
        "big_gain_file", "result_file", "--max_gain", "2", "-m", "$precision_metrics", "-r",
    ],
    "negative-gains-refused": ["neg_gain_file", "result_file"],
    "negative-gains-allowed": ["neg_gain_file", "result_file", "--min_gain", "-1", "-m", "$metrics_file"],
    "cost-bounds": [
        "qrel_file", "result_file", "-r", "--max_cost", "2", "--min_cost", "0.5", "-c", "$cost_file",
    ],
    "missing-file": ["qrel_file", "no_such_run"],
}  # fmt: skip


def _args(spec: list[str]) -> list[str]:
    positional = list(spec[:2])
    rest = [_d(a[1:]) if a.startswith("$") else a for a in spec[2:]]
    return [_d(p) if (DATA / p).exists() else p for p in positional] + rest


@pytest.mark.parametrize("case", sorted(DATA_CASES))
def test_cwl_eval_files_and_readme(cwl_eval: Path, case: str, tmp_path: Path) -> None:
    """cwl_eval's test files and README commands: the same output, byte for byte."""
    _compare(cwl_eval, _args(DATA_CASES[case]), tmp_path)


def test_negative_gains_above_min_gain(cwl_eval: Path, tmp_path: Path) -> None:
    """--min_gain -1: cwl_eval evaluates P@k on gains of -1; the command must print the same."""
    args = _args(["neg_gain_file", "result_file", "--min_gain", "-1", "-m", "$precision_metrics", "-r"])
    _compare(cwl_eval, args, tmp_path)


# Every class but INST and NERR (which refuse a gain below 0): each evaluates gains down to --min_gain.
_NEGATIVE_GAIN_MEASURES = """PrecisionCWLMetric(3)
RRCWLMetric()
APCWLMetric()
TrAPCWLMetric()
RBPCWLMetric(0.5)
NDCGCWLMetric(5)
INSQCWLMetric(1)
BPMCWLMetric(2,5)
BPMDCWLMetric(1,5)
UMeasureCWLMetric(20)
TBGCWLMetric(5)
IFTGoalCWLMetric(2,0.9,10)
IFTRateCWLMetric(0.2,0.9,10)
IFTGoalRateCWLMetric(2,0.9,10,0.2,0.9,10)
SETCWLMetric(0.5,5)
NPVCWLMetric(0.1)
"""


@pytest.mark.parametrize("depth", ["20", "1000"])
def test_negative_gains_in_every_measure_that_takes_them(cwl_eval: Path, tmp_path: Path, depth: str) -> None:
    """--min_gain -1 with costs and residuals: every class that takes a negative gain prints as cwl_eval."""
    (tmp_path / "metrics").write_text(_NEGATIVE_GAIN_MEASURES)
    args = [_d("neg_gain_file"), _d("result_file"), "--min_gain", "-1", "-m", str(tmp_path / "metrics")]
    theirs, _ = _compare(cwl_eval, [*args, "-r", "-c", _d("cost_file"), "--max_depth", depth], tmp_path)
    assert theirs.ok
    assert theirs.stdout.count(b"\n") == 3 * 16
    assert b"-0.0333" in theirs.stdout  # T3's RR: a negative gain before the first positive one


_REPEATS_MEASURES = """TrAPCWLMetric()
APCWLMetric()
RRCWLMetric()
PrecisionCWLMetric(5)
RBPCWLMetric(0.8)
NDCGCWLMetric(5)
INSQCWLMetric(1)
BPMCWLMetric(2,5)
TBGCWLMetric(5)
"""


def _repeated(seed: int) -> str:
    """result_file with documents repeated within a ranking: relevant, not relevant, unjudged, far down."""
    rng = random.Random(seed)  # noqa: S311  (test data)
    lines = (DATA / "result_file").read_text().splitlines()
    out: list[str] = []
    for line in lines:
        out.append(line)
        topic, element, doc, rank, score, run_id = line.split()
        if rng.random() < 0.35:
            again = doc if rng.random() < 0.6 else f"D{rng.randint(1, 12)}"  # D11, D12: unjudged
            out.append(f"{topic} {element} {again} {rank} {score} {run_id}")
    out += ["T3 E1 D6 99 0.1 R1", "T3 E1 D6 100 0.1 R1"]  # a relevant document, twice, at the end
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(
    ("seed", "gains", "options"),
    [
        (1, "qrel_file", ["-r"]),
        (2, "gain_file", ["-r", "-c", "$cost_file"]),
        (3, "qrel_file", ["-r", "--max_depth", "8"]),
        (4, "neg_gain_file", ["-r", "--min_gain", "-1", "--max_depth", "25"]),
        (5, "gain_file", ["-n"]),
    ],
)
def test_a_document_repeated_within_a_ranking(
    cwl_eval: Path, tmp_path: Path, seed: int, gains: str, options: list[str]
) -> None:
    """A repeated document: each line gains, TrAP's R counts it once; printed as cwl_eval prints it.

    cwl_eval reads a ranking in file order, every line an item of its own, and takes TrAP's R from
    the gain file (the topic's documents with a positive gain, each once).
    """
    run = _repeated(seed)
    (tmp_path / "run").write_text(run)
    (tmp_path / "metrics").write_text(_REPEATS_MEASURES)
    rest = [_d(o[1:]) if o.startswith("$") else o for o in options]
    args = [_d(gains), str(tmp_path / "run"), "-m", str(tmp_path / "metrics"), *rest]
    theirs, _ = _compare(cwl_eval, args, tmp_path)
    assert theirs.ok
    assert len(run.splitlines()) > len((DATA / "result_file").read_text().splitlines()) + 4


def test_negative_gains_where_ap_reaches_no_rank(cwl_eval: Path, tmp_path: Path) -> None:
    """Gains -1, 1: AP's C(1) is -1, its chances of reaching the ranks sum to 0: cwl_eval prints nan."""
    (tmp_path / "gains").write_text("T 0 A -1\nT 0 B 1\nU 0 A 1\n")
    (tmp_path / "run").write_text("T E1 A 1 3 R\nT E2 B 2 2 R\nT E1 C 3 1 R\nU E1 A 1 3 R\n")
    (tmp_path / "metrics").write_text("APCWLMetric()\nRBPCWLMetric(0.5)\n")
    base = [
        str(tmp_path / "gains"),
        str(tmp_path / "run"),
        "--min_gain",
        "-1",
        "-m",
        str(tmp_path / "metrics"),
    ]
    for extra in ([], ["-r"], ["-r", "-c", _d("cost_file"), "--max_depth", "5"]):
        theirs, _ = _compare(cwl_eval, [*base, *extra], tmp_path)
        assert theirs.ok
        assert b"T\tAP\tnan" in theirs.stdout


def test_negative_gains_refused_by_inst(cwl_eval: Path, tmp_path: Path) -> None:
    """INST refuses a ranking with a gain below 0 even above --min_gain: both stop before T1."""
    (tmp_path / "metrics").write_text("RBPCWLMetric(0.5)\nINSTCWLMetric(1)\n")
    args = [_d("neg_gain_file"), _d("result_file"), "--min_gain", "-1", "-m", str(tmp_path / "metrics")]
    theirs, ours = _compare(cwl_eval, args, tmp_path)
    assert not theirs.ok
    assert not ours.ok


def test_a_malformed_run_line_stops_where_cwl_eval_stops(cwl_eval: Path, tmp_path: Path) -> None:
    """A run line of five fields: the rankings before it are printed as cwl_eval prints them, then fails."""
    lines = (DATA / "result_file").read_text().splitlines()
    lines.insert(14, "T2 E1 D99 11 3.0")
    (tmp_path / "run").write_text("\n".join(lines) + "\n")
    theirs, ours = _compare(cwl_eval, [_d("qrel_file"), str(tmp_path / "run"), "-n"], tmp_path)
    assert not theirs.ok
    assert theirs.stdout.count(b"\n") == 1 + 16  # the header and T1's lines: T2 never completes
    assert "line 15" in ours.stderr


@pytest.mark.parametrize(
    "case",
    ["empty-metrics-file", "empty-gain-file", "empty-run", "blank-line-ends-the-run", "crlf-line-ends"],
)
def test_empty_and_odd_files(cwl_eval: Path, case: str, tmp_path: Path) -> None:
    """Empty files, a blank last line, Windows line ends: printed (and failed) as cwl_eval does."""
    empty = tmp_path / "empty"
    empty.write_text("")
    run = (DATA / "result_file").read_text()  # read with universal newlines: LF
    (tmp_path / "run").write_text(
        run + "\n" if case == "blank-line-ends-the-run" else run.replace("\n", "\r\n")
    )
    args = {
        "empty-metrics-file": [_d("qrel_file"), _d("result_file"), "-m", str(empty), "-n"],
        "empty-gain-file": [str(empty), _d("result_file"), "-r"],
        "empty-run": [_d("qrel_file"), str(empty), "-n"],
        "blank-line-ends-the-run": [_d("qrel_file"), str(tmp_path / "run")],
        "crlf-line-ends": [_d("gain_file"), str(tmp_path / "run")],
    }[case]
    _compare(cwl_eval, args, tmp_path)


# ---- Generated collections ----

_GAINS = ("0", "1", "0.5", "1.0", "0.25", ".75", "0.0", "0.1", "0.3333")
_CLASSES = (
    ("PrecisionCWLMetric", lambda r: [r.randint(1, 4)]),  # cwl_eval fails when k - 1 > --max_depth
    ("RBPCWLMetric", lambda r: [r.choice([0.2, 0.5, 0.8, 0.95])]),
    ("NDCGCWLMetric", lambda r: [r.choice([r.randint(1, 25), 10.0, 2.5, 0])]),  # k as cwl_eval compares it
    ("RRCWLMetric", lambda _: []),
    ("APCWLMetric", lambda _: []),
    ("TrAPCWLMetric", lambda _: []),
    ("INSTCWLMetric", lambda r: [r.choice([1, 2.0, 3, 0.5])]),
    ("INSQCWLMetric", lambda r: [r.choice([1, 2.0, 3])]),
    ("TBGCWLMetric", lambda r: [r.choice([22, 224, 5.5])]),
    ("BPMCWLMetric", lambda r: r.choice([[], [1.2], [2, 5], [1000, 10], [1, 1000]])),
    ("BPMDCWLMetric", lambda r: r.choice([[], [1.2, 10], [2.0, 5, 0.5, 2.0], [1, 20, 1.0, 1.0, 0.3]])),
    ("UMeasureCWLMetric", lambda r: [r.choice([10, 50, 7.5])]),
    ("IFTGoalCWLMetric", lambda r: [r.choice([1.0, 2.0]), 0.9, r.choice([1, 10, 100])]),
    ("IFTRateCWLMetric", lambda r: [r.choice([0.2, 0.5]), 0.9, r.choice([1, 10, 100])]),
    ("IFTGoalRateCWLMetric", lambda r: [2.0, 0.9, r.choice([10, 100]), 0.2, 0.9, r.choice([10, 100])]),
    ("NERReq8CWLMetric", lambda r: [r.choice([r.randint(1, 12), 3.0, 0])]),
    ("NERReq9CWLMetric", lambda r: [r.choice([r.randint(1, 12), 4.5])]),
    ("NERReq10CWLMetric", lambda r: [r.choice([0.5, 0.8, 0.9])]),
    ("NERReq11CWLMetric", lambda r: [r.choice([1.0, 2.0, 3])]),
    ("SETCWLMetric", lambda r: r.choice([[], [0.5, 10], [0.3, 4], [1, 2.5]])),
    ("NPVCWLMetric", lambda r: [r.choice([0.1, 0.5])]),
)


def _sep(rng: random.Random) -> str:
    return rng.choice([" ", "\t", "  ", " \t"])


def _judgments(rng: random.Random, topic: str, pool: list[str]) -> list[str]:
    """A topic's gain lines: graded gains written several ways, or (one time in five) no positive gain."""
    zero = rng.random() < 0.2
    docs = rng.sample(pool, rng.randint(1, len(pool)))
    return [_sep(rng).join([topic, "0", d, "0" if zero else rng.choice(_GAINS)]) for d in docs]


def _ranking(rng: random.Random, topic: str, pool: list[str]) -> list[str]:
    """A topic's run lines: tied scores, repeated documents, element types E1-E4 (E4 has no cost)."""
    docs = rng.sample(pool, rng.randint(1, len(pool)))
    unjudged = [f"u{n}" for n in range(3)]  # repeated documents (unjudged: see the module docstring)
    docs = [rng.choice(unjudged) if rng.random() < 0.1 else d for d in docs]
    lines, score = [], 100.0
    for rank, doc in enumerate(docs, 1):
        score -= rng.choice([0.0, 1.0, 2.5])  # ties of scores: cwl_eval reads the file's order
        element = rng.choice(["E1", "E2", "E3", "E4"])
        lines.append(_sep(rng).join([topic, element, doc, str(rank), f"{score:g}", "run"]))
    return lines


def _flags(rng: random.Random, folder: Path) -> list[str]:
    """Drawn flags: costs, residuals, header, depth, unknown costs' bounds."""
    draws = [
        (0.6, ["-c", str(folder / "costs")]),
        (0.5, ["-r"]),
        (0.3, ["-n"]),
        (0.3, ["--max_depth", str(rng.choice([3, 10, 25]))]),
        (0.3, ["--max_cost", rng.choice(["2", "5.0"]), "--min_cost", rng.choice(["0.5", "1"])]),
        (0.15, ["--max_gain", "2"]),  # with -r, INST and NERR refuse the best case's padding (gain 2)
    ]
    return [flag for chance, flags in draws if rng.random() < chance for flag in flags]


def _collection(rng: random.Random, folder: Path) -> list[str]:
    """Write a generated gain file, run, cost file and metrics file; the command's arguments."""
    topics = [rng.choice(["q", "T", ""]) + str(n) for n in rng.sample(range(1, 60), rng.randint(2, 6))]
    judged_only, run_only = topics[0], topics[1]  # a topic only in the judgments, one only in the run
    qrels: list[str] = []
    run: list[list[str]] = []
    for topic in topics:
        pool = [f"d{n}" for n in range(rng.randint(3, 40))]
        if topic != run_only:
            qrels += _judgments(rng, topic, pool)
        if topic != judged_only:
            run.append(_ranking(rng, topic, pool))
    if len(run) > 1 and rng.random() < 0.5:  # a topic in two stretches, another between them
        half = len(run[0]) // 2 or 1
        run[0], run[1] = run[0][:half], run[1] + run[0][half:]
    (folder / "gains").write_text("\n".join(qrels) + "\n")
    (folder / "run").write_text("\n".join(line for lines in run for line in lines) + "\n")
    costs = [f"E1 {rng.choice(['1', '0.5', '2'])}", f"E2{_sep(rng)}{rng.choice(['3.0', '1.5'])}", "E3 10"]
    (folder / "costs").write_text("\n".join(costs) + "\n")
    chosen = rng.sample(_CLASSES, rng.randint(4, len(_CLASSES)))
    metrics = [f"{name}({', '.join(map(str, draw(rng)))})" for name, draw in chosen]
    (folder / "metrics").write_text("\n".join(metrics) + "\n")
    return [str(folder / "gains"), str(folder / "run"), "-m", str(folder / "metrics"), *_flags(rng, folder)]


@pytest.mark.parametrize("seed", range(40))
def test_generated_collections(cwl_eval: Path, seed: int, tmp_path: Path) -> None:
    """Generated gains, runs, costs and measures: the same output, byte for byte."""
    args = _collection(random.Random(seed), tmp_path)  # noqa: S311  (a seeded test draw)
    theirs, _ = _compare(cwl_eval, args, tmp_path)
    if "--max_gain" not in args:  # the generator writes what cwl_eval reads
        assert theirs.ok, theirs.stderr[-600:]


def test_the_comparison_allows_only_ties_and_zero_signs() -> None:
    """The comparison itself: a value off a tie, or a -0.0000 outside the residuals, fails it."""
    line = "T1\tP@2\t{}\t1.0000\t1.0000\t2.0000\t2.0000\t{}\t0.0000\t0.0000\t0.0000\t0.0000"
    full = "T1\tP@2\t{}\t1.0\t1.0\t2.0\t2.0\t{}\t0.0\t0.0\t0.0\t0.0"
    _same_but_ties(
        line.format("0.1188", "0.0000"), line.format("0.1187", "-0.0000"), full.format(0.11875, -1e-17)
    )
    with pytest.raises(AssertionError):
        _same_but_ties(line.format("0.1188", "0.0"), line.format("0.1187", "0.0"), full.format(0.11874, 0.0))
    with pytest.raises(AssertionError):
        _same_but_ties(line.format("0.0000", "0.0"), line.format("-0.0000", "0.0"), full.format(-1e-17, 0.0))
