"""One error vocabulary: every library error is built by a factory on its class (the exceptions package).

A module never words a message of its own: it raises ``SomeError.factory(...)``, so the same fault
gives the same class and the same words wherever it is found. These tests read the package's source
with :mod:`ast`: a call of a library error class (``InvalidDataError(msg)``, ``prm.TrecFormatError(msg)``)
outside the factories themselves (``cls(...)`` in a classmethod) fails, as does a second name bound
to a factory (``parameter = InvalidParameterError.out_of_domain``): a module calls the classmethod.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import exceptions
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    InvalidDataError,
    InvalidParameterError,
    MissingQueriesError,
    RankMetricsError,
    TrecFormatError,
    UnknownMetricError,
)

PACKAGE = Path(__file__).resolve().parents[2] / "polars_rankmetrics"
# Where the factories are: the classes, and the mixins of factories they inherit.
FACTORIES = ("exceptions/__init__.py", "exceptions/_messages.py")


def _error_classes() -> set[str]:
    """The names of RankMetricsError and of every subclass the package defines (cli's Refusal too)."""
    names = {
        n for n, v in vars(exceptions).items() if isinstance(v, type) and issubclass(v, RankMetricsError)
    }
    trees = [ast.parse(p.read_text()) for p in PACKAGE.rglob("*.py")]
    grew = True
    while grew:
        grew = False
        for tree in trees:
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names:
                    bases = {
                        b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in node.bases
                    }
                    if bases & names:
                        names.add(node.name)
                        grew = True
    return names


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def inline_messages(source: str, classes: set[str]) -> list[tuple[int, str]]:
    """(line, call) of every library error built without a factory, and every factory given a new name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _called_name(node) in classes:
            found.append((node.lineno, ast.unparse(node.func)))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and _names_a_factory(node.value, classes):
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def _names_a_factory(value: ast.expr | None, classes: set[str]) -> bool:
    """``InvalidParameterError.out_of_domain`` (or ``prm.X.factory``) as a value, not called."""
    if not isinstance(value, ast.Attribute):
        return False
    owner = value.value
    name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
    return name in classes


def _modules() -> list[Path]:
    classes = Path("exceptions/__init__.py")
    return sorted(p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE) != classes)


CLASSES = _error_classes()


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_error_is_built_by_a_factory(path: Path) -> None:
    """No module words a library error's message itself: it raises what a factory returns."""
    found = inline_messages(path.read_text(), CLASSES)
    assert found == [], "; ".join(f"line {line}: {call}" for line, call in found)


def test_the_checker_finds_inline_messages() -> None:
    """The checker itself works: direct calls (bare, qualified, outside raise) and aliases are found."""
    source = """
msg = "bad"
raise InvalidDataError(msg)
raise prm.TrecFormatError(msg) from None
err = Refusal(msg, [], 4)
parameter = InvalidDataError.null_values
missing: object = prm.TrecFormatError.unreadable
raise InvalidDataError.null_values("query", "every row needs a query")
raise ValueError(msg)
error = InvalidDataError
message = err.args
raise
"""
    found = inline_messages(source, {"InvalidDataError", "TrecFormatError", "Refusal"})
    assert [line for line, _ in found] == [3, 4, 5, 6, 7]


def test_the_factories_live_on_the_classes() -> None:
    """The factories build instances only through ``cls(...)``: no factory names another class."""
    for name in FACTORIES:
        tree = ast.parse((PACKAGE / name).read_text())
        direct = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and _called_name(n) in CLASSES]
        assert direct == [], name


def test_no_two_factories_word_the_same_message() -> None:
    """Each factory's template is its own: two factories giving the same words would be one."""
    templates: Counter[str] = Counter()
    trees = [ast.parse((PACKAGE / name).read_text()) for name in FACTORIES]
    for node in (n for tree in trees for n in ast.walk(tree)):
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
            )
            if len(text) > 20:  # short fragments such as " of metric " repeat by design
                templates[text] += 1
    assert [t for t, n in templates.items() if n > 1] == []


def test_the_factories_word_their_fault() -> None:
    """A few factories, by their words: the parameter or column and the value are named."""
    err = InvalidParameterError.out_of_domain("p", "in (0, 1)", 2.0, metric="rbp")
    assert str(err) == "`p` of metric 'rbp' must be in (0, 1), got 2.0"
    err = ColumnNotFoundError.from_missing_and_available("querry", "query", ["query", "item"])
    assert str(err) == (
        "query column 'querry' not found (rename with prm.Columns(query='query')); "
        "the frame has columns: 'query', 'item'"
    )
    assert isinstance(
        InvalidDataError.null_values("run", "every row needs a system", count=2), InvalidDataError
    )
    missing = MissingQueriesError.with_remedy(
        "system 'a' has no row for 1 of 2 queries", "Pass missing='zero'"
    )
    assert (missing.detail, str(missing)) == (
        "system 'a' has no row for 1 of 2 queries",
        "system 'a' has no row for 1 of 2 queries. Pass missing='zero'",
    )
    assert isinstance(TrecFormatError.from_worded("run.txt:line 2: bad"), TrecFormatError)


def test_a_refusal_shared_by_two_entry_points_has_one_wording() -> None:
    """A name (``prm.parse``) and a constructor refuse a cutoff in the same words, each with its class."""
    by_name, by_call = UnknownMetricError.needs_cutoff("mar"), InvalidParameterError.needs_cutoff("mar")
    assert (type(by_name), type(by_call)) == (UnknownMetricError, InvalidParameterError)
    assert str(by_name) == str(by_call) == "metric 'mar' needs a cutoff: write mar@k"
    assert (
        str(UnknownMetricError.takes_no_cutoff("mpr", "mpr@10")) == "metric 'mpr' takes no cutoff, got mpr@10"
    )
    unknown = UnknownMetricError.unknown_option("metric 'rbp'", "q", ["p"])
    assert str(unknown) == str(InvalidParameterError.unknown_option("metric 'rbp'", "q", ["p"]))
    assert str(unknown) == "metric 'rbp' has no parameter 'q'; its parameters: p"


def test_a_name_and_a_metric_refuse_a_cutoff_in_the_same_words() -> None:
    """``prm.parse`` and :class:`prm.Metric` apply one cutoff rule: same words, each its own class."""
    mar, mpr, rbp = (prm.parse(n).spec for n in ("mar@1", "mpr", "rbp"))
    with pytest.raises(UnknownMetricError) as by_name:
        prm.parse("mar")
    with pytest.raises(InvalidParameterError) as by_call:
        prm.Metric(mar, None)
    assert str(by_name.value) == str(by_call.value) == "metric 'mar' needs a cutoff: write mar@k"
    with pytest.raises(UnknownMetricError, match=r"^metric 'mpr' takes no cutoff, got mpr@3$"):
        prm.parse("mpr@3")
    with pytest.raises(InvalidParameterError, match=r"^metric 'mpr' takes no cutoff, got 3$"):
        prm.Metric(mpr, 3)
    with pytest.raises(UnknownMetricError) as by_name:
        prm.parse("rbp(q=0.5)")
    with pytest.raises(InvalidParameterError) as by_call:
        prm.Metric(rbp, q=0.5)
    assert str(by_name.value) == str(by_call.value) == "metric 'rbp' has no parameter 'q'; its parameters: p"
