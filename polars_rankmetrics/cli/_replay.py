"""trec_eval's own double arithmetic, replayed for the rare values whose printed digit depends on it.

The library sums a query's terms exactly; trec_eval adds them in doubles, in
rank order: AP's precisions (m_map.c, m_map_cut.c) and rbp_resid's running
powers of p (m_rbp_resid.c). The two values differ in the last bits only, so
they print the same fourth decimal unless the exact value lies on a tie at
the fifth (an AP of 71/160 = 0.44375): there trec_eval's rounding error
decides. For such a value, and for an ``all`` line whose mean lies on a tie,
the command recomputes the measure as trec_eval does, from the query's rows
ranked as trec_eval ranks them (score, then docno, both descending; ``-M``
cuts, then ``-J`` drops the unjudged). Only under trec_eval's own conventions
(``--ties text``, no other preset).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, field

import polars as pl

from polars_rankmetrics.cli._measures import Line

__all__ = ["Replay", "near_tie"]

_TIE = 1e-9  # how close to a tie of the fourth decimal a value must be to be replayed


def near_tie(value: object) -> bool:
    """Whether a value printed with %6.4f lies (within 1e-9 of its size) on a tie of the fourth decimal."""
    if not isinstance(value, float) or not math.isfinite(value):
        return False
    scaled = value * 10000
    return abs(scaled - math.floor(scaled) - 0.5) < _TIE * max(1.0, abs(scaled))


@dataclass
class Replay:
    """The joined frame (query, item, score, relevance) and the command's flags, to replay trec_eval."""

    frame: pl.DataFrame
    args: argparse.Namespace
    _rankings: dict[str, tuple[list[int | None], int]] = field(default_factory=dict)
    _parts: dict[str, pl.DataFrame] | None = None

    def applies(self, line: Line) -> bool:
        """Whether the line is a measure replayed here, under trec_eval's conventions."""
        trec_conventions = self.args.ties in {None, "text"} and self.args.preset in {None, "trec_eval"}
        return (
            trec_conventions and line.measure.name in {"map", "map_cut", "rbp_resid"} and self._level() >= 0
        )

    def _level(self) -> int:
        return 1 if self.args.relevance_level is None else int(self.args.relevance_level)

    def _ranking(self, query: str) -> tuple[list[int | None], int]:
        """The query's grades in trec_eval's rank order (None: unjudged), and its number of relevant."""
        if query not in self._rankings:
            if self._parts is None:  # one pass over the frame, whatever the number of queries replayed
                parts = self.frame.with_columns(pl.col("query").cast(pl.String)).partition_by(
                    "query", as_dict=True
                )
                self._parts = {str(key[0]): part for key, part in parts.items()}
            rows = self._parts.get(query, self.frame.clear())
            level = self._level()
            num_rel = sum(1 for g in rows["relevance"].to_list() if g is not None and g >= level)
            retrieved = [
                (float(s), str(i), g)
                for i, s, g in zip(
                    rows["item"].to_list(), rows["score"].to_list(), rows["relevance"].to_list(), strict=True
                )
                if s is not None
            ]
            # trec_eval's comp_sim_docno: higher score first, then docno compared with strcmp, higher first.
            retrieved.sort(key=lambda r: (r[0], r[1].encode()), reverse=True)
            if self.args.depth is not None:
                retrieved = retrieved[: self.args.depth]
            grades = [None if g is None or g < 0 else int(g) for _, _, g in retrieved]
            if self.args.judged_only:
                grades = [g for g in grades if g is not None]
            self._rankings[query] = (grades, num_rel)
        return self._rankings[query]

    def value(self, line: Line, query: str) -> float:
        """The line's value for the query, computed as trec_eval computes it."""
        grades, num_rel = self._ranking(query)
        assert line.metric is not None
        if line.measure.name == "rbp_resid":
            p = line.metric.number("p")
            total, power, unjudged = 0.0, 1.0, False
            for grade in grades:
                if grade is None:
                    unjudged = True
                    total += power
                power = power * p
            return power + (1 - p) * total if unjudged else 0.0
        level, cutoff = self._level(), line.metric.k
        total, hits = 0.0, 0
        for rank, grade in enumerate(grades[:cutoff] if cutoff is not None else grades, start=1):
            if grade is not None and grade >= level:
                hits += 1
                total += hits / rank
        return total / num_rel if hits else 0.0
