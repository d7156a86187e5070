"""Hash every per-query value of every registered metric family on fixed generated data.

A refactor that must not change a value runs this before its first commit and
after its last: the two hashes are equal when every value is bit-identical.

    PYTHONPATH=$PWD python tools/hash_values.py

The data: the pinned frames of ``tests/strategies.py`` and frames drawn from
its ``eval_frames`` strategy under a fixed hypothesis seed (the same frames on
every run of the same hypothesis version, whatever this file's text: a
derandomised test would seed from its own source). The data hash printed
first says whether two runs read the same frames. Every family is evaluated with its
default parameters, without a cutoff where allowed and at cutoffs 1, 3 and 10;
per query where the family has per-query values, per ``by`` group otherwise.
Families with a required argument and no default (a side input such as a
catalog or a reference run, a number such as a catalog size) are given one
made from each frame (``_side_metrics``: its items as the catalog, its
listed (query, item) pairs as interactions, item-id prefixes as categories
and groups, its first run as the reference) at k=3; one none of whose
frames gives a value is listed as skipped. The printed hash is over the
per-family hashes as a sorted multiset, so a renamed family or a reordered
registry keeps it; ``--names`` prints each.
"""

from __future__ import annotations

import hashlib
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import polars as pl
from hypothesis import Phase, given, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import strategies

import polars_rankmetrics as prm
from polars_rankmetrics._registry import SPECS

CUTOFFS = (1, 3, 10)
EXAMPLES = 40
SEED = 20261129


def _frames() -> list[pl.DataFrame]:
    frames: list[pl.DataFrame] = [
        strategies.ALL_TIED_INT,
        strategies.ALL_TIED_STR,
        strategies.POPULATION,
        strategies.NEGATIVE_ONLY,
        strategies.TWO_RUNS,
    ]

    for models in (None, 2):

        @settings(max_examples=EXAMPLES, database=None, phases=[Phase.generate], deadline=None)
        @seed(SEED)
        @given(strategies.eval_frames(models=models))
        def draw(frame: pl.DataFrame) -> None:
            frames.append(frame)

        draw()
    return frames


def _names(spec: prm.Metric | object) -> list[str]:
    out: list[str] = []
    assert hasattr(spec, "k")
    if spec.k != "required":  # type: ignore[attr-defined]
        out.append(spec.name)  # type: ignore[attr-defined]
    if spec.k != "none":  # type: ignore[attr-defined]
        out.extend(f"{spec.name}@{k}" for k in CUTOFFS)  # type: ignore[attr-defined]
    return out


def _needs_argument(spec: object) -> bool:
    params = spec.params  # type: ignore[attr-defined]
    return any(p.default is None and p.kind in ("float", "floats", "side") for p in params)


Builder = Callable[[], prm.Metric]


def _side_metrics(frame: pl.DataFrame) -> list[Builder]:
    """The families that need data besides the frame, with side inputs made from `frame` itself, k=3."""
    ids = pl.col("item")
    items = frame.select(ids).unique()
    listed = frame.filter(pl.col("score").is_not_null()).select("query", "item").unique()
    features = items.with_columns(x=ids.cast(pl.String).str.len_chars().cast(pl.Float64), y=pl.lit(1.0))
    labels = items.with_columns(category=ids.cast(pl.String).str.slice(0, 2))
    groups = labels.rename({"category": "group"})
    first = frame
    if "model" in frame.columns:
        first = frame.filter(pl.col("model") == pl.col("model").min()).drop("model")
    reference = first.select("query", "item", pl.col("score").fill_null(-1.0))
    label = groups.get_column("group").min()
    rbp = {"discount": "rbp", "p": 0.8}
    return [
        lambda: prm.mpr(missing_items="random", n_items=20),
        lambda: prm.coverage(3, catalog=items),
        lambda: prm.gini(3, catalog=items),
        lambda: prm.intra_list_similarity(3, features=features),
        lambda: prm.novelty(3, interactions=listed),
        lambda: prm.arp(3, interactions=listed),
        lambda: prm.aplt(3, interactions=listed),
        lambda: prm.aclt(3, interactions=listed),
        lambda: prm.tail_percentage(3, interactions=listed),
        lambda: prm.pop_rsp(3, interactions=listed),
        lambda: prm.pop_reo(3, interactions=listed),
        lambda: prm.surprisal(3, interactions=listed),
        lambda: prm.unexpectedness(3, baseline=reference),
        lambda: prm.category_diversity(3, categories=labels),
        lambda: prm.miscalibration(3, history=listed, categories=labels),
        lambda: prm.miscalibration(3, history=listed, categories=labels, weights="rank"),
        lambda: prm.serendipity(3, history=listed, features=features),
        lambda: prm.serendipity(3, history=listed, features=features, relevance=False),
        lambda: prm.exposure_share(3, groups=groups, group=label),
        lambda: prm.exposure_share(3, groups=groups, group=label, **rbp),
        lambda: prm.exposure_disparity(3, groups=groups),
        lambda: prm.exposure_disparity(3, groups=groups, **rbp),
        lambda: prm.exposure_disparity(3, groups=groups, target="relevance"),
        lambda: prm.exposure_disparity(3, groups=groups, target="relevance", **rbp),
        lambda: prm.awrf(3, groups=groups),
        lambda: prm.awrf(3, groups=groups, **rbp),
        lambda: prm.recall_at_precision(3, precision=0.5),
        lambda: prm.rbo(reference=reference),
    ]


def _built(builders: list[Builder]) -> list[prm.Metric]:
    """The metrics the builders give; one a frame cannot give (no item: no group label) is left out."""
    out = []
    for build in builders:
        try:
            out.append(build())
        except prm.RankMetricsError:  # noqa: PERF203 (a tool, not a plan)
            continue
    return out


def _side_values(frame: pl.DataFrame, metrics: list[prm.Metric], family: str) -> bytes:
    """The values of `family` (a side-input family) on `frame`, or the error's class; b"" if none built."""
    out = b""
    for metric in (m for m in metrics if m.spec.name == family):
        try:
            out += _values(frame, metric, metric.spec.scope)
        except prm.RankMetricsError as err:  # noqa: PERF203 (a tool, not a plan)
            out += type(err).__name__.encode()
    return out


def _values(frame: pl.DataFrame, name: str | prm.Metric, scope: str) -> bytes:
    by = "model" if "model" in frame.columns else None
    keys = ["model", "query"] if by else ["query"]
    if scope == "query":
        out = prm.evaluate(frame, [name], by=by, per_query=True)
        out = out.sort(keys)
    else:
        out = prm.evaluate(frame, [name], by=by)
        out = out.sort(by) if by else out
    value = out.select(out.columns[-1]).to_series()
    parts = [str(value.dtype)] + [repr(v) for v in value.to_list()]
    parts += [repr(v) for v in out.select([c for c in keys if c in out.columns]).rows()]
    return "\n".join(parts).encode()


def main() -> None:
    """Print the data hash, the values hash, and with ``--names`` each family's."""
    frames = _frames()
    data = hashlib.sha256()
    for frame in frames:
        data.update(repr(frame.rows()).encode() + repr(frame.schema).encode())
    per_family: dict[str, str] = {}
    skipped: list[str] = []
    sides = [_built(_side_metrics(frame)) for frame in frames]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for spec in SPECS:
            digest = hashlib.sha256()
            if _needs_argument(spec):
                side = b"".join(
                    _side_values(frame, metrics, spec.name)
                    for frame, metrics in zip(frames, sides, strict=True)
                )
                if not side:
                    skipped.append(spec.name)
                    continue
                digest.update(side)
                per_family[spec.name] = digest.hexdigest()
                continue
            for name in _names(spec):
                for frame in frames:
                    try:
                        digest.update(_values(frame, name, spec.scope))
                    except prm.RankMetricsError as err:  # noqa: PERF203 (a tool, not a plan)
                        digest.update(f"{type(err).__name__}".encode())
            per_family[spec.name] = digest.hexdigest()
    total = hashlib.sha256("\n".join(sorted(per_family.values())).encode()).hexdigest()
    print(f"frames: {len(frames)}  data: {data.hexdigest()[:16]}")
    print(f"families hashed: {len(per_family)}  skipped (no side input built here): {', '.join(skipped)}")
    if "--names" in sys.argv:
        for name, digest in per_family.items():
            print(f"  {name}: {digest[:16]}")
    print(f"values: {total}")


if __name__ == "__main__":
    main()
