"""The documentation site's generated pages: every public name has its entry, every metric its page.

The pages come from ``docs/_hooks/generated_pages.py`` (the MkDocs hook), called here
without MkDocs; ``mkdocs build --strict`` then renders each ``::: name`` entry.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import polars_rankmetrics as prm
from polars_rankmetrics import expr
from polars_rankmetrics._registry import SPECS

ROOT = Path(__file__).resolve().parents[1]
HOOK = ROOT / "docs" / "_hooks" / "generated_pages.py"


def load_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generated_pages", HOOK)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def entries(pages: dict[str, str]) -> set[str]:
    """The objects the pages render (``::: polars_rankmetrics.name`` lines)."""
    return {m.group(1) for text in pages.values() for m in re.finditer(r"^::: (\S+)$", text, re.MULTILINE)}


def spark_all() -> list[str]:
    """``polars_rankmetrics.spark.__all__``, read from its source (no pyspark import)."""
    tree = ast.parse((ROOT / "polars_rankmetrics" / "spark" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
            return [ast.literal_eval(e) for e in node.value.elts]  # type: ignore[attr-defined]
    raise AssertionError("polars_rankmetrics/spark/__init__.py has no __all__")


def test_every_public_name_has_a_reference_entry() -> None:
    pages = load_hook().generated_pages()
    rendered = entries(pages)
    submodules = {name for name in prm.__all__ if isinstance(getattr(prm, name), ModuleType)}
    missing = [
        f"polars_rankmetrics.{name}"
        for name in prm.__all__
        if name not in submodules
        and f"polars_rankmetrics.{name}" not in rendered
        and f"{getattr(getattr(prm, name), '__module__', '')}.{name}" not in rendered  # prm.table: its module
    ]
    missing += [
        f"polars_rankmetrics.expr.{n}" for n in expr.__all__ if f"polars_rankmetrics.expr.{n}" not in rendered
    ]
    missing += [
        f"polars_rankmetrics.spark.{n}"
        for n in spark_all()
        if f"polars_rankmetrics.spark.{n}" not in rendered
    ]
    plots = prm.plots.__all__
    missing += [
        f"polars_rankmetrics.plots.{n}" for n in plots if f"polars_rankmetrics.plots.{n}" not in rendered
    ]
    assert not missing, f"public names missing from the site's reference: {missing}"
    reference = "\n".join(text for path, text in pages.items() if path.startswith("reference/"))
    for name in submodules:  # each submodule of __all__ has its own reference page, linked
        assert f"`polars_rankmetrics.{name}`" in reference, name
        assert f"reference/{name}.md" in pages, name


def test_every_registered_metric_has_a_section_with_its_constructor() -> None:
    pages = load_hook().metric_pages()
    metrics = "\n".join(text for path, text in pages.items() if path != "metrics/index.md")
    for spec in SPECS:
        assert f"## `{spec.name}`" in metrics, spec.name
        assert f"`prm.{spec.python_name}`" in pages["metrics/index.md"], spec.name
    rendered = entries(pages)
    assert {f"polars_rankmetrics.{spec.python_name}" for spec in SPECS} <= rendered


def test_the_generated_pages_are_in_the_nav() -> None:
    hook = load_hook()
    config = {
        "nav": [
            {"Home": "index.md"},
            {"Metrics": ["metrics/index.md"]},
            {"API reference": "reference/index.md"},
        ]
    }
    nav = hook.on_config(config)["nav"]
    listed = {
        page
        for section in nav
        for value in section.values()
        for page in ([value] if isinstance(value, str) else value)
    }
    assert set(hook.generated_pages()) <= listed
    mkdocs_yml = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "- metrics/index.md" in mkdocs_yml
    assert "API reference: reference/index.md" in mkdocs_yml
    assert "docs/_hooks/generated_pages.py" in mkdocs_yml


def test_executed_fences_show_their_source() -> None:
    hook = load_hook()
    page = (
        '```python exec="on" result="text" session="x"\nprint(1)\n```\n'
        '```python exec="on" source="tabbed-left"\nprint(2)\n```\n'
    )
    out = hook.on_page_markdown(page)
    assert 'session="x" source="above"' in out
    assert out.count("source=") == 2
