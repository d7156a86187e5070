"""How a message quotes a value: cut to a readable length, and the closest valid names.

The foundation's lowest module: :mod:`polars_rankmetrics.exceptions` (and
the factories it inherits from ``_messages``) words every message with
these; it imports nothing else of the package.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["SHOWN", "closest", "cut", "listed", "shown"]

SHOWN = 100
"""Characters of a value quoted in a message: longer values are cut (:func:`shown`)."""

_INT_BITS = 14_000  # 2**14000 has 4,215 decimal digits: below Python's default limit of 4,300
_MATCHED = 200  # names longer than this have no close match


def cut(text: str, limit: int = SHOWN) -> str:
    """`text`, cut to `limit` characters and marked with its length when longer."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def shown(value: object, limit: int = SHOWN) -> str:
    """``repr(value)`` as a message quotes it: cut to about `limit` characters.

    An integer too long for Python's decimal conversion (over 4,300 digits)
    is described by its size instead of raising.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _INT_BITS:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except ValueError:  # a container holding such an integer
        text = f"a {type(value).__name__}"
    return cut(text, limit)


def listed(values: Iterable[object]) -> str:
    """Values quoted one by one, separated by commas: ``'a', 'b'``."""
    return ", ".join(map(shown, values))


def closest(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The candidates closest to `name` (case-insensitive), best first."""
    if len(name) > _MATCHED:  # nothing valid is that long; difflib would take its time
        return []
    pool = list(dict.fromkeys(candidates))
    lowered: dict[str, str] = {}
    for c in pool:  # the first spelling of a name wins ('ndcg@k' before ir_measures' 'nDCG@k')
        lowered.setdefault(c.lower(), c)
    hits = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.6)
    return [lowered[h] for h in hits]
