"""The diversity suite's earlier entry points, kept as thin aliases over the one evaluation.

The intent-aware measures (``alpha_ndcg@k``, ``err_ia@k``, ``nerr_ia@k``,
``nrbp``, ``nnrbp``, ``p_ia@k``, ``strec@k``, ``map_ia``) are metric
families like the others (:mod:`polars_rankmetrics.metrics.diversity`):
:func:`polars_rankmetrics.evaluate` computes them, beside any other metric,
on a frame with an intent column. These three functions say the same in
the words of the earlier interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from polars_rankmetrics import _engine
from polars_rankmetrics._declare import spec_of
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._registry import parse
from polars_rankmetrics._schema import Columns, ColumnsLike
from polars_rankmetrics._spec import Metric
from polars_rankmetrics.evaluation import evaluate
from polars_rankmetrics.exceptions import ColumnNotFoundError, InvalidParameterError
from polars_rankmetrics.io import join_run_qrels, read_trec_qrels
from polars_rankmetrics.metrics.diversity import nrbp

__all__ = ["evaluate_diversity", "join_intents", "read_ndeval_qrels"]


def read_ndeval_qrels(source: str | Path) -> pl.DataFrame:
    r"""Read ndeval's intent qrels: ``query intent item relevance`` per line, whitespace-separated.

    The strict TREC qrels reader with the second field kept as the intent:
    ``prm.read_trec_qrels(source, intents=True)``.

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
        naming the file and the line.

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
    return read_trec_qrels(source, intents=True)


def join_intents(
    run: pl.DataFrame,
    qrels: pl.DataFrame,
    *,
    by: str | Sequence[str] | None = None,
    columns: ColumnsLike = None,
) -> pl.DataFrame:
    """Join a run to intent qrels: :func:`join_run_qrels` of DataFrames, whose qrels have an intent column.

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
        One row per (query, item, intent) for the judged items (a null score
        for those never retrieved) and one with a null intent and relevance
        for each retrieved item without a judgment.

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
    cols = Columns.of(columns)
    if cols.intent not in qrels.columns:
        raise ColumnNotFoundError.from_missing_and_available(
            cols.intent, "intent", qrels.columns, where="the qrels"
        )
    joined = join_run_qrels(run, qrels, by=by, columns=columns)
    return joined if isinstance(joined, pl.DataFrame) else _engine.collect(joined)


def _with(metric: Metric, alpha: float, beta: float) -> Metric:
    """`metric` with the evaluation's alpha and beta, where its family takes them."""
    taken = {p.name for p in metric.spec.params}
    values = {name: value for name, value in (("alpha", alpha), ("beta", beta)) if name in taken}
    return Metric(metric.spec, metric.k, **values) if values else metric


def evaluate_diversity(  # noqa: PLR0913
    frame: pl.DataFrame | pl.LazyFrame,
    metrics: str | Sequence[str],
    *,
    alpha: float = 0.5,
    beta: float = 0.5,
    relevance_level: float = 1,
    by: str | Sequence[str] | None = None,
    per_query: bool = False,
    columns: ColumnsLike = None,
) -> pl.DataFrame:
    """Evaluate rankings with ndeval's intent-aware measures: :func:`evaluate` with one alpha and beta.

    ``evaluate_diversity(frame, ["alpha_ndcg@20"], alpha=0.3)`` is
    ``evaluate(frame, [prm.alpha_ndcg(20, alpha=0.3)])`` with the columns
    named as written; :mod:`polars_rankmetrics.metrics.diversity` defines
    the measures.

    Parameters
    ----------
    frame
        One row per (query, item, intent): query, item, score (or rank;
        null for judged items never retrieved), intent and relevance (null
        for retrieved items without a judgment); :func:`join_run_qrels` builds it.
    metrics
        ``alpha_ndcg@k``, ``err_ia@k``, ``nerr_ia@k``, ``nrbp``, ``nnrbp``,
        ``p_ia@k``, ``map_ia``, ``strec@k``; ndeval's spellings
        (``alpha-nDCG@20``, ``ERR-IA@20``, ``P-IA@5``...) and ir_measures'
        (``alpha_nDCG@20``, ``StRecall@5``...) too; any other metric name.
        Columns are named as written.
    alpha, beta
        ndeval's redundancy intolerance (alpha-nDCG, ERR-IA, NRBP) and
        patience (NRBP), 0.5 each by default, for every measure taking them.
    relevance_level
        Judgments ``>=`` it are relevant (ndeval: any positive judgment).
    by, per_query, columns
        As for :func:`evaluate`.

    Returns
    -------
    pl.DataFrame
        The mean of each measure over the queries both judged and retrieved
        (ndeval's population) per `by` group, or one row per such (by...,
        query), sorted.

    Raises
    ------
    RankMetricsError
        An unknown measure, a bad cutoff, alpha or beta outside [0, 1], a
        frame without the intent column (:func:`evaluate` reads such a frame
        as one intent per query; this function asks for intents).

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
        raise InvalidParameterError.out_of_domain(
            "metrics", "at least one metric, e.g. ['alpha_ndcg@20']", []
        )
    alpha_param, beta_param = spec_of(nrbp).params
    checked = alpha_param.check(alpha, "evaluate_diversity"), beta_param.check(beta, "evaluate_diversity")
    frame = as_polars(frame, "frame")
    names_in = frame.collect_schema().names()
    intent = Columns.of(columns).intent
    if intent not in names_in:  # evaluate reads a frame without one as one intent per query; this asks for it
        raise ColumnNotFoundError.from_missing_and_available(intent, "intent", names_in)
    chosen = {name: _with(parse(name), *checked) for name in names}  # type: ignore[arg-type]
    unique = list(dict.fromkeys(chosen.values()))
    level = relevance_level
    if isinstance(frame, pl.LazyFrame):
        lazy = evaluate(frame, unique, by=by, per_query=per_query, columns=columns, relevance_level=level)
        out = _engine.collect(lazy)
    else:  # a DataFrame is evaluated as one: it warns as evaluate(DataFrame) does
        out = evaluate(frame, unique, by=by, per_query=per_query, columns=columns, relevance_level=level)
    keys = [c for c in out.columns if c not in {str(m) for m in unique}]
    return out.select(*keys, *(pl.col(str(m)).alias(name) for name, m in chosen.items()))
