"""Reading query plans: Python UDFs, and nodes that fall back from the streaming engine.

Used by the tests and by the benchmark harness (which puts this folder on its path).
"""

from __future__ import annotations

import polars as pl

FALLBACK_COLOUR = 'fillcolor="0.0 0.3 1.0"'  # show_graph's colour for an in-memory engine fallback


def fallback_nodes(plan: pl.LazyFrame) -> list[str]:
    """Nodes of the streaming physical plan that fall back to the in-memory engine.

    ``explain(engine="streaming")`` does not show them; the physical graph does.
    """
    dot = plan.show_graph(engine="streaming", plan_stage="physical", raw_output=True)
    assert isinstance(dot, str)
    # The legend names the fallback colour too, so look only at node lines.
    return [
        line
        for line in dot.splitlines()
        if "[label=" in line and ("in-memory-map" in line or FALLBACK_COLOUR in line)
    ]


def calls_python(plan: pl.LazyFrame) -> bool:
    """Whether the optimised plan calls Python (a UDF applied per element or per batch, a Python scan)."""
    return "python" in plan.explain().lower()
