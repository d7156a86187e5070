"""The torchmetrics adapter: two CPU processes (gloo) synced by torchmetrics equal evaluate on the union.

Each process updates an AccumulatorMetric with its own queries' batches;
``compute()`` syncs through torchmetrics' gather (torch.distributed, gloo) and
must give, on every process, ``prm.evaluate`` of all the rows, bit for bit.
"""

from __future__ import annotations

import pickle
import socket
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import polars_rankmetrics as prm

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
dist = pytest.importorskip("torch.distributed")
mp = pytest.importorskip("torch.multiprocessing")

from polars_rankmetrics.torch_metric import AccumulatorMetric  # noqa: E402

pytestmark = [
    pytest.mark.oracles,
    pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning"),
]

NAMES = ["ndcg@10", "mrr@10", "recall@50", "map", "coverage@5"]
WORLD = 2


def frame() -> pl.DataFrame:
    """40 queries x 12 candidates, tied scores, graded targets, two models."""
    q = pl.int_range(40 * 12) // 12
    pos = pl.int_range(40 * 12) % 12
    one = pl.select(
        query=q,
        item=(q * 7 + pos * 3) % 50,
        score=((pos * 5 + q) % 6).cast(pl.Float64),
        relevance=(q + pos * pos) % 4 - 1,
    )
    return pl.concat([one.with_columns(model=pl.lit(m)) for m in ("a", "b")]).select(
        "model", pl.all().exclude("model")
    )


def _worker(rank: int, port: int, out: str) -> None:
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD)
    try:
        df = frame()
        mine = df.filter(pl.col("query") % WORLD == rank)  # this process's queries
        single = AccumulatorMetric(NAMES[:-1], conventions="torchmetrics")
        grouped = AccumulatorMetric(NAMES, by="model")
        for lo in range(0, 40, 8):  # batches of whole queries
            batch = mine.filter(pl.col("query").is_between(lo, lo + 7))
            one = batch.filter(pl.col("model") == "a")
            single.update(
                torch.tensor(one["score"].to_numpy()),
                torch.tensor(one["relevance"].to_numpy()),
                torch.tensor(one["query"].to_numpy()),
            )
            grouped.update(batch=batch)
        result = {"single": {k: v.item() for k, v in single.compute().items()}, "grouped": grouped.compute()}
        Path(out, f"{rank}.pkl").write_bytes(pickle.dumps(result))
    finally:
        dist.destroy_process_group()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_two_processes_equal_evaluate_on_the_union(tmp_path: Path) -> None:
    mp.spawn(_worker, args=(_free_port(), str(tmp_path)), nprocs=WORLD, join=True)
    df = frame()
    one = df.filter(pl.col("model") == "a").drop("model")
    one = one.with_columns(item=pl.int_range(pl.len(), dtype=pl.Int64).over("query"))  # the arrays' item ids
    want_single = prm.evaluate(one, NAMES[:-1], conventions="torchmetrics").row(0, named=True)
    want_grouped = prm.evaluate(df, NAMES, by="model")
    for rank in range(WORLD):
        got = pickle.loads((tmp_path / f"{rank}.pkl").read_bytes())  # noqa: S301  (written by this test)
        assert got["single"] == want_single  # floats compared exactly
        assert_frame_equal(got["grouped"], want_grouped, check_exact=True)


def test_single_process_and_reset() -> None:
    df = frame().filter(pl.col("model") == "a").drop("model")
    metric = AccumulatorMetric(["ndcg@10", "map"])
    metric.update(batch=df.filter(pl.col("query") < 20))
    metric.update(batch=df.filter(pl.col("query") >= 20))
    want = prm.evaluate(df, ["ndcg@10", "map"]).row(0, named=True)
    assert {k: v.item() for k, v in metric.compute().items()} == want
    metric.reset()
    metric.update(batch=df.filter(pl.col("query") < 20))
    want = prm.evaluate(df.filter(pl.col("query") < 20), ["ndcg@10", "map"]).row(0, named=True)
    assert {k: v.item() for k, v in metric.compute().items()} == want


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_accumulator_matches_torchmetrics_retrieval_metrics(seed: int) -> None:
    """conventions="torchmetrics" against torchmetrics' own classes, batch by batch, on a few cases.

    Distinct scores (a tie's order in torch.topk is not reproducible), binary targets, queries of
    different lengths, some without a relevant candidate (torchmetrics' default: they score 0 and count).
    """
    from torchmetrics import retrieval  # noqa: PLC0415

    theirs = {
        "ndcg@5": retrieval.RetrievalNormalizedDCG(top_k=5),
        "mrr@10": retrieval.RetrievalMRR(top_k=10),
        "recall@3": retrieval.RetrievalRecall(top_k=3),
        "P@4": retrieval.RetrievalPrecision(top_k=4),
        "map": retrieval.RetrievalMAP(),
        "hit_rate@2": retrieval.RetrievalHitRate(top_k=2),
    }
    ours = prm.Accumulator(list(theirs), conventions="torchmetrics")
    gen = torch.Generator().manual_seed(seed)
    start = 0
    for _ in range(4):  # batches of whole queries
        sizes = torch.randint(1, 15, (6,), generator=gen)
        indexes = torch.arange(start, start + 6).repeat_interleave(sizes)
        start += 6
        # Scores above 0: torchmetrics' AP (1.9) zeroes the target of a candidate scored <= 0.
        preds = torch.randperm(indexes.numel(), generator=gen).to(torch.float64) + 1.0
        target = torch.rand(indexes.numel(), generator=gen) < 0.3
        ours.update(preds=preds, target=target, indexes=indexes)
        for metric in theirs.values():
            metric.update(preds, target, indexes=indexes)
    got = ours.compute().row(0, named=True)
    for name, metric in theirs.items():
        assert got[name] == pytest.approx(float(metric.compute()), abs=1e-6), name
