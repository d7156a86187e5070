"""evaluate_chunked gives evaluate's numbers bit for bit, whatever the chunk size, input form or engine."""

from __future__ import annotations

import io
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


class Terminal(io.StringIO):
    """A stderr a person watches."""

    def isatty(self) -> bool:
        """A terminal."""
        return True


def test_progress_true_prints_one_line_per_chunk_in_a_terminal_without_tqdm(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *_: None if name == "tqdm" else object())
    prm.evaluate_chunked(POPULATION.lazy(), ["map"], rows_per_chunk=1, progress=True)
    assert capsys.readouterr().err == ""  # not a terminal: nobody watches
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    prm.evaluate_chunked(POPULATION.lazy(), ["map"], rows_per_chunk=1, progress=True)
    lines = terminal.getvalue().splitlines()
    assert len(lines) == POPULATION["query"].n_unique()
    assert lines[-1].startswith(
        f"polars_rankmetrics: chunk {len(lines)}/{len(lines)} done, {POPULATION.height} rows"
    )


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, "1000"])
def test_rows_per_chunk_must_be_a_positive_integer(bad: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match="rows_per_chunk"):
        prm.evaluate_chunked(POPULATION.lazy(), ["map"], rows_per_chunk=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [0, -5, 2.5, True, None, "512MiB"])
def test_memory_mib_must_be_a_positive_integer(bad: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match="memory_mib"):
        prm.evaluate_chunked(POPULATION.lazy(), ["map"], memory_mib=bad)  # type: ignore[arg-type]


def test_chunk_size_follows_the_memory_budget() -> None:
    from polars_rankmetrics.chunked import MIN_ROWS_PER_CHUNK, rows_for_budget  # noqa: PLC0415

    assert rows_for_budget(1024, 5) > rows_for_budget(512, 5) > rows_for_budget(512, 80)
    # 512 MiB less the fixed cost of five metrics, at the modelled bytes a row.
    assert rows_for_budget(512, 5) == (512 - 200 - 3 * 5) * 2**20 // 180
    assert rows_for_budget(1, 5) == MIN_ROWS_PER_CHUNK  # a chunk is never empty of rows


def test_memory_budget_sets_the_number_of_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    from polars_rankmetrics import chunked  # noqa: PLC0415

    # A model of 1 MiB a row and no fixed cost: a budget of n MiB gives chunks of n rows.
    monkeypatch.setattr(chunked, "FIXED_MIB", 0)
    monkeypatch.setattr(chunked, "PER_METRIC_MIB", 0)
    monkeypatch.setattr(chunked, "PER_ROW_BYTES", 2**20)
    monkeypatch.setattr(chunked, "MIN_ROWS_PER_CHUNK", 1)
    seen: list[int] = []
    got = prm.evaluate_chunked(
        POPULATION.lazy(), METRICS, memory_mib=1, progress=lambda _, n, *__: seen.append(n)
    )
    assert seen[0] == POPULATION["query"].n_unique()  # one query a chunk
    assert_same(got, prm.evaluate(POPULATION, METRICS), POPULATION)


class _Terminal:
    """A stderr that says it is a terminal and keeps what is written."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        """A terminal."""
        return True


def test_default_progress_is_a_bar_on_a_terminal_and_silent_otherwise(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("tqdm")
    prm.evaluate_chunked(POPULATION.lazy(), ["map"], rows_per_chunk=1)
    assert capsys.readouterr().err == ""  # not a terminal: nothing
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    prm.evaluate_chunked(POPULATION.lazy(), ["map"], rows_per_chunk=1)
    assert f"rankmetrics ({POPULATION['query'].n_unique()} chunks)" in terminal.text
    assert "polars_rankmetrics: chunk" not in terminal.text  # the bar, not the lines


def test_progress_without_tqdm_falls_back(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(__import__("sys").modules, "tqdm", None)  # as if not installed
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *_: None if name == "tqdm" else object())
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    prm.evaluate_chunked(POPULATION.lazy(), ["map"], rows_per_chunk=1)
    assert terminal.getvalue() == ""  # default: nothing
    prm.evaluate_chunked(POPULATION.lazy(), ["map"], rows_per_chunk=1, progress=True)
    assert terminal.getvalue().startswith("polars_rankmetrics: chunk 1/")  # True: one line a chunk
    assert capsys.readouterr().err == ""


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
