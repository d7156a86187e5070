"""Hash every per-query value of every registered metric family on fixed generated data.

A refactor that must not change a value runs this before its first commit and
after its last: the two hashes are equal when every value is bit-identical.

    PYTHONPATH=$PWD python tools/hash_values.py

The data: the pinned frames of ``tests/strategies.py`` and frames drawn from
its ``eval_frames`` strategy with hypothesis derandomised (the same frames on
every run of the same hypothesis version). Every family is evaluated with its
default parameters, without a cutoff where allowed and at cutoffs 1, 3 and 10;
per query where the family has per-query values, per ``by`` group otherwise.
Families with a required argument and no default (a side input such as a
catalog or a reference run, a number such as a catalog size) are listed, not
hashed. The printed hash is over the per-family hashes as a sorted multiset,
so a renamed family or a reordered registry keeps it; ``--names`` prints each.
"""

from __future__ import annotations

import hashlib
import sys
import warnings
from pathlib import Path

import polars as pl
from hypothesis import Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import strategies

import polars_rankmetrics as prm
from polars_rankmetrics._registry import SPECS

CUTOFFS = (1, 3, 10)
EXAMPLES = 40


def _frames() -> list[pl.DataFrame]:
    frames: list[pl.DataFrame] = [
        strategies.ALL_TIED_INT,
        strategies.ALL_TIED_STR,
        strategies.POPULATION,
        strategies.NEGATIVE_ONLY,
        strategies.TWO_RUNS,
    ]

    for models in (None, 2):

        @settings(
            derandomize=True, max_examples=EXAMPLES, database=None, phases=[Phase.generate], deadline=None
        )
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


def _values(frame: pl.DataFrame, name: str, scope: str) -> bytes:
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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for spec in SPECS:
            if _needs_argument(spec):
                skipped.append(spec.name)
                continue
            digest = hashlib.sha256()
            for name in _names(spec):
                for frame in frames:
                    try:
                        digest.update(_values(frame, name, spec.scope))
                    except prm.RankMetricsError as err:  # noqa: PERF203 (a tool, not a plan)
                        digest.update(f"{type(err).__name__}".encode())
            per_family[spec.name] = digest.hexdigest()
    total = hashlib.sha256("\n".join(sorted(per_family.values())).encode()).hexdigest()
    print(f"frames: {len(frames)}  data: {data.hexdigest()[:16]}")
    print(f"families hashed: {len(per_family)}  skipped (need an argument): {', '.join(skipped)}")
    if "--names" in sys.argv:
        for name, digest in per_family.items():
            print(f"  {name}: {digest[:16]}")
    print(f"values: {total}")


if __name__ == "__main__":
    main()
