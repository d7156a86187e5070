"""significance/ sits on the foundation alone, and imports its optional dependencies only when called."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SIGNIFICANCE = Path(__file__).resolve().parents[2] / "polars_rankmetrics" / "significance"
FOUNDATION = (
    "polars_rankmetrics.exceptions._plan",
    "polars_rankmetrics._inputs",
    "polars_rankmetrics.exceptions._parameters",
    "polars_rankmetrics._schema",
    "polars_rankmetrics.exceptions",
    "polars_rankmetrics.significance",
)
OPTIONAL = ("numpy", "scipy", "great_tables", "altair", "vl_convert", "statsmodels")


def _imports(tree: ast.Module) -> list[tuple[str, bool]]:
    """Every imported module name, and whether the import runs when the module is imported."""
    checking = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            # `from a.b import c` imports a.b, and a.b.c when c is a module: both are listed.
            found.append((node.module, id(node) in top))
            found += [(f"{node.module}.{alias.name}", id(node) in top) for alias in node.names]
    return found


@pytest.mark.parametrize("path", sorted(SIGNIFICANCE.glob("*.py")), ids=lambda p: p.name)
def test_compare_imports_only_the_foundation(path: Path) -> None:
    """No engine, metric, registry or entry-point module; numpy and the rest not at import time."""
    tree = ast.parse(path.read_text())
    for name, at_import in _imports(tree):
        if name.startswith("polars_rankmetrics.") or name == "polars_rankmetrics":
            ok = name == "polars_rankmetrics" or name.startswith(FOUNDATION)
            assert ok, f"{path.name} imports {name}"
        top = name.partition(".")[0]
        if top in OPTIONAL and path.name not in ("_paired.py", "_stats.py", "_corrections.py"):
            assert not at_import, f"{path.name} imports {name} when imported"


def test_the_numpy_modules_are_imported_lazily() -> None:
    """The modules that import numpy at their top are imported only inside functions."""
    lazy = {
        "polars_rankmetrics.significance._paired",
        "polars_rankmetrics.significance._stats",
        "polars_rankmetrics.significance._corrections",
    }
    for path in SIGNIFICANCE.glob("*.py"):
        for name, at_import in _imports(ast.parse(path.read_text())):
            if name in lazy:
                assert not at_import, f"{path.name} imports {name} when imported"
