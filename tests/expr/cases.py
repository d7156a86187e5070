"""Every builder of ``polars_rankmetrics.expr``, with parameter variants, under given conventions."""

from __future__ import annotations

from typing import Any

import polars as pl

from polars_rankmetrics import expr as rx

GAIN_MAP = {1: 3.0, 2: 9.0, 3: 0.5}


PROPENSITY = "p"  # the item's propensity, a column the agreement test adds (with_propensity)


def with_propensity(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with an item's propensity in (0, 1] (from its id's text) for the propensity builders."""
    text = pl.col("item").cast(pl.String)
    return frame.with_columns(
        (1.0 / (text.str.len_bytes() + text.str.contains("1").cast(pl.UInt32))).alias(PROPENSITY)
    )


def builders(*, gain: Any = "linear", **options: Any) -> list[pl.Expr]:  # noqa: ANN401  (any builder keyword)
    """One expression per (builder, parameters) case; `options` are the columns and conventions."""
    o = options
    g = {"gain": gain, **o}
    # err reads the gain as its grade and refuses gain="exponential" (tests/unit/test_gain_families.py).
    by_grade = [rx.err(**g), rx.err(3, max_grade=2.5, **g)] if gain != "exponential" else []
    return [*by_grade,
        rx.precision(1, **o), rx.precision(5, **o), rx.precision(**o),
        rx.recall(3, **o), rx.recall(**o),
        rx.f1(2, **o), rx.f1(**o),
        rx.hit_rate(1, **o), rx.hit_rate(**o),
        rx.relative_precision(3, **o), rx.relative_precision(**o),
        rx.set_map(**o), rx.utility(**o), rx.utility(2, -0.5, 0.3, 0.1, **o), rx.r_precision(**o),
        rx.reciprocal_rank(**o), rx.reciprocal_rank(2, **o),
        rx.average_precision(**o), rx.average_precision(3, **o), rx.gm_map(**o), rx.binary_cost_gain(**o),
        rx.dcg(3, **g), rx.dcg(**g), rx.ndcg(3, **g), rx.ndcg(**g), rx.ndcg(5, **{**o, "gain": GAIN_MAP}),
        rx.iprec_at_recall(0.0, **o), rx.iprec_at_recall(0.35, **o),
        rx.eleven_point_average(**o), rx.eleven_point_average([0.2, 0.9], **o),
        rx.rprec_mult(0.5, **o), rx.rprec_mult(2.0, **o),
        rx.bpref(**o), rx.gm_bpref(**o), rx.infap(**o), rx.unjudged(3, **o), rx.num_nonrel_judged_ret(**o),
        rx.rbp(**g), rx.rbp(0.5, **g), rx.rbp_resid(**o), rx.rbp_resid(0.8, **o),
        rx.num_ret(**o), rx.num_rel(**o), rx.num_rel_ret(**o), rx.num_q(**o), rx.hits(3, **o), rx.hits(**o),
        rx.covered_users(1, **o), rx.covered_users(3, **o),
        rx.relstring(**o), rx.relstring(4, **o),
        rx.mar(3, **o), rx.map_capped(2, **o),
        rx.mpr(**g), rx.mpr(missing_items="ignore", **g), rx.mpr(missing_items="random", n_items=40, **g),
        rx.f_beta(3, beta=2.0, **o), rx.f_beta(**o), rx.set_f(**o), rx.set_f(beta=0.25, **o),
        rx.fallout(2, **o), rx.fallout(**o), rx.auroc(**o), rx.gauc(**o), rx.gauc_weighted(**o),
        rx.mcc(2, n_items=20, **o), rx.mcc(5, n_items=9, **o),
        rx.recall_at_precision(precision=0.5, **o), rx.recall_at_precision(4, precision=1 / 3, **o),
        rx.psp(3, propensities=PROPENSITY, **o), rx.psrecall(4, propensities=PROPENSITY, **o),
        rx.psndcg(2, propensities=PROPENSITY, normalize="oracle", **o),
        rx.ips_precision(2, propensities=PROPENSITY, **o), rx.ips_recall(propensities=PROPENSITY, **o),
        rx.ips_ndcg(3, propensities=PROPENSITY, estimator="snips", **o),
        rx.ips_rbp(propensities=PROPENSITY, **o), rx.ips_hit_rate(2, propensities=PROPENSITY, **o),
        rx.ips_mrr(3, propensities=PROPENSITY, estimator="snips", **o),
    ]  # fmt: skip


def names(exprs: list[pl.Expr]) -> list[str]:
    """The output names: the metrics' canonical names, which evaluate reads too."""
    return [e.meta.output_name() for e in exprs]
