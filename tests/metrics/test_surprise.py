"""surprise (metrics/surprise.py): surprisal and unexpectedness against RePlay's formulas and examples.

RePlay needs Polars < 2, so its formulas are transcribed in tests/beyond_reference.py and its
documentation examples are fixtures here. The calibration family's RePlay metric
(category_diversity) is in tests/metrics/test_calibration.py.
"""

from __future__ import annotations

from typing import Any

import beyond_reference as ref
import polars as pl
import pytest
from beyond_cases import FEWER, Case, cases, close, values
from hypothesis import given
from hypothesis import strategies as st

import polars_rankmetrics as prm
from metrics._helpers import DEGENERATE_DATA


@DEGENERATE_DATA
@FEWER
@given(cases(), st.sampled_from([1, 2, 4]))
def test_replay_metrics_match_transcriptions(case: Case, k: int) -> None:
    if len({u for u, _ in case.pairs}) < 2:  # surprisal needs two users
        case.pairs.append((99, case.pairs[0][1]))
    metrics = [prm.surprisal(k, interactions=case.interactions()),
               prm.unexpectedness(k, baseline=case.baseline_frame())]  # fmt: skip
    for key, row in values(case, metrics).items():
        users = case.lists[key or "als"]
        want = [ref.surprisal(list(users.values()), case.pairs, k),
                ref.unexpectedness(users, case.baseline_lists(), k)]  # fmt: skip
        for metric, value in zip(metrics, want, strict=True):
            assert close(row[str(metric)], value), (str(metric), row[str(metric)], value)


def test_replay_doc_examples() -> None:
    # RePlay's Unexpectedness docstring.
    scores = [0.6, 0.5, 0.4, 0.3, 0.2, 0.6, 0.5, 0.4, 0.3, 0.2, 1.0, 0.5, 0.1]
    recs = pl.DataFrame({"query": [1] * 5 + [2] * 5 + [3] * 3,
                         "item": [3, 7, 10, 11, 2, 5, 8, 11, 1, 3, 4, 9, 2], "score": scores})  # fmt: skip
    base = pl.DataFrame({"user": [1, 1, 1, 2, 2, 2, 3, 3], "item": [3, 7, 2, 5, 8, 3, 4, 9],
                         "score": [0.5, 0.5, 0.7, 0.6, 0.6, 0.3, 1.0, 0.5]})  # fmt: skip
    got = prm.evaluate(recs, [prm.unexpectedness(2, baseline=base), prm.unexpectedness(4, baseline=base)])
    assert got.row(0) == pytest.approx((0.16666666666666666, 0.5), abs=1e-12)


TWO = pl.DataFrame({"user": [1], "item": ["a"]})


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda: prm.surprisal(3), prm.InvalidParameterError, "interactions"),
        (lambda: prm.unexpectedness(3), prm.InvalidParameterError, "baseline"),
        (lambda: prm.unexpectedness(3, baseline=TWO), prm.ColumnNotFoundError, "score"),
    ],
)
def test_side_inputs_are_checked(build: Any, error: type[Exception], match: str) -> None:  # noqa: ANN401
    with pytest.raises(error, match=match):
        build()


def test_surprisal_needs_two_users() -> None:
    frame = pl.DataFrame({"query": [1, 1], "item": ["a", "z"], "score": [2.0, 1.0]})
    history = pl.DataFrame({"user": [1], "item": ["q"]})
    with pytest.raises(prm.InvalidDataError, match="at least two users"):
        prm.evaluate(frame, [prm.surprisal(2, interactions=history)])
