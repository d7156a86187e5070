"""The C/W/L families against cwl_eval 1.0.12 itself, run in its own environment, per query to 1e-12.

cwl_eval (``pip install cwl-eval==1.0.12``, numpy) lives in a virtual environment of
its own: ``CWL_EVAL`` names its ``cwl-eval`` script (default
``/work/venv-cwl/bin/cwl-eval``), whose directory's ``python`` runs the driver below.
The driver builds cwl_eval's rankings the way its ``cwl_eval.main`` does (its
TrecQrelHandler, RankingMaker, cost file reader and CWLRuler on a metrics file) and
prints every quantity and residual at full precision, where the command prints four
decimals. Skipped when cwl_eval is absent, failed then under ``PRM_REQUIRE_ORACLES``.

The run files are written in this library's order (score descending, ties by item
text descending): cwl_eval reads a ranking in file order.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import polars_rankmetrics as prm

pytestmark = pytest.mark.oracles  # .ci/run installs cwl_eval and requires it

CWL_EVAL = Path(os.environ.get("CWL_EVAL", "/work/venv-cwl/bin/cwl-eval"))
TOLERANCE = 1e-12

DRIVER = r"""
import json, sys, os
import cwl
# CWLRuler imports "ruler.measures", as the cwl-eval script sets up.
sys.path.insert(0, os.path.dirname(cwl.__file__))
from cwl.seeker.trec_qrel_handler import TrecQrelHandler
from cwl.ruler.cwl_ruler import CWLRuler
from cwl.ruler.ranking import RankingMaker
from cwl.cwl_eval import read_in_cost_file
qrels, run, metrics, costs, max_gain, min_cost, max_cost, depth, min_gain = sys.argv[1:10]
qrh = TrecQrelHandler(qrels)
qrh.validate_gains(min_gain=float(min_gain), max_gain=float(max_gain))
cost_dict = read_in_cost_file(costs) if costs != "-" else None
ruler = CWLRuler(metrics, True)
out = []
def measure(topic, maker):
    ranking = maker.get_ranking()
    for index, m in enumerate(ruler.metrics):
        m.measure(ranking)
        res = [m.residual_expected_utility, m.residual_expected_total_utility, m.residual_expected_cost,
               m.residual_expected_total_cost, m.residual_expected_items]
        out.append([topic, index, [float(x) for x in m.get_scores()], [float(x) for x in res]])
topic, maker = None, None
for line in open(run):
    t, element, doc, rank, score, run_id = line.split()
    if t != topic:
        if topic is not None:
            measure(topic, maker)
        topic = t
        maker = RankingMaker(t, qrh, cost_dict, max_gain=float(max_gain), max_cost=float(max_cost),
                             min_cost=float(min_cost), max_n=int(depth))
    maker.add(doc, element)
if topic is not None:
    measure(topic, maker)
print(json.dumps(out))
"""

# cwl_eval's metrics-file line, and the same measure here.
MEASURES: list[tuple[str, prm.Metric]] = [
    ("PrecisionCWLMetric(3)", prm.cwl_precision(3)),
    ("RRCWLMetric()", prm.cwl_rr()),
    ("APCWLMetric()", prm.cwl_ap()),
    ("TrAPCWLMetric()", prm.cwl_trap()),
    ("RBPCWLMetric(0.8)", prm.cwl_rbp(theta=0.8)),
    ("NDCGCWLMetric(5)", prm.cwl_ndcg(5)),
    ("INSTCWLMetric(2.0)", prm.cwl_inst(target=2.0)),
    ("INSQCWLMetric(1.0)", prm.cwl_insq()),
    ("BPMCWLMetric(1.5,4)", prm.cwl_bpm(target=1.5, budget=4)),
    ("BPMDCWLMetric(1.0,5,1.0,1.0,0.25)", prm.cwl_bpm_dynamic(budget=5, gain_med=0.25)),
    ("UMeasureCWLMetric(6)", prm.cwl_umeasure(length=6)),
    ("TBGCWLMetric(3)", prm.cwl_tbg(halflife=3)),
    ("IFTGoalCWLMetric(2.0,0.9,1.5)", prm.cwl_ift_c1(target=2.0, b1=0.9, r1=1.5)),
    ("IFTRateCWLMetric(0.3,0.9,2.0)", prm.cwl_ift_c2(rate=0.3, b2=0.9, r2=2.0)),
    (
        "IFTGoalRateCWLMetric(2.0,0.9,1.5,0.3,0.9,2.0)",
        prm.cwl_ift_c1_c2(target=2.0, b1=0.9, r1=1.5, rate=0.3, b2=0.9, r2=2.0),
    ),
    ("NERReq8CWLMetric(4)", prm.cwl_nerr8(4)),
    ("NERReq9CWLMetric(4)", prm.cwl_nerr9(4)),
    ("NERReq10CWLMetric(0.7)", prm.cwl_nerr10(phi=0.7)),
    ("NERReq11CWLMetric(1.0)", prm.cwl_nerr11()),
    ("SETCWLMetric(0.5,6)", prm.cwl_set(6, beta=0.5)),
    ("NPVCWLMetric(0.2)", prm.cwl_npv(rate=0.2)),
]
QUANTITIES = ("eu", "etu", "ec", "etc", "ed")


def _python() -> Path:
    """The interpreter of cwl_eval's environment, or a skip (a failure under PRM_REQUIRE_ORACLES)."""
    python = CWL_EVAL.parent / "python"
    if not CWL_EVAL.is_file() or not python.is_file():
        msg = f"cwl_eval not found at {CWL_EVAL} (set CWL_EVAL)"
        if os.environ.get("PRM_REQUIRE_ORACLES"):
            pytest.fail(msg + " and PRM_REQUIRE_ORACLES is set")
        pytest.skip(msg)
    return python


def _with(metric: prm.Metric, **options: object) -> prm.Metric:
    """`metric` with other C/W/L options (its constructor, by name)."""
    values: dict[str, object] = {}
    for p, v in zip(metric.spec.params, metric.params, strict=True):
        values[p.name] = getattr(v, "value", v)
    values.update(options)
    gain = values.pop("gain", None)
    build = getattr(prm, metric.spec.python_name)
    args = (metric.k,) if metric.k is not None else ()
    mapping = dict(gain) if isinstance(gain, (dict, tuple)) and gain else None
    built: prm.Metric = build(*args, **values, gain=mapping)
    return built


def _cwl(
    tmp: Path,
    run: pl.DataFrame,
    qrels: pl.DataFrame,
    costs: dict[str, float] | None,
    measures: list[tuple[str, prm.Metric]] = MEASURES,
    **opts: float,
) -> Any:  # noqa: ANN401
    """cwl_eval's values: [topic, measure name, [eu, etu, ec, etc, ed], [residuals]] per topic and measure."""
    ordered = run.with_columns(pl.col("item").cast(pl.String)).sort(
        ["query", "score", "item"], descending=[False, True, True]
    )
    if "element" not in ordered.columns:  # the element type (cwl_eval's cost key): the item itself
        ordered = ordered.with_columns(pl.col("item").alias("element"))
    lines = []
    for query in ordered["query"].unique(maintain_order=True).to_list():
        rows = ordered.filter(pl.col("query") == query)
        lines += [
            f"{q} {e} {d} {i + 1} {s!r} run"
            for i, (q, e, d, s) in enumerate(rows.select("query", "element", "item", "score").iter_rows())
        ]
    (tmp / "run").write_text("".join(line + "\n" for line in lines))
    (tmp / "qrels").write_text("".join(f"{q} 0 {d} {g!r}\n" for q, d, g in qrels.iter_rows()))
    (tmp / "metrics").write_text("".join(line + "\n" for line, _ in measures))
    cost_file = "-"
    if costs is not None:
        (tmp / "costs").write_text("".join(f"{d} {c!r}\n" for d, c in costs.items()))
        cost_file = str(tmp / "costs")
    (tmp / "driver.py").write_text(DRIVER)
    args = [
        str(opts.get(k, d))
        for k, d in (
            ("max_gain", 1.0),
            ("min_cost", 1.0),
            ("max_cost", 1.0),
            ("max_depth", 1000),
            ("min_gain", 0.0),
        )
    ]
    done = subprocess.run(  # noqa: S603
        [
            str(_python()),
            str(tmp / "driver.py"),
            str(tmp / "qrels"),
            str(tmp / "run"),
            str(tmp / "metrics"),
            cost_file,
            *args,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        cwd=tmp,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _options(run: pl.DataFrame, costs: dict[str, float] | None, opts: dict[str, object]) -> dict[str, object]:
    """Our options for cwl_eval's: costs per item, or per query and item from each line's element type."""
    if costs is None or "element" not in run.columns:
        return {"costs": costs, **opts}
    types = pl.DataFrame({"element": list(costs), "cost": list(costs.values())})
    per_line = run.join(types, on="element", how="inner").select("query", "item", "cost")
    return {"costs": per_line, **opts}


def _compare(
    tmp: Path,
    run: pl.DataFrame,
    qrels: pl.DataFrame,
    costs: dict[str, float] | None = None,
    measures: list[tuple[str, prm.Metric]] = MEASURES,
    **opts: object,
) -> int:
    """Every measure, quantity and residual per query against cwl_eval; the number of values compared."""
    expected = _cwl(tmp, run, qrels, costs, measures, **opts)  # type: ignore[arg-type]
    frame = prm.join_run_qrels(run, qrels)
    common = _options(run, costs, opts)
    metrics = [
        _with(metric, quantity=quantity, bound=bound, **common)
        for _, metric in measures
        for quantity in QUANTITIES
        for bound in ("worst", "residual")
    ]
    got = prm.evaluate(frame, metrics, per_query=True)
    rows = {str(row["query"]): row for row in got.iter_rows(named=True)}
    judged = set(qrels["query"].cast(pl.String).to_list())
    compared = 0
    for topic, index, scores, residuals in expected:
        if topic not in judged:
            assert topic not in rows  # a query without judgments is not evaluated here (documented)
            continue
        metric = measures[index][1]
        for q, quantity in enumerate(QUANTITIES):
            for bound, want in (("worst", scores[q]), ("residual", residuals[q])):
                name = str(_with(metric, quantity=quantity, bound=bound, **common))
                value = rows[topic][name]
                assert abs(value - want) <= TOLERANCE * max(1.0, abs(want)), (topic, name, value, want)
                compared += 1
    return compared


def _collection(
    seed: int, *, int_ids: bool, graded: bool = False
) -> tuple[pl.DataFrame, pl.DataFrame, dict[str, float]]:
    """A run with ties, judged and unjudged items, relevant items never retrieved, costs for some items."""
    rng = random.Random(seed)  # noqa: S311  (test data)
    gains = [0, 1, 2] if graded else [0.0, 0.25, 0.5, 1.0]
    run_rows: list[tuple[object, str, float]] = []
    qrel_rows: list[tuple[object, str, float]] = []
    costs: dict[str, float] = {}
    for q in range(12):
        query: int | str = q if int_ids else f"q{q}"
        length = rng.choice([0, 1, 2, 5, 9, 14, 25])
        items = rng.sample(range(60), length + 4)
        scores = [float(rng.choice([1, 2, 3, 4, 5, 6])) for _ in items[:length]]  # ties
        run_rows.extend((query, f"d{i}", s) for i, s in zip(items, scores, strict=False))
        judged = [i for i in items if rng.random() < 0.6 or q == 0]
        qrel_rows.extend((query, f"d{i}", float(rng.choice(gains))) for i in judged)
        for i in items:
            if rng.random() < 0.3:
                costs[f"d{i}"] = rng.choice([0.5, 1.0, 2.0, 3.0])
    run = pl.DataFrame(
        run_rows,
        schema={"query": pl.Int64 if int_ids else pl.String, "item": pl.String, "score": pl.Float64},
        orient="row",
    )
    qrels = pl.DataFrame(
        qrel_rows,
        schema={"query": pl.Int64 if int_ids else pl.String, "item": pl.String, "relevance": pl.Float64},
        orient="row",
    )
    qrels = qrels.unique(["query", "item"], keep="first", maintain_order=True)
    return run, qrels, costs


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cwl_equals_cwl_eval_on_generated_collections(tmp_path: Path, seed: int) -> None:
    _python()
    run, qrels, _ = _collection(seed, int_ids=seed % 2 == 0)
    assert _compare(tmp_path, run, qrels, max_depth=20) > 1000


def test_cwl_equals_cwl_eval_with_costs_and_options(tmp_path: Path) -> None:
    _python()
    run, qrels, costs = _collection(7, int_ids=False)
    assert _compare(tmp_path, run, qrels, costs, max_depth=12, min_cost=0.5, max_cost=2.0) > 1000


def test_cwl_equals_cwl_eval_at_its_default_depth(tmp_path: Path) -> None:
    _python()
    run, qrels, costs = _collection(11, int_ids=True)
    assert _compare(tmp_path, run, qrels, costs) > 1000


def test_cwl_equals_cwl_eval_on_mapped_grades(tmp_path: Path) -> None:
    # cwl_eval reads gains in [0, 1]: grades 0..2 are mapped for it, and here by gain=.
    _python()
    run, grades, _ = _collection(5, int_ids=False, graded=True)
    mapping = {0.0: 0.0, 1.0: 0.5, 2.0: 1.0}
    qrels_gains = grades.with_columns(pl.col("relevance").replace_strict(mapping))
    expected = _cwl(tmp_path, run, qrels_gains, None, max_depth=15)
    assert expected
    frame = prm.join_run_qrels(run, grades)
    metrics = [_with(m, gain=mapping, max_depth=15) for _, m in MEASURES]
    got = prm.evaluate(frame, metrics, per_query=True)
    rows = {str(r["query"]): r for r in got.iter_rows(named=True)}
    for topic, index, scores, _ in expected:
        value = rows[topic][str(metrics[index])]
        assert abs(value - scores[0]) <= TOLERANCE * max(1.0, abs(scores[0])), (topic, str(metrics[index]))


def test_cwl_equals_cwl_eval_on_its_own_test_rankings(tmp_path: Path) -> None:
    # cwl/tests/ranking_test.py's rankings: [1, 0, 0.5, 1, 0] and [1, unjudged, 0.5, 1, unjudged].
    _python()
    run = pl.DataFrame(
        {
            "query": ["T1"] * 5 + ["T2"] * 5,
            "item": [f"d{i}" for i in range(5)] * 2,
            "score": [5.0, 4.0, 3.0, 2.0, 1.0] * 2,
        }
    )
    qrels = pl.DataFrame(
        {
            "query": ["T1"] * 5 + ["T2"] * 3,
            "item": [f"d{i}" for i in range(5)] + ["d0", "d2", "d3"],
            "relevance": [1.0, 0.0, 0.5, 1.0, 0.0, 1.0, 0.5, 1.0],
        }
    )
    assert _compare(tmp_path, run, qrels) == 2 * len(MEASURES) * 10


def test_cwl_equals_cwl_eval_with_element_type_costs(tmp_path: Path) -> None:
    # cwl_eval's cost file prices element types, the run's second column, line by line: an item
    # may be of a different type under another query, and a type without a price costs
    # max_cost (worst) or min_cost (best).
    _python()
    run, qrels, _ = _collection(13, int_ids=True)
    kinds = ["snippet", "image", "video", "ad"]
    run = run.with_columns(
        pl.Series("element", [kinds[(i * 7 + len(d)) % 4] for i, d in enumerate(run["item"].to_list())])
    )
    costs = {"snippet": 1.0, "image": 0.5, "video": 3.0}  # "ad" has no price
    assert _compare(tmp_path, run, qrels, costs, max_depth=16, min_cost=0.25, max_cost=2.0) > 1000


# cwl_eval's own test files (github.com/ireval/cwl, cwl/tests/, commit f3bd649, MIT licence),
# transcribed: result_file, qrel_file, gain_file, cost_file and metrics_file, whose measures
# the README's sample output lists. The run's lines are in rank order, scores descending.
_DOCS = [f"D{i}" for i in range(1, 11)]
_ELEMENTS = {
    "T1": "E2 E2 E1 E2 E3 E1 E2 E1 E2 E3",
    "T2": "E1 E1 E1 E2 E2 E1 E2 E1 E2 E3",
    "T3": "E3 E2 E1 E2 E2 E1 E2 E1 E2 E3",
}
_QRELS = {  # qrel_file: binary gains
    "T1": {"D1": 1, "D2": 0, "D3": 1, "D4": 1, "D7": 1, "D8": 0, "D9": 1, "D10": 0},
    "T2": {"D1": 1, "D2": 1, "D5": 1, "D6": 0, "D7": 1, "D8": 1, "D9": 1, "D10": 0},
    "T3": {"D4": 0, "D5": 0, "D6": 1, "D7": 1, "D8": 1, "D9": 0, "D10": 1},
}
_GAINS = {  # gain_file: graded gains in [0, 1]
    "T1": {"D1": 1.0, "D2": 0.0, "D3": 1.0, "D4": 1.0, "D7": 1.0, "D8": 0.0, "D9": 1.0, "D10": 0.0},
    "T2": {"D1": 0.2, "D2": 0.4, "D5": 1.0, "D6": 0.0, "D7": 0.2, "D8": 1.0, "D9": 0.4, "D10": 0.0},
    "T3": {"D4": 0.0, "D5": 0.0, "D6": 0.8, "D7": 0.2, "D8": 0.4, "D9": 0.0, "D10": 1.0},
}
_COSTS = {"E1": 1.0, "E2": 2.0, "E3": 5.0, "E4": 7.5}
_METRICS_FILE: list[tuple[str, prm.Metric]] = [
    ("PrecisionCWLMetric(1)", prm.cwl_precision(1)),
    ("PrecisionCWLMetric(5)", prm.cwl_precision(5)),
    ("PrecisionCWLMetric(10)", prm.cwl_precision(10)),
    ("PrecisionCWLMetric(20)", prm.cwl_precision(20)),
    ("RBPCWLMetric(0.9)", prm.cwl_rbp(theta=0.9)),
    ("NDCGCWLMetric(10)", prm.cwl_ndcg(10)),
    ("RRCWLMetric()", prm.cwl_rr()),
    ("APCWLMetric()", prm.cwl_ap()),
    ("INSTCWLMetric(1)", prm.cwl_inst(target=1)),
    ("INSQCWLMetric(1)", prm.cwl_insq(target=1)),
    ("BPMCWLMetric(1,1000)", prm.cwl_bpm(target=1, budget=1000)),
    ("BPMCWLMetric(1000,10)", prm.cwl_bpm(target=1000, budget=10)),
    ("BPMCWLMetric(1.2,10)", prm.cwl_bpm(target=1.2, budget=10)),
    ("BPMDCWLMetric(1,1000)", prm.cwl_bpm_dynamic(target=1, budget=1000)),
    ("BPMDCWLMetric(1000,10)", prm.cwl_bpm_dynamic(target=1000, budget=10)),
    ("BPMDCWLMetric(1.2,10)", prm.cwl_bpm_dynamic(target=1.2, budget=10)),
    ("UMeasureCWLMetric(50)", prm.cwl_umeasure(length=50)),
    ("UMeasureCWLMetric(10)", prm.cwl_umeasure(length=10)),
    ("TBGCWLMetric(22)", prm.cwl_tbg(halflife=22)),
    ("IFTGoalCWLMetric(2.0, 0.9, 1)", prm.cwl_ift_c1(target=2.0, b1=0.9, r1=1)),
    ("IFTGoalCWLMetric(2.0, 0.9, 10)", prm.cwl_ift_c1(target=2.0, b1=0.9, r1=10)),
    ("IFTGoalCWLMetric(2.0, 0.9, 100)", prm.cwl_ift_c1(target=2.0, b1=0.9, r1=100)),
    ("IFTRateCWLMetric(0.2, 0.9, 1)", prm.cwl_ift_c2(rate=0.2, b2=0.9, r2=1)),
    ("IFTRateCWLMetric(0.2, 0.9, 10)", prm.cwl_ift_c2(rate=0.2, b2=0.9, r2=10)),
    ("IFTRateCWLMetric(0.2, 0.9, 100)", prm.cwl_ift_c2(rate=0.2, b2=0.9, r2=100)),
    (
        "IFTGoalRateCWLMetric(2.0,0.9,10, 0.2, 0.9, 10)",
        prm.cwl_ift_c1_c2(target=2.0, b1=0.9, r1=10, rate=0.2, b2=0.9, r2=10),
    ),
    (
        "IFTGoalRateCWLMetric(2.0,0.9,100, 0.2, 0.9, 100)",
        prm.cwl_ift_c1_c2(target=2.0, b1=0.9, r1=100, rate=0.2, b2=0.9, r2=100),
    ),
]


@pytest.mark.parametrize("judgments", ["qrel_file", "gain_file"])
@pytest.mark.parametrize("priced", [False, True], ids=["no-cost-file", "cost_file"])
def test_cwl_equals_cwl_eval_on_its_test_files(tmp_path: Path, judgments: str, priced: bool) -> None:
    _python()
    rows = [
        (topic, doc, 4.3 - 0.1 * i - (0.1 if i >= 3 else 0.0), element)
        for topic, elements in _ELEMENTS.items()
        for i, (doc, element) in enumerate(zip(_DOCS, elements.split(), strict=True))
    ]
    run = pl.DataFrame(rows, schema=["query", "item", "score", "element"], orient="row")
    table = _QRELS if judgments == "qrel_file" else _GAINS
    qrels = pl.DataFrame(
        [(topic, doc, float(g)) for topic, gains in table.items() for doc, g in gains.items()],
        schema=["query", "item", "relevance"],
        orient="row",
    )
    compared = _compare(tmp_path, run, qrels, _COSTS if priced else None, _METRICS_FILE)
    assert compared == 3 * len(_METRICS_FILE) * 10


def test_cwl_equals_cwl_eval_with_a_larger_max_gain(tmp_path: Path) -> None:
    # --max_gain 2: gains up to 2, and the best case fills unjudged and padded ranks with 2.
    # INST and NERR refuse gains above 1 in cwl_eval (their validate_gain_range): left out.
    _python()
    run, qrels, _ = _collection(17, int_ids=False)
    qrels = qrels.with_columns(pl.col("relevance") * 2.0)
    kept = [(line, m) for line, m in MEASURES if not line.startswith(("INST", "NERR"))]
    assert len(kept) == len(MEASURES) - 5
    assert _compare(tmp_path, run, qrels, None, kept, max_gain=2.0, max_depth=18) > 1000


def test_cwl_equals_cwl_eval_with_negative_gains(tmp_path: Path) -> None:
    # --min_gain -1: cwl_eval takes gains down to -1 and evaluates every measure but INST and NERR
    # on them (those two refuse a gain below 0); a negative gain is not relevant (RR, TrAP's R),
    # TrAP's running gain may return to 0, and the best case's R adds the negative gains.
    _python()
    run, qrels, costs = _collection(23, int_ids=True)
    negative = {0.25: -1.0, 0.5: -0.25}
    qrels = qrels.with_columns(pl.col("relevance").replace(negative))
    assert (qrels["relevance"] < 0).sum() > 10
    kept = [(line, m) for line, m in MEASURES if not line.startswith(("INST", "NERR"))]
    assert _compare(tmp_path, run, qrels, costs, kept, min_gain=-1.0, max_depth=14) > 1000


def test_cwl_trap_with_a_running_gain_back_to_zero(tmp_path: Path) -> None:
    # Gains 0, 1, -1, 0, 1: TrAP makes only the leading zero of the running gain 1 (cwl_eval's loop).
    _python()
    run = pl.DataFrame({"query": ["T"] * 5, "item": list("abcde"), "score": [5.0, 4.0, 3.0, 2.0, 1.0]})
    qrels = pl.DataFrame({"query": ["T"] * 5, "item": list("abcde"), "relevance": [0.0, 1.0, -1.0, 0.0, 1.0]})
    measures = [(line, m) for line, m in MEASURES if not line.startswith(("INST", "NERR"))]
    assert _compare(tmp_path, run, qrels, None, measures, min_gain=-1.0, max_depth=7) == len(measures) * 10


def test_cwl_refuses_a_gain_below_min_gain() -> None:
    frame = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [2.0, 1.0], "relevance": [-1.0, 1.0]})
    with pytest.raises(prm.RankMetricsError, match=r"outside \[-0.5, 1.0\]: -1.0"):
        prm.evaluate(frame, [prm.cwl_rbp(min_gain=-0.5)])
    with pytest.raises(prm.RankMetricsError, match=r"outside \[0, 1.0\]: -1.0"):
        prm.evaluate(frame, [prm.cwl_inst()])  # INST and NERR take gains in [0, 1]: no min_gain
    with pytest.raises(prm.InvalidParameterError, match="min_gain"):
        prm.cwl_rbp(min_gain=0.5)  # at most 0: unjudged and padded ranks gain 0
    with pytest.raises(TypeError, match="min_gain"):
        prm.cwl_inst(min_gain=-1.0)  # type: ignore[call-arg]


@st.composite
def _collections(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Small collections: ties, unjudged items, judged items never retrieved, string or integer ids."""
    int_ids = draw(st.booleans())
    run_rows: list[tuple[object, str, float]] = []
    qrel_rows: list[tuple[object, str, float]] = []
    for q in range(draw(st.integers(1, 4))):
        query: object = q if int_ids else f"t{q}"
        items = draw(st.lists(st.integers(0, 30), min_size=1, max_size=14, unique=True))
        retrieved = draw(st.integers(0, len(items)))
        scores = draw(st.lists(st.integers(0, 3), min_size=retrieved, max_size=retrieved))  # ties
        run_rows.extend((query, str(i), float(s)) for i, s in zip(items, scores, strict=False))  # "9" > "10"
        for i in items:
            gain = draw(st.sampled_from([None, 0.0, 0.25, 0.5, 0.75, 1.0]))
            if gain is not None:
                qrel_rows.append((query, str(i), gain))
    qtype = pl.Int64 if int_ids else pl.String
    run = pl.DataFrame(
        run_rows, schema={"query": qtype, "item": pl.String, "score": pl.Float64}, orient="row"
    )
    qrels = pl.DataFrame(
        qrel_rows, schema={"query": qtype, "item": pl.String, "relevance": pl.Float64}, orient="row"
    )
    return run, qrels


@settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(collection=_collections(), depth=st.sampled_from([6, 9, 30]))  # cwl_eval fails for P@k past its depth
def test_cwl_equals_cwl_eval_on_hypothesis_collections(
    tmp_path_factory: pytest.TempPathFactory, collection: tuple[pl.DataFrame, pl.DataFrame], depth: int
) -> None:
    _python()
    run, qrels = collection
    if run.is_empty():
        return  # cwl_eval reads no topic from an empty run
    _compare(tmp_path_factory.mktemp("cwl"), run, qrels, None, MEASURES, max_depth=depth)
