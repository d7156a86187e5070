"""Shared helpers of the oracle tests: frames as the peers' dicts, tie-free frames, shared frames, imports.

Every oracle test of ``tests/reference/`` takes its helpers from here (``from peers import ...``):
a helper two tests need is written once, here.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType

import polars as pl
import pytest
from strategies import trec_order, with_rank

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]

UNANSWERED = pl.DataFrame(
    {"query": ["q1", "q1", "q2"], "item": ["a", "b", "a"], "score": [1.0, 0.5, None], "relevance": [1, 0, 1]}
)
"""A judged query the run did not answer (q2): trec_eval skips it, ranx and ir_measures score it 0."""


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


def pytrec_inputs(
    frame: pl.DataFrame, *, depth: int | None = None
) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Return pytrec_eval's qrels and run dicts for a frame; ids become text.

    With `depth`, the run keeps only the first `depth` items of each query in
    trec_eval's order (score descending, item text descending): ``trec_eval -M``.
    """
    qrels, run = as_dicts(frame)
    if depth is not None:
        run = {q: {i: docs[i] for i in trec_order(list(docs.items()))[:depth]} for q, docs in run.items()}
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


def oracle_module_file(package: str, module: str, extra: str) -> ModuleType:
    """Load ``package/module.py`` of an installed peer alone, without running the package's ``__init__``.

    For a package whose ``__init__`` imports what its metrics do not need (recmetrics: its plots,
    plotly and seaborn). Skips, or fails under ``PRM_REQUIRE_ORACLES``, when it is not installed.
    """
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        if os.environ.get("PRM_REQUIRE_ORACLES"):
            msg = f"the oracle {package} is not installed and PRM_REQUIRE_ORACLES is set"
            raise ModuleNotFoundError(msg)
        pytest.skip(f"the oracle {package} is in the '{extra}' extra (see README)")
    path = os.path.join(next(iter(spec.submodule_search_locations)), f"{module}.py")  # noqa: PTH118
    loaded = importlib.util.spec_from_file_location(f"{package}_{module}", path)
    assert loaded is not None
    assert loaded.loader is not None
    out = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(out)
    return out


def pandas2_oracle(module: str, extra: str, why: str) -> ModuleType:
    """Import a peer that needs pandas < 3: the 'oracles' extra pins it, the README's light venv has 3.

    Under pandas 3 its tests are skipped, saying `why`; under ``PRM_REQUIRE_ORACLES`` (CI's gates
    venv, which installs the extra) pandas 3 is an error, as a missing oracle is.
    """
    import pandas as pd  # noqa: PLC0415  (only where a pandas oracle is compared)

    peer = oracle(module, extra)
    if int(pd.__version__.split(".")[0]) >= 3:
        msg = f"{module} needs pandas < 3 ({why}); pandas {pd.__version__} is installed"
        if os.environ.get("PRM_REQUIRE_ORACLES"):
            raise ImportError(msg + " and PRM_REQUIRE_ORACLES is set: install the 'oracles' extra")
        pytest.skip(msg + f": the '{extra}' extra pins pandas < 3", allow_module_level=True)
    return peer
