"""The documentation site's pages: metric pages, math, reference entries, README, CLI and help texts.

The generated pages come from ``docs/_hooks/generated_pages.py``, called here without
MkDocs; the docstring rewriting from ``docs/_hooks/griffe_doctests.py``.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
import tomllib

import polars_rankmetrics as prm
from polars_rankmetrics._registry import SPECS
from polars_rankmetrics.cli import main
from polars_rankmetrics.metrics import FAMILIES

ROOT = Path(__file__).resolve().parents[1]
HOOKS = ROOT / "docs" / "_hooks"
GUIDES = ROOT / "docs" / "guides"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, HOOKS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hook() -> ModuleType:
    return load("generated_pages")


@pytest.fixture(scope="module")
def pages(hook: ModuleType) -> dict[str, str]:
    return hook.metric_pages()  # type: ignore[no-any-return]


# Metric pages -----------------------------------------------------------------------------------


def test_one_page_per_metric_family(pages: dict[str, str]) -> None:
    families = {f"metrics/{m.__name__.rsplit('.', 1)[1]}.md" for m in FAMILIES if m.SPECS}
    assert set(pages) == families | {"metrics/index.md"}
    for module in FAMILIES:  # each family's metrics on its own page, none elsewhere
        page = pages[f"metrics/{module.__name__.rsplit('.', 1)[1]}.md"]
        for spec in module.SPECS:
            assert f"## `{spec.name}` {{ #" in page, spec.name
    assert "Other metrics" not in "\n".join(pages.values())


def test_each_metric_has_an_anchor_the_definitions_table_links_to(pages: dict[str, str]) -> None:
    index = pages["metrics/index.md"]
    links = re.findall(r"^\| \[`([^`]+)`\]\((\w+\.md)#([\w-]+)\) \|", index, re.MULTILINE)
    assert [name for name, _, _ in links] == [spec.name for spec in SPECS]
    for name, page, anchor in links:
        assert re.search(
            rf"^## `{re.escape(name)}` \{{ #{anchor} \}}$", pages[f"metrics/{page}"], re.MULTILINE
        ), (
            name,
            page,
            anchor,
        )
    assert len({anchor for _, page, anchor in links}) == len(links)  # no two metrics share an anchor


def test_info_tables_have_no_empty_first_row(pages: dict[str, str]) -> None:
    text = "\n".join(pages.values())
    assert "| | |" not in text
    assert text.count("| property | value |") == len(SPECS)


def _listed_spellings(page: str, name: str, row_name: str = "other spellings") -> tuple[set[str], bool]:
    section = page.split(f"## `{name}` ", 1)[1].split("\n## ", 1)[0]
    row = re.search(rf"^\| {row_name} \| (.*) \|$", section, re.MULTILINE)
    assert row is not None, name
    return set(re.findall(r"`([^`]+)`", row.group(1))), "any letter case" in row.group(1)


# Names users type, from the recommender, IR and RAG libraries: each that the parser reads must be
# on its metric's page (as written, or by the page saying that any letter case is read the same).
TYPED = [
    "nDCG@10", "NDCG@10", "ndcg@10", "MRR", "MRR@10", "mrr@10", "MAP", "MAP@10", "AP", "RR@10",
    "HR@10", "HitRate@10", "hit_rate@10", "Hit@10", "Recall@10", "recall@10", "R@100", "Precision@10",
    "P@5", "P@10", "Success@10", "RetrievalMRR", "RetrievalNormalizedDCG@10", "r-precision", "Rprec",
    "AUROC", "roc_auc", "F1@10", "bpref", "Bpref", "ERR@10", "RBP",
]  # fmt: skip


def test_metric_pages_list_the_spellings_the_parser_reads(pages: dict[str, str]) -> None:
    """Every listed spelling parses to its metric; every typed name that parses is listed."""
    page_of = {spec.name: next(p for p in pages.values() if f"## `{spec.name}` " in p) for spec in SPECS}
    listed = {spec.name: _listed_spellings(page_of[spec.name], spec.name) for spec in SPECS}
    for spec in SPECS:
        for name in listed[spec.name][0]:
            parsed = [_parse(n) for n in (name, f"{name}@10")]
            assert spec.name in parsed, (spec.name, name, parsed)
    for typed in TYPED:
        found = _parse(typed)
        if found is None:
            continue  # not a name of ours (yet): nothing to list
        bare = re.sub(r"@\d+$", "", typed)
        names, any_case = listed[found]
        trec, _ = _listed_spellings(page_of[found], found, "trec_eval names")
        shown = {found, *names, *trec}
        assert bare in shown or (any_case and bare.lower() in {n.lower() for n in shown}), (typed, found)


def test_spellings_page_disagreeing_with_the_parser_fails(hook: ModuleType) -> None:
    """The check above is not vacuous: a page whose list lacks a parsed spelling is caught."""
    ndcg = next(spec for spec in SPECS if spec.name == "ndcg")
    names, _ = hook.spellings(ndcg)
    assert "nDCG" in names  # ir_measures' spelling, read by the parser
    page = hook.metric_pages()["metrics/graded.md"].replace("`nDCG`, ", "")
    listed, _ = _listed_spellings(page, "ndcg")
    assert "nDCG" not in listed
    assert _parse("nDCG@10") == "ndcg"


def _parse(name: str) -> str | None:
    try:
        return str(prm.parse(name).spec.name)
    except prm.RankMetricsError:
        return None


# Math and the API reference -----------------------------------------------------------------------


def test_python_powers_in_docstrings_become_math() -> None:
    ext = load("griffe_doctests")
    text = "a multiple of 2**-64, exact from 2**-11; scale 2**(s / 2); ``p ** (r - f)`` and **bold**"
    out = ext.powers_as_math(text)
    assert "$2^{-64}$" in out
    assert "$2^{-11}$" in out
    assert "$2^{s / 2}$" in out
    assert "``p ** (r - f)``" in out  # code is left alone
    assert "**bold**" in out
    assert "**" not in out.replace("**bold**", "").replace("``p ** (r - f)``", "")
    assert ext.powers_as_math(">>> 2**3\n8") == ">>> 2**3\n8"  # doctests too


def test_math_spans_become_mathml(hook: ModuleType) -> None:
    span = '<span class="arithmatex">'
    html = rf"<p>below {span}\(2^{{-64}}\)</span> and {span}\(a &lt; b\)</span></p>"
    out = hook.render_math(html)
    assert "arithmatex" not in out
    assert out.count("<math") == 2
    assert "<msup><mn>2</mn>" in out
    assert "<mi>a</mi>" in out  # the escaped TeX (a &lt; b) is read as TeX
    assert "&lt; b" not in out


def test_evaluate_power_renders_as_math_on_its_api_page() -> None:
    """The bold-markup bug: ``2**-32`` of evaluate's docstring, after the docs' rewriting, is math."""
    ext = load("griffe_doctests")
    doc = prm.evaluate.__doc__
    assert doc is not None
    assert "2**-64" in doc
    rewritten = ext.powers_as_math(ext.fence_doctests(doc))
    assert "$2^{-64}$" in rewritten
    assert not re.search(r"\w\*\*-?\w", rewritten.split("Examples\n")[0])


def test_a_block_that_prints_nothing_leaves_no_empty_box(hook: ModuleType) -> None:
    box = '<div class="highlight"><pre><span></span><code>'
    source = f'{box}<span class="n">x</span> = 1\n</code></pre></div>\n'
    empty = f"{box}\n</code></pre></div>\n"
    assert hook.on_page_content(source + empty + "<p>next</p>") == source + "<p>next</p>"


def test_exception_classes_show_no_factory_classmethods(hook: ModuleType) -> None:
    reference = hook.reference_pages()["reference/index.md"]
    for name in ("RankMetricsError", "ColumnNotFoundError", "UnknownMetricError", "RankMetricsWarning"):
        entry = re.search(rf"^::: polars_rankmetrics\.{name}\n((?:    .*\n)*)", reference, re.MULTILINE)
        assert entry is not None, name
        assert "members: false" in entry.group(1), name
    assert "::: polars_rankmetrics.evaluate\n" in reference  # functions keep their plain entry


# help(prm.evaluate) --------------------------------------------------------------------------------


def test_help_of_evaluate_is_short_and_links_the_long_notes() -> None:
    doc = prm.evaluate.__doc__
    assert doc is not None
    assert len(doc.splitlines()) <= 110
    notes = doc.split("Notes\n    -----\n", 1)[1].split("Examples\n", 1)[0]
    assert len(notes.strip().splitlines()) <= 8
    assert "[where-exactness-stops]" in notes
    assert "valid_names" in doc  # where the accepted names are listed
    conventions = (GUIDES / "conventions.md").read_text(encoding="utf-8")
    assert "## Where exactness stops { #where-exactness-stops }" in conventions
    for moved in ("rbp_resid", "ndcg(gain={1: 1e-30})", "2^{-61}"):
        assert moved in conventions, moved


# README ------------------------------------------------------------------------------------------


def test_readme_lists_every_guide() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for guide in sorted(GUIDES.glob("*.md")):
        assert f"(docs/guides/{guide.name})" in readme, f"README's guide list lacks {guide.name}"
        assert f"guides/{guide.name}" in mkdocs, f"mkdocs.yml's nav lacks {guide.name}"


PEERS = ("pytrec_eval", "ranx", "Recommenders", "torchmetrics", "recmetrics")


def measured() -> tuple[dict[str, list[float]], list[float]]:
    """Each peer's "peer / ours" ratios in the end-to-end results, and pytrec_eval / the floor plan."""
    ratios: dict[str, list[float]] = {peer: [] for peer in PEERS}
    floors: list[float] = []
    for name in ("end_to_end.md", "end_to_end_10m.md"):
        text = (ROOT / "benchmarks" / "results" / name).read_text(encoding="utf-8")
        for row, ratio in re.findall(r"^\| ([^|]+) \| [\d.]+ \([\d.]+\) \| ([\d.]+) \|", text, re.MULTILINE):
            label = row.rsplit(": ", 1)[-1]
            for peer in PEERS:
                if label.startswith((peer, f"{peer} ")):
                    ratios[peer].append(float(ratio))
        floors += [
            float(v)
            for v in re.findall(r"floor, a bare Polars plan.*?pytrec_eval / (?:plan|floor) ([\d.]+)", text)
        ]
    assert all(ratios.values()), ratios
    assert floors
    return ratios, floors


def _agrees(written: str, value: float) -> bool:
    decimals = len(written.split(".")[1]) if "." in written else 0
    return float(written) == round(value, decimals)


def _range_agrees(text: str, values: list[float]) -> bool:
    low, high = text.split("-")
    return _agrees(low, min(values)) and _agrees(high, max(values))


def test_readme_speed_summary_is_the_benchmark_results() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    fast = re.search(r"- \*\*Fast\.\*\*(.*?)\n(?:- |\n)", readme, re.DOTALL)
    assert fast is not None
    summary = " ".join(fast.group(1).split())
    ratios, floors = measured()
    found = {
        peer: figure
        for figure, peer in re.findall(
            r"([\d.]+-[\d.]+)x (ranx|Recommenders|torchmetrics|pytrec_eval)", summary
        )
    }
    assert set(found) == {"ranx", "Recommenders", "torchmetrics", "pytrec_eval"}
    for peer, figure in found.items():
        assert _range_agrees(figure, ratios[peer]), (peer, figure, min(ratios[peer]), max(ratios[peer]))
    floor = re.search(r"beats by only ([\d.]+-[\d.]+)x", summary)
    assert floor is not None
    assert _range_agrees(floor.group(1), floors), (floor.group(1), min(floors), max(floors))


@pytest.mark.parametrize("path", ["README.md", "docs/benchmarks.md"])
def test_speed_tables_quote_the_benchmark_results(path: str) -> None:
    """Every ratio of the end-to-end table (README's and the benchmarks page's) is a measured one."""
    text = (ROOT / path).read_text(encoding="utf-8")
    ratios, _ = measured()
    rows = re.findall(
        r"^\| (TREC files[^|]*|two frames[^|]*|the same[^|]*) \| ([^|]+) \| ([^|]+) \|", text, re.MULTILINE
    )
    assert len(rows) >= 9, path
    checked = 0
    for _, peer_cell, ratio_cell in rows:
        peers = [
            p for p in PEERS if p in peer_cell and not (p == "Recommenders" and "recmetrics" in peer_cell)
        ]
        if len(peers) != 1:
            continue
        values = ratios[peers[0]]
        for figure in re.findall(r"[\d.]+", ratio_cell):
            assert any(_agrees(figure, v) for v in values), (path, peers[0], figure)
            checked += 1
    assert checked >= 12, path


# The CLI page -------------------------------------------------------------------------------------


def test_cli_page_documents_refuse_missing() -> None:
    page = (GUIDES / "cli.md").read_text(encoding="utf-8")
    assert re.search(r"^\| `--refuse-missing` \| .*status 4", page, re.MULTILINE)
    assert "[--refuse-missing]" in page.split("```", 2)[1]  # the synopsis
    assert 'rankmetrics("-q --refuse-missing qrels.test results.trunc -m map")' in page


def test_cli_page_says_truly_what_a_duplicate_error_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = prm.demo_path("results.test").read_text().splitlines(keepends=True)
    twice = tmp_path / "twice.run"
    twice.write_text("".join(lines + lines[:1]))
    status = main([str(prm.demo_path("qrels.test")), str(twice), "-m", "map"])
    err = capsys.readouterr().err
    assert status == 1
    query, item = lines[0].split()[0], lines[0].split()[2]
    assert f"query='{query}', item='{item}'" in err
    assert "twice.run" not in err  # so the page must not promise the file
    page = " ".join((GUIDES / "cli.md").read_text(encoding="utf-8").split())
    assert "the file and line)" not in page
    promise = "the query and the item for a (query, item) pair that a file holds twice"
    assert f"{promise} (the file and the line are not named there" in page


# The docs extra -----------------------------------------------------------------------------------


def test_docs_extra_holds_what_the_pages_import() -> None:
    """Each module the executed pages import is in the docs extra (or the standard library, or ours)."""
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]["docs"]
    names = {re.split(r"[\[<>=~ ]", req, maxsplit=1)[0].lower().replace("_", "-") for req in extra}
    distribution = {
        "vl_convert": "vl-convert-python",
        "pytrec_eval": "pytrec-eval-terrier",
        "great_tables": "great-tables",
    }
    # pandas: never imported by a page, but DataFrame.to_pandas (the altair charts) needs it.
    assert "pandas" in names
    assert "latex2mathml" in names  # the math, by the docs hook
    for page in sorted((ROOT / "docs").rglob("*.md")):
        code = "\n".join(
            re.findall(
                r'```python[^\n]*exec="on"[^\n]*\n(.*?)```', page.read_text(encoding="utf-8"), re.DOTALL
            )
        )
        for module in re.findall(r"^\s*(?:import|from) (\w+)", code, re.MULTILINE):
            if module in {"polars_rankmetrics", "polars", "pyarrow"} or module in _stdlib():
                continue
            assert distribution.get(module, module).lower().replace("_", "-") in names, (page.name, module)


def _stdlib() -> frozenset[str]:
    import sys  # noqa: PLC0415

    return frozenset(sys.stdlib_module_names)


def test_the_site_stylesheet_wraps_or_scrolls_code_and_keeps_names_whole() -> None:
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "extra_css:\n  - stylesheets/extra.css" in mkdocs
    assert "font: false" in mkdocs  # nothing fetched from another host
    css = (ROOT / "docs" / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    rules = dict(re.findall(r"([^{}]+)\{([^{}]*)\}", css))
    scroll = next(body for sel, body in rules.items() if sel.strip().endswith(".md-typeset pre > code"))
    assert "overflow-x: auto" in scroll
    source = "div.highlight:has(code span[class])"  # markdown-exec's Python source
    assert any("pre-wrap" in body for sel, body in rules.items() if source in sel)
    names = next(body for sel, body in rules.items() if "td:first-child code" in sel)
    assert "white-space: nowrap" in names
