"""Doctest namespace for the package's docstrings (pytest collects polars_rankmetrics/), and the Java gate.

The Spark adapter's tests and doctests start a local JVM: pyspark 4 needs Java 17 or newer. Where none
is found they are skipped with a reason saying how to install one (README, "Tests"), not left to error.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import polars_rankmetrics as prm

JAVA_HINT = (
    "the Spark tests need Java 17 or newer (pyspark 4): install one (Debian/Ubuntu: "
    "`apt-get install openjdk-17-jre-headless`; macOS: `brew install openjdk@17`) or set JAVA_HOME"
)
ROOT = Path(__file__).resolve().parent
SPARK_PATHS = (ROOT / "tests" / "spark", ROOT / "polars_rankmetrics" / "spark")
# The torch adapter's module imports torch: its doctests need the `torch` extra.
collect_ignore = [] if importlib.util.find_spec("torchmetrics") else ["polars_rankmetrics/torch_metric.py"]


@cache
def java_problem() -> str | None:
    """Why no usable JVM is here (a skip reason), or None when Java 17+ answers."""
    home = os.environ.get("JAVA_HOME")
    java = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    if java is None or not Path(java).exists():
        return f"no Java found: {JAVA_HINT}"
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60, check=False)  # noqa: S603
    except (OSError, subprocess.SubprocessError) as error:
        return f"`{java} -version` failed ({error}): {JAVA_HINT}"
    found = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if found is None:
        return f"`{java} -version` printed no version: {JAVA_HINT}"
    major = int(found.group(2)) if found.group(1) == "1" else int(found.group(1))
    return None if major >= 17 else f"Java {major} found at {java}: {JAVA_HINT}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip what starts Spark, with the reason, where no Java 17+ is installed."""
    spark_items = [item for item in items if any(item.path.is_relative_to(p) for p in SPARK_PATHS)]
    reason = java_problem() if spark_items else None
    if reason is None:
        return
    for item in spark_items:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict[str, Any]) -> None:
    doctest_namespace["pl"] = pl
    doctest_namespace["prm"] = prm
