"""A family added as one module appears everywhere, after the two generators (CONTRIBUTING.md).

The package is copied, a new family module written into the copy's
``metrics/`` (the one file CONTRIBUTING.md's "Adding a metric" shows), the
two generators run, and the copy then has the family under every name: the
constructor (``prm.toy_hits``, ``polars_rankmetrics.metrics.toy_hits``, both
``__all__``), its canonical, other-library and trec_eval spellings, the
``.rank`` method and its typed stub, the expression builder (and its typed re-export), the CLI's
measure, and a docs page. Nothing but the new module and generated files
differs from the original. The family's tests are one more file,
``tests/metrics/test_toy_family.py`` (its values, ties and oracle cases):
every family module has its test module there (the last test below).
"""

from __future__ import annotations

import filecmp
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FAMILY = '''\
"""Toy hits: a family added by one module (tests/test_new_family.py)."""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._declare import constructor
from polars_rankmetrics._kernel import Rows
from polars_rankmetrics._spec import Metric, QuerySpec, Spellings, TrecMeasure
from polars_rankmetrics.metrics._core import keep_relevant, relevant_within

__all__ = ["toy_hits"]


def _toy_hits(m: Metric, rows: Rows) -> pl.Expr:
    return relevant_within(rows, m.k).cast(pl.Float64)


TOY_HITS = QuerySpec(
    name="toy_hits",
    spellings=Spellings(ir_measures=("ToyHits",)),
    trec=("toy_hits_{k}",),
    measures=(TrecMeasure("toy_hits", 99, "cutoffs", (5, 10)),),
    keep=keep_relevant,
    value=_toy_hits,
)


@constructor(TOY_HITS)
def toy_hits(k: int | None = None) -> Metric:
    """Toy hits: the number of relevant items in the top `k`.

    Parameters
    ----------
    k
        Cutoff; None counts every retrieved item.

    Returns
    -------
    Metric
        ``toy_hits@k``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [3.0, 2.0, 1.0], "relevance": [1, 0, 1]})
    >>> prm.evaluate(df, [prm.toy_hits(2)])
    shape: (1, 1)
    ┌────────────┐
    │ toy_hits@2 │
    │ ---        │
    │ f64        │
    ╞════════════╡
    │ 1.0        │
    └────────────┘
    """


SPECS = (TOY_HITS,)
'''

CHECK = """
import importlib.util, json, sys
import polars as pl
import polars_rankmetrics as prm
from polars_rankmetrics.cli._measures import BY_NAME

frame = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "b"],
    "score": [3.0, 2.0, 1.0, 2.0, 1.0], "relevance": [1, 0, 1, 0, 1]})
names = ["toy_hits@2", "ToyHits@2", "toy_hits_2", "toy_hits.2"]
spec = importlib.util.spec_from_file_location("pages", sys.argv[1])
pages = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pages)
out = {
    "exported": "toy_hits" in prm.__all__ and "toy_hits" in prm.metrics.__all__,
    "parsed": [str(prm.parse(n)) for n in names],
    "valid": "ToyHits@k" in prm.valid_names() and "toy_hits_k" in prm.valid_names(),
    "namespace": frame.rank.toy_hits(2).to_dicts(),
    "hits": frame.rank.hits(2).to_dicts(),
    "expr": frame.group_by("query").agg(prm.expr.toy_hits(2)).sort("query")["toy_hits@2"].to_list(),
    "cli": BY_NAME["toy_hits"].build(5).__str__(),
    "page": "toy_hits" in pages.metric_pages().get("metrics/toy_family.md", ""),
}
print(json.dumps(out))
"""


def _run(args: list[str], cwd: Path) -> str:
    done = subprocess.run(  # noqa: S603  (our interpreter, our files)
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_family_added_in_one_module_appears_everywhere(tmp_path: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "polars_rankmetrics", tmp_path / "polars_rankmetrics", ignore=ignore)
    shutil.copytree(ROOT / "tools", tmp_path / "tools", ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")  # ruff's settings, for the generators
    (tmp_path / "polars_rankmetrics" / "metrics" / "toy_family.py").write_text(FAMILY)

    _run(["tools/gen_namespace.py"], tmp_path)
    _run(["tools/gen_expr.py"], tmp_path)
    hook = ROOT / "docs" / "_hooks" / "generated_pages.py"
    out = json.loads(_run(["-c", textwrap.dedent(CHECK), str(hook)], tmp_path))

    assert out["exported"]
    assert out["parsed"] == ["toy_hits@2"] * 4
    assert out["valid"]
    assert [row["toy_hits@2"] for row in out["namespace"]] == [row["hits@2"] for row in out["hits"]]
    assert out["expr"] == [1.0, 1.0]
    assert out["cli"] == "toy_hits@5"
    assert out["page"]
    stub = (tmp_path / "polars_rankmetrics" / "_namespace.pyi").read_text()
    assert "def toy_hits(self, k: int | None = None" in stub

    # What changed: the new module, and generated files only.
    changed = _changed(ROOT / "polars_rankmetrics", tmp_path / "polars_rankmetrics")
    assert changed == {
        "metrics/toy_family.py",
        "metrics/__init__.py",
        "__init__.py",
        "_namespace.pyi",
        "expr/__init__.py",
        "expr/_builders/__init__.py",
        "expr/_builders/toy_family.py",
    }


def _changed(original: Path, copy: Path, prefix: str = "") -> set[str]:
    """Files of `copy` that are new or differ from `original`'s, by relative path."""
    compared = filecmp.dircmp(original, copy, ignore=["__pycache__"])
    out = {f"{prefix}{name}" for name in [*compared.right_only, *compared.diff_files]}
    out |= {f"{prefix}{name}" for name in compared.funny_files}
    for name, sub in compared.subdirs.items():
        out |= _changed(Path(sub.left), Path(sub.right), f"{prefix}{name}/")
    return out


def test_every_family_has_its_test_module() -> None:
    """metrics/<family>.py has tests/metrics/test_<family>.py, with at least one test."""
    from polars_rankmetrics import metrics  # noqa: PLC0415  (the package under test, at run time)

    missing = []
    for family in metrics.FAMILIES:
        name = family.__name__.rsplit(".", 1)[-1]
        module = ROOT / "tests" / "metrics" / f"test_{name}.py"
        if not module.is_file() or "\ndef test_" not in module.read_text():
            missing.append(f"tests/metrics/test_{name}.py")
    assert missing == [], f"families without their test module: {missing}"
