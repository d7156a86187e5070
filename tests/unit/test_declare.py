"""A metric is one declaration: @constructor derives the spec's cutoff and parameters from the signature."""

from __future__ import annotations

import ast
import inspect
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import expr, metrics
from polars_rankmetrics._declare import SIDE, Length, constructor, plain, spec_of
from polars_rankmetrics._registry import SPECS
from polars_rankmetrics._request import EvaluateOptions
from polars_rankmetrics._spec import ANY, OPEN_UNIT, UNIT, Metric, Param, QuerySpec
from polars_rankmetrics.exceptions import InvalidParameterError

METRICS = Path(metrics.__file__).parent

# Constructors that pick one of several specs from an argument, or whose arguments are not their
# parameters, declare their Params in the spec; every other constructor is declared by @constructor.
EXPLICIT = {
    "awrf",  # discount picks the log2 or the rbp spec
    "exposure_disparity",  # target and discount pick one of four specs
    "exposure_share",  # discount picks the spec; group is checked against groups
    "iprec_at_recall",  # recall is required, yet 0.0 is the default its name leaves out
    "miscalibration",  # weights picks the uniform or the rank-weighted spec
    "mpr",  # missing_items picks one of three specs
    "rbo",  # tie_handling picks the tie columns; reference is read from the frame
    "relstring",  # a cutoff of 10 by default
    "rprec_mult",  # multiple is required, yet 1.0 is the default its name leaves out
    "serendipity",  # relevance picks the weighted or the unweighted spec
    "utility",  # four arguments, one parameter of four numbers
}


def _value(_m: Metric, rows: object) -> pl.Expr:  # noqa: ARG001  (a spec needs a value)
    return pl.lit(1.0)


def test_every_constructor_is_declared_or_listed() -> None:
    declared = {n for n in metrics.__all__ if hasattr(getattr(metrics, n), "__prm_spec__")}
    assert set(metrics.__all__) - declared == EXPLICIT
    assert len(declared) >= 60


def test_declared_constructors_hold_only_their_docstring() -> None:
    """The decorator gives the body; a body written anyway would be silently ignored."""
    for path in sorted(METRICS.glob("[a-z]*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Call) and getattr(d.func, "id", "") == "constructor"
                for d in node.decorator_list
            ):
                body = node.body
                assert len(body) == 1, f"{path.name}: {node.name} has a body besides its docstring"
                assert isinstance(body[0], ast.Expr), f"{path.name}: {node.name}"
                assert isinstance(body[0].value, ast.Constant), f"{path.name}: {node.name}"


def test_explicit_constructors_agree_with_their_specs() -> None:
    """Where a spec declares its Params, a default written in the signature too must not drift."""
    by_function: dict[str, list[object]] = {}
    for spec in SPECS:
        by_function.setdefault(spec.python_name, []).append(spec)
    for name in EXPLICIT:
        signature = inspect.signature(getattr(metrics, name))
        for spec in by_function[name]:
            for param in spec.params:  # type: ignore[attr-defined]
                given = signature.parameters.get(param.name)
                if given is None or given.default is inspect.Parameter.empty or param.kind == "side":
                    continue
                if given.default is not None:
                    assert given.default == param.default, f"{name}.{param.name}"


def test_the_registry_holds_the_declared_specs() -> None:
    for name in metrics.__all__:
        constructor_ = getattr(metrics, name)
        if hasattr(constructor_, "__prm_spec__"):
            assert spec_of(constructor_) in SPECS, name


def test_the_signature_declares_cutoff_parameters_kinds_and_domains() -> None:
    @constructor(QuerySpec(name="demo_metric", value=_value))
    def demo_metric(  # noqa: PLR0913  (one parameter of each kind)
        k: int,
        *,
        p: Annotated[float, OPEN_UNIT] = 0.5,
        weights: Annotated[Sequence[float], UNIT, Length(2)] = (0.5, 0.5),
        gain: dict[float, float] | None = None,
        frame: pl.DataFrame | None = None,
        count: Annotated[int | None, SIDE] = None,
        scale: float = 1.0,
    ) -> Metric:
        """A demonstration."""

    spec = spec_of(demo_metric)
    assert spec.k == "required"
    assert spec.function == ""  # the constructor's name is the family's
    assert [(p.name, p.kind, p.default, p.length) for p in spec.params] == [
        ("p", "float", 0.5, None),
        ("weights", "floats", (0.5, 0.5), 2),
        ("gain", "gain", None, None),
        ("frame", "side", None, None),
        ("count", "side", None, None),
        ("scale", "float", 1.0, None),
    ]
    assert spec.params[0].domain == OPEN_UNIT
    assert spec.params[1].domain == UNIT
    assert spec.params[5].domain == ANY
    m = demo_metric(5, p=0.25, weights=[0.25, 0.75], scale=2)
    assert str(m) == "demo_metric(p=0.25,weights=0.25,0.75,scale=2)@5"
    assert m.numbers("weights") == (0.25, 0.75)
    with pytest.raises(
        InvalidParameterError, match=r"`p` of metric 'demo_metric' must be a real number in \(0, 1\)"
    ):
        demo_metric(5, p=1.5)
    with pytest.raises(InvalidParameterError, match="2 numbers"):
        demo_metric(5, weights=[1.0])
    with pytest.raises(
        InvalidParameterError, match=r"^metric 'demo_metric' needs a cutoff: write demo_metric@k$"
    ):
        demo_metric(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        demo_metric(5, unknown=1)  # type: ignore[call-arg]


def test_an_optional_cutoff_and_no_cutoff() -> None:
    @constructor(QuerySpec(name="with_cutoff", value=_value))
    def with_cutoff(k: int | None = None) -> Metric:
        """A demonstration."""

    @constructor(QuerySpec(name="without", value=_value))
    def renamed(*, p: Annotated[float, OPEN_UNIT] = 0.5) -> Metric:
        """A demonstration."""

    assert spec_of(with_cutoff).k == "optional"
    assert str(with_cutoff()) == "with_cutoff"
    assert str(with_cutoff(3)) == "with_cutoff@3"
    assert spec_of(renamed).k == "none"
    assert spec_of(renamed).function == "renamed"
    assert spec_of(renamed).python_name == "renamed"


def test_a_spec_that_declares_what_the_signature_declares_is_refused() -> None:
    with pytest.raises(TypeError, match="its signature gives them"):
        constructor(QuerySpec(name="twice", value=_value, params=(Param("p", 0.5),)))
    with pytest.raises(TypeError, match="its signature gives them"):
        constructor(QuerySpec(name="twice", value=_value, k="none"))

    def bad(k: int = 10) -> Metric:
        """A cutoff with a default other than None."""
        raise NotImplementedError

    with pytest.raises(TypeError, match="None"):
        constructor(QuerySpec(name="bad", value=_value))(bad)


def test_spec_of_refuses_a_plain_function() -> None:
    with pytest.raises(TypeError, match="not a declared metric constructor"):
        spec_of(prm.evaluate)  # type: ignore[arg-type]


def test_the_check_runs_on_the_built_metric() -> None:
    seen: list[Metric] = []

    @constructor(QuerySpec(name="checked", value=_value), check=seen.append)
    def checked(k: int | None = None) -> Metric:
        """A demonstration."""

    m = checked(4)
    assert seen == [m]


@pytest.mark.parametrize(
    ("annotation", "shown"),
    [
        ("Annotated[float, OPEN_UNIT]", "float"),
        ("Annotated[float | None, Interval(low=0.0, high=1.0)]", "float | None"),
        ("Annotated[Sequence[float], UNIT, Length(4)]", "Sequence[float]"),
        ("Annotated[dict[str, float], SIDE]", "dict[str, float]"),
        ("pl.DataFrame | None", "pl.DataFrame | None"),
    ],
)
def test_plain_drops_the_domain(annotation: str, shown: str) -> None:
    assert plain(annotation) == shown


def test_declared_and_generated_signatures_agree() -> None:
    """The .rank method and the expression builder show the constructor's own parameters and defaults."""
    for name in ("rbp", "err", "eleven_point_average", "f_beta", "novelty"):
        own = inspect.signature(getattr(metrics, name)).parameters
        method = inspect.signature(getattr(prm.RankFrame, name)).parameters
        for p in own.values():
            if (
                p.name == "columns"
            ):  # the method's one columns= names the frame's and the side frames' columns
                assert "options" in method
                assert "columns" in EvaluateOptions.__annotations__
                continue
            assert method[p.name].default == p.default, (name, p.name)
        builder = getattr(expr, name, None)
        if builder is not None:
            built = inspect.signature(builder).parameters
            for p in own.values():
                assert built[p.name].default == p.default, (name, p.name)
    assert math.isclose(spec_of(metrics.rbp).params[0].default, 0.9)  # type: ignore[arg-type]
