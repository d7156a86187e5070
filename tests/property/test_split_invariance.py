"""Each query alone equals all queries together, bit for bit, for every metric (issue 17, point 1).

A value must not depend on which other queries share the call: chunked
evaluation and the Spark adapter split the queries, and trec_eval computes
each query by itself. (Polars divides a column by a literal as a
multiplication by the reciprocal but a single value truly: P_5 was
0.6000000000000001 together and 0.6 alone; trec_eval prints the true 0.6.)
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import example, given, settings
from polars.testing import assert_frame_equal
from strategies import eval_frames, frame_repr

import polars_rankmetrics as prm
from polars_rankmetrics._registry import SPECS
from polars_rankmetrics._spec import QuerySpec, TableSpec

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


def _names() -> list[str]:
    """Every per-query metric with a default form, without a cutoff and at cutoffs 1 and 5."""
    out: list[str] = []
    for spec in SPECS:
        takes_value = any(p.default is None and p.kind in ("float", "floats", "side") for p in spec.params)
        if not isinstance(spec, (QuerySpec, TableSpec)) or spec.kind == "str" or takes_value:
            continue
        if spec.k != "required":
            out.append(spec.name)
        if spec.k != "none":
            out += [f"{spec.name}@1", f"{spec.name}@5"]
    return out


NAMES = _names()


# Two runs of one query, nine retrieved items all unjudged: rbp_resid's residual once divided by
# 1 - p, 0.9999999999999999 together and 1.0 alone.
_UNJUDGED_RUNS = pl.DataFrame(
    {
        "model": ["bm25"] * 10 + ["dense"] * 10,
        "query": ["q1"] * 20,
        "item": ["d9", "d10", "d1", "d2", "d11", "d99", "d100", "a", "b", "B"] * 2,
        "score": [None, *[0.0] * 9] * 2,
        "relevance": [0, *[None] * 9] * 2,
    },
    schema_overrides={"score": pl.Float64, "relevance": pl.Int64},
)


@settings(max_examples=40)
@given(eval_frames(models=2))
@example(frame=_UNJUDGED_RUNS)
def test_each_query_alone_equals_all_together(frame: pl.DataFrame) -> None:
    by = "model" if "model" in frame.columns else None
    keys = ["model", "query"] if by else ["query"]
    together = prm.evaluate(frame, NAMES, by=by, per_query=True)
    alone = [
        prm.evaluate(
            frame.filter(pl.struct(keys) == pl.lit(key, dtype=pl.Struct(dict(frame.select(keys).schema)))),
            NAMES,
            by=by,
            per_query=True,
        )
        for key in frame.select(keys).unique().to_dicts()
    ]
    if not alone:
        return
    split = pl.concat(alone).sort(keys)
    try:
        assert_frame_equal(split, together.sort(keys), check_exact=True)
    except AssertionError as err:
        msg = f"{err}\nfrom frame:\n{frame_repr(frame)}"
        raise AssertionError(msg) from None
