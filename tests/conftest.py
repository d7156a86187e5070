"""Shared fixtures: hypothesis profiles, the doctest namespace, and the trec_eval 10.0 binary.

The binary the differential tests compare with: ``TREC_EVAL`` names it; unset, the session
builds it from the shared source archive (``TREC_EVAL_SRC``, else
``shared/reference/trec_eval/trec_eval-10.0-src.tar.gz`` beside the checkout) into a
temporary directory when ``cc`` and ``make`` exist. Without either the tests using the
fixture skip, saying why. (One conftest for the whole folder: with --doctest-modules a
second one in a subfolder is imported under the same module name.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, settings

import polars_rankmetrics as prm

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict[str, Any]) -> None:
    doctest_namespace["pl"] = pl
    doctest_namespace["prm"] = prm


_ARCHIVE = "shared/reference/trec_eval/trec_eval-10.0-src.tar.gz"


def _archive() -> Path | None:
    given = os.environ.get("TREC_EVAL_SRC")
    if given:
        return Path(given)
    root = Path(__file__).resolve().parents[1]
    for base in (root.parent, root.parent.parent):
        if (base / _ARCHIVE).is_file():
            return base / _ARCHIVE
    return None


def _built(tmp: Path) -> tuple[Path | None, str]:
    archive = _archive()
    if archive is None:
        return None, f"TREC_EVAL unset and no {_ARCHIVE} beside the checkout (or TREC_EVAL_SRC)"
    if shutil.which("cc") is None or shutil.which("make") is None:
        return None, "TREC_EVAL unset and no cc/make to build trec_eval 10.0"
    with tarfile.open(archive) as tar:
        tar.extractall(tmp, filter="data")
    makefiles = sorted(tmp.rglob("Makefile"))
    if not makefiles:
        return None, f"{archive} holds no Makefile"
    where = makefiles[0].parent
    done = subprocess.run(["make", "-C", str(where)], capture_output=True, check=False, timeout=300)  # noqa: S603, S607
    binary = where / "trec_eval"
    if done.returncode != 0 or not binary.is_file():
        return None, f"building trec_eval failed: {done.stderr.decode(errors='replace')[-500:]}"
    return binary, ""


@pytest.fixture(scope="session")
def trec_eval_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A trec_eval 10.0 binary: ``TREC_EVAL``, else built from the shared source; checked to be 10.0."""
    given = os.environ.get("TREC_EVAL")
    if given:
        binary: Path | None = Path(given)
    else:
        binary, why = _built(tmp_path_factory.mktemp("trec_eval"))
        if binary is None:
            pytest.skip(why)
    assert binary is not None
    done = subprocess.run([str(binary), "-v"], capture_output=True, text=True, check=False, timeout=30)  # noqa: S603
    version = (done.stdout + done.stderr).strip()
    if not version.startswith("trec_eval version 10.0"):
        pytest.fail(f"{binary} is not trec_eval 10.0: {version!r}")
    return binary
