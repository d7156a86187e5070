"""``rankmetrics fuse``: the printed run is prm.fuse's, in TREC run format; bad options fail clearly."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.cli import main

RUN, TRUNC = str(prm.demo_path("results.test")), str(prm.demo_path("results.trunc"))


def _read(text: str) -> pl.DataFrame:
    rows = [line.split() for line in text.splitlines()]
    return pl.DataFrame(
        rows, schema=["query", "q0", "item", "rank", "score", "name"], orient="row"
    ).with_columns(pl.col("rank").cast(pl.Int64), pl.col("score").cast(pl.Float64))


@pytest.mark.parametrize(
    ("options", "kwargs"),
    [
        (["--method", "rrf"], {}),
        (["--method", "combmnz", "--norm", "zmuv"], {"norm": "zmuv"}),
        (["--method", "wsum", "--weights", "0.3,0.7"], {"weights": {"run1": 0.3, "run2": 0.7}}),
        (["--method", "rbc", "--param", "phi=0.9"], {"phi": 0.9}),
    ],
)
def test_the_printed_run_is_fuses(
    options: list[str], kwargs: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fuse", *options, RUN, TRUNC]) == 0
    printed = _read(capsys.readouterr().out)
    runs = pl.concat(
        [
            prm.read_trec_run(p).with_columns(pl.lit(n).alias("run"))
            for n, p in (("run1", RUN), ("run2", TRUNC))
        ]
    )
    expected = prm.fuse(runs, options[1], **kwargs)  # type: ignore[arg-type]
    joined = printed.join(expected, on=["query", "item"], how="full", coalesce=True)
    assert joined.height == expected.height == printed.height
    # Equal to 1e-12: a window's float sums (zmuv's mean and std) may add in another order on another call.
    assert (joined["score"] - joined["score_right"]).abs().max() <= 1e-12  # type: ignore[operator]
    # Ranks 1, 2, ... per query, scores non-increasing along them.
    per_query = (
        printed.sort("query", "rank")
        .group_by("query")
        .agg(
            (pl.col("rank") == pl.int_range(1, pl.len() + 1)).all().alias("ranks"),
            (pl.col("score").diff().drop_nulls() <= 0).all().alias("order"),
        )
    )
    assert per_query["ranks"].all()
    assert per_query["order"].all()
    assert printed["q0"].unique().to_list() == ["Q0"]


def test_depth_and_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuse", "--method", "sum", "--depth", "3", "--name", "hybrid", RUN, TRUNC]) == 0
    printed = _read(capsys.readouterr().out)
    assert printed.group_by("query").len()["len"].max() == 3
    assert printed["name"].unique().to_list() == ["hybrid"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--method", "nope", RUN, TRUNC], "`method` must be one of"),
        (["--method", "wsum", "--weights", "0.3", RUN, TRUNC], "--weights needs one weight per run (2)"),
        (["--method", "rrf", "--param", "k", RUN, TRUNC], "--param must be NAME=VALUE"),
        (["--method", "rrf", "--param", "k=x", RUN, TRUNC], "--param k must be a number"),
        (["--method", "rrf", RUN], "fuse needs two or more runs"),
        (["--method", "rrf", RUN, "missing.run"], "missing.run"),
    ],
)
def test_bad_options_fail_with_a_message(
    options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fuse", *options]) == 1
    assert message in capsys.readouterr().err
