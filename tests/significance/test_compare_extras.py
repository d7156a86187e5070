"""significance/'s optional dependencies: never needed to import the library; named when missing."""

from __future__ import annotations

import subprocess
import sys

import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import plots
from polars_rankmetrics.cli import main
from significance.compare_data import frame

DF = frame({"a": [0.5, 0.25, 0.75], "b": [0.75, 0.5, 1.0]})


def _hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make `modules` unimportable, as if not installed (None in sys.modules stops an import)."""
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)


def test_importing_the_library_imports_no_optional_dependency() -> None:
    """`import polars_rankmetrics` (and its CLI) loads neither scipy, great_tables, statsmodels nor altair."""
    code = (
        "import sys, polars_rankmetrics, polars_rankmetrics.cli, polars_rankmetrics.significance._plots; "
        "print(sorted(m for m in ('scipy', 'great_tables', 'statsmodels', 'altair') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)  # noqa: S603
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("test", ["t", "wilcoxon"])
def test_scipy_missing_names_the_significance_extra(monkeypatch: pytest.MonkeyPatch, test: str) -> None:
    """The t and Wilcoxon tests need scipy: the error names the feature and the extra to install."""
    _hide(monkeypatch, "scipy", "scipy.stats")
    with pytest.raises(ModuleNotFoundError, match=rf"prm.compare\(test='{test}'\) needs scipy, an optional"):
        prm.compare(DF, by="system", test=test)  # type: ignore[arg-type]
    with pytest.raises(ImportError, match=r'pip install "polars-rankmetrics\[significance\]"'):
        prm.compare(DF, by="system", test=test)  # type: ignore[arg-type]


def test_the_resampling_tests_need_no_scipy(monkeypatch: pytest.MonkeyPatch) -> None:
    """randomization, bootstrap and tukey run on numpy alone."""
    _hide(monkeypatch, "scipy", "scipy.stats")
    for test in ("randomization", "bootstrap", "tukey"):
        assert prm.compare(DF, by="system", test=test, seed=0, n_resamples=50).height == 1  # type: ignore[arg-type]


def test_numpy_missing_names_the_significance_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test needs numpy."""
    _hide(monkeypatch, "numpy")
    with pytest.raises(
        ModuleNotFoundError, match=r'prm.compare needs numpy.*polars-rankmetrics\[significance\]"'
    ):
        prm.compare(DF, by="system", test="randomization")


def test_great_tables_missing_names_the_significance_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """prm.table needs great_tables; prm.table_markdown does not."""
    comparison = prm.compare(DF, by="system")
    _hide(monkeypatch, "great_tables")
    with pytest.raises(
        ModuleNotFoundError, match=r'prm.table needs great_tables.*polars-rankmetrics\[significance\]"'
    ):
        prm.table(comparison)
    assert "**0.7500**" in prm.table_markdown(comparison)


def test_altair_missing_names_the_plot_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plots need altair, from the plot extra."""
    _hide(monkeypatch, "altair")
    with pytest.raises(ModuleNotFoundError, match=r'plots.deltas needs altair.*polars-rankmetrics\[plot\]"'):
        plots.deltas(DF, by="system", baseline="a", metric="m")


def test_the_command_prints_the_missing_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rankmetrics compare --format html` without great_tables: exit 1 and the extra on stderr."""
    _hide(monkeypatch, "great_tables")
    qrels, run, trunc = (str(prm.demo_path(n)) for n in ("qrels.test", "results.test", "results.trunc"))
    assert main(["compare", qrels, run, trunc, "--missing", "zero", "--format", "html"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rankmetrics: prm.table needs great_tables")
    assert 'pip install "polars-rankmetrics[significance]"' in err
