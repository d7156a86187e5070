"""The ``.rank`` namespace's metric methods, one per constructor, each made when first read.

``RankFrame.<name>`` takes the constructor ``prm.<name>``'s own parameters,
then :func:`~polars_rankmetrics.evaluate`'s options as ``**options``, and
evaluates that one metric: ``df.rank.ndcg(10, by="model")`` is
``prm.evaluate(df, [prm.ndcg(10)], by="model")``. Nothing is written per
metric here: a new constructor gets its method. The class holds a
placeholder per name until the method is first read (``df.rank.ndcg``,
``inspect.signature``, ``help``): making the 116 signatures and docstrings
at import took 14 ms of the command's start-up. Type checkers read the
signatures from ``_namespace.pyi``, which ``tools/gen_namespace.py`` writes
from the same constructors (a test checks it is current).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

import polars as pl

from polars_rankmetrics import metrics
from polars_rankmetrics._schema import frame_columns
from polars_rankmetrics._spec import Metric

__all__ = ["MetricMethods", "method_doc", "options_type"]

FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)

OPTIONS_DOC = """**options
    The options of :func:`polars_rankmetrics.evaluate` (`by`, `per_query`, `columns`,
    `conventions`, `check`, `aggregate`, `qrels` and the convention overrides)."""
OWN_GAIN_DOC = """ Here `gain` is the metric's own mapping; the evaluation's
    gain convention goes in ``conventions=prm.Conventions(gain=...)``."""


class MetricMethods(Generic[FrameT]):
    """One method per metric: ``df.rank.<metric>(...)`` evaluates that metric alone."""

    def _one(self, metric: Metric, options: Mapping[str, Any]) -> FrameT:
        raise NotImplementedError


def options_type(signature: inspect.Signature) -> str:
    """The TypedDict of a method's ``**options``: a metric with its own ``gain`` takes no gain convention."""
    return "MetricOptions" if "gain" in signature.parameters else "EvaluateOptions"


def method_doc(name: str, constructor: Callable[..., Metric]) -> str:
    """The method's docstring: the constructor's summary and parameters, then the options."""
    doc = inspect.cleandoc(constructor.__doc__ or "")
    summary = doc.split("\n\n", 1)[0]
    parameters = re.search(r"\nParameters\n-+\n(.*?)(?=\n\n[A-Z][a-z]+\n-+\n|\Z)", doc, flags=re.DOTALL)
    text = (
        f"{summary}\n\n``df.rank.{name}(...)`` is ``prm.evaluate(df, [prm.{name}(...)], **options)``;"
        f" the definition\nis :func:`polars_rankmetrics.{name}`'s.\n\nParameters\n----------\n"
    )
    if parameters:
        text += parameters.group(1).rstrip() + "\n"
    text += OPTIONS_DOC
    if "gain" in inspect.signature(constructor).parameters:
        text += OWN_GAIN_DOC
    returns = "pl.DataFrame or pl.LazyFrame\n    The metric's value, in the frame's type."
    return f"{text}\n\nReturns\n-------\n{returns}"


def _method(name: str, constructor: Callable[..., Metric]) -> Callable[..., Any]:
    signature = inspect.signature(constructor)
    # A metric with side frames takes `columns=` for them: the option's columns= serves both, the
    # evaluation frame reading its own roles of it (query, item, score...), the side frames theirs.
    shared = "columns" in signature.parameters
    signature = signature.replace(
        parameters=[p for p in signature.parameters.values() if p.name != "columns"]
    )
    own = tuple(signature.parameters)

    def method(self: MetricMethods[Any], *args: object, **kwargs: object) -> object:
        mine = {key: kwargs.pop(key) for key in own if key in kwargs}
        if shared and kwargs.get("columns") is not None:
            mine["columns"] = kwargs["columns"]
            kwargs["columns"] = frame_columns(kwargs["columns"])
        return self._one(constructor(*args, **mine), kwargs)

    typed = options_type(signature)
    parameters = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        *signature.parameters.values(),
        inspect.Parameter("options", inspect.Parameter.VAR_KEYWORD, annotation=f"Unpack[{typed}]"),
    ]
    method.__name__ = name
    method.__qualname__ = f"MetricMethods.{name}"
    method.__doc__ = method_doc(name, constructor)
    method.__signature__ = signature.replace(parameters=parameters, return_annotation="FrameT")  # type: ignore[attr-defined]
    return method


class _Unmade:
    """A metric method's placeholder: the first read makes the method and puts it in its place."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> Any:  # noqa: ANN401  (a method)
        method = _method(self.name, getattr(metrics, self.name))
        setattr(MetricMethods, self.name, method)  # later reads find the function itself
        return method.__get__(instance, owner)


for _name in metrics.__all__:
    setattr(MetricMethods, _name, _Unmade(_name))
