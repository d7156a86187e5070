"""``python -m polars_rankmetrics``: the ``rankmetrics`` command."""

from __future__ import annotations

import sys

from polars_rankmetrics.cli import main

if __name__ == "__main__":
    sys.exit(main())
