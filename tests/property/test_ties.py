"""Tie policies against every order of the tied items (brute force on small generated queries).

``"optimistic"`` / ``"pessimistic"`` must equal the largest / smallest value
any order of the tied items gives (each order written as explicit ranks and
evaluated under trec_eval's conventions, which the conformance tests pin);
``"average"`` the plain mean over every order. A metric that does not
define a policy must say so.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from plans import calls_python, fallback_nodes
from polars.testing import assert_frame_equal
from tie_orders import MAX_ORDERS, n_orders, over_orders, tied_queries

import polars_rankmetrics as prm
from polars_rankmetrics._registry import SPECS, specs
from polars_rankmetrics._spec import ORDER_FREE

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

TOLERANCE = 1e-9

# The families each policy is defined for, as their specs declare (TieSupport).
DEFINED = {
    policy: frozenset(s.name for s in SPECS if s.ties.defines(policy))
    for policy in ("optimistic", "pessimistic", "average")
}
EXTREMAL_WITHOUT_DEPTH = frozenset(
    s.name for s in SPECS if s.ties.extremal and not s.ties.extremal_with_depth
)
ORDER_FREE_WITHOUT_DEPTH = frozenset(
    s.name for s in SPECS if s.ties.average == ORDER_FREE and not s.ties.order_free_with_depth
)


REQUIRED = {"recall_at_precision": "recall_at_precision(precision=0.5)", "mcc": "mcc(n_items=12)"}
"""The families a parameter without a default must name, spelled with one."""


def _names(families: frozenset[str]) -> list[str]:
    """Each family at its defaults: without a cutoff and at k=3 where it takes one."""
    out = []
    for spec in specs().values():
        if spec.name not in families:
            continue
        name = REQUIRED.get(spec.name, spec.name)
        if spec.k != "required":
            out.append(name)
        if spec.k != "none":
            out.append(f"{name}@3")
    return out


CONVENTIONS = st.sampled_from(
    [
        {},
        {"relevance_level": 2},
        {"gain": "exponential"},
        {"gain": "binary", "relevance_level": 2},
        {"gain": {1: 3.0, 2: 1.0, 3: 9.0}},
        {"missing": "zero"},
        {"judged_only": True},
        {"depth": 2},
        {"depth": 3, "judged_only": True},
        {"judgments": "retrieved"},
        {"ap_denominator": "min_k_relevant", "no_relevant": "skip"},
        {"ap_denominator": "found", "judgments": "retrieved"},
    ]
)


Reduce = Callable[[list[float]], float]


def _check(frame: pl.DataFrame, policy: str, conventions: dict[str, Any], reduce: Reduce) -> None:
    families = DEFINED[policy]
    if conventions.get("depth") and conventions.get("judged_only"):
        with pytest.raises(prm.InvalidParameterError, match="both depth and judged_only"):
            prm.evaluate(frame, ["ndcg"], ties=policy, **conventions)
        return
    if policy != "average" and isinstance(conventions.get("gain"), dict):
        conventions = {**conventions, "gain": {1: 1.5, 2: 2.5, 3: 3.5}}  # increasing: see the test below
    if policy == "average" and conventions.get("depth"):
        families -= ORDER_FREE_WITHOUT_DEPTH
    if policy != "average" and conventions.get("depth"):
        for family in EXTREMAL_WITHOUT_DEPTH:
            with pytest.raises(prm.InvalidParameterError, match=f"not defined for metric '{family}'"):
                prm.evaluate(frame, [family], ties=policy, **conventions)
        families -= EXTREMAL_WITHOUT_DEPTH
    names = _names(families)
    if conventions.get("ap_denominator") == "found":
        # The relevant items found at a cutoff depend on the order of a tie across it: no closed
        # form, and no extreme in the grade order (a relevant item past the cutoff can raise AP).
        with pytest.raises(prm.InvalidParameterError, match="ap_denominator='found'"):
            prm.evaluate(frame, ["map@3"], ties=policy, **conventions)
        names.remove("map@3")
    if conventions.get("gain") == "exponential" and "err" in families:
        # ERR reads the gain as its grade and refuses exponential gains (tests/unit/test_gain_families.py).
        with pytest.raises(prm.InvalidParameterError, match="metric 'err' does not take gain="):
            prm.evaluate(frame, ["err"], ties=policy, **conventions)
        names = [n for n in names if n not in ("err", "err@3")]
    assert names
    assert {"f_beta", "recall_at_precision", "auroc"} & families or policy == "average"
    every = over_orders(frame, names, **conventions)
    got = prm.evaluate(frame, names, per_query=True, ties=policy, **conventions)
    got = got.filter(pl.col("query").is_in(every["query"].implode())).sort("query")
    assert got["query"].to_list() == every["query"].to_list()
    bad = [
        f"{query} {name}: {value!r}, every order gives {values}"
        for name in names
        for query, values, value in zip(every["query"], every[name], got[name], strict=True)
        if _differs(values, value, reduce)
    ]
    assert not bad, "\n".join(bad[:10]) + f"\n{frame}"


def _differs(values: list[float | None], value: float | None, reduce: Reduce) -> bool:
    """Whether `value` is not `reduce` of every order's values; null only where every order gives null."""
    if value is None or any(v is None for v in values):  # gauc: a list without both kinds of item
        return not (value is None and all(v is None for v in values))
    return abs(reduce(values) - value) > TOLERANCE  # type: ignore[arg-type]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


@pytest.mark.parametrize(
    ("policy", "reduce"), [("optimistic", max), ("pessimistic", min), ("average", _mean)]
)
@given(frame=tied_queries(), conventions=CONVENTIONS)
def test_policy_equals_every_order_reduced(
    policy: str, reduce: Reduce, frame: pl.DataFrame, conventions: dict[str, Any]
) -> None:
    if n_orders(frame) > MAX_ORDERS or not DEFINED[policy]:
        return
    _check(frame, policy, conventions, reduce)


@pytest.mark.parametrize("policy", ["optimistic", "pessimistic", "average"])
@given(frame=tied_queries())
def test_text_policy_is_the_default(policy: str, frame: pl.DataFrame) -> None:
    del policy
    names = ["ndcg@3", "map", "P_2", "recip_rank"]
    assert prm.evaluate(frame, names, per_query=True, ties="text").equals(
        prm.evaluate(frame, names, per_query=True)
    )


def test_undefined_policy_names_metric_and_policy() -> None:
    frame = pl.DataFrame(
        {"query": ["q"] * 2, "item": ["a", "b"], "score": [1.0, 1.0], "relevance": [1, None]}
    )
    with pytest.raises(
        prm.InvalidParameterError, match=r"ties='optimistic' is not defined for metric 'infAP'"
    ):
        prm.evaluate(frame, ["ndcg", "infAP"], ties="optimistic")
    with pytest.raises(prm.InvalidParameterError, match=r"`ties` must be one of"):
        prm.evaluate(frame, ["ndcg"], ties="random")  # type: ignore[arg-type]


def test_extremes_refuse_gains_that_fall_with_the_grade() -> None:
    frame = pl.DataFrame({"query": ["q"] * 2, "item": ["a", "b"], "score": [1.0, 1.0], "relevance": [1, 2]})
    with pytest.raises(prm.InvalidParameterError, match=r"ties='optimistic' .* 'ndcg'.* do not increase"):
        prm.evaluate(frame, ["P_1", "ndcg"], ties="optimistic", gain={1: 3.0, 2: 1.0})
    # P reads no gain (both items are relevant: P_1 is 1); an increasing mapping is accepted.
    assert prm.evaluate(frame, ["P_1"], ties="optimistic", gain={1: 3.0, 2: 1.0}).item() == 1.0
    # Pessimistic: grade 1 (gain 1.5) first, grade 2 (2.5) second; the ideal the other way round.
    worst = prm.evaluate(frame, ["ndcg"], ties="pessimistic", gain={1: 1.5, 2: 2.5}).item()
    assert worst == pytest.approx((1.5 + 2.5 / math.log2(3)) / (2.5 + 1.5 / math.log2(3)), abs=1e-15)
    with pytest.raises(prm.InvalidParameterError, match="do not increase"):  # grade 3 would gain 3 < 7
        prm.evaluate(frame, ["ndcg"], ties="pessimistic", gain={1: 3.0, 2: 7.0})


def test_optimistic_and_pessimistic_by_hand() -> None:
    # Three items tied at the top, grades a=1, b=2, c=0: text order c, b, a; optimistic b, a, c;
    # pessimistic c, a, b (the first relevant item second either way but by text or grade).
    frame = pl.DataFrame(
        {
            "query": ["q"] * 4,
            "item": ["a", "b", "c", "d"],
            "score": [1.0, 1.0, 1.0, 0.5],
            "relevance": [1, 2, 0, 0],
        }
    )
    values = {
        t: prm.evaluate(frame, ["P_1", "recip_rank"], ties=t).row(0)
        for t in ("text", "optimistic", "pessimistic")
    }
    assert values == {"text": (0.0, 0.5), "optimistic": (1.0, 1.0), "pessimistic": (0.0, 0.5)}


POLICY_METRICS = {
    "optimistic": ["ndcg@3", "map", "P_2", "recip_rank", "bpref", "err@3"],
    "pessimistic": ["ndcg@3", "map", "P_2", "recip_rank", "bpref", "err@3"],
    "average": ["ndcg@3", "map", "map@2", "P_2", "recip_rank", "success_1", "Rprec", "dcg"],
}


@pytest.mark.parametrize("policy", list(POLICY_METRICS))
@given(frame=tied_queries())
def test_every_entry_point_takes_the_policy(policy: str, frame: pl.DataFrame) -> None:
    names = POLICY_METRICS[policy]
    eager = prm.evaluate(frame, names, per_query=True, ties=policy)
    conventions = prm.Conventions(ties=policy)  # type: ignore[arg-type]
    lazy = prm.evaluate(frame.lazy(), names, per_query=True, conventions=conventions)
    streamed = prm.collect(lazy, engine="streaming")
    assert_frame_equal(eager, streamed)
    chunked = prm.evaluate_chunked(frame, names, per_query=True, rows_per_chunk=3, ties=policy)
    assert_frame_equal(eager, chunked)
    namespace = frame.rank.evaluate(names, per_query=True, ties=policy)
    assert_frame_equal(eager, namespace)
    means = prm.evaluate(frame, names, ties=policy)
    assert_frame_equal(means, prm.evaluate_chunked(frame, names, rows_per_chunk=3, ties=policy))


@pytest.mark.parametrize("policy", list(POLICY_METRICS))
def test_policy_plans_stream_without_fallbacks_or_python(policy: str) -> None:
    frame = pl.LazyFrame(
        {"query": ["q"] * 3, "item": ["a", "b", "c"], "score": [1.0, 1.0, 0.5], "relevance": [1, 0, 2]}
    )
    plan = prm.evaluate(frame, POLICY_METRICS[policy], per_query=True, ties=policy)
    assert not fallback_nodes(plan)
    assert not calls_python(plan)


@pytest.mark.parametrize("policy", ["optimistic", "pessimistic", "average"])
def test_depth_with_judged_only_is_refused(policy: str) -> None:
    # Found by the brute force: with depth 3 and judged_only, the unjudged d2-d4 tied with the
    # non-relevant d5 decide whether d5 survives the depth; precision is 1.0 or 0.5 by the order.
    frame = pl.DataFrame(
        {
            "query": ["q1"] * 5,
            "item": ["d1", "d2", "d3", "d4", "d5"],
            "score": [2.0, 1.0, 1.0, 1.0, 1.0],
            "relevance": [1, None, None, None, 0],
        }
    )
    with pytest.raises(prm.InvalidParameterError, match="both depth and judged_only"):
        prm.evaluate(frame, ["P_5"], ties=policy, depth=3, judged_only=True)
    text = prm.evaluate(frame, ["P_5"], depth=3, judged_only=True)
    assert text["P_5"].to_list() == [0.2]
