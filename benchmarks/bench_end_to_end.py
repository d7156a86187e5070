"""The user's whole path (issue 30, point 1): from files or two frames to the numbers, against every peer.

Usage::

    python benchmarks/bench_end_to_end.py                  # writes results/end_to_end.md
    python benchmarks/bench_end_to_end.py --lines 200000 --users 20000 --repeat 2 --out /tmp/e.md

Sections (each method in a fresh process, the methods of a section run in
alternation ``--repeat`` times, ratios from the minima of one run; every
peer's values are compared with ours, computing what the peer computes
through the matching preset, before any time is reported):

1. TREC files on disk (``--lines`` run lines, 100 per query, scores with
   four decimals and no tie inside a query, 10% of the retrieved rows
   judged 0-3 plus five judged items never retrieved per query), numeric
   ids (``301``, ``4711``) and alphanumeric ids (``q301``, ``D4711``): to
   the mean table and to the per-query table. Ours: ``read_trec_run``,
   ``read_trec_qrels``, ``join_run_qrels``, ``evaluate``; pytrec_eval:
   ``parse_run``/``parse_qrel`` into its dicts, ``RelevanceEvaluator``,
   ``evaluate`` (the mean from its per-query dict); ranx:
   ``Qrels.from_file``/``Run.from_file``, ``evaluate``.
2. Two Polars frames as a recommender pipeline has them (``--users``
   users, lists of 10-100 items, mean about 20; 1-20 relevant items per
   user, half of them recommended), Int64 ids and String ids. Ours:
   ``join_run_qrels`` + ``evaluate`` of six metrics at 10; peers from the
   same frames: ranx (``Qrels.from_df``/``Run.from_df``), pytrec_eval
   (dicts built from the frames), Microsoft Recommenders'
   ``python_evaluation`` (pandas, its four ranking metrics), torchmetrics'
   retrieval metrics (the targets joined on with Polars, tensors, six
   metrics). Also ``join_run_qrels`` alone against a bare Polars full
   join of the same frames, and the default check against ``check=False``.
3. Catalog metrics (coverage, personalization, novelty at 10) on lists of
   exactly 10 items: ours against Microsoft Recommenders'
   ``catalog_coverage`` and ``novelty`` (``--users`` users), and against
   recmetrics' ``prediction_coverage``, ``personalization`` and ``novelty``
   on ``--recmetrics-users`` users (its personalization builds a dense
   users x users similarity matrix).

RePlay is not run: it pins Polars < 2.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

import polars_rankmetrics as prm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_core import OtherLoad, library, machine

RESULTS = Path(__file__).resolve().parent / "results"
SEED = 30
TOLERANCE = 1e-9
TORCH_TOLERANCE = 1e-6  # torchmetrics computes in float32
TARGET = 5  # peer / ours on every row
LIMIT = 1.15  # the join against a bare join, the default check against check=False
K = 10

# TREC files: ours (default, trec_eval) -> pytrec_eval's and ranx's names.
TREC_METRICS = ["ndcg@10", "map", "mrr", "P_10", "recall_100"]
TREC_PYTREC = {
    "ndcg@10": "ndcg_cut_10",
    "map": "map",
    "mrr": "recip_rank",
    "P_10": "P_10",
    "recall_100": "recall_100",
}
TREC_RANX = {
    "ndcg@10": "ndcg@10",
    "map": "map",
    "mrr": "mrr",
    "P_10": "precision@10",
    "recall_100": "recall@100",
}
# Recommender frames: six metrics at 10, and what each peer computes of them.
REC_METRICS = ["ndcg@10", "mrr@10", "precision@10", "recall@10", "hit_rate@10", "map@10"]
REC_PYTREC = {  # pytrec_eval has no cutoff on recip_rank: ours computes mrr (recip_rank) for it
    "ndcg@10": "ndcg_cut_10", "mrr": "recip_rank", "precision@10": "P_10",
    "recall@10": "recall_10", "hit_rate@10": "success_10", "map@10": "map_cut_10",
}  # fmt: skip
REC_RANX = {m: m for m in REC_METRICS}
REC_RECOMMENDERS = {
    "precision@10": "precision_at_k", "recall@10": "recall_at_k", "ndcg@10": "ndcg_at_k", "map@10": "map_at_k",
}  # fmt: skip
REC_TORCH = {
    "ndcg@10": "RetrievalNormalizedDCG", "mrr@10": "RetrievalMRR", "precision@10": "RetrievalPrecision",
    "recall@10": "RetrievalRecall", "hit_rate@10": "RetrievalHitRate", "map@10": "RetrievalMAP",
}  # fmt: skip
PRESET = {"pytrec": None, "ranx": "ranx", "recommenders": "recommenders", "torch": "torchmetrics"}
PEER_METRICS = {"pytrec": REC_PYTREC, "ranx": REC_RANX, "recommenders": REC_RECOMMENDERS, "torch": REC_TORCH}


def _clock(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


# --------------------------------------------------------------------------- data


def trec_files(root: Path, lines: int, *, numeric: bool) -> tuple[Path, Path]:
    """A run of `lines` lines (100 per query) and its qrels, written once."""
    tag = "num" if numeric else "alnum"
    run_path, qrels_path = root / f"trec_{tag}_{lines}.run", root / f"trec_{tag}_{lines}.qrels"
    if run_path.exists() and qrels_path.exists():
        return run_path, qrels_path
    rng = np.random.default_rng(SEED)
    per = 100
    n_q = lines // per
    query = np.repeat(np.arange(n_q) + 301, per)
    first = rng.integers(0, 1_000_000, n_q)
    stride = rng.integers(1, 9_000, n_q)
    position = np.tile(np.arange(per), n_q)
    doc = np.repeat(first, per) + np.repeat(stride, per) * position  # distinct inside a query
    score = (per - position) + np.round(rng.random(query.size) * 0.9999, 4)  # no tie inside a query
    qp, dp = ("", "") if numeric else ("q", "D")
    run = pl.DataFrame({"q": query, "d": doc, "rank": position + 1, "score": score}).select(
        pl.format(qp + "{}", "q").alias("q"),
        pl.lit("Q0").alias("q0"),
        pl.format(dp + "{}", "d").alias("d"),
        "rank",
        pl.col("score").round(4),
        pl.lit("bm25").alias("tag"),
    )
    run.write_csv(run_path, separator=" ", include_header=False, float_precision=4)
    judged = rng.random(query.size) < 0.1
    unretrieved = np.repeat(first, 5) + np.repeat(stride, 5) * np.tile(np.arange(per, per + 5), n_q)
    qrels = pl.concat(
        [
            pl.DataFrame({"q": query[judged], "d": doc[judged], "rel": rng.integers(0, 4, judged.sum())}),
            pl.DataFrame(
                {
                    "q": np.repeat(np.arange(n_q) + 301, 5),
                    "d": unretrieved,
                    "rel": rng.integers(1, 4, 5 * n_q),
                }
            ),
        ]
    )
    qrels = qrels.select(
        (pl.lit(qp) + pl.col("q").cast(pl.String)).alias("q"),
        pl.lit("0").alias("it"),
        (pl.lit(dp) + pl.col("d").cast(pl.String)).alias("d"),
        "rel",
    )
    qrels.write_csv(qrels_path, separator=" ", include_header=False)
    return run_path, qrels_path


def rec_frames(root: Path, users: int, *, strings: bool) -> tuple[Path, Path]:
    """A recommender's run (user, item, score) and ground truth (user, item, relevance 1), as Parquet."""
    tag = "str" if strings else "int"
    run_path, truth_path = root / f"rec_{tag}_{users}_run.parquet", root / f"rec_{tag}_{users}_truth.parquet"
    if run_path.exists() and truth_path.exists():
        return run_path, truth_path
    rng = np.random.default_rng(SEED)
    n_items = 100_000
    length = np.minimum(100, 9 + rng.geometric(1 / 11, users))  # 10-100, mean about 20
    first = rng.integers(0, n_items, users)
    stride = rng.integers(1, 800, users)  # (100 + 20) * 799 < 100k: items distinct inside a user
    user = np.repeat(np.arange(users), length)
    position = np.arange(user.size) - np.repeat(np.cumsum(length) - length, length)
    item = (first[user] + stride[user] * position) % n_items
    score = (length[user] - position) + np.round(rng.random(user.size) * 0.99, 2)
    n_rel = rng.integers(1, 21, users)
    in_list = np.minimum(length, np.ceil(n_rel / 2).astype(np.int64))
    out_list = n_rel - in_list
    # Relevant items in the list: random positions without repeats (the first in_list of a permutation).
    keys = rng.random(user.size)
    rank_in_user = (
        pl.DataFrame({"u": user, "k": keys}).select(pl.col("k").rank("ordinal").over("u")).to_series()
    )
    picked = rank_in_user.to_numpy() <= in_list[user]
    ru = np.repeat(np.arange(users), out_list)
    rpos = np.arange(ru.size) - np.repeat(np.cumsum(out_list) - out_list, out_list)
    outside = (first[ru] + stride[ru] * (length[ru] + rpos)) % n_items
    run = pl.DataFrame({"query": user, "item": item, "score": score})
    truth = pl.DataFrame(
        {
            "query": np.concatenate([user[picked], ru]),
            "item": np.concatenate([item[picked], outside]),
            "relevance": np.ones(picked.sum() + ru.size, dtype=np.int64),
        }
    )
    if strings:
        as_text = [pl.format("u{}", "query").alias("query"), pl.format("i{}", "item").alias("item")]
        run, truth = run.with_columns(as_text), truth.with_columns(as_text)
    run.write_parquet(run_path)
    truth.write_parquet(truth_path)
    return run_path, truth_path


def catalog_frames(root: Path, users: int) -> tuple[Path, Path]:
    """Lists of exactly 10 items (user, item, rank) and past interactions (user, item), as Parquet."""
    lists_path, train_path = root / f"cat_{users}_lists.parquet", root / f"cat_{users}_train.parquet"
    if lists_path.exists() and train_path.exists():
        return lists_path, train_path
    rng = np.random.default_rng(SEED)
    n_items = 20_000
    first = (rng.pareto(1.2, users) * 100).astype(np.int64) % n_items
    stride = rng.integers(1, 1_000, users)
    position = np.arange(K)
    items = (first[:, None] + stride[:, None] * position[None, :]) % n_items
    lists = pl.DataFrame(
        {"query": np.repeat(np.arange(users), K), "item": items.ravel(), "rank": np.tile(position + 1, users)}
    )
    # Interactions: every recommended item seen at least once, plus skewed history.
    n_train = users * 20
    history = (rng.pareto(1.0, n_train) * 50).astype(np.int64) % n_items
    train = pl.concat(
        [
            pl.DataFrame({"user": rng.integers(0, users, n_train), "item": history}),
            lists.select((pl.col("query") + users).alias("user"), "item").unique("item"),
        ]
    ).unique()
    # Recommenders' novelty refuses a recommended (user, item) pair already in the history.
    train = train.join(lists, left_on=["user", "item"], right_on=["query", "item"], how="anti")
    lists.write_parquet(lists_path)
    train.write_parquet(train_path)
    return lists_path, train_path


# --------------------------------------------------------------------------- children


def _means(frame: pl.DataFrame, names: Sequence[str] | None = None) -> dict[str, float]:
    """The first row's values, keyed by the names asked for (the frame's columns are the canonical names)."""
    row = frame.row(0, named=True)
    if names is None:
        return {k: float(v) for k, v in row.items() if k != "query"}
    return {name: float(row[name] if name in row else row[str(prm.parse(name))]) for name in names}


def _per_query_means(values: dict[str, dict[str, float]], names: dict[str, str]) -> dict[str, float]:
    return {ours: statistics.fmean(v[theirs] for v in values.values()) for ours, theirs in names.items()}


def floor_plan(
    run: pl.LazyFrame, qrels: pl.LazyFrame, *, per_query: bool, tie_order: bool = False
) -> pl.DataFrame:
    """The floor: a bare Polars plan doing the work any evaluation of the five measures does.

    The full join, the ranking window, the rank among relevant items (AP's window),
    and one group_by of five float sums (a DCG@10, AP, reciprocal rank, hits@10 and
    hits@100 over R), then the mean. No check, no exactness, no conventions: its
    values are not the measures', only its work is theirs. The ranking is by score
    alone (a tie in the rows' order, which is no library's), or with `tie_order` by
    the score then the item's text, descending: trec_eval's order, which pytrec_eval
    sorts by and ours ranks by (as a Polars struct, the plain way to write it).
    """
    joined = run.join(qrels, on=["query", "item"], how="full", coalesce=True)
    rel = pl.col("relevance").fill_null(0) > 0
    rank = pl.col("__r")
    order = pl.struct("score", pl.col("item").cast(pl.String)) if tie_order else pl.col("score")
    ranked = joined.with_columns(
        pl.when(pl.col("score").is_not_null())
        .then(order)
        .rank("ordinal", descending=True)
        .over("query")
        .alias("__r")
    )
    hits = ranked.with_columns(pl.when(rel & rank.is_not_null()).then(rank).rank().over("query").alias("__h"))
    top = rel & (rank <= 10)
    per = hits.group_by("query").agg(
        pl.when(top).then(1.0 / (rank + 1).log(2)).sum().alias("ndcg"),
        (pl.col("__h") / rank).sum().truediv(rel.sum()).alias("map"),
        pl.when(rel).then(1.0 / rank).max().alias("mrr"),
        top.sum().truediv(10).alias("p10"),
        (rel & (rank <= 100)).sum().truediv(rel.sum()).alias("recall"),
    )
    return per.collect() if per_query else per.drop("query").mean().collect()


def trec_child(method: str, run_path: Path, qrels_path: Path) -> dict[str, Any]:
    """One TREC-files method: seconds, and the means (and the number of queries) to compare."""
    per_query = method.endswith("_pq")
    if method.startswith("join_"):  # the join alone, on the frames the readers give (text ids)
        run, qrels = prm.read_trec_run(run_path), prm.read_trec_qrels(qrels_path)
        if method == "join_ours":
            seconds, _ = _clock(lambda: prm.join_run_qrels(run, qrels))
        else:
            bare = run.lazy().join(qrels.lazy(), on=["query", "item"], how="full", coalesce=True)
            seconds, _ = _clock(bare.collect)
        return {"s": seconds, "values": {}}
    if method.startswith("floor"):

        def floor() -> pl.DataFrame:
            text = {"column_0": pl.String, "column_2": pl.String}  # TREC ids are text
            read = {"separator": " ", "has_header": False, "schema_overrides": text}
            run = pl.read_csv(run_path, **read).select(  # type: ignore[arg-type]
                query="column_0", item="column_2", score="column_4"
            )
            qrels = pl.read_csv(qrels_path, **read).select(  # type: ignore[arg-type]
                query="column_0", item="column_2", relevance="column_3"
            )
            return floor_plan(run.lazy(), qrels.lazy(), per_query=per_query, tie_order="ties" in method)

        seconds, _ = _clock(floor)
        return {"s": seconds, "values": {}}
    if method.startswith("ours"):

        def ours() -> pl.DataFrame:
            joined = prm.join_run_qrels(prm.read_trec_run(run_path), prm.read_trec_qrels(qrels_path))
            return prm.evaluate(joined, TREC_METRICS, per_query=per_query)

        seconds, out = _clock(ours)
        means = out.drop("query").mean() if per_query else out
        return {
            "s": seconds,
            "values": _means(means, TREC_METRICS),
            "queries": out.height if per_query else None,
        }
    if method.startswith("pytrec"):
        import pytrec_eval  # noqa: PLC0415

        def pytrec() -> dict[str, dict[str, float]]:
            with qrels_path.open() as f:
                qrels = pytrec_eval.parse_qrel(f)
            with run_path.open() as f:
                run = pytrec_eval.parse_run(f)
            values = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_PYTREC.values())).evaluate(run)
            if not per_query:
                return _per_query_means(values, TREC_PYTREC)  # type: ignore[return-value]
            return values

        seconds, out = _clock(pytrec)
        values = out if not per_query else _per_query_means(out, TREC_PYTREC)
        return {"s": seconds, "values": values, "queries": len(out) if per_query else None}
    if method.startswith("ranx"):
        from ranx import Qrels, Run, evaluate  # noqa: PLC0415

        warnings.filterwarnings("ignore")
        _warm_ranx()

        def ranx() -> Any:  # noqa: ANN401
            qrels, run = (
                Qrels.from_file(str(qrels_path), kind="trec"),
                Run.from_file(str(run_path), kind="trec"),
            )
            return evaluate(
                qrels, run, list(TREC_RANX.values()), return_mean=not per_query, make_comparable=True
            )

        seconds, out = _clock(ranx)
        if per_query:
            values = {ours: float(np.mean(out[theirs])) for ours, theirs in TREC_RANX.items()}
            return {"s": seconds, "values": values, "queries": len(out[TREC_RANX["map"]])}
        return {"s": seconds, "values": {ours: float(out[theirs]) for ours, theirs in TREC_RANX.items()}}
    msg = f"unknown method {method!r}"
    raise ValueError(msg)


def _warm_ranx() -> None:
    """Numba's JIT compiles ranx on first use: done on tiny data and files, untimed (once per process)."""
    from ranx import Qrels, Run, evaluate  # noqa: PLC0415

    names = list({*TREC_RANX.values(), *REC_RANX.values()})
    with tempfile.TemporaryDirectory() as folder:
        run_file, qrels_file = Path(folder) / "run", Path(folder) / "qrels"
        run_file.write_text("q Q0 d 1 1.0 r\nq Q0 e 2 0.5 r\n")
        qrels_file.write_text("q 0 d 1\n")
        qrels, run = Qrels.from_file(str(qrels_file), kind="trec"), Run.from_file(str(run_file), kind="trec")
    evaluate(qrels, run, names, make_comparable=True)
    evaluate(qrels, run, names, return_mean=False, make_comparable=True)
    frame = pl.DataFrame({"query": ["q", "q"], "item": ["d", "e"], "relevance": [1, 0], "score": [1.0, 0.5]})
    qrels = Qrels.from_df(_object_ids(frame), q_id_col="query", doc_id_col="item", score_col="relevance")
    evaluate(
        qrels,
        Run.from_df(_object_ids(frame), q_id_col="query", doc_id_col="item"),
        names,
        make_comparable=True,
    )


def _to_dicts(
    run: pl.DataFrame, truth: pl.DataFrame
) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """pytrec_eval's and ranx's dicts from the two frames (ids as text, as both need)."""
    text = [pl.col("query").cast(pl.String), pl.col("item").cast(pl.String)]
    qrels: dict[str, dict[str, int]] = {}
    for q, i, r in truth.select(*text, "relevance").iter_rows():
        qrels.setdefault(q, {})[i] = r
    scores: dict[str, dict[str, float]] = {}
    for q, i, s in run.select(*text, "score").iter_rows():
        scores.setdefault(q, {})[i] = s
    return qrels, scores


def _object_ids(frame: pl.DataFrame) -> Any:  # noqa: ANN401
    """A pandas frame whose id columns are of dtype object, as ranx's from_df asserts (pandas 3 infers `str`)."""
    out = frame.to_pandas()
    for name in ("query", "item"):
        out[name] = out[name].astype(object)
    return out


def rec_child(method: str, run_path: Path, truth_path: Path) -> dict[str, Any]:  # noqa: PLR0911, PLR0915
    """One recommender-frames method: seconds and the means to compare."""
    run, truth = pl.read_parquet(run_path), pl.read_parquet(truth_path)
    if method.startswith("ours"):
        peer = method.removeprefix("ours_")
        names = list(PEER_METRICS.get(peer, REC_PYTREC))  # check=False: the pytrec_eval row's metrics
        preset = PRESET.get(peer)
        check = peer != "nocheck"

        def ours() -> pl.DataFrame:
            joined = prm.join_run_qrels(run, truth)
            if peer == "torch":  # tie-free lists: torchmetrics' order inside a tie is not reproducible
                return prm.evaluate(joined, names, conventions=preset, check=check, ties="text")
            return prm.evaluate(joined, names, conventions=preset, check=check)

        seconds, out = _clock(ours)
        return {"s": seconds, "values": _means(out, names)}
    if method == "join_ours":
        seconds, _ = _clock(lambda: prm.join_run_qrels(run, truth))
        return {"s": seconds}
    if method in {"floor", "floor_ties"}:
        tie_order = method == "floor_ties"
        seconds, _ = _clock(
            lambda: floor_plan(run.lazy(), truth.lazy(), per_query=False, tie_order=tie_order)
        )
        return {"s": seconds}
    if method == "join_floor":  # the bare join and the least exact duplicate check: a distinct count

        def join_floor() -> pl.DataFrame:
            truth.select(pl.struct("query", "item").hash().n_unique())
            return run.lazy().join(truth.lazy(), on=["query", "item"], how="full", coalesce=True).collect()

        seconds, _ = _clock(join_floor)
        return {"s": seconds}
    if method == "join_bare":
        seconds, _ = _clock(
            lambda: run.lazy().join(truth.lazy(), on=["query", "item"], how="full", coalesce=True).collect()
        )
        return {"s": seconds}
    if method == "pytrec":
        import pytrec_eval  # noqa: PLC0415

        def pytrec() -> dict[str, float]:
            qrels, scores = _to_dicts(run, truth)
            values = pytrec_eval.RelevanceEvaluator(qrels, set(REC_PYTREC.values())).evaluate(scores)
            return _per_query_means(values, REC_PYTREC)

        seconds, out = _clock(pytrec)
        return {"s": seconds, "values": out}
    if method == "ranx":
        from ranx import Qrels, Run, evaluate  # noqa: PLC0415

        warnings.filterwarnings("ignore")
        _warm_ranx()

        def ranx() -> dict[str, float]:
            text = [pl.col("query").cast(pl.String), pl.col("item").cast(pl.String)]
            qrels = Qrels.from_df(
                _object_ids(truth.select(*text, "relevance")),
                q_id_col="query",
                doc_id_col="item",
                score_col="relevance",
            )
            scores = Run.from_df(_object_ids(run.select(*text, "score")), q_id_col="query", doc_id_col="item")
            out = evaluate(qrels, scores, list(REC_RANX.values()), make_comparable=True)
            return {ours: float(out[theirs]) for ours, theirs in REC_RANX.items()}

        seconds, out = _clock(ranx)
        return {"s": seconds, "values": out}
    if method == "recommenders":
        from recommenders.evaluation import python_evaluation as pe  # noqa: PLC0415

        def recommenders() -> dict[str, float]:
            true = truth.select(
                userID="query", itemID="item", rating=pl.col("relevance").cast(pl.Float64)
            ).to_pandas()
            pred = run.select(userID="query", itemID="item", prediction="score").to_pandas()
            return {ours: float(getattr(pe, fn)(true, pred, k=K)) for ours, fn in REC_RECOMMENDERS.items()}

        seconds, out = _clock(recommenders)
        return {"s": seconds, "values": out}
    if method == "torch":
        import torch  # noqa: PLC0415
        import torchmetrics.retrieval as tr  # noqa: PLC0415

        torch.set_num_threads(2)

        def torchmetrics() -> dict[str, float]:
            rows = run.join(truth, on=["query", "item"], how="left").sort("query")
            indexes = torch.from_numpy(rows["query"].rank("dense").cast(pl.Int64).to_numpy() - 1)
            preds = torch.from_numpy(rows["score"].to_numpy())
            target = torch.from_numpy(rows["relevance"].fill_null(0).to_numpy() > 0)
            out = {}
            for ours, cls in REC_TORCH.items():
                metric = getattr(tr, cls)(top_k=K)
                out[ours] = float(metric(preds, target, indexes=indexes))
            return out

        seconds, out = _clock(torchmetrics)
        return {"s": seconds, "values": out}
    msg = f"unknown method {method!r}"
    raise ValueError(msg)


def catalog_child(method: str, lists_path: Path, train_path: Path, users: int) -> dict[str, Any]:
    """One catalog method on the first `users` users: seconds and values."""
    lists = pl.read_parquet(lists_path).filter(pl.col("query") < users)
    train = pl.read_parquet(train_path)
    n_catalog = train["item"].n_unique()
    if method.startswith("ours"):
        peer = method.removeprefix("ours_")
        popularity = train.group_by("item").agg(pl.len().alias("n"))
        n_users = train.height if peer == "recommenders" else train["user"].n_unique()
        if peer == "recmetrics":  # recmetrics' novelty: item counts over the lists themselves
            popularity = lists.group_by("item").agg(pl.len().alias("n"))
            n_users = users
        metrics = [prm.coverage(K, catalog=n_catalog), prm.novelty(K, popularity=popularity, n_users=n_users)]
        if peer == "recmetrics":
            metrics.append(prm.personalization(K))

        seconds, out = _clock(lambda: prm.evaluate(lists, metrics))
        return {"s": seconds, "values": _means(out, [str(m) for m in metrics])}
    if method == "recommenders":
        from recommenders.evaluation import python_evaluation as pe  # noqa: PLC0415

        def recommenders() -> dict[str, float]:
            reco = lists.select(userID="query", itemID="item").to_pandas()
            past = train.select(userID="user", itemID="item").to_pandas()
            return {
                "coverage@10": pe.catalog_coverage(past, reco),
                "novelty@10": _recommenders_novelty(pe, past, reco),
            }

        seconds, out = _clock(recommenders)
        return {"s": seconds, "values": {k: float(v) for k, v in out.items()}}
    if method == "recmetrics":
        metrics_module = _recmetrics()

        def recmetrics() -> dict[str, float]:
            predicted = (
                lists.sort("query", "rank")
                .group_by("query", maintain_order=True)
                .agg("item")["item"]
                .to_list()
            )
            catalog = train["item"].unique().to_list()
            counts = lists.group_by("item").len()
            pop = dict(zip(counts["item"].to_list(), counts["len"].to_list(), strict=True))
            return {
                "coverage@10": metrics_module.prediction_coverage(predicted, catalog),
                "novelty@10": metrics_module.novelty(predicted, pop, users, K)[0],
                "personalization@10": metrics_module.personalization(predicted),
            }

        seconds, out = _clock(recmetrics)
        return {"s": seconds, "values": {k: float(v) for k, v in out.items()}}
    msg = f"unknown method {method!r}"
    raise ValueError(msg)


def _recommenders_novelty(pe: Any, past: Any, reco: Any) -> float:  # noqa: ANN401
    """Recommenders' ``novelty``, its own lines, with ``.iloc[0]`` where it indexes ``[0]`` (fails on pandas 3)."""
    import pandas as pd  # noqa: PLC0415

    item_novelty = pe.historical_item_novelty(past, reco, "userID", "itemID")
    counts = pd.DataFrame({"count": reco.groupby(["itemID"]).size()}).reset_index()
    merged = counts.merge(item_novelty, on="itemID")
    merged["product"] = merged["count"] * merged["item_novelty"]
    return float(merged.agg({"product": "sum"}).iloc[0] / reco.shape[0])


def _recmetrics() -> Any:  # noqa: ANN401
    """Recmetrics' metrics module alone (its package __init__ imports plotting libraries)."""
    import importlib.util  # noqa: PLC0415
    import os  # noqa: PLC0415

    spec = importlib.util.find_spec("recmetrics")
    assert spec is not None
    assert spec.submodule_search_locations
    path = os.path.join(next(iter(spec.submodule_search_locations)), "metrics.py")  # noqa: PTH118
    loaded = importlib.util.spec_from_file_location("recmetrics_metrics", path)
    assert loaded is not None
    assert loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------- the parent


def run_child(*args: str) -> dict[str, Any]:
    """One method in a fresh process."""
    command = [sys.executable, __file__, "--child", *args]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)  # noqa: S603
    if proc.returncode != 0:
        msg = f"{args} failed with status {proc.returncode}:\n{proc.stderr[-3000:]}"
        raise RuntimeError(msg)
    report: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return report


def alternate(jobs: dict[str, Sequence[str]], repeat: int) -> dict[str, list[dict[str, Any]]]:
    """Every job `repeat` times, in alternation, each in a fresh process."""
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in jobs}
    for rep in range(repeat):
        for name, args in jobs.items():
            out[name].append(run_child(*args))
            print(f"  rep {rep + 1}: {name} {out[name][-1]['s']:.2f} s", flush=True)
    return out


def agree(ours: dict[str, float], theirs: dict[str, float], tolerance: float) -> tuple[bool, float]:
    """Whether the peer's values equal ours on every metric it computes, and the largest difference."""
    diffs = [abs(ours[k] - v) for k, v in theirs.items()]
    worst = max(diffs) if diffs else math.inf
    return worst <= tolerance, worst


def _stat(values: list[float]) -> str:
    return f"{min(values):.2f} ({statistics.median(values):.2f})"


def comparison(
    label: str,
    runs: dict[str, list[dict[str, Any]]],
    ours: str,
    peers: dict[str, str],
    tolerance: float = TOLERANCE,
) -> tuple[list[str], bool]:
    """Rows `peer / ours` for one shape, with the values' agreement; False when a peer disagrees."""
    base = min(r["s"] for r in runs[ours])
    lines = [f"| {label}: ours | {_stat([r['s'] for r in runs[ours]])} | 1.00 | | |"]
    fine = True
    for name, peer_label in peers.items():
        tol = TORCH_TOLERANCE if name.endswith("torch") else tolerance
        same, worst = agree(runs[ours][0]["values"], runs[name][0]["values"], tol)
        fine &= same
        ratio = min(r["s"] for r in runs[name]) / base
        lines.append(
            f"| {label}: {peer_label} | {_stat([r['s'] for r in runs[name]])} | {ratio:.2f} "
            f"| {'>= 5' if True else ''} {'met' if ratio >= 5 else 'NOT met'} "
            f"| {'equal' if same else 'DIFFER'} ({worst:.1g}) |"
        )
    return lines, fine


def floor_rows(
    label: str, runs: dict[str, list[dict[str, Any]]], sfx: str, peer: str, ours: str
) -> list[str]:
    """Two bare Polars plans doing the same work (methods floor and floor_ties, then `sfx`).

    The floor ranks by the score alone (a tie in the rows' order: no library's
    order); the second is the same plan in trec_eval's order, written the
    plain way (a struct of the score and the item's text), which pytrec_eval
    sorts by and ours ranks by. Each row: the peer's time over the plan's, and ours.
    """
    out = []
    for name, what in (
        (f"floor{sfx}", "floor, a bare Polars plan (read, join, rank windows by score alone, one group_by)"),
        (f"floor_ties{sfx}", "the same bare plan in trec_eval's order (a struct of score and item text)"),
    ):
        base = min(r["s"] for r in runs[name])
        ratio = min(r["s"] for r in runs[peer]) / base
        mine = min(r["s"] for r in runs[ours]) / base
        out.append(
            f"| {label}: {what} | {_stat([r['s'] for r in runs[name]])} "
            f"| pytrec_eval / plan {ratio:.2f}; ours / plan {mine:.2f} | | not the measures |"
        )
    return out


HEAD = ["| row | min s (median) | peer / ours | target | values |", "| --- | ---: | ---: | --- | --- |"]


def trec_section(root: Path, lines: int, repeat: int) -> tuple[list[str], bool]:
    """Section 1: TREC files to the mean and the per-query table."""
    out = [f"## 1. From TREC files on disk: {lines:,} run lines (100 per query)", "", *HEAD]
    fine = True
    joins = ["", "| step | min s (median) | ratio | target |", "| --- | ---: | ---: | --- |"]
    for numeric in (True, False):
        run_path, qrels_path = trec_files(root, lines, numeric=numeric)
        shape = "numeric ids" if numeric else "alphanumeric ids"
        print(f"TREC files, {shape}, the join", flush=True)
        runs = alternate(
            {m: ("trec", m, str(run_path), str(qrels_path)) for m in ("join_ours", "join_bare")}, repeat
        )
        ratio = min(r["s"] for r in runs["join_ours"]) / min(r["s"] for r in runs["join_bare"])
        joins += [
            (
                f"| {shape} (read as text): join_run_qrels | {_stat([r['s'] for r in runs['join_ours']])} "
                f"| {ratio:.2f} x bare join | <= 1.15 {'met' if ratio <= LIMIT else 'NOT met'} |"
            ),
            f"| {shape}: bare full join (Polars) | {_stat([r['s'] for r in runs['join_bare']])} | 1.00 | |",
        ]
        for table in ("mean", "per-query"):
            sfx = "_pq" if table == "per-query" else ""
            jobs = {
                f"{m}{sfx}": ("trec", f"{m}{sfx}", str(run_path), str(qrels_path))
                for m in ("ours", "pytrec", "ranx", "floor", "floor_ties")
            }
            print(f"TREC files, {shape}, {table} table", flush=True)
            runs = alternate(jobs, repeat)
            rows, same = comparison(
                f"{shape}, {table} table",
                runs,
                f"ours{sfx}",
                {
                    f"pytrec{sfx}": "pytrec_eval (parse_run/parse_qrel, evaluate)",
                    f"ranx{sfx}": "ranx (from_file, evaluate)",
                },
            )
            out += [*rows, *floor_rows(f"{shape}, {table} table", runs, sfx, f"pytrec{sfx}", f"ours{sfx}")]
            fine &= same
    out += [
        "",
        (
            "ours: read_trec_run + read_trec_qrels + join_run_qrels + evaluate(ndcg@10, map, mrr, P_10,"
            " recall_100) (per_query=True for the per-query table); the peers compute the same five measures."
        ),
        *joins,
    ]
    return out, fine


def rec_section(root: Path, users: int, repeat: int) -> tuple[list[str], bool]:
    """Section 2: two recommender frames, each peer, the join and the check."""
    out = [f"## 2. From two Polars frames (a recommender's): {users:,} users", "", *HEAD]
    fine = True
    extra = ["", "| step | min s (median) | ratio | target |", "| --- | ---: | ---: | --- |"]
    for strings in (False, True):
        run_path, truth_path = rec_frames(root, users, strings=strings)
        shape = "String ids" if strings else "Int64 ids"
        n_run, n_truth = (
            pl.scan_parquet(run_path).select(pl.len()).collect().item(),
            pl.scan_parquet(truth_path).select(pl.len()).collect().item(),
        )
        peers = {"pytrec": "pytrec_eval (dicts from the frames)", "ranx": "ranx (from_df)",
                 "recommenders": "Recommenders python_evaluation (4 metrics)", "torch": "torchmetrics retrieval (6 metrics)"}  # fmt: skip
        jobs: dict[str, Sequence[str]] = {}
        for peer in peers:
            jobs[f"ours_{peer}"] = ("rec", f"ours_{peer}", str(run_path), str(truth_path))
            jobs[peer] = ("rec", peer, str(run_path), str(truth_path))
        jobs["ours_nocheck"] = ("rec", "ours_nocheck", str(run_path), str(truth_path))
        jobs["join_ours"] = ("rec", "join_ours", str(run_path), str(truth_path))
        jobs["join_bare"] = ("rec", "join_bare", str(run_path), str(truth_path))
        jobs["floor"] = ("rec", "floor", str(run_path), str(truth_path))
        jobs["floor_ties"] = ("rec", "floor_ties", str(run_path), str(truth_path))
        jobs["join_floor"] = ("rec", "join_floor", str(run_path), str(truth_path))
        print(f"recommender frames, {shape}", flush=True)
        runs = alternate(jobs, repeat)
        for peer, label in peers.items():
            rows, same = comparison(
                f"{shape} ({n_run:,} + {n_truth:,} rows)", runs, f"ours_{peer}", {peer: label}
            )
            out += rows
            fine &= same
        out += floor_rows(shape, runs, "", "pytrec", "ours_pytrec")
        mins = {name: min(r["s"] for r in rs) for name, rs in runs.items()}
        join_ratio = mins["join_ours"] / mins["join_bare"]
        check_ratio = mins["ours_pytrec"] / mins["ours_nocheck"]
        extra += [
            (
                f"| {shape}: join_run_qrels | {_stat([r['s'] for r in runs['join_ours']])} "
                f"| {join_ratio:.2f} x bare join | <= 1.15 {'met' if join_ratio <= LIMIT else 'NOT met'} |"
            ),
            f"| {shape}: bare full join (Polars) | {_stat([r['s'] for r in runs['join_bare']])} | 1.00 | |",
            (
                f"| {shape}: bare join + a distinct count of the qrels pairs (the least exact check) "
                f"| {_stat([r['s'] for r in runs['join_floor']])} "
                f"| {mins['join_floor'] / mins['join_bare']:.2f} x bare join | |"
            ),
            f"| {shape}: join + evaluate, check=False | {_stat([r['s'] for r in runs['ours_nocheck']])} | 1.00 | |",
            (
                f"| {shape}: join + evaluate, default check | {_stat([r['s'] for r in runs['ours_pytrec']])} "
                f"| {check_ratio:.2f} x check=False | <= 1.15 {'met' if check_ratio <= LIMIT else 'NOT met'} |"
            ),
        ]
    out += [
        "",
        (
            "ours: join_run_qrels + evaluate of what the peer computes, through its preset (pytrec_eval:"
            " trec_eval's defaults, with mrr for its recip_rank; ranx: conventions='ranx'; Recommenders:"
            " 'recommenders'; torchmetrics: 'torchmetrics'). RePlay is not run: it pins Polars < 2."
        ),
        *extra,
    ]
    return out, fine


def catalog_section(root: Path, users: int, small: int, repeat: int) -> tuple[list[str], bool]:
    """Section 3: coverage, novelty and personalization against Recommenders and recmetrics."""
    lists_path, train_path = catalog_frames(root, users)
    out = [f"## 3. Catalog metrics, lists of exactly {K} items", "", *HEAD]
    print("catalog metrics", flush=True)
    runs = alternate(
        {
            "ours_recommenders": (
                "catalog",
                "ours_recommenders",
                str(lists_path),
                str(train_path),
                str(users),
            ),
            "recommenders": ("catalog", "recommenders", str(lists_path), str(train_path), str(users)),
            "ours_recmetrics": ("catalog", "ours_recmetrics", str(lists_path), str(train_path), str(small)),
            "recmetrics": ("catalog", "recmetrics", str(lists_path), str(train_path), str(small)),
        },
        repeat,
    )
    rows, fine = comparison(
        f"{users:,} users, coverage + novelty", runs, "ours_recommenders",
        {"recommenders": "Recommenders catalog_coverage + novelty"},
    )  # fmt: skip
    out += rows
    # recmetrics rounds its coverage to a percent with two decimals: compared at that rounding.
    ours_small = dict(runs["ours_recmetrics"][0]["values"])
    ours_small["coverage@10"] = round(ours_small["coverage@10"] * 100, 2)
    runs["ours_recmetrics"][0]["values"] = ours_small
    rows, same = comparison(
        f"{small:,} users, coverage + novelty + personalization", runs, "ours_recmetrics",
        {"recmetrics": "recmetrics prediction_coverage + novelty + personalization"},
    )  # fmt: skip
    out += [
        *rows,
        "",
        (
            f"recmetrics on {small:,} users only: its personalization builds a dense users x users cosine"
            " matrix; its coverage is a percent rounded to two decimals (compared so); its novelty counts"
            " popularity over the lists themselves (ours is given the same counts). Recommenders' novelty"
            " indexes a Series with [0], which fails on pandas 3: its own lines run with .iloc[0]."
        ),
    ]
    return out, fine and same


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--recmetrics-users", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--only", choices=["trec", "rec", "catalog"], action="append")
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "prm_end_to_end")
    parser.add_argument("--out", type=Path, default=RESULTS / "end_to_end.md")
    parser.add_argument("--child", nargs="+")
    return parser.parse_args(argv)


def _load_line(before: list[str], after: list[str], others: str) -> str:
    """The load the figures were taken under, and whether that was a quiet machine."""
    quiet = others != "n/a" and int(others.rstrip("%")) < 10 and max(float(x) for x in (*before, *after)) < 2
    verdict = "a quiet machine" if quiet else "a shared, loaded machine, so the figures are noisy"
    return (
        f"- load average before {' '.join(before)}, after {' '.join(after)}; other processes used"
        f" {others} of the CPUs meanwhile: {verdict}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run one child method (``--child``) or every section, writing the table."""
    args = _parse(argv)
    if args.child:
        kind, method, *rest = args.child
        if kind == "trec":
            report = trec_child(method, Path(rest[0]), Path(rest[1]))
        elif kind == "rec":
            report = rec_child(method, Path(rest[0]), Path(rest[1]))
        else:
            report = catalog_child(method, Path(rest[0]), Path(rest[1]), int(rest[2]))
        print(json.dumps(report))
        return 0
    args.data.mkdir(parents=True, exist_ok=True)
    gauge = OtherLoad()
    with Path("/proc/loadavg").open() as f:
        load_before = f.read().split()[:3]
    sections = args.only or ["trec", "rec", "catalog"]
    body: list[str] = []
    fine = True
    if "trec" in sections:
        lines, same = trec_section(args.data, args.lines, args.repeat)
        body += [*lines, ""]
        fine &= same
    if "rec" in sections:
        lines, same = rec_section(args.data, args.users, args.repeat)
        body += [*lines, ""]
        fine &= same
    if "catalog" in sections:
        lines, same = catalog_section(args.data, args.users, args.recmetrics_users, args.repeat)
        body += [*lines, ""]
        fine &= same
    with Path("/proc/loadavg").open() as f:
        load_after = f.read().split()[:3]
    head = [
        "# The whole path: from files and frames to the numbers (benchmarks/bench_end_to_end.py)",
        "",
        *machine(),
        library(),
        (
            f"- {args.repeat} alternating repetition(s), each method in a fresh process; min (median) seconds;"
            " ratios from the minima of this one run"
        ),
        _load_line(load_before, load_after, gauge.stop()),
        f"- every peer's values equal ours (computing what it computes): {'yes' if fine else 'NO'}",
        "",
    ]
    args.out.write_text("\n".join([*head, *body]))
    print(f"wrote {args.out}")
    return 0 if fine else 1


if __name__ == "__main__":
    raise SystemExit(main())
