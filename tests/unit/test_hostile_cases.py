"""Issue 39's cases: each gives the library's own error or the value the definition gives.

Found by a hostile tester: silent wrong numbers, foreign exceptions and
unbounded work from one input. The expected values come from the
definitions (written out here) or from the peer named in the test.
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.cli import main

# ---------------------------------------------------------------- fusion


def _runs() -> pl.DataFrame:
    one = pl.DataFrame(
        {"query": ["q1"] * 3 + ["q2"] * 3, "item": ["a", "b", "c"] * 2, "score": [3.0, 2, 1] * 2}
    )
    return pl.concat(
        [one.with_columns(run=pl.lit("a")), one.with_columns(run=pl.lit("b"), score=-pl.col("score"))]
    )


def _qrels() -> pl.DataFrame:
    return pl.DataFrame({"query": ["q1", "q2"], "item": ["a", "c"], "relevance": [1, 1]})


def test_fuse_refuses_a_weight_for_an_unknown_run() -> None:
    with pytest.raises(prm.InvalidParameterError, match=r"`weights` names run 'c'.*\('a', 'b'\)"):
        prm.fuse(_runs(), "wsum", weights={"a": 1, "b": 1, "c": 5})


def test_fuse_on_a_lazy_frame_refuses_a_weight_for_an_unknown_run() -> None:
    plan = prm.fuse(_runs().lazy(), "wsum", weights={"a": 1, "b": 1, "c": 5})
    with pytest.raises(prm.InvalidDataError, match="`weights` names run c, which the runs do not hold"):
        prm.collect(plan)
    # Every run named, and only those: the same plan collects.
    assert prm.collect(prm.fuse(_runs().lazy(), "wsum", weights={"a": 1, "b": 1})).height == 6


@pytest.mark.parametrize("frame", ["DataFrame", "LazyFrame"])
def test_fuse_refuses_weights_that_are_all_zero(frame: str) -> None:
    runs = _runs() if frame == "DataFrame" else _runs().lazy()
    with pytest.raises(prm.InvalidParameterError, match="a non-zero weight"):
        prm.fuse(runs, "wsum", weights={"a": 0, "b": 0.0})


def test_cli_fuse_refuses_weights_that_are_all_zero(tmp_path: Path) -> None:
    paths = []
    for name, lines in (("a", "q1 Q0 a 1 3 a\nq1 Q0 b 2 2 a\n"), ("b", "q1 Q0 b 1 3 b\nq1 Q0 a 2 1 b\n")):
        paths.append(tmp_path / name)
        paths[-1].write_text(lines)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["fuse", "--method", "wsum", "--weights", "0,0", *map(str, paths)])
    assert code != 0
    assert out.getvalue() == ""
    assert "non-zero weight" in err.getvalue()


def test_fuse_on_a_lazy_frame_with_nan_scores_is_the_librarys_error() -> None:
    runs = _runs().with_columns(score=pl.when(pl.col("item") == "c").then(float("nan")).otherwise("score"))
    with pytest.raises(prm.InvalidDataError, match="score column 'score' holds a NaN or infinite score"):
        prm.collect(prm.fuse(runs.lazy(), "combsum"))
    inf = _runs().with_columns(score=pl.when(pl.col("item") == "b").then(float("inf")).otherwise("score"))
    with pytest.raises(prm.InvalidDataError, match="at run=a, query=q1, item=b"):
        prm.collect(prm.fuse(inf.lazy(), "combsum"))


@pytest.mark.parametrize(
    ("step", "said"),
    [
        (0, r"`step`.* must be in \(0, 1\], got 0"),
        (-0.1, r"must be in \(0, 1\]"),
        (2.0, r"must be in \(0, 1\]"),
        (float("nan"), "a finite positive number"),
        (float("inf"), "a finite positive number"),
        (True, "a finite positive number"),
        ("0.1", "a finite positive number"),
        (1e-9, "at most 10,000,000 weight tuples"),
        (0.3, "makes no candidate"),  # 0, 0.3, 0.6, 0.9, 1.2: no pair sums to 1
    ],
)
def test_optimize_fusion_checks_step_before_any_work(step: object, said: str) -> None:
    with pytest.raises(prm.InvalidParameterError, match=said):
        prm.optimize_fusion(_runs(), _qrels(), "wsum", step=step)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("method", "step", "said"),
    [
        ("rrf", 0, r"a whole number in \[1, 90\]"),
        ("rrf", 0.5, "a whole number"),
        ("rrf", 91, "a whole number"),
        ("gmnz", 1e-9, "at most 100,000 candidates"),
        ("gmnz", 0, r"in \(0, 1\]"),
        ("slidefuse", -1, "a whole number"),
    ],
)
def test_optimize_fusion_checks_a_parameter_step(method: str, step: float, said: str) -> None:
    with pytest.raises(prm.InvalidParameterError, match=said):
        prm.optimize_fusion(_runs(), _qrels(), method, step=step)


@pytest.mark.parametrize("grid", [[], (), "ab", 3, {"a": 1}])
def test_optimize_fusion_refuses_an_empty_or_odd_grid(grid: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match=r"`grid`.* must be a non-empty sequence"):
        prm.optimize_fusion(_runs(), _qrels(), "wsum", grid=grid)  # type: ignore[arg-type]


def test_optimize_fusion_refuses_a_grid_past_its_limit() -> None:
    with pytest.raises(prm.InvalidParameterError, match="at most 100,000 candidates"):
        prm.optimize_fusion(_runs(), _qrels(), "rrf", grid=[60] * 100_001)


def test_optimize_fusion_step_half_is_ranx_grid() -> None:
    """The smallest valid steps still give ranx's grid: 0, 0.5, 1 for two runs summing to 1."""
    table = prm.optimize_fusion(_runs(), _qrels(), "wsum", metric="mrr", step=0.5).table
    assert table.select("a", "b").rows() == [(0.0, 1.0), (0.5, 0.5), (1.0, 0.0)]


# ---------------------------------------------------------------- power


def _pilot(b: list[float]) -> pl.DataFrame:
    a = [0.1 * i for i in range(len(b))]
    n = len(b)
    return pl.DataFrame({"query": list(range(n)) * 2, "system": ["a"] * n + ["b"] * n, "value": a + b})


def test_power_refuses_deltas_equal_up_to_rounding() -> None:
    """0.1 i + 0.3 - 0.1 i: 0.3 up to rounding on every query (its docstring: equal deltas raise)."""
    pilot = _pilot([0.1 * i + 0.3 for i in range(10)])
    deltas = pilot.filter(system="b")["value"].to_numpy() - pilot.filter(system="a")["value"].to_numpy()
    assert len(set(deltas.tolist())) > 1  # not bit-equal: the old check let them through (power=nan)
    with pytest.raises(prm.InvalidDataError, match="are all equal"):
        prm.power(pilot, by="system", metric="value", delta=0.1)


_VARIED = [0.1 * i + 0.3 + 0.01 * (i % 3) for i in range(10)]


def _t_power(effect: float, n: int, alpha: float = 0.05) -> float:
    """The power of the two-sided paired t test, by integrating the noncentral t's definition."""
    from scipy import integrate, stats  # noqa: PLC0415

    df, nc = n - 1, effect * math.sqrt(n)
    upper, lower = stats.t.isf(alpha / 2, df), stats.t.ppf(alpha / 2, df)

    def tail(t: float, *, above: bool) -> float:
        def term(v: float) -> float:
            x = t * math.sqrt(v / df) - nc
            return (stats.norm.sf(x) if above else stats.norm.cdf(x)) * stats.chi2.pdf(v, df)

        return integrate.quad(term, 0, math.inf, limit=200)[0]

    return tail(upper, above=True) + tail(lower, above=False)


def test_power_with_two_queries_is_a_number_where_scipy_gives_nan() -> None:
    """n=2 (one degree of freedom): scipy's nct.cdf is NaN at some points; the power is the integral."""
    pilot = _pilot(_VARIED)
    out = prm.power(pilot, by="system", metric="value", delta=0.1, n_queries=2)
    sd = out["sd"].item()
    assert out["power"].item() == pytest.approx(_t_power(0.1 / sd, 2), abs=1e-9)
    assert 0 < out["power"].item() < 1


def test_power_of_a_huge_effect_is_one() -> None:
    out = prm.power(_pilot(_VARIED), by="system", metric="value", delta=1e300, n_queries=5)
    assert out["power"].item() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("n", [10**9, 10**7 + 1, 1, 0, -3])
def test_power_refuses_n_queries_outside_its_limit(n: int) -> None:
    with pytest.raises(
        prm.InvalidParameterError, match=r"`n_queries` must be an integer in \[2, 10,000,000\]"
    ):
        prm.power(_pilot(_VARIED), by="system", metric="value", delta=0.1, n_queries=n)


def test_power_refuses_a_delta_needing_too_many_queries() -> None:
    with pytest.raises(prm.InvalidDataError, match="over 10,000,000 queries"):
        prm.power(_pilot(_VARIED), by="system", metric="value", delta=1e-12)


# ---------------------------------------------------------------- summarize


@pytest.mark.parametrize("interval", ["t", "bootstrap"])
def test_summarize_near_the_largest_float_is_finite_and_right(interval: str) -> None:
    values = [1.7e308, 1.6e308, 1.7e308]
    frame = pl.DataFrame({"query": ["q1", "q2", "q3"], "system": ["a"] * 3, "value": values})
    row = prm.summarize(frame, by="system", interval=interval, n_resamples=200, seed=1).row(0, named=True)
    exact = [Fraction(v) for v in values]
    mean = sum(exact) / 3
    variance = sum((v - mean) ** 2 for v in exact) / 2
    assert row["mean"] == pytest.approx(float(mean), rel=4e-16)  # numpy's sum, then a division
    assert row["std"] == pytest.approx(math.sqrt(float(variance / 2**2000)) * 2**1000, rel=1e-15)
    assert math.isfinite(row["ci_low"])


def test_summarize_of_ordinary_values_keeps_its_bits() -> None:
    """Scaling by a power of two changes no bit: the mean and std are numpy's on the raw values."""
    rng = np.random.default_rng(3)
    values = rng.random(50)
    frame = pl.DataFrame({"query": range(50), "system": ["a"] * 50, "value": values})
    row = prm.summarize(frame, by="system").row(0, named=True)
    assert row["mean"] == values.mean()
    assert row["std"] == values.std(ddof=1)


# ---------------------------------------------------------------- parsing


def _frame() -> pl.DataFrame:
    return pl.DataFrame(
        {"query": ["q1"] * 3, "item": ["a", "b", "c"], "score": [3.0, 2, 1], "relevance": [1, 0, 1]}
    )


@pytest.mark.parametrize("k", [np.int64(2), np.int32(2), np.uint8(2)])
def test_a_numpy_integer_is_a_cutoff(k: object) -> None:
    metric = prm.precision(k)  # type: ignore[arg-type]
    assert metric == prm.precision(2)
    assert type(metric.k) is int
    # precision@2 of (1, 0, 1): one relevant item in the first two.
    assert prm.evaluate(_frame(), [metric], qrels=None).item() == 0.5


@pytest.mark.parametrize("k", [np.float64(2.0), np.bool_(1), np.int64(0), np.int64(-1)])
def test_a_numpy_non_integer_is_no_cutoff(k: object) -> None:
    with pytest.raises(prm.InvalidParameterError, match="`k` must be a positive integer"):
        prm.precision(k)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "name",
    [
        "ndcg@\u0661\u0660",
        "P.\u0661\u0660",
        "P_\u0665",
        "ndcg_cut_\u0661\u0660",
        "P@\uff15",
        "rbp(p=\u0660.5)",
    ],
)
def test_cutoffs_and_parameters_are_ascii_digits(name: str) -> None:
    """Arabic-Indic and full-width digits are no cutoff (ndcg@<U+0661 U+0660> read as ndcg@10 before)."""
    with pytest.raises(prm.UnknownMetricError):
        prm.parse(name)


# ---------------------------------------------------------------- metrics read only what they need

RECS = pl.DataFrame(
    {"query": ["u1"] * 3 + ["u2"] * 3, "item": ["a", "b", "c", "a", "d", "e"], "score": [3.0, 2, 1] * 2}
)
HISTORY = pl.DataFrame({"user": ["u1", "u1", "u2", "u2"], "item": ["x", "a", "a", "b"]})


def _serendipity_every_item_relevant() -> float:
    """Microsoft Recommenders' serendipity without a relevance column: every recommended item relevant.

    s(u, i) = 1 - mean_{j in H_u} c(i, j) / sqrt(n_i n_j), c the users holding both in the histories.
    """
    held: dict[str, set[str]] = {}
    for user, item in HISTORY.iter_rows():
        held.setdefault(user, set()).add(item)

    def sim(i: str, j: str) -> float:
        both = sum(1 for items in held.values() if i in items and j in items)
        n_i = sum(1 for items in held.values() if i in items)
        n_j = sum(1 for items in held.values() if j in items)
        return both / math.sqrt(n_i * n_j) if both else 0.0

    per_user = []
    for user, items in RECS.group_by("query").agg("item").iter_rows():
        history = held[user]
        per_user.append(sum(1 - sum(sim(i, j) for j in history) / len(history) for i in items) / len(items))
    return sum(per_user) / len(per_user)


def test_serendipity_without_a_relevance_column_is_refused_naming_the_alternative() -> None:
    """It read every item as unjudged: 0.0, silently (Recommenders gives the every-item-relevant value)."""
    with pytest.raises(prm.ColumnNotFoundError, match=r"serendipity@10 reads it.*relevance=False"):
        prm.evaluate(RECS, [prm.serendipity(10, history=HISTORY)])
    got = prm.evaluate(RECS, [prm.serendipity(10, history=HISTORY, relevance=False)]).item()
    assert got == pytest.approx(_serendipity_every_item_relevant(), abs=1e-12)
    assert got == pytest.approx(0.656557, abs=1e-6)  # worked by hand: (0.597631 + 0.715482) / 2


def _rbo_ext(a: list[str], b: list[str], p: float) -> float:
    """Webber et al. (2010) eq. 32, RBO_ext of two lists of equal length k."""
    k = len(a)
    overlap = [len(set(a[:d]) & set(b[:d])) for d in range(1, k + 1)]
    summed = sum(overlap[d - 1] / d * p**d for d in range(1, k + 1))
    return overlap[-1] / k * p**k + (1 - p) / p * summed


def test_rbo_needs_no_relevance_column() -> None:
    reference = pl.DataFrame(
        {"query": ["u1"] * 3 + ["u2"] * 3, "item": ["a", "c", "b", "d", "a", "f"], "score": [3.0, 2, 1] * 2}
    )
    out = prm.evaluate(RECS, [prm.rbo(p=0.9, reference=reference)], per_query=True)
    assert out["query"].to_list() == ["u1", "u2"]
    want = [_rbo_ext(["a", "b", "c"], ["a", "c", "b"], 0.9), _rbo_ext(["a", "d", "e"], ["d", "a", "f"], 0.9)]
    assert out["rbo"].to_list() == pytest.approx(want, abs=1e-12)
    judged = prm.evaluate(
        RECS.with_columns(relevance=pl.lit(1)), [prm.rbo(p=0.9, reference=reference)], per_query=True
    )
    assert judged["rbo"].to_list() == out["rbo"].to_list()
    # A metric that reads judgments beside it still needs them.
    with pytest.raises(prm.ColumnNotFoundError, match="relevance column"):
        prm.evaluate(RECS, [prm.rbo(p=0.9, reference=reference), "ndcg@3"])


@pytest.mark.parametrize("ranks", [[0, 1], [-3, 1], [1.0, 2.5]])
def test_rbo_reference_ranks_start_at_one(ranks: list[float]) -> None:
    reference = pl.DataFrame({"query": ["u1", "u1"], "item": ["a", "b"], "rank": ranks})
    with pytest.raises(prm.InvalidDataError, match="ranks are whole numbers from 1"):
        prm.evaluate(RECS, [prm.rbo(p=0.9, reference=reference)])


def test_personalization_of_one_list_is_null() -> None:
    """No pair of lists: the mean similarity over pairs is undefined (it read 0.0)."""
    one = RECS.filter(query="u1")
    assert prm.evaluate(one, ["personalization@10"]).item() is None
    assert prm.evaluate(RECS, ["personalization@10"]).item() == pytest.approx(1 - 1 / 3)  # share a of 3


def test_intra_list_similarity_of_zero_vectors_is_null() -> None:
    """Every cosine 0/0: no defined pair, no value (it read 0.0)."""
    zeros = pl.DataFrame({"item": list("abcde"), "x": [0.0] * 5, "y": [0.0] * 5})
    assert prm.evaluate(RECS, [prm.intra_list_similarity(10, features=zeros)]).item() is None


def test_exposure_with_an_empty_groups_frame_is_refused() -> None:
    """It returned no row, warning 'the frame holds no query' (false)."""
    empty = pl.DataFrame(schema={"item": pl.String, "group": pl.String})
    frame = RECS.with_columns(relevance=pl.lit(1))
    with pytest.raises(prm.InvalidParameterError, match="`groups` is empty"):
        prm.evaluate(frame, ["ndcg@10", prm.exposure_disparity(10, groups=empty)])


# ---------------------------------------------------------------- sizes and huge numbers


@pytest.mark.parametrize(
    "call",
    [
        lambda: prm.rbp(p=10**400),
        lambda: prm.fuse(_runs(), "wsum", weights={"a": 10**400, "b": 1}),
        lambda: prm.optimize_fusion(_runs(), _qrels(), "wsum", step=10**400),
    ],
    ids=["rbp", "weights", "step"],
)
def test_an_integer_past_the_float_range_is_a_parameter_error(call: Callable[[], object]) -> None:
    """10**400 is a Real whose float() overflows: OverflowError before."""
    with pytest.raises(prm.InvalidParameterError):
        call()


@pytest.mark.parametrize("function", ["summarize", "compare"])
def test_resamples_are_bounded_before_any_draw(function: str) -> None:
    per_query = pl.DataFrame(
        {"query": [1, 2, 1, 2], "system": ["a", "a", "b", "b"], "v": [0.1, 0.2, 0.3, 0.5]}
    )
    call = getattr(prm, function)
    with pytest.raises(prm.InvalidParameterError, match="at most 10,000,000"):
        call(per_query, by="system", n_resamples=10**12)


def test_optimize_fusion_of_no_runs_is_refused() -> None:
    with pytest.raises(prm.InvalidParameterError, match="`runs` is empty"):
        prm.optimize_fusion(_runs().head(0), _qrels(), "wsum")


_CATALOG_ONLY = {
    "coverage": lambda: prm.coverage(1, catalog=pl.DataFrame({"item": ["a", "b", "c", "d"]})),
    "personalization": lambda: "personalization@2",
    "gini": lambda: "gini_index@1",
}


@pytest.mark.parametrize("name", sorted(_CATALOG_ONLY))
@pytest.mark.parametrize("path", ["eager", "per_query", "lazy", "streaming"])
@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_catalog_metrics_alone_check_the_frame(name: str, path: str, bad: float) -> None:
    # A NaN score ranks an arbitrary item first: with no query-scope metric beside them the catalog
    # metrics ran no check and gave a number (coverage@1 0.25 here); the frame contract is the same.
    df = pl.DataFrame(
        {
            "query": [1, 1, 2, 2],
            "item": ["a", "b", "a", "c"],
            "score": [bad, 0.5, 0.8, 0.1],
            "relevance": [0, 1, 1, 0],
        }
    )
    metric = _CATALOG_ONLY[name]()

    def call() -> object:
        if path in {"eager", "per_query"}:
            return prm.evaluate(df, [metric], per_query=path == "per_query")
        return prm.evaluate(df.lazy(), [metric]).collect(
            engine="streaming" if path == "streaming" else "auto"
        )

    with pytest.raises(prm.InvalidDataError, match="score column 'score' holds NaN or infinite scores"):
        call()
    finite = df.with_columns(pl.col("score").fill_nan(0.3).replace(float("inf"), 0.3))
    assert prm.evaluate(finite, [metric]).height == 1  # the same call on a good frame gives its value
    assert prm.evaluate(df, [metric], check=False).height == 1  # check=False: the user's choice


@pytest.mark.parametrize("option", ["catalog", "merged"])
@pytest.mark.parametrize("entry", ["evaluate", "evaluate_chunked", "Accumulator"])
def test_an_internal_flag_name_is_an_unknown_option(option: str, entry: str) -> None:
    # `catalog=frame` reached the request's own flag and failed in `if not catalog` (a TypeError).
    df = pl.DataFrame({"query": [1], "item": ["a"], "score": [1.0], "relevance": [1]})
    value = pl.DataFrame({"item": ["a", "b"]})
    calls = {
        "evaluate": lambda: prm.evaluate(df, ["map"], **{option: value}),
        "evaluate_chunked": lambda: prm.evaluate_chunked(df, ["map"], **{option: value}),
        "Accumulator": lambda: prm.Accumulator(["map"], **{option: value}),
    }
    with pytest.raises(prm.InvalidParameterError, match=f"no parameter '{option}'"):
        calls[entry]()
