"""trec_eval's own double arithmetic, replayed for the rare values whose printed digit depends on it.

The library sums a query's terms exactly; trec_eval adds them in doubles, in
rank order: AP's precisions (m_map.c, m_map_cut.c), rbp's gains and
rbp_resid's unjudged ranks times running powers of p (m_rbp.c,
m_rbp_resid.c), G's gains over log2 of the cost so far (m_G.c), bpref's
fractions of preferences kept (m_bpref.c), the
interpolated precisions of 11pt_avg (m_11pt_avg.c), infAP's estimates
(m_infap.c). The two values differ in the last bits only, so they print the
same fourth decimal unless the exact value lies on a tie at the fifth (an AP
of 71/160 = 0.44375): there trec_eval's rounding error decides. For such a
value, and for an ``all`` line whose mean lies on a tie, the command
recomputes the measure as trec_eval does, from the query's rows ranked as
trec_eval ranks them (score, then docno, both descending; ``-M`` cuts, then
``-J`` drops the unjudged). Only under trec_eval's own conventions (``--ties
text``, no other preset); a query the run has no line for keeps the library's
value (trec_eval computes nothing for it).

Why these functions do not call the kernel (``_kernel.exact_sum``, the
engine's plan): the kernel's sums are exact on purpose, the same bits
whatever the order of the terms, and those bits are the ones this module
exists to differ from. Each replay is the left-to-right double sum of the
trec_eval file it names, in trec_eval's rank order, which no exact sum and
no order-free plan reproduces; every other value the command prints (the
replay's fallbacks included) is the kernel's. The replays run only for the
few (query, measure) values near a printed tie, in plain Python over one
query's grades.

It also gives trec_eval's 0/0 of ``Rndcg`` (m_Rndcg.c): a query with relevant
documents (``-l 0`` counts grade 0) but no positive gain has no R level to
average over, and trec_eval prints ``-nan``.
"""

from __future__ import annotations

import argparse
import itertools
import math
from collections.abc import Collection
from dataclasses import dataclass, field

import polars as pl

from polars_rankmetrics.cli._measures import Line
from polars_rankmetrics.cli._values import lround

__all__ = ["Replay", "near_tie", "near_ties"]

_REPLAYED = frozenset({"map", "map_cut", "rbp", "rbp_resid", "bpref", "11pt_avg", "infAP", "G"})
_INFAP_EPSILON = 0.00001  # trec_eval.h
_TIE = 1e-9  # how close to a tie of the fourth decimal a value must be to be replayed


def near_tie(value: object) -> bool:
    """Whether a value printed with %6.4f lies (within 1e-9 of its size) on a tie of the fourth decimal."""
    if not isinstance(value, float) or not math.isfinite(value):
        return False
    scaled = value * 10000
    return abs(scaled - math.floor(scaled) - 0.5) < _TIE * max(1.0, abs(scaled))


def near_ties(column: list[object]) -> list[int]:
    """The positions of the values on a tie of the fourth decimal (`near_tie`), found in one vector pass."""
    if not column:
        return []
    scaled = pl.Series(values=column, dtype=pl.Float64, strict=False) * 10000
    candidate = (scaled - scaled.floor() - 0.5).abs() < _TIE * scaled.abs().clip(lower_bound=1.0)
    return [i for i in candidate.arg_true().to_list() if near_tie(column[i])]


@dataclass
class Replay:
    """The joined frame (query, item, score, relevance) and the command's flags, to replay trec_eval."""

    frame: pl.DataFrame
    args: argparse.Namespace
    _rankings: dict[str, _Ranking] = field(default_factory=dict)
    _sorted: pl.DataFrame | None = None
    _spans: dict[str, tuple[int, int]] | None = None
    _whole: bool = False  # whether _sorted holds every query's rows

    def _trec_conventions(self) -> bool:
        return (
            self.args.ties in {None, "text"}
            and self.args.preset in {None, "trec_eval"}
            and self._level() >= 0
        )

    def applies(self, line: Line) -> bool:
        """Whether the line is a measure replayed here, under trec_eval's conventions (G: default gains)."""
        name = line.measure.name
        if name == "G" and (line.metric is None or _pairs(line.metric.params[0])):
            return False
        return self._trec_conventions() and name in _REPLAYED

    def may_be_undefined(self, line: Line) -> bool:
        """Whether `undefined` can hold for some query of the line (else it is False for every query)."""
        return line.measure.name == "Rndcg" and line.metric is not None and self._trec_conventions()

    def undefined(self, line: Line, query: str) -> bool:
        """Whether trec_eval's value of the line for the query is 0/0 (``Rndcg`` without a positive gain)."""
        if line.measure.name != "Rndcg" or line.metric is None or not self._trec_conventions():
            return False
        pairs = dict(_pairs(line.metric.params[0]))
        if self._level() >= 1 and all(v > 0 for v in pairs.values()):
            return False  # a relevant grade >= 1 is a positive gain: no query can be 0/0
        ranking = self._ranking(query)
        return ranking.num_rel > 0 and _top_gain(pairs, ranking.top) <= 0

    def _level(self) -> int:
        return 1 if self.args.relevance_level is None else int(self.args.relevance_level)

    def _ranking(self, query: str) -> _Ranking:
        """The query's grades in trec_eval's rank order (None: unjudged), its counts and top grade."""
        if query not in self._rankings:
            rows = self._rows(query)
            level = self._level()
            judged = [int(g) for g in rows["relevance"].to_list() if g is not None and g >= 0]
            num_rel = sum(1 for g in judged if g >= level)
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
            pool = [None if g is None else int(g) for _, _, g in retrieved]
            if self.args.judged_only:
                pool = [g for g in pool if g is not None and g >= 0]
            num_nonrel = sum(1 for g in judged if g < level)
            top = max(judged, default=-1)
            levels = tuple(sum(1 for g in judged if g == grade) for grade in range(top + 1))
            self._rankings[query] = _Ranking(pool, num_rel, num_nonrel, top, bool(retrieved), levels)
        return self._rankings[query]

    def prefetch(self, queries: Collection[str]) -> None:
        """Sort the rows of these queries alone (those near a tie), not the whole frame, if none is yet.

        A query outside them, read later (an ``all`` line on a tie replays every
        query), sorts the whole frame then.
        """
        if self._spans is None and queries:
            self._sort(queries)

    def _sort(self, queries: Collection[str] | None) -> None:
        """The rows of `queries` (None: every query) sorted by query once, and each query's span."""
        columns = ("query", "item", "score", "relevance")
        rows = self.frame.lazy().select(columns)
        if (
            queries is not None
        ):  # before the cast: only these rows' ids become text (the command's are Categorical)
            rows = rows.filter(pl.col("query").is_in(list(queries)))
        self._sorted = rows.with_columns(pl.col("query").cast(pl.String)).sort("query").collect()
        self._whole = queries is None
        runs = self._sorted["query"].rle().struct.unnest()  # columns len, value: the queries in order
        lengths = runs["len"].to_list()
        starts = [0, *itertools.accumulate(lengths)]
        self._spans = {
            q: (start, n) for q, start, n in zip(runs["value"].to_list(), starts, lengths, strict=False)
        }

    def _rows(self, query: str) -> pl.DataFrame:
        """The query's rows: a slice of the frame sorted by query once, whatever the number replayed."""
        if self._spans is None or (query not in self._spans and not self._whole):
            self._sort(None)
        assert self._sorted is not None  # set by _sort
        assert self._spans is not None
        start, length = self._spans.get(query, (0, 0))
        return self._sorted.slice(start, length)

    def value(self, line: Line, query: str, library: object) -> object:
        """The line's value for the query, computed as trec_eval computes it.

        A query the run has no line for (``-c``) is not computed by trec_eval,
        which prints its measures' zeros as the library does: `library` stays.
        """
        if not self._ranking(query).listed:
            return library
        return self._computed(line, query)

    def _computed(self, line: Line, query: str) -> float:
        ranking, level, metric = self._ranking(query), self._level(), line.metric
        assert metric is not None  # applies() holds
        name = line.measure.name
        if name == "bpref":
            return _bpref(ranking, level)
        if name == "infAP":
            return _inf_ap(ranking, level)
        if name == "11pt_avg":
            return _eleven_point(ranking, level, metric.numbers("recalls"))
        if name in {"rbp", "rbp_resid"}:
            return _rbp(ranking, metric.number("p"), resid=name == "rbp_resid")
        if name == "G":
            return _g(ranking)
        return _ap(ranking, level, metric.k)


def _ap(ranking: _Ranking, level: int, cutoff: int | None) -> float:
    """m_map.c, m_map_cut.c: precision at each relevant document within the cutoff, in rank order, over R."""
    total, hits = 0.0, 0
    grades = ranking.grades[:cutoff] if cutoff is not None else ranking.grades
    for rank, grade in enumerate(grades, start=1):
        if grade is not None and grade >= level:
            hits += 1
            total += hits / rank
    return total / ranking.num_rel if hits else 0.0


def _rbp(ranking: _Ranking, p: float, *, resid: bool) -> float:
    """m_rbp.c, m_rbp_resid.c: gains (or unjudged ranks) times a running power of p, added in rank order."""
    total, power, unjudged, top = 0.0, 1.0, False, ranking.top
    for grade in ranking.grades:
        if resid and grade is None:
            unjudged = True
            total += power
        if not resid and grade:  # a gain of 0 adds nothing; the grades scaled by the top one
            total += (grade / top if top > 1 else float(grade)) * power
        power = power * p
    if not resid:
        return (1.0 - p) * total
    return power + (1 - p) * total if unjudged else 0.0


@dataclass(frozen=True)
class _Ranking:
    """A query as trec_eval reads it: grades in rank order, counts, top grade."""

    pool: list[int | None]  # the grades in rank order: None not in the pool, negative in it but unjudged
    num_rel: int  # judged relevant (grade >= the relevance level)
    num_nonrel: int  # judged non-relevant (0 <= grade < the level), retrieved or not
    top: int  # the highest grade judged, -1 for none
    listed: bool  # whether the run has a line for the query
    levels: tuple[int, ...] = ()  # the judged documents at each grade 0..top, retrieved or not

    @property
    def grades(self) -> list[int | None]:
        """The judged grades in rank order, None for every unjudged document (in the pool or not)."""
        return [None if g is None or g < 0 else g for g in self.pool]


def _g(ranking: _Ranking) -> float:
    """m_G.c with its default gains (a grade's gain is the grade): gain / log2(2 + cost - gain so far).

    The ideal walks the judged grades from the top (gain_init.c: one gain per grade 0..top, with the
    number judged at it); the cost adds the ideal gain at each rank, at least 1; G is the sum over
    the ideal's sum of gains. Unjudged and negative grades gain 0.
    """
    counts, gains = ranking.levels, [float(g) if g is not None and g > 0 else 0.0 for g in ranking.pool]
    cur = len(counts) - 1
    ideal, at_level, i = (float(cur) if cur >= 0 else 0.0), 0, 0
    results_g = sum_results = sum_ideal = sum_cost = 0.0

    def step_ideal() -> None:
        nonlocal cur, ideal, at_level, sum_ideal
        at_level += 1
        while cur >= 0 and at_level > counts[cur]:
            at_level, cur = 1, cur - 1
            ideal = float(cur) if cur >= 0 else 0.0
        if ideal > 0.0:
            sum_ideal += ideal

    while i < len(gains) and ideal > 0.0:
        sum_results += gains[i]
        step_ideal()
        sum_cost += max(ideal, 1.0)  # at least min_cost, 1
        if gains[i] != 0:
            results_g += gains[i] / math.log2(2 + sum_cost - sum_results)
        i += 1
    for gain in gains[i:]:
        sum_results += gain
        sum_cost += 1.0
        if gain != 0:
            results_g += gain / math.log2(2 + sum_cost - sum_results)
    while ideal > 0.0:
        step_ideal()
    return results_g / sum_ideal if sum_ideal > 0.0 else 0.0


def _bpref(ranking: _Ranking, level: int) -> float:
    """m_bpref.c: per relevant document, 1 - min(nonrel above, R) / min(N, R), added in rank order, over R."""
    bpref, nonrel_so_far = 0.0, 0
    for grade in ranking.grades:
        if grade is None:
            continue
        if grade < level:
            nonrel_so_far += 1
        elif nonrel_so_far > 0:
            bpref += 1.0 - float(min(nonrel_so_far, ranking.num_rel)) / float(
                min(ranking.num_nonrel, ranking.num_rel)
            )
        else:
            bpref += 1.0
    return bpref / ranking.num_rel if ranking.num_rel else bpref


def _inf_ap(ranking: _Ranking, level: int) -> float:
    """m_infap.c: per relevant document, 1/(j+1) plus the judged share above it, in rank order, over R."""
    inf_ap, rel, nonrel, unjudged = 0.0, 0, 0, 0
    for j, grade in enumerate(ranking.pool):
        if grade is None:  # not in the pool
            continue
        if grade < 0:  # in the pool, unjudged
            unjudged += 1
        elif grade < level:
            nonrel += 1
        else:
            rel += 1
            if j == 0:
                inf_ap += 1.0
                continue
            fj = float(j)
            above = (rel - 1 + nonrel + unjudged) / fj
            share = (rel - 1 + _INFAP_EPSILON) / (rel - 1 + nonrel + 2 * _INFAP_EPSILON)
            inf_ap += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * above * share
    return inf_ap / ranking.num_rel if ranking.num_rel else inf_ap


def _eleven_point(ranking: _Ranking, level: int, recalls: tuple[float, ...]) -> float:
    """m_11pt_avg.c: interpolated precision at each level's lround(x * R) relevant, added from the bottom."""
    grades = ranking.grades
    cutoffs = [lround(x * ranking.num_rel) for x in recalls]
    num_ret, rel_so_far = len(grades), sum(1 for g in grades if g is not None and g >= level)
    current = len(cutoffs) - 1
    while current >= 0 and cutoffs[current] > rel_so_far:
        current -= 1
    int_precis = rel_so_far / num_ret if num_ret else math.nan  # C's 0.0 / 0.0
    total = 0.0
    for i in range(num_ret, 0, -1):
        if rel_so_far == 0:
            break
        int_precis = max(int_precis, rel_so_far / i)  # C's `if (int_precis < precis)`: NaN stays
        grade = grades[i - 1]
        if grade is not None and grade >= level:
            while current >= 0 and rel_so_far == cutoffs[current]:
                total += int_precis
                current -= 1
            rel_so_far -= 1
    for _ in range(current + 1):  # the levels above every relevant document retrieved
        total += int_precis
    return total / len(recalls)


def _pairs(gains: object) -> list[tuple[float, float]]:
    """The ``level=gain`` pairs of a gain measure's parameter (none: every level's gain is the level)."""
    if not isinstance(gains, tuple):
        return []
    return [(float(level), float(gain)) for level, gain in gains]


def _top_gain(pairs: dict[float, float], top: int) -> float:
    """trec_eval's highest gain of a query (gain_init.c): every level 0..top, a level=gain pair overriding."""
    levels = {float(level): float(level) for level in range(top + 1)}
    return max({**levels, **pairs}.values(), default=0.0)
