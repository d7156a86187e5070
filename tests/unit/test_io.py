"""TREC readers and the run x qrels join."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm


def test_read_and_scan_agree_on_the_bundled_collection() -> None:
    for name, read, scan in [
        ("results.test", prm.read_trec_run, prm.scan_trec_run),
        ("qrels.rel_level", prm.read_trec_qrels, prm.scan_trec_qrels),
    ]:
        eager = read(prm.demo_path(name))
        assert eager.equals(scan(prm.demo_path(name)).collect())


def test_run_reader_ignores_rank_trailing_fields_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "run"
    path.write_text("# comment\n301\tQ0  d1 7  2.5 R1 more junk\n\n  302 Q0 d2 1 -1e-3 R1\n")
    run = prm.read_trec_run(path)
    assert run.to_dict(as_series=False) == {
        "query": ["301", "302"],
        "item": ["d1", "d2"],
        "score": [2.5, -0.001],
        "run": ["R1", "R1"],
    }


def test_readers_rename_columns(tmp_path: Path) -> None:
    path = tmp_path / "qrels"
    path.write_text("u1 0 m1 4\n")
    cols = prm.Columns(query="user", item="movie", relevance="stars")
    assert prm.read_trec_qrels(path, columns=cols).columns == ["user", "movie", "stars"]


def test_join_adds_judged_unretrieved_rows_per_run() -> None:
    run = pl.DataFrame(
        {
            "model": ["x", "x", "y"],
            "query": ["q1", "q1", "q2"],
            "item": ["a", "b", "a"],
            "score": [2.0, 1.0, 1.0],
        }
    )
    qrels = pl.DataFrame({"query": ["q1", "q1", "q2"], "item": ["b", "c", "z"], "relevance": [1, 1, 2]})
    frame = prm.join_run_qrels(run, qrels, by="model").sort("model", "query", "item")
    assert frame.rows() == [
        ("x", "q1", "a", 2.0, None),
        ("x", "q1", "b", 1.0, 1),
        ("x", "q1", "c", None, 1),
        ("x", "q2", "z", None, 2),
        ("y", "q1", "b", None, 1),
        ("y", "q1", "c", None, 1),
        ("y", "q2", "a", 1.0, None),
        ("y", "q2", "z", None, 2),
    ]
    # Each run is judged against all the qrels: with -c semantics both runs count both queries.
    with pytest.warns(prm.RankMetricsWarning, match="every retrieved item is unjudged in model='y'"):
        counts = prm.evaluate(frame, ["num_q", "num_rel"], by="model", missing="zero")
    assert counts.rows() == [("x", 2, 3), ("y", 2, 3)]


def test_join_keeps_extra_columns_and_laziness() -> None:
    run = pl.LazyFrame({"query": [1], "item": [5], "score": [0.3], "latency_ms": [12]})
    qrels = pl.DataFrame({"query": [1], "item": [6], "relevance": [1]})
    frame = prm.join_run_qrels(run, qrels)
    assert isinstance(frame, pl.LazyFrame)
    assert frame.collect().sort("item").rows() == [(1, 5, 0.3, 12, None), (1, 6, None, None, 1)]


def test_file_names_are_not_glob_patterns(tmp_path: Path) -> None:
    path = tmp_path / "q[1].run"
    path.write_text("1 Q0 d1 1 2.0 R\n")
    assert prm.read_trec_run(path).height == 1


def test_a_directory_or_binary_file_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(prm.TrecFormatError, match="not a readable file"):
        prm.read_trec_qrels(tmp_path)
    binary = tmp_path / "blob"
    binary.write_bytes(b"1 0 d1 1\n\x1f\x00\xff 3\n")
    with pytest.raises(prm.TrecFormatError, match="blob"):
        prm.read_trec_qrels(binary)
