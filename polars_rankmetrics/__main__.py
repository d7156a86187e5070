"""``python -m polars_rankmetrics``: the ``rankmetrics`` command."""

from __future__ import annotations

from polars_rankmetrics.cli import run

if __name__ == "__main__":
    run()
