"""Metric names <-> metrics: the one list of specs, parse, the valid names.

A metric is a family, an optional cutoff ``k`` and the family's parameters.
Its canonical name is ``family(name=value,...)@k`` with parameters left out
when they hold their defaults: ``ndcg@10``, ``rbp(p=0.8)``,
``iprec_at_recall(recall=0.1)``, ``ndcg(1=3,2=9)@10`` (a gain mapping is
written as grade=gain pairs). The short positional forms (``rbp(0.8)``,
``err(3)@20``), other libraries' spellings (each spec's ``spellings``:
``nDCG@10``, ``RetrievalMAP``, ``r-precision``) and trec_eval's names (its
``trec``: ``P_10``, ``ndcg_cut_10``, ``iprec_at_recall_0.10``, and their
``-m`` forms ``P.10``) parse to the same metrics. Every name is on the
family's own spec; no table of names is kept here.

Registration is :data:`SPECS`, assembled here from the ``SPECS`` of each
family module (``polars_rankmetrics.metrics.FAMILIES``): the metric modules
never import this one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from polars_rankmetrics._spec import Metric, MetricSpec, Param, ParamValue, check_cutoff
from polars_rankmetrics.exceptions import InvalidParameterError, UnknownMetricError
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.metrics import FAMILIES

__all__ = ["SPECS", "dotted", "parse", "specs", "valid_names"]

SPECS: tuple[MetricSpec, ...] = tuple(spec for family in FAMILIES for spec in family.SPECS)
"""Every metric family, in the order the docs list them."""


@functools.cache
def specs() -> Mapping[str, MetricSpec]:
    """Every metric family by canonical name."""
    return {spec.name: spec for spec in SPECS}


@functools.cache
def valid_names() -> list[str]:
    """Return every accepted spelling: canonical names and aliases, then trec_eval's.

    Examples
    --------
    >>> names = prm.valid_names()
    >>> "ndcg@k" in names, "ndcg_cut_k" in names, "recip_rank" in names, "rbp(p)" in names
    (True, True, True, True)
    """
    canonical: list[str] = []
    trec: list[str] = []
    for spec in SPECS:
        named = [p.name for p in spec.params if p.kind not in ("side", "gain")]
        args = "(" + ",".join(named) + ")"
        for spelled in (spec.name, *spec.aliases):
            for form in [spelled, spelled + args] if named else [spelled]:
                if spec.k != "required":
                    canonical.append(form)
                if spec.k != "none":
                    canonical.append(f"{form}@k")
        trec.extend(t.replace("{k}", "k") for t in spec.trec)
    others = [
        f"{spelled}@k" if spec.k != "none" else spelled
        for spec in SPECS
        for spelled in spec.spellings.names()
    ]
    return list(dict.fromkeys([*canonical, *trec, *others]))


# re.ASCII: a cutoff or parameter is ASCII digits (Arabic-Indic digits after '@' are no cutoff).
_CANONICAL = re.compile(
    r"^(?P<name>[A-Za-z_0-9-]+?)(?:\((?P<params>[^()]*)\))?(?:@(?P<k>-?\d+))?\Z", re.ASCII
)
_PLACEHOLDERS = {"{k}": r"(?P<k>\d+)", "{x}": r"(?P<x>\d*\.?\d+)"}
_NAMED = re.compile(r"^(?P<key>[A-Za-z_]\w*)\s*=\s*(?P<value>.*)$", re.ASCII)
_PAIR = re.compile(r"^(?P<grade>[-+]?[\d.eE+-]+)\s*=\s*(?P<gain>.*)$", re.ASCII)
_DOTTED = re.compile(r"^(?P<name>[A-Za-z_0-9]+)\.(?P<param>\d*\.?\d+)\Z", re.ASCII)


def dotted(name: str) -> str | None:
    """trec_eval's ``-m`` spelling of one measure (``P.5``, ``ndcg_cut.10``) as its report name (``P_5``).

    Returns None when `name` has no such form.

    Examples
    --------
    >>> from polars_rankmetrics._registry import dotted
    >>> dotted("ndcg_cut.10"), dotted("iprec_at_recall.0.10"), dotted("ndcg@10")
    ('ndcg_cut_10', 'iprec_at_recall_0.10', None)
    """
    match = _DOTTED.match(name)
    return None if match is None else f"{match.group('name')}_{match.group('param')}"


@functools.cache
def _trec_spellings() -> list[tuple[str, str, MetricSpec]]:
    """Every trec_eval spelling in the specs' order, with its text before any placeholder."""
    return [(spelled.split("{", 1)[0], spelled, spec) for spec in SPECS for spelled in spec.trec]


@functools.cache
def _trec_pattern(spelled: str) -> re.Pattern[str]:
    """A trec_eval spelling (``P_{k}``) as a pattern; compiled when a name first starts as it does."""
    pattern = re.escape(spelled)
    for placeholder, group in _PLACEHOLDERS.items():
        pattern = pattern.replace(re.escape(placeholder), group)
    return re.compile(pattern, re.ASCII)


@functools.cache
def _by_spelling() -> Mapping[str, MetricSpec]:
    ours = {spelled: spec for spec in SPECS for spelled in (spec.name, *spec.aliases)}
    theirs = {spelled: spec for spec in SPECS for spelled in spec.spellings.names()}
    return {**theirs, **ours}


@functools.cache
def _by_lowered() -> Mapping[str, MetricSpec]:
    """Every spelling lower-cased (``MRR``, ``Map``, ``hr``): read when no spelling matches exactly."""
    return {spelled.lower(): spec for spelled, spec in _by_spelling().items()}


def _spelled(name: str) -> MetricSpec | None:
    """The family a spelling names: exactly as written, else in any case (no two families share one)."""
    return _by_spelling().get(name) or _by_lowered().get(name.lower())


def _trec_match(name: str) -> tuple[MetricSpec, dict[str, str]] | None:
    """The trec_eval name `name` spells (report name ``P_5`` or ``-m`` form ``P.5``) and its groups."""
    for written in [s for s in (name, dotted(name)) if s is not None]:
        for prefix, spelled, spec in _trec_spellings():
            # Only a name that starts with a spelling's fixed text can match it: the others'
            # patterns are never compiled (compiling all ~80 took 3 ms of a 45 ms small evaluation).
            match = _trec_pattern(spelled).fullmatch(written) if written.startswith(prefix) else None
            if match:
                return spec, match.groupdict()
    return None


def _number(text: str, name: str) -> float:
    try:
        if not text.isascii():  # float() reads Arabic-Indic digits: a parameter is ASCII
            raise ValueError(text)  # noqa: TRY301
        return float(text)
    except ValueError:
        raise UnknownMetricError.not_a_number(text, metric=name) from None


def _parse_params(spec: MetricSpec, text: str, name: str) -> dict[str, ParamValue]:
    """Read ``p=0.8``, ``0.8``, ``1=3,2=9`` or ``coefficients=1,-1,0,0`` into values by name."""
    named: list[Param] = [p for p in spec.params if p.kind != "side"]
    modes: dict[str, ParamValue] = {}  # a side input written by name: a named mode or column (catalog=group)
    numbers: dict[str, float] = {}
    lists: dict[str, list[float]] = {}
    pairs: list[tuple[float, float]] = []
    current: Param | None = None  # the list parameter that bare numbers extend
    position = 0
    for part in (p.strip() for p in text.split(",")) if text.strip() else ():
        keyed, pair, value = _NAMED.match(part), _PAIR.match(part), part
        if keyed and keyed.group("key") in {p.name for p in spec.params if p.kind == "side"}:
            modes[keyed.group("key")] = keyed.group("value").strip()  # as Metric's name writes it
            continue
        if keyed:
            param = next((p for p in named if p.name == keyed.group("key")), None)
            if param is None:
                known = [p.name for p in named]
                raise UnknownMetricError.unknown_option(f"metric {spec.name!r}", keyed.group("key"), known)
            value, current = keyed.group("value"), param
        elif pair and any(p.kind == "gain" for p in named):
            pairs.append((_number(pair.group("grade"), name), _number(pair.group("gain"), name)))
            continue
        elif current is None or current.kind != "floats":
            positional = [p for p in named if p.kind in ("float", "floats")]
            if position >= len(positional):
                raise UnknownMetricError.positional(spec.name, len(positional), text, name)
            current = positional[position]
            position += 1
        number = _number(value, name)
        if current.kind == "floats":
            lists.setdefault(current.name, []).append(number)
        else:
            numbers[current.name] = number
    out: dict[str, ParamValue] = {**numbers, **{key: tuple(v) for key, v in lists.items()}, **modes}
    if pairs:
        out["gain"] = tuple(pairs)
    return out


def _build(spec: MetricSpec, k: int | None, params: Mapping[str, object], name: str) -> Metric:
    check_cutoff(spec, k, UnknownMetricError, written=name)  # a name's fault, in the constructors' words
    return Metric(spec, k, **params)


def parse(name: str | Metric) -> Metric:
    """Return the metric a name spells: ours (``ndcg@10``), an alias, ranx's, ir_measures' or trec_eval's.

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
        The name is not a metric (or has blanks around it); the message
        suggests up to five close names and says where every valid name is
        listed (:func:`valid_names`, the docs' Metrics page). A name that
        matches no spelling exactly is matched in any case (``MRR``,
        ``Map@10``, ``HR@10``).
    InvalidParameterError
        A cutoff below 1 or a parameter outside its domain.

    Examples
    --------
    >>> [str(prm.parse(n)) for n in ["P_10", "recip_rank", "map_cut_100", "Rprec", "ndcg@5", "rbp(0.8)"]]
    ['precision@10', 'mrr', 'map@100', 'r_precision', 'ndcg@5', 'rbp(p=0.8)']
    >>> [str(prm.parse(n)) for n in ["nDCG@10", "AP", "RR@10", "R@100", "ndcg_cut.10", "P.5"]]
    ['ndcg@10', 'map', 'mrr@10', 'recall@100', 'ndcg@10', 'precision@5']
    >>> [str(prm.parse(n)) for n in ["MRR", "MAP@10", "HR@10", "HitRate@5", "hit_rate@5", "Recall@20"]]
    ['mrr', 'map@10', 'hit_rate@10', 'hit_rate@5', 'hit_rate@5', 'recall@20']
    """
    if isinstance(name, Metric):
        return name
    if not isinstance(name, str):
        raise UnknownMetricError.from_type("metric", "a name or a prm.Metric", name)
    trec = _trec_match(name)
    if trec is not None:
        spec, groups = trec
        k = _cutoff(groups["k"], spec.name) if groups.get("k") else None
        first = next((p.name for p in spec.params if p.kind == "float"), None)
        level = {first: float(groups["x"])} if groups.get("x") and first else {}
        return _build(spec, k, level, name)
    if name != name.strip():  # "ndcg@10\n" would be a column of its own: refused, everywhere
        raise UnknownMetricError.blank_around(name)
    match = _CANONICAL.match(name)
    found = _spelled(match.group("name")) if match else None
    if match is None or found is None:
        raise UnknownMetricError.from_name_and_valid(name, valid_names())
    text, cutoff = match.group("params"), match.group("k")
    k = None if cutoff is None else _cutoff(cutoff, found.name)
    if k is not None and k < 1:
        raise InvalidParameterError.out_of_domain("k", "a positive integer", k, metric=found.name)
    values = _parse_params(found, text, name) if text is not None else {}
    return _build(found, k, values, name)


def _cutoff(digits: str, metric: str) -> int:
    """A cutoff as written in a metric's name; too many digits is an error, not Python's ValueError."""
    if len(digits.lstrip("+-0")) > _LONGEST_CUTOFF:
        raise InvalidParameterError.cutoff_too_large(
            f"a number of {len(digits.lstrip('+-0')):,} digits", metric=metric
        )
    return int(digits)


_LONGEST_CUTOFF = len(str(_errors.CUTOFF_LIMIT))  # more digits than this is past the limit
