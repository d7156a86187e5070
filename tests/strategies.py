"""Hypothesis strategies for evaluation frames (the frame contract of prm.Columns).

Every frame follows the frame contract: one row per (model, query, item),
``score`` null for judged items that were not retrieved, ``relevance`` null
for retrieved items that were not judged. The strategies cover what the
project standards ask the oracles and properties to see:

- ties in score (scores come from a set of six values, so ties are common,
  and a query can have all of its items tied);
- graded relevance 0..4 and the negative grades -1 and -2 (trec_eval's
  pooled-but-unjudged), unjudged retrieved items (null relevance);
- judged items never retrieved, relevant ones included (null score);
- queries with no relevant item, run-only queries (no judged row),
  qrels-only queries (judged rows only, every score null), one-item lists;
- string ids and integer ids; integer items are multi-digit so that the
  text tie-break of trec_eval (``"9" > "10"``) differs from numeric order;
- several runs in one frame (a ``model`` column) and a ``rank`` column in
  place of ``score``.

Sizes stay small (at most 8 queries of at most 15 items) so tests are fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import polars as pl
from hypothesis import strategies as st

IdType = Literal["str", "int"]
Order = Literal["score", "rank"]
ID_TYPES: tuple[IdType, ...] = ("str", "int")

MAX_QUERIES = 8
MAX_ITEMS = 15

# Six distinct scores over at most 15 items: ties are the rule, not the exception.
# Each is exact in float32: the trec_eval 9.0.5 inside pytrec_eval compares scores as C
# floats (form_res_rels.c, DOCNO_INFO.sim), trec_eval 10.0 as doubles, so doubles that
# round to one float would tie for the oracle but not for trec_eval 10.0.
SCORES = (0.0, 0.5, 1.0, 1.5, 2.0, -1.0)
# Negative grades are trec_eval's pooled-but-unjudged; 0 is judged non-relevant.
GRADES = (0, 1, 2, 3, 4, -1, -2)

# Text order differs from numeric order: "9" > "100" > "10" > "1".
INT_ITEMS = (9, 10, 1, 2, 11, 99, 100, 19, 20, 3, 101, 1000, 5, 90, 0, 8)
STR_ITEMS = (
    "d9", "d10", "d1", "d2", "d11", "d99", "d100", "a", "b", "B", "Z", "9", "10", "x-1", "doc_7", "D3",
)  # fmt: skip
INT_QUERIES = (1, 2, 3, 9, 10, 11, 100, 42, 7)
STR_QUERIES = ("q1", "q2", "q3", "q9", "q10", "301", "302", "topic-a", "Q")

MODELS = ("bm25", "dense", "rerank")


def frame_schema(id_type: IdType, *, order: Order = "score", by_model: bool = False) -> pl.Schema:
    """Return the schema of a generated frame."""
    ids = pl.String() if id_type == "str" else pl.Int64()
    order_dtype = pl.Float64() if order == "score" else pl.Int64()
    fields: list[tuple[str, pl.DataType]] = [("model", pl.String())] if by_model else []
    fields += [("query", ids), ("item", ids), (order, order_dtype), ("relevance", pl.Int64())]
    return pl.Schema(fields)


def empty_frame(id_type: IdType = "str", *, order: Order = "score", by_model: bool = False) -> pl.DataFrame:
    """Return an empty frame with the generated schema."""
    return pl.DataFrame(schema=frame_schema(id_type, order=order, by_model=by_model))


def trec_order(rows: Sequence[tuple[Any, float]]) -> list[Any]:
    """Return the items of ``(item, score)`` pairs in trec_eval's order.

    Score descending, ties broken by the item's text descending (trec_eval
    compares docnos as strings with ``strcmp``; the ids here are ASCII, so
    Python's string order is the same).
    """
    return [item for item, _ in sorted(rows, key=lambda r: (r[1], str(r[0])), reverse=True)]


def with_rank(frame: pl.DataFrame, *, by: Sequence[str] = ()) -> pl.DataFrame:
    """Replace ``score`` by ``rank``: 1..n in trec_eval order per (by..., query), null if not retrieved.

    Computed with plain Python so that it does not share code with the library.
    """
    keys = [*by, "query"]
    lists: dict[tuple[Any, ...], list[tuple[Any, float]]] = {}
    for row in frame.iter_rows(named=True):
        if row["score"] is not None:
            lists.setdefault(tuple(row[k] for k in keys), []).append((row["item"], row["score"]))
    ranks: dict[tuple[Any, ...], int] = {}
    for key, rows in lists.items():
        for position, item in enumerate(trec_order(rows), start=1):
            ranks[(*key, item)] = position
    rank = [ranks.get((*(row[k] for k in keys), row["item"])) for row in frame.iter_rows(named=True)]
    return frame.with_columns(pl.Series("rank", rank, dtype=pl.Int64)).select(
        [c if c != "score" else "rank" for c in frame.columns]
    )


_GRADE_OR_UNJUDGED = st.sampled_from((None, *GRADES, None))  # about 2 in 9 unjudged
_SCORE = st.sampled_from(SCORES)
_SCORE_OR_UNRETRIEVED = st.sampled_from((None, *SCORES, None))  # 1 in 4 not retrieved


def _weighted(value: bool, weight: int) -> st.SearchStrategy[bool]:
    """True or False, `value` `weight` times as likely as the other."""
    return st.sampled_from([value] * weight + [not value])


@st.composite
def eval_frames(  # noqa: C901, PLR0913
    draw: st.DrawFn,
    id_type: IdType | None = None,
    *,
    models: int | None = None,
    order: Order = "score",
    max_queries: int = MAX_QUERIES,
    max_items: int = MAX_ITEMS,
) -> pl.DataFrame:
    """Draw a long evaluation frame: query, item, score (or rank), relevance.

    Parameters
    ----------
    id_type
        ``"str"`` or ``"int"`` query and item ids; None draws one of them.
    models
        None for a single run (no ``model`` column); ``n`` for a frame of
        ``n`` runs (a leading ``model`` column) judged by the same qrels:
        every run carries every judged row of every judged query, as
        :func:`prm.join_run_qrels` builds it with ``by="model"``.
    order
        ``"score"`` or ``"rank"`` (the trec_eval order of the drawn scores).
    max_queries, max_items
        Size limits.
    """
    ids: IdType = draw(st.sampled_from(ID_TYPES)) if id_type is None else id_type
    query_pool = STR_QUERIES if ids == "str" else INT_QUERIES
    item_pool = STR_ITEMS if ids == "str" else INT_ITEMS
    model_names = MODELS[: models or 1]

    queries = draw(st.lists(st.sampled_from(query_pool), unique=True, max_size=max_queries))
    rows: list[tuple[Any, ...]] = []
    for query in queries:
        items = draw(st.lists(st.sampled_from(item_pool), unique=True, min_size=1, max_size=max_items))
        judged = draw(_weighted(value=True, weight=4))  # False: a run-only query
        retrieving = {m: draw(_weighted(value=True, weight=4)) for m in model_names}
        all_tied = draw(_weighted(value=False, weight=6))
        tied_score = draw(st.sampled_from(SCORES))
        # One draw per item and per (model, item): generation stays cheap.
        grades = {item: draw(_GRADE_OR_UNJUDGED) if judged else None for item in items}
        if judged and all(g is None for g in grades.values()):
            grades[items[0]] = draw(st.sampled_from(GRADES))
        for model in model_names:
            scores: dict[Any, float | None] = {}
            for item in items:
                if not retrieving[model]:
                    score = None  # this run missed the query: a qrels-only query
                else:
                    # A judged item may be left unretrieved; an unjudged one is always retrieved.
                    score = draw(_SCORE if grades[item] is None else _SCORE_OR_UNRETRIEVED)
                    if all_tied and score is not None:
                        score = tied_score
                scores[item] = score
            for item in items:
                if scores[item] is None and grades[item] is None:
                    continue  # neither retrieved nor judged: no row
                rows.append((model, query, item, scores[item], grades[item]))

    by_model = models is not None
    schema = frame_schema(ids, by_model=by_model)
    if not by_model:
        rows = [row[1:] for row in rows]
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    if order == "rank":
        frame = with_rank(frame, by=["model"] if by_model else [])
    return frame


def frame_repr(frame: pl.DataFrame) -> str:
    """Return a frame as Python source, for minimal failing examples in reports."""
    return f"pl.DataFrame({frame.to_dict(as_series=False)!r}, schema={dict(frame.schema)!r})"


# Pinned edge cases, for @example.
EMPTY_STR = empty_frame("str")
EMPTY_INT = empty_frame("int")
# A single query whose retrieved items are all unjudged: a run-only query, never evaluated.
ONLY_UNJUDGED = pl.DataFrame(
    {"query": ["q1", "q1", "q1"], "item": ["a", "b", "c"],
     "score": [1.0, 0.5, 0.5], "relevance": [None, None, None]},
    schema=EMPTY_STR.schema,
)  # fmt: skip
# Every item tied: trec_eval orders them by docno text descending, so "9" > "11" > "100" > "10" > "1".
ALL_TIED_INT = pl.DataFrame(
    {
        "query": [1, 1, 1, 1, 1, 2, 2],
        "item": [1, 9, 10, 100, 11, 9, 10],
        "score": [0.5] * 7,
        "relevance": [0, 1, 2, None, -1, 0, 1],
    },
    schema=EMPTY_INT.schema,
)
ALL_TIED_STR = ALL_TIED_INT.with_columns(pl.col("query", "item").cast(pl.String))
# A judged query with no retrieved item (a), a run-only query (b), a query without
# relevant items (c), a relevant item retrieved last (d).
POPULATION = pl.DataFrame(
    {
        "query": ["a", "a", "b", "c", "c", "d", "d"],
        "item": ["x", "y", "x", "x", "y", "z", "w"],
        "score": [None, None, 1.0, 2.0, 1.0, 0.0, 1.0],
        "relevance": [1, 2, None, 0, -2, 3, None],
    },
    schema=EMPTY_STR.schema,
)
# Every judgment of n1 and n2 is negative (pooled but unjudged): no relevant item, yet judged.
NEGATIVE_ONLY = pl.DataFrame(
    {
        "query": ["n1", "n1", "n1", "n2", "n2", "ok"],
        "item": ["a", "b", "c", "a", "b", "a"],
        "score": [1.0, 0.5, None, 2.0, 1.0, 1.0],
        "relevance": [-2, None, -2, -1, -2, 1],
    },
    schema=EMPTY_STR.schema,
)
# Two runs over the same judgments: one misses query 2 (qrels-only for it), one ties everything.
TWO_RUNS = pl.DataFrame(
    {
        "model": ["bm25"] * 5 + ["dense"] * 5,
        "query": [1, 1, 1, 2, 2, 1, 1, 1, 2, 2],
        "item": [9, 10, 100, 9, 1000, 9, 10, 100, 9, 1000],
        "score": [1.0, 2.0, None, None, None, 0.5, 0.5, None, 0.5, 0.5],
        "relevance": [1, 0, 2, 1, None, 1, 0, 2, 1, None],
    },
    schema=frame_schema("int", by_model=True),
)


LINE_SHAPES = ("short", "long", "comment", "blank")
"""The odd lines of a generated TREC file (`shaped_line`); any other shape keeps the fields."""


def shaped_line(fields: list[str], shape: str) -> list[str]:
    """A TREC line's fields in one of `LINE_SHAPES`: a field short, one too many, a comment, or blank."""
    if shape == "short":
        return fields[:-1]
    if shape == "long":
        return [*fields, "x"]
    if shape == "comment":
        return ["#", *fields]
    if shape == "blank":
        return []
    return fields
