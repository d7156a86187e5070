"""Parameter checks; every message about a bad parameter is worded here."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from numbers import Real
from typing import Any

from polars_rankmetrics.exceptions import InvalidParameterError


def check_k(k: object, name: str = "k") -> int | None:
    """Return `k` if it is a positive integer or None, else raise."""
    if k is None:
        return None
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        msg = f"`{name}` must be a positive integer or None, got {k!r}"
        raise InvalidParameterError(msg)
    return k


def check_choice(value: object, name: str, choices: Collection[Any]) -> None:
    """Raise unless `value` is one of `choices`."""
    if value not in choices:
        valid = ", ".join(repr(c) for c in choices)
        msg = f"`{name}` must be one of {valid}, got {value!r}"
        raise InvalidParameterError(msg)


def check_real(value: object, name: str) -> float:
    """Return `value` as a float if it is a finite real number, else raise."""
    if isinstance(value, bool) or not isinstance(value, Real) or value != value:  # noqa: PLR0124
        msg = f"`{name}` must be a real number, got {value!r}"
        raise InvalidParameterError(msg)
    return float(value)


def check_gain(gain: object) -> str | Mapping[float, float]:
    """Return `gain` if it is "linear", "exponential" or a {grade: gain} mapping."""
    if isinstance(gain, str):
        check_choice(gain, "gain", ("linear", "exponential"))
        return gain
    if isinstance(gain, Mapping) and gain:
        for grade, value in gain.items():
            check_real(grade, "gain grade")
            check_real(value, f"gain for grade {grade}")
        return gain
    msg = f'`gain` must be "linear", "exponential" or a non-empty {{grade: gain}} mapping, got {gain!r}'
    raise InvalidParameterError(msg)
