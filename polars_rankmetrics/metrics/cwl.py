"""The C/W/L measures of ``cwl_eval`` 1.0.12 (Azzopardi, Thomas and Moffat, SIGIR 2019).

A C/W/L measure is a user model: the continuation probability C(i) that a
user at rank i goes on to rank i + 1 (Moffat, Bailey, Scholer and Thomas,
2017). From it come the weight W(i) of rank i (the chance of reaching it,
normalised to sum to one: ``W(i) = prod_{j<i} C(j) / sum_r prod_{j<r} C(j)``)
and the chance L(i) of stopping at rank i (``prod_{j<i} C(j) (1 - C(i))``),
and from those five quantities per query:

- ``eu``: expected utility per item, ``sum_i W(i) g(i)`` (the default);
- ``etu``: expected total utility, ``sum_i L(i) sum_{j<=i} g(j)``;
- ``ec``: expected cost per item, ``sum_i W(i) c(i)``;
- ``etc``: expected total cost, ``sum_i L(i) sum_{j<=i} c(j)``;
- ``ed``: expected depth, ``1 / W(1)``.

Public API: one constructor per ``cwl_eval`` measure, each a family of the
registry (``prm.cwl_inst(target=2)``, ``"cwl_inst(target=2)"`` in a metric
list, ``df.rank.cwl_inst(...)``):

| name | cwl_eval's class (its metrics-file line) | parameters (defaults) |
| --- | --- | --- |
| `cwl_precision@k` | `PrecisionCWLMetric(k)` | k (required) |
| `cwl_rr` | `RRCWLMetric()` |  |
| `cwl_ap` | `APCWLMetric()` |  |
| `cwl_trap` | `TrAPCWLMetric()` |  |
| `cwl_rbp` | `RBPCWLMetric(theta)` | theta=0.9 |
| `cwl_ndcg@k` | `NDCGCWLMetric(k)` | k (required) |
| `cwl_inst` | `INSTCWLMetric(T)` | target=1 |
| `cwl_insq` | `INSQCWLMetric(T)` | target=1 |
| `cwl_bpm` | `BPMCWLMetric(T, K)` | target=1, budget=10 |
| `cwl_bpm_dynamic` | `BPMDCWLMetric(T, K, hb, hc, gain_med)` | target=1, budget=10, hb=hc=1, gain_med=0.5 |
| `cwl_umeasure` | `UMeasureCWLMetric(L)` | length=1000 |
| `cwl_tbg` | `TBGCWLMetric(halflife)` | halflife=224 |
| `cwl_ift_c1` | `IFTGoalCWLMetric(T, b1, R1)` | target, b1, r1 (required) |
| `cwl_ift_c2` | `IFTRateCWLMetric(A, b2, R2)` | rate, b2, r2 (required) |
| `cwl_ift_c1_c2` | `IFTGoalRateCWLMetric(T, b1, R1, A, b2, R2)` | target, b1, r1, rate, b2, r2 (required) |
| `cwl_nerr8@k` | `NERReq8CWLMetric(k)` | k (required) |
| `cwl_nerr9@k` | `NERReq9CWLMetric(k)` | k (required) |
| `cwl_nerr10` | `NERReq10CWLMetric(phi)` | phi=0.9 |
| `cwl_nerr11` | `NERReq11CWLMetric(T)` | target=1 |
| `cwl_set@k` | `SETCWLMetric(beta, k)` | k (required), beta=0.5 |
| `cwl_npv` | `NPVCWLMetric(rate)` | rate=0.1 |

Every constructor also takes, keyword-only, ``cwl_eval``'s options:

- ``quantity``: ``"eu"`` (default), ``"etu"``, ``"ec"``, ``"etc"`` or ``"ed"``;
  written in a name as ``cwl_rbp(theta=0.8,quantity=etc)``;
- ``bound``: ``"worst"`` (default: unjudged items gain 0 and cost
  ``max_cost``, what ``cwl_eval`` prints), ``"best"`` (unjudged items and
  the ranks past the list gain ``max_gain`` and cost ``min_cost``) or
  ``"residual"`` (best minus worst: ``cwl_eval -r``'s ``Res`` columns);
- ``gain``: a ``{grade: gain}`` mapping from grades to gains in
  ``[min_gain, max_gain]`` (unmapped grades are their own gain); without one the
  grade is the gain. A judged gain outside ``[min_gain, max_gain]`` is an
  ``InvalidDataError`` (``cwl_eval`` refuses its gain file);
- ``costs``: the cost of each item, a DataFrame with columns ``item`` and
  ``cost``, and ``query`` for costs per query and item (``cwl_eval``'s cost
  file gives each line of a run its element type's cost), or a
  ``{item: cost}`` mapping; ids are compared as text; or the name of a
  column of the frame (``costs="cost"``: each row's own cost, the only form
  the expression builders read); items without a cost (or with a null one)
  cost ``max_cost`` (worst) or ``min_cost`` (best), 1 by default, as
  ``cwl_eval`` does without a cost file; a cost below 0 (or not finite) is an
  error;
- ``max_depth``: ``cwl_eval``'s ``--max_depth`` (1000): every ranking is cut
  or padded to that many ranks, the padding gaining 0 (worst) or
  ``max_gain`` (best) and costing ``max_cost`` (worst) or ``min_cost`` (best);
- ``max_gain``, ``min_cost``, ``max_cost``: ``cwl_eval``'s options (1, 1, 1);
- ``min_gain``: ``cwl_eval``'s ``--min_gain`` (0, at most 0): the least gain
  accepted; every measure but INST and NERR (which take gains in [0, 1] and
  have no ``min_gain``) evaluates negative gains as ``cwl_eval`` does. As in
  ``cwl_eval`` 1.0.12 (whose rankings never receive ``--min_gain``), unjudged
  items and the padding still gain 0 in the worst case; a negative gain is
  not relevant (TrAP's R and RR count the gains above 0), and in the best
  case R is at least the padded ranking's gains with each positive one
  counted as 1 and the negative ones added as they are.

Every quantity and bound of one measure is one metric each:
:func:`with_options` gives a measure with other options (``cwl_eval``'s
ten columns of one measure: five quantities, worst and residual).

How they are computed: each query's ranking is laid out over ``max_depth``
ranks (the list, then the padding), and C, W and L are windows over them in
rank order; the five sums are exact (the same bits in memory, streaming, in
chunks and on Spark). The cost is ``max_depth`` rows per query and measure,
whatever the list's length. Each family also computes the same value from
one query's rows in rank order, one aggregation (its spec's ``ordered``
form): the first ``max_depth`` ranked rows' gains and costs gathered at the
constant positions 1..max_depth, null past the list and filled per bound as
the frame's padding is. That is its ``polars_rankmetrics.expr`` builder
(``df.group_by("query").agg(rx.cwl_inst(target=2))``, or ``.over("query")``),
equal to evaluate's per-query value to the bit; its costs are a column
there (a costs frame or mapping is refused: join it first).

Two of ``cwl_eval``'s definitions, kept as it computes them: AP's C(i) reads
the gains of the padded ranking only (W(i) is proportional to
``sum_{j>=i} g(j)/j``), and TrAP's W divides by R, the query's judged items
with a positive gain (in the best case at least the padded ranking's).

Where ``cwl_eval`` differs from trec_eval:

- Order: ``cwl_eval`` takes the ranking in the order of the run file's lines,
  ignoring rank and score; these families rank as every other (score
  descending, ties by item text descending, trec_eval's order). Write a run
  in that order and the two agree.
- Gains are not grades: ``cwl_eval`` reads the qrels' values as gains in
  [0, 1] and refuses others, so its ``NDCG-k@k`` is DCG with a discount
  normalised to sum to one over k ranks, not trec_eval's ndcg; with grades
  above 1 the two differ until the gains are rescaled (its issue #20): pass
  ``gain={1: 0.5, 2: 1.0}`` for instance.
- Queries: ``cwl_eval`` evaluates the run's topics, judged or not; these
  families follow the evaluation's population (a query without judgments is
  not evaluated).
- Depth: ``cwl_eval`` 1.0.12 fails (numpy's "shapes not aligned") for
  ``PrecisionCWLMetric(k)`` with ``k`` beyond ``--max_depth``; here the
  user reads the ``max_depth`` ranks there are.
- Rounding: ``cwl_eval`` prints four decimals; these families give the full
  double (equal to ``cwl_eval``'s to 1e-12 before its rounding).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Literal

import polars as pl

from polars_rankmetrics._declare import SIDE, constructor, spec_of
from polars_rankmetrics._kernel import GRADE, ITEM, RANK, VALUE, GainColumns, Rows, exact_sum, power
from polars_rankmetrics._spec import (
    COUNT,
    POSITIVE,
    UNIT,
    Interval,
    Metric,
    RowInput,
    SideInput,
    TableSpec,
    TieSupport,
)
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.metrics._side import side_param

__all__ = [
    "cwl_ap",
    "cwl_bpm",
    "cwl_bpm_dynamic",
    "cwl_ift_c1",
    "cwl_ift_c1_c2",
    "cwl_ift_c2",
    "cwl_insq",
    "cwl_inst",
    "cwl_ndcg",
    "cwl_nerr8",
    "cwl_nerr9",
    "cwl_nerr10",
    "cwl_nerr11",
    "cwl_npv",
    "cwl_precision",
    "cwl_rbp",
    "cwl_rr",
    "cwl_set",
    "cwl_tbg",
    "cwl_trap",
    "cwl_umeasure",
]

Quantity = Literal["eu", "etu", "ec", "etc", "ed"]
Bound = Literal["worst", "best", "residual"]
QUANTITIES = ("eu", "etu", "ec", "etc", "ed")
BOUNDS = ("worst", "best", "residual")
NONNEGATIVE = Interval(low=0.0)
NONPOSITIVE = Interval(high=0.0)  # min_gain: gains down to it are accepted
GAIN_AT_MOST_ONE = Interval(low=0.0, high=1.0, low_open=True)  # INST and NERR: gains in [0, 1]

_POS = "__prm_cwl_pos"  # the rank, 1..depth, the padded ranks included
_GAIN = "__prm_cwl_gain"  # the judged gain; null for unjudged items and padded ranks
_COST = "__prm_cwl_cost"  # the item's cost; null when it has none, and on padded ranks
_RELS = "__prm_cwl_rels"  # the query's judged items with a positive gain (TrAP's R)
_BAD = "__prm_cwl_bad"  # the first gain outside [min_gain, max_gain], as text
_BAD_INPUT = "__prm_cwl_bad_input"  # the first message of a column input's value outside its domain
_COST_IN = "__prm_cwl_cost_in:"  # prefix of a cost column carried by the engine (costs="cost")
_RELEVANT_IN = "__prm_cwl_relevant_in:"  # prefix of TrAP's column of R (relevant="r")
_N_RET = "__prm_cwl_m"  # the ranks the list fills, up to depth
# One bound's columns (suffixed "worst" or "best"): the gain and cost of each rank, their running
# sums, the ranks with a positive gain; then W (weight models), C, and the chance of reaching a rank.
_G, _C_, _CG, _CC, _NP = "__prm_cwl_g_", "__prm_cwl_c_", "__prm_cwl_cg_", "__prm_cwl_cc_", "__prm_cwl_np_"
_W, _CONT, _REACH = "__prm_cwl_w", "__prm_cwl_cont", "__prm_cwl_reach"
_Q = "__prm_cwl_q_"  # prefix of the five quantities per query
_LO, _HI = "__prm_cwl_lo", "__prm_cwl_hi"  # the worst and best values of a residual


@dataclass(frozen=True)
class Vectors:
    """One bound's per-rank inputs of a measure, ordered by rank per query.

    Either columns of a frame of every query's ranks (`keys` the query's keys), or the ranks of one
    query as a list's elements in rank order (`keys` None: the expression builders' form).
    ``over`` turns an expression into a window per query in rank order (the expression itself in a
    list), ``whole`` an aggregation into the query's value on every rank.
    """

    pos: pl.Expr  # the rank, Float64
    gain: pl.Expr  # g(i)
    cost: pl.Expr  # c(i)
    cum_gain: pl.Expr  # sum_{j<=i} g(j)
    cum_cost: pl.Expr  # sum_{j<=i} c(j)
    depth: int
    rels: pl.Expr  # the number of relevant items the measure counts (TrAP)
    keys: tuple[str, ...] | None
    stage: pl.Expr | None = None  # the model's stage at each rank (Model.stage), once computed

    def over(self, expr: pl.Expr) -> pl.Expr:
        """`expr` as a window over the query's ranks in order."""
        return expr if self.keys is None else expr.over(list(self.keys), order_by=pl.col(_POS))

    def whole(self, aggregation: pl.Expr) -> pl.Expr:
        """`aggregation` over the query's ranks, on each rank."""
        return aggregation if self.keys is None else aggregation.over(list(self.keys))

    def staged(self) -> pl.Expr:
        """The model's stage (``Model.stage``) at each rank."""
        assert self.stage is not None  # a model that reads a stage declares one
        return self.stage


@dataclass(frozen=True)
class Model:
    """A measure's user model: C(i) from the vectors, or W(i) itself (TrAP, TBG, U-measure)."""

    continuation: Callable[[Metric, Vectors], pl.Expr] | None = None
    weight: Callable[[Metric, Vectors], pl.Expr] | None = None
    stage: Callable[[Metric, Vectors], pl.Expr] | None = None
    """A per-rank window the model reads as ``v.staged()``, computed first (windows do not nest)."""
    normalized: bool = False
    """Whether W is the weight divided by its sum over the ranks (TBG, U-measure)."""


STAGE = "__prm_cwl_stage"


def _gain(m: Metric) -> pl.Expr:
    grade = pl.col(GRADE).cast(pl.Float64)
    mapping = m.gain()
    if not mapping:
        return grade
    return grade.replace(list(mapping), list(mapping.values()))


_QUERY_TEXT = "__prm_cwl_query"  # the query as text, to meet a costs frame's query column


def _cost_frame(m: Metric) -> pl.LazyFrame | None:
    """The costs as a frame of (item as text, cost), with the query as text when they are per query."""
    costs = m.side("costs")
    if costs is None or isinstance(costs, str):  # a column: the engine carries it (_cost_input)
        return None
    if isinstance(costs, pl.DataFrame):
        by_query = [pl.col("query").cast(pl.String).alias(_QUERY_TEXT)] if "query" in costs.columns else []
        return costs.lazy().select(
            *by_query,
            pl.col("item").cast(pl.String).alias(ITEM),
            pl.col("cost").cast(pl.Float64).alias(_COST),
        )
    assert isinstance(costs, Mapping)
    keys = [str(k) for k in costs]
    values = [None if v is None else float(v) for v in costs.values()]
    return pl.LazyFrame({ITEM: keys, _COST: values}, schema={ITEM: pl.String, _COST: pl.Float64})


def _cost_input(m: Metric) -> tuple[RowInput, ...]:
    """The costs as a per-row input when they are a column of the frame (``costs="cost"``)."""
    costs = m.side("costs")
    if not isinstance(costs, str):
        return ()
    return (RowInput(_COST_IN + costs, "`costs`", "cost", "finite and >= 0", _non_negative, column=costs),)


def _relevant_input(m: Metric) -> tuple[RowInput, ...]:
    """TrAP's R as a per-row input when a column of the frame gives it (``relevant="r"``)."""
    relevant = side_param(m, "relevant")
    if not isinstance(relevant, str):
        return ()
    what, domain = "number of relevant items", "finite and >= 0"
    return (RowInput(_RELEVANT_IN + relevant, "`relevant`", what, domain, _non_negative, column=relevant),)


def _inputs(m: Metric) -> tuple[RowInput, ...]:
    """The family's columns of the frame: its costs, TrAP's R."""
    return _cost_input(m) + _relevant_input(m)


def _non_negative(value: pl.Expr) -> pl.Expr:
    return value >= 0.0


def _check_costs(m: Metric) -> None:
    costs = m.side("costs")
    if costs is None or isinstance(costs, str):  # a column: its values are checked in the plan
        return
    if isinstance(costs, pl.DataFrame):
        names = costs.columns
        if "item" not in names or "cost" not in names:
            raise InvalidParameterError.out_of_domain(
                "costs", f"a frame with columns 'item' and 'cost' (it has {names})", costs, metric=m.name
            )
        ids = costs.select("query", "item") if "query" in names else costs.select("item")
        if ids.is_duplicated().any() or ids.null_count().sum_horizontal().item():
            raise InvalidParameterError.out_of_domain(
                "costs",
                "one row per item (per query and item with a query column), no null id",
                costs,
                metric=m.name,
            )
        values = costs["cost"].cast(pl.Float64, strict=False).to_list()
    elif isinstance(costs, Mapping):
        values = list(costs.values())
    else:
        raise InvalidParameterError.out_of_domain(
            "costs",
            "a DataFrame of item and cost, a {item: cost} mapping or a column name",
            costs,
            metric=m.name,
        )
    known = [v for v in values if v is not None]  # a null cost: the item has none
    bad = [v for v in known if not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0]
    if bad:
        raise InvalidParameterError.out_of_domain("costs", "finite costs of 0 or more", bad[0], metric=m.name)


def with_options(metric: Metric, **options: object) -> Metric:
    """The C/W/L `metric` with other options (``quantity``, ``bound``, ``costs``...), its parameters kept.

    Parameters
    ----------
    metric
        A metric of a C/W/L family (``prm.cwl_rbp(theta=0.8)``).
    **options
        The constructor's keyword arguments to change.

    Returns
    -------
    Metric
        The metric its constructor builds with those options.

    Examples
    --------
    >>> from polars_rankmetrics.metrics.cwl import with_options
    >>> rbp = prm.cwl_rbp(theta=0.5)
    >>> metrics = [rbp, with_options(rbp, quantity="ed"), with_options(rbp, bound="best")]
    >>> df = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [2.0, 1.0],
    ...     "relevance": [1.0, 0.5]})
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 3)
    ┌────────────────────┬────────────────────────────────┬───────────────────────────────┐
    │ cwl_rbp(theta=0.5) ┆ cwl_rbp(theta=0.5,quantity=ed) ┆ cwl_rbp(theta=0.5,bound=best) │
    │ ---                ┆ ---                            ┆ ---                           │
    │ f64                ┆ f64                            ┆ f64                           │
    ╞════════════════════╪════════════════════════════════╪═══════════════════════════════╡
    │ 0.625              ┆ 2.0                            ┆ 0.875                         │
    └────────────────────┴────────────────────────────────┴───────────────────────────────┘
    """
    constructors = {spec_of(c).name: c for c in _CONSTRUCTORS()}
    if metric.name not in constructors:
        raise InvalidParameterError.out_of_domain(
            "metric", "a C/W/L metric", str(metric), metric="with_options"
        )
    values: dict[str, object] = {}
    for param, value in zip(metric.spec.params, metric.params, strict=True):
        values[param.name] = value.value if isinstance(value, SideInput) else value
    gain = metric.gain()
    values.update(options)
    if "gain" not in options:
        values["gain"] = gain
    args = () if metric.k is None else (metric.k,)
    return constructors[metric.name](*args, **values)


def _CONSTRUCTORS() -> tuple[Callable[..., Metric], ...]:  # noqa: N802  (read after the module is built)
    return tuple(globals()[name] for name in __all__)


def _check_choice(m: Metric, option: str) -> None:
    value = m.side(option)
    allowed = QUANTITIES if option == "quantity" else BOUNDS
    if value is not None and value not in allowed:
        raise InvalidParameterError.out_of_domain(option, f"one of {list(allowed)}", value, metric=m.name)


def _check(m: Metric) -> None:
    _check_choice(m, "quantity")
    _check_choice(m, "bound")
    _check_costs(m)
    relevant = side_param(m, "relevant")
    if relevant is not None and not isinstance(relevant, str):
        raise InvalidParameterError.out_of_domain("relevant", "a column name", relevant, metric=m.name)
    if m.number("min_cost") > m.number("max_cost"):
        raise InvalidParameterError.out_of_domain(
            "min_cost", f"at most max_cost={m.number('max_cost')!r}", m.number("min_cost"), metric=m.name
        )


def _min_gain(m: Metric) -> float:
    """The least gain the measure accepts: ``min_gain``, 0 for INST and NERR (which have none)."""
    return m.number("min_gain") if any(p.name == "min_gain" for p in m.spec.params) else 0.0


def _rows(m: Metric, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    """The retrieved ranks within depth and the padded ranks up to depth, with gains and costs."""
    depth, top = int(m.number("max_depth")), m.number("max_gain")
    gain = _gain(m)
    judged = pl.col(GRADE).is_not_null()
    outside = judged & ((gain < _min_gain(m)) | (gain > top))
    rank = pl.col(RANK)
    listed = rank.is_not_null() & (rank <= depth)
    column = _cost_input(m)
    given = _relevant_input(m)
    count = (judged & (gain > 0.0)).sum().cast(pl.Float64)
    queries = frame.group_by(list(keys)).agg(
        listed.sum().cast(pl.Int64).alias(_N_RET),
        _relevant(count, [pl.col(r.name) for r in given]).alias(_RELS),
        pl.when(outside).then(gain.cast(pl.String)).drop_nulls().first().alias(_BAD),
        _bad_input([(pl.col(i.name), pl.col(i.bad)) for i in _inputs(m)]).alias(_BAD_INPUT),
    )
    ranked = frame.filter(listed).select(
        *keys,
        rank.cast(pl.Float64).alias(_POS),
        pl.when(judged).then(gain).alias(_GAIN),
        ITEM,
        *(pl.col(c.name).alias(_COST) for c in column),
    )
    costs = _cost_frame(m)  # None for a column: the engine carried it, selected above
    if costs is not None:
        on = [_QUERY_TEXT, ITEM] if _QUERY_TEXT in costs.collect_schema().names() else [ITEM]
        texts = [pl.col(ITEM).cast(pl.String), pl.col(keys[-1]).cast(pl.String).alias(_QUERY_TEXT)]
        ranked = ranked.with_columns(texts).join(costs, on=on, how="left")
    elif not column:
        ranked = ranked.with_columns(pl.lit(None, dtype=pl.Float64).alias(_COST))
    padded = (
        queries.select(*keys, pl.int_ranges(pl.col(_N_RET) + 1, depth + 1).alias(_POS))
        .explode(_POS)
        .filter(pl.col(_POS).is_not_null())
        .select(
            *keys,
            pl.col(_POS).cast(pl.Float64),
            pl.lit(None, dtype=pl.Float64).alias(_GAIN),
            pl.lit(None, dtype=pl.Float64).alias(_COST),
        )
    )
    both = pl.concat([ranked.select(*keys, _POS, _GAIN, _COST), padded])
    per_query = queries.select(*keys, _RELS, _BAD, _BAD_INPUT)
    return both.join(per_query, on=list(keys), how="left", nulls_equal=True)


def _bad_input(inputs: list[tuple[pl.Expr, pl.Expr]]) -> pl.Expr:
    """The message of the first value of a column input outside its domain; a null value is no value.

    A null cost is no cost (max_cost or min_cost); a null R leaves TrAP's count.
    """
    firsts = [pl.when(value.is_not_null()).then(bad).drop_nulls().first() for value, bad in inputs]
    return pl.coalesce(*firsts, pl.lit(None, dtype=pl.String))


def _relevant(count: pl.Expr, given: list[pl.Expr]) -> pl.Expr:
    """TrAP's R: the column's value (its largest on the query's rows) where given, else `count`."""
    return pl.coalesce(*(g.max().cast(pl.Float64) for g in given), count)


def _failure(m: Metric, bad_gain: pl.Expr, bad_input: pl.Expr) -> pl.Expr:
    """The query's data error, in words (null when none): a gain outside the range, then a bad input."""
    low = pl.lit(str(_min_gain(m)) if _min_gain(m) else "0")  # "[0, 1.0]" by default
    high = pl.lit(m.number("max_gain"))
    message = pl.format("a C/W/L gain outside [{}, {}]: {}", low, high, bad_gain)
    return pl.when(bad_gain.is_not_null()).then(message).otherwise(bad_input)


def _bound_columns(
    m: Metric, frame: pl.LazyFrame, keys: tuple[str, ...], best: bool, tag: str
) -> pl.LazyFrame:
    """Add one bound's gains, costs, and their running sums (columns suffixed by `tag`)."""
    fill_gain = m.number("max_gain") if best else 0.0
    fill_cost = m.number("min_cost") if best else m.number("max_cost")
    g = pl.col(_GAIN).fill_null(fill_gain)
    c = pl.col(_COST).fill_null(fill_cost)
    window = {"partition_by": list(keys), "order_by": pl.col(_POS)}
    return frame.with_columns(g.alias(_G + tag), c.alias(_C_ + tag)).with_columns(
        pl.col(_G + tag).cum_sum().over(**window).alias(_CG + tag),  # type: ignore[arg-type]
        pl.col(_C_ + tag).cum_sum().over(**window).alias(_CC + tag),  # type: ignore[arg-type]
        # cwl_eval's count of the padded ranking's relevant items: each positive gain as 1, the
        # negative gains as they are (its Ranking.get_total_rels sums the vector with gains > 0 set to 1)
        pl.when(pl.col(_G + tag) > 0.0)
        .then(1.0)
        .otherwise(pl.col(_G + tag))
        .sum()
        .over(list(keys))
        .alias(_NP + tag),
    )


def _vectors(m: Metric, keys: tuple[str, ...], best: bool, tag: str) -> Vectors:
    rels = pl.col(_RELS)
    if best:
        rels = pl.max_horizontal(pl.col(_NP + tag), rels)
    return Vectors(
        pos=pl.col(_POS),
        gain=pl.col(_G + tag),
        cost=pl.col(_C_ + tag),
        cum_gain=pl.col(_CG + tag),
        cum_cost=pl.col(_CC + tag),
        depth=int(m.number("max_depth")),
        rels=rels,
        keys=keys,
    )


Bind = Callable[[str, pl.Expr], pl.Expr]
"""Names a per-rank expression: a column of the frame (returned as ``pl.col(name)``), or itself in a list."""


def _five(m: Metric, model: Model, v: Vectors, bind: Bind) -> dict[str, pl.Expr]:
    """One bound's five quantities as aggregations over a query's ranks, by name (eu, etu, ec, etc, ed).

    The per-rank stages (the model's stage, W, C, the chance of reaching a rank) go through `bind`,
    in order: each may read the ones before it.
    """
    last = v.pos == float(v.depth)
    if model.stage is not None:
        v = replace(v, stage=bind(STAGE, model.stage(m, v)))
    if model.weight is not None:
        w = bind(_W, model.weight(m, v))
        if model.normalized:  # an exact sum, whatever the row order; times its reciprocal, see _tbg
            w = bind(_W, w * (1.0 / v.whole(exact_sum(w))))
        following = v.over(w.shift(-1))
        c = pl.when(last | (w <= 0.0)).then(0.0).otherwise(following / w)
    else:
        assert model.continuation is not None  # a model has one of the two
        c = model.continuation(m, v)
    cont = bind(_CONT, c.cast(pl.Float64))
    p = bind(_REACH, v.over(cont.cum_prod().shift(1, fill_value=1.0)))
    stop = p * (1.0 - cont)
    sums = {"etu": exact_sum(stop * v.cum_gain), "etc": exact_sum(stop * v.cum_cost)}
    if model.weight is not None:
        sums |= {
            "eu": exact_sum(w * v.gain),
            "ec": exact_sum(w * v.cost),
            "ed": 1.0 / pl.when(v.pos == 1.0).then(w).max(),
        }
    else:
        total = exact_sum(p)
        sums |= {
            "eu": _per_item(p, v.gain, total),
            "ec": _per_item(p, v.cost, total),
            "ed": 1.0 / (1.0 / total),
        }
    return sums


def _quantities(
    m: Metric, model: Model, frame: pl.LazyFrame, keys: tuple[str, ...], best: bool
) -> pl.LazyFrame:
    """One bound's five quantities per query: columns eu, etu, ec, etc, ed."""
    tag = "best" if best else "worst"
    frame = _bound_columns(m, frame, keys, best, tag)
    stages: list[pl.Expr] = []

    def bind(name: str, expr: pl.Expr) -> pl.Expr:
        stages.append(expr.alias(name))
        return pl.col(name)

    sums = _five(m, model, _vectors(m, keys, best, tag), bind)
    for stage in stages:  # one at a time: each reads the ones before (windows do not nest)
        frame = frame.with_columns(stage)
    return frame.group_by(list(keys)).agg(value.alias(_Q + name) for name, value in sums.items())


def _per_item(p: pl.Expr, x: pl.Expr, total: pl.Expr) -> pl.Expr:
    """``sum_i W(i) x(i)`` with W(i) = p(i) / sum p, as cwl_eval's ``dot(W, x)`` where sum p is 0.

    A continuation below 0 (AP on negative gains) can make the chances of reaching the ranks sum
    to 0: cwl_eval's W(i) = p(i) * inf is then NaN where p(i) or x(i) is 0 (inf * 0) and an
    infinity of their sign elsewhere, and its dot product NaN, or that infinity when all agree.
    """
    signs = (p * x).sign()
    infinite = pl.when(((p == 0.0) | (x == 0.0)).any() | (signs.max() != signs.min())).then(float("nan"))
    degenerate = infinite.otherwise(signs.max() * float("inf"))
    return pl.when(total == 0.0).then(degenerate).otherwise(exact_sum(p * x) / total)


def _table_of(model: Model) -> Callable[[Metric, GainColumns, pl.LazyFrame, tuple[str, ...]], pl.LazyFrame]:
    def table(m: Metric, _g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
        _check(m)  # a name read by parse() has not been through the constructor's check
        quantity = str(m.side("quantity") or "eu")
        bound = str(m.side("bound") or "worst")
        rows = _rows(m, frame, keys)
        bad = rows.group_by(list(keys)).agg(pl.col(_BAD).first(), pl.col(_BAD_INPUT).first())
        if bound == "residual":
            worst = _quantities(m, model, rows, keys, best=False).select(
                *keys, pl.col(_Q + quantity).alias(_LO)
            )
            best = _quantities(m, model, rows, keys, best=True).select(
                *keys, pl.col(_Q + quantity).alias(_HI)
            )
            out = worst.join(best, on=list(keys), nulls_equal=True).select(
                *keys, (pl.col(_HI) - pl.col(_LO)).alias(VALUE)
            )
        else:
            out = _quantities(m, model, rows, keys, best=bound == "best").select(
                *keys, pl.col(_Q + quantity).alias(VALUE)
            )
        out = out.join(bad, on=list(keys), how="left", nulls_equal=True)
        failed = _failure(m, pl.col(_BAD), pl.col(_BAD_INPUT))
        return out.select(*keys, pl.coalesce(_errors.in_plan(failed), pl.col(VALUE)).alias(VALUE))

    return table


def _ordered_of(model: Model) -> Callable[[Metric, Rows], pl.Expr]:
    """The table's value from one query's rows in rank order (the rows a list's elements): the builders'.

    The same ranks as the table's frame, laid out as a list: the first ``max_depth`` ranked rows'
    gains and costs gathered at the constant positions 0 .. max_depth - 1, null past the list (the
    padding) as for unjudged items and items without a cost, filled per bound as the table fills.
    """

    def value(m: Metric, rows: Rows) -> pl.Expr:
        _check(m)
        costs = m.side("costs")
        if costs is not None and not isinstance(costs, str):
            raise InvalidParameterError.out_of_domain(
                "costs", "a column name in an expression (join a side frame first)", "a frame or mapping",
                metric=m.name,
            )  # fmt: skip
        quantity = str(m.side("quantity") or "eu")
        bound = str(m.side("bound") or "worst")
        depth = int(m.number("max_depth"))
        mapping = m.gain()
        grade = rows.grade
        gain = grade.replace(list(mapping), list(mapping.values())) if mapping else grade
        judged = grade.is_not_null()
        listed = rows.rank.is_not_null() & (rows.rank <= depth)
        at = pl.int_range(0, depth, dtype=pl.UInt32)  # a constant length: no per-group bound

        def padded(per_row: pl.Expr) -> pl.Expr:
            return per_row.filter(listed).gather(at, null_on_oob=True)

        column = _cost_input(m)
        no_cost = pl.when(listed).then(pl.lit(None, dtype=pl.Float64))  # null on each row
        cost = rows.input(column[0].name) if column else no_cost
        gains = padded(pl.when(judged).then(gain))
        costs_at = padded(cost)
        pos = (at + 1).cast(pl.Float64)

        def per_rank(scalar: pl.Expr) -> pl.Expr:
            # On every rank, as the table's columns: a column divided by a scalar could be multiplied
            # by its reciprocal instead (one ulp off the table's column by column division).
            return pl.when(pos > 0.0).then(scalar)

        count = (judged & (gain > 0.0)).sum().cast(pl.Float64)
        rels = per_rank(_relevant(count, [rows.input(r.name) for r in _relevant_input(m)]))

        def one(*, best: bool) -> pl.Expr:
            g = gains.fill_null(m.number("max_gain") if best else 0.0)
            c = costs_at.fill_null(m.number("min_cost") if best else m.number("max_cost"))
            n_positive = per_rank(pl.when(g > 0.0).then(1.0).otherwise(g).sum())
            v = Vectors(
                pos=pos, gain=g, cost=c, cum_gain=g.cum_sum(), cum_cost=c.cum_sum(), depth=depth,
                rels=pl.max_horizontal(n_positive, rels) if best else rels, keys=None,
            )  # fmt: skip
            return _five(m, model, v, lambda _name, expr: expr)[quantity]

        result = one(best=True) - one(best=False) if bound == "residual" else one(best=bound == "best")
        outside = judged & ((gain < _min_gain(m)) | (gain > m.number("max_gain")))
        bad_gain = pl.when(outside).then(gain.cast(pl.String)).drop_nulls().first()
        bad_input = _bad_input([(rows.input(i.name), rows.input(i.bad)) for i in _inputs(m)])
        return pl.coalesce(_errors.in_plan(_failure(m, bad_gain, bad_input)), result)

    return value


# The user models, transcribed from cwl_eval 1.0.12's cwl/ruler/measures/*.py (each C(i) at rank i).


def _before_k(m: Metric, v: Vectors) -> pl.Expr:
    return v.pos < float(m.k or 0)


def _precision(m: Metric, v: Vectors) -> pl.Expr:
    return pl.when(_before_k(m, v)).then(1.0).otherwise(0.0)


def _rr(_m: Metric, v: Vectors) -> pl.Expr:
    found = v.over((v.gain > 0.0).cast(pl.Int64).cum_sum())
    return pl.when(found == 0).then(1.0).otherwise(0.0)


def _ap(_m: Metric, v: Vectors) -> pl.Expr:
    # C(i) = sum_{j>i} g(j)/j / sum_{j>=i} g(j)/j, 0 where nothing follows, 0 at the last rank.
    below = v.staged()
    after = v.over(below.shift(-1))
    last = v.pos == float(v.depth)
    return pl.when(last | after.is_null() | (after <= 0.0)).then(0.0).otherwise(after / below)


def _ap_stage(_m: Metric, v: Vectors) -> pl.Expr:
    return v.over((v.gain / v.pos).cum_sum(reverse=True))


def _trap(_m: Metric, v: Vectors) -> pl.Expr:
    # W(i) = G'(i) / K(i) / R, G' the running gain with its leading zeros (but the last rank's) made 1;
    # only the leading ones: with negative gains the running gain may come back to 0 further down.
    last = v.pos == float(v.depth)
    leading = v.over((v.cum_gain != 0.0).cast(pl.Int64).cum_sum()) == 0
    gained = pl.when(leading & ~last).then(1.0).otherwise(v.cum_gain)
    w = gained / v.cum_cost
    return pl.when(v.rels > 0.0).then(w / v.rels).otherwise(w)


def _rbp(m: Metric, v: Vectors) -> pl.Expr:
    return v.pos * 0.0 + m.number("theta")


def _ndcg(m: Metric, v: Vectors) -> pl.Expr:
    base = 1.0 / math.log(2.0)  # a reciprocal written out: see _tbg
    ratio = ((v.pos + 1.0).log() * base) / ((v.pos + 2.0).log() * base)
    return pl.when(_before_k(m, v)).then(ratio).otherwise(0.0)


def _inst(m: Metric, v: Vectors) -> pl.Expr:
    t = m.number("target")
    ti = t - v.cum_gain
    return ((v.pos + t + ti - 1.0) / (v.pos + t + ti)).pow(2.0)


def _insq_c(t: float, v: Vectors) -> pl.Expr:
    return ((v.pos + 2.0 * t - 1.0) / (v.pos + 2.0 * t)).pow(2.0)


def _insq(m: Metric, v: Vectors) -> pl.Expr:
    return _insq_c(m.number("target"), v)


def _bpm(m: Metric, v: Vectors) -> pl.Expr:
    going = (v.cum_gain < m.number("target")) & (v.cum_cost < m.number("budget"))
    return pl.when(going).then(1.0).otherwise(0.0)


def _bpm_dynamic(m: Metric, v: Vectors) -> pl.Expr:
    # The gain target moves by hb * (g(i) - gain_med) after each rank; cwl_eval 1.0.12 moves the
    # gain target, not the budget, in its cost loop too (after the gain loop, so without effect):
    # the budget stays K.
    below = (v.cum_gain < v.staged()).cast(pl.Int64)
    going = (v.over(below.cum_min()) == 1) & (v.cum_cost < m.number("budget"))
    return pl.when(going).then(1.0).otherwise(0.0)


def _bpm_target(m: Metric, v: Vectors) -> pl.Expr:
    """The gain target at each rank: T plus hb (g(j) - gain_med) for the ranks j above."""
    step = m.number("hb") * (v.gain - m.number("gain_med"))
    return m.number("target") + v.over(step.cum_sum()) - step


def _umeasure(m: Metric, v: Vectors) -> pl.Expr:
    start = v.staged()
    return (
        pl.when(v.pos == float(v.depth))
        .then(0.0)
        .otherwise((1.0 - start * (1.0 / m.number("length"))).clip(0.0))
    )


def _tbg(m: Metric, v: Vectors) -> pl.Expr:
    # A column is divided by a literal as a multiplication by its reciprocal, or not, depending on
    # the chunk (one query alone, or beside others): the reciprocals are written out, so every
    # query gets the same bits whatever its neighbours.
    h = m.number("halflife")
    return h * power(2.0, v.staged() * (-1.0 / h)) * (1.0 / math.log(2.0))


def _cost_before(_m: Metric, v: Vectors) -> pl.Expr:
    """The cost spent before each rank."""
    return v.over(v.cum_cost.shift(1, fill_value=0.0))


def _c1(m: Metric, v: Vectors) -> pl.Expr:
    t, b1, r1 = m.number("target"), m.number("b1"), m.number("r1")
    return 1.0 - (1.0 + b1 * ((t - v.cum_gain) * r1).exp()).pow(-1.0)


def _c2(m: Metric, v: Vectors) -> pl.Expr:
    a, b2, r2 = m.number("rate"), m.number("b2"), m.number("r2")
    return (1.0 + b2 * ((a - v.cum_gain / v.cum_cost) * r2).exp()).pow(-1.0)


def _c1_c2(m: Metric, v: Vectors) -> pl.Expr:
    return _c1(m, v) * _c2(m, v)


def _nerr8(m: Metric, v: Vectors) -> pl.Expr:
    return pl.when(_before_k(m, v)).then(1.0 - v.gain).otherwise(0.0)


def _nerr9(m: Metric, v: Vectors) -> pl.Expr:
    return pl.when(_before_k(m, v)).then((v.pos / (v.pos + 1.0)) * (1.0 - v.gain)).otherwise(0.0)


def _nerr10(m: Metric, v: Vectors) -> pl.Expr:
    return m.number("phi") * (1.0 - v.gain)


def _nerr11(m: Metric, v: Vectors) -> pl.Expr:
    return _insq_c(m.number("target"), v) * (1.0 - v.gain)


def _set(m: Metric, v: Vectors) -> pl.Expr:
    beta = m.number("beta")

    def weight(i: pl.Expr) -> pl.Expr:
        return (i + 1.0).pow(beta) - i.pow(beta)

    return pl.when(_before_k(m, v)).then(weight(v.pos + 1.0) / weight(v.pos)).otherwise(0.0)


def _npv(m: Metric, v: Vectors) -> pl.Expr:
    return v.pos * 0.0 + 1.0 / (1.0 + m.number("rate"))


def _refuse_gain(_m: Metric, conventions: Conventions) -> str | None:
    """A C/W/L family takes its gains from the grades or its own ``gain=`` mapping, never evaluate's."""
    if conventions.gain == "linear":
        return None
    return (
        "reads its gains in [0, 1] from the grades or from its own gain= mapping (cwl_eval's gain file), "
        f"not from evaluate's gain={conventions.gain!r}: write prm.cwl_...(gain={{grade: gain}})"
    )


def _spec(name: str, model: Model, *, unretrieved: bool = False) -> TableSpec:
    return TableSpec(
        name=name,
        needs=frozenset({"grade", "item"}),
        unretrieved=unretrieved,
        refuse=_refuse_gain,
        table=_table_of(model),
        ordered=_ordered_of(model),
        inputs=_inputs,
        ties=TieSupport(why="a C/W/L measure reads the ranking in one order, as cwl_eval reads its run file"),
    )


def _c(function: Callable[[Metric, Vectors], pl.Expr]) -> Model:
    return Model(continuation=function)


def _w(function: Callable[[Metric, Vectors], pl.Expr]) -> Model:
    return Model(weight=function)


PRECISION = _spec("cwl_precision", _c(_precision))
RR = _spec("cwl_rr", _c(_rr))
AP = _spec("cwl_ap", Model(continuation=_ap, stage=_ap_stage))
TRAP = _spec("cwl_trap", _w(_trap), unretrieved=True)
RBP = _spec("cwl_rbp", _c(_rbp))
NDCG = _spec("cwl_ndcg", _c(_ndcg))
INST = _spec("cwl_inst", _c(_inst))
INSQ = _spec("cwl_insq", _c(_insq))
BPM = _spec("cwl_bpm", _c(_bpm))
BPM_DYNAMIC = _spec("cwl_bpm_dynamic", Model(continuation=_bpm_dynamic, stage=_bpm_target))
UMEASURE = _spec("cwl_umeasure", Model(weight=_umeasure, stage=_cost_before, normalized=True))
TBG = _spec("cwl_tbg", Model(weight=_tbg, stage=_cost_before, normalized=True))
IFT_C1 = _spec("cwl_ift_c1", _c(_c1))
IFT_C2 = _spec("cwl_ift_c2", _c(_c2))
IFT_C1_C2 = _spec("cwl_ift_c1_c2", _c(_c1_c2))
NERR8 = _spec("cwl_nerr8", _c(_nerr8))
NERR9 = _spec("cwl_nerr9", _c(_nerr9))
NERR10 = _spec("cwl_nerr10", _c(_nerr10))
NERR11 = _spec("cwl_nerr11", _c(_nerr11))
SET = _spec("cwl_set", _c(_set))
NPV = _spec("cwl_npv", _c(_npv))


@constructor(PRECISION, check=_check)
def cwl_precision(  # noqa: PLR0913  (cwl_eval's options, each named)
    k: int,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``PrecisionCWLMetric(k)``.

    C(i) = 1 for i < k, 0 after: W(i) = 1/k over the first k ranks (EU is P@k, ETU the gain in the
    top k).

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    k
        The number of ranks the user reads.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_precision``, averaged over queries.

    References
    ----------
    Van Rijsbergen, 1979; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive metric for
    information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi, Thomas and
    Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_precision(3), prm.cwl_precision(3, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────────┬──────────────────────────────┐
    │ cwl_precision@3 ┆ cwl_precision(quantity=ed)@3 │
    │ ---             ┆ ---                          │
    │ f64             ┆ f64                          │
    ╞═════════════════╪══════════════════════════════╡
    │ 0.5             ┆ 3.0                          │
    └─────────────────┴──────────────────────────────┘
    """


@constructor(RR, check=_check)
def cwl_rr(  # noqa: PLR0913  (cwl_eval's options, each named)
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``RRCWLMetric()``.

    C(i) = 1 until the first rank with a positive gain, 0 from it (EU is the reciprocal rank's
    model).

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_rr``, averaged over queries.

    References
    ----------
    Kantor and Voorhees, 2000; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive metric for
    information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi, Thomas and
    Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_rr(), prm.cwl_rr(quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌────────┬─────────────────────┐
    │ cwl_rr ┆ cwl_rr(quantity=ed) │
    │ ---    ┆ ---                 │
    │ f64    ┆ f64                 │
    ╞════════╪═════════════════════╡
    │ 1.0    ┆ 1.0                 │
    └────────┴─────────────────────┘
    """


@constructor(AP, check=_check)
def cwl_ap(  # noqa: PLR0913  (cwl_eval's options, each named)
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``APCWLMetric()``.

    C(i) = sum_{j>i} g(j)/j / sum_{j>=i} g(j)/j (0 where no gain follows): W(i) is proportional to
    the precision-weighted gain below i (AP's model, over the gains of the padded ranking).

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_ap``, averaged over queries.

    References
    ----------
    Harman, 1992; Moffat et al., 2017; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive metric
    for information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi, Thomas and
    Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_ap(), prm.cwl_ap(quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌────────┬─────────────────────┐
    │ cwl_ap ┆ cwl_ap(quantity=ed) │
    │ ---    ┆ ---                 │
    │ f64    ┆ f64                 │
    ╞════════╪═════════════════════╡
    │ 0.8333 ┆ 1.2857              │
    └────────┴─────────────────────┘
    """


@constructor(TRAP, check=_check)
def cwl_trap(  # noqa: PLR0913  (cwl_eval's options, each named)
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
    relevant: Annotated[object, SIDE] = None,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``TrAPCWLMetric()``.

    W(i) = G'(i) / K(i) / R, not normalised: G'(i) the gain up to i (1 before the first gain), K(i)
    the cost up to i, R the query's judged items with a positive gain (the best bound: at least the
    padded ranking's); C(i) = W(i+1)/W(i).

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).
    relevant
        R from a column of the frame (its largest value on the query's rows),
        as ``cwl_eval`` counts it from its gain file, where the frame's rows
        would count otherwise (a ranking that repeats a relevant document:
        ``rankmetrics cwl`` gives each line of a run its own item); None, or
        a query whose column is null, counts the query's judged items with a
        positive gain.

    Returns
    -------
    Metric
        ``cwl_trap``, averaged over queries.

    References
    ----------
    Harman, 1992 (via cwl_eval's TrAPCWLMetric); Moffat, Bailey, Scholer and Thomas, "INST: an
    adaptive metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017);
    Azzopardi, Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR
    2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_trap(), prm.cwl_trap(quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌──────────┬───────────────────────┐
    │ cwl_trap ┆ cwl_trap(quantity=ed) │
    │ ---      ┆ ---                   │
    │ f64      ┆ f64                   │
    ╞══════════╪═══════════════════════╡
    │ 0.4167   ┆ 3.0                   │
    └──────────┴───────────────────────┘
    """


@constructor(RBP, check=_check)
def cwl_rbp(  # noqa: PLR0913  (cwl_eval's options, each named)
    theta: Annotated[float, UNIT] = 0.9,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``RBPCWLMetric(theta)``.

    C(i) = theta (rank-biased precision).

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    theta
        The user's persistence.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_rbp``, averaged over queries.

    References
    ----------
    Moffat and Zobel, 2008; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive metric for
    information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi, Thomas and
    Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_rbp(theta=0.5), prm.cwl_rbp(theta=0.5, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌────────────────────┬────────────────────────────────┐
    │ cwl_rbp(theta=0.5) ┆ cwl_rbp(theta=0.5,quantity=ed) │
    │ ---                ┆ ---                            │
    │ f64                ┆ f64                            │
    ╞════════════════════╪════════════════════════════════╡
    │ 0.5625             ┆ 2.0                            │
    └────────────────────┴────────────────────────────────┘
    """


@constructor(NDCG, check=_check)
def cwl_ndcg(  # noqa: PLR0913  (cwl_eval's options, each named)
    k: int,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``NDCGCWLMetric(k)``.

    C(i) = log2(i + 1) / log2(i + 2) for i < k, 0 after: W(i) is DCG's discount 1/log2(i + 1)
    normalised over the first k ranks.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    k
        The number of ranks the user reads.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_ndcg``, averaged over queries.

    References
    ----------
    Jarvelin and Kekalainen, 2002; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive metric for
    information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi, Thomas and
    Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_ndcg(3), prm.cwl_ndcg(3, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌────────────┬─────────────────────────┐
    │ cwl_ndcg@3 ┆ cwl_ndcg(quantity=ed)@3 │
    │ ---        ┆ ---                     │
    │ f64        ┆ f64                     │
    ╞════════════╪═════════════════════════╡
    │ 0.5866     ┆ 2.1309                  │
    └────────────┴─────────────────────────┘
    """


@constructor(INST, check=_check)
def cwl_inst(  # noqa: PLR0913  (cwl_eval's options, each named)
    target: Annotated[float, POSITIVE] = 1.0,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, GAIN_AT_MOST_ONE] = 1.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``INSTCWLMetric(T)``.

    C(i) = ((i + T + T_i - 1) / (i + T + T_i))**2 with T_i = T - sum_{j<=i} g(j).
    Its gains lie in [0, 1], as ``cwl_eval`` requires: ``max_gain`` is at most 1.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    target
        T, the gain the user wants.
    quantity, bound, gain, costs, max_depth, max_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_inst``, averaged over queries.

    References
    ----------
    Moffat, Bailey, Scholer and Thomas, ADCS 2015; Moffat, Bailey, Scholer and Thomas, "INST: an
    adaptive metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017);
    Azzopardi, Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR
    2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_inst(target=2), prm.cwl_inst(target=2, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌────────────────────┬────────────────────────────────┐
    │ cwl_inst(target=2) ┆ cwl_inst(target=2,quantity=ed) │
    │ ---                ┆ ---                            │
    │ f64                ┆ f64                            │
    ╞════════════════════╪════════════════════════════════╡
    │ 0.3503             ┆ 3.3684                         │
    └────────────────────┴────────────────────────────────┘
    """


@constructor(INSQ, check=_check)
def cwl_insq(  # noqa: PLR0913  (cwl_eval's options, each named)
    target: Annotated[float, POSITIVE] = 1.0,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``INSQCWLMetric(T)``.

    C(i) = ((i + 2T - 1) / (i + 2T))**2.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    target
        T, the gain the user wants.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_insq``, averaged over queries.

    References
    ----------
    Moffat, Scholer and Thomas, ADCS 2012; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive
    metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi,
    Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_insq(target=2), prm.cwl_insq(target=2, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌────────────────────┬────────────────────────────────┐
    │ cwl_insq(target=2) ┆ cwl_insq(target=2,quantity=ed) │
    │ ---                ┆ ---                            │
    │ f64                ┆ f64                            │
    ╞════════════════════╪════════════════════════════════╡
    │ 0.2701             ┆ 4.5252                         │
    └────────────────────┴────────────────────────────────┘
    """


@constructor(BPM, check=_check)
def cwl_bpm(  # noqa: PLR0913  (cwl_eval's options, each named)
    target: float = 1.0,
    budget: float = 10.0,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``BPMCWLMetric(T, K)``.

    C(i) = 1 while the gain so far is below T and the cost so far below K, then 0 (the static
    Bejeweled player model).

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    target
        T, the gain the user wants.
    budget
        K, the cost the user will spend.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_bpm``, averaged over queries.

    References
    ----------
    Zhang et al., SIGIR 2017; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive metric for
    information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi, Thomas and
    Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_bpm(target=1, budget=2), prm.cwl_bpm(target=1, budget=2, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌───────────────────┬───────────────────────────────┐
    │ cwl_bpm(budget=2) ┆ cwl_bpm(budget=2,quantity=ed) │
    │ ---               ┆ ---                           │
    │ f64               ┆ f64                           │
    ╞═══════════════════╪═══════════════════════════════╡
    │ 1.0               ┆ 1.0                           │
    └───────────────────┴───────────────────────────────┘
    """


@constructor(BPM_DYNAMIC, check=_check)
def cwl_bpm_dynamic(  # noqa: PLR0913  (cwl_eval's options, each named)
    target: float = 1.0,
    budget: float = 10.0,
    hb: float = 1.0,
    hc: float = 1.0,
    gain_med: float = 0.5,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``BPMDCWLMetric(T, K, hb, hc, gain_med)``.

    As :func:`cwl_bpm`, the gain target moving by hb (g(i) - gain_med) after each rank; cwl_eval
    1.0.12 leaves the budget at K (its cost loop moves the gain target, after use), and so do these,
    so hc changes nothing.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    target
        T, the gain the user wants at first.
    budget
        K, the cost the user will spend.
    hb
        How far a gain moves the target.
    hc
        cwl_eval's scaling of the budget, without effect in 1.0.12 (kept in the name).
    gain_med
        The gain that moves nothing.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_bpm_dynamic``, averaged over queries.

    References
    ----------
    Zhang et al., SIGIR 2017; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive metric for
    information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi, Thomas and
    Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_bpm_dynamic(target=1, budget=3),
    ...     prm.cwl_bpm_dynamic(target=1, budget=3, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌───────────────────────────┬─────────────────────────────────┐
    │ cwl_bpm_dynamic(budget=3) ┆ cwl_bpm_dynamic(budget=3,quant… │
    │ ---                       ┆ ---                             │
    │ f64                       ┆ f64                             │
    ╞═══════════════════════════╪═════════════════════════════════╡
    │ 1.0                       ┆ 1.0                             │
    └───────────────────────────┴─────────────────────────────────┘
    """


@constructor(UMEASURE, check=_check)
def cwl_umeasure(  # noqa: PLR0913  (cwl_eval's options, each named)
    length: Annotated[float, POSITIVE] = 1000.0,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``UMeasureCWLMetric(L)``.

    W(i) proportional to max(0, 1 - K(i-1)/L) for i < depth (0 at the last rank), K the cost (text
    read) before rank i.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    length
        L, the amount of text after which the user has stopped.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_umeasure``, averaged over queries.

    References
    ----------
    Sakai and Dou, SIGIR 2013; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive metric for
    information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi, Thomas and
    Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_umeasure(length=2), prm.cwl_umeasure(length=2, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌────────────────────────┬─────────────────────────────────┐
    │ cwl_umeasure(length=2) ┆ cwl_umeasure(length=2,quantity… │
    │ ---                    ┆ ---                             │
    │ f64                    ┆ f64                             │
    ╞════════════════════════╪═════════════════════════════════╡
    │ 0.6667                 ┆ 1.5                             │
    └────────────────────────┴─────────────────────────────────┘
    """


@constructor(TBG, check=_check)
def cwl_tbg(  # noqa: PLR0913  (cwl_eval's options, each named)
    halflife: Annotated[float, POSITIVE] = 224.0,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``TBGCWLMetric(halflife)``.

    W(i) proportional to h 2**(-K(i-1)/h) / ln 2, K the cost (time) spent before rank i.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    halflife
        h, the time after which half the users have stopped.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_tbg``, averaged over queries.

    References
    ----------
    Smucker and Clarke, SIGIR 2012; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive metric
    for information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi, Thomas and
    Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_tbg(halflife=2), prm.cwl_tbg(halflife=2, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────────────┬─────────────────────────────────┐
    │ cwl_tbg(halflife=2) ┆ cwl_tbg(halflife=2,quantity=ed… │
    │ ---                 ┆ ---                             │
    │ f64                 ┆ f64                             │
    ╞═════════════════════╪═════════════════════════════════╡
    │ 0.3661              ┆ 3.4142                          │
    └─────────────────────┴─────────────────────────────────┘
    """


@constructor(IFT_C1, check=_check)
def cwl_ift_c1(  # noqa: PLR0913  (cwl_eval's options, each named)
    target: float,
    b1: float,
    r1: float,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``IFTGoalCWLMetric(T, b1, R1)``.

    C(i) = 1 - 1 / (1 + b1 e**((T - G(i)) R1)), G(i) the gain up to i (the goal-only information
    foraging model).

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    target
        T, the gain the user wants.
    b1
        The intercept.
    r1
        How rationally the user stops at the goal.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_ift_c1``, averaged over queries.

    References
    ----------
    Azzopardi, Thomas and Craswell, SIGIR 2018; Moffat, Bailey, Scholer and Thomas, "INST: an
    adaptive metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017);
    Azzopardi, Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR
    2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_ift_c1(target=1, b1=0.9, r1=10),
    ...     prm.cwl_ift_c1(target=1, b1=0.9, r1=10, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────────────────────────┬─────────────────────────────────┐
    │ cwl_ift_c1(target=1,b1=0.9,r1=… ┆ cwl_ift_c1(target=1,b1=0.9,r1=… │
    │ ---                             ┆ ---                             │
    │ f64                             ┆ f64                             │
    ╞═════════════════════════════════╪═════════════════════════════════╡
    │ 0.6545                          ┆ 1.6994                          │
    └─────────────────────────────────┴─────────────────────────────────┘
    """


@constructor(IFT_C2, check=_check)
def cwl_ift_c2(  # noqa: PLR0913  (cwl_eval's options, each named)
    rate: float,
    b2: float,
    r2: float,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``IFTRateCWLMetric(A, b2, R2)``.

    C(i) = 1 / (1 + b2 e**((A - G(i)/K(i)) R2)), G and K the gain and cost up to i (the rate-only
    information foraging model).

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    rate
        A, the rate of gain the user expects.
    b2
        The intercept.
    r2
        How rationally the user stops below the rate.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_ift_c2``, averaged over queries.

    References
    ----------
    Azzopardi, Thomas and Craswell, SIGIR 2018; Moffat, Bailey, Scholer and Thomas, "INST: an
    adaptive metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017);
    Azzopardi, Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR
    2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_ift_c2(rate=0.2, b2=0.9, r2=10),
    ...     prm.cwl_ift_c2(rate=0.2, b2=0.9, r2=10, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────────────────────────┬─────────────────────────────────┐
    │ cwl_ift_c2(rate=0.2,b2=0.9,r2=… ┆ cwl_ift_c2(rate=0.2,b2=0.9,r2=… │
    │ ---                             ┆ ---                             │
    │ f64                             ┆ f64                             │
    ╞═════════════════════════════════╪═════════════════════════════════╡
    │ 0.2446                          ┆ 6.0445                          │
    └─────────────────────────────────┴─────────────────────────────────┘
    """


@constructor(IFT_C1_C2, check=_check)
def cwl_ift_c1_c2(  # noqa: PLR0913, PLR0917  (cwl_eval's options, each named)
    target: float,
    b1: float,
    r1: float,
    rate: float,
    b2: float,
    r2: float,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``IFTGoalRateCWLMetric(T, b1, R1, A, b2, R2)``.

    C(i) = C1(i) C2(i), the goal and rate models of :func:`cwl_ift_c1` and :func:`cwl_ift_c2`
    together.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    target
        T, the gain the user wants.
    b1
        The goal's intercept.
    r1
        How rationally the user stops at the goal.
    rate
        A, the rate of gain the user expects.
    b2
        The rate's intercept.
    r2
        How rationally the user stops below the rate.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_ift_c1_c2``, averaged over queries.

    References
    ----------
    Azzopardi, Thomas and Craswell, SIGIR 2018; Moffat, Bailey, Scholer and Thomas, "INST: an
    adaptive metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017);
    Azzopardi, Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR
    2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_ift_c1_c2(target=1, b1=0.9, r1=10, rate=0.2, b2=0.9, r2=10),
    ...     prm.cwl_ift_c1_c2(target=1, b1=0.9, r1=10, rate=0.2, b2=0.9, r2=10, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────────────────────────┬─────────────────────────────────┐
    │ cwl_ift_c1_c2(target=1,b1=0.9,… ┆ cwl_ift_c1_c2(target=1,b1=0.9,… │
    │ ---                             ┆ ---                             │
    │ f64                             ┆ f64                             │
    ╞═════════════════════════════════╪═════════════════════════════════╡
    │ 0.6554                          ┆ 1.6895                          │
    └─────────────────────────────────┴─────────────────────────────────┘
    """


@constructor(NERR8, check=_check)
def cwl_nerr8(  # noqa: PLR0913  (cwl_eval's options, each named)
    k: int,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, GAIN_AT_MOST_ONE] = 1.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``NERReq8CWLMetric(k)``.

    C(i) = 1 - g(i) for i < k, 0 after (Eq. 8).
    Its gains lie in [0, 1], as ``cwl_eval`` requires: ``max_gain`` is at most 1.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    k
        The rank the user reads to at most.
    quantity, bound, gain, costs, max_depth, max_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_nerr8``, averaged over queries.

    References
    ----------
    Azzopardi, Mackenzie and Moffat, ICTIR 2021; Moffat, Bailey, Scholer and Thomas, "INST: an
    adaptive metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017);
    Azzopardi, Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR
    2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_nerr8(3), prm.cwl_nerr8(3, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────┬──────────────────────────┐
    │ cwl_nerr8@3 ┆ cwl_nerr8(quantity=ed)@3 │
    │ ---         ┆ ---                      │
    │ f64         ┆ f64                      │
    ╞═════════════╪══════════════════════════╡
    │ 1.0         ┆ 1.0                      │
    └─────────────┴──────────────────────────┘
    """


@constructor(NERR9, check=_check)
def cwl_nerr9(  # noqa: PLR0913  (cwl_eval's options, each named)
    k: int,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, GAIN_AT_MOST_ONE] = 1.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``NERReq9CWLMetric(k)``.

    C(i) = i / (i + 1) (1 - g(i)) for i < k, 0 after (Eq. 9).
    Its gains lie in [0, 1], as ``cwl_eval`` requires: ``max_gain`` is at most 1.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    k
        The rank the user reads to at most.
    quantity, bound, gain, costs, max_depth, max_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_nerr9``, averaged over queries.

    References
    ----------
    Azzopardi, Mackenzie and Moffat, ICTIR 2021; Moffat, Bailey, Scholer and Thomas, "INST: an
    adaptive metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017);
    Azzopardi, Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR
    2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_nerr9(3), prm.cwl_nerr9(3, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────┬──────────────────────────┐
    │ cwl_nerr9@3 ┆ cwl_nerr9(quantity=ed)@3 │
    │ ---         ┆ ---                      │
    │ f64         ┆ f64                      │
    ╞═════════════╪══════════════════════════╡
    │ 1.0         ┆ 1.0                      │
    └─────────────┴──────────────────────────┘
    """


@constructor(NERR10, check=_check)
def cwl_nerr10(  # noqa: PLR0913  (cwl_eval's options, each named)
    phi: Annotated[float, UNIT] = 0.9,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, GAIN_AT_MOST_ONE] = 1.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``NERReq10CWLMetric(phi)``.

    C(i) = phi (1 - g(i)) (Eq. 10).
    Its gains lie in [0, 1], as ``cwl_eval`` requires: ``max_gain`` is at most 1.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    phi
        The user's persistence.
    quantity, bound, gain, costs, max_depth, max_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_nerr10``, averaged over queries.

    References
    ----------
    Azzopardi, Mackenzie and Moffat, ICTIR 2021; Moffat, Bailey, Scholer and Thomas, "INST: an
    adaptive metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017);
    Azzopardi, Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR
    2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_nerr10(phi=0.5), prm.cwl_nerr10(phi=0.5, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────────────┬─────────────────────────────────┐
    │ cwl_nerr10(phi=0.5) ┆ cwl_nerr10(phi=0.5,quantity=ed… │
    │ ---                 ┆ ---                             │
    │ f64                 ┆ f64                             │
    ╞═════════════════════╪═════════════════════════════════╡
    │ 1.0                 ┆ 1.0                             │
    └─────────────────────┴─────────────────────────────────┘
    """


@constructor(NERR11, check=_check)
def cwl_nerr11(  # noqa: PLR0913  (cwl_eval's options, each named)
    target: Annotated[float, POSITIVE] = 1.0,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, GAIN_AT_MOST_ONE] = 1.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``NERReq11CWLMetric(T)``.

    C(i) = ((i + 2T - 1) / (i + 2T))**2 (1 - g(i)) (Eq. 11).
    Its gains lie in [0, 1], as ``cwl_eval`` requires: ``max_gain`` is at most 1.

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    target
        T, the gain the user wants.
    quantity, bound, gain, costs, max_depth, max_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_nerr11``, averaged over queries.

    References
    ----------
    Azzopardi, Mackenzie and Moffat, ICTIR 2021; Moffat, Bailey, Scholer and Thomas, "INST: an
    adaptive metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017);
    Azzopardi, Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR
    2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_nerr11(target=2), prm.cwl_nerr11(target=2, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌──────────────────────┬─────────────────────────────────┐
    │ cwl_nerr11(target=2) ┆ cwl_nerr11(target=2,quantity=e… │
    │ ---                  ┆ ---                             │
    │ f64                  ┆ f64                             │
    ╞══════════════════════╪═════════════════════════════════╡
    │ 1.0                  ┆ 1.0                             │
    └──────────────────────┴─────────────────────────────────┘
    """


@constructor(SET, check=_check)
def cwl_set(  # noqa: PLR0913  (cwl_eval's options, each named)
    k: int,
    beta: Annotated[float, UNIT] = 0.5,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``SETCWLMetric(beta, k)``.

    C(i) = w(i+1) / w(i) for i < k, 0 after, with w(i) = (i + 1)**beta - i**beta (the search
    economic model).

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    k
        The rank the user stops at.
    beta
        The diminishing return of each further item.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_set``, averaged over queries.

    References
    ----------
    Azzopardi, SIGIR 2014; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive metric for
    information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi, Thomas and
    Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_set(3), prm.cwl_set(3, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌───────────┬────────────────────────┐
    │ cwl_set@3 ┆ cwl_set(quantity=ed)@3 │
    │ ---       ┆ ---                    │
    │ f64       ┆ f64                    │
    ╞═══════════╪════════════════════════╡
    │ 0.5482    ┆ 2.4142                 │
    └───────────┴────────────────────────┘
    """


@constructor(NPV, check=_check)
def cwl_npv(  # noqa: PLR0913  (cwl_eval's options, each named)
    rate: Annotated[float, NONNEGATIVE] = 0.1,
    *,
    quantity: Annotated[str, SIDE] = "eu",
    bound: Annotated[str, SIDE] = "worst",
    gain: Mapping[float, float] | None = None,
    costs: Annotated[object, SIDE] = None,
    max_depth: Annotated[int, COUNT] = 1000,
    max_gain: Annotated[float, POSITIVE] = 1.0,
    min_gain: Annotated[float, NONPOSITIVE] = 0.0,
    min_cost: Annotated[float, NONNEGATIVE] = 1.0,
    max_cost: Annotated[float, NONNEGATIVE] = 1.0,
) -> Metric:
    """The C/W/L measure of ``cwl_eval``'s ``NPVCWLMetric(rate)``.

    C(i) = 1 / (1 + rate): net present value, rank-biased precision with theta = 1/(1 + rate).

    EU by default; ``quantity=`` gives ETU, EC, ETC or ED, ``bound=`` the best
    case or the residual (module :mod:`polars_rankmetrics.metrics.cwl`).

    Parameters
    ----------
    rate
        The rate at which the user discounts the future.
    quantity, bound, gain, costs, max_depth, max_gain, min_gain, min_cost, max_cost
        ``cwl_eval``'s quantities and options, the same in every C/W/L family
        (see :mod:`polars_rankmetrics.metrics.cwl`).

    Returns
    -------
    Metric
        ``cwl_npv``, averaged over queries.

    References
    ----------
    Azzopardi, Thomas and Moffat, SIGIR 2019; Moffat, Bailey, Scholer and Thomas, "INST: an adaptive
    metric for information retrieval evaluation" and the C/W/L framework (TOIS 2017); Azzopardi,
    Thomas and Moffat, "cwl_eval: an evaluation tool for information retrieval", SIGIR 2019.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [1.0, 0.0, 0.5, 1.0]})
    >>> metrics = [prm.cwl_npv(rate=1), prm.cwl_npv(rate=1, quantity="ed")]
    >>> prm.evaluate(df, metrics).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌─────────────────┬─────────────────────────────┐
    │ cwl_npv(rate=1) ┆ cwl_npv(rate=1,quantity=ed) │
    │ ---             ┆ ---                         │
    │ f64             ┆ f64                         │
    ╞═════════════════╪═════════════════════════════╡
    │ 0.5625          ┆ 2.0                         │
    └─────────────────┴─────────────────────────────┘
    """


SPECS = (
    spec_of(cwl_precision),
    spec_of(cwl_rr),
    spec_of(cwl_ap),
    spec_of(cwl_trap),
    spec_of(cwl_rbp),
    spec_of(cwl_ndcg),
    spec_of(cwl_inst),
    spec_of(cwl_insq),
    spec_of(cwl_bpm),
    spec_of(cwl_bpm_dynamic),
    spec_of(cwl_umeasure),
    spec_of(cwl_tbg),
    spec_of(cwl_ift_c1),
    spec_of(cwl_ift_c2),
    spec_of(cwl_ift_c1_c2),
    spec_of(cwl_nerr8),
    spec_of(cwl_nerr9),
    spec_of(cwl_nerr10),
    spec_of(cwl_nerr11),
    spec_of(cwl_set),
    spec_of(cwl_npv),
)
