"""A qrels judging a pair twice is named by the library, whatever the qrels' size.

Formatting the repeated pairs of a qrels frame of several chunks (a concatenation) made
Polars 2.1 panic (``assertion failed: i < self.len()``).
"""

from __future__ import annotations

import polars as pl
import pytest

import polars_rankmetrics as prm


@pytest.fixture(scope="module")
def demo() -> tuple[pl.DataFrame, pl.DataFrame]:
    run = prm.read_trec_run(prm.demo_path("results.test")).drop("run")
    qrels = prm.read_trec_qrels(prm.demo_path("qrels.test"))
    return run, qrels


@pytest.mark.parametrize("lazy", [False, True])
def test_a_pair_judged_twice_in_trec_eval_s_qrels_is_named(
    demo: tuple[pl.DataFrame, pl.DataFrame], *, lazy: bool
) -> None:
    run, qrels = demo
    twice = pl.concat([qrels, qrels.head(1)])
    assert twice.n_chunks() > 1  # the shape whose message panicked
    first = qrels.row(0, named=True)
    named = f"query='{first['query']}', item='{first['item']}'"
    joined = (lambda: prm.collect(prm.join_run_qrels(run.lazy(), twice.lazy()))) if lazy else None
    with pytest.raises(
        prm.InvalidDataError, match=rf"judge 1 \(query, item\) pair\(s\) more than once, on 2 rows: {named}"
    ):
        joined() if joined is not None else prm.join_run_qrels(run, twice)


def test_qrels_without_a_repeated_pair_join(demo: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    run, qrels = demo
    assert prm.join_run_qrels(run, qrels).height >= run.height
