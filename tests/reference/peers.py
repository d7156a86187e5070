"""Shared helpers of the preset conformance tests: frames as the peers' dicts, tie-free frames."""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType

import polars as pl
import pytest
from strategies import with_rank

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]


def as_dicts(frame: pl.DataFrame) -> tuple[Qrels, Run]:
    """The frame as {query: {item: grade}} judgments and {query: {item: score}} run; ids as text."""
    qrels: Qrels = {}
    run: Run = {}
    for row in frame.iter_rows(named=True):
        query, item = str(row["query"]), str(row["item"])
        if row["relevance"] is not None:
            qrels.setdefault(query, {})[item] = int(row["relevance"])
        if row["score"] is not None:
            run.setdefault(query, {})[item] = float(row["score"])
    return qrels, run


def without_ties(frame: pl.DataFrame) -> pl.DataFrame:
    """The same rankings (trec_eval's order) with distinct scores: ``-rank``."""
    ranked = with_rank(frame)
    return ranked.with_columns((-pl.col("rank").cast(pl.Float64)).alias("score")).drop("rank")


def valid_judgments(frame: pl.DataFrame) -> pl.DataFrame:
    """Drop queries whose every judgment is negative: undefined behaviour in trec_eval (test_pytrec_eval)."""
    top = frame.group_by("query").agg(pl.col("relevance").max().alias("top"))
    keep = top.filter(pl.col("top").is_null() | (pl.col("top") >= 0))["query"]
    return frame.filter(pl.col("query").is_in(keep.implode()))


REQUIRE = "PRM_REQUIRE_ORACLES"
"""With this variable set (``.ci/run`` sets it), a missing oracle fails its tests instead of skipping them."""


def oracle(module: str) -> ModuleType:
    """Import an oracle of the ``oracles`` extra: skip without it, unless ``PRM_REQUIRE_ORACLES`` is set."""
    if os.environ.get(REQUIRE):
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=f"{module} is in the oracles extra (see the README: Testing)")


def oracle_module_file(package: str, module: str) -> ModuleType:
    """Load ``package/module.py`` of an installed oracle alone, without running the package's ``__init__``.

    For a package whose ``__init__`` imports what its metrics do not need (recmetrics: its plots).
    Skips, or fails under ``PRM_REQUIRE_ORACLES``, when the package is not installed.
    """
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        if os.environ.get(REQUIRE):
            msg = f"oracle {package} is not installed and {REQUIRE} is set"
            raise ModuleNotFoundError(msg)
        pytest.skip(f"{package} is in the oracles extra (see the README: Testing)")
    path = os.path.join(next(iter(spec.submodule_search_locations)), f"{module}.py")  # noqa: PTH118
    loaded = importlib.util.spec_from_file_location(f"{package}_{module}", path)
    assert loaded is not None
    assert loaded.loader is not None
    out = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(out)
    return out
