"""MkDocs hook: the metric pages and the API reference, generated from the registry and ``__all__``.

Nothing here is written to disk: the pages are added to the build as generated
files, and their nav entries are added to the "Metrics" and "API reference"
sections, so a new metric family or a new public name gets its page by
itself. ``tests/test_docs_reference.py`` checks that every public name is on
one of these pages.

Every Python fence of the site that sets ``exec="on"`` without ``source=``
shows its source above its output (markdown-exec shows only the output by
default).
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
import types
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the package of this checkout, as mkdocstrings' `paths: [.]`
    sys.path.insert(0, str(ROOT))

PACKAGE = "polars_rankmetrics"
MODULES = (PACKAGE, f"{PACKAGE}.expr", f"{PACKAGE}.spark")

# The reference's sections: names listed here are grouped; any other public name
# lands in "Other public names" (so nothing is ever left out).
SECTIONS: dict[str, tuple[str, ...]] = {
    "Evaluating": (
        "evaluate",
        "collect",
        "population",
        "evaluate_chunked",
        "Accumulator",
        "validate",
        "RankFrame",
    ),
    "Reading and joining data": (
        "read_trec_run",
        "read_trec_qrels",
        "scan_trec_run",
        "scan_trec_qrels",
        "join_run_qrels",
        "debias_qrels",
        "from_id_lists",
        "demo_path",
    ),
    "Metrics, names and conventions": ("Metric", "parse", "valid_names", "Columns", "Conventions"),
    "Curves": ("pr_curve",),
    "Comparing systems": ("compare", "table", "table_markdown"),
    "Judgments from two sources": (
        "agreement",
        "confusion_table",
        "system_agreement",
        "system_swaps",
        "fill_judgments",
        "judgment_shares",
    ),
    "Errors and warnings": (
        "RankMetricsError",
        "ColumnNotFoundError",
        "ColumnTypeError",
        "InvalidParameterError",
        "UnknownMetricError",
        "InvalidDataError",
        "TrecFormatError",
        "InvalidInputError",
        "RankMetricsWarning",
    ),
}
SUBMODULES = {
    "expr": "reference/expr.md",
    "plots": "reference/plots.md",
    "offpolicy": "reference/offpolicy.md",
}


def public_names(module: str) -> list[str]:
    """The names of `module`'s ``__all__``."""
    return list(importlib.import_module(module).__all__)


def _module_specs() -> list[tuple[types.ModuleType, list[Any]]]:
    """Each metric family module (``metrics.FAMILIES``, in its order) with its specs."""
    families = importlib.import_module(f"{PACKAGE}.metrics").FAMILIES
    return [(module, list(module.SPECS)) for module in families if module.SPECS]


def _slug(module: types.ModuleType) -> str:
    return module.__name__.rsplit(".", 1)[1]


def _title(module: types.ModuleType) -> str:
    if not module.__doc__:
        return _slug(module).replace("_", " ").capitalize()
    first = module.__doc__.strip().splitlines()[0].rstrip(".")
    return first.split(":", 1)[0]


def anchor(spec: Any) -> str:  # noqa: ANN401  (a MetricSpec of the registry)
    """The id of a metric's section on its family page (set on the heading, so links never guess)."""
    return re.sub(r"[^a-z0-9_-]", "-", spec.name.lower())


_SUFFIX = re.compile(r"(\([^()]*\))?(@k)?$")


def spellings(spec: Any) -> tuple[list[str], bool]:  # noqa: ANN401  (a MetricSpec of the registry)
    """The other names `spec` is spelled by, and whether any letter case is read the same.

    Read from the parser itself: every name of ``prm.valid_names()`` (without its
    ``(params)`` and ``@k``) that ``prm.parse`` reads as this metric, less the
    canonical name and trec_eval's names (listed on their own row).
    """
    prm = importlib.import_module(PACKAGE)
    found = [base for base, name in _parsed_names().items() if name == spec.name and base != spec.name]
    mixed = "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(spec.name))
    variants = {spec.name.upper(), mixed} - {spec.name} - set(_parsed_names())
    any_case = bool(variants) and all(_parsed(prm, v) == spec.name for v in variants)
    return found, any_case


@functools.cache
def _parsed_names() -> dict[str, str | None]:
    """Each name of ``prm.valid_names()`` (bare: no parameters, no cutoff) and the metric it parses as."""
    prm = importlib.import_module(PACKAGE)
    trec = {t.replace("{k}", "k") for spec in prm.parse.__globals__["SPECS"] for t in spec.trec}
    out: dict[str, str | None] = {}
    for name in prm.valid_names():
        base = _SUFFIX.sub("", name)
        if name not in trec and base not in out:
            out[base] = _parsed(prm, base)
    return out


def _parsed(prm: Any, base: str) -> str | None:  # noqa: ANN401
    """The metric `base` (with a cutoff where the metric needs one) is parsed as; None if neither parses."""
    for name in (base, f"{base}@10"):
        try:
            return str(prm.parse(name).spec.name)
        except prm.RankMetricsError:  # noqa: PERF203  (a name is tried with and without a cutoff)
            continue
    return None


def _code(values: Iterator[str] | list[str] | tuple[str, ...]) -> str:
    """Names as code; trec_eval's templates written as they read (``P_{k}`` as ``P_k``)."""
    return ", ".join(f"`{v.replace('{', '').replace('}', '')}`" for v in values) or "none"


def _param(p: Any) -> str:  # noqa: ANN401  (a Param of the registry)
    if p.kind == "side":
        return (
            f"`{p.name}` (" + ("data; default none" if p.default is None else f"default {p.default!r}") + ")"
        )
    default = "none" if p.default is None else p.default
    if p.kind == "gain":
        return f"`{p.name}` (a {{grade: gain}} mapping; default {default})"
    return f"`{p.name}` (default {default}; {p.domain})"


def _ties(spec: Any) -> str:  # noqa: ANN401
    policies = [p for p in ("text", "optimistic", "pessimistic", "average") if spec.ties.defines(p)]
    why = f" ({spec.ties.why})" if spec.ties.why else ""
    return _code(policies) + why


AGGREGATES = {
    "mean": "mean over queries",
    "sum": "sum over queries",
    "gmean": "geometric mean over queries (trec_eval's 1e-5 floor)",
    "weighted": "ratio of sums over queries",
    "none": "per query only",
}
KS = {"optional": "optional (`name@k`)", "required": "required (`name@k`)", "none": "none"}


def _spelled(spec: Any) -> str:  # noqa: ANN401
    names, any_case = spellings(spec)
    text = _code(names)
    return f"{text}; the names in any letter case" if any_case else text


def _spec_table(spec: Any, builders: set[str]) -> str:  # noqa: ANN401
    function = spec.python_name
    scope = {"query": "query", "catalog": "catalog: one value per `by` group from every list"}[spec.scope]
    rows = [
        ("constructor", f"`prm.{function}`, `df.rank.{function}`"),
        ("expression builder", f"`polars_rankmetrics.expr.{function}`" if function in builders else "none"),
        ("other spellings", _spelled(spec)),
        ("trec_eval names", _code(spec.trec)),
        ("cutoff k", KS.get(spec.k, spec.k)),
        ("parameters", "; ".join(_param(p) for p in spec.params) or "none"),
        ("aggregation", AGGREGATES.get(spec.aggregate, spec.aggregate) if spec.scope == "query" else scope),
        ("tie policies (`ties=`)", _ties(spec)),
    ]
    lines = ["| property | value |", "| --- | --- |", *(f"| {k} | {v} |" for k, v in rows)]
    return "\n".join(lines)


def metric_pages() -> dict[str, str]:
    """The metric pages by path: an index and one page per family module."""
    builders = set(public_names(f"{PACKAGE}.expr"))
    pages: dict[str, str] = {}
    index = [
        "# Metric definitions",
        "",
        "Generated from the registry (`polars_rankmetrics._registry.SPECS`) and the",
        "constructors' docstrings when the site builds: a new metric appears here by itself.",
        'Each metric is a constructor (`prm.ndcg(10)`), a name (`"ndcg@10"`, parsed by',
        "`prm.parse`) and a `.rank` method (`df.rank.ndcg(10)`);",
        "[Conventions](../guides/conventions.md) says what the conventions do to each.",
        "One section per family, each with its own page; each metric's name links to its definition.",
    ]
    for module, specs in _module_specs():
        slug = _slug(module)
        title = _title(module)
        index += [
            "",
            f"## [{title}]({slug}.md)",
            "",
            "| metric | constructor | trec_eval names | aggregation |",
            "| --- | --- | --- | --- |",
        ]
        page = [f"# {title}", ""]
        if module.__doc__:
            rest = module.__doc__.strip().split("\n\n", 1)
            if len(rest) > 1:
                page += [re.sub(r"\(DESIGN\.md[^)]*\)", "", rest[1]).strip(), ""]
        done: set[str] = set()
        for spec in specs:
            function = spec.python_name
            page += [f"## `{spec.name}` {{ #{anchor(spec)} }}", "", _spec_table(spec, builders), ""]
            if function in done:
                page += [f"Built by `prm.{function}` (above), with its parameters.", ""]
            else:
                page += [
                    f"::: {PACKAGE}.{function}",
                    "    options:",
                    "      show_root_heading: false",
                    "      show_root_toc_entry: false",
                    "      heading_level: 3",
                    "",
                ]
                done.add(function)
            aggregation = (
                AGGREGATES.get(spec.aggregate, spec.aggregate) if spec.scope == "query" else "catalog"
            )
            index.append(
                f"| [`{spec.name}`]({slug}.md#{anchor(spec)}) | `prm.{function}` | {_code(spec.trec)} "
                f"| {aggregation} |"
            )
        pages[f"metrics/{slug}.md"] = "\n".join(page) + "\n"
    pages["metrics/index.md"] = "\n".join(index) + "\n"
    return pages


def _directive(target: str) -> str:
    """An entry of the reference; an exception or warning class without its members.

    The exception classes' members are the factory classmethods the library builds
    its messages with (``from_type``, ``needs_cutoff``...), not API a user calls.
    """
    module, _, name = target.rpartition(".")
    try:
        obj = getattr(importlib.import_module(module), name, None)
    except ImportError:  # polars_rankmetrics.spark without pyspark
        obj = None
    if isinstance(obj, type) and issubclass(obj, (BaseException, Warning)):
        return f"::: {target}\n    options:\n      members: false\n"
    home = getattr(obj, "__module__", "") or ""
    if callable(obj) and home.rsplit(".", 1)[-1] == name and home != module:
        # A function named as the module that defines it (prm.table, from significance/table.py):
        # mkdocstrings would resolve the name to the module and render all of it.
        return f"::: {home}.{name}\n"
    return f"::: {target}\n"


def reference_pages() -> dict[str, str]:
    """The API reference by path: every name of the three modules' ``__all__``."""
    metric_functions = {spec.python_name for _, specs in _module_specs() for spec in specs}
    names = public_names(PACKAGE)
    main = [
        "# API reference",
        "",
        "Every public name of `polars_rankmetrics` (its `__all__`), `polars_rankmetrics.expr` and",
        "`polars_rankmetrics.spark`, generated from `__all__` when the site builds.",
        "`import polars_rankmetrics as prm`; importing it registers the `.rank` namespace.",
        "",
    ]
    listed: set[str] = set()
    for section, members in SECTIONS.items():
        present = [n for n in members if n in names]
        if not present:
            continue
        main += [f"## {section}", ""]
        for name in present:
            main.append(_directive(f"{PACKAGE}.{name}"))
            if name == "RankFrame":
                main.append(
                    "`frame.rank` (the namespace registered on DataFrame and LazyFrame) and\n"
                    "`prm.RankFrame(frame)` also have one method per metric, named as the\n"
                    "constructor (`frame.rank.ndcg(10)`): the constructor's parameters, then\n"
                    "`evaluate`'s keywords. See the [metric pages](../metrics/index.md).\n"
                )
            listed.add(name)
    constructors = [n for n in names if n in metric_functions and n not in listed]
    main += [
        "## Metric constructors",
        "",
        "Each returns a `prm.Metric`; its page gives the definition, parameters and trec_eval names.",
        "",
    ]
    page_of: dict[str, str] = {}
    for module, specs in _module_specs():
        for spec in specs:  # the first family a constructor builds (mpr builds three)
            page_of.setdefault(spec.python_name, f"../metrics/{_slug(module)}.md#{anchor(spec)}")
    main += [f"- [`prm.{n}`]({page_of[n]})" for n in constructors]
    main.append("")
    listed.update(constructors)
    modules = [n for n in names if n in SUBMODULES and n not in listed]
    if modules:
        main += ["## Modules", ""]
        main += [f"- [`polars_rankmetrics.{n}`]({SUBMODULES[n].removeprefix('reference/')})" for n in modules]
        main.append("")
        listed.update(modules)
    others = [n for n in names if n not in listed]
    if others:
        main += ["## Other public names", ""]
        main += [_directive(f"{PACKAGE}.{n}") for n in others]
    pages = {"reference/index.md": "\n".join(main)}
    expr = [
        "# polars_rankmetrics.expr",
        "",
        _directive(f"{PACKAGE}.expr")
        + "    options:\n      members: false\n      show_root_heading: false\n",
        "## Builders",
        "",
    ]
    expr += [_directive(f"{PACKAGE}.expr.{n}") for n in public_names(f"{PACKAGE}.expr")]
    pages["reference/expr.md"] = "\n".join(expr)
    plots = importlib.import_module(f"{PACKAGE}.plots")
    pages["reference/plots.md"] = "\n".join(
        [
            "# polars_rankmetrics.plots",
            "",
            _directive(f"{PACKAGE}.plots")
            + "    options:\n      members: false\n      show_root_heading: false\n",
            *(_directive(f"{PACKAGE}.plots.{n}") for n in plots.__all__),
        ]
    )
    offpolicy = importlib.import_module(f"{PACKAGE}.offpolicy")
    pages["reference/offpolicy.md"] = "\n".join(
        [
            "# polars_rankmetrics.offpolicy",
            "",
            _directive(f"{PACKAGE}.offpolicy")
            + "    options:\n      members: false\n      show_root_heading: false\n",
            *(_directive(f"{PACKAGE}.offpolicy.{n}") for n in offpolicy.__all__),
        ]
    )
    spark = [
        "# polars_rankmetrics.spark",
        "",
        'Needs the `spark` extra (`pip install "polars-rankmetrics[spark]"`); see the',
        "[Spark guide](../guides/spark.md).",
        "",
    ]
    spark += [_directive(f"{PACKAGE}.spark.{n}") for n in _spark_names()]
    pages["reference/spark.md"] = "\n".join(spark)
    return pages


def _spark_names() -> list[str]:
    """``polars_rankmetrics.spark.__all__``, read from its source when pyspark is not installed."""
    try:
        return public_names(f"{PACKAGE}.spark")
    except ImportError:
        source = (ROOT / PACKAGE / "spark" / "__init__.py").read_text(encoding="utf-8")
        match = re.search(r"__all__ = \[(.*?)\]", source, re.DOTALL)
        return re.findall(r'"(\w+)"', match.group(1)) if match else []


def generated_pages() -> dict[str, str]:
    """Every generated page by path under docs/."""
    return {**metric_pages(), **reference_pages()}


# MkDocs events ---------------------------------------------------------------------------------


def _nav_section(nav: list[Any], title: str) -> list[Any] | None:
    for entry in nav:
        if isinstance(entry, dict) and title in entry:
            value = entry[title]
            if isinstance(value, str):
                entry[title] = [value]
            return entry[title]  # type: ignore[no-any-return]
    return None


def on_config(config: Any) -> Any:  # noqa: ANN401  (MkDocs' config object)
    """Add the generated pages to the nav's "Metrics" and "API reference" sections."""
    pages = generated_pages()
    for title, prefix, first in (
        ("Metrics", "metrics/", "metrics/index.md"),
        ("API reference", "reference/", "reference/index.md"),
    ):
        section = _nav_section(config["nav"], title)
        if section is None:
            continue
        present = {e if isinstance(e, str) else next(iter(e.values())) for e in section}
        for path in [p for p in pages if p.startswith(prefix) and p != first]:  # the registry's order
            if path not in present:
                section.append(path)
    return config


def on_files(files: Any, config: Any) -> Any:  # noqa: ANN401
    """Add the generated pages to the build."""
    from mkdocs.structure.files import File  # noqa: PLC0415  (MkDocs is there when this runs)

    for path, content in generated_pages().items():
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, path, content=content))
    return files


FENCE = re.compile(r'^(\s*```+\s*python[^\n]*\bexec="(?:on|1|true)"[^\n]*)$', re.MULTILINE)


def on_page_markdown(markdown: str, **_: Any) -> str:  # noqa: ANN401
    """Show the source of executed Python fences above their output unless they say otherwise."""

    def add_source(match: re.Match[str]) -> str:
        line = match.group(1)
        return line if "source=" in line else f'{line} source="above"'

    return FENCE.sub(add_source, markdown)


MATH = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]</(?P=tag)>', re.DOTALL
)


def render_math(html: str) -> str:
    """Replace arithmatex's inline and block math spans by MathML, which browsers draw natively.

    The math is converted when the site builds (latex2mathml): no script, no CDN.
    """
    from latex2mathml.converter import convert  # noqa: PLC0415  (the docs extra has it)

    def mathml(match: re.Match[str]) -> str:
        display = "block" if match.group("open") == "[" else "inline"
        return str(convert(unescape(match.group("tex")), display=display))

    return MATH.sub(mathml, html)


EMPTY_OUTPUT = re.compile(r'<div class="highlight"><pre><span></span><code>\s*</code></pre></div>\n?')


def drop_empty_output(html: str) -> str:
    """Remove the empty box markdown-exec renders for an executed block that prints nothing."""
    return EMPTY_OUTPUT.sub("", html)


ROLE = re.compile(r":(?:func|class|meth|data|attr|mod|exc|obj):(<code>|`)~?")


def on_page_content(html: str, **_: Any) -> str:  # noqa: ANN401
    """Drop the docstrings' Sphinx roles (``:func:``), keeping their code; math as MathML; no empty output."""
    return drop_empty_output(render_math(ROLE.sub(r"\1", html)))
