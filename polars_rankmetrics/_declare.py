"""A metric is one declaration: its constructor's signature is its parameters.

The :func:`constructor` decorator reads a metric constructor's signature and
completes the family's spec from it, so nothing is written twice:

- a parameter ``k`` makes the family take a cutoff: optional with a default
  of None, required without a default; no ``k``, no cutoff;
- every other parameter is a :class:`~polars_rankmetrics._spec.Param` named
  and ordered as in the signature, its default the signature's (none: it
  must be given); its kind comes from the annotation (a number, a sequence
  of numbers, a ``{grade: gain}`` mapping, anything else, or a type marked
  :data:`SIDE`, a side input: data the metric reads, kept out of its name) and
  its domain from an :class:`~polars_rankmetrics._spec.Interval` in
  ``Annotated[float, OPEN_UNIT]``;
- the constructor's name is the spec's ``function``.

The decorated function holds only its docstring: the decorator gives it the
body every constructor shares, ``Metric(spec, k, **parameters)``. The
namespace's ``.rank`` methods, the expression builders, the CLI's and the
registry's spellings and the documentation read the completed spec.

>>> from typing import Annotated
>>> from polars_rankmetrics._declare import constructor, spec_of
>>> from polars_rankmetrics._spec import OPEN_UNIT, Metric, QuerySpec
>>> @constructor(QuerySpec(name="demo", value=lambda m, rows: rows.rank.max()))
... def demo(k: int | None = None, *, p: Annotated[float, OPEN_UNIT] = 0.5) -> Metric:
...     '''A demonstration.'''
>>> spec = spec_of(demo)
>>> spec.k, [(p.name, p.default, p.kind, str(p.domain)) for p in spec.params]
('optional', [('p', 0.5, 'float', 'a real number in (0, 1)')])
>>> str(demo(10, p=0.8))
'demo(p=0.8)@10'
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, ParamSpec

from polars_rankmetrics._spec import ANY, Interval, KRule, Metric, MetricSpec, Param, ParamType

__all__ = ["SIDE", "Length", "constructor", "plain", "spec_of"]

P = ParamSpec("P")
SPEC = "__prm_spec__"  # the attribute holding a constructor's completed spec


@dataclasses.dataclass(frozen=True)
class Length:
    """How many numbers a sequence parameter holds: ``Annotated[Sequence[float], Length(4)]``."""

    count: int


SIDE = "side input"
"""Marks a parameter as a side input whatever its type: ``Annotated[int | None, SIDE]``."""


def constructor(
    spec: MetricSpec, *, check: Callable[[Metric], object] | None = None
) -> Callable[[Callable[P, Metric]], Callable[P, Metric]]:
    """Complete `spec` from the decorated constructor's signature; the constructor builds its Metric.

    Parameters
    ----------
    spec
        The family's spec without ``k``, ``params`` and ``function``: the
        signature declares them (a spec that sets them is refused).
    check
        Checks of the built metric beyond its parameters' domains (a side
        input's columns, parameters that exclude each other), raising the
        library's errors; run by the constructor, not by :func:`parse`.

    Returns
    -------
    Callable
        A decorator: the constructor it returns checks its arguments
        (:class:`~polars_rankmetrics._spec.Metric`) and carries the completed
        spec (:func:`spec_of`).
    """
    if spec.params or spec.k != "optional" or spec.function:
        msg = f"the spec of {spec.name!r} sets k, params or function: its signature gives them"
        raise TypeError(msg)

    def decorate(fn: Callable[P, Metric]) -> Callable[P, Metric]:
        signature = inspect.signature(fn)
        k_rule, params = _declared(fn, signature)
        function = "" if fn.__name__ == spec.name else fn.__name__
        full = dataclasses.replace(spec, k=k_rule, params=params, function=function)

        @functools.wraps(fn)
        def build(*args: P.args, **kwargs: P.kwargs) -> Metric:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            values = dict(bound.arguments)
            k = values.pop("k", None)
            metric = Metric(full, k, **values)  # Metric checks k and every parameter
            if check is not None:
                check(metric)
            return metric

        setattr(build, SPEC, full)
        return build

    return decorate


def spec_of(function: Callable[..., Metric]) -> MetricSpec:
    """The completed spec of a constructor declared with :func:`constructor`."""
    spec = getattr(function, SPEC, None)
    if not isinstance(spec, MetricSpec):
        msg = f"{getattr(function, '__name__', function)!r} is not a declared metric constructor"
        raise TypeError(msg)
    return spec


def _declared(fn: Callable[..., Metric], signature: inspect.Signature) -> tuple[KRule, tuple[Param, ...]]:
    hints = typing.get_type_hints(fn, include_extras=True)
    k_rule: KRule = "none"
    params: list[Param] = []
    for p in signature.parameters.values():
        if p.name == "k":
            if p.default not in (None, inspect.Parameter.empty):
                msg = f"{fn.__name__}: a cutoff's default is None (no cutoff) or absent (required)"
                raise TypeError(msg)
            k_rule = "required" if p.default is inspect.Parameter.empty else "optional"
            continue
        default = None if p.default is inspect.Parameter.empty else p.default
        kind, domain, length = _kind(hints[p.name])
        params.append(Param(p.name, default, kind, domain, length))
    return k_rule, tuple(params)


def _kind(hint: object) -> tuple[ParamType, Interval, int | None]:
    """The kind, domain and length an annotation declares."""
    domain, length = ANY, None
    if typing.get_origin(hint) is Annotated:
        hint, *extras = typing.get_args(hint)
        for extra in extras:
            if isinstance(extra, Interval):
                domain = extra
            elif isinstance(extra, Length):
                length = extra.count
            elif extra == SIDE:
                return "side", domain, length
    options = [a for a in _union(hint) if a is not types.NoneType]
    origins = {typing.get_origin(a) or a for a in options}
    if origins <= {float, int}:
        return "float", domain, length
    if origins <= {Mapping, dict}:
        return "gain", domain, length
    if origins <= {Sequence, tuple, list} and all(float in typing.get_args(a) for a in options):
        return "floats", domain, length
    return "side", domain, length


def _union(hint: object) -> tuple[object, ...]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return (hint,)


def plain(annotation: str) -> str:
    """An annotation's text without its ``Annotated`` domain: what a generated signature shows.

    >>> from polars_rankmetrics._declare import plain
    >>> plain("Annotated[float | None, UNIT]"), plain("int | None")
    ('float | None', 'int | None')
    """
    if not annotation.startswith("Annotated["):
        return annotation
    depth = 0
    for position, char in enumerate(annotation):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 1:
            return annotation[len("Annotated[") : position]
    return annotation
