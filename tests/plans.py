"""Reading query plans in tests: which nodes fall back from the streaming engine."""

from __future__ import annotations

from polars_rankmetrics._plans import calls_python, fallback_nodes

__all__ = ["calls_python", "fallback_nodes"]
