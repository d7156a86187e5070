"""from_id_lists(): a RAG evaluation set (retrieved ids and reference ids per question) as a run and qrels."""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidInputError,
)

__all__ = ["from_id_lists"]


def _list_column(schema: pl.Schema, name: str, role: str) -> None:
    if name not in schema:
        raise ColumnNotFoundError.from_missing_and_available(name, role, schema.names())
    if not isinstance(schema[name], pl.List):
        raise ColumnTypeError.from_dtype(name, role, "a list of ids", schema[name])


def from_id_lists(
    samples: pl.DataFrame | pl.LazyFrame,
    *,
    query: str = "query",
    retrieved: str = "retrieved_ids",
    reference: str = "reference_ids",
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A run and judgments from lists of ids, as RAG frameworks hold them (Ragas, LlamaIndex).

    Each row is one question: the ids its retriever returned, best first
    (Ragas' ``retrieved_context_ids``, LlamaIndex's ``retrieved_ids``), and
    the ids that answer it (``reference_context_ids``, ``expected_ids``).

    The rule for a repeated id: a ranking lists an item once, so an id the
    retriever returned several times counts once, at its first position,
    and the positions close up (``[a, x, a, b]`` ranks a, x, b at 1, 2, 3);
    the run's ``copies`` column says how many times each id came. Every
    metric then stays within [0, 1]. LlamaIndex's position-based metrics
    (MRR, AP, NDCG, the granular hit rate) read every copy, so a repeated
    id can take its AP and NDCG above 1; its set-based ones (hit rate,
    precision, recall) and Ragas' ID-based context precision and recall
    read each id once, as here. A repeated reference id is one judgment.

    Parameters
    ----------
    samples
        One row per question: the `query` column and two list columns.
    query, retrieved, reference
        The column names.

    Returns
    -------
    tuple of pl.DataFrame
        The run (query, item, rank from 1, copies) and the judgments (query,
        item, relevance 1), for ``prm.evaluate(run, metrics, qrels=qrels,
        preset="ragas")``. A question with no reference id has no judgment
        and is not evaluated (Ragas gives NaN, LlamaIndex raises); one with
        no retrieved id is skipped (``missing="zero"`` scores it 0).

    Raises
    ------
    ColumnNotFoundError, ColumnTypeError
        A column missing, or not a list.
    InvalidDataError
        A null or repeated question, a null id.

    See Also
    --------
    evaluate : with ``preset="llamaindex"`` or ``preset="ragas"``.
    join_run_qrels : the same frame from a run and judgments in long form.

    Examples
    --------
    >>> samples = pl.DataFrame({"query": ["q1", "q2"],
    ...     "retrieved_ids": [["a", "x", "a", "b"], ["c"]], "reference_ids": [["a", "b"], ["d"]]})
    >>> run, qrels = prm.from_id_lists(samples)
    >>> run
    shape: (4, 4)
    ┌───────┬──────┬──────┬────────┐
    │ query ┆ item ┆ rank ┆ copies │
    │ ---   ┆ ---  ┆ ---  ┆ ---    │
    │ str   ┆ str  ┆ u32  ┆ u32    │
    ╞═══════╪══════╪══════╪════════╡
    │ q1    ┆ a    ┆ 1    ┆ 2      │
    │ q1    ┆ x    ┆ 2    ┆ 1      │
    │ q1    ┆ b    ┆ 3    ┆ 1      │
    │ q2    ┆ c    ┆ 1    ┆ 1      │
    └───────┴──────┴──────┴────────┘
    >>> prm.evaluate(run, ["precision", "recall", "mrr", "ap"], qrels=qrels, preset="llamaindex")
    shape: (1, 4)
    ┌───────────┬────────┬─────┬──────────┐
    │ precision ┆ recall ┆ mrr ┆ ap       │
    │ ---       ┆ ---    ┆ --- ┆ ---      │
    │ f64       ┆ f64    ┆ f64 ┆ f64      │
    ╞═══════════╪════════╪═════╪══════════╡
    │ 0.333333  ┆ 0.5    ┆ 0.5 ┆ 0.416667 │
    └───────────┴────────┴─────┴──────────┘
    """
    for flag, name in (("query", query), ("retrieved", retrieved), ("reference", reference)):
        if not isinstance(name, str):
            raise InvalidInputError.from_type(flag, "a column name (str)", name)
    frame = as_polars(samples, "samples").lazy()
    schema = frame.collect_schema()
    if query not in schema:
        raise ColumnNotFoundError.from_missing_and_available(query, "question", schema.names())
    _list_column(schema, retrieved, "retrieved ids")
    _list_column(schema, reference, "reference ids")
    df = frame.select(query, retrieved, reference).collect()
    if df.get_column(query).null_count():
        raise InvalidDataError.null_values(query, "every row needs a question")
    if df.get_column(query).is_duplicated().any():
        twice = df.filter(pl.col(query).is_duplicated()).get_column(query)[0]
        raise InvalidDataError.repeated_value(f"column {query!r}", "question", twice)
    ids = []
    for column in (retrieved, reference):
        exploded = (
            df.select(
                query, pl.col(column).alias("item"), pl.int_ranges(pl.col(column).list.len()).alias("__prm_p")
            )
            .explode("item", "__prm_p")
            .filter(pl.col("__prm_p").is_not_null())
        )
        if exploded.get_column("item").null_count():
            raise InvalidDataError.null_values(column, "every listed id must be one", what="id(s)")
        ids.append(exploded)
    first = ids[0].group_by(query, "item").agg(pl.col("__prm_p").min(), pl.len().alias("copies"))
    run = first.select(
        query, "item", pl.col("__prm_p").rank("ordinal").over(query).alias("rank"), "copies"
    ).sort(query, "rank")
    qrels = ids[1].select(query, "item").unique().with_columns(pl.lit(1, pl.Int64).alias("relevance"))
    return run, qrels.sort(query, "item")
