"""prm.agreement and prm.confusion_table against scikit-learn's cohen_kappa_score and krippendorff."""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

sklearn_metrics = pytest.importorskip("sklearn.metrics")
krippendorff = pytest.importorskip("krippendorff")

TOL = 1e-12


@st.composite
def two_qrels(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Two sets of judgments of one pool: shared pairs, pairs one side judged, graded and negative grades."""
    string_ids = draw(st.booleans())
    grades = draw(st.sampled_from([[0, 1], [0, 1, 2, 3], [-1, 0, 1, 2], [0, 1, 2, 3, 4]]))
    rows_a: list[tuple[object, object, int | None]] = []
    rows_b: list[tuple[object, object, int | None]] = []
    for q in range(draw(st.integers(1, 4))):
        for i in range(draw(st.integers(0, 9))):
            query, item = (f"q{q}", f"d{i}") if string_ids else (q, i)
            who = draw(st.sampled_from(["both", "both", "both", "a", "b"]))
            ga = draw(st.sampled_from(grades))
            gb = ga if draw(st.booleans()) else draw(st.sampled_from(grades))
            if who in ("both", "a"):
                rows_a.append((query, item, ga))
            if who in ("both", "b"):
                rows_b.append((query, item, gb))
    if draw(st.booleans()):  # an unjudged row (null grade) on one side
        rows_a.append(("zz" if string_ids else 99, "u" if string_ids else 99, None))
    schema = {"query": pl.String if string_ids else pl.Int64, "item": pl.String if string_ids else pl.Int64}
    frames = tuple(
        pl.DataFrame(rows, schema={**schema, "relevance": pl.Int64}, orient="row")
        for rows in (rows_a, rows_b)
    )
    return frames[0], frames[1]


def _pairs(a: pl.DataFrame, b: pl.DataFrame) -> pl.DataFrame:
    return a.drop_nulls().join(b.drop_nulls(), on=["query", "item"], suffix="_b").sort("query", "item")


def _close(ours: float | None, theirs: float) -> bool:
    if ours is None:
        return math.isnan(theirs)
    return abs(ours - theirs) <= TOL


def _sklearn(a: list[int], b: list[int], labels: list[int], weights: str | None) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an undefined kappa warns before it gives NaN
        return float(sklearn_metrics.cohen_kappa_score(a, b, labels=labels, weights=weights))


def _kripp(a: list[int], b: list[int], level: str) -> float:
    if len(set(a) | set(b)) < 2:  # the package refuses a one-value domain: undefined
        return math.nan
    return float(
        krippendorff.alpha(reliability_data=np.array([a, b], dtype=float), level_of_measurement=level)
    )


def _expected(pairs: pl.DataFrame, labels: list[int], threshold: int) -> dict[str, float]:
    a, b = pairs["relevance"].to_list(), pairs["relevance_b"].to_list()
    binary = [[int(g >= threshold) for g in side] for side in (a, b)]
    return {
        "kappa": _sklearn(binary[0], binary[1], [0, 1], None),
        "kappa_linear": _sklearn(a, b, labels, "linear"),
        "kappa_quadratic": _sklearn(a, b, labels, "quadratic"),
        "alpha_ordinal": _kripp(a, b, "ordinal"),
        "alpha_nominal": _kripp(a, b, "nominal"),
    }


@given(two_qrels(), st.sampled_from([1, 2]))
def test_agreement_equals_sklearn_and_krippendorff(qrels: tuple[pl.DataFrame, pl.DataFrame], t: int) -> None:
    a, b = qrels
    pairs = _pairs(a, b)
    if not pairs.height:
        with pytest.raises(prm.InvalidDataError, match="judged by both"):
            prm.agreement(a, b, threshold=t)
        return
    labels = sorted(set(pairs["relevance"]) | set(pairs["relevance_b"]))
    got = prm.agreement(a, b, threshold=t).row(0, named=True)
    for name, value in _expected(pairs, labels, t).items():
        assert _close(got[name], value), (name, got[name], value)
    keys_a = set(a.drop_nulls().select("query", "item").rows())
    keys_b = set(b.drop_nulls().select("query", "item").rows())
    assert (got["pairs"], got["only_a"], got["only_b"]) == (
        len(keys_a & keys_b),
        len(keys_a - keys_b),
        len(keys_b - keys_a),
    )
    assert got["one_side_share"] == len(keys_a ^ keys_b) / len(keys_a | keys_b)
    # Krippendorff's alpha on every pair either side judged (NaN: not judged) is the same:
    # a unit with one value pairs with nothing.
    da, db = ({(q, i): g for q, i, g in f.drop_nulls().rows()} for f in (a, b))
    units = sorted(keys_a | keys_b, key=str)
    full = np.array([[d.get(u, np.nan) for u in units] for d in (da, db)], dtype=float)
    if len(set(pairs["relevance"]) | set(pairs["relevance_b"])) > 1:
        for level in ("ordinal", "nominal"):
            want = krippendorff.alpha(reliability_data=full, level_of_measurement=level)
            assert _close(got[f"alpha_{level}"], float(want)), (level, got[f"alpha_{level}"], want)


@settings(max_examples=30)
@given(two_qrels())
def test_agreement_per_query_equals_the_oracles_on_each_query(
    qrels: tuple[pl.DataFrame, pl.DataFrame],
) -> None:
    a, b = qrels
    pairs = _pairs(a, b)
    if not pairs.height:
        return
    out = prm.agreement(a, b, per_query=True)
    scale = sorted(set(a["relevance"].drop_nulls()) | set(b["relevance"].drop_nulls()))
    on_scale = prm.agreement(a, b, per_query=True, scale=scale)
    queries = set(a.drop_nulls()["query"]) | set(b.drop_nulls()["query"])
    assert set(out["query"]) == queries
    for row in out.iter_rows(named=True):
        mine = pairs.filter(pl.col("query") == row["query"])
        if not mine.height:
            assert all(row[c] is None for c in ("kappa", "kappa_linear", "alpha_ordinal"))
            continue
        # Each query on its own grades, as scikit-learn on its pairs; with `scale`, on those labels.
        labels = sorted(set(mine["relevance"]) | set(mine["relevance_b"]))
        for name, value in _expected(mine, labels, 1).items():
            assert _close(row[name], value), (row["query"], name, row[name], value)
        declared = on_scale.filter(pl.col("query") == row["query"]).row(0, named=True)
        for name, value in _expected(mine, scale, 1).items():
            assert _close(declared[name], value), (row["query"], name, declared[name], value)


@given(two_qrels())
def test_confusion_table_counts_every_pair(qrels: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    a, b = qrels
    da, db = ({(q, i): g for q, i, g in f.drop_nulls().rows()} for f in (a, b))
    expected: dict[tuple[float | None, float | None], int] = {}
    for key in da.keys() | db.keys():
        cell = (
            None if key not in da else float(da[key]),
            None if key not in db else float(db[key]),
        )
        expected[cell] = expected.get(cell, 0) + 1
    got = {(ga, gb): n for ga, gb, n in prm.confusion_table(a, b).rows()}
    assert got == expected


def test_agreement_with_a_declared_scale_is_sklearn_with_those_labels() -> None:
    a = pl.DataFrame({"query": [1] * 5, "item": list("abcde"), "relevance": [0, 1, 3, 3, 0]})
    b = pl.DataFrame({"query": [1] * 5, "item": list("abcde"), "relevance": [0, 3, 3, 1, 1]})
    got = prm.agreement(a, b, scale=[0, 1, 2, 3]).row(0, named=True)
    for weights in ("linear", "quadratic"):
        want = sklearn_metrics.cohen_kappa_score(
            a["relevance"], b["relevance"], labels=[0, 1, 2, 3], weights=weights
        )
        assert abs(got[f"kappa_{weights}"] - want) <= TOL
    # Without `scale`, the positions are those of the grades present (0, 1, 3): another weighting.
    bare = prm.agreement(a, b).row(0, named=True)
    want = sklearn_metrics.cohen_kappa_score(a["relevance"], b["relevance"], weights="linear")
    assert abs(bare["kappa_linear"] - want) <= TOL
    assert bare["kappa_linear"] != got["kappa_linear"]


def test_agreement_takes_renamed_columns_and_lazy_frames() -> None:
    a = pl.DataFrame({"topic": [1, 1, 2], "doc": ["x", "y", "x"], "grade": [1, 0, 2]})
    b = a.with_columns(pl.col("grade").reverse())
    cols = prm.Columns(query="topic", item="doc", relevance="grade")
    eager = prm.agreement(a, b, columns=cols, per_query=True)
    lazy = prm.agreement(a.lazy(), b.lazy(), columns={"query": "topic", "item": "doc", "relevance": "grade"})
    assert eager.columns[0] == "topic"
    assert lazy["pairs"].item() == 3
    assert a.equals(pl.DataFrame({"topic": [1, 1, 2], "doc": ["x", "y", "x"], "grade": [1, 0, 2]}))


@pytest.mark.parametrize(
    ("b_grades", "match"),
    [
        ([0, 25, 50, 100], "another scale"),  # 0-3 against 0-100
        ([0.1, 0.5, 0.9, 0.3], "another scale"),  # fractions against whole grades
        ([0, 10, 7, 3], "another scale"),  # 0-3 against 0-10
    ],
)
def test_agreement_refuses_different_grade_scales(b_grades: list[float], match: str) -> None:
    a = pl.DataFrame({"query": [1] * 4, "item": list("abcd"), "relevance": [0, 1, 2, 3]})
    b = pl.DataFrame({"query": [1] * 4, "item": list("abcd"), "relevance": b_grades})
    with pytest.raises(prm.InvalidDataError, match=match):
        prm.agreement(a, b)


def test_agreement_accepts_a_model_that_never_gives_the_top_grade() -> None:
    a = pl.DataFrame({"query": [1] * 4, "item": list("abcd"), "relevance": [0, 1, 2, 3]})
    b = pl.DataFrame({"query": [1] * 4, "item": list("abcd"), "relevance": [0, 1, 1, 2]})
    assert prm.agreement(a, b)["pairs"].item() == 4
    with pytest.raises(prm.InvalidDataError, match="outside `scale`"):
        prm.agreement(a, b, scale=[0, 1, 2])


def test_agreement_bad_input() -> None:
    a = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "relevance": [1, 0]})
    b = pl.DataFrame({"query": [2, 2], "item": ["a", "b"], "relevance": [1, 0]})
    with pytest.raises(prm.InvalidDataError, match="no \\(query, item\\) pair is judged by both"):
        prm.agreement(a, b)
    with pytest.raises(prm.ColumnNotFoundError, match="relevance"):
        prm.agreement(a.drop("relevance"), b)
    with pytest.raises(prm.ColumnTypeError, match="relevance"):
        prm.agreement(a.with_columns(pl.col("relevance").cast(pl.String)), b)
    with pytest.raises(prm.ColumnTypeError, match="'query' is String in `qrels_a`"):
        prm.agreement(a.with_columns(pl.col("query").cast(pl.String)), b)
    with pytest.raises(prm.InvalidDataError, match="duplicate"):
        prm.agreement(pl.concat([a, a]), b)
    with pytest.raises(prm.InvalidDataError, match="NaN"):
        prm.agreement(a.with_columns(pl.col("relevance").cast(pl.Float64) / 0.0), b)
    with pytest.raises(prm.InvalidDataError, match="null ids"):
        prm.agreement(a.with_columns(pl.lit(None, pl.Int64).alias("item")), b)
    with pytest.raises(prm.InvalidParameterError, match="threshold"):
        prm.agreement(a, b, threshold="high")  # type: ignore[arg-type]
    with pytest.raises(prm.InvalidParameterError, match="scale"):
        prm.agreement(a, b, scale=[])


def test_agreement_undefined_kappa_is_null() -> None:
    a = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "relevance": [1, 1]})
    out = prm.agreement(a, a).row(0, named=True)
    assert out["kappa"] is None
    assert out["alpha_nominal"] is None
