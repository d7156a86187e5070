"""The command line's --ties and --preset: the library's conventions, parsed from flags."""

from __future__ import annotations

from pathlib import Path

import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.cli import main

QRELS = "q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 0 a 1\nq3 0 x 1\n"
RUN = "q1 Q0 a 1 1.0 r\nq1 Q0 b 2 1.0 r\nq1 Q0 c 3 1.0 r\nq1 Q0 d 4 0.5 r\nq2 Q0 a 1 0.7 r\nq2 Q0 b 2 0.7 r\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return qrels, run


def _summary(capsys: pytest.CaptureFixture[str], files: tuple[Path, Path], *flags: str) -> dict[str, float]:
    assert (
        main([*flags, "-m", "P.1", "-m", "recip_rank", "-m", "ndcg_cut.2", str(files[0]), str(files[1])]) == 0
    )
    lines = [line.split() for line in capsys.readouterr().out.splitlines()]
    return {name: float(value) for name, query, value in lines if query == "all"}


def _library(files: tuple[Path, Path], **conventions: str) -> dict[str, float]:
    run = prm.read_trec_run(files[1]).drop("run")
    frame = prm.join_run_qrels(run, prm.read_trec_qrels(files[0]))
    names = ["P_1", "recip_rank", "ndcg_cut_2"]
    out = prm.evaluate(frame, names, **conventions).row(0)  # type: ignore[arg-type]
    return dict(zip(["P_1", "recip_rank", "ndcg_cut_2"], out, strict=True))


@pytest.mark.parametrize("policy", ["text", "optimistic", "pessimistic", "average"])
def test_ties_flag_is_the_convention(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path], policy: str
) -> None:
    got = _summary(capsys, files, "--ties", policy)
    want = _library(files, ties=policy)
    assert got == pytest.approx(want, abs=5e-5)  # printed to 4 decimals


def test_the_policies_differ_here(capsys: pytest.CaptureFixture[str], files: tuple[Path, Path]) -> None:
    values = {
        p: _summary(capsys, files, "--ties", p)["P_1"] for p in ("optimistic", "pessimistic", "average")
    }
    assert values["pessimistic"] < values["average"] < values["optimistic"]


def test_preset_flag_and_overrides(capsys: pytest.CaptureFixture[str], files: tuple[Path, Path]) -> None:
    # q3 is judged but never answered: ir_measures scores it 0 and counts it; trec_eval skips it.
    assert _summary(capsys, files, "--preset", "ir_measures") == pytest.approx(
        _library(files, preset="ir_measures"), abs=5e-5
    )
    assert _summary(capsys, files, "--preset", "ir_measures")["P_1"] < _summary(capsys, files)["P_1"]
    # --ties overrides the preset's.
    assert _summary(capsys, files, "--preset", "sklearn", "--ties", "text") == _summary(capsys, files)


def test_unknown_policy_or_preset_exits_2(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path]
) -> None:
    for flags in (["--ties", "random"], ["--preset", "trec"]):
        assert main([*flags, str(files[0]), str(files[1])]) == 2
        assert "invalid choice" in capsys.readouterr().err


def test_undefined_policy_is_an_error_naming_the_metric(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path]
) -> None:
    code = main(["--ties", "average", "-m", "bpref", str(files[0]), str(files[1])])
    assert code != 0
    assert "ties='average' is not defined for metric 'bpref'" in capsys.readouterr().err
