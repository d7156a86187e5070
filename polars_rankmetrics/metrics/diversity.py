"""Intent-aware (diversity) measures of the TREC Web track, as ndeval computes them.

Judgments carry an intent (subtopic): the evaluation frame has one row per
(query, item, intent) for judged items and one row with a null intent for
the unjudged retrieved ones (:func:`polars_rankmetrics.join_run_qrels` of a
run and intent qrels builds it). ndeval (Clarke et al.; version 4.5, the
program behind the Web track's diversity task, wrapped by pyndeval) reads
the judgments as binary (relevant: ``>= relevance_level``) and computes,
for each query with at least one intent judged relevant somewhere (A such
intents):

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

The ranking is the evaluation's one ranking (score descending, ties to the
greater item id); ndeval's own tie order differs (pyndeval sorts ties by
ascending id). A query with no relevant intent scores 0 (ndeval divides 0
by 0 for ``nnrbp``). A frame without an intent column is read as one
intent per query, as ndeval reads a TREC qrels file whose second field is
always 0. The greedy ideal is in :mod:`polars_rankmetrics.metrics._greedy`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import VALUE, GainColumns, exact_sum
from polars_rankmetrics._spec import UNIT, Metric, Table, TableSpec
from polars_rankmetrics.metrics import _greedy
from polars_rankmetrics.metrics._core import keep_relevant
from polars_rankmetrics.metrics._greedy import GAIN, C, J, Q, R

__all__ = ["alpha_ndcg", "err_ia", "map_ia", "nerr_ia", "nnrbp", "nrbp", "p_ia", "strec"]


_NEEDS = frozenset({"intents", "item"})

Value = Callable[[Metric, pl.Expr], pl.Expr]  # (metric, A: the query's relevant intents) -> value


def _alpha(m: Metric) -> float:
    return m.number("alpha") if any(p.name == "alpha" for p in m.spec.params) else 0.5


def _within(m: Metric) -> pl.Expr:
    return pl.col(R) <= (m.k or 0)


def _dcg(m: Metric) -> pl.Expr:
    rank = pl.col(R).cast(pl.Float64)
    return exact_sum(pl.when(_within(m)).then(pl.col(GAIN) * math.log(2.0) / (rank + 1.0).log()))


def _err(m: Metric) -> pl.Expr:
    return exact_sum(pl.when(_within(m)).then(pl.col(GAIN) / pl.col(R).cast(pl.Float64)))


def _rbp(m: Metric) -> pl.Expr:
    return exact_sum(pl.col(GAIN) * _greedy.power0(m.number("beta"), pl.col(R) - 1))


def _table(value: Value, ideal: Callable[[Metric], pl.Expr] | None = None) -> Table:
    """A family's table: its value per query from the retrieved relevant pairs (and the greedy ideal)."""

    def table(m: Metric, _g: GainColumns, frame: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
        relevant = _greedy.pairs(frame, keys).cache()
        base = relevant.group_by(Q).agg(pl.col(J).n_unique().cast(pl.Float64).alias("__a"))
        if ideal is not None:
            best = _greedy.greedy(frame, keys, m.k, _alpha(m))
            base = base.join(best.group_by(Q).agg(ideal(m).alias("__ideal")), on=Q, how="left")
        rows = base.join(_greedy.relevant_hits(relevant, _alpha(m)), on=Q, how="left")
        out = rows.group_by(Q).agg(value(m, pl.col("__a").first()).fill_null(0.0).alias(VALUE))
        if len(keys) > 1:
            return out.select(pl.col(Q).struct.unnest(), VALUE)
        return out.select(pl.col(Q).alias(keys[0]), VALUE)

    return table


def _normalised(raw: Callable[[Metric], pl.Expr]) -> Value:
    """The run's sum over the greedy ideal's: 0 where the run gains nothing, as ndeval."""

    def value(m: Metric, _a: pl.Expr) -> pl.Expr:
        found = raw(m)
        return pl.when(found != 0).then(found / pl.col("__ideal").first())

    return value


def _err_ia(m: Metric, a: pl.Expr) -> pl.Expr:
    k, alpha = m.k or 1, m.number("alpha")
    ideal_ideal = sum((1.0 - alpha) ** i / (i + 1) for i in range(k))
    return _err(m) / (a * ideal_ideal if k > 1 else pl.lit(1.0))


def _nrbp(m: Metric, a: pl.Expr) -> pl.Expr:
    return _rbp(m) * (1.0 - (1.0 - m.number("alpha")) * m.number("beta")) / a


def _p_ia(m: Metric, a: pl.Expr) -> pl.Expr:
    return _within(m).sum().cast(pl.Float64) / (a * float(m.k or 1))


def _strec(m: Metric, a: pl.Expr) -> pl.Expr:
    return pl.col(J).filter(_within(m)).n_unique().cast(pl.Float64) / a


def _map_ia(_m: Metric, a: pl.Expr) -> pl.Expr:
    return exact_sum((pl.col(C) + 1.0) / pl.col(R).cast(pl.Float64) / pl.col("__nrel")) / a


def _spec(
    name: str,
    aliases: tuple[str, ...],
    *,
    value: Value,
    ideal: Callable[[Metric], pl.Expr] | None = None,
) -> TableSpec:
    return TableSpec(
        name=name,
        aliases=aliases,
        needs=_NEEDS,
        unretrieved=True,
        keep=keep_relevant,
        table=_table(value, ideal),
    )


ALPHA_NDCG = _spec(
    "alpha_ndcg",
    ("alpha-nDCG", "alpha_nDCG"),
    value=_normalised(_dcg),
    ideal=_dcg,
)
ERR_IA = _spec("err_ia", ("ERR-IA", "ERR_IA"), value=_err_ia)
NERR_IA = _spec("nerr_ia", ("nERR-IA", "nERR_IA"), value=_normalised(_err), ideal=_err)
NRBP = _spec("nrbp", ("NRBP",), value=_nrbp)
NNRBP = _spec("nnrbp", ("nNRBP",), value=_normalised(_rbp), ideal=_rbp)
P_IA = _spec("p_ia", ("P-IA", "P_IA"), value=_p_ia)
STREC = _spec("strec", ("StRecall",), value=_strec)
MAP_IA = _spec("map_ia", ("MAP-IA", "MAP_IA", "AP_IA"), value=_map_ia)


@constructor(ALPHA_NDCG)
def alpha_ndcg(k: int, *, alpha: Annotated[float, UNIT] = 0.5) -> Metric:
    """alpha-nDCG at k (Clarke et al., SIGIR 2008): intent-aware DCG over the greedy ideal's.

    ``sum_{i<=k} gain_i / log2(i + 1)`` over the same sum for ndeval's greedy ideal ranking, with
    ``gain_i = sum_j (1 - alpha) ** c_j`` over the intents j of the item at rank i (c_j: the items
    above it relevant to j). ndeval's ``alpha-nDCG@k``, ir_measures' ``alpha_nDCG@k``. Read on a frame with an
    intent column (:mod:`polars_rankmetrics.metrics.diversity`); a query
    without a relevant intent scores 0.

    Parameters
    ----------
    k
        The cutoff.
    alpha
        The redundancy intolerance, in [0, 1]: a gain shrinks by ``1 - alpha`` per item
        above relevant to the same intent.

    Returns
    -------
    Metric
        ``alpha_ndcg@k``, averaged over queries.

    Examples
    --------
    >>> frame = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
    ...     "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
    ...     "relevance": [1, 1, 1, None, 1]})
    >>> prm.evaluate(frame, [prm.alpha_ndcg(3), "ndcg@3"])
    shape: (1, 2)
    ┌──────────────┬──────────┐
    │ alpha_ndcg@3 ┆ ndcg@3   │
    │ ---          ┆ ---      │
    │ f64          ┆ f64      │
    ╞══════════════╪══════════╡
    │ 0.902552     ┆ 0.765361 │
    └──────────────┴──────────┘
    """


@constructor(ERR_IA)
def err_ia(k: int, *, alpha: Annotated[float, UNIT] = 0.5) -> Metric:
    """Intent-aware expected reciprocal rank at k, normalised as ndeval does (by the ideal ideal).

    ``sum_{i<=k} gain_i / i`` over ``A * sum_{i<=k} (1 - alpha) ** (i - 1) / i`` (A: the query's
    relevant intents; at k = 1 the sum undivided, as ndeval). ndeval's ``ERR-IA@k``. Read on a frame with an
    intent column (:mod:`polars_rankmetrics.metrics.diversity`); a query
    without a relevant intent scores 0.

    Parameters
    ----------
    k
        The cutoff.
    alpha
        The redundancy intolerance, in [0, 1]: a gain shrinks by ``1 - alpha`` per item
        above relevant to the same intent.

    Returns
    -------
    Metric
        ``err_ia@k``, averaged over queries.

    Examples
    --------
    >>> frame = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
    ...     "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
    ...     "relevance": [1, 1, 1, None, 1]})
    >>> prm.evaluate(frame, [prm.err_ia(3), "ndcg@3"])
    shape: (1, 2)
    ┌──────────┬──────────┐
    │ err_ia@3 ┆ ndcg@3   │
    │ ---      ┆ ---      │
    │ f64      ┆ f64      │
    ╞══════════╪══════════╡
    │ 0.84375  ┆ 0.765361 │
    └──────────┴──────────┘
    """


@constructor(NERR_IA)
def nerr_ia(k: int, *, alpha: Annotated[float, UNIT] = 0.5) -> Metric:
    """Intent-aware expected reciprocal rank at k over the greedy ideal ranking's.

    ``sum_{i<=k} gain_i / i`` over the same sum for ndeval's greedy ideal. ndeval's ``nERR-IA@k``.
    Read on a frame with an intent column (:mod:`polars_rankmetrics.metrics.diversity`); a query
    without a relevant intent scores 0.

    Parameters
    ----------
    k
        The cutoff.
    alpha
        The redundancy intolerance, in [0, 1]: a gain shrinks by ``1 - alpha`` per item
        above relevant to the same intent.

    Returns
    -------
    Metric
        ``nerr_ia@k``, averaged over queries.

    Examples
    --------
    >>> frame = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
    ...     "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
    ...     "relevance": [1, 1, 1, None, 1]})
    >>> prm.evaluate(frame, [prm.nerr_ia(3), "ndcg@3"])
    shape: (1, 2)
    ┌───────────┬──────────┐
    │ nerr_ia@3 ┆ ndcg@3   │
    │ ---       ┆ ---      │
    │ f64       ┆ f64      │
    ╞═══════════╪══════════╡
    │ 0.931034  ┆ 0.765361 │
    └───────────┴──────────┘
    """


@constructor(NRBP)
def nrbp(*, alpha: Annotated[float, UNIT] = 0.5, beta: Annotated[float, UNIT] = 0.5) -> Metric:
    """Novelty- and rank-biased precision (Clarke et al., ICTIR 2009) over the whole ranking.

    ``(1 - (1 - alpha) beta) / A * sum_i gain_i beta ** (i - 1)``. ndeval's ``NRBP``. Read on a frame with an
    intent column (:mod:`polars_rankmetrics.metrics.diversity`); a query
    without a relevant intent scores 0.

    Parameters
    ----------
    alpha
        The redundancy intolerance, in [0, 1]: a gain shrinks by ``1 - alpha`` per item
        above relevant to the same intent.
    beta
        The patience, in [0, 1]: the weight of rank i is ``beta ** (i - 1)``.

    Returns
    -------
    Metric
        ``nrbp``, averaged over queries.

    Examples
    --------
    >>> frame = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
    ...     "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
    ...     "relevance": [1, 1, 1, None, 1]})
    >>> prm.evaluate(frame, [prm.nrbp(), "ndcg@3"])
    shape: (1, 2)
    ┌─────────┬──────────┐
    │ nrbp    ┆ ndcg@3   │
    │ ---     ┆ ---      │
    │ f64     ┆ f64      │
    ╞═════════╪══════════╡
    │ 0.84375 ┆ 0.765361 │
    └─────────┴──────────┘
    """


@constructor(NNRBP)
def nnrbp(*, alpha: Annotated[float, UNIT] = 0.5, beta: Annotated[float, UNIT] = 0.5) -> Metric:
    """NRBP over the greedy ideal ranking's (ndeval's ``nNRBP``).

    ``sum_i gain_i beta ** (i - 1)`` over the same sum for ndeval's greedy ideal ranking.
    Read on a frame with an intent column (:mod:`polars_rankmetrics.metrics.diversity`); a query
    without a relevant intent scores 0.

    Parameters
    ----------
    alpha
        The redundancy intolerance, in [0, 1]: a gain shrinks by ``1 - alpha`` per item
        above relevant to the same intent.
    beta
        The patience, in [0, 1]: the weight of rank i is ``beta ** (i - 1)``.

    Returns
    -------
    Metric
        ``nnrbp``, averaged over queries.

    Examples
    --------
    >>> frame = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
    ...     "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
    ...     "relevance": [1, 1, 1, None, 1]})
    >>> prm.evaluate(frame, [prm.nnrbp(), "ndcg@3"])
    shape: (1, 2)
    ┌──────────┬──────────┐
    │ nnrbp    ┆ ndcg@3   │
    │ ---      ┆ ---      │
    │ f64      ┆ f64      │
    ╞══════════╪══════════╡
    │ 0.947368 ┆ 0.765361 │
    └──────────┴──────────┘
    """


@constructor(P_IA)
def p_ia(k: int) -> Metric:
    """Intent-aware precision at k (Agrawal et al., WSDM 2009).

    Relevant (item, intent) pairs in the top k over ``k * A``. ndeval's ``P-IA@k``. Read on a frame with an
    intent column (:mod:`polars_rankmetrics.metrics.diversity`); a query
    without a relevant intent scores 0.

    Parameters
    ----------
    k
        The cutoff.

    Returns
    -------
    Metric
        ``p_ia@k``, averaged over queries.

    Examples
    --------
    >>> frame = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
    ...     "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
    ...     "relevance": [1, 1, 1, None, 1]})
    >>> prm.evaluate(frame, [prm.p_ia(2), "ndcg@3"])
    shape: (1, 2)
    ┌────────┬──────────┐
    │ p_ia@2 ┆ ndcg@3   │
    │ ---    ┆ ---      │
    │ f64    ┆ f64      │
    ╞════════╪══════════╡
    │ 0.75   ┆ 0.765361 │
    └────────┴──────────┘
    """


@constructor(STREC)
def strec(k: int) -> Metric:
    """Subtopic recall at k (Zhai et al., SIGIR 2003): the share of the query's intents covered.

    Intents with a relevant item in the top k over A. ndeval's ``strec@k``, ir_measures' ``StRecall@k``.
    Read on a frame with an intent column (:mod:`polars_rankmetrics.metrics.diversity`); a query
    without a relevant intent scores 0.

    Parameters
    ----------
    k
        The cutoff.

    Returns
    -------
    Metric
        ``strec@k``, averaged over queries.

    Examples
    --------
    >>> frame = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
    ...     "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
    ...     "relevance": [1, 1, 1, None, 1]})
    >>> prm.evaluate(frame, [prm.strec(1), "ndcg@3"])
    shape: (1, 2)
    ┌─────────┬──────────┐
    │ strec@1 ┆ ndcg@3   │
    │ ---     ┆ ---      │
    │ f64     ┆ f64      │
    ╞═════════╪══════════╡
    │ 1.0     ┆ 0.765361 │
    └─────────┴──────────┘
    """


@constructor(MAP_IA)
def map_ia() -> Metric:
    """Intent-aware mean average precision: the mean over intents of each intent's average precision.

    ``1 / A * sum_j AP_j``, AP_j read with the items relevant to j as the relevant ones. ndeval's
    ``MAP-IA``. Read on a frame with an
    intent column (:mod:`polars_rankmetrics.metrics.diversity`); a query
    without a relevant intent scores 0.

    Returns
    -------
    Metric
        ``map_ia``, averaged over queries.

    Examples
    --------
    >>> frame = pl.DataFrame({"query": ["1"] * 5, "item": ["d1", "d1", "d2", "d3", "d4"],
    ...     "score": [3.0, 3.0, 2.0, 1.0, None], "intent": ["a", "b", "a", None, "b"],
    ...     "relevance": [1, 1, 1, None, 1]})
    >>> prm.evaluate(frame, [prm.map_ia(), "ndcg@3"])
    shape: (1, 2)
    ┌────────┬──────────┐
    │ map_ia ┆ ndcg@3   │
    │ ---    ┆ ---      │
    │ f64    ┆ f64      │
    ╞════════╪══════════╡
    │ 0.75   ┆ 0.765361 │
    └────────┴──────────┘
    """


SPECS = (
    spec_of(alpha_ndcg),
    spec_of(err_ia),
    spec_of(nerr_ia),
    spec_of(nrbp),
    spec_of(nnrbp),
    spec_of(p_ia),
    spec_of(strec),
    spec_of(map_ia),
)
