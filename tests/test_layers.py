"""The house rules of the package's structure (CONTRIBUTING.md): one-way layers, small functions.

Modules are split by concept, not by size: a file holds one idea whatever its
length (the errors package, a family's generated builders), so the cap is on
functions, not files.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "polars_rankmetrics"
MAX_FUNCTION_LINES = 60


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every package module `path` imports at run time, deferred imports included.

    Imports under ``if TYPE_CHECKING:`` are for annotations only and never run.
    """
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("polars_rankmetrics"))
        elif (
            isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("polars_rankmetrics")
        ):
            # `from polars_rankmetrics import _errors` names a submodule; the root runs first anyway.
            if node.module != "polars_rankmetrics":
                found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {t for t in _imports(path) if t in modules}
        # Importing a.b runs the package a's __init__ too.
        closure = set(targets)
        for t in targets:
            parts = t.split(".")
            closure.update(".".join(parts[:i]) for i in range(2, len(parts)))
        # A module's own packages run before it whatever it imports: not an edge of its own.
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        graph[name] = {t for t in closure if t in modules and t != name and t not in own}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle_deferred_imports_included() -> None:
    """No package module imports, directly or through others, one that imports it back."""
    cycle = _cycle(_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_metric_modules_do_not_import_the_layers_above() -> None:
    """Metrics know specs and the kernel; the registry, engine and entry points know metrics, never back."""
    above = (
        "polars_rankmetrics._registry",
        "polars_rankmetrics._engine",
        "polars_rankmetrics.evaluation",
        "polars_rankmetrics.namespace",
        "polars_rankmetrics.chunked",
        "polars_rankmetrics.cli",
        "polars_rankmetrics.fusion",
    )
    graph = _graph()
    for name, targets in graph.items():
        if name.startswith("polars_rankmetrics.metrics") or name in (
            "polars_rankmetrics._spec",
            "polars_rankmetrics._kernel",
        ):
            bad = sorted(t for t in targets if t.startswith(above))
            assert not bad, f"{name} imports {bad}"


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The detector itself works: a two-module loop is reported."""
    assert _cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_fusion_sits_beside_the_entry_points() -> None:
    """fusion/ builds on io, evaluation and the engine; nothing below the entry points imports it."""
    graph = _graph()
    for name, targets in graph.items():
        if name == "polars_rankmetrics" or name.startswith(
            ("polars_rankmetrics.fusion", "polars_rankmetrics.cli")
        ):
            continue
        bad = sorted(t for t in targets if t.startswith("polars_rankmetrics.fusion"))
        assert not bad, f"{name} imports {bad}"


def _code_lines(node: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str], docs: set[int]) -> int:
    """The lines of a function that hold code: no blank line, comment or docstring."""
    span = range(node.lineno, (node.end_lineno or node.lineno) + 1)
    return sum(
        1 for n in span if n not in docs and lines[n - 1].strip() and not lines[n - 1].strip().startswith("#")
    )


def test_no_function_over_60_code_lines() -> None:
    """Functions small enough to read at once (docstrings, comments and blank lines not counted)."""
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text()
        tree, lines = ast.parse(text), text.splitlines()
        docs: set[int] = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
                value = body[0].value
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    docs.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
        long += [
            f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({n} lines)"
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (n := _code_lines(node, lines, docs)) > MAX_FUNCTION_LINES
        ]
    assert not long, long
