"""``rankmetrics cwl``'s readers, names and refusals (its oracle: tests/conformance/test_cwl_command.py).

The expected names are cwl_eval 1.0.12's format strings applied by hand (``"INST-T={0}".format(T)``,
``"TBG-H@{0} "`` with its trailing space...); a malformed file names its line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.cli import main
from polars_rankmetrics.cli._cwl_files import read_costs, read_gains, read_run
from polars_rankmetrics.cli._cwl_measures import DEFAULT_MEASURES, parse_line, read_metrics

DATA = Path(__file__).resolve().parents[1] / "data" / "cwl"


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_metrics_file_names_as_cwl_eval_prints_them(tmp_path: Path) -> None:
    """Each class's report name, Python's str of each argument: 1 and 1.0 differ, TBG and U keep a space."""
    lines = [
        "INSTCWLMetric(1)", "INSTCWLMetric(1.0)", "TBGCWLMetric(22)", "UMeasureCWLMetric(50)",
        "BPMDCWLMetric(1,1000)", "IFTGoalRateCWLMetric(2.0,0.9,10, 0.2, 0.9, 10)", "NERReq8CWLMetric(3)",
        "NERReq10CWLMetric()", "SETCWLMetric()", "NPVCWLMetric(0.50)", "RRCWLMetric()", "TrAPCWLMetric()",
        "NDCGCWLMetric(5)", "RBPCWLMetric(.5)",
    ]  # fmt: skip
    names = [m.name for m in read_metrics(_write(tmp_path, "m", "\n".join(lines)))]
    assert names == [
        "INST-T=1", "INST-T=1.0", "TBG-H@22 ", "U-L@50 ", "BPM-Dynamic-T=1-K=1000-hb=1.0-hc=1.0",
        "IFT-C1-C2-T=2.0-b1=0.9-R1=10-A=0.2-b2=0.9-R2=10", "NERR-EQ8@k=3", "NERR-EQ10@phi=0.9",
        "SET-k@10-b@0.5", "NPV-r@0.5", "RR", "TrAP", "NDCG-k@5", "RBP@0.5",
    ]  # fmt: skip


def test_the_default_measures_are_cwl_eval_s() -> None:
    """Without -m: P@1-5, P@10, RBP 0.2/0.4/0.8, NDCG@5/10, RR, AP, INST 1.0/2.0/3.0 (its ruler's list)."""
    assert [m.name for m in DEFAULT_MEASURES] == [
        "P@1", "P@2", "P@3", "P@4", "P@5", "P@10", "RBP@0.2", "RBP@0.4", "RBP@0.8", "NDCG-k@5",
        "NDCG-k@10", "RR", "AP", "INST-T=1.0", "INST-T=2.0", "INST-T=3.0",
    ]  # fmt: skip


def test_parse_line_reads_as_cwl_eval() -> None:
    """Empty arguments are skipped, a '.' makes a float, the last character is dropped whatever it is."""
    assert parse_line("X(1,,2.5)\n") == ("X", [1, 2.5])
    assert parse_line("  X( 3 , 1.)  ") == ("X", [3, 1.0])
    assert parse_line("X(1]") == ("X", [1])
    with pytest.raises(ValueError, match="k=1"):
        parse_line("X(k=1)")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("PrecisionCWLMetric(k=1)\n", 1, "ClassName(arg, ...)"),  # the README's keyword form
        ("RRCWLMetric()\n\nAPCWLMetric()\n", 2, "ClassName(arg, ...)"),  # a blank line
        ("RRCWLMetric()\nRRCWLMetric\n", 2, "ClassName(arg, ...)"),  # no parenthesis
        ("RBPCWLMetric(0.5)\nNoSuchCWLMetric()\n", 2, "not a measure class"),
        ("NDCGCWLMetric()\n", 1, "takes 1 to 1 arguments"),
        ("RBPCWLMetric(0.5, 2)\n", 1, "takes 0 to 1 arguments"),
    ],
)
def test_a_bad_metrics_line_is_named(tmp_path: Path, text: str, line: int, words: str) -> None:
    """cwl_eval fails on these with a traceback; the command names the file and line."""
    path = _write(tmp_path, "metrics", text)
    with pytest.raises(prm.TrecFormatError, match=rf"metrics: line {line}: .*{re.escape(words)}"):
        read_metrics(path)


def test_gain_file_keeps_the_last_gain_and_extra_fields(tmp_path: Path) -> None:
    """A pair given twice keeps its last gain (cwl_eval's dict); fields past the fourth are ignored."""
    path = _write(tmp_path, "g", "T1 0 D1 1 extra\nT1\t0\tD2\t.5\nT1 0 D1 0.25\n")
    frame = read_gains(path)
    assert frame.rows() == [("T1", "D1", 0.25), ("T1", "D2", 0.5)]


@pytest.mark.parametrize(
    ("reader", "text", "line", "words"),
    [
        (read_gains, "T1 0 D1 1\nT1 0 D2\n", 2, "4 fields"),
        (read_gains, "T1 0 D1 one\n", 1, "a number"),
        (read_gains, "T1 0 D1 nan\n", 1, "a finite number"),
        (read_costs, "E1 1\nE2 2 3\n", 2, "2 fields"),
        (read_costs, "E1\n", 1, "2 fields"),
        (read_costs, "E1 x\n", 1, "a number"),
    ],
)
def test_a_bad_gain_or_cost_line_is_named(
    tmp_path: Path, reader: object, text: str, line: int, words: str
) -> None:
    """Too few fields, a number Python cannot read, NaN: the file and line are named."""
    path = _write(tmp_path, "f", text)
    with pytest.raises(prm.TrecFormatError, match=rf"f: line {line}: expected {re.escape(words)}"):
        reader(path)  # type: ignore[operator]


def test_run_stretches_and_a_bad_line(tmp_path: Path) -> None:
    """Each stretch of a topic's lines is a ranking; a malformed line ends the reading, named."""
    path = _write(tmp_path, "r", "A E D1 1 1 r\nA E D2 2 1 r\nB E D1 1 1 r\nA E D3 1 1 r\nA E D4 1 1\n")
    run = read_run(path)
    assert run.topics == ["A", "B", "A"]
    assert run.rows["position"].to_list() == [1, 2, 1, 1]
    assert run.error is not None
    assert "r: line 5: expected 6 fields" in str(run.error)


def test_command_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Gains outside [--min_gain, --max_gain], -b, --max_depth 0 and a missing file: status 1, named."""
    gains = _write(tmp_path, "gains", "T1 0 D1 2\n")
    run = _write(tmp_path, "run", "T1 E D1 1 1 r\n")
    assert main(["cwl", str(gains), str(run)]) == 1
    assert "gains` gives topic 'T1' doc 'D1' the gain 2.0" in capsys.readouterr().err
    assert main(["cwl", str(gains), str(run), "-b", "x.bib"]) == 1
    assert "-b/--bib_file" in capsys.readouterr().err
    assert main(["cwl", str(gains), str(run), "--max_depth", "0"]) == 1
    assert "--max_depth" in capsys.readouterr().err
    assert main(["cwl", str(gains), str(tmp_path / "nothing")]) == 1
    captured = capsys.readouterr()
    assert captured.out == f"{tmp_path / 'nothing'} Not Found\n"  # cwl_eval's line, on standard output
    assert "no such file" in captured.err


def test_a_bad_first_run_line_prints_only_the_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """cwl_eval prints its header (-n), then fails on the run's first line: so does the command."""
    assert main(["cwl", str(DATA / "qrel_file"), str(_write(tmp_path, "run", "T1 E D1\n")), "-n"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "Topic\tMetric\tEU\tETU\tEC\tETC\tED\n"
    assert "run: line 1: expected 6 fields" in captured.err
