"""Ranking metrics as plain Polars expressions, for your own ``group_by``, ``over`` and ``select``.

Each builder returns a ``pl.Expr`` that aggregates the rows of the current
group, taken as one query, to the metric's value:

>>> from polars_rankmetrics import expr as rx
>>> df = pl.DataFrame({"query": ["q1", "q1", "q1", "q2", "q2"],
...     "item": ["a", "b", "c", "a", "d"], "score": [0.9, 0.5, 0.1, 0.8, None],
...     "relevance": [0, 1, 1, 0, 1]})
>>> df.group_by("query", maintain_order=True).agg(rx.ndcg(2), rx.average_precision(), pl.len())
shape: (2, 4)
┌───────┬──────────┬──────────┬─────┐
│ query ┆ ndcg@2   ┆ map      ┆ len │
│ ---   ┆ ---      ┆ ---      ┆ --- │
│ str   ┆ f64      ┆ f64      ┆ u32 │
╞═══════╪══════════╪══════════╪═════╡
│ q1    ┆ 0.386853 ┆ 0.583333 ┆ 3   │
│ q2    ┆ 0.0      ┆ 0.0      ┆ 2   │
└───────┴──────────┴──────────┴─────┘
>>> df.with_columns(rx.precision(2).over("query"))  # the query's value on each of its rows
shape: (5, 5)
┌───────┬──────┬───────┬───────────┬─────────────┐
│ query ┆ item ┆ score ┆ relevance ┆ precision@2 │
│ ---   ┆ ---  ┆ ---   ┆ ---       ┆ ---         │
│ str   ┆ str  ┆ f64   ┆ i64       ┆ f64         │
╞═══════╪══════╪═══════╪═══════════╪═════════════╡
│ q1    ┆ a    ┆ 0.9   ┆ 0         ┆ 0.5         │
│ q1    ┆ b    ┆ 0.5   ┆ 1         ┆ 0.5         │
│ q1    ┆ c    ┆ 0.1   ┆ 1         ┆ 0.5         │
│ q2    ┆ a    ┆ 0.8   ┆ 0         ┆ 0.0         │
│ q2    ┆ d    ┆ null  ┆ 1         ┆ 0.0         │
└───────┴──────┴───────┴───────────┴─────────────┘
>>> df.filter(pl.col("query") == "q1").select(rx.reciprocal_rank(), rx.recall(2))  # one query
shape: (1, 2)
┌─────┬──────────┐
│ mrr ┆ recall@2 │
│ --- ┆ ---      │
│ f64 ┆ f64      │
╞═════╪══════════╡
│ 0.5 ┆ 0.5      │
└─────┴──────────┘

The values are ``prm.evaluate(df, metrics, by=..., per_query=True)``'s for
every query evaluate counts, bit for bit: a builder runs the metric's own
definition (its registry spec) on a view of the group's rows computed
inline, where evaluate runs it on its shared ranking (a hypothesis test
ties the two for every builder). Names are the canonical metric names
(``ndcg@10``, ``rbp(p=0.8)``, ``ndcg(1=3,2=9)@10``), so ``.alias`` is
optional.

Conventions (trec_eval's, as evaluate's defaults): rows are ranked by
``score`` descending, or by ``rank`` ascending when ``rank=`` names a rank
column; ties are broken by the item's text descending (integer ids are
compared as text: ``"9"`` before ``"10"``). A null score (or rank) is an
item judged but not retrieved: it counts for R and for the ideal ranking.
A null relevance is an unjudged item, a negative one pooled but unjudged.
``relevance_level``, ``depth`` and ``judged_only`` are the one-query
conventions of :class:`~polars_rankmetrics.Conventions`; the graded
builders (``dcg``, ``ndcg``) also take ``gain`` ("linear", "exponential" or
a ``{grade: gain}`` mapping). Column names default to ``prm.Columns()``'s
and are keywords: ``item=``, ``score=`` or ``rank=``, ``relevance=``.

Population: a group without a judged row (no non-null relevance) gets
null, where evaluate leaves the query out. A judged group that retrieved
nothing gets the metric's value for an empty ranking (0 for most), which
evaluate reports only with ``missing="zero"``. Over queries, aggregate with
evaluate: it knows each metric's rule (mean, sum, geometric mean, ratio of
sums for ``mpr``) and sums exactly.

Builders, one per metric computed from one query's rows (every
``QuerySpec`` of the registry, and the table families whose spec gives the
same value from the query's rows in rank order: the C/W/L measures
``cwl_*``, whose ranking is padded to ``max_depth`` ranks at constant
positions; ``polars_rankmetrics.expr.__all__`` lists
them, and the API reference gives each its page), named as their
constructors (``rx.ndcg`` as ``prm.ndcg``). Per query, ``gm_map`` is AP,
``gm_bpref`` bpref and ``mpr`` the user's own ratio. Not here: ``g``,
``ndcg_rel`` and ``rndcg`` (trec_eval walks the ranking and the ideal
ranking in step: evaluate joins two projections of the frame, which no
single aggregation expresses) and the catalog metrics (``coverage``,
``gini``, ``entropy``, ``personalization``, ``intra_list_similarity``,
``novelty``...), which read every ranked list, not one query's rows.

Engines: each builder sorts the group's rows once (``sort_by`` inside the
aggregation) and reads them in order (``implode().list.eval(...)``), so the
sort runs once however often the metric reads the ranks. Polars 2.1's
streaming engine runs no such order-dependent aggregation itself: for every
builder, the aggregation falls back to the in-memory engine (an
in-memory-map node in ``show_graph(engine="streaming",
plan_stage="physical")``) and the rest of the plan streams. One node per
``group_by().agg(...)``, per ``with_columns`` of ``over`` windows and per
``group_by_dynamic(..., group_by=...)``, whichever builders it holds; one
per builder in ``select``; none in ``group_by_dynamic`` without
``group_by=``, whose own streaming node runs the builders
(``tests/expr/test_engines.py`` checks each builder and each context;
``tests/expr/test_cwl_builders.py`` the C/W/L builders).
evaluate ranks with windows and keeps its whole plan on the streaming
engine. ``benchmarks/bench_expr.py`` measures both: five builders take about
3 times evaluate's per-query time at 1M and 10M rows, and twice that again
at 10M on the streaming engine (whose fallback node collects its input
first); collect such plans with the default engine.

Errors: a parameter outside its domain raises
:class:`~polars_rankmetrics.InvalidParameterError` when the expression is
built. Column dtypes are unknown until the plan runs: a non-numeric score,
rank or relevance column fails at ``collect()`` with Polars'
``InvalidOperationError``, whose expression names the builder and the
column (``polars_rankmetrics.expr.ndcg: the relevance column 'relevance'
must be numeric``). Data checks (duplicate items, NaN scores) are
evaluate's; run ``prm.validate(df)`` on frames you aggregate here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polars_rankmetrics.expr import _builders

if TYPE_CHECKING:  # the builders, for type checkers (written by tools/gen_expr.py)
    from polars_rankmetrics.expr._builders import auroc as auroc
    from polars_rankmetrics.expr._builders import average_precision as average_precision
    from polars_rankmetrics.expr._builders import binary_cost_gain as binary_cost_gain
    from polars_rankmetrics.expr._builders import bpref as bpref
    from polars_rankmetrics.expr._builders import covered_users as covered_users
    from polars_rankmetrics.expr._builders import cwl_ap as cwl_ap
    from polars_rankmetrics.expr._builders import cwl_bpm as cwl_bpm
    from polars_rankmetrics.expr._builders import cwl_bpm_dynamic as cwl_bpm_dynamic
    from polars_rankmetrics.expr._builders import cwl_ift_c1 as cwl_ift_c1
    from polars_rankmetrics.expr._builders import cwl_ift_c1_c2 as cwl_ift_c1_c2
    from polars_rankmetrics.expr._builders import cwl_ift_c2 as cwl_ift_c2
    from polars_rankmetrics.expr._builders import cwl_insq as cwl_insq
    from polars_rankmetrics.expr._builders import cwl_inst as cwl_inst
    from polars_rankmetrics.expr._builders import cwl_ndcg as cwl_ndcg
    from polars_rankmetrics.expr._builders import cwl_nerr8 as cwl_nerr8
    from polars_rankmetrics.expr._builders import cwl_nerr9 as cwl_nerr9
    from polars_rankmetrics.expr._builders import cwl_nerr10 as cwl_nerr10
    from polars_rankmetrics.expr._builders import cwl_nerr11 as cwl_nerr11
    from polars_rankmetrics.expr._builders import cwl_npv as cwl_npv
    from polars_rankmetrics.expr._builders import cwl_precision as cwl_precision
    from polars_rankmetrics.expr._builders import cwl_rbp as cwl_rbp
    from polars_rankmetrics.expr._builders import cwl_rr as cwl_rr
    from polars_rankmetrics.expr._builders import cwl_set as cwl_set
    from polars_rankmetrics.expr._builders import cwl_tbg as cwl_tbg
    from polars_rankmetrics.expr._builders import cwl_trap as cwl_trap
    from polars_rankmetrics.expr._builders import cwl_umeasure as cwl_umeasure
    from polars_rankmetrics.expr._builders import dcg as dcg
    from polars_rankmetrics.expr._builders import eleven_point_average as eleven_point_average
    from polars_rankmetrics.expr._builders import err as err
    from polars_rankmetrics.expr._builders import f1 as f1
    from polars_rankmetrics.expr._builders import f_beta as f_beta
    from polars_rankmetrics.expr._builders import fallout as fallout
    from polars_rankmetrics.expr._builders import gauc as gauc
    from polars_rankmetrics.expr._builders import gauc_weighted as gauc_weighted
    from polars_rankmetrics.expr._builders import gm_bpref as gm_bpref
    from polars_rankmetrics.expr._builders import gm_map as gm_map
    from polars_rankmetrics.expr._builders import hit_rate as hit_rate
    from polars_rankmetrics.expr._builders import hits as hits
    from polars_rankmetrics.expr._builders import infap as infap
    from polars_rankmetrics.expr._builders import iprec_at_recall as iprec_at_recall
    from polars_rankmetrics.expr._builders import ips_hit_rate as ips_hit_rate
    from polars_rankmetrics.expr._builders import ips_mrr as ips_mrr
    from polars_rankmetrics.expr._builders import ips_ndcg as ips_ndcg
    from polars_rankmetrics.expr._builders import ips_precision as ips_precision
    from polars_rankmetrics.expr._builders import ips_rbp as ips_rbp
    from polars_rankmetrics.expr._builders import ips_recall as ips_recall
    from polars_rankmetrics.expr._builders import map_capped as map_capped
    from polars_rankmetrics.expr._builders import mar as mar
    from polars_rankmetrics.expr._builders import mcc as mcc
    from polars_rankmetrics.expr._builders import mpr as mpr
    from polars_rankmetrics.expr._builders import ndcg as ndcg
    from polars_rankmetrics.expr._builders import num_nonrel_judged_ret as num_nonrel_judged_ret
    from polars_rankmetrics.expr._builders import num_q as num_q
    from polars_rankmetrics.expr._builders import num_rel as num_rel
    from polars_rankmetrics.expr._builders import num_rel_ret as num_rel_ret
    from polars_rankmetrics.expr._builders import num_ret as num_ret
    from polars_rankmetrics.expr._builders import pap as pap
    from polars_rankmetrics.expr._builders import partial_auc as partial_auc
    from polars_rankmetrics.expr._builders import precision as precision
    from polars_rankmetrics.expr._builders import psndcg as psndcg
    from polars_rankmetrics.expr._builders import psp as psp
    from polars_rankmetrics.expr._builders import psrecall as psrecall
    from polars_rankmetrics.expr._builders import r_precision as r_precision
    from polars_rankmetrics.expr._builders import rbp as rbp
    from polars_rankmetrics.expr._builders import rbp_resid as rbp_resid
    from polars_rankmetrics.expr._builders import recall as recall
    from polars_rankmetrics.expr._builders import recall_at_precision as recall_at_precision
    from polars_rankmetrics.expr._builders import reciprocal_rank as reciprocal_rank
    from polars_rankmetrics.expr._builders import relative_precision as relative_precision
    from polars_rankmetrics.expr._builders import relstring as relstring
    from polars_rankmetrics.expr._builders import rprec_mult as rprec_mult
    from polars_rankmetrics.expr._builders import set_f as set_f
    from polars_rankmetrics.expr._builders import set_map as set_map
    from polars_rankmetrics.expr._builders import sufficient_reco as sufficient_reco
    from polars_rankmetrics.expr._builders import sufficient_reco_deep as sufficient_reco_deep
    from polars_rankmetrics.expr._builders import unjudged as unjudged
    from polars_rankmetrics.expr._builders import utility as utility

__all__ = [*_builders.__all__]  # noqa: PLE0604  (one builder per query-scope metric, generated)
globals().update({name: getattr(_builders, name) for name in __all__})
