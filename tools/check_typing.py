"""Type-check a user's script that calls every ``RankFrame`` method with every option ``evaluate`` takes.

Type checkers cannot see the registered ``.rank`` namespace, so its typed twin ``prm.RankFrame(frame)``
must accept, for every metric method, the options of the evaluate request (``_request.OPTIONS``)
and the convention overrides. The script is written from the registry, then checked:

    python tools/check_typing.py     # exit 1 if mypy --strict finds an error (CI runs this)
"""

from __future__ import annotations

import inspect
import subprocess
import sys
import tempfile
from pathlib import Path

from polars_rankmetrics import RankFrame
from polars_rankmetrics._namespace import MetricMethods

HEADER = """from __future__ import annotations

import polars as pl

import polars_rankmetrics as prm

frame = pl.DataFrame({"query": [1], "item": ["a"], "score": [1.0], "relevance": [1], "model": ["x"]})
lazy: pl.LazyFrame = frame.lazy()
ranked: pl.DataFrame = prm.RankFrame(frame).evaluate(["ndcg@10"], by="model", per_query=False,
    columns=prm.Columns(), conventions="trec_eval", check=True, aggregate="median", qrels=None, depth=10)
lazily: pl.LazyFrame = prm.RankFrame(lazy).evaluate(["ndcg@10"], aggregate="std", qrels=lazy, ties="average")
chunked: pl.DataFrame = prm.RankFrame(lazy).evaluate_chunked(
    ["map"], rows_per_chunk=10, qrels=lazy, by="model"
)
"""


def _value(annotation: str) -> str:
    """A value of the annotated type: a cutoff, a number, or a frame (side inputs)."""
    if annotation.startswith("int"):
        return "5"
    if annotation.startswith("float"):
        return "2.0"
    return "frame"


def _call(name: str) -> str:
    signature = inspect.signature(getattr(MetricMethods, name))
    required = [
        p
        for p in signature.parameters.values()
        if p.name != "self" and p.default is inspect.Parameter.empty and p.kind is not p.VAR_KEYWORD
    ]
    given = ", ".join(f"{p.name}={_value(str(p.annotation))}" for p in required)
    every = (
        'by="model", per_query=True, columns=prm.Columns(), conventions="trec_eval", check=False, '
        'aggregate="mean", qrels=frame, depth=5'
    )
    return f"_{name}: pl.DataFrame = prm.RankFrame(frame).{name}({given + ', ' if given else ''}{every})"


def main() -> int:
    """Write the script and run mypy --strict on it; return mypy's exit status."""
    names = [n for n, _ in inspect.getmembers(MetricMethods, inspect.isfunction) if not n.startswith("_")]
    assert issubclass(RankFrame, MetricMethods)
    script = HEADER + "\n".join(_call(name) for name in names) + "\n"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "user_script.py"
        path.write_text(script, encoding="utf-8")
        done = subprocess.run(  # noqa: S603
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(path)], check=False
        )
    print(f"{len(names)} RankFrame metric methods called with every evaluate option")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
