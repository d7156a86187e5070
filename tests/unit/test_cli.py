"""The ``rankmetrics`` command against trec_eval 10.0's own outputs, byte for byte.

The oracle is the reference output that ships with trec_eval (its ``test/``
folder, committed in ``tests/data/trec_eval``); the inputs are the copies
bundled with the package.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.cli import MEASURES, NICKNAMES, main, parse_measures

REFERENCE = Path(__file__).parents[1] / "data" / "trec_eval"

# trec_eval's test folder: each reference output and the command that made it
# (trec_eval's own flags, glued -mX forms included), per ../data/trec_eval/README.md.
MEAS_PARAMS = (
    "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 -m Rprec_mult.5.0,0.2,0.35 "
    "-mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20"
)
TREC_EVAL_TESTS = [
    ("out.test", "qrels.test", "results.test", ""),
    ("out.test.a", "qrels.test", "results.test", "-m all_trec"),
    ("out.test.aq", "qrels.test", "results.test", "-m all_trec -q"),
    ("out.test.aqc", "qrels.test", "results.trunc", "-m all_trec -q -c"),
    ("out.test.aqcM", "qrels.test", "results.trunc", "-m all_trec -q -c -M100"),
    ("out.test.aql", "qrels.rel_level", "results.test", "-m all_trec -mrelstring.20 -q -l2"),
    ("out.test.meas_params", "qrels.test", "results.test", MEAS_PARAMS),
]


def _out(capsys: pytest.CaptureFixture[str], qrels: str | Path, run: str | Path, *flags: str) -> str:
    """Run the command on demo file names (or paths) and return its stdout; it must succeed."""
    qrels_path = qrels if isinstance(qrels, Path) else prm.demo_path(qrels)
    run_path = run if isinstance(run, Path) else prm.demo_path(run)
    code = main([*flags, str(qrels_path), str(run_path)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.err == ""
    return captured.out


@pytest.mark.parametrize(("reference", "qrels", "run", "flags"), TREC_EVAL_TESTS, ids=str)
def test_cli_output_is_trec_evals_byte_for_byte(
    capsys: pytest.CaptureFixture[str], reference: str, qrels: str, run: str, flags: str
) -> None:
    """Each output of trec_eval's test folder, byte for byte, with trec_eval's flags."""
    got = _out(capsys, qrels, run, *flags.split())
    assert got.encode() == (REFERENCE / reference).read_bytes()


def test_cli_flags_after_the_files_and_long_names(capsys: pytest.CaptureFixture[str]) -> None:
    """Flags after the files and trec_eval's long option names work."""
    # trec_eval's getopt accepts its long option names too.
    code = main(
        [str(prm.demo_path("qrels.test")), str(prm.demo_path("results.trunc")), "--measure", "all_trec",
         "--query_eval_wanted", "--complete_rel_info_wanted", "--Max_retrieved_per_topic", "100"]
    )  # fmt: skip
    assert code == 0
    assert capsys.readouterr().out.encode() == (REFERENCE / "out.test.aqcM").read_bytes()


# Values printed by trec_eval 10.0 (built from NIST's source) for measures no reference file uses.
DCG_AND_SET = """\
utility               \tall\t-414.0000
dcg                   \tall\t16.1679
set_P                 \tall\t0.0860
set_relative_P        \tall\t0.5997
set_recall            \tall\t0.5997
set_map               \tall\t0.0341
set_F                 \tall\t0.1169
"""


def test_cli_dcg_and_the_set_nickname(capsys: pytest.CaptureFixture[str]) -> None:
    """``dcg`` and the ``set`` nickname print what trec_eval 10.0 prints."""
    got = _out(capsys, "qrels.rel_level", "results.test", "-m", "dcg", "-m", "set")
    lines = got.splitlines(keepends=True)
    assert lines[0] == "runid                 \tall\tSTANDARD\n"
    assert "".join(lines[5:]) == DCG_AND_SET
    assert lines[1:5] == [
        "num_q                 \tall\t3\n",
        "num_ret               \tall\t1500\n",
        "num_rel               \tall\t559\n",
        "num_rel_ret           \tall\t129\n",
    ]


def _judged_only_run(qrels: Path, run: Path, out: Path) -> Path:
    """Write `run` without its unjudged documents: not in `qrels`, or judged with a negative grade."""
    judged = set()
    for line in qrels.read_text().splitlines():
        query, _, docno, grade = line.split()[:4]
        if int(grade) >= 0:
            judged.add((query, docno))
    kept = [line for line in run.read_text().splitlines() if tuple(line.split()[0:3:2]) in judged]
    out.write_text("".join(f"{line}\n" for line in kept))
    return out


@pytest.mark.parametrize(
    ("qrels", "run", "flags"),
    [
        ("qrels.test", "results.test", []),
        ("qrels.rel_level", "results.test", ["-l2", "-mrelstring.20"]),  # negative grades: pooled, unjudged
    ],
)
def test_cli_judged_only_is_evaluating_the_run_without_its_unjudged_documents(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, qrels: str, run: str, flags: list[str]
) -> None:
    """``-J`` prints what the run without its unjudged documents prints."""
    # trec_eval -J drops every unjudged document (outside the qrels, or with a negative
    # grade) from a ranking before it gives ranks (form_res_rels.c), so -J on a run must print
    # what plain evaluation prints for the run with those documents deleted. That holds even for
    # the measures that look at unjudged documents: with -J none is left in the ranking, as in
    # the filtered run, so unj_* are 0, rbp_resid has only its tail term, relstring shows no '-'
    # or '.', and num_ret / num_nonrel_judged_ret count the judged documents only. The two differ
    # only where a ranking is left empty or cut: a query that retrieved nothing but unjudged
    # documents is evaluated by -J (num_ret 0) but absent from the filtered run (see the next
    # test); with -c, -J also drops the placeholder document trec_eval ranks for a query missing
    # from the run; and -M cuts before -J drops. None of that happens here: every line agrees.
    filtered = _judged_only_run(prm.demo_path(qrels), prm.demo_path(run), tmp_path / "judged.run")
    args = ["-q", "-m", "all_trec", *flags]
    judged_only = _out(capsys, qrels, run, "-J", *args)
    assert judged_only == _out(capsys, qrels, filtered, *args)
    # Not vacuous: the run retrieves unjudged documents (unj_* > 0), and -J removes them all.
    unjudged = re.compile(r"^unj_\d+ +\t\S+\t(\S+)$", flags=re.MULTILINE)
    assert set(unjudged.findall(judged_only)) == {"0.0000"}
    assert set(unjudged.findall(_out(capsys, qrels, run, *args))) != {"0.0000"}


def test_cli_judged_only_keeps_a_query_that_retrieved_only_unjudged_documents(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``-J`` keeps a query left with an empty ranking, as trec_eval does."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 a 1\nq1 0 c 0\nq2 0 b 1\n")
    run.write_text("q1 Q0 a 1 2.0 r\nq1 Q0 x 2 1.0 r\nq2 Q0 y 1 1.0 r\n")
    got = _out(capsys, qrels, run, "-J", "-q", "-m", "num_q", "-m", "num_ret", "-m", "map")
    # What trec_eval 10.0 prints (trec_eval -J -q -m num_q -m num_ret -m map qrels run).
    assert got == (
        "num_ret               \tq1\t1\n"
        "map                   \tq1\t1.0000\n"
        "num_ret               \tq2\t0\n"
        "map                   \tq2\t0.0000\n"
        "num_q                 \tall\t2\n"
        "num_ret               \tall\t1\n"
        "map                   \tall\t0.5000\n"
    )


def test_cli_no_summary_prints_only_queries(capsys: pytest.CaptureFixture[str]) -> None:
    """``-n`` with ``-q`` prints the per-query lines only."""
    got = _out(capsys, "qrels.test", "results.test", "-q", "-n", "-m", "all_trec")
    want = [line for line in (REFERENCE / "out.test.aq").read_text().splitlines() if "\tall\t" not in line]
    assert got.splitlines() == want


def test_cli_no_summary_without_queries_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """``-n`` without ``-q`` prints nothing."""
    assert _out(capsys, "qrels.test", "results.test", "-n") == ""


def test_cli_orders_queries_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Queries print in the order of their ids as text."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("9 0 a 1\n10 0 a 1\n100 0 b 1\n")
    run.write_text("9 Q0 a 1 2.0 r\n10 Q0 a 1 2.0 r\n100 Q0 a 1 1.0 r\n")
    queries = [line.split("\t")[1] for line in _out(capsys, qrels, run, "-q", "-m", "num_ret").splitlines()]
    assert queries == ["10", "100", "9", "all"]  # trec_eval compares query ids with strcmp


def test_cli_runid_is_the_last_lines_run_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``runid`` is the run name of the run file's last line."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 a 1\n")
    run.write_text("q1 Q0 a 1 2.0 first\nq1 Q0 b 2 1.0 my.run-1\n")
    # trec_eval keeps the run id of the last line it reads.
    assert _out(capsys, qrels, run, "-m", "runid") == "runid                 \tall\tmy.run-1\n"


def test_parse_measures_follows_trec_evals_parameter_rules() -> None:
    """The first spec with parameters wins; names follow trec_eval's formats."""
    # The first spec with parameters wins (P.10,5); later ones (P.5,7) and bare names add nothing.
    names = [line.name for line in parse_measures(["P.10,5", "map", "P.5,7", "official"])]
    assert names[:6] == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map"]
    assert [n for n in names if n.startswith("P_")] == ["P_5", "P_10"]
    # Real cutoffs print with %3.2f, sorted; numbers and pairs print as written.
    names = [line.name for line in parse_measures(["Rprec_mult.2,.5", "utility.2,-1,0,0", "G.1=2"])]
    assert names == ["Rprec_mult_0.50", "Rprec_mult_2.00", "utility_2,-1,0,0", "G_1=2"]
    assert [line.name for line in parse_measures(["relstring"])] == ["relstring"]


def test_measure_table_covers_trec_evals_sets() -> None:
    """The table holds every member of trec_eval's nicknames, each with a metric."""
    table = [m.name for m in MEASURES]
    assert len(set(table)) == len(table)
    for members in NICKNAMES.values():
        assert set(members) <= set(table)
    # Every default line names a metric the library registers, and names are unique.
    lines = parse_measures([m.name for m in MEASURES])
    assert len({line.name for line in lines}) == len(lines)
    assert all(line.metric is not None for line in lines if line.name != "runid")


# ---- errors ----


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main([*args, str(prm.demo_path("qrels.test")), str(prm.demo_path("results.test"))])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert captured.err.startswith("rankmetrics: ")
    return captured.err


@pytest.mark.parametrize("measure", ["foo", "P_5", "ndcg_p", "Map"])
def test_cli_unknown_measure_is_named(capsys: pytest.CaptureFixture[str], measure: str) -> None:
    """An unknown measure is quoted as typed."""
    err = _error(capsys, "-m", measure)
    assert repr(measure) in err
    assert "unknown measure" in err
    assert "supported: " in err


@pytest.mark.parametrize("measure", ["ideal_dcg", "yaap", "prefs_simp", "P_avgjg", "prefs", "qrels_jg"])
def test_cli_unsupported_trec_eval_measure_says_so(capsys: pytest.CaptureFixture[str], measure: str) -> None:
    """A trec_eval measure the command does not print says it is not supported."""
    err = _error(capsys, "-m", measure)
    assert repr(measure) in err
    assert "not supported" in err


@pytest.mark.parametrize(
    "spec",
    [
        "map.5", "official.5", "P.0", "P.x", "P.", "P.inf", "P.nan", "recall.-3", "P.5,5",
        "iprec_at_recall..1,.10", "utility.1,2", "ndcg.1=2,3", "ndcg.1=x", "ndcg.-1=5", "rbp.1=2",
        "set_F.-1", "relstring.0", "11pt_avg..5,.25",
    ],
)  # fmt: skip
def test_cli_bad_measure_parameter(capsys: pytest.CaptureFixture[str], spec: str) -> None:
    """A malformed measure parameter is an error quoting the spec."""
    assert repr(spec) in _error(capsys, "-m", spec)


def test_cli_malformed_run_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed run line names the file and the line."""
    run = tmp_path / "bad.run"
    run.write_text("301 Q0 FR940202-2-00150 1 2.1 STANDARD\n301 Q0 FR940202-2-00151 2\n")
    code = main([str(prm.demo_path("qrels.test")), str(run)])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert captured.err.startswith(f"rankmetrics: {run}: line 2")


def test_cli_malformed_qrels_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed qrels line names the file and the line."""
    qrels = tmp_path / "bad.qrels"
    qrels.write_text("301 0 a 1\n301 0 b 1\n301 0 c x\n")
    code = main([str(qrels), str(prm.demo_path("results.test"))])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith(f"rankmetrics: {qrels}: line 3")


@pytest.mark.parametrize("content", [b"\x7fELF\x1f\x00\x01 x y\n", b"301 0 a 1\x1f2\n"])
def test_cli_unreadable_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    """A file Polars cannot read as text is named."""
    qrels = tmp_path / "odd.qrels"
    qrels.write_bytes(content)
    assert main([str(qrels), str(prm.demo_path("results.test"))]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rankmetrics: ")
    assert str(qrels) in err


def test_cli_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing file is named."""
    missing = tmp_path / "nope.qrels"
    assert main([str(missing), str(prm.demo_path("results.test"))]) == 1
    assert "nope.qrels" in capsys.readouterr().err


def test_cli_no_query_in_common(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Run and qrels sharing no query is trec_eval's error."""
    qrels = tmp_path / "qrels"
    qrels.write_text("999 0 a 1\n")
    assert main([str(qrels), str(prm.demo_path("results.test"))]) == 1
    assert "no queries with both results and relevance info" in capsys.readouterr().err


def test_cli_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    """Missing arguments exit 2 with the usage; ``--help`` exits 0."""
    assert main([]) == 2
    assert "usage:" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert "trec_eval" in capsys.readouterr().out


# ---- demo, python -m, README ----


def test_cli_demo_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    """``rankmetrics demo`` prints a table of every query and ``all``."""
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "trec_eval" in out
    for column in ("query", "ndcg@10", "map", "mrr", "P_10", "recall@100", "num_rel_ret"):
        assert column in out
    for query in ("301", "302", "303", "all"):
        assert f"│ {query}" in out


def test_cli_demo_agrees_with_trec_eval(capsys: pytest.CaptureFixture[str]) -> None:
    """The demo's ``all`` row agrees with trec_eval's ``out.test``."""
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    lines = (REFERENCE / "out.test").read_text().splitlines()
    summary = {line.split("\t")[0].rstrip(): line.split("\t")[2] for line in lines}
    all_row = next(line for line in out.splitlines() if line.startswith("│ all"))
    for name in ("map", "recip_rank", "P_10", "num_rel_ret"):
        assert summary[name] in all_row


def test_python_dash_m_runs_the_command() -> None:
    """``python -m polars_rankmetrics`` runs the command."""
    done = subprocess.run(
        [sys.executable, "-m", "polars_rankmetrics", "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "usage: rankmetrics" in done.stdout


README = Path(__file__).parents[2] / "README.md"


@pytest.mark.skipif(not README.is_file(), reason="README.md not found beside the tests")
def test_readme_python_examples_run_and_print_what_they_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's Python examples run and print the tables they show."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) >= 1  # the front door's one example (the guides' blocks run when the site builds)
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102
    printed = capsys.readouterr().out
    shown = re.findall(r"((?:^# (?:shape|[┌│╞└]).*\n)+)", "\n".join(blocks), flags=re.MULTILINE)
    assert len(shown) >= 2
    for table in shown:
        assert re.sub(r"^# ", "", table, flags=re.MULTILINE) in printed


@pytest.mark.skipif(not README.is_file(), reason="README.md not found beside the tests")
def test_readme_command_example_is_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's command example is what the command prints."""
    text = README.read_text(encoding="utf-8")
    example = re.search(r"```\n\$ rankmetrics (qrels\.\S+) (results\.\S+) (.*)\n((?:.*\n)*?)```", text)
    assert example is not None
    qrels, run, flags, shown = example.groups()
    assert _out(capsys, qrels, run, *flags.split()) == shown
