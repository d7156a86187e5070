"""The fusion methods and normalisations: their names, other spellings, parameters and checks.

Names follow ranx (``ranx.fuse``); other spellings (``combsum``,
``comb_mnz``, ``borda``, ``minmax`` ...) resolve to them. Each method
declares what it needs: ranks, weights, judgments, and its own parameters
with their domains, checked once before any plan is built.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from numbers import Integral, Real

from polars_rankmetrics.exceptions import InvalidParameterError

__all__ = ["METHODS", "NORMS", "FusionMethod", "MethodParam", "check_params", "method_spec", "norm_name"]


@dataclass(frozen=True)
class MethodParam:
    """A method's own parameter: its name, default (None: required), domain and its words."""

    name: str
    default: float | None
    valid: Callable[[float], bool]
    expected: str
    integer: bool = False


@dataclass(frozen=True)
class FusionMethod:
    """What a fusion method needs besides the runs."""

    name: str
    params: tuple[MethodParam, ...] = ()
    weighted: bool = False
    supervised: bool = False


def _nonneg(x: float) -> bool:
    return x >= 0


def _unit(x: float) -> bool:
    return 0 <= x <= 1


def _positive(x: float) -> bool:
    return x >= 1


def _any(x: float) -> bool:
    return math.isfinite(x)


_K = MethodParam("k", 60, _nonneg, "a real number >= 0")
_SIGMA = MethodParam("sigma", 0.01, _unit, "a real number in [0, 1]")
_GAMMA = MethodParam("gamma", None, _any, "a real number")
_PHI = MethodParam("phi", None, _unit, "a real number in [0, 1]")
_SEGMENTS = MethodParam("n_segments", None, _positive, "an integer >= 1", integer=True)
_W = MethodParam("w", None, _nonneg, "an integer >= 0", integer=True)

METHODS: dict[str, FusionMethod] = {
    m.name: m
    for m in (
        FusionMethod("rrf", (_K,)),
        FusionMethod("isr"),
        FusionMethod("log_isr"),
        FusionMethod("logn_isr", (_SIGMA,)),
        FusionMethod("sum"),
        FusionMethod("mnz"),
        FusionMethod("anz"),
        FusionMethod("max"),
        FusionMethod("min"),
        FusionMethod("med"),
        FusionMethod("gmnz", (_GAMMA,)),
        FusionMethod("wsum", weighted=True),
        FusionMethod("wmnz", weighted=True),
        FusionMethod("mixed", weighted=True),
        FusionMethod("bordafuse"),
        FusionMethod("w_bordafuse", weighted=True),
        FusionMethod("condorcet"),
        FusionMethod("w_condorcet", weighted=True),
        FusionMethod("rbc", (_PHI,)),
        FusionMethod("bayesfuse", supervised=True),
        FusionMethod("mapfuse", supervised=True),
        FusionMethod("posfuse", supervised=True),
        FusionMethod("probfuse", (_SEGMENTS,), supervised=True),
        FusionMethod("segfuse", supervised=True),
        FusionMethod("slidefuse", (_W,), supervised=True),
    )
}

_METHOD_SPELLINGS = {
    **{f"comb{m}": m for m in ("sum", "mnz", "anz", "max", "min", "med", "gmnz")},
    **{f"comb_{m}": m for m in ("sum", "mnz", "anz", "max", "min", "med", "gmnz")},
    "reciprocal_rank_fusion": "rrf",
    "borda": "bordafuse",
    "borda_fuse": "bordafuse",
    "weighted_bordafuse": "w_bordafuse",
    "wbordafuse": "w_bordafuse",
    "weighted_condorcet": "w_condorcet",
    "wcondorcet": "w_condorcet",
    "weighted_sum": "wsum",
    "rank_biased_centroids": "rbc",
    "logisr": "log_isr",
    "lognisr": "logn_isr",
}

NORMS = ("min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda", "none")
_NORM_SPELLINGS = {
    "min_max": "min-max",
    "minmax": "min-max",
    "min_max_inverted": "min-max-inverted",
    "minmax_inverted": "min-max-inverted",
    "z-score": "zmuv",
    "zscore": "zmuv",
}


def _key(name: str) -> str:
    return name.strip().lower().replace(" ", "_")


def method_spec(method: object) -> FusionMethod:
    """The method named `method` (any accepted spelling), or an error listing the valid names."""
    if isinstance(method, str):
        key = _key(method).replace("-", "_")
        found = METHODS.get(_METHOD_SPELLINGS.get(key, key))
        if found is not None:
            return found
    raise InvalidParameterError.choice("method", list(METHODS), method)


def norm_name(norm: object) -> str:
    """The normalisation named `norm` (None means ``"none"``), or an error listing the valid names."""
    if norm is None:
        return "none"
    if isinstance(norm, str):
        key = _key(norm)
        name = _NORM_SPELLINGS.get(key, key.replace("_", "-"))
        if name in NORMS:
            return name
    raise InvalidParameterError.choice("norm", NORMS, norm)


def _checked(param: MethodParam, value: object, method: str) -> float:
    if (param.integer and (isinstance(value, bool) or not isinstance(value, Integral))) or (
        isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value)
    ):
        raise InvalidParameterError.out_of_domain(param.name, param.expected, value, method=method)
    if not param.valid(float(value)):
        raise InvalidParameterError.out_of_domain(param.name, param.expected, value, method=method)
    return int(float(value)) if param.integer else float(value)


def check_params(
    spec: FusionMethod, params: Mapping[str, object], *, optional: bool = False
) -> dict[str, float]:
    """The method's parameters checked, defaults filled in; unknown or missing ones raise.

    With `optional`, a required parameter may be absent (a grid search fills it in).
    """
    known = {p.name for p in spec.params}
    unknown = sorted(set(params) - known)
    if unknown:
        raise InvalidParameterError.unknown_option(f"method {spec.name!r}", unknown[0], sorted(known))
    out: dict[str, float] = {}
    for p in spec.params:
        if p.name in params:
            out[p.name] = _checked(p, params[p.name], spec.name)
        elif p.default is not None:
            out[p.name] = p.default
        elif not optional:
            raise InvalidParameterError.missing(p.name, p.expected, method=spec.name)
    return out
