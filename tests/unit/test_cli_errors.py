"""The ``rankmetrics`` command's errors: the flag or measure as typed, a non-zero status, no traceback."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.cli import UNSUPPORTED_FLAGS, main

FILES = (str(prm.demo_path("qrels.test")), str(prm.demo_path("results.test")))
CLI_PAGE = Path(__file__).parents[2] / "docs" / "guides" / "cli.md"  # the command's page of the site


def _fails(capsys: pytest.CaptureFixture[str], *args: str, status: int = 1) -> str:
    """Run the command on the demo files with `args`; it must fail with `status`, stdout empty; stderr."""
    code = main([*args, *FILES])
    captured = capsys.readouterr()
    assert (code, captured.out) == (status, "")
    assert captured.err.startswith("rankmetrics: ")
    assert "Traceback" not in captured.err
    return captured.err


@pytest.mark.parametrize("flag", ["--version", "-v"])
def test_cli_version_prints_the_package_version(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    """``--version`` (trec_eval's ``-v`` too) prints ``rankmetrics <version>`` and exits 0."""
    assert main([flag]) == 0
    assert capsys.readouterr().out == f"rankmetrics {prm.__version__}\n"


@pytest.mark.parametrize(
    ("args", "typed"),
    [
        (["-N", "10"], "-N"),
        (["-N10"], "-N"),
        (["-qN10"], "-N"),  # bundled after a supported flag, as getopt allows
        (["--Number_docs_in_coll", "10"], "--Number_docs_in_coll"),
        (["-D", "1"], "-D"),
        (["-R", "prefs"], "-R"),
        (["-T", "trec_results"], "-T"),
        (["-o"], "-o"),
        (["-Z", "zmean"], "-Z"),
        (["--Zscore=zmean"], "--Zscore"),
    ],
)
def test_cli_unsupported_trec_eval_flag_is_named_with_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], typed: str
) -> None:
    """A trec_eval flag the command does not support is named as typed, not "unrecognized arguments"."""
    err = _fails(capsys, *args, status=2)
    assert err == f"rankmetrics: trec_eval flag {typed} is not supported\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-M", "0"], "-M: the depth must be a positive integer, got 0"),
        (["-M0"], "-M: the depth must be a positive integer, got 0"),
        (
            ["--Max_retrieved_per_topic=-3"],
            "--Max_retrieved_per_topic: the depth must be a positive integer, got -3",
        ),
        (["-M", "x"], "-M: the depth must be a positive integer, got 'x'"),
        (["-M", "1.5"], "-M: the depth must be a positive integer, got '1.5'"),
        (["-l", "x"], "-l: the relevance level must be an integer, got 'x'"),
        (["--level_for_rel", "2.5"], "--level_for_rel: the relevance level must be an integer, got '2.5'"),
    ],
)
def test_cli_bad_flag_value_names_the_flag_as_typed(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """A bad ``-M`` or ``-l`` value names the flag the user typed, not the library's parameter."""
    assert _fails(capsys, *args) == f"rankmetrics: {message}\n"


def test_cli_flag_values_the_library_accepts_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    """``-M 1`` and a negative ``-l`` are valid: the checks reject only what the library rejects."""
    assert main(["-M", "1", "-l", "-1", "-m", "num_ret", "-m", "num_rel", *FILES]) == 0
    assert capsys.readouterr().out == "num_ret               \tall\t3\nnum_rel               \tall\t3681\n"


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("P_10", "P.10"),  # trec_eval's printed line name
        ("ndcg_cut_20", "ndcg_cut.20"),
        ("iprec_at_recall_0.10", "iprec_at_recall.0.10"),
        ("utility_2,-1,0,0", "utility.2,-1,0,0"),
        ("MAP", "map"),  # another case
        ("Rprec_MULT.2", "Rprec_mult.2"),
        ("ndcg_ct.10", "ndcg_cut.10"),  # a typo, parameters kept
        ("offical", "official"),
        ("mrr", "recip_rank"),  # the library's names
        ("ndcg@10", "ndcg_cut.10"),
    ],
)
def test_cli_unknown_measure_suggests_the_trec_eval_spec(
    capsys: pytest.CaptureFixture[str], typed: str, meant: str
) -> None:
    """An unknown measure is quoted as typed, with the closest valid ``-m`` spec, which works."""
    err = _fails(capsys, "-m", typed)
    assert err.startswith(f"rankmetrics: unknown measure {typed!r}; did you mean {meant!r}? ")
    assert main(["-m", meant, *FILES]) == 0
    assert capsys.readouterr().err == ""


def test_cli_unknown_measure_suggests_several_when_several_are_close(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Up to three close names, best first."""
    err = _fails(capsys, "-m", "ndcg_p")
    assert err.startswith(
        "rankmetrics: unknown measure 'ndcg_p'; did you mean 'ndcg' or 'Rndcg' or 'ndcg_rel'? "
    )


@pytest.mark.parametrize(
    ("spec", "parameter"),
    [
        ("ndcg.1=1e400", "1e400"),
        ("utility.1e400,0,0,0", "1e400"),
        ("11pt_avg..1,1e400", "1e400"),
        ("rbp.p=-1e999", "-1e999"),
    ],
)
def test_cli_infinite_measure_parameter_is_an_error(
    capsys: pytest.CaptureFixture[str], spec: str, parameter: str
) -> None:
    """A parameter too large for a float (C's atof reads inf) is refused, not a traceback."""
    err = _fails(capsys, "-m", spec)
    assert err == f"rankmetrics: measure {spec!r}: parameter {parameter!r} is not a finite number\n"


def _page() -> str:
    """The command's documentation page; the tests that quote it skip where it is not beside the tests."""
    if not CLI_PAGE.is_file():
        pytest.skip("docs/guides/cli.md not found beside the tests")
    return CLI_PAGE.read_text(encoding="utf-8")


def _page_error_table() -> list[tuple[str, str, int]]:
    """The rows of the cli page's table of the command's errors: command, stderr's last line, status."""
    table = re.search(r"^\| command \| stderr \| status \|\n\|[- |]+\|\n((?:\|.*\n)+)", _page(), re.MULTILINE)
    assert table is not None, "the cli page's table of the command's errors"
    rows = re.findall(r"^\| `rankmetrics (.*?)` \| `(.*?)` \| (\d) \|$", table.group(1), re.MULTILINE)
    assert len(rows) == table.group(1).count("\n")  # every row is read
    return [(command, message, int(status)) for command, message, status in rows]


def test_cli_errors_are_the_docs_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each row of the cli page's error table: its message (``...`` ends a prefix), status, no traceback."""
    monkeypatch.chdir(prm.demo_path("qrels.test").parent)  # the rows name the bundled files
    rows = _page_error_table()
    assert len(rows) >= 8
    for command, message, status in rows:
        code = main(shlex.split(command))
        captured = capsys.readouterr()
        last = captured.err.splitlines()[-1]
        assert (code, captured.out) == (status, ""), command
        assert "Traceback" not in captured.err
        assert last.startswith(message[:-3]) if message.endswith("...") else last == message, command


def test_cli_unsupported_flags_are_the_docs(capsys: pytest.CaptureFixture[str]) -> None:
    """The cli page lists exactly the trec_eval flags the command refuses, and each says so."""
    listed = re.search(r"flags ((?:`-\w`,\s+)*`-\w`) \(and their long names\)", _page())
    assert listed is not None, "the cli page's list of unsupported flags"
    flags = re.findall(r"`(-\w)`", listed.group(1))
    assert flags == [short for short, _ in UNSUPPORTED_FLAGS]
    for flag in flags:
        assert main([flag, "1", *FILES]) == 2
        assert capsys.readouterr().err == f"rankmetrics: trec_eval flag {flag} is not supported\n"
