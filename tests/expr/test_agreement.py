"""``polars_rankmetrics.expr`` gives evaluate's per-query values, bit for bit, for every builder.

One hypothesis test draws frames (ties, grades 0..4 and negative, unjudged
and unretrieved relevant items, string and integer ids, one or several runs,
a score or a rank column) and conventions (depth, judged_only,
relevance_level, gain), then compares ``group_by(by..., query).agg(every
builder)`` with ``prm.evaluate(..., by=..., per_query=True)``.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest
from cases import builders, names, with_propensity
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import ALL_TIED_INT, NEGATIVE_ONLY, POPULATION, TWO_RUNS, eval_frames

import polars_rankmetrics as prm
from polars_rankmetrics._registry import SPECS
from polars_rankmetrics._spec import QuerySpec, TableSpec

# Generated data includes degenerate evaluations; their warnings are tested elsewhere.
pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

CONVENTIONS = st.fixed_dictionaries(
    {
        "depth": st.sampled_from([None, None, 1, 3, 7]),
        "judged_only": st.booleans(),
        "relevance_level": st.sampled_from([1.0, 1.0, 2.0, 0.0, 1.5]),
        "gain": st.sampled_from(["linear", "exponential", "binary", {1: 3.0, 2: 9.0}]),
    }
)


@st.composite
def frames(draw: st.DrawFn) -> pl.DataFrame:
    models = draw(st.sampled_from([None, 2, 3]))
    order = draw(st.sampled_from(["score", "score", "rank"]))
    return draw(eval_frames(models=models, order=order))


def assert_same(expected: pl.DataFrame, got: pl.DataFrame, keys: list[str], columns: list[str]) -> None:
    """Every value equal to the bit (nulls where evaluate has nulls), on evaluate's rows."""
    joined = expected.join(got, on=keys, how="left", suffix="__rx", nulls_equal=True)
    assert joined.height == expected.height
    for name in columns:
        want, have = joined[name], joined[name + "__rx"]
        assert have.dtype == want.dtype, (name, have.dtype, want.dtype)
        same = (want == have) | (want.is_null() & have.is_null())
        if want.dtype == pl.Float64:  # shortest round-trip text: equal text is equal bits (-0.0 != 0.0)
            same = (want.cast(pl.String) == have.cast(pl.String)) | (want.is_null() & have.is_null())
        bad = joined.filter(~same.fill_null(value=False))
        assert bad.is_empty(), f"{name}: {bad.select(*keys, name, name + '__rx').head(5)}"


@given(frame=frames(), conventions=CONVENTIONS, missing=st.sampled_from(["skip", "zero"]))
@example(frame=TWO_RUNS, conventions={"depth": None, "judged_only": False, "relevance_level": 1.0,
         "gain": "linear"}, missing="zero")  # fmt: skip
@example(frame=POPULATION, conventions={"depth": 1, "judged_only": True, "relevance_level": 1.0,
         "gain": "exponential"}, missing="skip")  # fmt: skip
@example(frame=ALL_TIED_INT, conventions={"depth": None, "judged_only": False, "relevance_level": 2.0,
         "gain": "linear"}, missing="skip")  # fmt: skip
@example(frame=NEGATIVE_ONLY, conventions={"depth": 3, "judged_only": False, "relevance_level": 1.0,
         "gain": "linear"}, missing="zero")  # fmt: skip
def test_every_builder_gives_evaluates_per_query_values(
    frame: pl.DataFrame, conventions: dict[str, Any], missing: str
) -> None:
    by = ["model"] if "model" in frame.columns else []
    keys = [*by, "query"]
    frame = with_propensity(frame)
    order = {"rank": "rank"} if "rank" in frame.columns else {}
    exprs = builders(**conventions, **order)
    metrics = names(exprs)
    expected = prm.evaluate(frame, metrics, by=by or None, per_query=True, missing=missing, **conventions)
    got = frame.group_by(keys).agg(exprs)
    assert_same(expected, got, keys, metrics)
    # Groups evaluate leaves out: without a judged row, every value is null.
    left_out = got.join(expected.select(keys), on=keys, how="anti", nulls_equal=True)
    judged = frame.group_by(keys).agg(pl.col("relevance").is_not_null().any().alias("__judged"))
    left_out = left_out.join(judged, on=keys, nulls_equal=True)
    unjudged = left_out.filter(~pl.col("__judged"))
    assert unjudged.select(pl.all_horizontal(pl.col(metrics).is_null()).all()).item() in (True, None)
    if missing == "zero":  # evaluate counts every judged query: none is left out
        assert left_out.filter(pl.col("__judged")).is_empty()


def test_every_query_spec_has_a_builder_and_a_case() -> None:
    """The builders are the registry's query-scope metrics and tables with an ordered form, each exercised."""
    from test_cwl_builders import cases  # noqa: PLC0415  (the table families' builders: cwl_*)

    from polars_rankmetrics import expr as rx  # noqa: PLC0415

    ordered = {s.python_name for s in SPECS if isinstance(s, TableSpec) and s.ordered is not None}
    wanted = {s.python_name for s in SPECS if isinstance(s, QuerySpec)} | ordered
    assert set(rx.__all__) == wanted
    covered = {prm.parse(n).spec.python_name for n in names(builders()) + names(cases())}
    assert covered == wanted
    assert "``polars_rankmetrics.expr.__all__`` lists" in (rx.__doc__ or "")  # the reference lists each one
