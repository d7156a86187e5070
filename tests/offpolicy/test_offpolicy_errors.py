"""offpolicy.estimate: hand-computed values, and the library's own errors naming the bad rows."""

from __future__ import annotations

import math

import polars as pl
import pytest

from polars_rankmetrics import offpolicy
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)

LOGGED = pl.DataFrame(
    {
        "query": ["q1", "q1", "q2", "q2"],
        "position": [1, 2, 1, 2],
        "item": ["a", "b", "b", "a"],
        "reward": [1.0, 0.0, 0.0, 1.0],
        "propensity": [0.5, 0.5, 0.25, 0.5],
        "target": [0.8, 0.2, 0.5, 0.25],
        "cascade_propensity": [0.5, 0.25, 0.25, 0.125],
        "target_cascade": [0.8, 0.16, 0.5, 0.125],
    }
)
CANDIDATES = pl.DataFrame(
    {
        "query": ["q1", "q1", "q1", "q1", "q2", "q2", "q2", "q2"],
        "position": [1, 1, 2, 2, 1, 1, 2, 2],
        "item": ["a", "b", "a", "b", "a", "b", "a", "b"],
        "target": [0.8, 0.2, 0.8, 0.2, 0.5, 0.5, 0.25, 0.75],
        "prediction": [0.6, 0.1, 0.3, 0.2, 0.4, 0.2, 0.5, 0.1],
    }
)


def _values(**kwargs: object) -> dict[str, float]:
    out = offpolicy.estimate(LOGGED, offpolicy.ESTIMATORS, candidates=CANDIDATES, **kwargs)  # type: ignore[arg-type]
    return dict(zip(out["estimator"], out["value"], strict=True))


def test_hand_computed_values() -> None:
    w = [1.6, 0.4, 2.0, 0.5]  # target / propensity
    r = [1.0, 0.0, 0.0, 1.0]
    dm = [0.8 * 0.6 + 0.2 * 0.1, 0.8 * 0.3 + 0.2 * 0.2, 0.5 * 0.4 + 0.5 * 0.2, 0.25 * 0.5 + 0.75 * 0.1]
    q_logged = [0.6, 0.2, 0.2, 0.5]
    wr = sum(a * b for a, b in zip(w, r, strict=True))
    res = [wi * (ri - qi) for wi, ri, qi in zip(w, r, q_logged, strict=True)]
    # target_cascade / cascade_propensity: 1.6, 0.64, 2.0, 1.0
    ws = [0.64, 0.64, 1.0, 1.0]  # the slate's weight: the cascade ratio at its last position
    expected = {
        "ips": wr / 4,
        "snips": wr / sum(w),
        "dm": sum(dm) / 4,
        "dr": (sum(dm) + sum(res)) / 4,
        "sndr": sum(dm) / 4 + sum(res) / sum(w),
        "sips": (0.64 * 1 + 1.0 * 1) / 2,
        "snsips": (0.64 + 1.0) / (sum(ws) / 4) / 2,
        "iips": wr / 2,
        "sniips": (1.6 / ((1.6 + 2.0) / 2) + 0.5 / ((0.4 + 0.5) / 2)) / 2,
        "rips": (1.6 + 1.0) / 2,
        "snrips": (1.6 / ((1.6 + 2.0) / 2) + 1.0 / ((0.64 + 1.0) / 2)) / 2,
    }
    got = _values()
    assert list(got) == list(offpolicy.ESTIMATORS)
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, rel=1e-14), name


def test_row_order_and_laziness_change_nothing() -> None:
    shuffled = LOGGED.sample(fraction=1.0, shuffle=True, seed=4).lazy()
    out = offpolicy.estimate(shuffled, offpolicy.ESTIMATORS, candidates=CANDIDATES.reverse().lazy())
    assert dict(zip(out["estimator"], out["value"], strict=True)) == pytest.approx(_values(), rel=1e-14)


def test_input_is_not_mutated() -> None:
    before = LOGGED.clone()
    offpolicy.estimate(LOGGED, ["ips", "dr"], candidates=CANDIDATES)
    assert LOGGED.equals(before)


@pytest.mark.parametrize(
    ("column", "value", "rule"),
    [
        ("propensity", 0.0, "logging propensities must be in (0, 1]"),
        ("propensity", 1.5, "logging propensities must be in (0, 1]"),
        ("propensity", None, "logging propensities must be in (0, 1]"),
        ("propensity", math.nan, "logging propensities must be in (0, 1]"),
        ("target", math.nan, "target probabilities must be in [0, 1]"),
        ("target", -0.1, "target probabilities must be in [0, 1]"),
        ("reward", math.nan, "rewards must be finite"),
        ("cascade_propensity", 2.0, "logging cascade propensities must be in (0, 1]"),
    ],
)
def test_bad_rows_are_named(column: str, value: float | None, rule: str) -> None:
    bad = LOGGED.with_columns(
        pl.when((pl.col("query") == "q2") & (pl.col("position") == 2))
        .then(pl.lit(value, pl.Float64))
        .otherwise(pl.col(column))
        .alias(column)
    )
    with pytest.raises(
        InvalidDataError, match=r"1 row\(s\), first at logged row of query 'q2', position 2"
    ) as err:
        offpolicy.estimate(bad, ["ips", "rips"])
    assert str(err.value).startswith(rule)


def test_nan_weight_from_a_nan_propensity_in_a_lazy_frame() -> None:
    bad = LOGGED.lazy().with_columns(propensity=pl.Series([0.5, math.nan, 0.25, 0.5]))
    with pytest.raises(InvalidDataError, match=r"query 'q1', position 2"):
        offpolicy.estimate(bad, "snips")


def test_target_not_summing_to_one_per_slate() -> None:
    bad = CANDIDATES.with_columns(
        target=pl.when((pl.col("query") == "q2") & (pl.col("position") == 1)).then(0.3).otherwise("target")
    )
    with pytest.raises(
        InvalidDataError,
        match=r"sum to one per \(query, position\): 1 row\(s\), first at candidates row of query 'q2', "
        r"position 1",
    ):
        offpolicy.estimate(LOGGED, ["dr"], candidates=bad)


def test_logged_item_missing_from_candidates() -> None:
    without = CANDIDATES.filter(~((pl.col("query") == "q1") & (pl.col("item") == "b")))
    renormalised = without.with_columns(target=pl.when(pl.col("query") == "q1").then(1.0).otherwise("target"))
    with pytest.raises(
        InvalidDataError,
        match=r"candidate with a prediction: 1 row\(s\), first at logged row of query 'q1', position 2",
    ):
        offpolicy.estimate(LOGGED, ["dm"], candidates=renormalised)


def test_position_logged_twice() -> None:
    twice = LOGGED.with_columns(position=pl.Series([1, 1, 1, 2]))
    with pytest.raises(
        InvalidDataError, match=r"logged once: 2 row\(s\), first at logged row of query 'q1', position 1"
    ):
        offpolicy.estimate(twice, ["iips"])
    assert offpolicy.estimate(twice, ["ips"])["value"][0] == pytest.approx(0.525)  # rows are rounds


def test_parameter_and_column_errors() -> None:
    with pytest.raises(InvalidParameterError, match="estimators"):
        offpolicy.estimate(LOGGED, ["ipss"])
    with pytest.raises(InvalidParameterError, match="candidates"):
        offpolicy.estimate(LOGGED, ["dm"])
    with pytest.raises(InvalidParameterError, match="columns"):
        offpolicy.estimate(LOGGED, ["ips"], columns={"clicks": "reward"})
    with pytest.raises(ColumnNotFoundError, match="reward column 'click' not found"):
        offpolicy.estimate(LOGGED, ["ips"], columns={"reward": "click"})
    with pytest.raises(ColumnTypeError, match="propensity column 'item' must be numeric"):
        offpolicy.estimate(LOGGED, ["ips"], columns={"propensity": "item"})
    with pytest.raises(InvalidDataError, match="no row"):
        offpolicy.estimate(LOGGED.clear(), ["ips"])


def test_sips_reads_the_whole_slates_probability() -> None:
    """Joint probabilities repeated on each row of a slate give sips as the cascade columns do."""
    last = pl.col("position") == pl.col("position").max().over("query")
    joint = LOGGED.with_columns(
        pl.col(c).filter(last).first().over("query") for c in ("cascade_propensity", "target_cascade")
    )
    assert joint["cascade_propensity"].to_list() == [0.25, 0.25, 0.125, 0.125]
    ours = offpolicy.estimate(joint, ["sips", "snsips"])
    assert ours["value"].to_list() == pytest.approx(
        offpolicy.estimate(LOGGED, ["sips", "snsips"])["value"].to_list(), rel=1e-15
    )
    assert ours["value"][0] == pytest.approx((0.64 + 1.0) / 2, rel=1e-15)


def test_candidate_given_twice() -> None:
    twice = pl.concat([CANDIDATES, CANDIDATES.filter((pl.col("query") == "q2") & (pl.col("item") == "a"))])
    with pytest.raises(
        InvalidDataError,
        match=r"must be a candidate once: 4 row\(s\), first at candidates row of query 'q2', position 1",
    ):
        offpolicy.estimate(LOGGED, ["dr"], candidates=twice)
