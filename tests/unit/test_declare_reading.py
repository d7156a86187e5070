"""@constructor reads parameters from the code and evaluates each annotation once: as inspect would."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

from polars_rankmetrics import metrics
from polars_rankmetrics._declare import _kind, _kinds, _parameters


def _declared() -> list[Callable[..., Any]]:
    return [
        getattr(metrics, n).__wrapped__
        for n in metrics.__all__
        if hasattr(getattr(metrics, n), "__prm_spec__")
    ]


def _with_positional_defaults(a: int, b: int = 2, /, c: int = 3, *, d: int, e: int = 5) -> None:
    """Every kind of parameter but the starred ones."""


def _starred(a: int, *rest: int, b: int = 1, **more: int) -> None:
    """Starred parameters: read from the signature."""


def _signature_of(fn: Callable[..., Any]) -> list[tuple[str, object]]:
    return [(p.name, p.default) for p in inspect.signature(fn).parameters.values()]


def test_parameters_are_the_signatures() -> None:
    for fn in [*_declared(), _with_positional_defaults, _starred]:
        assert _parameters(fn) == _signature_of(fn), fn.__name__


def test_kinds_are_those_of_the_type_hints() -> None:
    for fn in _declared():
        hints = typing.get_type_hints(fn, include_extras=True)
        names = [n for n, _ in _parameters(fn) if n != "k"]
        assert _kinds(fn, names) == {n: _kind(hints[n]) for n in names}, fn.__name__
