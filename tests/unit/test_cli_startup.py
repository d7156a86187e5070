"""The command's start-up: a plain evaluation imports no module it does not use (no timing here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import polars_rankmetrics as prm

ROOT = Path(__file__).resolve().parents[2]
# Modules a plain trec_eval-style evaluation has no use for.
UNUSED = (
    "polars_rankmetrics.plots",
    "polars_rankmetrics.significance",
    "polars_rankmetrics.fusion",
    "polars_rankmetrics.spark",
    "polars_rankmetrics.expr",
    "polars_rankmetrics.diversity",
    "polars_rankmetrics.curves",
    "polars_rankmetrics.cli._compare",
    "polars_rankmetrics.cli._fuse",
    "polars_rankmetrics.cli._cwl",
    "polars_rankmetrics.chunked",
    "polars_rankmetrics._progress",
    "polars_rankmetrics.id_lists",
    "pkgutil",  # the metric families are found without it
)

_PROBE = """
import contextlib, io, json, sys
from polars_rankmetrics.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    status = main(sys.argv[1:])
print(json.dumps({"status": status, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def _probe(*argv: str) -> dict[str, object]:
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", _PROBE, *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(
    "flags", [[], ["-q", "-m", "all_trec"], ["-c", "-J", "-M", "100", "-l", "2", "-m", "ndcg_cut.5,10"]]
)
def test_a_plain_evaluation_imports_no_unused_module(flags: list[str]) -> None:
    """trec_eval's command line loads neither plots, statistics, fusion, Spark nor the expression builders."""
    files = [str(prm.demo_path("qrels.test")), str(prm.demo_path("results.test"))]
    result = _probe(*files, *flags)
    assert result["status"] == 0
    assert "\tall\t" in str(result["out"])
    modules = set(result["modules"])  # type: ignore[call-overload]
    loaded = sorted(m for m in modules if m.startswith(UNUSED))
    assert loaded == []


def test_the_lazy_names_still_resolve() -> None:
    """Every public name the package exports lazily is there when read, and is the module's own object."""
    from polars_rankmetrics import chunked, fusion, id_lists, significance  # noqa: PLC0415

    assert prm.fuse is fusion.fuse
    assert prm.from_id_lists is id_lists.from_id_lists
    assert prm.evaluate_chunked is chunked.evaluate_chunked
    assert prm.compare is significance.compare
    assert prm.table_markdown is significance.table_markdown
    assert set(prm.__all__) <= set(dir(prm))
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = prm.no_such_name  # type: ignore[attr-defined]


def test_compare_still_runs_from_the_command() -> None:
    """The compare subcommand imports its statistics when asked for."""
    qrels, run, short = (str(prm.demo_path(n)) for n in ("qrels.test", "results.test", "results.trunc"))
    result = _probe("compare", qrels, run, short, "--missing", "zero", "--format", "csv")
    assert result["status"] == 0
    assert "polars_rankmetrics.significance" in set(result["modules"])  # type: ignore[call-overload]
