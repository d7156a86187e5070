"""Graded metrics: discounted cumulative gain and its normalised form."""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows, ratio
from polars_rankmetrics._spec import TREC_CUTOFFS, Metric, QuerySpec, Spellings, TieSupport, TrecMeasure
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.metrics._core import discount, discount_sum, within
from polars_rankmetrics.metrics._ties import expected_dcg_at

__all__ = ["dcg", "ndcg"]


def dcg_at(rows: Rows, k: int | None) -> pl.Expr:
    """DCG of the retrieved items within the top `k`."""
    # One term per retrieved item of non-zero gain, shared by every cutoff.
    kind = rows.conventions.dcg_discount
    term = pl.when(rows.rank.is_not_null() & (rows.gain != 0)).then(rows.gain / discount(rows.rank, kind))
    return rows.gain_sum(term, within(rows, k))


def idcg_at(rows: Rows, k: int | None) -> pl.Expr:
    """Ideal DCG: every judged item of positive gain, best first, within the top `k`.

    Under ``ideal="k_slots"`` (RecTools) the ideal list fills all k slots with the query's top gain.
    """
    kind = rows.conventions.dcg_discount
    if rows.conventions.ideal == "k_slots" and k is not None:
        top = rows.gain.max().cast(pl.Float64).fill_null(0.0)
        return pl.when(top > 0).then(top * discount_sum(k, kind)).otherwise(0.0)
    ideal = rows.ideal_rank
    return rows.gain_sum(rows.gain / discount(ideal, kind), None if k is None else ideal <= k)


def judged_ideal_only(_m: Metric, conventions: Conventions) -> str | None:
    """The refusal of a family with trec_eval's own ideal list and discount (G, ndcg_rel, Rndcg)."""
    if conventions.ideal != "judged":
        return f"does not take ideal={conventions.ideal!r}: its ideal list is trec_eval's, the judged items"
    if conventions.dcg_discount != "log2":
        return f"does not take dcg_discount={conventions.dcg_discount!r}: it is trec_eval's, log2(rank + 1)"
    return None


def _ndcg_refuse(m: Metric, conventions: Conventions) -> str | None:
    if conventions.ideal == "k_slots" and m.k is None:
        return "needs a cutoff under ideal='k_slots' (the ideal list fills k slots): write ndcg@k"
    return None


def keep_gain(_m: Metric, rows: Rows) -> pl.Expr:
    """Keep the rows of non-zero gain (the graded families' rows)."""
    return rows.gain != 0


def _dcg(m: Metric, rows: Rows) -> pl.Expr:
    return dcg_at(rows, m.k)


def _expected_dcg(m: Metric, rows: Rows) -> pl.Expr:
    return expected_dcg_at(rows, m.k)


def _expected_ndcg(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(expected_dcg_at(rows, m.k), idcg_at(rows, m.k))


DCG = QuerySpec(
    name="dcg",
    measures=(TrecMeasure("dcg", 21, "pairs"),),
    top_k_only=True,
    needs=frozenset({"gain"}),
    keep=keep_gain,
    value=_dcg,
    ties=TieSupport(extremal=True, average=_expected_dcg),
    spellings=Spellings(recommenders=("DCG",)),
)


def _ndcg(m: Metric, rows: Rows) -> pl.Expr:
    # trec_eval: the ideal list holds every judged item of positive gain,
    # retrieved or not; without a cutoff it is not truncated to num_ret.
    return ratio(dcg_at(rows, m.k), idcg_at(rows, m.k))


NDCG = QuerySpec(
    name="ndcg",
    measures=(TrecMeasure("ndcg", 22, "pairs"), TrecMeasure("ndcg_cut", 25, "cutoffs", TREC_CUTOFFS)),
    spellings=Spellings(
        recommenders=("NDCG", "retrieval_normalized_dcg"),
        ir_measures=("nDCG",),
        torchmetrics=("RetrievalNormalizedDCG",),
    ),
    top_k_only=True,
    unretrieved=True,
    needs=frozenset({"gain", "ideal_rank"}),
    trec=("ndcg_cut_{k}", "ndcg"),
    keep=keep_gain,
    value=_ndcg,
    ties=TieSupport(extremal=True, average=_expected_ndcg),
    refuse=_ndcg_refuse,
)


@constructor(DCG)
def dcg(k: int | None = None, *, gain: Mapping[float, float] | None = None) -> Metric:
    """Discounted cumulative gain of the top `k`: ``sum gain / log2(rank + 1)``.

    Gains follow the ``gain`` convention of :func:`evaluate` (the grade by
    default); unjudged items and negative grades gain 0.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list.
    gain
        A ``{grade: gain}`` mapping for this metric alone (name
        ``dcg(1=3,2=9)@k``); None uses the evaluation's ``gain`` convention.

    Returns
    -------
    Metric
        ``dcg@k``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [0.9, 0.5, 0.1], "relevance": [0, 2, 1]})
    >>> prm.evaluate(df, [prm.dcg(3)]).with_columns(pl.col("dcg@3").round(4))
    shape: (1, 1)
    ┌────────┐
    │ dcg@3  │
    │ ---    │
    │ f64    │
    ╞════════╡
    │ 1.7619 │
    └────────┘
    """


@constructor(NDCG)
def ndcg(k: int | None = None, *, gain: Mapping[float, float] | None = None) -> Metric:
    """Normalised discounted cumulative gain: ``DCG@k / IDCG@k``.

    Linear gain by default (Järvelin and Kekäläinen, 2002), ``log2(rank + 1)``
    discount. The ideal ranking orders every judged item of the query by
    gain, retrieved or not, as trec_eval does. 0 when the ideal DCG is 0.

    Parameters
    ----------
    k
        Cutoff; None uses the whole list (trec_eval ``ndcg``).
    gain
        A ``{grade: gain}`` mapping for this metric alone (trec_eval
        ``ndcg.1=3,2=9``, name ``ndcg(1=3,2=9)``); None uses the evaluation's
        ``gain`` convention. Unmapped grades keep their linear gain.

    Returns
    -------
    Metric
        ``ndcg@k``, averaged over queries; trec_eval names ``ndcg_cut_k``
        and ``ndcg``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": ["q1", "q1", "q1", "q2", "q2"],
    ...     "item": ["a", "b", "c", "a", "d"], "score": [0.9, 0.5, 0.1, 0.8, None],
    ...     "relevance": [0, 1, 1, 0, 1]})
    >>> prm.evaluate(df, [prm.ndcg(2)], per_query=True).with_columns(pl.col("ndcg@2").round(4))
    shape: (2, 2)
    ┌───────┬────────┐
    │ query ┆ ndcg@2 │
    │ ---   ┆ ---    │
    │ str   ┆ f64    │
    ╞═══════╪════════╡
    │ q1    ┆ 0.3869 │
    │ q2    ┆ 0.0    │
    └───────┴────────┘
    """


SPECS = (spec_of(dcg), spec_of(ndcg))
