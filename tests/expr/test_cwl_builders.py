"""``polars_rankmetrics.expr``'s C/W/L builders (``rx.cwl_*``) give evaluate's per-query values, bit for bit.

The C/W/L families are tables in evaluate (each query's ranking laid out over
``max_depth`` ranks as rows); their builders compute the same value from the
group's rows in rank order (``TableSpec.ordered`` in ``metrics/cwl.py``: the
first ``max_depth`` ranked rows gathered at constant positions, the padding
null and filled per bound). Checked here: every family, quantity and bound
on a fixed frame; generated frames (ties, graded and negative gains through a
gain mapping, unjudged and unretrieved judged items, a cost column with
missing costs, string and integer ids, several runs, scores or ranks) under
drawn conventions; ``over``, ``select``, the streaming engine; the costs as a
column in evaluate; and what the builders refuse.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from plans import calls_python, fallback_nodes
from strategies import TWO_RUNS, eval_frames
from test_agreement import assert_same

import polars_rankmetrics as prm
from polars_rankmetrics import expr as rx
from polars_rankmetrics.metrics import cwl

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

# Each family with parameters away from its defaults where it has some (its cutoff first).
FAMILIES: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "cwl_precision": ((3,), {}),
    "cwl_rr": ((), {}),
    "cwl_ap": ((), {}),
    "cwl_trap": ((), {}),
    "cwl_rbp": ((), {"theta": 0.6}),
    "cwl_ndcg": ((4,), {}),
    "cwl_inst": ((), {"target": 2.0}),
    "cwl_insq": ((), {"target": 1.5}),
    "cwl_bpm": ((), {"target": 1.0, "budget": 3.0}),
    "cwl_bpm_dynamic": ((), {"target": 1.0, "budget": 4.0, "hb": 0.5}),
    "cwl_umeasure": ((), {"length": 5.0}),
    "cwl_tbg": ((), {"halflife": 3.0}),
    "cwl_ift_c1": ((), {"target": 1.0, "b1": 0.9, "r1": 5.0}),
    "cwl_ift_c2": ((), {"rate": 0.3, "b2": 0.9, "r2": 5.0}),
    "cwl_ift_c1_c2": ((), {"target": 1.0, "b1": 0.9, "r1": 5.0, "rate": 0.3, "b2": 0.9, "r2": 5.0}),
    "cwl_nerr8": ((3,), {}),
    "cwl_nerr9": ((2,), {}),
    "cwl_nerr10": ((), {"phi": 0.7}),
    "cwl_nerr11": ((), {"target": 2.0}),
    "cwl_set": ((3,), {"beta": 0.4}),
    "cwl_npv": ((), {"rate": 0.2}),
}
# The generated grades (-2..4) as gains in [0, 1]; and with negative gains, for the families with min_gain.
UNIT_GAINS = {-2: 0.0, -1: 0.0, 0: 0.0, 1: 0.25, 2: 0.5, 3: 0.75, 4: 1.0}
SIGNED_GAINS = {**UNIT_GAINS, -1: -0.25, -2: -0.5}
COST = "cost"


def has_min_gain(name: str) -> bool:
    """INST and NERR take gains in [0, 1] and have no min_gain."""
    return name not in ("cwl_inst", "cwl_nerr8", "cwl_nerr9", "cwl_nerr10", "cwl_nerr11")


def options(name: str, *, signed: bool) -> dict[str, Any]:
    """The gain mapping (and min_gain) for `name`: signed gains only where the family reads them."""
    if signed and has_min_gain(name):
        return {"gain": SIGNED_GAINS, "min_gain": -0.5}
    return {"gain": UNIT_GAINS}


def cases(
    quantity: str = "eu",
    bound: str = "worst",
    *,
    signed: bool = False,
    **common: Any,  # noqa: ANN401
) -> list[pl.Expr]:
    """Every C/W/L builder, one case each, with `common` options (max_depth, costs, conventions).

    Not U-measure at ``max_depth=1``: its one rank is its last, of weight 0, and normalising W is 0/0
    (evaluate and the builder both fail on the NaN term of their exact sums).
    """
    return [
        getattr(rx, name)(
            *args, **params, quantity=quantity, bound=bound, **options(name, signed=signed), **common
        )
        for name, (args, params) in FAMILIES.items()
        if not (name == "cwl_umeasure" and common.get("max_depth") == 1)
    ]


def with_costs(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with a cost per row from its item's text (0 to 2.5), null for items whose id holds a 9."""
    text = pl.col("item").cast(pl.String)
    cost = (text.str.len_bytes() % 6).cast(pl.Float64) * 0.5
    return frame.with_columns(pl.when(text.str.contains("9")).then(None).otherwise(cost).alias(COST))


def compare(frame: pl.DataFrame, exprs: list[pl.Expr], **conventions: Any) -> None:  # noqa: ANN401
    """group_by().agg(builders) equals evaluate(per_query=True) on every query evaluate evaluates.

    Where evaluate fails (a non-finite term in an exact sum: U-measure's 0/0, negative gains that
    make AP's chances of reaching the ranks sum to 0 in a residual), each builder is compared alone,
    and the ones whose metric evaluate refuses must fail too.
    """
    by = ["model"] if "model" in frame.columns else []
    keys = [*by, "query"]
    names = [e.meta.output_name() for e in exprs]
    try:
        expected = prm.evaluate(frame, names, by=by or None, per_query=True, missing="zero", **conventions)
    except prm.InvalidDataError:
        if len(exprs) == 1:
            with pytest.raises(pl.exceptions.PolarsError):
                frame.group_by(keys).agg(exprs)
            return
        for expr in exprs:
            compare(frame, [expr], **conventions)
        return
    got = frame.group_by(keys).agg(exprs)
    assert_same(expected, got, keys, names)


FIXED = with_costs(
    pl.DataFrame(
        {
            "query": ["a"] * 7 + ["b"] * 3 + ["c"] * 3 + ["e"] * 2,
            "item": ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d1", "d9", "d3", "x", "y", "z", "p", "q"],
            "score": [3.0, 2.0, 2.0, 1.0, None, 0.5, 0.5, 1.0, 1.0, 1.0, None, None, 4.0, None, None],
            "relevance": [2, None, 4, 0, 3, 1, None, 1, 3, None, 4, 2, -1, 1, 0],
        }
    )
)


@pytest.mark.parametrize("bound", cwl.BOUNDS)
@pytest.mark.parametrize("quantity", cwl.QUANTITIES)
@pytest.mark.parametrize("costs", [None, COST])
def test_every_family_quantity_and_bound_on_a_fixed_frame(
    quantity: str, bound: str, costs: str | None
) -> None:
    """Ties (d2/d3, d6/d7, b's three), unjudged and unretrieved judged items, a query with nothing ranked."""
    compare(FIXED, cases(quantity, bound, max_depth=3, costs=costs))
    compare(FIXED, cases(quantity, bound, signed=True, max_depth=12, costs=costs))


@st.composite
def frames(draw: st.DrawFn) -> pl.DataFrame:
    models = draw(st.sampled_from([None, 2]))
    order = draw(st.sampled_from(["score", "score", "rank"]))
    return with_costs(draw(eval_frames(models=models, order=order)))


CONVENTIONS = st.fixed_dictionaries(
    {
        "depth": st.sampled_from([None, None, 2, 5]),
        "judged_only": st.booleans(),
        "relevance_level": st.sampled_from([1.0, 2.0]),
    }
)


@settings(max_examples=25, deadline=None)
@given(
    frame=frames(),
    conventions=CONVENTIONS,
    quantity=st.sampled_from(cwl.QUANTITIES),
    bound=st.sampled_from(cwl.BOUNDS),
    max_depth=st.sampled_from([1, 3, 8, 20]),
    signed=st.booleans(),
    use_costs=st.booleans(),
)
def test_generated_frames_give_evaluates_values(  # noqa: PLR0913  (the drawn options, each named)
    frame: pl.DataFrame,
    conventions: dict[str, Any],
    quantity: str,
    bound: str,
    max_depth: int,
    *,
    signed: bool,
    use_costs: bool,
) -> None:
    order = {"rank": "rank"} if "rank" in frame.columns else {}
    exprs = cases(
        quantity, bound, signed=signed, max_depth=max_depth, costs=COST if use_costs else None, **order,
        **conventions,
    )  # fmt: skip
    compare(frame, exprs, **conventions)


def test_over_select_and_streaming_give_the_group_by_values() -> None:
    frame = with_costs(TWO_RUNS)
    keys = ["model", "query"]
    exprs = cases("etu", "residual", max_depth=4, costs=COST)
    names = [e.meta.output_name() for e in exprs]
    want = frame.group_by(keys).agg(exprs)
    plan = frame.lazy().group_by(keys).agg(exprs)
    assert_same(want, plan.collect(engine="streaming"), keys, names)
    over = frame.select(*keys, *(e.over(keys) for e in exprs)).unique(keys)
    assert_same(want, over, keys, names)
    one = frame.filter((pl.col("model") == "bm25") & (pl.col("query") == 1))
    alone = one.select(exprs).with_columns(model=pl.lit("bm25"), query=pl.lit(1, dtype=pl.Int64))
    assert_same(want.filter(pl.col("model") == "bm25", pl.col("query") == 1), alone, keys, names)
    assert not calls_python(plan)


def test_each_builder_falls_back_in_its_aggregation_only() -> None:
    """As every builder: the group's sort runs in memory, one node; the constant-length padding adds none."""
    for expr in cases(max_depth=10):
        plan = FIXED.lazy().filter(pl.col("score") > -10).group_by("query").agg(expr).sort("query")
        nodes = fallback_nodes(plan)
        assert len(nodes) == 1, (expr.meta.output_name(), nodes)
        assert "AGGREGATE" in nodes[0]


def test_costs_as_a_column_equal_costs_as_a_frame_in_evaluate() -> None:
    """costs="cost" reads the frame's column: the same bits as those costs in a (query, item, cost) frame."""
    as_frame = FIXED.select("query", "item", COST)
    for name, (args, params) in FAMILIES.items():
        build = getattr(prm, name)
        column = build(*args, **params, quantity="ec", gain=UNIT_GAINS, max_depth=6, costs=COST)
        frame = build(*args, **params, quantity="ec", gain=UNIT_GAINS, max_depth=6, costs=as_frame)
        a = prm.evaluate(FIXED, [column], per_query=True).sort("query")
        b = prm.evaluate(FIXED, [frame], per_query=True).sort("query")
        assert a[str(column)].to_list() == b[str(frame)].to_list(), name
        assert a[str(column)].n_unique() > 1  # the costs are read: they differ between queries


def test_the_builders_refuse_a_costs_frame_or_mapping_naming_costs() -> None:
    for costs in (FIXED.filter(pl.col("query") == "a").select("item", COST), {"d1": 2.0}):
        with pytest.raises(
            prm.InvalidParameterError,
            match=r"`costs` of metric .cwl_rbp. must be a column name in an expression",
        ):
            rx.cwl_rbp(costs=costs)


def test_a_missing_cost_column_and_a_negative_cost() -> None:
    with pytest.raises(prm.ColumnNotFoundError, match="'price'"):
        prm.evaluate(FIXED, [prm.cwl_rbp(costs="price")])
    negative = FIXED.with_columns(
        pl.when(pl.col("item") == "d3").then(-1.0).otherwise(pl.col(COST)).alias(COST)
    )
    message = r"`costs` gives item 'd3' .*the cost -1\.0: a cost must be finite and >= 0"
    with pytest.raises(prm.InvalidDataError, match=message):
        prm.evaluate(negative, [prm.cwl_rbp(costs=COST, gain=UNIT_GAINS)])
    with pytest.raises(pl.exceptions.InvalidOperationError, match=message):
        negative.group_by("query").agg(rx.cwl_rbp(costs=COST, gain=UNIT_GAINS))


def test_a_gain_outside_the_range_fails_in_the_plan_as_in_evaluate() -> None:
    message = r"a C/W/L gain outside \[0, 1\.0\]: 4\.0"
    frame = FIXED.with_columns(pl.when(pl.col("item") == "d9").then(4).otherwise(0).alias("relevance"))
    with pytest.raises(prm.InvalidDataError, match=message):
        prm.evaluate(frame, [prm.cwl_rbp()])
    with pytest.raises(pl.exceptions.InvalidOperationError, match=message):
        frame.group_by("query").agg(rx.cwl_rbp())
    with pytest.raises(prm.InvalidDataError, match=message):
        prm.collect(frame.lazy().group_by("query").agg(rx.cwl_rbp()))


def test_a_group_without_a_judged_row_is_null() -> None:
    frame = pl.DataFrame(
        {"query": [1, 1], "item": ["a", "b"], "score": [1.0, 0.5], "relevance": [None, None]}
    )
    got = frame.group_by("query").agg(cases(max_depth=3))
    assert got.select(pl.all_horizontal(pl.exclude("query").is_null())).item()


@pytest.mark.parametrize("bound", cwl.BOUNDS)
def test_trap_reads_r_from_a_column_as_evaluate_does(bound: str) -> None:
    """TrAP's relevant= column (R per query; null in query b: its count), every quantity."""
    r = pl.when(pl.col("query") == "b").then(None).otherwise(pl.col("query").str.len_bytes() * 7.0)
    frame = FIXED.with_columns(r.alias("r"))
    exprs = [
        rx.cwl_trap(quantity=q, bound=bound, gain=UNIT_GAINS, max_depth=6, costs=COST, relevant="r")
        for q in cwl.QUANTITIES
    ]
    compare(frame, exprs)
