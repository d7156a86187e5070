"""The values of ``rankmetrics cwl``: cwl_eval's rankings handed to the library's C/W/L measures.

cwl_eval evaluates each ranking of the run (a stretch of one topic's lines)
to a fixed depth (``--max_depth``, 1000): the items past the end of the list
and the unjudged ones take the worst case (gain 0, cost ``--max_cost``) and,
for the residuals, the best case (gain ``--max_gain``, cost ``--min_cost``);
an item whose element type has no cost takes the same unknown cost. This
module builds, from the files, one frame of rankings the measures read
(query: the ranking's number; its items by position; gain, null when
unjudged; cost, null when unknown; the judged items of the topic it did not
retrieve, for the measures that read the totals), and finds where
``cwl_eval`` would stop: INST and NERR refuse a ranking holding a gain
outside [0, 1].
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import NamedTuple

import polars as pl

import polars_rankmetrics as prm
from polars_rankmetrics.cli._cwl_files import CwlRun
from polars_rankmetrics.cli._cwl_measures import CwlMeasure

__all__ = ["QUANTITIES", "Bounds", "cwl_values", "rankings"]

QUANTITIES = ("eu", "etu", "ec", "etc", "ed")
_ITEM = pl.format("{}:{}", "block", "position").alias("item")  # a retrieved item: ranking and position


class Bounds(NamedTuple):
    """cwl_eval's depth, its worst and best cases and gain range (``--max_depth``, gains, costs, ``-r``)."""

    depth: int
    max_gain: float
    min_gain: float
    min_cost: float
    max_cost: float
    residuals: bool


def rankings(run: CwlRun, gains: pl.DataFrame, costs: dict[str, float] | None, depth: int) -> pl.DataFrame:
    """The complete rankings' items to `depth`: (block, topic, position, doc, gain, cost).

    ``gain`` is null for an unjudged item, ``cost`` for an element type the
    cost file does not give (or every item, without a cost file).
    """
    blocks = run.complete
    rows = run.rows.filter((pl.col("block") < blocks) & (pl.col("position") <= depth))
    rows = rows.join(gains, on=["topic", "doc"], how="left", coalesce=True)
    cost = pl.lit(None, pl.Float64)
    if costs:
        cost = pl.col("element_type").replace_strict(costs, default=None, return_dtype=pl.Float64)
    return rows.with_columns(cost.alias("cost")).drop("element_type").sort("block", "position")


def _first_refusal(
    items: pl.DataFrame, blocks: int, measures: Sequence[CwlMeasure], bounds: Bounds
) -> tuple[int, prm.InvalidDataError] | None:
    """The first ranking INST or NERR refuses (a gain outside [0, 1]), and the error naming it."""
    if blocks == 0:
        return None
    for m in measures:  # numpy fails on P@k's C vector (k - 1 ones) longer than the ranking
        k = m.args.get("k")
        if m.cls.name == "PrecisionCWLMetric" and not (isinstance(k, int) and 1 <= k <= bounds.depth + 1):
            why = f"k in [1, --max_depth + 1 = {bounds.depth + 1}] (cwl_eval fails on the first ranking)"
            return 0, prm.InvalidDataError.unusable(m.name, f"needs an integer {why}")
    checked = [m for m in measures if m.cls.gains_01]
    if not checked:
        return None
    gain = pl.col("gain")
    worst = gain.fill_null(0.0)
    best = gain.fill_null(bounds.max_gain)
    per_block = items.group_by("block").agg(
        worst.min().alias("worst_min"),
        worst.max().alias("worst_max"),
        best.min().alias("best_min"),
        best.max().alias("best_max"),
        pl.len().alias("n"),
    )
    every = pl.DataFrame({"block": pl.arange(0, blocks, eager=True).cast(pl.UInt32)})
    table = every.join(per_block, on="block", how="left", coalesce=True).sort("block")
    short = pl.col("n").fill_null(0) < bounds.depth  # padded with 0 (worst) and --max_gain (best)
    pad_best = pl.when(short).then(pl.lit(bounds.max_gain))
    outside_worst = (pl.col("worst_min") < 0) | (pl.col("worst_max") > 1)
    best_low = pl.min_horizontal(pl.col("best_min"), pad_best)
    best_high = pl.max_horizontal(pl.col("best_max"), pad_best)
    outside_best = (best_low < 0) | (best_high > 1)
    outside = outside_worst.fill_null(value=False)
    if bounds.residuals:
        outside = outside | outside_best.fill_null(value=False)
    bad = table.filter(outside)
    if not bad.height:
        return None
    block = int(bad["block"][0])
    error = prm.InvalidDataError.out_of_range(
        "the gain file",
        "ranking",
        block + 1,
        "measure",
        checked[0].name,
        rule=f"{checked[0].name} needs every gain of the ranking, unjudged and padded items "
        f"included, in [0, 1] (cwl_eval stops here)",
    )
    return block, error


def cwl_values(
    run: CwlRun,
    gains: pl.DataFrame,
    costs: dict[str, float] | None,
    measures: Sequence[CwlMeasure],
    bounds: Bounds,
) -> tuple[pl.DataFrame, tuple[int, prm.InvalidDataError] | None]:
    """Every complete ranking's values of every measure, and where cwl_eval would stop, if it would.

    Returns
    -------
    tuple
        A frame of (block, measure: the measure's index, eu, etu, ec, etc,
        ed, and with residuals res_eu ... res_ed), and None or (the first
        ranking cwl_eval refuses, the error).
    """
    blocks = run.complete
    items = rankings(run, gains, costs, bounds.depth)
    stop = _first_refusal(items, blocks, measures, bounds)
    if stop is not None:  # cwl_eval prints the rankings before the one it refuses
        blocks = stop[0]
        items = items.filter(pl.col("block") < blocks)
    if blocks == 0 or not measures:  # an empty metrics file: cwl_eval prints no line
        return pl.DataFrame(schema={"block": pl.UInt32, "measure": pl.UInt32}), stop
    frame = _frame(items, gains, run, blocks)
    frame = frame.join(_trap_rels(frame, gains, run), on="query", how="left")
    table = _evaluate(frame, items, measures, bounds)
    return table, stop


# cwl_eval's class -> the library's C/W/L family and its keyword for each of the class's parameters.
FAMILIES: dict[str, tuple[str, dict[str, str]]] = {
    "PrecisionCWLMetric": ("cwl_precision", {"k": "k"}),
    "RBPCWLMetric": ("cwl_rbp", {"theta": "theta"}),
    "RRCWLMetric": ("cwl_rr", {}),
    "APCWLMetric": ("cwl_ap", {}),
    "TrAPCWLMetric": ("cwl_trap", {}),
    "NDCGCWLMetric": ("cwl_ndcg", {"k": "k"}),
    "INSTCWLMetric": ("cwl_inst", {"T": "target"}),
    "INSQCWLMetric": ("cwl_insq", {"T": "target"}),
    "TBGCWLMetric": ("cwl_tbg", {"halflife": "halflife"}),
    "BPMCWLMetric": ("cwl_bpm", {"T": "target", "K": "budget"}),
    "BPMDCWLMetric": (
        "cwl_bpm_dynamic",
        {"T": "target", "K": "budget", "hb": "hb", "hc": "hc", "gain_med": "gain_med"},
    ),
    "UMeasureCWLMetric": ("cwl_umeasure", {"L": "length"}),
    "IFTGoalCWLMetric": ("cwl_ift_c1", {"T": "target", "b1": "b1", "R1": "r1"}),
    "IFTRateCWLMetric": ("cwl_ift_c2", {"A": "rate", "b2": "b2", "R2": "r2"}),
    "IFTGoalRateCWLMetric": (
        "cwl_ift_c1_c2",
        {"T": "target", "b1": "b1", "R1": "r1", "A": "rate", "b2": "b2", "R2": "r2"},
    ),
    "NERReq8CWLMetric": ("cwl_nerr8", {"k": "k"}),
    "NERReq9CWLMetric": ("cwl_nerr9", {"k": "k"}),
    "NERReq10CWLMetric": ("cwl_nerr10", {"phi": "phi"}),
    "NERReq11CWLMetric": ("cwl_nerr11", {"T": "target"}),
    "SETCWLMetric": ("cwl_set", {"beta": "beta", "k": "k"}),
    "NPVCWLMetric": ("cwl_npv", {"rate": "rate"}),
}


_RANK_TESTED = frozenset({"NDCGCWLMetric", "NERReq8CWLMetric", "NERReq9CWLMetric", "SETCWLMetric"})


def _frame(items: pl.DataFrame, gains: pl.DataFrame, run: CwlRun, blocks: int) -> pl.DataFrame:
    """The rankings as the library's frame: (query: the ranking, item, rank, relevance: the gain).

    A retrieved item is named by its ranking and position (``3:1``; the same
    document twice is two items, as ``cwl_eval`` counts it, and each has the
    cost of its line's element type; TrAP's R, which would count it twice, is
    cwl_eval's count, read from a column, see ``_trap_rels``); each judged document of the topic the
    ranking did not retrieve follows, unranked (``~doc``), its gain clipped
    to [0, 1], for TrAP, which counts the topic's relevant items (gain > 0); a topic without judgments
    gets one unranked item of gain 0, so that the ranking is evaluated.
    """
    retrieved = items.select(
        pl.col("block").alias("query"),
        _ITEM,
        pl.col("position").cast(pl.Int64).alias("rank"),
        pl.col("gain").alias("relevance"),
    )
    topics = pl.DataFrame(
        {"query": pl.arange(0, blocks, eager=True).cast(pl.UInt32), "topic": run.topics[:blocks]}
    )
    seen = items.select("block", "doc").unique()
    judged = (
        topics.join(gains, on="topic", how="inner")
        .join(seen, left_on=["query", "doc"], right_on=["block", "doc"], how="anti")
        .select(
            "query",
            ("~" + pl.col("doc")).alias("item"),
            pl.lit(None, pl.Int64).alias("rank"),
            pl.col("gain").clip(0.0, 1.0).alias("relevance"),  # only read as relevant (> 0) or not
        )
    )
    unjudged = topics.join(gains.select("topic").unique(), on="topic", how="anti").select(
        "query",
        pl.lit("~").alias("item"),
        pl.lit(None, pl.Int64).alias("rank"),
        pl.lit(0.0).alias("relevance"),
    )
    return pl.concat([retrieved, judged, unjudged])


_TRAP = "TrAPCWLMetric"
_R = "__cwl_relevant"  # the frame's column of TrAP's R: cwl_eval's count, one value per ranking


def _trap_rels(frame: pl.DataFrame, gains: pl.DataFrame, run: CwlRun) -> pl.DataFrame:
    """TrAP's R per ranking (query), as cwl_eval counts it: the topic's judged documents with a positive gain.

    The frame's items would count a relevant document a ranking repeats (two
    items, ``3:1`` and ``3:4``) twice: ``cwl_trap(relevant=...)`` reads this
    count instead (in the best case, at least the padded ranking's, as the
    family takes it).
    """
    blocks = frame.select(pl.col("query").unique())
    topics = pl.DataFrame(
        {"query": pl.arange(0, len(run.topics), eager=True).cast(pl.UInt32), "topic": run.topics}
    )
    relevant = gains.filter(pl.col("gain") > 0.0).group_by("topic").agg(pl.len().cast(pl.Float64).alias(_R))
    return (
        blocks.join(topics, on="query", how="left")
        .join(relevant, on="topic", how="left")
        .select("query", pl.col(_R).fill_null(0.0))
    )


def _metrics(measure: CwlMeasure, costs: pl.DataFrame | None, bounds: Bounds) -> list[prm.Metric]:
    """The library's metrics of one measure: its five quantities, worst case, then their residuals.

    TrAP's read R, cwl_eval's count of the topic's relevant documents, from the frame's column.
    """
    family, keywords = FAMILIES[measure.cls.name]
    constructor = getattr(prm, family)
    given = {keywords[name]: value for name, value in measure.args.items()}
    if measure.cls.name in _RANK_TESTED and "k" in given:
        # these classes read k only in `rank < k` (an integer rank): k = 10.0, 2.5 or 0 is the
        # integer max(1, ceil(k)) to them (cwl_eval prints the name with k as written)
        given["k"] = max(1, math.ceil(given["k"]))
    options: dict[str, object] = {
        "costs": costs,
        "max_depth": bounds.depth,
        # INST and NERR take gains in [0, 1]: a ranking cwl_eval evaluates with them never reads
        # --max_gain above 1 (an unjudged or padded item at that gain is refused before)
        "max_gain": min(bounds.max_gain, 1.0) if measure.cls.gains_01 else bounds.max_gain,
        # the others take gains down to --min_gain (INST and NERR refuse a negative one, see above)
        **({} if measure.cls.gains_01 else {"min_gain": min(bounds.min_gain, 0.0)}),
        "min_cost": bounds.min_cost,
        "max_cost": bounds.max_cost,
    }
    if measure.cls.name == _TRAP:
        options["relevant"] = _R
    chosen = ("worst", "residual") if bounds.residuals else ("worst",)
    return [
        constructor(**given, quantity=quantity, bound=bound, **options)
        for bound in chosen
        for quantity in QUANTITIES
    ]


def _evaluate(
    frame: pl.DataFrame,
    items: pl.DataFrame,
    measures: Sequence[CwlMeasure],
    bounds: Bounds,
) -> pl.DataFrame:
    """The measures' values per ranking (the library's C/W/L families), one row per (block, measure)."""
    known = items.filter(pl.col("cost").is_not_null())
    costs = known.select(_ITEM, "cost") if known.height else None
    columns = [*QUANTITIES, *(f"res_{q}" for q in QUANTITIES)][: 10 if bounds.residuals else 5]
    per_measure = [_metrics(m, costs, bounds) for m in measures]
    unique = list({str(metric): metric for metrics in per_measure for metric in metrics}.values())
    with warnings.catch_warnings():  # rankings all unjudged are cwl_eval's everyday input (residuals)
        warnings.simplefilter("ignore", prm.RankMetricsWarning)
        values = prm.evaluate(frame, unique, per_query=True)
    tables = [
        values.select(
            pl.col("query").alias("block"),
            pl.lit(index, pl.UInt32).alias("measure"),
            *(pl.col(str(metric)).alias(name) for metric, name in zip(metrics, columns, strict=True)),
        )
        for index, (measure, metrics) in enumerate(zip(measures, per_measure, strict=True))
    ]
    return pl.concat(tables)
