"""The documentation's error table is checked against the code, so it cannot drift (issue 11, point 5).

The table moved from the README to the site's errors guide, docs/guides/errors.md (issue 25).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm

ERRORS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "errors.md"
FRAME = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [0.9, 0.5], "relevance": [1, 0]})


def _table() -> dict[str, str]:
    """`prm.<Name>` -> what the errors guide says raises it, from the table before its first section."""
    if not ERRORS_PAGE.is_file():
        pytest.skip("docs/guides/errors.md not found beside the tests")
    text = ERRORS_PAGE.read_text(encoding="utf-8")
    section = text[: text.index("\n## ")]
    return dict(re.findall(r"^\| `prm\.(\w+)` \| (.+?) \|$", section, flags=re.MULTILINE))


def _bad_trec(tmp_path: Path) -> None:
    path = tmp_path / "bad.qrels"
    path.write_text("q1 0 doc1\n")
    prm.read_trec_qrels(path)


CASES: dict[str, list[Callable[[Path], object]]] = {
    "ColumnNotFoundError": [lambda _: prm.evaluate(FRAME.drop("relevance"), ["map"])],
    "ColumnTypeError": [
        lambda _: prm.evaluate(FRAME.with_columns(pl.col("relevance").cast(pl.String)), ["map"])
    ],
    "InvalidParameterError": [
        lambda _: prm.parse("ndcg@0"),
        lambda _: prm.ndcg(0),
        lambda _: prm.rbp(p=2.0),
        lambda _: prm.parse("utility(1,2)"),
        lambda _: prm.evaluate(FRAME, ["map"], depth=0),
        lambda _: prm.evaluate(FRAME, ["map", "map"]),
    ],
    "UnknownMetricError": [lambda _: prm.parse("ndgc@10"), lambda _: prm.evaluate(FRAME, ["nope"])],
    "InvalidDataError": [
        lambda _: prm.evaluate(FRAME.with_columns(score=pl.lit(float("nan"))), ["map"]),
        lambda _: prm.collect(prm.evaluate(pl.concat([FRAME, FRAME]).lazy(), ["map"])),
        lambda _: prm.join_run_qrels(FRAME.drop("relevance"), pl.concat([FRAME, FRAME]).drop("score")),
    ],
    "MissingQueriesError": [
        lambda _: prm.compare(
            pl.DataFrame({"s": ["a", "a", "b"], "query": [1, 2, 1], "m": [0.1, 0.2, 0.3]}), by="s"
        )
    ],
    "TrecFormatError": [_bad_trec],
    "InvalidInputError": [lambda _: prm.evaluate([("q1", "a", 1.0, 1)], ["map"])],
}


def test_the_table_names_every_error_class_and_only_those() -> None:
    documented = set(_table())
    exported = {
        n
        for n in prm.__all__
        if isinstance(getattr(prm, n), type) and issubclass(getattr(prm, n), prm.RankMetricsError)
    }
    assert documented == exported - {"RankMetricsError"}
    assert documented <= set(CASES), f"add a case for {sorted(documented - set(CASES))}"


@pytest.mark.parametrize(("name", "index"), [(n, i) for n, cases in CASES.items() for i in range(len(cases))])
def test_each_documented_case_raises_the_documented_class(name: str, index: int, tmp_path: Path) -> None:
    error = getattr(prm, name)
    with pytest.raises(error) as caught:
        CASES[name][index](tmp_path)
    assert type(caught.value) is error  # not merely a subclass: the class the table promises
    assert isinstance(caught.value, prm.RankMetricsError)
    assert isinstance(caught.value, ValueError)
