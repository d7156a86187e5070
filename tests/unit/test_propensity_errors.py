"""Bad propensities and weights: the library's own errors, naming the item (and the query) at fault."""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import expr as rx
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    InvalidDataError,
    InvalidParameterError,
)

DF = pl.DataFrame({
    "query": ["q1", "q1", "q1", "q2", "q2"], "item": ["a", "b", "c", "a", "c"],
    "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
    "w": [2.0, 1.0, 4.0, 2.0, 4.0],
})  # fmt: skip
PROPS = pl.DataFrame({"item": ["a", "b", "c"], "propensity": [0.5, 0.8, 0.25]})


@pytest.mark.parametrize("bad", [0.0, 1.5, -0.2, float("nan"), float("inf")])
def test_psp_refuses_a_propensity_outside_the_unit_interval_when_built(bad: float) -> None:
    side = PROPS.with_columns(
        pl.when(pl.col("item") == "b").then(bad).otherwise("propensity").alias("propensity")
    )
    with pytest.raises(
        InvalidDataError, match=r"`propensities` gives item 'b' the propensity .*must be in \(0, 1\]"
    ):
        prm.psp(2, propensities=side)


def test_psp_refuses_a_propensity_outside_the_unit_interval_in_a_lazy_side_frame() -> None:
    side = PROPS.with_columns(propensity=pl.Series([0.5, 0.8, 2.0])).lazy()
    with pytest.raises(
        InvalidDataError, match=r"`propensities` gives item 'c' of query 'q\d' the propensity 2.0"
    ):
        prm.evaluate(DF, prm.psp(2, propensities=side))


def test_psp_names_a_relevant_item_without_a_propensity() -> None:
    side = PROPS.filter(pl.col("item") != "c")
    with pytest.raises(
        InvalidDataError, match=r"`propensities` has no propensity for item 'c' of query 'q\d'"
    ):
        prm.evaluate(DF, prm.psp(2, propensities=side))
    # A non-relevant item needs none: b is never relevant.
    out = prm.evaluate(DF, prm.psp(2, propensities=PROPS.filter(pl.col("item") != "b")))
    assert out.item() == pytest.approx(1.5)


def test_psp_refuses_a_duplicated_item() -> None:
    side = pl.concat([PROPS, PROPS.head(1)])
    with pytest.raises(InvalidDataError, match=r"`propensities` holds item 'a' more than once"):
        prm.psp(2, propensities=side)
    with pytest.raises(InvalidDataError, match="`propensities` holds item 'a' more than once"):
        prm.evaluate(DF, prm.psp(2, propensities=side.lazy()))


def test_ips_names_a_nan_weight_in_a_column() -> None:
    frame = DF.with_columns(pl.when(pl.col("item") == "c").then(float("nan")).otherwise("w").alias("w"))
    with pytest.raises(InvalidDataError, match=r"`weights` gives item 'c' of query 'q\d' the weight NaN"):
        prm.evaluate(frame, prm.ips_rbp(weights="w"))
    with pytest.raises(InvalidDataError, match=r"`weights` gives item 'c' the weight NaN"):
        prm.collect(frame.lazy().group_by("query").agg(rx.ips_rbp(weights="w")))
    assert frame["w"].is_nan().sum() == 2  # the input is untouched


def test_ips_refuses_nan_and_negative_weights_in_a_side_frame_when_built() -> None:
    for bad in (float("nan"), -1.0):
        side = pl.DataFrame({"item": ["a", "c"], "weight": [1.0, bad]})
        with pytest.raises(InvalidDataError, match=r"`weights` gives item 'c' the weight .*finite and >= 0"):
            prm.ips_precision(2, weights=side)


def test_psp_counts_are_checked() -> None:
    counts = pl.DataFrame({"item": ["a", "c"], "count": [3, -1]})
    with pytest.raises(InvalidDataError, match="`counts` gives item 'c' the count -1"):
        prm.psp(2, counts=counts, n=10)
    good = pl.DataFrame({"item": ["a", "c"], "count": [3, 1]})
    for n in (2, 0, 2.5, None):
        with pytest.raises(InvalidParameterError, match="`n` of metric 'psp' must be an integer >= 3"):
            prm.psp(2, counts=good, n=n)  # type: ignore[arg-type]


def test_psp_sources_and_options() -> None:
    with pytest.raises(InvalidParameterError, match="psp needs `propensities` or `counts`"):
        prm.psp(2)
    with pytest.raises(InvalidParameterError, match="either `propensities` or `counts`, not both"):
        prm.psp(2, propensities=PROPS, counts=pl.DataFrame({"item": ["a"], "count": [1]}), n=5)
    with pytest.raises(InvalidParameterError, match="apply to `counts` only"):
        prm.psp(2, propensities=PROPS, n=100)
    with pytest.raises(InvalidParameterError, match="either `dataset` or `a` or `b`"):
        prm.psp(2, counts=pl.DataFrame({"item": ["a"], "count": [1]}), n=5, dataset="amazon", a=0.6)
    with pytest.raises(InvalidParameterError, match="`normalize` must be one of 'query', 'oracle'"):
        prm.psp(2, propensities=PROPS, normalize="mean")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="`estimator` must be one of 'ips', 'snips'"):
        prm.ips_rbp(weights="w", estimator="dr")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="either `weights` or `propensities`, not both"):
        prm.ips_rbp(weights="w", propensities=PROPS)


def test_side_frame_columns_by_name_or_mapping() -> None:
    renamed = PROPS.rename({"item": "label_id", "propensity": "ps"})
    with pytest.raises(
        ColumnNotFoundError, match=r"`propensities` has no propensity column.*columns=\{'propensity': 'ps'\}"
    ):
        prm.psp(2, propensities=renamed)
    mapped = prm.psp(2, propensities=renamed, columns={"propensity": "ps"})
    assert prm.evaluate(DF, mapped).item() == prm.evaluate(DF, prm.psp(2, propensities=PROPS)).item()
    with pytest.raises(ColumnNotFoundError, match="propensities column 'nope' not found"):
        prm.evaluate(DF, prm.psp(2, propensities="nope"))


def test_expression_builders_read_a_column_not_a_frame() -> None:
    with pytest.raises(InvalidParameterError, match="a column name in an expression"):
        DF.group_by("query").agg(rx.psp(2, propensities=PROPS))


def test_a_non_numeric_propensity_column_fails_naming_the_builder_and_column() -> None:
    frame = DF.with_columns(p=pl.lit("high"))
    message = r"polars_rankmetrics\.expr\.psp: the propensities column 'p' must be numeric"
    with pytest.raises(pl.exceptions.InvalidOperationError, match=message):
        frame.group_by("query").agg(rx.psp(2, propensities="p"))
    with pytest.raises(prm.ColumnTypeError, match=r"propensities column 'p' must be numeric, got dtype Str"):
        prm.evaluate(frame, prm.psp(2, propensities="p"))
