"""prm.Accumulator gives evaluate's result bit for bit, whatever the batches, their order and the workers.

The same rows are cut into whole-query batches at random, shuffled, dealt to
random workers whose accumulators are merged in a random tree, and pickled or
saved to Parquet and restored mid-stream; the result must equal
``prm.evaluate`` on all the rows, with ``check_exact=True``. With
``queries="split"`` rows are cut anywhere.
"""

from __future__ import annotations

import pickle
import random
import tempfile
from itertools import pairwise
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from strategies import EMPTY_STR, TWO_RUNS, eval_frames, frame_repr

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

# Every aggregate rule (mean, sum, geometric mean, weighted, none), table metrics, many prepared columns.
METRICS = [
    "P_3",
    "recall_10",
    "ndcg_cut_10",
    "map",
    "recip_rank",
    "num_ret",
    "num_q",
    "gm_map",
    "bpref",
    "mpr",
    "Rndcg",
    "err@5",
    "relstring",
]
CATALOG = ["coverage@3", "personalization@2", "gini@3", "entropy"]
OPTIONS = [
    {},
    {"per_query": True},
    {"aggregate": "std"},
    {"aggregate": "median"},
    {"aggregate": "max"},
    {"ties": "average"},
    {"conventions": "torchmetrics"},
    {"missing": "zero", "depth": 3},
]


def _assert_same(got: pl.DataFrame, want: pl.DataFrame, frame: pl.DataFrame, how: str) -> None:
    try:
        assert_frame_equal(got, want, check_exact=True)
    except AssertionError as err:
        msg = f"{err}\n{how}\nfrom frame:\n{frame_repr(frame)}"
        raise AssertionError(msg) from None


def _metrics(options: dict[str, object]) -> list[str]:
    plain = not options or set(options) <= {"missing", "depth"}
    names = [m for m in METRICS if m != "relstring" or plain]
    if options.get("ties") == "average" or options.get("conventions") == "torchmetrics":
        names = ["P_3", "recall_10", "ndcg_cut_10", "map", "recip_rank", "num_ret"]
    if plain:
        names += CATALOG  # catalog metrics: with the mean only, never per query
    return names


def _batches(frame: pl.DataFrame, keys: list[str], rng: random.Random) -> list[pl.DataFrame]:
    """Whole queries dealt into random batches (some empty), in random order, rows shuffled."""
    groups = [g for _, g in frame.group_by(keys)]
    rng.shuffle(groups)
    cuts = sorted(rng.randint(0, len(groups)) for _ in range(rng.randint(0, 4)))
    bounds = [0, *cuts, len(groups)]
    out = []
    for lo, hi in pairwise(bounds):
        batch = pl.concat(groups[lo:hi]) if hi > lo else frame.clear()
        out.append(batch.sample(fraction=1.0, shuffle=True, seed=rng.randint(0, 99)))
    return out


def _restored(
    acc: prm.Accumulator, rng: random.Random, names: list[str], options: dict[str, object]
) -> prm.Accumulator:
    """The accumulator as it is, pickled, or saved to Parquet and loaded into a new one."""
    how = rng.choice(("as is", "pickle", "parquet"))
    if how == "pickle":
        return pickle.loads(pickle.dumps(acc))  # noqa: S301  (our own bytes)
    if how == "parquet":
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "state.parquet"
            acc.save(path)
            return prm.Accumulator(names, **options).load(path)  # type: ignore[arg-type]
    return acc


def _accumulated(
    batches: list[pl.DataFrame], names: list[str], options: dict[str, object], rng: random.Random
) -> pl.DataFrame:
    """The batches dealt to 1-3 workers, restored mid-stream, merged in random order."""
    workers = [prm.Accumulator(names, **options) for _ in range(rng.randint(1, 3))]  # type: ignore[arg-type]
    for batch in batches:
        i = rng.randrange(len(workers))
        workers[i] = _restored(workers[i].update(batch), rng, names, options)
    rng.shuffle(workers)
    while len(workers) > 1:
        a, b = workers.pop(rng.randrange(len(workers))), workers.pop(rng.randrange(len(workers)))
        workers.append(a.merge(b))
    return workers[0].compute()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(eval_frames(), eval_frames(models=2)),
    st.sampled_from(OPTIONS),
    st.randoms(use_true_random=False),
)
@example(TWO_RUNS, {}, random.Random(1))  # noqa: S311  (test data)
@example(EMPTY_STR, {}, random.Random(2))  # noqa: S311
def test_accumulator_equals_evaluate(
    frame: pl.DataFrame, options: dict[str, object], rng: random.Random
) -> None:
    by = "model" if "model" in frame.columns else None
    options = {**options, "by": by}
    names = _metrics(options)
    keys = ["model", "query"] if by else ["query"]
    want = prm.evaluate(frame, names, **options)  # type: ignore[arg-type]
    got = _accumulated(_batches(frame, keys, rng), names, options, rng)
    _assert_same(got, want, frame, f"options {options}")


@settings(max_examples=25, deadline=None)
@given(eval_frames(models=2), st.randoms(use_true_random=False))
def test_split_queries_equal_evaluate(frame: pl.DataFrame, rng: random.Random) -> None:
    """queries='split': rows cut anywhere, across batches and workers."""
    names = [*METRICS[:-1], *CATALOG]
    options: dict[str, object] = {"by": "model", "queries": "split"}
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=rng.randint(0, 99))
    cuts = sorted(rng.randint(0, shuffled.height) for _ in range(rng.randint(0, 5)))
    bounds = [0, *cuts, shuffled.height]
    batches = [shuffled[lo:hi] for lo, hi in pairwise(bounds)]
    got = _accumulated(batches, names, options, rng)
    _assert_same(got, prm.evaluate(frame, names, by="model"), frame, "queries='split'")


@settings(max_examples=15, deadline=None)
@given(eval_frames(), st.randoms(use_true_random=False))
def test_merge_is_commutative_and_associative(frame: pl.DataFrame, rng: random.Random) -> None:
    names = ["ndcg@10", "map", "coverage@3"]
    parts = _batches(frame, ["query"], rng)[:3]
    parts += [frame.clear()] * (3 - len(parts))
    a, b, c = (prm.Accumulator(names).update(p) for p in parts)

    def copy(acc: prm.Accumulator) -> prm.Accumulator:
        return pickle.loads(pickle.dumps(acc))  # noqa: S301

    left = copy(a).merge(copy(b)).merge(copy(c)).compute()
    right = copy(a).merge(copy(b).merge(copy(c))).compute()
    swapped = copy(c).merge(copy(a)).merge(copy(b)).compute()
    _assert_same(left, right, frame, "(a + b) + c == a + (b + c)")
    _assert_same(left, swapped, frame, "a + b + c == c + a + b")
