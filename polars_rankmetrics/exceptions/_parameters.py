"""Parameter checks for the conventions and functions; the words come from :mod:`_errors`."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from numbers import Integral, Real
from typing import Any, TypeGuard

from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions import _plan as _errors


def check_k(k: object, name: str = "k") -> int | None:
    """Return `k` as an int if it is a positive integer (numpy's too) or None, else raise."""
    if k is None:
        return None
    if isinstance(k, bool) or not isinstance(k, Integral) or k < 1:
        raise InvalidParameterError.out_of_domain(name, "a positive integer or None", k)
    value = int(k)
    if value >= _errors.CUTOFF_LIMIT:
        raise InvalidParameterError.cutoff_too_large(f"an integer of {value.bit_length():,} bits", name=name)
    return value


def check_choice(value: object, name: str, choices: Collection[Any]) -> None:
    """Raise unless `value` is one of `choices` (an unhashable value, a dict or a list, is none of them).

    A value is compared only with the choices of its own type: a frame or an
    array, whose ``==`` builds a frame (or raises), is none of them.
    """
    try:
        known = any(value is c or (isinstance(value, type(c)) and bool(value == c)) for c in choices)
    except (TypeError, ValueError):
        known = False
    if not known:
        raise InvalidParameterError.choice(name, choices, value)


def is_finite(value: object) -> TypeGuard[Real]:
    """A real number (not a bool) that is finite as a float (an int past the float range is not)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def check_real(value: object, name: str) -> float:
    """Return `value` as a float if it is a finite real number, else raise."""
    try:
        number = float(value) if isinstance(value, Real) and not isinstance(value, bool) else math.nan
    except OverflowError:  # an int beyond the float range (10**400)
        number = math.inf
    if not math.isfinite(number):
        raise InvalidParameterError.out_of_domain(name, "a real number", value)  # NaN and infinities are not
    return number


def check_gain(gain: object) -> str | Mapping[float, float]:
    """Return `gain` if it is "linear", "exponential", "binary", "thresholded_exponential" or a mapping."""
    if isinstance(gain, str):
        check_choice(gain, "gain", ("linear", "exponential", "binary", "thresholded_exponential"))
        return gain
    if isinstance(gain, Mapping) and gain:
        for grade, value in gain.items():
            check_real(grade, "gain grade")
            check_real(value, f"gain for grade {grade}")
        return gain
    raise InvalidParameterError.out_of_domain(
        "gain",
        '"linear", "exponential", "binary", "thresholded_exponential" or a non-empty {grade: gain} mapping',
        gain,
    )
