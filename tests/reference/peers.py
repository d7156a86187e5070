"""Shared helpers of the preset conformance tests: frames as the peers' dicts, tie-free frames."""

from __future__ import annotations

import importlib
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


def oracle(module: str, extra: str) -> ModuleType:
    """Import a peer library that lives in an optional extra of heavy oracles.

    CI sets ``PRM_REQUIRE_ORACLES=1`` and installs them: a missing one fails there. Elsewhere
    (the README's light test command) its tests are skipped, naming how to install it.
    """
    if os.environ.get("PRM_REQUIRE_ORACLES"):
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=f"the oracle {module} is in the '{extra}' extra (see README)")
