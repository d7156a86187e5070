"""Factories of :mod:`polars_rankmetrics.exceptions` grouped by class, as mixins.

:class:`~polars_rankmetrics.exceptions.InvalidParameterError` inherits
:class:`ParameterMessages`: its messages are worded here so that
``exceptions.py`` stays small. The classes themselves stay in
:mod:`polars_rankmetrics.exceptions` (the Spark adapter finds them there by
name); a mixin builds ``cls(message)``, whatever class inherits it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from polars_rankmetrics._quote import listed, shown

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["ParameterMessages"]


def _of(name: str, metric: str | None, method: str | None) -> str:
    """How a message names a parameter: ```k```, ```k`` of metric 'ndcg'``, ``-M`` (an option as typed)."""
    if metric is not None:
        return f"`{name}` of metric {metric!r}"
    if method is not None:
        return f"`{name}` of fusion method {method!r}"
    return name if name.startswith("-") else f"`{name}`"


class Worded:
    """What a mixin's factory builds: an exception made from its message."""

    if TYPE_CHECKING:

        def __init__(self, message: str) -> None: ...


class ParameterMessages(Worded):
    """The factories of :class:`~polars_rankmetrics.exceptions.InvalidParameterError`."""

    @classmethod
    def out_of_domain(
        cls, name: str, expected: str, got: object, *, metric: str | None = None, method: str | None = None
    ) -> Self:
        """A parameter outside its domain: ```p` of metric 'rbp' must be in (0, 1), got 2.0``."""
        return cls(f"{_of(name, metric, method)} must be {expected}, got {shown(got)}")

    @classmethod
    def cutoff_too_large(cls, size: str, *, metric: str | None = None, name: str = "k") -> Self:
        """A cutoff too large for a Polars literal (no list is that long); `size` says how large."""
        return cls(
            f"{_of(name, metric, None)} must be a positive integer below 2**127 (the widest integer "
            f"Polars holds; no list is that long), got {size}"
        )

    @classmethod
    def choice(cls, name: str, choices: Iterable[object], got: object) -> Self:
        """A parameter that must be one of a few values."""
        valid = ", ".join(repr(c) for c in choices)
        return cls(f"`{name}` must be one of {valid}, got {shown(got)}")

    @classmethod
    def repeated(cls, name: str, values: Iterable[object], what: str = "column") -> Self:
        """A parameter that lists the same column (or run, metric...) twice."""
        return cls(f"`{name}` must name each {what} once, got {listed(values)} more than once")

    @classmethod
    def not_unique(cls, what: str, values: Iterable[object]) -> Self:
        """Names that must be unique and are not: ``metric names must be unique, got 'm' more than once``."""
        return cls(f"{what} must be unique, got {listed(values)} more than once")

    @classmethod
    def empty(cls, name: str, remedy: str) -> Self:
        """A parameter that lists nothing: ```metrics` is empty: name at least one ...``."""
        return cls(f"`{name}` is empty: {remedy}")

    @classmethod
    def same_column(cls, role: str, name: str, other: str) -> Self:
        """A column given a role it already has: ``metric 'query' is the query column``."""
        return cls(f"{role} {shown(name)} is the {other} column")

    @classmethod
    def missing(
        cls, name: str, expected: str, *, metric: str | None = None, method: str | None = None
    ) -> Self:
        """A parameter without a default that was not given: say what it is and how to write it."""
        owner, call = (
            (f"metric {metric!r}", f"{metric}(")
            if method is None
            else (f"fusion method {method!r}", f"fuse(..., method={method!r}, ")
        )
        return cls.needs(owner, f"`{name}`, {expected}", f"write {call}{name}=...)")

    @classmethod
    def needs(cls, owner: str, what: str, remedy: str) -> Self:
        """An input `owner` cannot do without and did not get: ``owner needs what: remedy``."""
        return cls(f"{owner} needs {what}: {remedy}")

    @classmethod
    def not_both(cls, first: str, second: str, *, owner: str) -> Self:
        """Two inputs of which one only may be given."""
        return cls(f"give {owner} either {first} or {second}, not both")

    @classmethod
    def takes_no(cls, owner: str, what: str, takers: str) -> Self:
        """An input `owner` does not take, and the ones that take it: ``owner takes no what; takers``."""
        return cls(f"{owner} takes no {what}; {takers}")

    @classmethod
    def refused(cls, setting: str, why: str) -> Self:
        """An input refused for a reason of its own: the subject, then why (``optimize_fusion ...``)."""
        return cls(f"{setting} {why}")

    @classmethod
    def not_output_of(cls, what: str, producer: str, got: object) -> Self:
        """A frame argument that must be what another function returns, and is not even a DataFrame."""
        return cls(f"`{what}` must be the DataFrame {producer} returns, got {type(got).__name__}")

    @classmethod
    def no_weight(cls, run: object, column: str, given: Iterable[object]) -> Self:
        """A run of a weighted fusion that `weights` does not name."""
        return cls(
            f"run {shown(run)} of column {column!r} has no weight: name every run in `weights` "
            f"(given: {listed(given)})"
        )

    @classmethod
    def unknown_weight(cls, run: object, column: str, held: Iterable[object]) -> Self:
        """A weight of a weighted fusion naming a run the runs do not hold (a typo would be ignored)."""
        return cls(
            f"`weights` names run {shown(run)}, which column {column!r} of the runs does not hold: "
            f"name only the runs given ({listed(sorted(held, key=str))})"
        )

    @classmethod
    def shared_column(cls, name: str, first: str, second: str) -> Self:
        """Two roles given the same column."""
        return cls(
            f"the {first} and {second} columns are both {shown(name)}: each role needs its own column "
            f"(copy it first, e.g. frame.with_columns(pl.col({shown(name)}).alias('{second}')))"
        )

    @classmethod
    def reserved_column(cls, name: str, role: str) -> Self:
        """A column named with the library's internal prefix."""
        return cls(
            f"{role} column {shown(name)}: names starting with '__prm_' are reserved for the library's "
            "internal columns; rename the column"
        )

    @classmethod
    def not_among(cls, name: str, got: object, column: str, present: Iterable[object]) -> Self:
        """A value that must be one of a column's (a baseline system): name the column and list them."""
        return cls(f"{name} {shown(got)} is not in column {column!r}; the systems: {listed(present)}")

    @classmethod
    def tie_policy(cls, metric: str, policy: str, defined: Iterable[str], why: str = "") -> Self:
        """A tie policy a metric does not define: name both, say why, list the metrics that define it."""
        valid = ", ".join(sorted(defined))
        reason = f" ({why})" if why else ""
        return cls(
            f"ties={policy!r} is not defined for metric {metric!r}{reason}; use ties='text' for it, "
            f"or evaluate it separately. ties={policy!r} is defined for: {valid}"
        )
