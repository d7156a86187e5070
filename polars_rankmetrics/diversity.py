"""Diversity and intent-aware metrics of the TREC Web track, as ndeval computes them.

Judgments carry an intent (subtopic): one row per (query, intent, item,
relevance). ndeval (Clarke et al.; version 4.5, the program behind the
Web track's diversity task, wrapped by pyndeval) reads them as binary
(relevance ``>= relevance_level``) and computes, for each query with at
least one intent judged relevant somewhere (A such intents):

- a gain at rank i: ``sum over the intents j of the item of (1 - alpha) ** c_j``,
  c_j counting the items ranked above relevant to j;
- ``alpha_ndcg@k``: the discounted gains (``log 2 / log(i + 1)``) over the
  same sum for a greedy ideal ranking (Clarke et al., SIGIR 2008);
- ``err_ia@k``: the gains over rank, ``sum gain_i / i``, over A times
  ``sum (1 - alpha) ** (i - 1) / i`` (ndeval's "ideal ideal"; at k = 1 ndeval
  leaves the sum undivided, and so does this); ``nerr_ia@k``: the same sum
  over the greedy ideal's;
- ``nrbp``: ``(1 - (1 - alpha) beta) / A * sum gain_i beta ** (i - 1)`` over
  the whole ranking (Clarke et al., ICTIR 2009); ``nnrbp``: the sum over
  the greedy ideal's;
- ``p_ia@k``: relevant (item, intent) pairs in the top k over k A
  (Agrawal et al., WSDM 2009); ``strec@k``: intents covered in the top k
  over A; ``map_ia``: the mean over intents of each intent's average precision.

The ideal ranking is NP-hard; ndeval builds it greedily: at each rank the
item of the highest gain given the items already placed, ties to the
greater item id (``strcmp``). Here each rank of the greedy ideal is one
step of expressions over every query at once (at most the deepest cutoff
asked for; for ``nnrbp``, as many steps as the most relevant items a query
has), never a loop over queries. The values equal ndeval's (pyndeval's) to
1e-9 per query on the ranking this library gives (score descending, ties
to the greater item id); ndeval's own tie order differs (pyndeval sorts
ties by ascending id). A query with no relevant intent scores 0 everywhere
(ndeval divides 0 by 0 for ``nnrbp``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from polars_rankmetrics import _errors
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._kernel import exact_sum, power
from polars_rankmetrics._schema import Columns, normalise_by
from polars_rankmetrics._spellings import DIVERSITY_SPELLINGS
from polars_rankmetrics.exceptions import TrecFormatError, UnknownMetricError

__all__ = ["evaluate_diversity", "join_intents", "read_ndeval_qrels"]

_CUTOFF = frozenset({"alpha_ndcg", "err_ia", "nerr_ia", "p_ia", "strec"})
_WHOLE = frozenset({"nrbp", "nnrbp", "map_ia"})
_NAME = re.compile(r"^(?P<name>[A-Za-z_-]+)(?:@(?P<k>\d+))?$")
_LINE = re.compile(r"^\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$")

_Q, _I, _J, _RANK, _GAIN, _C = "__q", "__item", "__intent", "__rank", "__gain", "__c"


@dataclass(frozen=True)
class DiversityMetric:
    """An ndeval measure: its canonical name and cutoff."""

    name: str
    k: int | None

    def __str__(self) -> str:
        """``alpha_ndcg@10``, ``nrbp``."""
        return self.name if self.k is None else f"{self.name}@{self.k}"


def parse_diversity(name: str) -> DiversityMetric:
    """The measure `name` spells: ours (``alpha_ndcg@10``), ndeval's (``alpha-nDCG@10``) or ir_measures'."""
    match = _NAME.match(name) if isinstance(name, str) else None
    family = DIVERSITY_SPELLINGS.get(match.group("name"), match.group("name")) if match else None
    if match is None or family not in _CUTOFF | _WHOLE:
        valid = sorted(_CUTOFF | _WHOLE)
        cutoff = ", ".join(sorted(_CUTOFF))
        base = str(name).split("@", 1)[0]
        near = _errors.closest(base, [*valid, *DIVERSITY_SPELLINGS])
        hint = f"; did you mean {' or '.join(map(repr, near))}?" if near else ""
        msg = f"unknown diversity metric {name!r}{hint} Valid: {', '.join(valid)} (with @k for {cutoff})"
        raise UnknownMetricError(msg)
    k = int(match.group("k")) if match.group("k") else None
    if family in _CUTOFF and (k is None or k < 1):
        raise _errors.parameter("k", f"a positive integer: write {family}@k", k, metric=family)
    if family in _WHOLE and k is not None:
        raise _errors.parameter("k", f"None ({family} takes no cutoff)", k, metric=family)
    return DiversityMetric(family, k)


def read_ndeval_qrels(source: str | Path) -> pl.DataFrame:
    r"""Read ndeval's intent qrels: ``query intent item relevance`` per line, whitespace-separated.

    Parameters
    ----------
    source
        The file's path.

    Returns
    -------
    pl.DataFrame
        ``query``, ``intent``, ``item`` (String) and ``relevance`` (Int64).

    Raises
    ------
    TrecFormatError
        A line without four fields or with a relevance that is not an integer,
        naming the line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "qrels.ndeval"
    >>> _ = path.write_text("1 1 d1 1\n1 2 d1 0\n1 2 d2 2\n")
    >>> prm.read_ndeval_qrels(path)
    shape: (3, 4)
    ┌───────┬────────┬──────┬───────────┐
    │ query ┆ intent ┆ item ┆ relevance │
    │ ---   ┆ ---    ┆ ---  ┆ ---       │
    │ str   ┆ str    ┆ str  ┆ i64       │
    ╞═══════╪════════╪══════╪═══════════╡
    │ 1     ┆ 1      ┆ d1   ┆ 1         │
    │ 1     ┆ 2      ┆ d1   ┆ 0         │
    │ 1     ┆ 2      ┆ d2   ┆ 2         │
    └───────┴────────┴──────┴───────────┘
    """
    lines = pl.Series("line", Path(source).read_text().splitlines(), dtype=pl.String)
    lines = lines.filter(lines.str.strip_chars() != "")
    fields = lines.to_frame().select(
        pl.col("line")
        .str.extract_groups(_LINE.pattern)
        .struct.rename_fields(["query", "intent", "item", "rel"])
    )
    table = fields.unnest("line").with_columns(pl.col("rel").cast(pl.Int64, strict=False).alias("relevance"))
    bad = table.with_row_index().filter(pl.col("query").is_null() | pl.col("relevance").is_null())
    if bad.height:
        line = int(bad["index"][0]) + 1
        msg = f"{source}: line {line} is not 'query intent item relevance' with an integer relevance"
        raise TrecFormatError(msg)
    return table.select("query", "intent", "item", "relevance")


def join_intents(
    run: pl.DataFrame,
    qrels: pl.DataFrame,
    *,
    by: str | Sequence[str] | None = None,
    columns: Columns | None = None,
) -> pl.DataFrame:
    """Join a run to intent qrels: one row per (query, item, intent); intent null for unjudged items.

    Parameters
    ----------
    run
        query, item, score (or rank).
    qrels
        query, intent, item, relevance (:func:`read_ndeval_qrels`).
    by
        Columns of `run` telling runs apart (a model): the judgments are
        joined to each run's rows.
    columns
        Column names of both; defaults to ``Columns()``.

    Returns
    -------
    pl.DataFrame
        query, item, the run's score or rank (null for judged items never
        retrieved), intent and relevance (null for retrieved items without a judgment).

    Examples
    --------
    >>> run = pl.DataFrame({"query": ["1", "1"], "item": ["d1", "d3"], "score": [2.0, 1.0]})
    >>> qrels = pl.DataFrame({"query": ["1", "1", "1"], "intent": ["1", "2", "2"],
    ...     "item": ["d1", "d1", "d2"], "relevance": [1, 1, 1]})
    >>> prm.join_intents(run, qrels).sort("item", "intent")
    shape: (4, 5)
    ┌───────┬──────┬───────┬────────┬───────────┐
    │ query ┆ item ┆ score ┆ intent ┆ relevance │
    │ ---   ┆ ---  ┆ ---   ┆ ---    ┆ ---       │
    │ str   ┆ str  ┆ f64   ┆ str    ┆ i64       │
    ╞═══════╪══════╪═══════╪════════╪═══════════╡
    │ 1     ┆ d1   ┆ 2.0   ┆ 1      ┆ 1         │
    │ 1     ┆ d1   ┆ 2.0   ┆ 2      ┆ 1         │
    │ 1     ┆ d2   ┆ null  ┆ 2      ┆ 1         │
    │ 1     ┆ d3   ┆ 1.0   ┆ null   ┆ null      │
    └───────┴──────┴───────┴────────┴───────────┘
    """
    cols = columns or Columns()
    run, qrels = as_polars(run, "run"), as_polars(qrels, "qrels")
    order = cols.rank if cols.rank in run.columns else cols.score
    keys_by = list(normalise_by(by))
    keys = [*keys_by, cols.query, cols.item]
    for name in [*keys, order]:
        if name not in run.columns:
            raise _errors.column_not_found(name, "run", run.columns)
    for name in [cols.query, cols.item, cols.intent, cols.relevance]:
        if name not in qrels.columns:
            raise _errors.column_not_found(name, "qrels", qrels.columns)
    judged = qrels.select(cols.query, cols.item, cols.intent, cols.relevance)
    if keys_by:  # every run is judged by the same qrels
        judged = run.select(keys_by).unique().join(judged, how="cross")
    joined = run.select(*keys, order).join(judged, on=keys, how="full", coalesce=True)
    return joined.select(*keys, order, cols.intent, cols.relevance)


def _key(keys: list[str]) -> pl.Expr:
    """One column for a ranking's keys: the query, or a struct of (by..., query)."""
    return pl.struct(keys) if len(keys) > 1 else pl.col(keys[0])


def _rows(
    frame: pl.LazyFrame, cols: Columns, order: str, level: float, keys: list[str]
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """(ranked items: key, item, rank) and (relevant pairs: key, intent, item) of a diversity frame."""
    text = pl.col(cols.item).cast(pl.String)
    key = -pl.col(order).cast(pl.Float64) if order == cols.rank else pl.col(order).cast(pl.Float64)
    ranked = (
        frame.filter(pl.col(order).is_not_null())
        .group_by(*keys, cols.item)
        .agg(key.max().alias("__key"), text.first().alias(_I))
        .select(
            _key(keys).alias(_Q),
            _I,
            pl.struct("__key", _I).rank("ordinal", descending=True).over(keys).alias(_RANK),
        )
    )
    judged = frame.filter(pl.col(cols.intent).is_not_null() & pl.col(cols.relevance).is_not_null())
    pairs = (
        judged.group_by(*keys, cols.intent, cols.item)
        .agg((pl.col(cols.relevance).max() >= level).alias("__rel"))
        .filter("__rel")
        .select(_key(keys).alias(_Q), pl.col(cols.intent).cast(pl.String).alias(_J), text.alias(_I))
    )
    return ranked, pairs


def _power(base: float, exponent: pl.Expr) -> pl.Expr:
    """``base ** exponent`` for a constant base in [0, 1], 0 ** 0 being 1 (ndeval multiplies gains down)."""
    if base == 0:
        return pl.when(exponent == 0).then(1.0).otherwise(0.0)
    return power(base, exponent)


def _ideal_gains(pairs: pl.DataFrame, steps: int, alpha: float) -> pl.DataFrame:
    """Ndeval's greedy ideal: (query, position, gain) for the first `steps` positions of every query.

    Each step places, in every query at once, the unplaced item of the highest
    gain given the items placed (ties to the greater item id), as ndeval's idealResult.
    """
    placed = pairs.select(_Q, _J, _I).with_columns(pl.lit(value=False).alias("__placed"))
    seen = pairs.select(_Q, _J).unique().with_columns(pl.lit(0, dtype=pl.Int64).alias(_C))
    out: list[pl.DataFrame] = []
    for step in range(1, steps + 1):
        open_ = placed.filter(~pl.col("__placed")).join(seen, on=[_Q, _J])
        if open_.is_empty():
            break
        scores = open_.group_by(_Q, _I).agg(exact_sum(_power(1.0 - alpha, pl.col(_C))).alias(_GAIN))
        best = scores.group_by(_Q).agg(
            pl.col(_I).sort_by([_GAIN, _I], descending=[True, True]).first(), pl.col(_GAIN).max()
        )
        out.append(best.select(_Q, pl.lit(step, dtype=pl.Int64).alias(_RANK), _GAIN))
        chosen = best.select(_Q, _I, pl.lit(value=True).alias("__now"))
        placed = placed.join(chosen, on=[_Q, _I], how="left").select(
            _Q, _J, _I, (pl.col("__placed") | pl.col("__now").fill_null(value=False)).alias("__placed")
        )
        covered = pairs.join(chosen, on=[_Q, _I]).group_by(_Q, _J).agg(pl.len().cast(pl.Int64).alias("__n"))
        seen = seen.join(covered, on=[_Q, _J], how="left").select(
            _Q, _J, (pl.col(_C) + pl.col("__n").fill_null(0)).alias(_C)
        )
    if not out:
        return pl.DataFrame(schema={_Q: pairs.schema[_Q], _RANK: pl.Int64(), _GAIN: pl.Float64()})
    return pl.concat(out)


def _discounted(metric: DiversityMetric, beta: float) -> pl.Expr:
    """The raw sum a measure normalises: discounted gains (dcg), gains over rank (err), or rbp's."""
    rank, gain = pl.col(_RANK).cast(pl.Float64), pl.col(_GAIN)
    within = pl.col(_RANK) <= (metric.k or 0)
    if metric.name == "alpha_ndcg":
        return exact_sum(pl.when(within).then(gain * math.log(2.0) / (rank + 1.0).log()))
    if metric.name in ("err_ia", "nerr_ia"):
        return exact_sum(pl.when(within).then(gain / rank))
    return exact_sum(gain * _power(beta, pl.col(_RANK) - 1))


def _measure(name: str, m: DiversityMetric, alpha: float, beta: float) -> pl.Expr:
    """One query's value of `m` from its retrieved relevant pairs (and the ideal's sums, `__ideal_<name>`)."""
    a = pl.col("__a").first()
    within = pl.col(_RANK) <= (m.k or 0)
    if m.name == "p_ia":
        return within.sum().cast(pl.Float64) / (a * float(m.k or 1))
    if m.name == "strec":
        return pl.col(_J).filter(within).n_unique().cast(pl.Float64) / a
    if m.name == "map_ia":
        return exact_sum((pl.col(_C) + 1.0) / pl.col(_RANK).cast(pl.Float64) / pl.col("__nrel")) / a
    if m.name == "nrbp":
        return _discounted(m, beta) * (1.0 - (1.0 - alpha) * beta) / a
    if m.name == "err_ia":
        k = m.k or 1
        ideal_ideal = sum((1.0 - alpha) ** i / (i + 1) for i in range(k))
        return _discounted(m, beta) / (a * ideal_ideal if k > 1 else pl.lit(1.0))
    # Normalised by the greedy ideal: alpha_ndcg, nerr_ia, nnrbp (0 where the run gains nothing, as ndeval).
    value = _discounted(_raw(m), beta)
    return pl.when(value != 0).then(value / pl.col("__ideal_" + name).first())


def _raw(m: DiversityMetric) -> DiversityMetric:
    """The unnormalised sum behind a greedy-ideal measure: DCG, ERR or RBP's."""
    if m.name == "alpha_ndcg":
        return m
    return DiversityMetric("err_ia", m.k) if m.name == "nerr_ia" else m


def evaluate_diversity(  # noqa: C901, PLR0913  (checks, then one plan)
    frame: pl.DataFrame | pl.LazyFrame,
    metrics: str | Sequence[str],
    *,
    alpha: float = 0.5,
    beta: float = 0.5,
    relevance_level: float = 1,
    by: str | Sequence[str] | None = None,
    per_query: bool = False,
    columns: Columns | None = None,
) -> pl.DataFrame:
    """Evaluate rankings with ndeval's intent-aware measures (see the module's docstring).

    Parameters
    ----------
    frame
        One row per (query, item, intent): query, item, score (or rank;
        null for judged items never retrieved), intent and relevance (null
        for retrieved items without a judgment); :func:`join_intents` builds it.
    metrics
        ``alpha_ndcg@k``, ``err_ia@k``, ``nerr_ia@k``, ``nrbp``, ``nnrbp``,
        ``p_ia@k``, ``map_ia``, ``strec@k``; ndeval's spellings
        (``alpha-nDCG@20``, ``ERR-IA@20``, ``P-IA@5``...) and ir_measures'
        (``alpha_nDCG@20``, ``StRecall@5``...) too. Columns are named as written.
    alpha, beta
        ndeval's redundancy intolerance (alpha-nDCG, ERR-IA, NRBP) and
        patience (NRBP), 0.5 each by default.
    relevance_level
        Judgments ``>=`` it are relevant (ndeval: any positive judgment).
    by
        Grouping keys (a run, a model): each group's rankings evaluated
        against its own rows (:func:`join_intents` with `by` copies the
        judgments to every group).
    per_query
        One row per query instead of the mean over queries.
    columns
        Column names; ``Columns(intent=...)`` names the intent column.

    Returns
    -------
    pl.DataFrame
        The mean of each measure over the queries both judged and retrieved
        (ndeval's population) per `by` group, or one row per such (by...,
        query), sorted.

    Raises
    ------
    RankMetricsError
        An unknown measure, a bad cutoff, alpha or beta outside [0, 1].

    Examples
    --------
    >>> frame = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
    ...     "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
    ...     "relevance": [1, 1, 1, None, 1]})
    >>> prm.evaluate_diversity(frame, ["alpha_ndcg@3", "p_ia@2", "strec@1", "map_ia"])
    shape: (1, 4)
    ┌──────────────┬────────┬─────────┬────────┐
    │ alpha_ndcg@3 ┆ p_ia@2 ┆ strec@1 ┆ map_ia │
    │ ---          ┆ ---    ┆ ---     ┆ ---    │
    │ f64          ┆ f64    ┆ f64     ┆ f64    │
    ╞══════════════╪════════╪═════════╪════════╡
    │ 0.902552     ┆ 0.75   ┆ 1.0     ┆ 0.75   │
    └──────────────┴────────┴─────────┴────────┘
    """
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise _errors.parameter("metrics", "at least one metric, e.g. ['alpha_ndcg@20']", [])
    parsed = [(name, parse_diversity(name)) for name in names]
    for param, value in (("alpha", alpha), ("beta", beta)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise _errors.parameter(param, "a real number in [0, 1]", value)
    cols = columns or Columns()
    lf = as_polars(frame, "frame").lazy()
    schema = lf.collect_schema()
    order = cols.rank if cols.rank in schema else cols.score
    keys_by = normalise_by(by)
    for name in (*keys_by, cols.query, cols.item, order, cols.intent, cols.relevance):
        if name not in schema:
            raise _errors.column_not_found(name, "diversity frame", schema.names())
    keys = [*keys_by, cols.query]
    ranked, pairs = _rows(lf, cols, order, relevance_level, keys)
    judged_queries = lf.filter(pl.col(cols.intent).is_not_null() & pl.col(cols.relevance).is_not_null())
    population = judged_queries.select(_key(keys).alias(_Q)).unique().join(ranked.select(_Q).unique(), on=_Q)
    n_intents = pairs.group_by(_Q).agg(pl.col(_J).n_unique().cast(pl.Float64).alias("__a"))
    per_intent = pairs.group_by(_Q, _J).agg(pl.len().cast(pl.Float64).alias("__nrel"))
    hits = pairs.join(ranked, on=[_Q, _I]).with_columns(
        (pl.col(_RANK).rank("ordinal").over(_Q, _J) - 1).alias(_C)
    )
    hits = hits.with_columns(_power(1.0 - alpha, pl.col(_C)).alias(_GAIN)).join(per_intent, on=[_Q, _J])

    deepest = max((m.k or 0 for _, m in parsed if m.name in ("alpha_ndcg", "nerr_ia")), default=0)
    if any(m.name == "nnrbp" for _, m in parsed):
        deepest = max(deepest, int(pairs.select(pl.col(_I).n_unique().over(_Q).max()).collect().item() or 0))
    ideal = _ideal_gains(pairs.collect(), deepest, alpha).lazy() if deepest else None

    values = [_measure(name, m, alpha, beta).alias(name) for name, m in parsed]
    ideal_columns = [
        _discounted(_raw(m), beta).alias("__ideal_" + name)
        for name, m in parsed
        if m.name in ("alpha_ndcg", "nerr_ia", "nnrbp")
    ]
    base = population.join(n_intents, on=_Q, how="left").with_columns(pl.col("__a").fill_null(0.0))
    if ideal is not None and ideal_columns:
        base = base.join(ideal.group_by(_Q).agg(ideal_columns), on=_Q, how="left")
    rows = base.join(hits, on=_Q, how="left")
    per_q = rows.group_by(_Q).agg(
        [v.fill_null(0.0).alias(n) for v, (n, _) in zip(values, parsed, strict=True)]
    )
    per_q = per_q.join(base.select(_Q, "__a"), on=_Q).select(
        pl.col(_Q) if keys_by else pl.col(_Q).alias(cols.query),
        *(pl.when(pl.col("__a") > 0).then(pl.col(n)).otherwise(0.0).alias(n) for n in names),
    )
    if keys_by:
        per_q = per_q.unnest(_Q)
    if per_query:
        return per_q.sort(keys).collect()
    means = [exact_sum(pl.col(n)) / pl.len() for n in names]
    if keys_by:
        return per_q.group_by(keys_by).agg(means).sort(keys_by).collect()
    return per_q.select(means).collect()
