"""Bad parameters fail when a builder is called; bad columns when the plan runs; the module's place."""

from __future__ import annotations

import ast
import inspect
import re
import subprocess
import sys
from collections.abc import Callable
from datetime import date
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
        (
            lambda: rx.ndcg(5, gain="cubic"),
            r"`gain` must be one of 'linear', 'exponential', 'binary', 'thresholded_exponential', got",
        ),
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


_WITH_K = [n for n in rx.__all__ if "k" in inspect.signature(getattr(rx, n)).parameters]
_REQUIRED = {
    "iprec_at_recall": (0.5,),
    "rprec_mult": (1.0,),
    "map_capped": (3,),
    "mar": (3,),
    "unjudged": (3,),
    "recall_at_precision": (None, 0.5),
    "covered_users": (3,),
    "partial_auc": (3,),
    "pap": (3,),
    "sufficient_reco": (3,),
    "sufficient_reco_deep": (3,),
    **dict.fromkeys(("psp", "psndcg", "psrecall", "ips_precision"), (3,)),
    **dict.fromkeys(("cwl_precision", "cwl_ndcg", "cwl_nerr8", "cwl_nerr9", "cwl_set"), (3,)),
    "cwl_ift_c1": (1.0, 0.9, 10.0),
    "cwl_ift_c2": (0.2, 0.9, 10.0),
    "cwl_ift_c1_c2": (1.0, 0.9, 10.0, 0.2, 0.9, 10.0),
}
# The builders that read a per-row input: a column of FRAME (its values are not read here).
_INPUTS = {
    **{name: {"propensities": "score"} for name in ("psp", "psndcg", "psrecall")},
    **{name: {"weights": "score"} for name in rx.__all__ if name.startswith("ips_")},
}


def _build(name: str, **options: object) -> pl.Expr:
    builder: Callable[..., pl.Expr] = getattr(rx, name)
    if name == "mcc":  # its catalog size has no default
        options = {"n_items": 100, **options}
    options = {**_INPUTS.get(name, {}), **options}
    return builder(*_REQUIRED.get(name, (3,) if name == "mcc" else ()), **options)


@pytest.mark.parametrize("name", _WITH_K)
@pytest.mark.parametrize("k", [0, -1, 2.5, True, "10"])
def test_a_cutoff_below_one_or_not_an_integer_fails_at_build_time(name: str, k: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match=r"`k` must be a positive integer"):
        getattr(rx, name)(k)


@pytest.mark.parametrize("name", rx.__all__)
@pytest.mark.parametrize("column", ["item", "score", "rank", "relevance"])
@pytest.mark.parametrize("bad", [1, ["relevance"], pl.col("relevance")], ids=["int", "list", "expr"])
def test_a_column_name_that_is_not_a_string_fails_at_build_time(name: str, column: str, bad: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match=rf"`{column}` must be a column name \(str\)"):
        _build(name, **{column: bad})


_CONTEXTS: dict[str, Callable[[pl.DataFrame, pl.Expr], object]] = {
    "group_by": lambda df, e: df.group_by("query").agg(e),
    "streaming": lambda df, e: df.lazy().group_by("query").agg(e).collect(engine="streaming"),
    "over": lambda df, e: df.with_columns(e.over("query")),
    "select": lambda df, e: df.select(e),
}


@pytest.mark.parametrize("name", rx.__all__)
@pytest.mark.parametrize("context", list(_CONTEXTS))
def test_a_string_relevance_column_fails_when_the_plan_runs_naming_the_builder(
    name: str, context: str
) -> None:
    """Dtypes are known only at run time: Polars' error, whose expression names our builder and column."""
    frame = FRAME.with_columns(pl.col("relevance").cast(pl.String))
    expr = _build(name)  # building it is fine: the columns are not known yet
    message = rf"polars_rankmetrics\.expr\.{name}: the relevance column 'relevance' must be numeric"
    with pytest.raises(pl.exceptions.InvalidOperationError, match=message):
        _CONTEXTS[context](frame, expr)


@pytest.mark.parametrize(
    "values",
    [
        pl.Series([date(2024, 1, 1), date(2024, 1, 2)]),
        pl.Series([[1], [0]]),
    ],
    ids=["date", "list"],
)
def test_other_non_numeric_relevance_dtypes_fail_naming_the_builder(values: pl.Series) -> None:
    frame = FRAME.with_columns(values.alias("relevance"))
    message = r"polars_rankmetrics\.expr\.ndcg: the relevance column 'relevance' must be numeric"
    with pytest.raises(pl.exceptions.InvalidOperationError, match=message):
        frame.group_by("query").agg(rx.ndcg(3))


def test_a_string_rank_column_fails_naming_the_builder_and_the_rank_column() -> None:
    frame = FRAME.with_columns(place=pl.Series(["1", "2"]))
    message = r"polars_rankmetrics\.expr\.average_precision: the rank column 'place' must be numeric"
    with pytest.raises(pl.exceptions.InvalidOperationError, match=message):
        frame.group_by("query").agg(rx.average_precision(rank="place"))


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


@pytest.mark.parametrize("name", rx.__all__)
def test_every_builder_has_a_numpydoc_docstring_whose_example_prints_a_frame(name: str) -> None:
    doc = inspect.getdoc(getattr(rx, name)) or ""
    titles = re.findall(r"^(\w[\w ]*)\n-+$", doc, flags=re.MULTILINE)
    expected = ["Parameters", "Returns", "Raises", "See Also", "Examples"]
    assert [t for t in titles if t in expected] == expected, titles
    example = doc.split("Examples\n--------\n", 1)[1]
    assert f"rx.{name}(" in example
    assert re.search(r"^shape: \(\d+, \d+\)$", example, flags=re.MULTILINE)
