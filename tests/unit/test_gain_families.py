"""Every family that reads grades either uses the ``gain`` convention or refuses it.

A family *uses* a gain convention when its value under ``gain=G`` equals its
value under the default ``gain="linear"`` on the same frame with every judged
grade ``g >= 0`` replaced by its gain ``G(g)`` (the gains below keep each grade
on its side of ``relevance_level=1``, so the relevant set and the judged set do
not change). A family that cannot read a gain refuses it with
``InvalidParameterError`` naming the metric and the gain. Families reading only
whether an item is judged pass the first check unchanged; the registry's list
of grade-reading families is checked whole, so a new one joins this test.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm
from polars_rankmetrics._registry import SPECS
from tests.strategies import eval_frames

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

MAPPING = {1.0: 3.0, 2.0: 9.0}  # grades 3 and 4 keep their linear gain: not increasing
GAINS: list[Any] = ["linear", "exponential", "binary", MAPPING]
METRICS = {
    "dcg": "dcg@3", "ndcg": "ndcg@3", "cost_gain": "g", "ndcg_rel": "ndcg_rel", "rndcg": "rndcg",
    "unjudged": "unjudged@3", "num_nonrel_judged_ret": "num_nonrel_judged_ret",
    "rbp": "rbp(p=0.5)", "rbp_resid": "rbp_resid", "err": "err@5", "relstring": "relstring",
    "mpr": "mpr", "mpr_ignore": "mpr_ignore", "mpr_random": "mpr_random(n_items=40)",
    "fallout": "fallout", "auroc": "auroc", "compat": "compat",
}  # fmt: skip
# The C/W/L families read gains in [0, 1] from the grades or their own gain= mapping (cwl_eval's gain
# file): each refuses evaluate's gain= other than the grades themselves.
CWL = {
    "cwl_precision": "cwl_precision@3", "cwl_ndcg": "cwl_ndcg@3", "cwl_nerr8": "cwl_nerr8@3",
    "cwl_nerr9": "cwl_nerr9@3", "cwl_set": "cwl_set@3",
    "cwl_ift_c1": "cwl_ift_c1(target=1,b1=0.9,r1=10)", "cwl_ift_c2": "cwl_ift_c2(rate=0.2,b2=0.9,r2=10)",
    "cwl_ift_c1_c2": "cwl_ift_c1_c2(target=1,b1=0.9,r1=10,rate=0.2,b2=0.9,r2=10)",
    **{name: name for name in ("cwl_rr", "cwl_ap", "cwl_trap", "cwl_rbp", "cwl_inst", "cwl_insq", "cwl_bpm",
                               "cwl_bpm_dynamic", "cwl_umeasure", "cwl_tbg", "cwl_nerr10", "cwl_nerr11",
                               "cwl_npv")},
}  # fmt: skip
METRICS.update(CWL)
# The refusals, each on purpose: ERR's stopping probability is exponential in its grade already.
REFUSED = {("err", "exponential")} | {(name, g) for name in CWL for g in ("exponential", "binary", "mapping")}
# relstring shows the judgments as trec_eval prints them, not gains: every gain leaves it as is.
JUDGMENT_TEXT = {"relstring"}
GAIN_READERS = {
    "dcg", "ndcg", "cost_gain", "ndcg_rel", "rndcg", "rbp", "err",
    "mpr", "mpr_ignore", "mpr_random", "compat",
}  # fmt: skip


def _key(gain: object) -> str:
    return "mapping" if isinstance(gain, Mapping) else str(gain)


def _as_gain(grade: pl.Expr, gain: object) -> pl.Expr:
    """The gain of each judged grade, written from the definitions; unjudged and negative kept."""
    g = grade.cast(pl.Float64)
    if gain == "linear":
        value = g
    elif gain == "exponential":
        value = 2.0**g - 1.0
    elif gain == "binary":
        value = (g >= 1).cast(pl.Float64)
    else:
        assert isinstance(gain, Mapping)
        value = g.replace_strict(list(gain), list(gain.values()), default=g)
    return pl.when(g >= 0).then(value).otherwise(g)


def test_every_grade_reading_family_is_listed() -> None:
    readers = {s.name for s in SPECS if "grade" in s.needs or "gain" in s.needs}
    assert readers == set(METRICS)
    assert {s.name for s in SPECS if "gain" in s.needs} == GAIN_READERS


def _evaluate(frame: pl.DataFrame, name: str, gain: object) -> pl.DataFrame:
    return prm.evaluate(frame, [METRICS[name]], per_query=True, missing="zero", gain=gain)  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(frame=eval_frames(id_type="str"), gain=st.sampled_from(GAINS[1:]))
def test_each_family_uses_or_refuses_each_gain(frame: pl.DataFrame, gain: object) -> None:
    regraded = frame.with_columns(_as_gain(pl.col("relevance"), gain).alias("relevance"))
    for name, col in METRICS.items():
        if (name, _key(gain)) in REFUSED:
            with pytest.raises(prm.InvalidParameterError, match=rf"metric '{re.escape(col)}'.*gain="):
                _evaluate(frame, name, gain)
            continue
        got = _evaluate(frame, name, gain)
        want = _evaluate(frame if name in JUDGMENT_TEXT else regraded, name, "linear")
        assert got.columns == want.columns
        joined = want.join(got, on="query", how="full", suffix="_got", coalesce=True)
        if joined[col].dtype == pl.String:
            assert joined[col].to_list() == joined[col + "_got"].to_list(), (name, gain)
            continue
        diff = (joined[col] - joined[col + "_got"]).abs()
        assert joined[col].is_null().to_list() == joined[col + "_got"].is_null().to_list(), (name, gain)
        assert (diff.fill_null(0) <= 1e-12).all(), (name, gain, joined)


def test_linear_and_binary_differ_for_every_gain_reader() -> None:
    """Each gain reader's value moves with the gain (none ignores it, as rbp and err once did)."""
    frame = pl.DataFrame(
        {
            "query": ["q"] * 5,
            "item": ["a", "b", "c", "d", "e"],
            "score": [5.0, 4.0, 3.0, 2.0, None],
            "relevance": [1, 0, 4, 2, 3],
        }
    )
    for name in GAIN_READERS:
        linear = _evaluate(frame, name, "linear").item(0, METRICS[name])
        binary = _evaluate(frame, name, "binary").item(0, METRICS[name])
        assert linear != pytest.approx(binary), name
