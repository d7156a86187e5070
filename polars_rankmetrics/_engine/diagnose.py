"""Warnings for results that are numbers but probably not the ones meant (issue: loud degenerate results).

A DataFrame evaluation carries a few hidden counts through its own plan
(no extra pass over the data), reads them after collecting and drops them:

- no query evaluated (with the population counts of why: run and qrels
  sharing no query id is the common cause);
- every retrieved item unjudged in a `by` group (every metric is 0);
- coverage with the default catalog at 1.0, which it is by construction
  when `k` covers every list;
- a frame with the signature of an inner join of run and judgments (every
  row both retrieved and judged, in every query) read by metrics that need
  the judged items never retrieved (recall, AP, nDCG...).

A LazyFrame's plan cannot warn when it runs (its expressions are pure);
:func:`polars_rankmetrics.population` gives the same counts on request.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl

from polars_rankmetrics import _quote
from polars_rankmetrics._engine.plan import NamedMetrics
from polars_rankmetrics._engine.plan_checks import DIAGNOSTICS, JUDGED_RETRIEVED, PARTIAL
from polars_rankmetrics._spec import CatalogSpec
from polars_rankmetrics.exceptions import InnerJoinWarning, RankMetricsWarning

__all__ = ["DIAGNOSTICS", "JUDGED_RETRIEVED", "hidden", "warn", "warn_empty"]

QUERIES = "__prm_diag_queries"
_PACKAGE = str(Path(__file__).resolve().parents[1])


def _outside() -> int:
    """The ``stacklevel`` of the first caller outside the package, for the function that warns."""
    frame, level = sys._getframe(1), 1  # noqa: SLF001  (the documented way to walk the stack)
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def hidden(*, has_relevance: bool) -> list[pl.Expr]:
    """The aggregations carried beside the metrics, one row per `by` group."""
    out = [pl.len().alias(QUERIES)]
    if has_relevance:
        out.append(pl.col(JUDGED_RETRIEVED).sum().alias(JUDGED_RETRIEVED))
        out.append((pl.col(PARTIAL) > 0).sum().alias(PARTIAL))  # queries with an unjudged or unretrieved row
    return out


def warn(
    result: pl.DataFrame,
    metrics: NamedMetrics,
    keys_by: Sequence[str],
    *,
    per_query: bool,
    longest_list: Callable[[], int],
) -> pl.DataFrame:
    """Warn about degenerate results and return `result` without the hidden columns.

    `longest_list` gives the length of the longest ranked list (read only when
    a default-catalog coverage is 1.0, to tell whether it is so by construction).
    """
    hidden_columns = [c for c in (QUERIES, *DIAGNOSTICS) if c in result.columns]
    if PARTIAL in result.columns:
        _warn_inner_join(result, metrics)
    if per_query and JUDGED_RETRIEVED in result.columns:
        groups = result.group_by(list(keys_by)).agg(pl.col(JUDGED_RETRIEVED).sum()) if keys_by else None
        total = result[JUDGED_RETRIEVED].sum() if groups is None else None
        _warn_unjudged(groups, total, result.height, keys_by)
    elif JUDGED_RETRIEVED in result.columns:
        unjudged = result.filter((pl.col(JUDGED_RETRIEVED) == 0) & (pl.col(QUERIES) > 0))
        if unjudged.height:
            where = _groups(unjudged, keys_by)
            queries = int(unjudged[QUERIES].sum())
            msg = (
                f"every retrieved item is unjudged{where} ({queries} evaluated queries): "
                "every metric reads 0; are the run's item ids spelled as the judgments' are?"
            )
            warnings.warn(msg, RankMetricsWarning, stacklevel=_outside())
    for name, metric in metrics:
        saturates = isinstance(metric.spec, CatalogSpec) and metric.spec.saturates
        side = metric.side("catalog") if saturates else False
        if (side is None or isinstance(side, str)) and name in result.columns:
            full = result.filter(pl.col(name) == 1.0)
            if full.height and (metric.k is None or metric.k >= longest_list()):
                msg = (
                    f"{name} is 1.0{_groups(full, keys_by)} by construction: with the catalog taken from the "
                    "lists (the items ranked anywhere, or in the group) every ranked item is recommended "
                    "when k covers every list; "
                    "pass catalog= (the items that could be recommended)"
                )
                warnings.warn(msg, RankMetricsWarning, stacklevel=_outside())
    return result.drop(hidden_columns)


def _warn_inner_join(result: pl.DataFrame, metrics: NamedMetrics) -> None:
    """Warn when every evaluated query's rows are all retrieved and judged and a metric needs the others."""
    needing = [name for name, metric in metrics if metric.spec.unretrieved]
    counted = result.filter(pl.col(QUERIES) > 0) if QUERIES in result.columns else result
    if not needing or counted.height == 0 or counted.select((pl.col(PARTIAL) > 0).any()).item():
        return
    shown = ", ".join(needing[:5]) + (f" and {len(needing) - 5} more" if len(needing) > 5 else "")
    msg = (
        "every row of every query is both retrieved and judged, the signature of an inner join of "
        f"the run and the judgments, but the metrics {shown} also read the judged items the run "
        "did not retrieve, which such a join drops (recall, AP and the ideal DCG would be too high). "
        "Build the frame with prm.join_run_qrels(run, qrels), or pass the judgments as "
        "evaluate(run, ..., qrels=qrels); if the frame really holds every judged item, filter "
        "prm.InnerJoinWarning"
    )
    warnings.warn(msg, InnerJoinWarning, stacklevel=_outside())


def _warn_unjudged(groups: pl.DataFrame | None, total: object, height: int, keys_by: Sequence[str]) -> None:
    if groups is not None:
        empty = groups.filter(pl.col(JUDGED_RETRIEVED) == 0)
        if empty.height:
            msg = f"every retrieved item is unjudged{_groups(empty, keys_by)}: every metric reads 0"
            warnings.warn(msg, RankMetricsWarning, stacklevel=_outside())
    elif height and total == 0:
        msg = f"every retrieved item is unjudged ({height} evaluated queries): every metric reads 0"
        warnings.warn(msg, RankMetricsWarning, stacklevel=_outside())


def _groups(frame: pl.DataFrame, keys_by: Sequence[str]) -> str:
    if not keys_by:
        return ""
    shown = [
        ", ".join(f"{k}={_quote.shown(row[k])}" for k in keys_by)
        for row in frame.head(5).iter_rows(named=True)
    ]
    more = f" and {frame.height - 5} more" if frame.height > 5 else ""
    return f" in {'; '.join(shown)}{more}"


def warn_empty(population: pl.DataFrame) -> None:
    """Warn that no query was evaluated, saying why from the population counts."""
    counts = {c: int(population[c].sum()) for c in ("queries", "run_only", "qrels_only")}
    if counts["run_only"] and counts["qrels_only"]:
        why = (
            f"the run and the judgments share no query id ({counts['run_only']} queries only in the run, "
            f"{counts['qrels_only']} only in the judgments; ids are compared as values: '01' is not '1')"
        )
    elif counts["run_only"]:
        why = f"none of the {counts['queries']} queries has a judged row"
    elif counts["qrels_only"]:
        why = (
            f"none of the {counts['queries']} judged queries retrieved an item (missing='zero' scores them 0)"
        )
    else:
        why = "the frame holds no query"
    warnings.warn(
        f"no query was evaluated: {why}; prm.population(frame) counts each case",
        RankMetricsWarning,
        stacklevel=_outside(),
    )
