"""One error vocabulary: every library error is built by a factory on its class (exceptions.py).

A module never words a message of its own: it raises ``SomeError.factory(...)``, so the same fault
gives the same class and the same words wherever it is found. These tests read the package's source
with :mod:`ast`: a call of a library error class (``InvalidDataError(msg)``, ``prm.TrecFormatError(msg)``)
outside the factories themselves (``cls(...)`` in a classmethod) fails, as does a call of the
module-level aliases `_errors` keeps for the modules listed below.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from polars_rankmetrics import _errors, exceptions
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

# `_errors`' module-level aliases of the factories, kept until the modules below call the classmethods.
ALIASES = ("parameter", "missing_parameter", "cutoff_too_large", "unknown_metric", "column_type")

# Modules being rewritten when the vocabulary moved to exceptions.py: each still words these many
# messages inline (or calls an alias above). The lead empties this list after merging; a module not
# listed must have none, and a listed one no more (nor fewer: then shrink its count).
ALLOWED = {
    # UnknownMetricError(msg): _number -> UnknownMetricError.not_a_number(text, metric=name);
    # "has no parameter" -> UnknownMetricError.unknown_option(f"metric {name!r}", key, known);
    # "needs a cutoff" / "takes no cutoff" (_build) -> UnknownMetricError.needs_cutoff / takes_no_cutoff,
    # the same words Metric.__init__ should raise as InvalidParameterError (one refusal, one wording);
    # "takes N parameter(s)" and "a metric is a name or a prm.Metric" -> a factory each; and 3 aliases:
    # _errors.unknown_metric / parameter / cutoff_too_large -> the classmethods they alias.
    "_registry.py": 9,
    # _errors.parameter x11 -> InvalidParameterError.out_of_domain; _errors.missing_parameter -> .missing;
    # the cutoff checks of Metric.__init__ -> InvalidParameterError.needs_cutoff / takes_no_cutoff.
    "_spec.py": 12,
    "expr/_view.py": 1,  # _errors.parameter -> InvalidParameterError.out_of_domain
    # "needs item categories" -> InvalidParameterError.needs; two refusals -> .refused or .out_of_domain
    "metrics/calibration.py": 3,
    "metrics/distribution.py": 2,  # _errors.parameter -> InvalidParameterError.out_of_domain
    # "p ... applies to discount='rbp'" -> .refused; "needs the group" -> .needs
    "metrics/exposure.py": 2,
    "metrics/history_similarity.py": 1,  # "needs each user's history" -> InvalidParameterError.needs
    # not both -> .not_both; "needs a user column then an item column" -> ColumnNotFoundError.layout
    # (the words of _popularity_side); _errors.parameter -> .out_of_domain;
    # counts -> InvalidDataError.negative
    "metrics/information.py": 5,
    # "needs a reference run" -> .needs; `reference` columns -> ColumnNotFoundError.layout;
    # _errors.column_type -> ColumnTypeError.from_dtype; _errors.parameter -> .out_of_domain; not a frame ->
    # .out_of_domain (as metrics/_side.as_lazy)
    "metrics/overlap.py": 5,
    "metrics/parity.py": 1,  # "needs the training interactions" -> InvalidParameterError.needs
    "metrics/recsys.py": 2,  # "needs `n_items`" -> .needs; "only read with missing_items=" -> .refused
    # dtypes -> ColumnTypeError.from_dtype; lengths -> InvalidDataError.undefined or a factory;
    # not a frame -> .out_of_domain; `features` columns -> ColumnNotFoundError.layout;
    # "needs item features" -> .needs
    "metrics/similarity.py": 8,
    # "needs the training interactions" / "needs the baseline's lists" -> .needs; columns -> .layout
    "metrics/surprise.py": 3,
}


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
    """(line, call) of every library error built without a factory, and every alias called."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _called_name(node)
        func = node.func
        alias = (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "_errors"
            and func.attr in ALIASES
        )
        if name in classes or alias:
            found.append((node.lineno, ast.unparse(node.func)))
    return found


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name != "exceptions.py")


CLASSES = _error_classes()


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_error_is_built_by_a_factory(path: Path) -> None:
    """No module words a library error's message itself: it raises what a factory returns."""
    name = str(path.relative_to(PACKAGE))
    found = inline_messages(path.read_text(), CLASSES)
    listed = "; ".join(f"line {line}: {call}(...)" for line, call in found)
    assert len(found) == ALLOWED.get(name, 0), f"{name}: {listed or 'none left: shrink ALLOWED'}"


def test_the_allow_list_names_existing_modules() -> None:
    """A module renamed or removed leaves no stale entry behind."""
    assert all((PACKAGE / name).is_file() for name in ALLOWED)


def test_the_checker_finds_inline_messages() -> None:
    """The checker itself works: direct calls (bare, qualified, outside raise) and aliases are found."""
    source = """
msg = "bad"
raise InvalidDataError(msg)
raise prm.TrecFormatError(msg) from None
err = Refusal(msg, [], 4)
raise _errors.parameter("k", "a positive integer", 0)
raise InvalidDataError.null_values("query", "every row needs a query")
raise ValueError(msg)
raise
"""
    found = inline_messages(source, {"InvalidDataError", "TrecFormatError", "Refusal"})
    assert [line for line, _ in found] == [3, 4, 5, 6]


def test_the_factories_live_on_the_classes() -> None:
    """exceptions.py builds instances only through ``cls(...)``: no factory names another class."""
    tree = ast.parse((PACKAGE / "exceptions.py").read_text())
    direct = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and _called_name(n) in CLASSES]
    assert direct == []


def test_the_aliases_are_the_classmethods() -> None:
    """`_errors`' aliases are the factories themselves, not a second wording."""
    assert _errors.parameter == InvalidParameterError.out_of_domain
    assert _errors.missing_parameter == InvalidParameterError.missing
    assert _errors.cutoff_too_large == InvalidParameterError.cutoff_too_large


def test_no_two_factories_word_the_same_message() -> None:
    """Each factory's template is its own: two factories giving the same words would be one."""
    templates: Counter[str] = Counter()
    tree = ast.parse((PACKAGE / "exceptions.py").read_text())
    for node in ast.walk(tree):
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
