"""Conformance: every supported measure matches trec_eval 10.0's own test outputs.

The expected values are trec_eval's printed outputs (tests/data/trec_eval,
copied from NIST's trec_eval test folder); the inputs are the package's
bundled copies of its test collection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import polars_rankmetrics as prm

REFERENCE = Path(__file__).parents[1] / "data" / "trec_eval"

# The measures of the foundation issue, as trec_eval prints them.
CORE = {
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "Rprec",
    "recip_rank",
    "ndcg",
    *(
        f"{m}_{k}"
        for m in ("P", "recall", "ndcg_cut", "map_cut")
        for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)
    ),
    *(f"success_{k}" for k in (1, 5, 10)),
}


@dataclass(frozen=True)
class Case:
    """One of trec_eval's reference outputs and the flags that produced it."""

    output: str
    qrels: str = "qrels.test"
    run: str = "results.test"
    options: dict[str, Any] = field(default_factory=dict)


CASES = [
    Case("out.test"),
    Case("out.test.a"),
    Case("out.test.aq"),
    Case("out.test.aqc", run="results.trunc", options={"missing": "zero"}),
    Case("out.test.aqcM", run="results.trunc", options={"missing": "zero", "depth": 100}),
    Case("out.test.aql", qrels="qrels.rel_level", options={"relevance_level": 2}),
    Case("out.test.meas_params"),
]


def read_reference(name: str) -> dict[tuple[str, str], str]:
    """(measure, query or 'all') -> value as trec_eval printed it."""
    out = {}
    for line in (REFERENCE / name).read_text().splitlines():
        measure, query, value = (part.strip() for part in line.split("\t"))
        out[measure, query] = value
    return out


def supported(measure: str) -> bool:
    try:
        prm.parse(measure)
    except prm.UnknownMetricError:
        return False
    return True


def printed(value: float | str | None, measure: str) -> str | None:
    if value is None or isinstance(value, str):
        return None if value is None else f"'{value}'"  # trec_eval quotes relstring
    return str(value) if measure.startswith("num_") else f"{value:.4f}"


def frame(case: Case) -> pl.DataFrame:
    run = prm.read_trec_run(prm.demo_path(case.run)).drop("run")
    qrels = prm.read_trec_qrels(prm.demo_path(case.qrels))
    return prm.join_run_qrels(run, qrels)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.output)
def test_every_supported_measure_matches_trec_eval(case: Case) -> None:
    expected = read_reference(case.output)
    measures = sorted({m for m, _ in expected if supported(m)})
    # The comparison is not vacuous: every core measure the file prints is checked.
    assert {m for m, _ in expected} & CORE <= set(measures)
    assert measures, case.output

    df = frame(case)
    got = {}
    mean = prm.evaluate(df, measures, **case.options)
    for measure in measures:
        got[measure, "all"] = printed(mean[measure][0], measure)
    per_query = prm.evaluate(df, [m for m in measures if m != "num_q"], per_query=True, **case.options)
    for row in per_query.iter_rows(named=True):
        for measure in measures:
            if measure != "num_q":
                got[measure, row["query"]] = printed(row[measure], measure)

    wanted = {key: value for key, value in expected.items() if key[0] in measures}
    # trec_eval prints some measures only per query (relstring) or only as "all" (gm_map);
    # every value it prints must be ours, to the printed digit.
    mismatches = {key: (value, got.get(key)) for key, value in wanted.items() if got.get(key) != value}
    assert not mismatches, f"(measure, query): (trec_eval, ours) {mismatches}"


def test_gain_mapping_matches_trec_eval_ndcg_parameters() -> None:
    # trec_eval -mndcg.1=3,2=9,4=4.5 over the binary qrels.test
    expected = read_reference("out.test.meas_params")
    df = frame(Case("out.test.meas_params"))
    out = prm.evaluate(df, ["ndcg"], per_query=True, gain={1: 3, 2: 9, 4: 4.5})
    got = {row["query"]: f"{row['ndcg']:.4f}" for row in out.iter_rows(named=True)}
    mean = prm.evaluate(df, ["ndcg"], gain={1: 3, 2: 9, 4: 4.5})["ndcg"][0]
    got["all"] = f"{mean:.4f}"
    want = {q: v for (m, q), v in expected.items() if m == "ndcg_1=3,2=9,4=4.5"}
    assert want
    assert got == want


def test_population_of_the_truncated_run() -> None:
    # results.trunc retrieves nothing for query 302, which qrels.test judges:
    # trec_eval -c counts it (num_q 3), the default skips it.
    df = frame(Case("out.test.aqc", run="results.trunc"))
    skip = prm.population(df)
    zero = prm.population(df, missing="zero")
    assert skip.row(0, named=True) == {
        "queries": 3,
        "evaluated": 2,
        "no_relevant": 0,
        "qrels_only": 1,
        "run_only": 0,
    }
    assert zero["evaluated"][0] == 3
    assert read_reference("out.test.aqc")["num_q", "all"] == "3"
