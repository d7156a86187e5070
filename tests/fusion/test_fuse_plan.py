"""fuse()'s plans: pure expressions that stream over scan_parquet without an in-memory fallback.

A DataFrame, a LazyFrame and a streaming collect of a parquet scan give the
same fused run; row order of the input does not matter.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from plans import calls_python, fallback_nodes
from polars.testing import assert_frame_equal

import polars_rankmetrics as prm
from fusion.ranx_oracle import generate, qrels_for
from polars_rankmetrics.fusion._names import METHODS, NORMS

PARAMS = {"gmnz": {"gamma": 0.5}, "rbc": {"phi": 0.8}, "probfuse": {"n_segments": 3}, "slidefuse": {"w": 2}}


def _kwargs(method: str, frame: pl.DataFrame) -> dict[str, object]:
    kwargs: dict[str, object] = dict(PARAMS.get(method, {}))
    if METHODS[method].weighted:
        kwargs["weights"] = {name: 0.5 + k for k, name in enumerate(sorted(set(frame["run"])))}
    if METHODS[method].supervised:
        kwargs["qrels"] = qrels_for(frame, 1)
    return kwargs


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[pl.DataFrame, pl.LazyFrame]:
    frame = generate(1, ties=True)
    path = Path(tmp_path_factory.mktemp("fusion")) / "runs.parquet"
    frame.write_parquet(path)
    return frame, pl.scan_parquet(path)


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.sort("query", "item")


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_method_streams_and_matches_its_dataframe(
    method: str, scanned: tuple[pl.DataFrame, pl.LazyFrame]
) -> None:
    frame, scan = scanned
    kwargs = _kwargs(method, frame)
    lazy = prm.fuse(scan, method, **kwargs)  # type: ignore[arg-type]
    assert isinstance(lazy, pl.LazyFrame)
    assert fallback_nodes(lazy) == []
    assert not calls_python(lazy)
    eager = prm.fuse(frame, method, **kwargs)  # type: ignore[arg-type]
    assert isinstance(eager, pl.DataFrame)
    streamed = lazy.collect(engine="streaming")
    assert_frame_equal(_sorted(streamed), _sorted(eager), check_exact=False, rel_tol=1e-12, abs_tol=1e-12)
    shuffled = prm.fuse(frame.sample(fraction=1.0, shuffle=True, seed=3), method, **kwargs)  # type: ignore[arg-type]
    assert_frame_equal(_sorted(shuffled), _sorted(eager), check_exact=False, rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize("norm", NORMS)
def test_every_normalisation_streams(norm: str, scanned: tuple[pl.DataFrame, pl.LazyFrame]) -> None:
    _, scan = scanned
    lazy = prm.fuse(scan, "sum", norm=norm)
    assert fallback_nodes(lazy) == []
    assert not calls_python(lazy)


def test_the_input_is_not_mutated_and_columns_are_renamed() -> None:
    frame = generate(2, ties=False).rename({"run": "system", "query": "qid", "item": "doc", "score": "s"})
    before = frame.clone()
    cols = prm.Columns(query="qid", item="doc", score="s")
    out = prm.fuse(frame, "rrf", by="system", columns=cols)
    assert frame.equals(before)
    assert out.columns == ["qid", "doc", "s"]
    assert out.schema["s"] == pl.Float64


def test_the_fused_run_evaluates() -> None:
    frame = generate(4, ties=False)
    fused = prm.fuse(frame, "rrf")
    qrels = qrels_for(frame, 4)
    result = prm.evaluate(prm.join_run_qrels(fused, qrels), ["ndcg@10", "map"])
    assert result.height == 1
    assert 0 < result["ndcg@10"].item() <= 1
