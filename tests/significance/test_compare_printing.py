"""compare's p-values as printed, and the unit of pairing named as the user's query column."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm

pytest.importorskip("scipy")


def _huge_effect(query: str = "user_id") -> pl.DataFrame:
    n = 200
    base = [0.1 + (i % 7) * 1e-9 for i in range(n)]
    return pl.DataFrame(
        {"model": ["a"] * n + ["b"] * n, query: list(range(n)) * 2, "ndcg@10": base + [b + 0.8 for b in base]}
    )


def test_an_underflowing_p_value_prints_below_what_a_double_shows() -> None:
    out = prm.compare(_huge_effect(), by="model", query="user_id")
    assert out["p_value"].item() < 1e-300  # scipy's t test underflows: 0.0, not a p-value to print
    assert out["p_text"].item() == "< 1e-300"
    assert "< 1e-300" in str(out.select("p_text"))


@pytest.mark.parametrize(
    ("p", "text"),
    [(0.0, "< 1e-300"), (5e-324, "< 1e-300"), (2.5e-7, "2.50e-07"), (0.0123, "0.0123"), (1.0, "1.0000")],
)
def test_p_text_is_scientific_below_four_decimals(p: float, text: str) -> None:
    from polars_rankmetrics.significance._compare import p_text  # noqa: PLC0415

    assert p_text(p) == text


def test_the_table_note_names_the_user_query_column() -> None:
    pytest.importorskip("great_tables")
    comparison = prm.compare(_huge_effect(), by="model", query="user_id")
    assert comparison["paired_on"].item() == "user_id"
    note = prm.table_markdown(comparison)
    assert "200 paired values of 'user_id'" in note
    assert "paired queries" not in note
    assert "200 paired queries" in prm.table_markdown(prm.compare(_huge_effect("query"), by="model"))
