"""join_run_qrels against Polars' own full join, whichever way it joins (packed key, hashed pair, the ids)."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm
from polars_rankmetrics import _join

IDS = ["query", "item"]


def _oracle(run: pl.DataFrame, qrels: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """The join written out with Polars alone: every run gets every judgment."""
    judged = qrels.select(*IDS, "relevance")
    if by:
        judged = run.select(by).unique().join(judged, how="cross")
    return run.join(judged, on=[*by, *IDS], how="full", coalesce=True)


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.sort(pl.all(), nulls_last=True)


REGIMES = {
    "small": st.integers(-3, 3),  # packed
    "wide": st.integers(2**61 - 2, 2**61),  # packed when the two ranges fit 64 bits together
    "beyond": st.sampled_from([-(2**62) - 1, 2**62, 2**63 - 1, 0]),  # past the safe range: hashed
}


@st.composite
def frames(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame, list[str]]:
    dtype = draw(st.sampled_from([pl.Int64, pl.Int32, pl.Int16, pl.UInt32, pl.String]))
    low = 0 if dtype == pl.UInt32 else None
    regime = draw(st.sampled_from(["small", "small", "wide", "beyond"]))
    values = REGIMES[regime].filter(
        lambda v: (low is None or v >= 0) and (dtype in (pl.Int64, pl.String) or abs(v) < 2**15)
    )
    if dtype == pl.String:  # hashed: text ids, the empty string and a prefix among them
        values = values.map(lambda v: "" if v == 0 else f"d{v}")
    pairs = st.tuples(values, values)
    run_pairs = draw(st.lists(st.tuples(st.sampled_from(["a", "b"]), pairs), max_size=8, unique=True))
    judged = draw(st.lists(pairs, max_size=6, unique=True))
    by = draw(st.sampled_from([[], ["model"]]))
    if not by:
        run_pairs = list({p: (m, p) for m, p in run_pairs}.values())
    run = pl.DataFrame(
        {
            "model": [m for m, _ in run_pairs],
            "query": [p[0] for _, p in run_pairs],
            "item": [p[1] for _, p in run_pairs],
            "score": [float(i) for i in range(len(run_pairs))],
        },
        schema={"model": pl.String, "query": dtype, "item": dtype, "score": pl.Float64},
    )
    qrels = pl.DataFrame(
        {"query": [p[0] for p in judged], "item": [p[1] for p in judged], "relevance": range(len(judged))},
        schema={"query": dtype, "item": dtype, "relevance": pl.Int64},
    )
    return run, qrels, by


@settings(max_examples=60, deadline=None)
@given(frames())
def test_the_join_equals_polars_full_join(case: tuple[pl.DataFrame, pl.DataFrame, list[str]]) -> None:
    run, qrels, by = case
    expected = _sorted(_oracle(run, qrels, by))
    eager = prm.join_run_qrels(run, qrels, by=by or None)
    lazy = prm.join_run_qrels(run.lazy(), qrels.lazy(), by=by or None).collect()
    assert eager.schema == expected.schema
    assert _sorted(eager).equals(expected)
    assert _sorted(lazy).equals(expected)


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ([3, 3, None], [1, 1, 2]),  # null ids: not packed
        ([2**62, 2**62, 0], [5, 5, 1]),  # beyond the packed range
        ([-7, -7, 4], [-(2**40), -(2**40), 0]),  # negative, packed
        (["q", "q", "r"], ["a", "a", "b"]),  # text
    ],
)
def test_a_pair_judged_twice_is_named_on_every_path(query: list[object], item: list[object]) -> None:
    qrels = pl.DataFrame({"query": query, "item": item, "relevance": [1, 2, 0]})
    run = qrels.select(IDS).with_columns(score=pl.lit(1.0)).unique(IDS)
    shown = (f"'{query[0]}'", f"'{item[0]}'") if isinstance(query[0], str) else (query[0], item[0])
    message = (
        rf"judge 1 \(query, item\) pair\(s\) more than once, on 2 rows: query={shown[0]}, item={shown[1]};"
    )
    with pytest.raises(prm.InvalidDataError, match=message):
        prm.join_run_qrels(run, qrels)
    with pytest.raises(prm.InvalidDataError, match=message):
        prm.collect(prm.join_run_qrels(run.lazy(), qrels.lazy()))


def test_a_lazy_join_fails_under_a_projection_and_on_the_streaming_engine() -> None:
    qrels = pl.DataFrame({"query": [1, 1], "item": [2, 2], "relevance": [1, 0]})
    run = pl.DataFrame({"query": [1], "item": [3], "score": [0.5]})
    joined = prm.join_run_qrels(run.lazy(), qrels.lazy())
    with pytest.raises(prm.InvalidDataError, match="query=1, item=2"):
        prm.collect(joined.select("item"))
    with pytest.raises(prm.InvalidDataError, match="query=1, item=2"):  # a plain collect: our error
        joined.collect(engine="streaming")


@pytest.mark.parametrize("judged", [["a"], ["a", "b", "c"]], ids=["matched-ids-differ", "judgments-collide"])
def test_a_hash_collision_falls_back_to_the_join_on_the_ids(
    monkeypatch: pytest.MonkeyPatch, judged: list[str]
) -> None:
    """Every pair hashing alike: the judgments' count falls short, or a row matches another pair."""
    monkeypatch.setattr(_join, "_pair_hash", lambda _ids: pl.lit(7, dtype=pl.UInt64))
    run = pl.DataFrame({"query": ["q", "q", "r"], "item": ["a", "b", "a"], "score": [1.0, 2.0, 3.0]})
    qrels = pl.DataFrame({"query": ["q"] * len(judged), "item": judged, "relevance": range(len(judged))})
    assert _join.hashed_join(run, qrels, IDS, [], "") is None
    expected = _sorted(_oracle(run, qrels, []))
    assert _sorted(prm.join_run_qrels(run, qrels)).equals(expected)
