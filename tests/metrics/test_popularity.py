"""popularity (metrics/popularity.py): arp, aplt, aclt, tail_percentage against Elliot and RecBole.

The references are plain transcriptions of Elliot and RecBole (tests/beyond_reference.py); the
generated test checks parity's pop_rsp beside them (its own tests: tests/metrics/test_parity.py).
Peer oracles: mean_pop_rank against LensKit (tests/reference/test_preset_lenskit.py).

Generated data: several models (``by="model"``), users with one item, users
without history, cold items (ranked, never in the training interactions),
popularity ties at the head's boundary, string and integer ids.
"""

from __future__ import annotations

from typing import Any

import beyond_reference as ref
import polars as pl
import pytest
from beyond_cases import FEWER, Case, cases, close, top, values
from hypothesis import given
from hypothesis import strategies as st

import polars_rankmetrics as prm
from metrics._helpers import DEGENERATE_DATA

CUTOFFS = (1, 3, None)


@DEGENERATE_DATA
@FEWER
@given(cases(), st.sampled_from([0.2, 0.5, 0.8, 1.0]), st.sampled_from([0.1, 0.5, 1.0, 2.0, 3.0]))
def test_popularity_bias_from_interactions_matches_elliot_and_recbole(
    case: Case, share: float, tail: float
) -> None:
    train = case.interactions()
    metrics = [
        m
        for k in CUTOFFS
        for m in (
            prm.arp(k, interactions=train),
            prm.aplt(k, interactions=train, head_share=share),
            prm.aclt(k, interactions=train, head_share=share),
            prm.tail_percentage(k, interactions=train, tail=tail),
            prm.pop_rsp(k, interactions=train, head_share=share),
        )
    ]
    got = values(case, metrics)
    pop = ref.popularity(case.pairs)
    head = ref.short_head(pop, share)
    for key, row in got.items():
        users = case.lists[key or "als"]
        for k, metric in zip([k for k in CUTOFFS for _ in range(5)], metrics, strict=True):
            lists = list(top(users, k).values())
            want = {
                "arp": ref.arp(lists, pop),
                "aplt": ref.aplt(lists, head),
                "aclt": ref.aclt(lists, head),
                "tail_percentage": ref.tail_percentage(lists, pop, tail),
                "pop_rsp": ref.pop_rsp(top(users, k), head, case.items(), case.train()),
            }[metric.name]
            assert close(row[str(metric)], want), (str(metric), row[str(metric)], want)


@DEGENERATE_DATA
@FEWER
@given(cases(), st.sampled_from([0.2, 0.5, 1.0]))
def test_popularity_frame_and_explicit_head(case: Case, share: float) -> None:
    # A popularity frame with every ranked item (cold ones at 0, fractional counts), and a given head.
    pop: dict[Any, float] = dict.fromkeys(case.items(), 0.0) | {
        i: p / 2 for i, p in ref.popularity(case.pairs).items()
    }
    table = pl.DataFrame({"item": list(pop), "n": list(pop.values())}).lazy()
    head = sorted(case.items())[:2]
    metrics = [prm.arp(3, popularity=table), prm.aplt(3, popularity=table, head_share=share),
               prm.aclt(None, head=pl.Series(head)), prm.tail_percentage(3, popularity=table, tail=0.5),
               prm.pop_rsp(3, interactions=case.interactions(), head=head)]  # fmt: skip
    got = values(case, metrics)
    for key, row in got.items():
        users = case.lists[key or "als"]
        lists = list(top(users, 3).values())
        want = [ref.arp(lists, pop), ref.aplt(lists, ref.short_head(pop, share)),
                ref.aclt(list(users.values()), set(head)), ref.tail_percentage(lists, pop, 0.5),
                ref.pop_rsp(top(users, 3), set(head), case.items(), case.train())]  # fmt: skip
        for metric, value in zip(metrics, want, strict=True):
            assert close(row[str(metric)], value), (str(metric), row[str(metric)], value)


def test_hand_computed_head_with_ties() -> None:
    # Popularity a 4, b 2, c 2, d 1, e 1 (total 10). head_share 0.5: a (before 0 < 5), b and c (before 4 < 5).
    pop = pl.DataFrame({"item": list("abcde"), "n": [4, 2, 2, 1, 1]})
    frame = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["c", "d", "e", "a"], "score": [2.0, 1.0, 2.0, 1.0]})
    metrics = [prm.aplt(2, popularity=pop, head_share=0.5), prm.aplt(2, popularity=pop, head_share=0.4),
               prm.arp(2, popularity=pop)]  # fmt: skip
    out = prm.evaluate(frame, metrics)
    # 0.5: tail {d, e}: lists {c, d} 1/2, {e, a} 1/2. 0.4: head {a} only (b, c start at 4, not < 4).
    assert out.row(0) == (0.5, 0.75, ((2 + 1) / 2 + (1 + 4) / 2) / 2)


TRAIN = pl.DataFrame({"user": [1], "item": ["a"]})


def counts(items: list[Any], n: list[Any]) -> pl.DataFrame:
    return pl.DataFrame({"item": items, "n": n})


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda: prm.arp(3), prm.InvalidParameterError, "needs item popularity"),
        (lambda: prm.aplt(3), prm.InvalidParameterError, "or an explicit `head`"),
        (lambda: prm.pop_rsp(3, head=["a"]), prm.InvalidParameterError, "interactions"),
        (lambda: prm.arp(3, interactions=TRAIN, popularity=counts(["a"], [1])), prm.InvalidParameterError,
         "not both"),
        (lambda: prm.arp(3, interactions=pl.DataFrame({"user": [1, None], "item": ["a", "b"]})),
         prm.InvalidDataError, "null ids in its column 'user'"),
        (lambda: prm.arp(3, interactions=pl.DataFrame({"item": ["a"]})),
         prm.ColumnNotFoundError, "user column"),
        (lambda: prm.arp(3, popularity=counts(["a", "a"], [1, 2])), prm.InvalidDataError, "more than once"),
        (lambda: prm.arp(3, popularity=counts(["a", None], [1, 2])), prm.InvalidDataError, "null item ids"),
        (lambda: prm.arp(3, popularity=counts(["a"], [-1])), prm.InvalidDataError, "counts must"),
        (lambda: prm.arp(3, popularity=counts(["a"], ["x"])), prm.ColumnTypeError, "numeric"),
        (lambda: prm.aplt(3, head=pl.Series(["a", None])), prm.InvalidDataError, "null item ids"),
        (lambda: prm.aplt(3, head=["a"], head_share=0), prm.InvalidParameterError, "head_share"),
        (lambda: prm.tail_percentage(3), prm.InvalidParameterError, "needs item popularity"),
        (lambda: prm.tail_percentage(3, interactions=TRAIN, tail=0), prm.InvalidParameterError, "tail"),
    ],
)  # fmt: skip
def test_side_inputs_are_checked(build: Any, error: type[Exception], match: str) -> None:  # noqa: ANN401
    with pytest.raises(error, match=match):
        build()


def test_errors_found_in_the_plan_name_the_item() -> None:
    frame = pl.DataFrame({"query": [1, 1], "item": ["a", "z"], "score": [2.0, 1.0]})
    missing = prm.arp(2, popularity=pl.DataFrame({"item": ["a"], "n": [3]}))
    with pytest.raises(prm.InvalidDataError, match="item 'z' of the ranked lists has no row in `popularity`"):
        prm.evaluate(frame, [missing])
    twice = prm.aplt(2, popularity=pl.LazyFrame({"item": ["a", "a", "z"], "n": [3, 3, 1]}))
    with pytest.raises(prm.InvalidDataError, match="holds item 'a' more than once"):
        prm.evaluate(frame, [twice])
    negative = prm.tail_percentage(2, popularity=pl.LazyFrame({"item": ["a", "z"], "n": [3, -1]}))
    with pytest.raises(prm.InvalidDataError, match="counts must be >= 0"):
        prm.evaluate(frame, [negative])
    with pytest.raises(prm.ColumnTypeError, match="interactions"):
        prm.evaluate(frame, [prm.arp(2, interactions=pl.DataFrame({"user": [1], "item": [5]}))])
