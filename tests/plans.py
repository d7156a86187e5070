"""Reading query plans in tests: which nodes fall back from the streaming engine."""

from __future__ import annotations

import polars as pl

FALLBACK_COLOUR = 'fillcolor="0.0 0.3 1.0"'  # show_graph's colour for an in-memory engine fallback


def fallback_nodes(plan: pl.LazyFrame) -> list[str]:
    """Nodes of the streaming physical plan that fall back to the in-memory engine."""
    dot = plan.show_graph(engine="streaming", plan_stage="physical", raw_output=True)
    assert isinstance(dot, str)
    # The legend names the fallback colour too, so look only at node lines.
    return [
        line
        for line in dot.splitlines()
        if "[label=" in line and ("in-memory-map" in line or FALLBACK_COLOUR in line)
    ]
