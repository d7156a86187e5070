"""Metric names <-> metric specs: parse, format, aggregators, the list of valid names.

A metric is a family name, an optional cutoff ``k`` and the family's
parameters. Its canonical name is ``family(params)@k``, with parameters left
out when they hold their defaults: ``ndcg@10``, ``rbp(0.8)``,
``iprec_at_recall(0.1)``, ``ndcg(1=3,2=9)@10``. trec_eval's names
(``P_10``, ``ndcg_cut_10``, ``iprec_at_recall_0.10``) parse to the same
metrics.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import polars as pl

from polars_rankmetrics._validation import check_gain, check_k, check_real
from polars_rankmetrics.exceptions import InvalidParameterError, UnknownMetricError

if TYPE_CHECKING:
    from polars_rankmetrics._prepare import GainColumns

Aggregate = Literal["mean", "sum", "gmean", "none", "weighted"]
Scope = Literal["query", "catalog"]
KRule = Literal["optional", "required", "none"]
Kind = Literal["float", "int", "str"]
ParamKind = Literal["float", "floats", "gain", "side"]

PerQuery = Callable[["Metric", "GainColumns"], pl.Expr]
RowColumns = Callable[["Metric", "tuple[str, ...]"], "list[pl.Expr]"]
Table = Callable[["Metric", "GainColumns", pl.LazyFrame, "tuple[str, ...]"], pl.LazyFrame]
Catalog = Callable[["Metric", pl.LazyFrame, "tuple[str, ...]"], pl.LazyFrame]
Keep = Callable[["Metric", "GainColumns"], pl.Expr]


class SideInput:
    """Data a metric reads besides the evaluation frame: a catalog, item features, popularity.

    Compared by identity, and left out of the metric's name: the name says
    what is computed, the side input is data like the frame itself.
    """

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"SideInput({type(self.value).__name__})"


ParamValue = float | tuple[float, ...] | tuple[tuple[float, float], ...] | SideInput | None


@dataclass(frozen=True)
class Param:
    """One parameter of a metric family, with its default.

    Kinds: ``float`` (one number), ``floats`` (a list of numbers; only as the
    last parameter), ``gain`` (a ``{grade: gain}`` mapping, or None for
    the evaluation's ``gain`` convention) and ``side`` (a frame, Series or
    number the metric reads; never part of the name).
    """

    name: str
    default: ParamValue
    kind: ParamKind = "float"


@dataclass(frozen=True)
class Family:
    """One metric family: how a query's value is computed and how queries combine."""

    name: str
    per_query: PerQuery
    aggregate: Aggregate
    k: KRule
    needs: frozenset[str]
    kind: Kind
    aliases: tuple[str, ...]
    trec: tuple[str, ...]
    params: tuple[Param, ...]
    rows: RowColumns | None = None
    table: Table | None = None
    scope: Scope = "query"
    catalog: Catalog | None = None
    keep: Keep | None = None
    weight: PerQuery | None = None  # aggregate "weighted": each query's weight in a ratio of sums (mpr)

    @property
    def graded(self) -> bool:
        """Whether the family reads gains (and so has a gain convention)."""
        return "gain" in self.needs


_FAMILIES: dict[str, Family] = {}


def register(  # noqa: PLR0913
    name: str,
    *,
    aggregate: Aggregate = "mean",
    k: KRule = "optional",
    needs: frozenset[str] = frozenset(),
    kind: Kind = "float",
    aliases: tuple[str, ...] = (),
    trec: tuple[str, ...] = (),
    params: tuple[Param, ...] = (),
    rows: RowColumns | None = None,
    table: Table | None = None,
    catalog: Catalog | None = None,
    keep: Keep | None = None,
    weight: PerQuery | None = None,
) -> Callable[[PerQuery], PerQuery]:
    """Register a per-query expression builder under `name` (a decorator).

    `trec` holds trec_eval spellings: ``"P_{k}"`` takes a cutoff,
    ``"iprec_at_recall_{x}"`` the family's first parameter, ``"map"`` neither.
    `rows` builds per-row columns the family reads, added after the ranking
    (ordered windows such as ERR's survival product); keys are the window keys.
    `table` computes the metric instead as a frame of (keys..., value) from
    the prepared frame, for measures no single aggregation expresses.
    `catalog` makes a catalog-scope metric: computed per `by` group from every
    ranked list (judged or not) as a frame of (by..., value); never per query.
    `weight` (with ``aggregate="weighted"``) gives each query's weight: queries
    combine as ``sum(value * weight) / sum(weight)``, a ratio of sums.
    `keep` gives the rows the family reads (a predicate over the first-stage
    columns: REL, RANK, GRADE, gains); None means every row. When every
    requested family has one, the other rows are dropped before the
    per-query work: most rows of a run matter to no metric.
    """

    def decorate(fn: PerQuery) -> PerQuery:
        _FAMILIES[name] = Family(
            name, fn, aggregate, k, needs, kind, aliases, trec, params, rows=rows, table=table,
            scope="query" if catalog is None else "catalog", catalog=catalog, keep=keep, weight=weight,
        )  # fmt: skip
        return fn

    return decorate


def _check_param(param: Param, value: object, family: str) -> ParamValue:
    where = f"`{param.name}` of metric {family!r}"
    if value is None and param.default is None:
        return None
    if param.kind == "side":
        return value if isinstance(value, SideInput) else SideInput(value)
    if param.kind == "float":
        return check_real(value, where)
    if param.kind == "floats":
        if isinstance(value, (int, float)):
            value = (value,)
        if not isinstance(value, (tuple, list)) or not value:
            msg = f"{where} must be a non-empty list of numbers, got {value!r}"
            raise InvalidParameterError(msg)
        return tuple(check_real(v, where) for v in value)
    if isinstance(value, tuple) and all(isinstance(pair, tuple) and len(pair) == 2 for pair in value):  # noqa: PLR2004
        value = dict(value)  # the normalised form: parse() and a Metric's own params give it
    gain = check_gain(value)
    if isinstance(gain, str):
        msg = f"{where} must be a {{grade: gain}} mapping or None, got {value!r}"
        raise InvalidParameterError(msg)
    return tuple(sorted((float(g), float(v)) for g, v in gain.items()))


@dataclass(frozen=True)
class Metric:
    """A metric with its parameters; ``str(metric)`` is its canonical name.

    Build one with a metric function (``prm.ndcg(10)``) or :func:`parse`.

    Examples
    --------
    >>> m = prm.parse("ndcg_cut_10")
    >>> m, str(m)
    (Metric(name='ndcg', k=10, params=(None,)), 'ndcg@10')
    >>> str(prm.parse("iprec_at_recall_0.10")), str(prm.rbp(p=0.8))
    ('iprec_at_recall(0.1)', 'rbp(0.8)')
    """

    name: str
    k: int | None = None
    params: tuple[ParamValue, ...] = ()
    family: Family = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Check the name, the cutoff and the parameters against the registry."""
        fam = families().get(self.name)
        if fam is None:
            raise _unknown(self.name)
        check_k(self.k)
        if fam.k == "required" and self.k is None:
            msg = f"metric {self.name!r} needs a cutoff: write {self.name}@k"
            raise UnknownMetricError(msg)
        if fam.k == "none" and self.k is not None:
            msg = f"metric {self.name!r} takes no cutoff, got {self.name}@{self.k}"
            raise UnknownMetricError(msg)
        if len(self.params) > len(fam.params):
            msg = f"metric {self.name!r} takes {len(fam.params)} parameter(s), got {self.params!r}"
            raise InvalidParameterError(msg)
        given = list(self.params) + [p.default for p in fam.params[len(self.params) :]]
        checked = tuple(_check_param(p, v, self.name) for p, v in zip(fam.params, given))
        object.__setattr__(self, "params", checked)
        object.__setattr__(self, "family", fam)

    def param(self, name: str) -> ParamValue:
        """Return the value of the parameter called `name`."""
        for spec, value in zip(self.family.params, self.params):
            if spec.name == name:
                return value
        msg = f"metric {self.name!r} has no parameter {name!r}"
        raise InvalidParameterError(msg)

    def __str__(self) -> str:
        """Return the canonical name, e.g. ``ndcg@10`` or ``rbp(0.8)``."""
        named = [(s, v) for s, v in zip(self.family.params, self.params) if s.kind != "side"]
        shown = [i for i, (spec, value) in enumerate(named) if value != spec.default]
        text = self.name
        if shown:
            # A non-default parameter shows every parameter before it too, so it parses back.
            last = max(shown)
            text += "(" + ",".join(_format_param(s, v) for s, v in named[: last + 1]) + ")"
        return text if self.k is None else f"{text}@{self.k}"

    def gain(self) -> Mapping[float, float] | None:
        """Return the metric's own gain mapping, or None to use the evaluation's."""
        for spec, value in zip(self.family.params, self.params):
            if spec.kind == "gain" and value is not None:
                return dict(value)  # type: ignore[arg-type]
        return None

    def per_query(self, gain_columns: GainColumns) -> pl.Expr:
        """Return the per-query aggregation over the prepared internal columns."""
        return self.family.per_query(self, gain_columns)


def _number(value: float) -> str:
    return repr(int(value)) if value == int(value) else repr(value)


def _format_param(spec: Param, value: ParamValue) -> str:
    if spec.kind == "float":
        return _number(value)  # type: ignore[arg-type]
    if spec.kind == "floats":
        return ",".join(_number(v) for v in value)  # type: ignore[union-attr, arg-type]
    if value is None:
        return ""
    return ",".join(f"{_number(g)}={_number(v)}" for g, v in value)  # type: ignore[union-attr, misc]


def _parse_params(fam: Family, text: str, name: str) -> tuple[ParamValue, ...]:
    parts = [p.strip() for p in text.split(",")] if text.strip() else []
    values: list[ParamValue] = []
    try:
        for i, spec in enumerate(p for p in fam.params if p.kind != "side"):
            if i >= len(parts) and spec.kind != "gain":
                break
            if spec.kind == "float":
                values.append(float(parts[i]))
            elif spec.kind == "floats":
                values.append(tuple(float(p) for p in parts[i:]))
                parts = parts[: i + 1]
            else:
                pairs = [p.split("=") for p in parts[i:] if p]
                values.append(tuple((float(g), float(v)) for g, v in pairs) or None)
                parts = parts[: i + 1]
    except ValueError:
        msg = f"cannot read the parameters of metric {name!r}"
        raise UnknownMetricError(msg) from None
    if len(parts) > len(fam.params):
        msg = f"metric {name!r} takes {len(fam.params)} parameter(s)"
        raise UnknownMetricError(msg)
    return tuple(values)


def families() -> dict[str, Family]:
    """Return every registered family by canonical name."""
    import polars_rankmetrics.metrics  # noqa: F401, PLC0415  (registers the families)

    return _FAMILIES


def valid_names() -> list[str]:
    """Return every accepted spelling: canonical names and aliases, then trec_eval's.

    Examples
    --------
    >>> names = prm.valid_names()
    >>> "ndcg@k" in names, "ndcg_cut_k" in names, "recip_rank" in names
    (True, True, True)
    """
    canonical: list[str] = []
    trec: list[str] = []
    for fam in families().values():
        named = [p.name for p in fam.params if p.kind != "side"]
        args = "(" + ",".join(named) + ")"
        for spelled in (fam.name, *fam.aliases):
            forms = [spelled, spelled + args] if named else [spelled]
            for form in forms:
                if fam.k != "required":
                    canonical.append(form)
                if fam.k != "none":
                    canonical.append(f"{form}@k")
        trec.extend(t.replace("{k}", "k") for t in fam.trec)
    return list(dict.fromkeys([*canonical, *trec]))


def _unknown(name: str) -> UnknownMetricError:
    msg = f"unknown metric {name!r}; valid names: {', '.join(valid_names())}"
    return UnknownMetricError(msg)


_CANONICAL = re.compile(r"^(?P<name>[A-Za-z_0-9]+?)(?:\((?P<params>[^()]*)\))?(?:@(?P<k>-?\d+))?$")
_PLACEHOLDERS = {"{k}": r"(?P<k>\d+)", "{x}": r"(?P<x>\d*\.?\d+)"}


@functools.lru_cache(maxsize=None)
def _trec_pattern(spelled: str) -> re.Pattern[str]:
    pattern = re.escape(spelled)
    for placeholder, group in _PLACEHOLDERS.items():
        pattern = pattern.replace(re.escape(placeholder), group)
    return re.compile(pattern)


def parse(name: str | Metric) -> Metric:
    """Return the metric a name spells: canonical (``ndcg@10``) or trec_eval (``ndcg_cut_10``).

    Parameters
    ----------
    name
        A metric name, or a :class:`Metric` (returned unchanged).

    Returns
    -------
    Metric

    Raises
    ------
    UnknownMetricError
        The name is not a metric; the message lists the valid names.

    Examples
    --------
    >>> [str(prm.parse(n)) for n in ["P_10", "recip_rank", "map_cut_100", "Rprec", "ndcg@5"]]
    ['precision@10', 'mrr', 'map@100', 'r_precision', 'ndcg@5']
    """
    if isinstance(name, Metric):
        return name
    if not isinstance(name, str):
        msg = f"a metric is a name or a prm.Metric, got {name!r}"
        raise UnknownMetricError(msg)
    fams = families()
    for fam in fams.values():
        for spelled in fam.trec:
            match = _trec_pattern(spelled).fullmatch(name)
            if match:
                groups = match.groupdict()
                k = int(groups["k"]) if groups.get("k") else None
                params = (float(groups["x"]),) if groups.get("x") else ()
                return Metric(fam.name, k, params)
    match = _CANONICAL.match(name)
    if match:
        base, text, k = match.group("name"), match.group("params"), match.group("k")
        for fam in fams.values():
            if base == fam.name or base in fam.aliases:
                if k is not None and int(k) < 1:
                    msg = f"`k` must be a positive integer, got {k} in metric {name!r}"
                    raise UnknownMetricError(msg)
                params = _parse_params(fam, text, name) if text is not None else ()
                return Metric(fam.name, None if k is None else int(k), params)
    raise _unknown(name)
