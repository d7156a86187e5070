"""Metric names <-> metric specs: parse, format, aggregators, the list of valid names."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import polars as pl

from polars_rankmetrics._validation import check_k
from polars_rankmetrics.exceptions import UnknownMetricError

Aggregate = Literal["mean", "sum"]
KRule = Literal["optional", "required", "none"]


@dataclass(frozen=True)
class Family:
    """One metric family: how a query's value is computed and how queries combine."""

    name: str
    per_query: Callable[[int | None], pl.Expr]
    aggregate: Aggregate
    k: KRule
    needs: frozenset[str]
    integer: bool
    aliases: tuple[str, ...]
    trec: tuple[str, ...]


_FAMILIES: dict[str, Family] = {}


def register(
    name: str,
    *,
    aggregate: Aggregate = "mean",
    k: KRule = "optional",
    needs: frozenset[str] = frozenset(),
    integer: bool = False,
    aliases: tuple[str, ...] = (),
    trec: tuple[str, ...] = (),
) -> Callable[[Callable[[int | None], pl.Expr]], Callable[[int | None], pl.Expr]]:
    """Register a per-query expression builder under `name` (a decorator).

    `trec` holds trec_eval spellings: ``"P_{k}"`` takes a cutoff, ``"map"`` none.
    """

    def decorate(fn: Callable[[int | None], pl.Expr]) -> Callable[[int | None], pl.Expr]:
        _FAMILIES[name] = Family(name, fn, aggregate, k, needs, integer, aliases, trec)
        return fn

    return decorate


@dataclass(frozen=True)
class Metric:
    """A metric with its parameters; ``str(metric)`` is its canonical name.

    Build one with a metric function (``prm.ndcg(10)``) or :func:`parse`.

    Examples
    --------
    >>> m = prm.parse("ndcg_cut_10")
    >>> m, str(m)
    (Metric(name='ndcg', k=10), 'ndcg@10')
    """

    name: str
    k: int | None = None
    family: Family = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Check the name and the cutoff against the registry."""
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
        object.__setattr__(self, "family", fam)

    def __str__(self) -> str:
        """Return the canonical name, e.g. ``ndcg@10``."""
        return self.name if self.k is None else f"{self.name}@{self.k}"

    def per_query(self) -> pl.Expr:
        """Return the per-query aggregation over the prepared internal columns."""
        return self.family.per_query(self.k)


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
        for spelled in (fam.name, *fam.aliases):
            if fam.k != "required":
                canonical.append(spelled)
            if fam.k != "none":
                canonical.append(f"{spelled}@k")
        trec.extend(t.replace("{k}", "k") for t in fam.trec)
    return list(dict.fromkeys([*canonical, *trec]))


def _unknown(name: str) -> UnknownMetricError:
    msg = f"unknown metric {name!r}; valid names: {', '.join(valid_names())}"
    return UnknownMetricError(msg)


_CANONICAL = re.compile(r"^(?P<name>[A-Za-z_0-9]+?)(?:@(?P<k>-?\d+))?$")


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
            if "{k}" in spelled:
                pattern = re.escape(spelled).replace(r"\{k\}", r"(\d+)")
                match = re.fullmatch(pattern, name)
                if match:
                    return Metric(fam.name, int(match.group(1)))
            elif spelled == name:
                return Metric(fam.name)
    match = _CANONICAL.match(name)
    if match:
        base, k = match.group("name"), match.group("k")
        for fam in fams.values():
            if base == fam.name or base in fam.aliases:
                if k is not None and int(k) < 1:
                    msg = f"`k` must be a positive integer, got {k} in metric {name!r}"
                    raise UnknownMetricError(msg)
                return Metric(fam.name, None if k is None else int(k))
    raise _unknown(name)
