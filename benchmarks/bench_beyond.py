"""Beyond-accuracy metrics at scale, in one plan beside ndcg@10, and against Microsoft Recommenders.

Two measurements, each run in a fresh subprocess (its own peak RSS):

1. **Scale** (ours alone): ``--users`` users x 10 items with a history of 10
   items per user, one ``prm.evaluate`` call holding ndcg@10, arp, aplt,
   tail_percentage, pop_rsp, surprisal, category_diversity, miscalibration
   and serendipity (feature cosine), on the in-memory and the
   streaming engines; then exposure_share, exposure_disparity, awrf and pop_reo.
2. **Against Recommenders** (``--compare-users``, smaller: its co-occurrence
   serendipity joins every user's list with its history in pandas), under
   pandas 2 (Recommenders 1.2.1 fails under pandas 3: the 'oracles' extra):
   for each of ``--functions``, the same data through Recommenders and
   through ours with the parameters that reproduce it (tests/reference/
   test_beyond_recommenders.py): ``user_serendipity`` (co-occurrence) with
   and without relevance against both serendipity variants in one plan;
   ``novelty``, ``distributional_coverage``, ``catalog_coverage`` and
   ``diversity`` (feature cosine, over a 1,000-item catalog: Recommenders
   computes every pair of items row by row) against novelty, entropy,
   coverage and 1 - intra_list_similarity. Ours and theirs alternate
   ``--repeat`` times; the ratio of the fastest runs.

Run it as a script::

    python benchmarks/bench_beyond.py                       # writes benchmarks/results/beyond.md
    python benchmarks/bench_beyond.py --users 100000 --compare-users 5000
    python benchmarks/bench_beyond.py --no-scale --compare-users 20000 100000 --repeat 3   # keeps the scale section
    python benchmarks/bench_beyond.py --exposure --users 100000 --repeat 3   # results/beyond_exposure.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

N_ITEMS = 50_000
LIST_LENGTH = 10
HISTORY_LENGTH = 10
N_FEATURES = 8
SEED = 20181002
RESULTS = Path(__file__).parent / "results" / "beyond.md"


def make_data(n_users: int, n_items: int = N_ITEMS) -> dict[str, object]:
    """Lists (query, item, score, relevance), history (user, item), categories and features, seeded."""
    import numpy as np  # noqa: PLC0415
    import polars as pl  # noqa: PLC0415

    rng = np.random.default_rng(SEED)

    def skewed_lists(length: int) -> np.ndarray:
        # A popularity-skewed first item, then a stride: `length` distinct items per user.
        first = (rng.pareto(1.2, n_users) * 100).astype(np.int64) % n_items
        stride = rng.integers(1, n_items // (2 * length), n_users)
        return (first[:, None] + stride[:, None] * np.arange(length)[None, :]) % n_items

    users = np.arange(n_users, dtype=np.int64)
    listed = skewed_lists(LIST_LENGTH)
    seen = (skewed_lists(HISTORY_LENGTH) + n_items // 2) % n_items  # mostly apart from the lists
    lists = pl.DataFrame({
        "query": np.repeat(users, LIST_LENGTH), "item": listed.ravel(),
        "score": np.tile(np.arange(LIST_LENGTH, 0, -1, dtype=np.float64), n_users),
        "relevance": (rng.random(n_users * LIST_LENGTH) < 0.1).astype(np.int64),
    })  # fmt: skip
    history = pl.DataFrame({"user": np.repeat(users, HISTORY_LENGTH), "item": seen.ravel()})
    history = history.join(
        lists.select(pl.col("query").alias("user"), "item"), on=["user", "item"], how="anti"
    )
    items = np.arange(n_items, dtype=np.int64)
    second = items[items % 3 == 0]
    categories = pl.DataFrame({
        "item": np.concatenate([items, second]),
        "genre": np.concatenate([items % 17, (second * 7) % 17]),
    })  # fmt: skip
    vectors = rng.random((n_items, N_FEATURES)) + 0.01
    features = pl.DataFrame({"item": items, **{f"f{j}": vectors[:, j] for j in range(N_FEATURES)}})
    return {"lists": lists, "history": history, "categories": categories, "features": features}


def ours_at_scale(n_users: int, engine: str) -> dict[str, object]:
    """Every new metric and ndcg@10 in one plan on `engine`: seconds, values, sizes."""
    import polars as pl  # noqa: PLC0415

    import polars_rankmetrics as prm  # noqa: PLC0415

    data = make_data(n_users)
    history, categories = data["history"], data["categories"]
    metrics = [
        "ndcg@10",
        prm.arp(10, interactions=history), prm.aplt(10, interactions=history),
        prm.tail_percentage(10, interactions=history), prm.pop_rsp(10, interactions=history),
        prm.surprisal(10, interactions=history),
        prm.category_diversity(10, categories=categories),
        prm.miscalibration(10, history=history, categories=categories),
        prm.serendipity(10, history=history, features=data["features"]),
        *_fairness(data),
    ]  # fmt: skip
    lists: pl.DataFrame = data["lists"]  # type: ignore[assignment]
    started = time.perf_counter()
    out = prm.evaluate(lists.lazy(), metrics).collect(engine=engine)  # type: ignore[call-overload]
    seconds = time.perf_counter() - started
    sizes = {"rows": lists.height, "history": history.height}  # type: ignore[attr-defined]
    return {"seconds": seconds, "values": out.row(0, named=True), **sizes}


def _fairness(data: dict[str, object]) -> list[object]:
    """The exposure-fairness metrics and pop_reo, the genres as item groups (a third of the items in two)."""
    import polars_rankmetrics as prm  # noqa: PLC0415

    groups, history = data["categories"], data["history"]
    return [
        prm.exposure_share(10, groups=groups, group=0), prm.exposure_disparity(10, groups=groups),
        prm.awrf(10, groups=groups, discount="rbp", p=0.8), prm.pop_reo(10, interactions=history),
    ]  # fmt: skip


def exposure_cost(n_users: int, engine: str) -> dict[str, object]:
    """ndcg@10 alone (engine "base") or beside the fairness metrics: seconds on the streaming engine."""
    import polars as pl  # noqa: PLC0415

    import polars_rankmetrics as prm  # noqa: PLC0415

    data = make_data(n_users)
    metrics = ["ndcg@10"] + ([] if engine == "base" else _fairness(data))
    lists: pl.DataFrame = data["lists"]  # type: ignore[assignment]
    started = time.perf_counter()
    out = prm.evaluate(lists.lazy(), metrics).collect(engine="streaming")
    return {"seconds": time.perf_counter() - started, "values": out.row(0, named=True)}


COMPARED = ("serendipity", "novelty", "distributional_coverage", "catalog_coverage", "diversity")
DIVERSITY_ITEMS = 1_000  # Recommenders' feature similarity is a row-wise apply over every pair of items


def _compared_data(n_users: int, function: str) -> dict[str, object]:
    """The data of one comparison, as both sides read it.

    serendipity: the lists and histories of `make_data`. novelty and the two coverages: the
    histories plus the lists again as other users' histories (user ids shifted by `n_users`), so
    that every recommended item has been chosen (Recommenders' novelty adds 0 for an item nobody
    chose, ours refuses it). diversity: the same construction over a 1,000-item catalog.
    """
    import polars as pl  # noqa: PLC0415

    data = make_data(n_users, DIVERSITY_ITEMS if function == "diversity" else N_ITEMS)
    if function != "serendipity":
        lists: pl.DataFrame = data["lists"]  # type: ignore[assignment]
        others = lists.select((pl.col("query") + n_users).alias("user"), "item")
        data["history"] = pl.concat([data["history"], others])  # type: ignore[list-item]
    return data


def ours_compared(n_users: int, function: str) -> dict[str, object]:
    """Ours on the data of `function`, with the parameters that reproduce Recommenders: seconds, values."""
    import polars as pl  # noqa: PLC0415

    import polars_rankmetrics as prm  # noqa: PLC0415

    data = _compared_data(n_users, function)
    history: pl.DataFrame = data["history"]  # type: ignore[assignment]
    started = time.perf_counter()
    if function == "serendipity":
        metrics = [
            prm.serendipity(10, history=history),
            prm.serendipity(10, history=history, relevance=False),
        ]
    elif function == "novelty":  # Recommenders' item choice model: rows of the item / rows
        popularity = history.group_by("item").len()
        metrics = [prm.novelty(10, popularity=popularity, n_users=history.height)]
    elif function == "distributional_coverage":
        metrics = [prm.entropy(10)]
    elif function == "catalog_coverage":
        metrics = [prm.coverage(10, catalog=history["item"].n_unique())]
    else:
        features = data["features"]
        metrics = [prm.intra_list_similarity(10, features=features)]  # type: ignore[arg-type]
    out = prm.evaluate(data["lists"], metrics).row(0, named=True)  # type: ignore[arg-type]
    seconds = time.perf_counter() - started
    values = {"diversity": 1.0 - out.popitem()[1]} if function == "diversity" else out
    return {"seconds": seconds, "values": values}


def recommenders_compared(n_users: int, function: str) -> dict[str, object]:
    """Recommenders' `function` (user_serendipity with and without relevance): seconds and values."""
    import warnings  # noqa: PLC0415

    import polars as pl  # noqa: PLC0415
    from recommenders.evaluation import python_evaluation as ev  # noqa: PLC0415

    data = _compared_data(n_users, function)
    lists: pl.DataFrame = data["lists"]  # type: ignore[assignment]
    reco = lists.select(userID="query", itemID="item", relevance="relevance").to_pandas()
    history: pl.DataFrame = data["history"]  # type: ignore[assignment]
    train = history.select(userID="user", itemID="item").to_pandas()
    kwargs: dict[str, object] = {}
    if function == "diversity":
        features: pl.DataFrame = data["features"]  # type: ignore[assignment]
        vectors = features.select(pl.concat_list(pl.exclude("item"))).to_series().to_numpy()
        kwargs = {"item_sim_measure": "item_feature_vector",
                  "item_feature_df": features.select(itemID="item").to_pandas().assign(features=list(vectors))}  # fmt: skip
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if function == "serendipity":
            per_user = ev.user_serendipity(train, reco, col_relevance="relevance")
            unweighted = ev.user_serendipity(train, reco.drop(columns="relevance"))
            values = {"serendipity": float(per_user["user_serendipity"].mean()),
                      "serendipity_unweighted": float(unweighted["user_serendipity"].mean())}  # fmt: skip
        else:
            values = {function: float(getattr(ev, function)(train, reco.drop(columns="relevance"), **kwargs))}
    return {"seconds": time.perf_counter() - started, "values": values}


CHILDREN = {
    "scale": ours_at_scale,
    "ours": ours_compared,
    "recommenders": recommenders_compared,
    "exposure": exposure_cost,
}
EXPOSURE_RESULTS = Path(__file__).parent / "results" / "beyond_exposure.md"


def exposure_only(n_users: int, repeat: int) -> None:
    """The fairness metrics' cost beside ndcg@10, alternated; writes results/beyond_exposure.md."""
    lines = [
        "# Exposure fairness and pop_reo beside ndcg@10 (issue 27)", "",
        (f"{n_users:,} users x {LIST_LENGTH} items (the data of bench_beyond.py), streaming engine, each run "
         f"in a fresh process, the two alternated; {os.cpu_count()} cores shared with other jobs (noisy)."), "",
        ("Beside: exposure_share, exposure_disparity, awrf (rbp, p=0.8) over the 17 genres as item groups, "
         "and pop_reo."), "",
        "| run | ndcg@10 alone (s) | ndcg@10 + 4 fairness metrics (s) |", "|---|---|---|",
    ]  # fmt: skip
    alone, beside = [], []
    for run in range(repeat):
        a, b = child("exposure", n_users, "base"), child("exposure", n_users, "fairness")
        alone.append(a["seconds"])
        beside.append(b["seconds"])
        lines.append(f"| {run + 1} | {a['seconds']:.2f} | {b['seconds']:.2f} |")
        print(lines[-1], file=sys.stderr)
    lines += ["", (f"Fastest: {min(alone):.2f} s alone, {min(beside):.2f} s beside: "
                   f"**{min(beside) / min(alone):.1f}x** the time of ndcg@10 alone."), "",
              f"Values: {b['values']}.", ""]  # fmt: skip
    EXPOSURE_RESULTS.write_text("\n".join(lines))
    print("\n".join(lines))


def compared(n_users: int, functions: list[str], repeat: int) -> list[str]:
    """Ours and Recommenders on each function's data, each run in a fresh process, alternated."""
    lines = [
        f"## Against Microsoft Recommenders 1.2.1: {n_users:,} users", "",
        (f"Each function's best of {repeat} runs, ours and theirs alternated (each in a fresh process); "
         "load average (1 min) at each run in the last column."), "",
        "| function | run | ours (s) | Recommenders (s) | load |", "|---|---|---|---|---|",
    ]  # fmt: skip
    best: dict[str, tuple[float, float]] = {}
    values: dict[str, tuple[object, object]] = {}
    for run in range(repeat):
        for function in functions:
            a = child("ours", n_users, "", function)
            b = child("recommenders", n_users, "", function)
            lines.append(f"| {function} | {run + 1} | {a['seconds']:.3f} | {b['seconds']:.3f} | "
                         f"{os.getloadavg()[0]:.1f} |")  # fmt: skip
            print(lines[-1], file=sys.stderr)
            old = best.get(function, (float("inf"), float("inf")))
            best[function] = (min(old[0], a["seconds"]), min(old[1], b["seconds"]))  # type: ignore[type-var]
            values[function] = (a["values"], b["values"])
    lines += ["", "| function | ours, fastest (s) | Recommenders, fastest (s) | ratio |", "|---|---|---|---|"]
    lines += [f"| {f} | {o:.3f} | {t:.3f} | **{t / o:.1f}x** |" for f, (o, t) in best.items()]
    lines += ["", "Values (ours; Recommenders):", ""]
    lines += [f"- {f}: {o}; {t}" for f, (o, t) in values.items()]
    return [*lines, ""]


def child(kind: str, n_users: int, engine: str, function: str = "") -> dict[str, object]:
    """Run one measurement in a fresh interpreter; its JSON result and peak RSS."""
    command = [sys.executable, __file__, "--child", kind, "--users", str(n_users), "--engine", engine]
    command += ["--function", function] if function else []
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=os.environ.copy())  # noqa: S603
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    """Run the measurements and write benchmarks/results/beyond.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--compare-users", type=int, nargs="+", default=[20_000])
    parser.add_argument("--functions", nargs="+", choices=COMPARED, default=list(COMPARED))
    parser.add_argument("--function", choices=COMPARED, help="(a child's) Recommenders function compared")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engine", default="streaming")
    parser.add_argument("--child", choices=sorted(CHILDREN))
    parser.add_argument("--no-scale", action="store_true", help="only the comparison with Recommenders")
    parser.add_argument("--exposure", action="store_true", help="only the fairness metrics' cost")
    args = parser.parse_args()
    if args.exposure and not args.child:
        exposure_only(args.users, args.repeat)
        return
    if args.child:
        kwargs = (
            {"engine": args.engine} if args.child in {"scale", "exposure"} else {"function": args.function}
        )
        result = CHILDREN[args.child](args.users, **kwargs)
        result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(result, default=str))
        return
    lines = [
        "# Beyond-accuracy metrics (issue 27)", "",
        (f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, shared with other "
         "jobs while measured (timings noisy; the ratio is of runs alternated within one session)."), "",
    ]  # fmt: skip
    scale = [
        f"## Scale: {args.users:,} users x {LIST_LENGTH} items, a {HISTORY_LENGTH}-item history per user", "",
        ("One `prm.evaluate` call: ndcg@10, arp, aplt, tail_percentage, pop_rsp, surprisal, "
         "category_diversity, miscalibration, serendipity (feature cosine), exposure_share, "
         "exposure_disparity, awrf, pop_reo."), "",
        "| engine | rows | history rows | seconds | peak RSS (MiB) |", "|---|---|---|---|---|",
    ]  # fmt: skip
    if not args.no_scale:
        lines += scale
        for engine in ("in-memory", "streaming"):
            got = child("scale", args.users, engine)
            lines.append(
                f"| {engine} | {got['rows']:,} | {got['history']:,} | {got['seconds']:.2f} | {got['peak_mib']:.0f} |"
            )
            print(lines[-1], file=sys.stderr)
        lines.append("")
    elif RESULTS.exists():  # keep the scale section of the last full run
        kept = RESULTS.read_text().split("\n## Against Microsoft Recommenders")[0].split("\n## Scale")
        lines += ["## Scale" + kept[1].rstrip("\n"), ""] if len(kept) > 1 else []
    for n_users in args.compare_users:
        lines += compared(n_users, args.functions, args.repeat)
    RESULTS.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
