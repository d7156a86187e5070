"""CI smoke run of benchmarks/bench_compare.py: it runs at a small size and every peer agrees.

Nothing is timed here: the guard is the harness's own agreement checks (our
t and Wilcoxon p-values equal scipy's and ranx's; the randomization p-values
within 4 Monte Carlo standard errors of scipy's and ranx's; the bootstrap
interval within 4 of scipy's) and the same bits on every repeat.
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_compare  # noqa: E402


def test_compare_harness_runs_and_agrees(tmp_path: Path) -> None:
    """3 systems, 60 queries, 500 resamples, 2 repeats: exit 0, every agreement line OK."""
    out = tmp_path / "compare.md"
    argv = ["--systems", "3", "--queries", "60", "--resamples", "500", "--repeat", "2", "--out", str(out)]
    status = bench_compare.main(argv)
    text = out.read_text()
    assert status == 0, text
    checks = [line for line in text.splitlines() if line.startswith("- ")]
    assert [line.split(":")[0] for line in checks] == [
        "- t",
        "- wilcoxon",
        "- randomization",
        "- bootstrap",
        "- tukey",
    ]
    assert all("FAIL" not in line for line in checks), checks
    assert text.count("| randomization |") == 2  # scipy and ranx
