"""The C/W/L families (metrics/cwl.py): hand-computed values, every path, the errors.

cwl_eval itself is the oracle of tests/reference/test_cwl_oracle.py; the values here are
worked by hand from the definitions (Moffat et al. 2017; Azzopardi et al., SIGIR 2019).
"""

from __future__ import annotations

import math

import polars as pl
import pytest
from plans import calls_python, fallback_nodes
from polars.testing import assert_frame_equal

import polars_rankmetrics as prm

# One query, ranked a > b > c, gains 1, 0, 0.5; item d is judged (gain 1) and not retrieved.
FRAME = pl.DataFrame(
    {
        "query": ["q", "q", "q", "q"],
        "item": ["a", "b", "c", "d"],
        "score": [3.0, 2.0, 1.0, None],
        "relevance": [1.0, 0.0, 0.5, 1.0],
    }
)


def _value(metric: prm.Metric | str, frame: pl.DataFrame = FRAME) -> float:
    out = prm.evaluate(frame, [metric])
    return float(out.item())


def test_cwl_precision_by_hand() -> None:
    # W = 1/3 on ranks 1..3; L = 1 at rank 3: EU = 1.5/3, ETU = 1.5, EC = 1, ETC = 3, ED = 3.
    assert _value(prm.cwl_precision(3)) == pytest.approx(0.5, abs=1e-15)
    assert _value(prm.cwl_precision(3, quantity="etu")) == pytest.approx(1.5, abs=1e-15)
    assert _value(prm.cwl_precision(3, quantity="ec")) == pytest.approx(1.0, abs=1e-15)
    assert _value(prm.cwl_precision(3, quantity="etc")) == pytest.approx(3.0, abs=1e-15)
    assert _value(prm.cwl_precision(3, quantity="ed")) == pytest.approx(3.0, abs=1e-15)


def test_cwl_precision_pads_past_the_list() -> None:
    # P@5 over a 3-item list: ranks 4 and 5 gain 0 (worst) or 1 (best): residual 2/5.
    assert _value(prm.cwl_precision(5)) == pytest.approx(1.5 / 5, abs=1e-15)
    assert _value(prm.cwl_precision(5, bound="best")) == pytest.approx(3.5 / 5, abs=1e-15)
    assert _value(prm.cwl_precision(5, bound="residual")) == pytest.approx(2 / 5, abs=1e-15)


def test_cwl_rbp_by_hand() -> None:
    # C = 1/2 over 1000 ranks: W(i) = 2**-(i-1) / sum_{j<1000} 2**-j; EU = (1 + 0.5/4) / that sum.
    total = sum(0.5**j for j in range(1000))
    assert _value(prm.cwl_rbp(theta=0.5)) == pytest.approx(1.125 / total, abs=1e-15)
    assert _value(prm.cwl_rbp(theta=0.5, quantity="ed")) == pytest.approx(total, abs=1e-15)
    # At max_depth 3: the weights 4/7, 2/7, 1/7.
    assert _value(prm.cwl_rbp(theta=0.5, max_depth=3)) == pytest.approx((4 + 0.5) / 7, abs=1e-15)


def test_cwl_rr_stops_at_the_first_gain() -> None:
    assert _value(prm.cwl_rr()) == 1.0
    assert _value(prm.cwl_rr(quantity="ed")) == 1.0


def test_cwl_inst_by_hand() -> None:
    # T = 1, gains 1, 0, 0.5 then 0: C(i) = ((i + 2 - G(i) - 1) / (i + 2 - G(i)))**2, G the running gain.
    g = [1.0, 0.0, 0.5] + [0.0] * 997
    cont, reach, weight_sum, gain_sum, cum = [], 1.0, 0.0, 0.0, 0.0
    for i, gi in enumerate(g, start=1):
        cum += gi
        weight_sum += reach
        gain_sum += reach * gi
        c = ((i + 2 - cum - 1) / (i + 2 - cum)) ** 2
        cont.append(c)
        reach *= c
    assert _value(prm.cwl_inst()) == pytest.approx(gain_sum / weight_sum, abs=1e-13)


def test_cwl_gain_mapping_and_costs() -> None:
    graded = FRAME.with_columns(pl.Series("relevance", [2, 0, 1, 2]))
    mapped = prm.cwl_precision(3, gain={1: 0.5, 2: 1.0})
    assert _value(mapped, graded) == pytest.approx(0.5, abs=1e-15)
    costs = pl.DataFrame({"item": ["a", "b"], "cost": [2.0, 4.0]})
    # Costs 2, 4 and 1 (c has none): EC = 7/3, ETC = 7.
    assert _value(prm.cwl_precision(3, quantity="ec", costs=costs)) == pytest.approx(7 / 3, abs=1e-15)
    assert _value(prm.cwl_precision(3, quantity="etc", costs={"a": 2.0, "b": 4.0})) == pytest.approx(7.0)
    # Worst case: an item without a cost costs max_cost; best case min_cost.
    worst = prm.cwl_precision(3, quantity="etc", costs=costs, min_cost=0.5, max_cost=3.0)
    best = prm.cwl_precision(3, quantity="etc", costs=costs, min_cost=0.5, max_cost=3.0, bound="best")
    assert _value(worst) == pytest.approx(9.0)
    assert _value(best) == pytest.approx(6.5)


def test_cwl_names_round_trip() -> None:
    for metric in (prm.cwl_rbp(theta=0.8, quantity="etc"), prm.cwl_inst(target=2, bound="residual")):
        assert str(prm.parse(str(metric))) == str(metric)
    assert str(prm.cwl_rbp(theta=0.8, quantity="etc")) == "cwl_rbp(theta=0.8,quantity=etc)"


def test_cwl_every_path_gives_the_same_values() -> None:
    metrics = [
        prm.cwl_inst(target=2),
        prm.cwl_tbg(halflife=3, quantity="etc"),
        prm.cwl_ap(bound="residual"),
        prm.cwl_trap(quantity="ed"),
        prm.cwl_bpm_dynamic(budget=4, quantity="etu"),
        prm.cwl_umeasure(length=5, max_depth=20),
    ]
    frame = pl.DataFrame(
        {
            "run": ["x"] * 7 + ["y"] * 3,
            "query": [1, 1, 1, 2, 2, 2, 2, 1, 1, 1],
            "item": ["a", "b", "c", "a", "b", "c", "d", "a", "b", "c"],
            "score": [3.0, 3.0, 1.0, 2.0, None, 1.0, 0.5, 1.0, 2.0, 3.0],
            "relevance": [1.0, None, 0.5, 0.25, 1.0, 0.0, None, 1.0, None, 0.5],
        }
    )
    eager = prm.evaluate(frame, metrics, by="run", per_query=True)
    lazy = prm.evaluate(frame.lazy(), metrics, by="run", per_query=True)
    assert_frame_equal(lazy.collect(), eager, check_exact=True)
    assert_frame_equal(lazy.collect(engine="streaming"), eager, check_exact=True)
    shuffled = prm.evaluate(frame.reverse(), metrics, by="run", per_query=True)
    assert_frame_equal(shuffled.sort("run", "query"), eager.sort("run", "query"), check_exact=True)
    means = prm.evaluate(frame, metrics, by="run")
    chunked = prm.evaluate_chunked(frame, metrics, by="run", rows_per_chunk=2)
    assert_frame_equal(chunked.sort("run"), means.sort("run"), check_exact=True)
    ranked = prm.RankFrame(frame).cwl_inst(target=2, by="run")
    assert_frame_equal(ranked, means.select("run", "cwl_inst(target=2)"), check_exact=True)
    plan = prm.evaluate(frame.lazy(), metrics, by="run")
    assert not fallback_nodes(plan)
    assert not calls_python(plan)
    assert all(math.isfinite(v) for v in eager.drop("run", "query").row(0))


def test_cwl_refuses_bad_options_and_gains() -> None:
    with pytest.raises(prm.InvalidParameterError, match="quantity"):
        prm.cwl_rbp(quantity="nope")
    with pytest.raises(prm.InvalidParameterError, match="quantity"):
        prm.evaluate(FRAME, ["cwl_rbp(quantity=nope)"])
    with pytest.raises(prm.InvalidParameterError, match="bound"):
        prm.cwl_rbp(bound="middle")
    with pytest.raises(prm.InvalidParameterError, match="costs"):
        prm.cwl_rbp(costs=pl.DataFrame({"doc": ["a"], "cost": [1.0]}))
    with pytest.raises(prm.InvalidParameterError, match="costs"):
        prm.cwl_rbp(costs={"a": -1.0})
    with pytest.raises(prm.InvalidParameterError, match="min_cost"):
        prm.cwl_rbp(min_cost=2.0, max_cost=1.0)
    graded = FRAME.with_columns(pl.Series("relevance", [2.0, 0.0, 1.0, 1.0]))
    with pytest.raises(prm.InvalidDataError, match=r"gain outside \[0, 1.0\]: 2.0"):
        prm.evaluate(graded, [prm.cwl_rbp()])


EVERY = [
    prm.cwl_precision(4),
    prm.cwl_rr(),
    prm.cwl_ap(),
    prm.cwl_trap(),
    prm.cwl_rbp(theta=0.7),
    prm.cwl_ndcg(4),
    prm.cwl_inst(target=2),
    prm.cwl_insq(),
    prm.cwl_bpm(target=1.5, budget=4),
    prm.cwl_bpm_dynamic(budget=5, gain_med=0.25),
    prm.cwl_umeasure(length=6),
    prm.cwl_tbg(halflife=3),
    prm.cwl_ift_c1(target=2, b1=0.9, r1=1.5),
    prm.cwl_ift_c2(rate=0.3, b2=0.9, r2=2),
    prm.cwl_ift_c1_c2(target=2, b1=0.9, r1=1.5, rate=0.3, b2=0.9, r2=2),
    prm.cwl_nerr8(4),
    prm.cwl_nerr9(4),
    prm.cwl_nerr10(phi=0.7),
    prm.cwl_nerr11(),
    prm.cwl_set(6),
    prm.cwl_npv(rate=0.2),
]


def _every(**options: object) -> list[prm.Metric]:
    out: list[prm.Metric] = []
    for metric in EVERY:
        build = getattr(prm, metric.spec.python_name)
        values = {
            p.name: getattr(v, "value", v) for p, v in zip(metric.spec.params, metric.params, strict=True)
        }
        args = (metric.k,) if metric.k is not None else ()
        out.extend(
            build(*args, **{**values, "quantity": q, "bound": b, **options})
            for q in ("eu", "etu", "ec", "etc", "ed")
            for b in ("worst", "best")  # a residual is their difference
        )
    return out


def test_cwl_a_query_has_its_values_whatever_its_neighbours() -> None:
    # What chunked evaluation and Spark rely on: each query's bits alone equal its bits among others.
    frame = pl.DataFrame(
        {
            "query": ["a"] * 4 + ["b"] * 6 + ["c"] * 2,
            "item": ["x", "y", "z", "w", "x", "y", "z", "w", "v", "u", "x", "y"],
            "score": [4.0, 3.0, 3.0, None, 1.0, 2.0, 3.0, 4.0, 5.0, 5.0, 1.0, 2.0],
            "relevance": [1.0, None, 0.5, 1.0, 0.25, 0.0, None, 1.0, 0.5, None, None, 0.75],
        }
    )
    metrics = _every(max_depth=30, costs={"x": 2.0, "z": 0.5})
    together = prm.evaluate(frame, metrics, per_query=True)
    alone = pl.concat(
        [prm.evaluate(frame.filter(pl.col("query") == q), metrics, per_query=True) for q in ("a", "b", "c")]
    )
    assert_frame_equal(alone.sort("query"), together.sort("query"), check_exact=True)


def test_cwl_with_options_keeps_the_parameters() -> None:
    from polars_rankmetrics.metrics.cwl import with_options  # noqa: PLC0415  (the module's helper)

    metric = prm.cwl_ndcg(5, gain={1: 0.5, 2: 1.0}, max_depth=50)
    changed = with_options(metric, quantity="etc", bound="residual")
    assert str(changed) == "cwl_ndcg(1=0.5,2=1,max_depth=50,quantity=etc,bound=residual)@5"
    assert with_options(changed, quantity="eu", bound="worst") == prm.parse(str(metric))
    with pytest.raises(prm.InvalidParameterError, match="C/W/L"):
        with_options(prm.ndcg(5), quantity="etc")


def test_cwl_costs_per_query_and_item() -> None:
    two = pl.concat([FRAME, FRAME.with_columns(pl.lit("r").alias("query"))])
    costs = pl.DataFrame({"query": ["q", "r"], "item": ["a", "a"], "cost": [2.0, 4.0]})
    out = prm.evaluate(two, [prm.cwl_precision(3, quantity="etc", costs=costs)], per_query=True)
    assert dict(out.iter_rows()) == {"q": 4.0, "r": 6.0}  # a's cost, then b and c at 1
    twice = pl.DataFrame({"query": ["q", "q"], "item": ["a", "a"], "cost": [2.0, 4.0]})
    with pytest.raises(prm.InvalidParameterError, match="one row per item"):
        prm.cwl_precision(3, costs=twice)


def test_cwl_by_keys_keep_their_names() -> None:
    # by-keys named like a C/W/L quantity or vector do not meet the plan's own columns.
    frame = pl.concat([FRAME.with_columns(pl.lit(name).alias("w"), pl.lit(1).alias("eu")) for name in "xy"])
    out = prm.evaluate(frame, [prm.cwl_precision(3, bound="residual")], by=["w", "eu"])
    assert out.sort("w").rows() == [("x", 1, 0.0), ("y", 1, 0.0)]


def test_cwl_costs_from_a_column_of_the_frame() -> None:
    # A cost column read as a side frame; a null cost is no cost (max_cost, worst case).
    priced = FRAME.with_columns(pl.Series("cost", [2.0, None, 3.0, 9.0]))
    metric = prm.cwl_precision(3, quantity="etc", costs=priced.select("query", "item", "cost"), max_cost=1.5)
    assert _value(metric, priced) == pytest.approx(2.0 + 1.5 + 3.0)
    assert _value(prm.cwl_precision(3, quantity="etc", costs={"a": None}, max_cost=1.5)) == pytest.approx(4.5)


def test_cwl_trap_reads_r_from_a_column() -> None:
    # W(i) = G'(i) / K(i) / R with G' = 1, 1, 1.5 and K = 1, 2, 3: EU = (1 + 0.25) / R, ED = 1 / W(1) = R.
    # Counted, R = 3 (a, c and the unretrieved d); the column says 5; a null column leaves the count.
    given = FRAME.with_columns(r=pl.lit(5.0))
    assert _value(prm.cwl_trap(max_depth=3)) == pytest.approx(1.25 / 3, abs=1e-15)
    assert _value(prm.cwl_trap(max_depth=3, relevant="r"), given) == pytest.approx(1.25 / 5, abs=1e-15)
    ed = prm.cwl_trap(max_depth=3, relevant="r", quantity="ed")
    assert _value(ed, given) == pytest.approx(5.0, abs=1e-12)
    unset = FRAME.with_columns(r=pl.lit(None, dtype=pl.Float64))
    assert _value(prm.cwl_trap(max_depth=3, relevant="r"), unset) == _value(prm.cwl_trap(max_depth=3))
    with pytest.raises(prm.InvalidParameterError, match=r"`relevant` of metric 'cwl_trap' must be a column"):
        prm.cwl_trap(relevant=3)
    with pytest.raises(prm.InvalidDataError, match=r"`relevant` gives item 'a'.* must be finite and >= 0"):
        prm.evaluate(FRAME.with_columns(r=pl.lit(-1.0)), [prm.cwl_trap(relevant="r")])
