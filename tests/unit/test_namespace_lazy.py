"""The ``.rank`` metric methods are made on first read, and are then what eager making gave."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import polars as pl

from polars_rankmetrics import metrics
from polars_rankmetrics._namespace import MetricMethods, _method

ROOT = Path(__file__).resolve().parents[2]


def test_no_method_is_made_at_import() -> None:
    script = (
        "import polars_rankmetrics as prm\n"
        "from polars_rankmetrics import metrics\n"
        "from polars_rankmetrics._namespace import MetricMethods\n"
        "made = [n for n in metrics.__all__ if inspect.isfunction(vars(MetricMethods)[n])]\n"
        "assert made == [], made\n"
        "prm.RankFrame.rbp\n"
        "made = [n for n in metrics.__all__ if inspect.isfunction(vars(MetricMethods)[n])]\n"
        "assert made == ['rbp'], made\n"
    )
    done = subprocess.run(  # noqa: S603  (this interpreter, a fixed script)
        [sys.executable, "-c", "import inspect\n" + script],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_each_method_read_is_the_method_made_eagerly() -> None:
    for name in metrics.__all__:
        read = getattr(MetricMethods, name)
        eager = _method(name, getattr(metrics, name))
        assert inspect.isfunction(read), name
        assert vars(MetricMethods)[name] is read  # made once: the class now holds it
        assert getattr(MetricMethods, name) is read
        assert inspect.signature(read) == inspect.signature(eager), name
        assert (read.__name__, read.__qualname__, read.__doc__) == (
            eager.__name__,
            eager.__qualname__,
            eager.__doc__,
        )
        summary = inspect.cleandoc(getattr(metrics, name).__doc__ or "").split("\n\n", 1)[0]
        assert read.__doc__
        assert read.__doc__.startswith(summary), name


def test_a_method_first_read_through_a_frame_evaluates() -> None:
    frame = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "score": [0.9, 0.1], "relevance": [0, 1]})
    assert frame.rank.r_precision()["r_precision"].to_list() == [0.0]
    assert frame.lazy().rank.precision(2).collect()["precision@2"].to_list() == [0.5]
