"""Typed metric specs and the :class:`Metric` value: what a metric is, checked once.

A metric family is one of three small typed specs:

- :class:`QuerySpec`: a value per query from one aggregation over the
  prepared rows of the query (most metrics);
- :class:`TableSpec`: a value per query from a frame of the prepared rows
  (measures no single aggregation expresses: G, ndcg_rel, Rndcg);
- :class:`CatalogSpec`: a value per `by` group from every ranked list
  (coverage, personalization...).

Each declares its parameters as :class:`Param` with a type and a domain;
:class:`Metric` checks every value against it when it is built, so nothing
downstream re-checks or forgets to. A metric's canonical name writes its
non-default parameters by name (``err(max_grade=3)@20``, ``rbp(p=0.8)``);
the registry also reads the short positional forms (``rbp(0.8)``).

This module knows no metric: the metric modules build specs, the registry
lists them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from numbers import Real
from typing import TYPE_CHECKING, ClassVar, Literal

import polars as pl

from polars_rankmetrics._kernel import GainColumns, Rows
from polars_rankmetrics.exceptions import InvalidParameterError, RankMetricsError
from polars_rankmetrics.exceptions._parameters import check_gain, check_k

if TYPE_CHECKING:
    from polars_rankmetrics.conventions import Conventions

Aggregate = Literal["mean", "sum", "gmean", "none", "weighted"]
Scope = Literal["query", "catalog"]
KRule = Literal["optional", "required", "none"]
ValueKind = Literal["float", "int", "str"]
ParamType = Literal["float", "floats", "gain", "side"]


class SideInput:
    """Data a metric reads besides the evaluation frame: a catalog, item features, popularity.

    Compared by identity, and left out of the metric's name: the name says
    what is computed, the side input is data like the frame itself.
    """

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"SideInput({type(self.value).__name__})"

    def __eq__(self, other: object) -> bool:
        """Identity, but a text (a named mode: ``quantity="etc"``) equals the same text."""
        if isinstance(other, SideInput) and isinstance(self.value, str) and isinstance(other.value, str):
            return self.value == other.value
        return self is other

    def __hash__(self) -> int:
        """The text's hash for a named mode, else the identity's."""
        return hash(self.value) if isinstance(self.value, str) else id(self)


GainPairs = tuple[tuple[float, float], ...]
ParamValue = float | str | tuple[float, ...] | GainPairs | SideInput | None


@dataclass(frozen=True)
class Interval:
    """The domain of a number: bounds, open or closed, and whether it must be whole."""

    low: float = -math.inf
    high: float = math.inf
    low_open: bool = False
    high_open: bool = False
    integer: bool = False

    def __contains__(self, value: float) -> bool:
        """Whether `value` lies in the interval."""
        above = value > self.low if self.low_open else value >= self.low
        below = value < self.high if self.high_open else value <= self.high
        return above and below and (not self.integer or value == int(value))

    def __str__(self) -> str:
        """The domain in words: ``in (0, 1)``, ``a positive integer``, ``a real number``."""
        if self.integer and self.low == 1 and self.high == math.inf:
            return "a positive integer"
        what = "an integer" if self.integer else "a real number"
        if self.low == -math.inf and self.high == math.inf:
            return what
        if self.high == math.inf:
            return f"{what} {'>' if self.low_open else '>='} {_number(self.low)}"
        if self.low == -math.inf:
            return f"{what} {'<' if self.high_open else '<='} {_number(self.high)}"
        left, right = "(" if self.low_open else "[", ")" if self.high_open else "]"
        return f"{what} in {left}{_number(self.low)}, {_number(self.high)}{right}"


ANY = Interval()
POSITIVE = Interval(low=0.0, low_open=True)
UNIT = Interval(low=0.0, high=1.0)
OPEN_UNIT = Interval(low=0.0, high=1.0, low_open=True, high_open=True)
COUNT = Interval(low=1.0, integer=True)


@dataclass(frozen=True)
class Param:
    """One parameter of a metric family: name, default, kind and domain.

    Kinds: ``float`` (one number in `domain`), ``floats`` (numbers, each in
    `domain`; `length` fixes how many; only as the last parameter), ``gain``
    (a ``{grade: gain}`` mapping, or None for the evaluation's ``gain``
    convention) and ``side`` (a frame, Series or number the metric reads;
    never part of the name). A default of None for a ``float`` means the
    parameter must be given.
    """

    name: str
    default: ParamValue
    kind: ParamType = "float"
    domain: Interval = ANY
    length: int | None = None

    def check(self, value: object, metric: str) -> ParamValue:
        """Return `value` normalised (floats as float, lists as tuples), or raise InvalidParameterError."""
        if self.kind == "side":
            return value if isinstance(value, SideInput) or value is None else SideInput(value)
        if value is None and self.default is None:
            return None
        if self.kind == "float":
            return self._number(value, metric)
        if self.kind == "floats":
            values = (value,) if isinstance(value, (int, float)) else value
            if not isinstance(values, (tuple, list)) or not values:
                raise InvalidParameterError.out_of_domain(
                    self.name, "a non-empty list of numbers", value, metric=metric
                )
            if self.length is not None and len(values) != self.length:
                raise InvalidParameterError.out_of_domain(
                    self.name, f"{self.length} numbers", value, metric=metric
                )
            return tuple(self._number(v, metric) for v in values)
        if isinstance(value, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in value):
            value = dict(value)  # the normalised form: parse() and a Metric's own params give it
        gain = check_gain(value)
        if isinstance(gain, str):
            raise InvalidParameterError.out_of_domain(
                self.name, "a {grade: gain} mapping or None", value, metric=metric
            )
        return tuple(sorted((float(g), float(v)) for g, v in gain.items()))

    def _number(self, value: object, metric: str) -> float:
        if isinstance(value, bool) or not isinstance(value, Real):
            raise InvalidParameterError.out_of_domain(self.name, str(self.domain), value, metric=metric)
        try:
            number = float(value)
        except OverflowError:  # an int beyond the float range (10**400)
            number = math.inf
        if not math.isfinite(number) or number not in self.domain:
            raise InvalidParameterError.out_of_domain(self.name, str(self.domain), value, metric=metric)
        return number

    def format(self, value: ParamValue) -> str:
        """The value as its canonical name writes it: ``p=0.8``, ``1=3,2=9``."""
        if self.kind == "gain":
            pairs: GainPairs = value  # type: ignore[assignment]  # checked by `check`
            return ",".join(f"{_number(g)}={_number(v)}" for g, v in pairs)
        if self.kind == "floats":
            numbers: tuple[float, ...] = value  # type: ignore[assignment]
            return f"{self.name}=" + ",".join(_number(v) for v in numbers)
        return f"{self.name}={_number(value)}"  # type: ignore[arg-type]


@dataclass(frozen=True)
class RowInput:
    """A number per row that a family reads besides the frame contract's columns (a propensity, a weight).

    The engine adds it to the frame before the ranking, as the column `name`
    (null where the row has none), and carries it to every kept row: a family
    reads it through :meth:`Rows.input`. It comes from `column`, a column of
    the evaluation frame, or from `join`, which receives the frame and the names
    of its query and item columns and returns the frame with `name` added (a
    side frame joined by item). Beside it the engine carries :attr:`bad`: for a
    row whose value is missing or fails `ok`, a message naming the row (`where`
    gives the value, ``what`` names it, `domain` says what it must be), null for
    the others; a family fails in the plan on the rows it reads that have one.
    The expression builders (one query's rows, no joins) read `column` only.
    """

    name: str
    where: str  # the parameter that gives the value, as messages show it: "`propensities`"
    what: str  # the value's name: "propensity", "weight"
    domain: str  # what it must be: "in (0, 1]"
    ok: Callable[[pl.Expr], pl.Expr]  # whether a (non-null) value is in its domain
    column: str | None = None
    join: Callable[[pl.LazyFrame, str, str], pl.LazyFrame] | None = None

    @property
    def bad(self) -> str:
        """The column of each row's message: its value is missing or outside `domain` (null when fine)."""
        return self.name + "_bad"


PerQuery = Callable[["Metric", Rows], pl.Expr]
RowColumns = Callable[["Metric", Rows], list[pl.Expr]]
Table = Callable[["Metric", GainColumns, pl.LazyFrame, tuple[str, ...]], pl.LazyFrame]
CatalogFrame = Callable[["Metric", pl.LazyFrame, tuple[str, ...], str], pl.LazyFrame]
Keep = Callable[["Metric", Rows], pl.Expr]
Inputs = Callable[["Metric"], tuple[RowInput, ...]]
Needs = Callable[["Metric"], frozenset[str]]
Refuse = Callable[["Metric", "Conventions"], str | None]

ORDER_FREE: Literal["order-free"] = "order-free"
"""``TieSupport.average`` of a family whose value no order of the tied items changes: its own value."""


@dataclass(frozen=True)
class TieSupport:
    """The tie policies a family defines besides ``"text"`` (trec_eval's order, every family's).

    Attributes
    ----------
    extremal
        ``"optimistic"`` and ``"pessimistic"``: the order putting higher
        (lower) grades first inside a tie gives the family's best (worst)
        value over every order of the tied items.
    average
        ``"average"``: the expected value over every order of the tied
        items, in closed form, read from the tie columns of the prepared
        view (``metrics/_ties.py``); :data:`ORDER_FREE` when no order
        changes the value; None when the family does not define it.
    extremal_with_depth, order_free_with_depth
        False where the grade order is extremal (the value order-free) only
        without a depth, which cuts the tied items.
    why
        Why the family defines no more policies, for the error.
    refuse
        The family's own refusal under given conventions (the reason, or
        None): average precision at a cutoff with ``ap_denominator="found"``.
    """

    extremal: bool = False
    average: PerQuery | Literal["order-free"] | None = None
    extremal_with_depth: bool = True
    order_free_with_depth: bool = True
    why: str = ""
    refuse: Refuse | None = None

    def defines(self, policy: str) -> bool:
        """Whether the family defines tie policy `policy` at all (``"text"``: always)."""
        if policy in ("optimistic", "pessimistic"):
            return self.extremal
        return self.average is not None if policy == "average" else policy == "text"


@dataclass(frozen=True)
class Spellings:
    """Other libraries' names of a family, each parsed to it (``nDCG@10`` is ``ndcg@10``).

    Values under another library's name follow this library's conventions;
    its preset (``preset="ranx"``...) gives that library's where they differ.

    Attributes
    ----------
    ir_measures
        ir_measures' measure names (https://ir-measur.es/en/latest/measures.html).
    ranx
        ranx's metric names that are not our names already (https://amenra.github.io/ranx/metrics/).
    torchmetrics
        torchmetrics' class names (``RetrievalNormalizedDCG``, ``AUROC``).
    sklearn
        scikit-learn's scorer names (``roc_auc``).
    recommenders
        The names recommender and RAG libraries give: RecBole
        (https://recbole.io/docs/user_guide/evaluation_support.html), RecTools
        (``rectools.metrics``), LensKit (``lenskit.metrics``), RePlay
        (``replay.metrics``), torchmetrics' functional names
        (``torchmetrics.functional.retrieval``) and LlamaIndex's retrieval
        metrics. Every spelling is also read in any case (``MRR``, ``Map@10``,
        ``hr@10``) when none matches exactly.
    """

    ir_measures: tuple[str, ...] = ()
    ranx: tuple[str, ...] = ()
    torchmetrics: tuple[str, ...] = ()
    sklearn: tuple[str, ...] = ()
    recommenders: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        """Every library's spellings, in the order of the attributes."""
        return (*self.ir_measures, *self.ranx, *self.torchmetrics, *self.sklearn, *self.recommenders)


MeasureParams = Literal["none", "cutoffs", "levels", "numbers", "pairs"]
"""How a trec_eval measure reads its parameters (its meas_init.c):

- ``none``: no parameter (``map``);
- ``cutoffs``: integer cutoffs, sorted, one line each (``P.5,10``: ``P_5``, ``P_10``);
- ``levels``: real cutoffs, sorted, one line each (``iprec_at_recall..1``: ``iprec_at_recall_0.10``);
- ``numbers``: real parameters in the order given, one line (``utility.2,-1,0,0``);
- ``pairs``: name=value parameters, one line (``ndcg.1=3,2=9``).
"""
MeasureAverage = Literal["mean", "gm", "sum", "num_rel", "count", "none"]
"""How trec_eval's ``all`` line combines the per-query values (meas_avg.c, the m_*.c calc_avg):

- ``mean``: a running double sum over the queries in trec_eval's order, over their number;
- ``gm``: the same over ``log(max(value, 1e-5))``, then exp (gm_map, gm_bpref);
- ``sum``: the sum of the counts (num_ret, num_rel_ret, num_nonrel_judged_ret);
- ``num_rel``: the sum of the counts; with -c the judgments graded above 0, whatever -l;
- ``count``: the number of queries (num_q);
- ``none``: no average (relstring).
"""
MeasureBuild = Callable[..., "Metric"]
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
"""trec_eval's default cutoffs (P, recall, ndcg_cut, map_cut, relative_P)."""
TENTHS = tuple(i / 10 for i in range(11))
"""trec_eval's default recall levels (iprec_at_recall, 11pt_avg)."""
FIFTHS = tuple(i / 5 for i in range(1, 11))
"""trec_eval's default multiples of R (Rprec_mult)."""


@dataclass(frozen=True)
class TrecMeasure:
    """A trec_eval measure of a family: how ``trec_eval -m`` (and the ``rankmetrics`` command) reads it.

    Attributes
    ----------
    name
        trec_eval's measure name, as written after ``-m`` (``P``, ``ndcg_cut``).
    position
        Its place in trec_eval's output (measures.c, te_trec_measures):
        trec_eval prints measures in that order whatever the order of -m.
    params
        How the measure reads parameters (:data:`MeasureParams`).
    default
        The parameters trec_eval uses when none are given.
    per_query, summary
        Whether trec_eval prints the measure per query (``-q``) and in the
        ``all`` lines.
    average
        How the ``all`` line combines the per-query values (:data:`MeasureAverage`).
    empty_nan
        Whether trec_eval's value of an empty ranking (``-J`` leaving nothing)
        is 0/0 at the recall levels that round to no relevant document
        (``iprec_at_recall``, ``11pt_avg``): trec_eval prints ``-nan``.
    build
        The metric for one parameter value when the registry cannot read it
        from the line name: a level (``levels``), the tuple of numbers
        (``numbers``), the ``{name: value}`` pairs (``pairs``). None: the
        registry parses trec_eval's line name (``map``, ``P_5``).
    """

    name: str
    position: int
    params: MeasureParams = "none"
    default: tuple[float, ...] = ()
    per_query: bool = True
    summary: bool = True
    average: MeasureAverage = "mean"
    empty_nan: bool = False
    build: MeasureBuild | None = None


@dataclass(frozen=True, kw_only=True)
class MetricSpec:
    """What every metric family declares.

    Attributes
    ----------
    name
        The canonical name (``ndcg``); `aliases` are other accepted spellings
        and `trec` trec_eval's (``"P_{k}"`` takes a cutoff,
        ``"iprec_at_recall_{x}"`` the first parameter).
    function
        The constructor's name, ``prm.<function>`` and ``df.rank.<function>``
        (the canonical name unless it is no Python name or shadows one).
    aggregate
        How per-query values combine: mean, sum (counts), gmean (trec_eval's
        gm_*), weighted (a ratio of sums), none (text).
    k
        Whether the family takes a cutoff: optional, required or none.
    needs
        Prepared columns beyond the basic ones (``hit_rank``, ``gain``...).
    keep
        The rows the family reads (a predicate over the :class:`Rows` view
        of the prepared frame); None means every row.
    unretrieved
        Whether its value reads the judged items the run did not retrieve
        (the number of relevant items R, the ideal ranking, the judged
        non-relevant items): a frame that lost them (an inner or left join
        of run and judgments) changes it, and evaluate warns. A catalog
        family that declares it also receives, among its lists, the
        relevant rows no list ranked (with a null rank; pop_reo).
    needs_of
        The prepared columns a parameter value adds to `needs` (rbo's
        ``tie_handling="aware"`` reads the tie groups); None adds none.
    ties
        The tie policies it defines besides trec_eval's order (:class:`TieSupport`).
    spellings
        Other libraries' names of the family (:class:`Spellings`).
    measures
        trec_eval's measures that print the family (:class:`TrecMeasure`):
        what the ``rankmetrics`` command reads after ``-m``.
    top_k_only
        Whether its value at a cutoff k reads only the grades of the first k
        retrieved items, the number retrieved only as ``min(k, n)``, and the
        query's judgments (R, the ideal ranking): fusion's search then cuts
        each candidate's list at k (``fusion/_cut.py``).
    refuse
        Why the family cannot read the given conventions (a gain convention its
        definition has no place for), or None when it can: evaluate raises
        :class:`InvalidParameterError` with the reason.
    judgments
        Whether its value reads the relevance column; False for a family
        that compares rankings only (rbo): its frame needs none.
    """

    name: str
    function: str = ""
    aggregate: Aggregate = "mean"
    k: KRule = "optional"
    needs: frozenset[str] = frozenset()
    kind: ValueKind = "float"
    aliases: tuple[str, ...] = ()
    trec: tuple[str, ...] = ()
    params: tuple[Param, ...] = ()
    keep: Keep | None = None
    unretrieved: bool = False
    needs_of: Needs | None = None
    ties: TieSupport = TieSupport()
    spellings: Spellings = Spellings()
    measures: tuple[TrecMeasure, ...] = ()
    top_k_only: bool = False
    refuse: Refuse | None = None
    judgments: bool = True
    scope: ClassVar[Scope] = "query"

    @property
    def python_name(self) -> str:
        """The constructor's name."""
        return self.function or self.name

    @property
    def graded(self) -> bool:
        """Whether the family reads gains (and so has a gain convention)."""
        return "gain" in self.needs


@dataclass(frozen=True, kw_only=True)
class QuerySpec(MetricSpec):
    """A per-query metric: one aggregation over the query's rows, read through a :class:`Rows` view.

    `value` (and `weight`) receive the view and return one aggregation: the
    engine passes the view of its prepared frame, ``polars_rankmetrics.expr``
    the view of one group's rows, so both compute the one definition.
    `rows` lists the per-row columns the prepared view needs besides the
    ranking (ordered windows such as ERR's survival product, each read
    through :meth:`Rows.column`); `whole` the per-query windows over every
    row, computed before the rows outside every family's `keep` are dropped
    (each read through :meth:`Rows.whole_query`); `weight` gives each query's weight under
    the ``weighted`` aggregate: ``sum(value * weight) / sum(weight)``; `inputs` the
    per-row numbers it reads besides the frame contract (:class:`RowInput`: a
    propensity, a weight, from a column or a side frame).
    """

    value: PerQuery
    rows: RowColumns | None = None
    whole: RowColumns | None = None
    weight: PerQuery | None = None
    inputs: Inputs | None = None


@dataclass(frozen=True, kw_only=True)
class TableSpec(MetricSpec):
    """A per-query metric computed as a frame of (keys..., VALUE) from the prepared frame.

    `ordered`, when the family has one, is the same value as one aggregation
    over one query's rows in rank order (a :class:`Rows` view whose rows are
    a list's elements sorted by rank, unretrieved rows last, as
    ``polars_rankmetrics.expr`` reads a group): the family then gets an
    expression builder. `inputs` are the per-row numbers it reads besides
    the frame contract (:class:`RowInput`), carried onto the prepared frame
    as for a :class:`QuerySpec`.
    """

    table: Table
    ordered: PerQuery | None = None
    inputs: Inputs | None = None


COUNTED = "__prm_counted"  # the Int64 count column of a CountState's table
SUMMED = "__prm_summed"  # prefix of the other columns of a table that add up: Int64 counts, Int128 exact sums
LEAST = "__prm_bad"  # prefix of a table's text columns merged by their minimum: the first offending item
CountFrame = Callable[["Metric", pl.LazyFrame, tuple[str, ...]], pl.LazyFrame]


def merged_as(column: str) -> Literal["sum", "min", "key"]:
    """How a column of a :class:`CountState` table merges across tables: summed, least, or a key."""
    if column == COUNTED or column.startswith(SUMMED):
        return "sum"
    return "min" if column.startswith(LEAST) else "key"


@dataclass(frozen=True)
class CountState:
    """A catalog family's value from a table of sums that add up over any split of the lists.

    `table` turns ranked lists into a few rows per `by` group: keys (the
    group, and maybe an item and list length, an item group, a row kind),
    sums (:data:`COUNTED` or named :data:`SUMMED`...: Int64 counts, Int128
    fixed-point sums of floats, :func:`polars_rankmetrics._kernel.fixed_point_sum`)
    and error texts (named :data:`LEAST`..., merged by their minimum). The
    tables of disjoint sets of whole lists, merged per key (:func:`merged_as`:
    a Spark ``groupBy`` with sum and min), are the table of all of them:
    bounded by the groups and distinct items, never by the lists. `value`
    turns the merged table into the family's (by..., VALUE) frame, the bits
    of :meth:`catalog`, which evaluate runs.
    """

    table: CatalogFrame
    value: CountFrame

    def catalog(self, metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
        """The family's value from the ranked lists: `value` of `table`."""
        return self.value(metric, self.table(metric, lists, by, query), by)


@dataclass(frozen=True, kw_only=True)
class CatalogSpec(MetricSpec):
    """A catalog-scope metric: a frame of (by..., VALUE) from every ranked list.

    `catalog` receives the metric, the ranked lists, the `by` keys and the
    query column's name. `saturates`: with its ``catalog`` parameter unset or
    ``"group"`` (the catalog taken from the lists), the value is 1.0 by
    construction once `k` covers every list (coverage): evaluate warns.
    `counts`: the family's mergeable state, when it has one (`catalog` is
    then ``counts.catalog``), which the Spark adapter sums across partitions.
    `per_list`: the value is the mean over the group's lists of a value of
    each list (novelty, ARP...), which ``per_query=True`` gives per list (the
    family's `catalog` run with each list as its own group); the other
    families describe the whole set of lists (coverage, Gini...).
    """

    catalog: CatalogFrame
    saturates: bool = False
    counts: CountState | None = None
    per_list: bool = False
    grades: str | None = None
    """Set when the value reads the ranked items' judgments: what to use without a relevance column."""
    scope: ClassVar[Scope] = "catalog"


def check_cutoff(
    spec: MetricSpec,
    k: int | None,
    error: type[RankMetricsError] = InvalidParameterError,
    written: str | None = None,
) -> None:
    """Refuse a cutoff the family does not take, or no cutoff where it needs one.

    The one rule for both entry points: :class:`Metric` raises
    :class:`~polars_rankmetrics.exceptions.InvalidParameterError`, the
    registry (a name, `written` as typed) raises ``error=UnknownMetricError``.
    """
    if spec.k == "required" and k is None:
        raise error.needs_cutoff(spec.name)
    if spec.k == "none" and k is not None:
        raise error.takes_no_cutoff(spec.name, k if written is None else written)


@dataclass(frozen=True, init=False, eq=True)
class Metric:
    """A metric with its parameters, checked when built; ``str(metric)`` is its canonical name.

    Build one with a constructor (``prm.ndcg(10)``) or :func:`parse`.

    Examples
    --------
    >>> m = prm.parse("ndcg_cut_10")
    >>> m, str(m), m.k
    (Metric('ndcg@10'), 'ndcg@10', 10)
    >>> str(prm.parse("iprec_at_recall_0.10")), str(prm.rbp(p=0.8)), str(prm.parse("err(3)@20"))
    ('iprec_at_recall(recall=0.1)', 'rbp(p=0.8)', 'err(max_grade=3)@20')
    """

    spec: MetricSpec
    k: int | None
    params: tuple[ParamValue, ...]

    def __init__(self, spec: MetricSpec, k: int | None = None, **params: object) -> None:
        """Check the cutoff and every parameter against `spec`."""
        if not isinstance(spec, MetricSpec):
            expected = "a metric spec (a constructor builds one)"
            raise InvalidParameterError.out_of_domain("spec", expected, spec)
        k = check_k(k)  # a numpy integer becomes an int
        check_cutoff(spec, k)
        known = [p.name for p in spec.params]
        unknown = sorted(set(params) - set(known))
        if unknown:
            raise InvalidParameterError.unknown_option(f"metric {spec.name!r}", unknown[0], known)
        values = tuple(p.check(params.get(p.name, p.default), spec.name) for p in spec.params)
        for p, v in zip(spec.params, values, strict=True):
            if p.kind == "float" and v is None:
                raise InvalidParameterError.missing(p.name, str(p.domain), metric=spec.name)
        object.__setattr__(self, "spec", spec)
        object.__setattr__(self, "k", k)
        object.__setattr__(self, "params", values)

    @property
    def name(self) -> str:
        """The family's canonical name (``ndcg`` for ``ndcg@10``)."""
        return self.spec.name

    @property
    def needs(self) -> frozenset[str]:
        """The prepared columns it reads: its family's, and those its parameters add."""
        return self.spec.needs | (self.spec.needs_of(self) if self.spec.needs_of else frozenset())

    def _value(self, name: str) -> ParamValue:
        for spec, value in zip(self.spec.params, self.params, strict=True):
            if spec.name == name:
                return value
        known = [p.name for p in self.spec.params]
        raise InvalidParameterError.unknown_option(f"metric {self.spec.name!r}", name, known)

    def number(self, name: str) -> float:
        """The value of the number parameter `name`."""
        value = self._value(name)
        if not isinstance(value, float):
            raise InvalidParameterError.out_of_domain(
                name, "a number parameter", value, metric=self.spec.name
            )
        return value

    def numbers(self, name: str) -> tuple[float, ...]:
        """The value of the list parameter `name`."""
        value = self._value(name)
        if not isinstance(value, tuple) or not all(isinstance(v, float) for v in value):
            raise InvalidParameterError.out_of_domain(name, "a list parameter", value, metric=self.spec.name)
        return value  # type: ignore[return-value]  # a tuple of floats, checked above

    def side(self, name: str) -> object:
        """The data of the side input `name`, or None when it was not given."""
        value = self._value(name)
        return value.value if isinstance(value, SideInput) else None

    def gain(self) -> Mapping[float, float] | None:
        """The metric's own gain mapping, or None to use the evaluation's."""
        for spec, value in zip(self.spec.params, self.params, strict=True):
            if spec.kind == "gain" and isinstance(value, tuple):
                return {float(g): float(v) for g, v in value}  # type: ignore[misc]
        return None

    def __str__(self) -> str:
        """The canonical name: ``ndcg@10``, ``rbp(p=0.8)``, ``ndcg(1=3,2=9)@10``."""
        shown = [
            p.format(v)
            for p, v in zip(self.spec.params, self.params, strict=True)
            if p.kind != "side" and v != p.default and v is not None
        ]
        # A side input is data and stays out of the name, but a named mode (coverage's
        # catalog="group") is another computation: it shows.
        shown += [
            f"{p.name}={v.value}"
            for p, v in zip(self.spec.params, self.params, strict=True)
            if isinstance(v, SideInput) and isinstance(v.value, str) and v.value != p.default
        ]
        text = self.spec.name + (f"({','.join(shown)})" if shown else "")
        return text if self.k is None else f"{text}@{self.k}"

    def __repr__(self) -> str:
        """``Metric('ndcg@10')``."""
        return f"Metric({str(self)!r})"


def _number(value: float) -> str:
    return repr(int(value)) if value == int(value) else repr(value)
