"""The walk guide (docs/guides/walk.md) runs end to end, as the docs build runs it, and says what it shows.

Its executed blocks run here in one namespace, in order (markdown-exec's session),
and the objects they leave are checked against plain Polars computations.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import polars as pl
import pytest

pytest.importorskip("vl_convert")
pytest.importorskip("great_tables")
pytest.importorskip("scipy")

PAGE = Path(__file__).resolve().parents[1] / "docs" / "guides" / "walk.md"


def run_page() -> tuple[dict[str, object], list[str]]:
    blocks = re.findall(
        r'```python exec="on"[^\n]*session="walk"[^\n]*\n(.*?)```', PAGE.read_text(), re.DOTALL
    )
    namespace: dict[str, object] = {"__name__": "walk"}
    outputs = []
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(PAGE), "exec"), namespace)  # noqa: S102  (the page's own code)
        outputs.append(out.getvalue())
    return namespace, outputs


@pytest.fixture(scope="module")
def walked() -> tuple[dict[str, object], list[str]]:
    return run_page()


def test_the_walk_goes_the_newcomers_way(walked: tuple[dict[str, object], list[str]]) -> None:
    """Parquet scans of two models, evaluate by model, per user, compare, table, plots, the join."""
    page = PAGE.read_text()
    steps = [
        "pl.scan_parquet",
        "prm.join_run_qrels",
        'by="model", per_query=True',
        "prm.compare(",
        "prm.table(",
        "prm.plots.metric_at_k",
        "prm.plots.coverage",
        "prm.plots.long_tail",
        'experiments.join(means, on="model"',
    ]
    positions = [page.index(step) for step in steps]
    assert positions == sorted(positions)
    namespace, outputs = walked
    workdir = namespace["workdir"]
    assert isinstance(workdir, Path)
    assert {p.name for p in workdir.iterdir()} >= {
        "recs_popular.parquet",
        "recs_als.parquet",
        "experiments.parquet",
    }
    assert isinstance(namespace["recs"], pl.LazyFrame)  # scans, not reads
    assert outputs[-1].strip() == "True"  # the means equal the per-user table's


def test_the_walks_numbers_are_plain_polars_numbers(walked: tuple[dict[str, object], list[str]]) -> None:
    namespace, _ = walked
    workdir = namespace["workdir"]
    assert isinstance(workdir, Path)
    per_user = namespace["per_user"]
    results = namespace["results"]
    assert isinstance(per_user, pl.DataFrame)
    assert isinstance(results, pl.DataFrame)
    assert per_user.columns[:2] == ["model", "user_id"]
    assert per_user.group_by("model").len().sort("model")["len"].to_list() == [2000, 2000]
    # precision@10 from the files alone: held-out items among each user's ten highest scores.
    clicked = pl.read_parquet(workdir / "heldout.parquet").with_columns(hit=pl.lit(1))
    for model in ("popular", "als"):
        recs = pl.read_parquet(workdir / f"recs_{model}.parquet")
        top = (
            recs.sort(["user_id", "score", "item_id"], descending=[False, True, True])
            .group_by("user_id", maintain_order=True)
            .head(10)
        )
        hits = (
            top.join(clicked, on=["user_id", "item_id"], how="left")
            .group_by("user_id")
            .agg(p=pl.col("hit").fill_null(0).sum() / 10)
        )
        users = pl.DataFrame({"user_id": range(2000)}).join(hits, on="user_id", how="left").fill_null(0)
        got = results.filter(pl.col("model") == model)["precision@10"].item()
        assert got == pytest.approx(users["p"].mean(), abs=1e-12), model
    # The experiments table keeps its hyperparameters and dates beside the means, one row per model.
    assert results.columns[:4] == ["model", "factors", "regularization", "trained_on"]
    assert results["model"].to_list() == ["popular", "als"]  # sorted by training date
    assert results.schema["trained_on"] == pl.Date
