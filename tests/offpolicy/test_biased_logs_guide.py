"""The guide "When the logs are biased": its code runs, and its claims hold against the generator's truth.

The page's Python blocks are run in order, in one namespace, as the docs build runs them;
then: the naive metrics prefer policy A, the truth prefers B, and every estimator prefers B
and lands near the truth.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "biased-logs.md"


@pytest.fixture(scope="module")
def page() -> dict[str, Any]:
    pytest.importorskip("scipy")
    blocks = re.findall(r'```python exec="on"[^\n]*\n(.*?)```', GUIDE.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 5
    namespace: dict[str, Any] = {"__name__": "biased_logs_guide"}
    with contextlib.redirect_stdout(io.StringIO()):
        for block in blocks:
            exec(compile(block, str(GUIDE), "exec"), namespace)  # noqa: S102  (our own page's code)
    return namespace


def test_the_truth_prefers_b(page: dict[str, Any]) -> None:
    truth = page["truth"]
    assert truth["B"] > truth["A"] * 1.1


def test_the_naive_metrics_prefer_a(page: dict[str, Any]) -> None:
    naive: pl.DataFrame = page["naive"]
    for metric in ("precision@3", "ndcg@3", "hit_rate@3"):
        by_system = dict(zip(naive["system"], naive[metric], strict=True))
        assert by_system["A"] > by_system["B"], metric


def test_every_estimator_prefers_b_and_lands_near_the_truth(page: dict[str, Any]) -> None:
    truth, per_row = page["truth"], page["per_row_truth"]
    slate_level = page["estimates"]
    row_level = pl.concat(page["rows"])
    checked = 0
    for frame, reference in ((slate_level, truth), (row_level, per_row)):
        for (estimator,), part in frame.group_by("estimator"):
            values = dict(zip(part["policy"], part["value"], strict=True))
            true = truth if estimator in ("sips", "snsips", "iips", "sniips", "rips", "snrips") else reference
            assert values["B"] > values["A"], estimator
            for name, value in values.items():
                assert abs(value - true[name]) < 0.15 * true[name], (estimator, name)
            checked += 1
    assert checked == 12


def test_psp_tells_apart_what_precision_cannot(page: dict[str, Any]) -> None:
    table: pl.DataFrame = page["psp_table"]
    rows = {row["system"]: row for row in table.iter_rows(named=True)}
    head, tail = rows["A: head"], rows["B: tail"]
    assert head["precision@5"] == tail["precision@5"] == pytest.approx(0.6)
    for metric in ("psp@5", "psndcg@5", "psrecall@5", "psp(normalize=oracle)@5"):
        assert tail[metric] > 1.5 * head[metric], metric
    assert tail["psp(normalize=oracle)@5"] <= 1.0
