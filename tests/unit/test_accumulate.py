"""prm.Accumulator: every family, arrays as torchmetrics takes them, and every refusal it words."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal

import polars_rankmetrics as prm
from polars_rankmetrics._registry import SPECS
from polars_rankmetrics.exceptions import ColumnTypeError, InvalidDataError, InvalidParameterError

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")


def lists_frame(seed: int, *, intents: bool = False) -> pl.DataFrame:
    """Two models' runs joined to (intent) qrels: ties, unjudged items, relevant items never retrieved."""
    rng = random.Random(seed)  # noqa: S311  (test data)
    run: list[tuple[str, str, str, float]] = []
    qrels: list[tuple[str, ...] | tuple[str, str, int]] = []
    for q in range(24):
        for d in range(rng.randint(0, 10)):
            if intents:
                chosen = rng.sample("abcd", rng.randint(0, 3))
                qrels.extend((f"q{q}", i, f"d{d}", rng.choice([0, 1, 1, 2])) for i in chosen)  # type: ignore[misc]
            else:
                qrels.append((f"q{q}", f"d{d}", rng.choice([-1, 0, 1, 1, 2, 3])))
        for model in ("m1", "m2"):
            items = rng.sample(range(16), rng.randint(1, 12))
            run += [(model, f"q{q}", f"d{d}", float(rng.randint(0, 5))) for d in items]
    runs = pl.DataFrame(run, schema=["model", "query", "item", "score"], orient="row")
    names = ["query", "intent", "item", "relevance"] if intents else ["query", "item", "relevance"]
    return prm.join_run_qrels(runs, pl.DataFrame(qrels, schema=names, orient="row"), by="model")


def _side_metrics(df: pl.DataFrame) -> list[prm.Metric]:
    """A metric of every family that needs a side input or a non-default option."""
    items = df.select(pl.col("item").unique().sort())
    popularity = items.with_columns(count=(pl.int_range(pl.len()) % 7 + 1).cast(pl.Int64))
    queries = df.select(pl.col("query").unique().sort())
    history = queries.join(items, how="cross").filter(pl.int_range(pl.len()) % 7 < 2)
    features = items.with_columns(
        f1=(pl.int_range(pl.len()) % 3).cast(pl.Float64), f2=pl.int_range(pl.len()) % 5 - 2.0
    )
    groups = items.with_columns(genre=pl.int_range(pl.len()) % 4)
    target = groups.group_by("genre").len()
    reference = df.filter(pl.col("score").is_not_null(), pl.col("model") == "m1").select(
        "query", "item", score=-pl.col("score")
    )
    return [
        prm.mpr(missing_items="random", n_items=40),
        prm.mcc(5, n_items=40),
        prm.mean_pop_rank(5, interactions=history),
        prm.recall_at_precision(5, precision=0.5),
        prm.rbo(reference=reference),
        prm.coverage(5, catalog=items),
        prm.gini(5, catalog=items),
        prm.intra_list_similarity(5, features=features),
        prm.novelty(5, popularity=popularity, n_users=30),
        prm.arp(5, popularity=popularity),
        prm.aplt(5, popularity=popularity, head_share=0.5),
        prm.aclt(3, interactions=history, head_share=0.3),
        prm.tail_percentage(5, popularity=popularity, tail=0.3),
        prm.pop_rsp(5, interactions=history),
        prm.pop_reo(5, interactions=history),
        prm.surprisal(5, interactions=history),
        prm.unexpectedness(5, baseline=reference),
        prm.category_diversity(5, categories=groups),
        prm.miscalibration(5, history=history, categories=groups),
        prm.miscalibration(5, history=history, categories=groups, weights="rank"),
        prm.serendipity(5, history=history),
        prm.serendipity(5, history=history, features=features, relevance=False),
        prm.exposure_share(5, groups=groups, group=1),
        prm.exposure_share(5, groups=groups, group=1, discount="rbp", p=0.8),
        prm.exposure_disparity(5, groups=groups, target=target),
        prm.exposure_disparity(5, groups=groups, target=target, discount="rbp", p=0.8),
        prm.exposure_disparity(5, groups=groups, target="relevance"),
        prm.exposure_disparity(5, groups=groups, target="relevance", discount="rbp", p=0.8),
        prm.awrf(5, groups=groups, target=target),
        prm.awrf(5, groups=groups, target=target, discount="rbp", p=0.7),
        *_propensity_metrics(items),
    ]


def _propensity_metrics(items: pl.DataFrame) -> list[prm.Metric]:
    """The propensity-scored and IPS families, propensities from a side frame."""
    props = items.with_columns(propensity=1.0 / (pl.int_range(pl.len()) % 5 + 1))
    counts = items.with_columns(count=pl.int_range(pl.len()) % 4)
    return [
        prm.psp(5, propensities=props), prm.psndcg(5, propensities=props, normalize="oracle"),
        prm.psrecall(3, counts=counts, n=50), prm.ips_precision(5, propensities=props),
        prm.ips_recall(propensities=props, estimator="snips"), prm.ips_ndcg(5, propensities=props),
        prm.ips_rbp(propensities=props), prm.ips_mrr(propensities=props),
        prm.ips_hit_rate(3, propensities=props),
    ]  # fmt: skip


def _default_names(*, intents: bool) -> list[str]:
    """Every family that parses from a name alone (at a cutoff of 5 where it takes one)."""
    out = []
    for spec in SPECS:
        needs_value = any(p.default is None and p.kind in ("float", "floats", "side") for p in spec.params)
        if needs_value or ("intents" in spec.needs) != intents:
            continue
        out.append(f"{spec.name}@5" if spec.k == "required" else spec.name)
    return out


def _in_batches(names: list[object], df: pl.DataFrame, workers: int = 2) -> pl.DataFrame:
    """The frame's queries in batches of about five, dealt round-robin to `workers` accumulators, merged."""
    accs = [prm.Accumulator(names, by="model") for _ in range(workers)]  # type: ignore[arg-type]
    batch = pl.col("query").str.slice(1).cast(pl.Int64) // 5
    for i, (_, part) in enumerate(df.group_by(batch)):
        accs[i % workers].update(part)
    for other in accs[1:]:
        accs[0].merge(other)
    return accs[0].compute()


def test_every_family_is_supported() -> None:
    """No family is refused: each one's result from batches equals evaluate's, bit for bit."""
    df, intent_df = lists_frame(7), lists_frame(8, intents=True)
    plain: list[object] = [*_default_names(intents=False), *_side_metrics(df)]
    diverse: list[object] = _default_names(intents=True)
    covered = {prm.parse(m).spec.name if isinstance(m, str) else m.spec.name for m in [*plain, *diverse]}  # type: ignore[union-attr]
    assert covered == {spec.name for spec in SPECS}
    for names, frame in ((plain, df), (diverse, intent_df)):
        want = prm.evaluate(frame, names, by="model")  # type: ignore[arg-type]
        assert want.height == 2
        assert_frame_equal(_in_batches(names, frame), want, check_exact=True)


def test_per_query_rows_of_every_query_family() -> None:
    df = lists_frame(9)
    names = ["ndcg@10", "map", "relstring", "G", "err@5", "bpref", "infAP"]
    acc = prm.Accumulator(names, by="model", per_query=True)
    for _, part in df.group_by("query"):
        acc.update(part)
    assert_frame_equal(acc.compute(), prm.evaluate(df, names, by="model", per_query=True), check_exact=True)


def test_arrays_as_torchmetrics_takes_them() -> None:
    """preds/target/indexes: items numbered within each query; bool targets are grades 0 and 1."""
    rng = np.random.default_rng(3)
    indexes = np.repeat(np.arange(30), 8)
    preds = rng.integers(0, 4, indexes.size) / 4  # ties
    target = rng.random(indexes.size) < 0.3
    acc = prm.Accumulator(["ndcg@5", "mrr", "recall@3"], conventions="torchmetrics")
    for lo in range(0, indexes.size, 40):  # five whole queries a batch
        acc.update(preds=preds[lo : lo + 40], target=target[lo : lo + 40], indexes=indexes[lo : lo + 40])
    frame = pl.DataFrame({"query": indexes, "score": preds, "relevance": target.astype(np.int64)})
    frame = frame.with_columns(item=pl.int_range(pl.len(), dtype=pl.Int64).over("query"))
    want = prm.evaluate(frame, ["ndcg@5", "mrr", "recall@3"], conventions="torchmetrics")
    assert_frame_equal(acc.compute(), want, check_exact=True)


def test_torch_tensors_and_pandas_frames() -> None:
    torch = pytest.importorskip("torch")
    df = lists_frame(10).filter(pl.col("model") == "m1").drop("model")
    want = prm.evaluate(df, ["ndcg@10", "P_5"])
    acc = prm.Accumulator(["ndcg@10", "P_5"]).update(df.filter(pl.col("query") < "q5").to_pandas())
    acc.update(pa.table(df.filter(pl.col("query") >= "q5").to_arrow()))
    assert_frame_equal(acc.compute(), want, check_exact=True)
    scored = df.filter(pl.col("score").is_not_null()).with_columns(
        pl.col("query").str.slice(1).cast(pl.Int64)
    )
    tensors = {
        "preds": torch.tensor(scored["score"].to_numpy()),
        "target": torch.tensor(scored["relevance"].fill_null(0).to_numpy()),
        "indexes": torch.tensor(scored["query"].to_numpy()),
    }
    got = prm.Accumulator(["P_5"], judgments="retrieved").update(**tensors).compute()
    frame = scored.select("query", "score", relevance=pl.col("relevance").fill_null(0))
    frame = frame.with_columns(item=pl.int_range(pl.len(), dtype=pl.Int64).over("query"))
    assert_frame_equal(got, prm.evaluate(frame, ["P_5"], judgments="retrieved"), check_exact=True)


def test_a_query_in_two_batches_is_refused_by_name() -> None:
    df = lists_frame(11).filter(pl.col("model") == "m1")
    acc = prm.Accumulator(["ndcg@10"], by="model")
    acc.update(df.filter(pl.col("query") == "q3").head(2)).update(df.filter(pl.col("query") == "q3").tail(1))
    with pytest.raises(
        InvalidDataError, match=r"holds query .*'query': 'q3'.* more than once; .*queries='split'"
    ):
        acc.compute()


def test_a_query_in_two_workers_is_refused_on_merge() -> None:
    df = lists_frame(12).filter(pl.col("model") == "m1").drop("model")
    one, two = (
        prm.Accumulator(["map"]).update(df),
        prm.Accumulator(["map"]).update(df.filter(pl.col("query") == "q7")),
    )
    with pytest.raises(InvalidDataError, match="holds query 'q7' more than once"):
        one.merge(two)


def test_split_queries_equal_evaluate() -> None:
    df = lists_frame(13).sample(fraction=1.0, shuffle=True, seed=1)
    acc = prm.Accumulator(["ndcg@10", "coverage@3"], by="model", queries="split")
    for lo in range(0, df.height, 17):
        acc.update(df[lo : lo + 17])
    assert_frame_equal(
        acc.compute(), prm.evaluate(df, ["ndcg@10", "coverage@3"], by="model"), check_exact=True
    )


def test_split_arrays_need_item_ids() -> None:
    acc = prm.Accumulator(["mrr"], queries="split")
    with pytest.raises(InvalidParameterError, match=r"update\(items=None\) is needed with queries='split'"):
        acc.update(preds=[0.5], target=[1], indexes=[0])


def test_refusals_are_worded() -> None:
    with pytest.raises(InvalidParameterError, match=r"Accumulator\(qrels=...\) does not apply"):
        prm.Accumulator(["mrr"], qrels=pl.DataFrame())  # type: ignore[call-arg]
    with pytest.raises(InvalidParameterError, match="`queries` must be one of"):
        prm.Accumulator(["mrr"], queries="some")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match=r"coverage@5.*per_query"):
        prm.Accumulator(["coverage@5"], per_query=True)
    with pytest.raises(InvalidParameterError, match="ties='average' is not defined for metric 'coverage@5'"):
        prm.Accumulator(["ndcg@10", "coverage@5"], ties="average")  # at construction, before any batch
    with pytest.raises(InvalidParameterError, match="compute\\(\\) needs a batch first"):
        prm.Accumulator(["mrr"]).compute()
    with pytest.raises(InvalidParameterError, match="update\\(\\) needs `target`"):
        prm.Accumulator(["mrr"]).update(preds=[0.5], indexes=[0])
    with pytest.raises(InvalidParameterError, match="give update\\(\\) either a batch or arrays"):
        prm.Accumulator(["mrr"]).update(pl.DataFrame(), preds=[0.5])
    with pytest.raises(InvalidParameterError, match=r"preds, target, indexes.*arrays of one length"):
        prm.Accumulator(["mrr"]).update(preds=[0.5, 0.2], target=[1], indexes=[0, 0])
    with pytest.raises(InvalidParameterError, match="the accumulator to merge was built for another request"):
        prm.Accumulator(["mrr"]).merge(prm.Accumulator(["mrr"], depth=3))


def test_batches_must_share_a_schema() -> None:
    acc = prm.Accumulator(["mrr"]).update(
        pl.DataFrame({"query": [1], "item": ["a"], "score": [0.5], "relevance": [1]})
    )
    other = pl.DataFrame({"query": ["q"], "item": ["a"], "score": [0.5], "relevance": [1]})
    with pytest.raises(
        ColumnTypeError, match="column 'query' is Int64 in the first batch but String in this one"
    ):
        acc.update(other)


def test_saved_state_of_another_request_or_version_is_refused(tmp_path: Path) -> None:
    df = lists_frame(14).filter(pl.col("model") == "m1").drop("model")
    path = tmp_path / "state.parquet"
    prm.Accumulator(["ndcg@10"]).update(df).save(path)
    with pytest.raises(InvalidParameterError, match=r"the saved state was saved for another request"):
        prm.Accumulator(["ndcg@10"], ties="average").load(path)
    table = pa.parquet.read_table(path)
    meta = table.schema.metadata[b"polars_rankmetrics.accumulator"].replace(b'"format": 1', b'"format": 2')
    with pytest.raises(
        InvalidParameterError, match="has format version 2; this version of the library reads 1"
    ):
        prm.Accumulator(["ndcg@10"]).load(
            table.replace_schema_metadata({b"polars_rankmetrics.accumulator": meta})
        )
    with pytest.raises(InvalidParameterError, match=r"has format version None"):
        prm.Accumulator(["ndcg@10"]).load(pa.table({"a": [1]}))
    restored = prm.Accumulator(["ndcg@10"]).load(path).compute()
    assert_frame_equal(restored, prm.evaluate(df, ["ndcg@10"]), check_exact=True)


def test_state_is_bounded_by_groups_not_rows() -> None:
    """Means only: one row of states per `by` group; the rows are not kept."""
    df = lists_frame(15)
    acc = prm.Accumulator(["ndcg@10", "map"], by="model")
    for _, part in df.group_by("query"):
        acc.update(part)
    acc.compute()
    assert acc._parts["states"][0].height == 2  # noqa: SLF001  (the state itself)
    assert set(acc._parts) == {"states", "seen"}  # noqa: SLF001
    assert acc._parts["seen"][0].height == df.select("model", "query").n_unique()  # noqa: SLF001


def test_reset_forgets_and_empty_batches_give_evaluate_of_nothing() -> None:
    df = lists_frame(16).filter(pl.col("model") == "m1").drop("model")
    acc = prm.Accumulator(["ndcg@10", "coverage@3"]).update(df.filter(pl.col("query") == "q1"))
    acc.reset().update(df.clear())
    assert_frame_equal(acc.compute(), prm.evaluate(df.clear(), ["ndcg@10", "coverage@3"]), check_exact=True)
