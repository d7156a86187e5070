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
from typing import Annotated, Any, ParamSpec

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
        k_rule, params = _declared(fn)
        function = "" if fn.__name__ == spec.name else fn.__name__
        full = dataclasses.replace(spec, k=k_rule, params=params, function=function)
        signature = functools.cache(functools.partial(inspect.signature, fn))  # made on the first call

        @functools.wraps(fn)
        def build(*args: P.args, **kwargs: P.kwargs) -> Metric:
            bound = signature().bind(*args, **kwargs)
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


_Kind = tuple[ParamType, Interval, int | None]
_KINDS: dict[tuple[int, object], _Kind] = {}
"""What each annotation declares, by the id of the namespace it is evaluated in and its text."""
_NAMESPACES: dict[int, dict[str, object]] = {}  # those namespaces, kept alive so that no id is reused


def _kinds(
    fn: Callable[..., Metric], names: Sequence[str]
) -> dict[str, tuple[ParamType, Interval, int | None]]:
    """The kind, domain and length the annotations of `names` declare (:func:`_kind`).

    The annotations are evaluated as :func:`typing.get_type_hints` evaluates
    them, each distinct text of a module once (61 for the 345 parameters of
    the declared constructors) rather than every annotation of every
    constructor: evaluating them all was two fifths of the package's own
    import time.
    """
    namespace = fn.__globals__
    _NAMESPACES.setdefault(id(namespace), namespace)
    annotations = {name: fn.__annotations__[name] for name in names}
    missing = {name: text for name, text in annotations.items() if (id(namespace), text) not in _KINDS}
    if missing:
        holder = types.SimpleNamespace(__annotations__=missing)
        evaluated = typing.get_type_hints(holder, globalns=namespace, include_extras=True)
        _KINDS.update({(id(namespace), missing[name]): _kind(hint) for name, hint in evaluated.items()})
    return {name: _KINDS[id(namespace), text] for name, text in annotations.items()}


def _parameters(fn: Callable[..., object]) -> list[tuple[str, Any]]:
    """The names and defaults (``inspect.Parameter.empty``: none) of `fn`'s parameters, in order.

    Read from the function's code as :func:`inspect.signature` reads them,
    without building a signature (a third of a declaration's cost); a
    function with ``*args``, ``**kwargs`` or a wrapped function gets its
    signature's.
    """
    code = fn.__code__ if inspect.isfunction(fn) else None
    if (
        code is None
        or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
        or hasattr(fn, "__wrapped__")
    ):
        return [(p.name, p.default) for p in inspect.signature(fn).parameters.values()]
    positional = code.co_varnames[: code.co_argcount]
    keyword = code.co_varnames[code.co_argcount : code.co_argcount + code.co_kwonlyargcount]
    defaults = fn.__defaults__ or ()
    empty = [inspect.Parameter.empty] * (len(positional) - len(defaults))
    kwdefaults = fn.__kwdefaults__ or {}
    return [
        *zip(positional, [*empty, *defaults], strict=True),
        *((name, kwdefaults.get(name, inspect.Parameter.empty)) for name in keyword),
    ]


def _declared(fn: Callable[..., Metric]) -> tuple[KRule, tuple[Param, ...]]:
    parameters = _parameters(fn)
    kinds = _kinds(fn, [name for name, _ in parameters if name != "k"])
    k_rule: KRule = "none"
    params: list[Param] = []
    for name, given in parameters:
        if name == "k":
            if given not in (None, inspect.Parameter.empty):
                msg = f"{fn.__name__}: a cutoff's default is None (no cutoff) or absent (required)"
                raise TypeError(msg)
            k_rule = "required" if given is inspect.Parameter.empty else "optional"
            continue
        default = None if given is inspect.Parameter.empty else given
        kind, domain, length = kinds[name]
        params.append(Param(name, default, kind, domain, length))
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
