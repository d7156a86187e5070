"""A side input written in a metric's name (a named mode, a column) parses back: names round-trip."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm


def test_a_named_mode_round_trips() -> None:
    metric = prm.coverage(10, catalog="group")
    assert str(prm.parse(str(metric))) == "coverage(catalog=group)@10"


def test_a_column_input_evaluates_by_name() -> None:
    df = pl.DataFrame({"query": [1, 1, 2], "item": ["a", "b", "a"], "score": [2.0, 1.0, 1.0],
                       "relevance": [1, 1, 0], "p": [0.5, 0.25, 0.5]})  # fmt: skip
    by_name = prm.evaluate(df, ["psp(propensities=p,normalize=oracle)@1", "ips_rbp(p=0.5,weights=p)"])
    built = prm.evaluate(
        df, [prm.psp(1, propensities="p", normalize="oracle"), prm.ips_rbp(p=0.5, weights="p")]
    )
    assert by_name.rows() == built.rows()
    assert by_name.columns == ["psp(propensities=p,normalize=oracle)@1", "ips_rbp(p=0.5,weights=p)"]


def test_a_name_without_its_side_input_is_refused() -> None:
    with pytest.raises(prm.InvalidParameterError, match="psp needs `propensities` or `counts`"):
        prm.evaluate(pl.DataFrame({"query": [1], "item": ["a"], "score": [1.0], "relevance": [1]}), ["psp@1"])
