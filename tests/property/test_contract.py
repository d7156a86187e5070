"""The contract every public callable keeps, by generation (docs/guides/errors.md).

Every callable of ``prm.__all__`` (and of ``prm.plots``, ``prm.fusion``,
``prm.expr``) is found by introspection; hypothesis draws each parameter from
a pool of hostile values chosen by the parameter's kind (its annotation):
numbers (0, negative, NaN, infinities, huge, booleans, numpy scalars,
strings), cutoffs, strings (empty, NUL, non-ASCII digits, long), frames
(empty, one row, NaN scores, null ids, wrong dtypes, lazy), paths (NUL bytes,
UTF-16, a directory, missing, CR-only), mappings and sequences. Each call must
return a value (a lazy one is collected through ``prm.collect``; no infinite
float in it) or raise a ``prm.RankMetricsError``; within a time limit; and
leave every frame and mapping it was given unchanged.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import math
import os
import signal
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm
from polars_rankmetrics import fusion, plots

# Per callable (about 150): more with PRM_CONTRACT_EXAMPLES=50 for a deeper search.
EXAMPLES = int(os.environ.get("PRM_CONTRACT_EXAMPLES", "3"))
SECONDS = 20  # a call that takes longer fails: one input must not make unbounded work


def _public() -> list[tuple[str, Callable[..., Any]]]:
    found: dict[str, Callable[..., Any]] = {}
    for module, prefix in (
        (prm, "prm"),
        (plots, "prm.plots"),
        (fusion, "prm.fusion"),
        (prm.expr, "prm.expr"),
        (prm.offpolicy, "prm.offpolicy"),
    ):
        for name in getattr(module, "__all__", []):
            value = getattr(module, name)
            if inspect.isclass(value) and issubclass(value, (BaseException, Warning)):
                continue
            if callable(value) and not inspect.ismodule(value):
                found.setdefault(f"{prefix}.{name}", value)
    return sorted(found.items())


PUBLIC = _public()
SLOW = {"prm.compare", "prm.optimize_fusion", "prm.fusion.optimize_fusion", "prm.summarize", "prm.power"}
"""Callables whose one call costs seconds (resampling, a grid, a chart): one example each in CI."""

# ---------------------------------------------------------------- hostile values per kind

_GOOD = pl.DataFrame(
    {
        "query": ["q1", "q1", "q1", "q2", "q2"],
        "item": ["a", "b", "c", "a", "d"],
        "score": [3.0, 2.0, 1.0, 2.0, 1.0],
        "relevance": [1, 0, 2, 0, 1],
        "run": ["r1", "r1", "r2", "r1", "r2"],
        "system": ["s1", "s1", "s2", "s2", "s1"],
        "ndcg@10": [0.5, 0.25, 0.75, 0.1, 0.9],
    }
)


def _frames() -> list[Any]:
    good = _GOOD
    return [
        good,
        good.lazy(),
        good.head(0),
        good.head(1),
        good.with_columns(score=pl.lit(float("nan"))),
        good.with_columns(score=pl.lit(float("inf"))),
        good.with_columns(query=pl.lit(None, dtype=pl.String)),
        good.with_columns(score=pl.col("score").cast(pl.String)),
        good.with_columns(relevance=pl.lit(-(2**62))),
        good.with_columns(item=pl.col("item").cast(pl.Categorical)),
        good.select("query", "item"),
        pl.DataFrame(),
        pl.concat([good, good]),  # every row twice
        good.with_columns(score=pl.lit(1e308)),
        good.with_columns(item=pl.lit([1.0, 2.0])),  # a list column where ids are
    ]


def _paths(root: Path) -> list[Any]:
    files = {
        "good.run": b"q1 Q0 a 1 3.0 r\nq1 Q0 b 2 2.0 r\n",
        "good.qrels": b"q1 0 a 1\nq1 0 b 0\n",
        "empty": b"",
        "nul": b"\x00" * 64,
        "utf16": "q1 Q0 a 1 3.0 r\n".encode("utf-16"),
        "cr": b"q1 Q0 a 1 3.0 r\rq1 Q0 b 2 2.0 r\r",
        "binary": bytes(range(1, 256)),
        "nbsp": "q1 Q0 a\u00a0b 1 3.0 r\n".encode(),
    }
    for name, data in files.items():
        (root / name).write_bytes(data)
    return [root / n for n in files] + [str(root / "good.run"), root, root / "missing", "", 3, None]


_INTS = [
    None,
    0,
    -1,
    1,
    2,
    10,
    2**63,
    2**200,
    True,
    1.5,
    float("nan"),
    float("inf"),
    "3",
    np.int64(3),
    -(2**70),
]
_FLOATS = [
    None,
    0.0,
    -0.0,
    1.0,
    0.5,
    0.05,
    -1.0,
    2.0,
    float("nan"),
    float("inf"),
    -float("inf"),
    1e-300,
    1e308,
]
_FLOATS += [True, "0.5", np.float64(0.5), 10**400]
_STRS = ["", "ndcg@10", "map", "query", "system", "run", "item", "x", "\x00", "ndcg@\u0661\u0660", "a" * 500]
_STRS += [None, 3, "t", "min-max", "wsum", "rrf", "combsum", "ndcg@10 ", "P.5", "-1"]
_METRICS = [["ndcg@10"], [], ["nope"], "map", [prm.ndcg(5)], None, ["ndcg@10", "ndcg@10"], [3], "ndcg@0"]
_METRICS += [["personalization@10"], ["rbo"], ("map", "P@5")]
_MAPPINGS = [None, {}, {"r1": 1.0, "r2": 0.5}, {"r1": float("nan")}, {"x": 1}, {1: 2.0}, [1, 2], "r1"]
_BOOLS = [True, False, None, "yes", 1]
_OTHER = [None, 0, "x", [], {}, _GOOD, 1.5, float("nan")]


def _pool(parameter: inspect.Parameter, root: Path) -> list[Any]:  # noqa: PLR0911  (one pool per kind)
    text = str(parameter.annotation)
    name = parameter.name
    if name in {"path", "source"} or "Path" in text:
        return _paths(root)
    if "DataFrame" in text or "LazyFrame" in text or "FrameT" in text or name in {"frame", "run", "qrels"}:
        return _frames()
    if name in {"metrics", "metric"} or "Metric" in text:
        return _METRICS + _STRS[:4]
    if "Mapping" in text or name in {"weights", "gain", "gains"}:
        return _MAPPINGS
    if text.startswith("bool") or text == "bool":
        return _BOOLS
    if "float" in text:
        return _FLOATS
    if "int" in text or name in {"k", "n", "depth"}:
        return _INTS
    if "str" in text or "Literal" in text:
        return _STRS
    if "Sequence" in text:
        return [[], [1, 2], ["a"], None, "ab", [float("nan")], list(range(3))]
    return _OTHER


# ---------------------------------------------------------------- the checks


@contextlib.contextmanager
def _limited(seconds: int) -> Iterator[None]:
    def stop(_signum: int, _frame: object) -> None:
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _fingerprint(value: object) -> object:
    if isinstance(value, pl.DataFrame):  # hashes: NaN rows compare equal to themselves
        return (value.schema, value.hash_rows(seed=0).to_list() if value.width else value.height)
    if isinstance(value, (dict, list)):
        return copy.deepcopy(value)
    return None


def _infinite(value: object) -> bool:
    if not isinstance(value, pl.DataFrame):
        return False
    floats = [n for n, dtype in value.schema.items() if dtype.is_float()]
    return any(value[n].is_infinite().any() for n in floats)


def _checked(result: object, *, given_inf: bool) -> None:
    """A returned value: a lazy one collects (through prm.collect); no float in it infinite unless given."""
    if isinstance(result, pl.LazyFrame):
        result = prm.collect(result)
    if given_inf:
        return
    if isinstance(result, pl.DataFrame):
        for name, dtype in result.schema.items():
            if dtype.is_float():
                assert not result[name].is_infinite().any(), f"an infinite value in column {name!r}"
    elif isinstance(result, float):
        assert not math.isinf(result)


# Violations the generation found that are not fixed yet, each with why: none is left (issue 39 fixed
# the last: a frame for a choice, a string metric column, None or a number where a name, a sequence or
# a path goes, a lazy plan collected without prm.collect). strict=False: a fixed one passes silently.
KNOWN: dict[str, str] = {}


def _marks(name: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.xfail(reason=KNOWN[name], strict=False)] if name in KNOWN else []


@pytest.fixture(scope="module")
def root() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="prm-contract-") as tmp:
        yield Path(tmp)


@pytest.mark.parametrize(("name", "function"), [pytest.param(n, f, id=n, marks=_marks(n)) for n, f in PUBLIC])
def test_every_public_callable_keeps_the_contract(
    name: str, function: Callable[..., Any], root: Path
) -> None:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        pytest.skip(f"{name} has no signature to generate from")
    parameters = [p for p in signature.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    pools = {p.name: _pool(p, root) for p in parameters}

    examples = 1 if name.startswith("prm.plots.") or name in SLOW else EXAMPLES

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,  # the same examples every run: CI reports a contract break, not a draw
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def run(data: st.DataObject) -> None:
        args: dict[str, Any] = {}
        for p in parameters:
            required = p.default is inspect.Parameter.empty
            if required or data.draw(st.booleans(), label=f"give {p.name}"):
                args[p.name] = data.draw(st.sampled_from(pools[p.name]), label=p.name)
        before = {k: _fingerprint(v) for k, v in args.items()}
        positional = [args.pop(p.name) for p in parameters if p.kind == p.POSITIONAL_ONLY and p.name in args]
        try:
            with _limited(SECONDS), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                given_inf = any(_infinite(v) for v in (*positional, *args.values()))
                _checked(function(*positional, **args), given_inf=given_inf)
        except prm.RankMetricsError:
            pass
        except TimeoutError:
            pytest.fail(f"{name}({args}) ran over {SECONDS} s")
        except Exception as err:  # noqa: BLE001  (the contract: only the library's errors)
            pytest.fail(f"{name}(**{args!r}) raised {type(err).__module__}.{type(err).__name__}: {err}")
        for p in parameters:
            if p.name in args and before[p.name] is not None:
                assert _fingerprint(args[p.name]) == before[p.name], f"{name} changed its {p.name}"

    run()
