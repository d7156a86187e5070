"""evaluate_chunked gives evaluate's numbers bit for bit, whatever the chunk size, input form or engine."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from strategies import EMPTY_INT, EMPTY_STR, POPULATION, TWO_RUNS, eval_frames, frame_repr

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings(
    "ignore::polars_rankmetrics.RankMetricsWarning"
)  # generated data is often degenerate on purpose

# Every prepared column a chunk computes, and every aggregate rule: mean, sum (num_ret),
# geometric mean (gm_map), weighted (mpr), none (relstring has no aggregate: left out).
METRICS = [
    "P_3",
    "recall_10",
    "ndcg_cut_10",
    "map",
    "recip_rank",
    "num_ret",
    "gm_map",
    "bpref",
    "mpr",
    "Rndcg",
]


def assert_same(got: pl.DataFrame, want: pl.DataFrame, frame: pl.DataFrame) -> None:
    try:
        assert_frame_equal(got, want, check_exact=True)
    except AssertionError as err:
        msg = f"{err}\nfrom frame:\n{frame_repr(frame)}"
        raise AssertionError(msg) from None


@given(
    frame=st.one_of(eval_frames(), eval_frames(models=2)),
    rows_per_chunk=st.integers(1, 40),
    missing=st.sampled_from(["skip", "zero"]),
)
@example(frame=EMPTY_STR, rows_per_chunk=1, missing="skip")
@example(frame=EMPTY_INT, rows_per_chunk=3, missing="zero")
@example(frame=POPULATION, rows_per_chunk=1, missing="zero")
@example(frame=TWO_RUNS, rows_per_chunk=2, missing="skip")
def test_chunked_equals_one_plan(frame: pl.DataFrame, rows_per_chunk: int, missing: str) -> None:
    by = "model" if "model" in frame.columns else None
    for per_query in (False, True):
        options = {"by": by, "per_query": per_query, "missing": missing}
        want = prm.evaluate(frame, METRICS, **options)
        got = prm.evaluate_chunked(frame.lazy(), METRICS, rows_per_chunk=rows_per_chunk, **options)
        assert_same(got, want, frame)


def test_parquet_file_set_in_chunks_skips_nothing_and_reports_progress(tmp_path: Path) -> None:
    # Two files written sorted by query: each chunk's filter skips the other file's row groups,
    # and every row is still evaluated once.
    frame = (
        pl.DataFrame({"q": range(60)})
        .join(pl.DataFrame({"i": range(7)}), how="cross")
        .select(
            pl.format("q{}", "q").alias("query"),
            pl.format("d{}", "i").alias("item"),
            ((pl.col("q") * 7 + pl.col("i") * 3) % 11 / 10).alias("score"),
            pl.when(pl.col("i") % 3 == 0).then((pl.col("q") + pl.col("i")) % 4).alias("relevance"),
        )
        .sort("query")
    )
    frame.head(210).write_parquet(tmp_path / "a.parquet", row_group_size=35)
    frame.tail(210).write_parquet(tmp_path / "b.parquet", row_group_size=35)
    calls: list[tuple[int, int, int]] = []
    lf = pl.scan_parquet(tmp_path / "*.parquet")
    got = prm.evaluate_chunked(
        lf,
        METRICS,
        per_query=True,
        rows_per_chunk=50,
        progress=lambda i, n, rows, _: calls.append((i, n, rows)),
    )
    want = prm.evaluate(frame, METRICS, per_query=True)
    assert_same(got, want, frame)
    assert [c[0] for c in calls] == list(range(1, 10))  # 60 queries x 7 rows, 50 rows a chunk: 8 queries each
    assert {c[1] for c in calls} == {9}
    assert calls[-1][2] == frame.height


def test_progress_true_prints_one_line_per_chunk(capsys: pytest.CaptureFixture[str]) -> None:
    prm.evaluate_chunked(POPULATION.lazy(), ["map"], rows_per_chunk=1, progress=True)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == POPULATION["query"].n_unique()
    assert lines[-1].startswith(
        f"polars_rankmetrics: chunk {len(lines)}/{len(lines)} done, {POPULATION.height} rows"
    )


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, None])
def test_rows_per_chunk_must_be_a_positive_integer(bad: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match="rows_per_chunk"):
        prm.evaluate_chunked(POPULATION.lazy(), ["map"], rows_per_chunk=bad)  # type: ignore[arg-type]


def test_catalog_metrics_are_refused_with_the_alternative() -> None:
    with pytest.raises(prm.InvalidParameterError, match=r"'coverage@10'.*engine='streaming'"):
        prm.evaluate_chunked(POPULATION.lazy(), ["map", "coverage@10"])


def test_null_query_ids_are_an_error_not_dropped() -> None:
    frame = POPULATION.with_columns(
        pl.when(pl.col("item") == pl.first("item")).then(None).otherwise("query").alias("query")
    )
    with pytest.raises(prm.InvalidDataError, match="'query'"):
        prm.evaluate_chunked(frame.lazy(), ["map"], check=False)


def test_bad_data_in_a_chunk_is_reported_when_checked() -> None:
    frame = pl.concat([POPULATION, POPULATION.head(1)])
    with pytest.raises(prm.InvalidDataError, match="duplicate"):
        prm.evaluate_chunked(frame.lazy(), ["map"], rows_per_chunk=2)


def test_missing_column_is_reported_before_any_pass() -> None:
    with pytest.raises(prm.ColumnNotFoundError, match="'relevance'"):
        prm.evaluate_chunked(POPULATION.lazy().drop("relevance"), ["map"])


def test_namespace_method_forwards() -> None:
    got = POPULATION.lazy().rank.evaluate_chunked(["map"], rows_per_chunk=2)
    assert_same(got, prm.evaluate(POPULATION, ["map"]), POPULATION)
