"""Bad parameters fail when a builder is called; bad columns when the plan runs; the module's place."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import expr as rx

ROOT = Path(__file__).resolve().parents[2]
FRAME = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [2.0, 1.0], "relevance": [1, 0]})


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (lambda: rx.ndcg(0), r"`k` must be a positive integer or None, got 0"),
        (lambda: rx.precision(-3), r"`k` must be a positive integer or None, got -3"),
        (lambda: rx.rbp(p=1.5), r"`p` of metric 'rbp' must be a real number in \(0, 1\), got 1.5"),
        (lambda: rx.err(3, max_grade=0), r"`max_grade` of metric 'err' must be a real number > 0"),
        (
            lambda: rx.iprec_at_recall(2.0),
            r"`recall` of metric 'iprec_at_recall' must be a real number in \[0, 1\]",
        ),
        (lambda: rx.set_map(depth=0), r"`depth` must be a positive integer or None, got 0"),
        (
            lambda: rx.recall(5, relevance_level="high"),
            r"`relevance_level` must be a real number, got 'high'",
        ),
        (lambda: rx.ndcg(5, gain="cubic"), r"`gain` must be one of 'linear', 'exponential', got 'cubic'"),
        (lambda: rx.ndcg(5, gain={1: "x"}), r"`gain for grade 1` must be a real number"),
        (lambda: rx.map_capped(2, judged_only="yes"), r"`judged_only` must be one of False, True"),
        (lambda: rx.hit_rate(3, item=1), r"`item` must be a column name \(str\), got 1"),
        (lambda: rx.hit_rate(3, rank=2), r"`rank` must be a column name \(str\), got 2"),
        (lambda: rx.mpr(missing_items="top"), r"`missing_items` must be one of"),
        (lambda: rx.mpr(missing_items="random"), r"mpr_random needs `n_items`"),
    ],
)
def test_bad_parameters_raise_when_the_expression_is_built(build: Callable[[], pl.Expr], match: str) -> None:
    with pytest.raises(prm.InvalidParameterError, match=match):
        build()


@pytest.mark.parametrize(
    ("column", "values"),
    [("relevance", ["1", "0"]), ("relevance", [True, False]), ("score", ["2.0", "1.0"])],
)
def test_a_non_numeric_column_fails_in_the_plan_naming_the_builder(column: str, values: list[object]) -> None:
    frame = FRAME.with_columns(pl.Series(column, values))
    message = rf"polars_rankmetrics\.expr\.ndcg: the {column} column '{column}' must be numeric"
    with pytest.raises(pl.exceptions.InvalidOperationError, match=message):
        frame.group_by("query").agg(rx.ndcg(10))


def test_numeric_dtypes_of_every_width_give_the_same_values() -> None:
    want = FRAME.group_by("query").agg(rx.ndcg(), rx.rbp())
    for dtype in (pl.Int8, pl.UInt16, pl.Float32, pl.Int128):
        frame = FRAME.with_columns(pl.col("relevance").cast(dtype), pl.col("score").cast(pl.Float32))
        assert frame.group_by("query").agg(rx.ndcg(), rx.rbp()).equals(want)


def _imports(module: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("polars_rankmetrics"):
            # `from polars_rankmetrics import _errors` imports the submodule, not the root's names.
            if node.module != "polars_rankmetrics" or any(
                a.name[0] != "_" and a.name != "metrics" for a in node.names
            ):
                found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("polars_rankmetrics"))
    return found


def test_expr_imports_nothing_above_the_engine() -> None:
    """Rx builds on the engine, the registry, the metrics and below; never on evaluate or the entry points."""
    package = ROOT / "polars_rankmetrics"
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts): p for p in package.rglob("*.py")}
    modules = {name.removesuffix(".__init__"): p for name, p in modules.items()}
    above = ("evaluation", "namespace", "_namespace", "chunked", "checks", "io", "cli", "plots", "__main__")
    seen: set[str] = set()
    todo = [m for m in modules if m.startswith("polars_rankmetrics.expr")]
    while todo:
        name = todo.pop()
        if name in seen or name not in modules:
            continue
        seen.add(name)
        for target in _imports(modules[name]):
            assert target != "polars_rankmetrics", f"{name} imports the package root"
            part = target.split(".")[1] if target.count(".") else ""
            assert part not in above, f"{name} imports {target}, above the engine"
            todo.append(target)
    assert "polars_rankmetrics._engine.prepare" in seen


def test_the_generated_builders_are_current() -> None:
    """tools/gen_expr.py writes the builders from the registry; rerun it after changing a constructor."""
    done = subprocess.run(  # noqa: S603  (our own interpreter and script)
        [sys.executable, str(ROOT / "tools" / "gen_expr.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
