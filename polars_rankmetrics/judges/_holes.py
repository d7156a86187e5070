"""fill_judgments() and judgment_shares(): people's judgments first, a model's in the holes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._schema import Columns, normalise_by
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    InvalidDataError,
    InvalidInputError,
    InvalidParameterError,
)
from polars_rankmetrics.exceptions._parameters import check_choice, check_k, check_real
from polars_rankmetrics.judges._qrels import GRADE_A, GRADE_B, check_scale, judged, side_by_side

__all__ = ["fill_judgments", "judgment_shares"]

_PLACE = "__prm_place"


def fill_judgments(  # noqa: PLR0913  (two frames, the names, the scale, the columns)
    first: pl.DataFrame | pl.LazyFrame,
    fallback: pl.DataFrame | pl.LazyFrame,
    *,
    sources: tuple[str, str] = ("people", "model"),
    source: str = "source",
    scale: Sequence[float] | None = None,
    columns: Columns | Mapping[str, str] | None = None,
) -> pl.DataFrame:
    """Judgments from two sources: `first`'s grade where it judged a pair, `fallback`'s elsewhere.

    The precedence rule: a (query, item) judged by `first` (people) keeps
    that grade whatever `fallback` (a model) says; a pair only `fallback`
    judged takes its grade. The `source` column says which judged each row.
    Evaluate with the result as any judgments
    (``prm.evaluate(run, metrics, qrels=filled)``); :func:`judgment_shares`
    says how much of a ranking's gain rests on each source.

    Parameters
    ----------
    first, fallback
        Judgments, one row per (query, item) with a numeric grade; a null
        grade is unjudged (the other source fills it).
    sources
        The names the `source` column gives `first`'s and `fallback`'s rows.
    source
        The name of that column.
    scale
        The grades both use, when they are refused as on different scales
        (see :func:`agreement`).
    columns
        The column names; the `query`, `item` and `relevance` roles are read.

    Returns
    -------
    pl.DataFrame
        query, item, relevance (Float64) and `source`, one row per pair
        either side judged, sorted by query and item.

    Raises
    ------
    ColumnNotFoundError, ColumnTypeError, InvalidDataError
        As :func:`agreement` (without its need of shared pairs).
    InvalidParameterError
        `sources` not two different names; `source` a column of the contract.

    See Also
    --------
    judgment_shares : how much gain rests on each source.
    agreement : how far the two sources agree where both judged.

    Examples
    --------
    >>> people = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "relevance": [2, 0]})
    >>> model = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"], "relevance": [1, 1, 3]})
    >>> prm.fill_judgments(people, model)
    shape: (3, 4)
    ┌───────┬──────┬───────────┬────────┐
    │ query ┆ item ┆ relevance ┆ source │
    │ ---   ┆ ---  ┆ ---       ┆ ---    │
    │ i64   ┆ str  ┆ f64       ┆ str    │
    ╞═══════╪══════╪═══════════╪════════╡
    │ 1     ┆ a    ┆ 2.0       ┆ people │
    │ 1     ┆ b    ┆ 0.0       ┆ people │
    │ 1     ┆ c    ┆ 3.0       ┆ model  │
    └───────┴──────┴───────────┴────────┘
    """
    if not isinstance(source, str):
        raise InvalidInputError.from_type("source", "a column name (str)", source)
    cols = Columns.of(columns)
    names_ok = isinstance(sources, tuple) and len(sources) == 2 and all(isinstance(s, str) for s in sources)
    if not names_ok or sources[0] == sources[1]:
        raise InvalidParameterError.out_of_domain("sources", "two different names", sources)
    if not isinstance(source, str) or source in (cols.query, cols.item, cols.relevance):
        raise InvalidParameterError.out_of_domain(
            "source", "a column name outside query, item, relevance", source
        )
    a, b = judged(first, "first", cols), judged(fallback, "fallback", cols)
    check_scale(a, b, cols, scale)
    both = side_by_side(a, b, cols)
    has_first = pl.col(GRADE_A).is_not_null()
    return both.select(
        cols.query,
        cols.item,
        pl.coalesce(GRADE_A, GRADE_B).alias(cols.relevance),
        pl.when(has_first).then(pl.lit(sources[0])).otherwise(pl.lit(sources[1])).alias(source),
    ).sort(cols.query, cols.item)


def _ranked(run: pl.LazyFrame, cols: Columns, keys: list[str]) -> pl.LazyFrame:
    """Each retrieved row's place in its list: by rank, else by score descending; ties by item text."""
    schema = run.collect_schema()
    text = pl.col(cols.item).cast(pl.String)
    if cols.rank in schema:
        place = pl.struct(pl.col(cols.rank).neg(), text).rank("ordinal", descending=True)
        return run.filter(pl.col(cols.rank).is_not_null()).with_columns(place.over(keys).alias(_PLACE))
    if cols.score not in schema:
        raise ColumnNotFoundError.no_order(cols.score, cols.rank, schema.names())
    place = pl.struct(pl.col(cols.score), text).rank("ordinal", descending=True)
    return run.filter(pl.col(cols.score).is_not_null()).with_columns(place.over(keys).alias(_PLACE))


def judgment_shares(  # noqa: PLR0913  (the run, the judgments, then keywords)
    run: pl.DataFrame | pl.LazyFrame,
    judgments: pl.DataFrame | pl.LazyFrame,
    *,
    k: int | None = None,
    by: str | Sequence[str] | None = None,
    source: str = "source",
    relevance_level: float = 1,
    per_query: bool = True,
    columns: Columns | Mapping[str, str] | None = None,
) -> pl.DataFrame:
    r"""How much of each ranking's gain rests on each source of judgments (people's, a model's).

    For each query's top `k` retrieved items (score descending, or rank
    ascending; ties by the item's text descending, as :func:`evaluate`
    orders them), per source ``s`` of the judgments: ``judged`` items,
    ``relevant`` ones (``grade >= relevance_level``), their ``gain`` (the sum
    of their grades, the linear gain of DCG and the count behind precision
    and recall), and ``share = gain_s / sum over sources of gain``: the part
    of a gain-based metric's numerator that the source's labels carry
    (null when the top `k` hold no relevant item).

    Parameters
    ----------
    run
        The rankings: query, item, score or rank, the `by` columns.
    judgments
        Judgments with a `source` column: :func:`fill_judgments`' result.
    k
        The cutoff; None reads every retrieved item.
    by
        The columns of `run` naming a system (a run, a model).
    source
        The column of `judgments` naming the source.
    relevance_level
        The grade from which an item is relevant.
    per_query
        One row per (by..., query, source); with False, one per (by...,
        source) over every query: the counts and gains summed, the share of
        the summed gain.
    columns
        The column names, as :func:`evaluate` takes them.

    Returns
    -------
    pl.DataFrame
        by..., query (per query), `source`, ``judged``, ``relevant``,
        ``gain``, ``share``; a row for every source the judgments name, in
        every (by..., query) the run retrieves, sorted.

    Raises
    ------
    ColumnNotFoundError
        A column missing from `run` or `judgments`.
    InvalidDataError
        A null source; what :func:`fill_judgments` checks of judgments.

    See Also
    --------
    fill_judgments : the judgments this reads.

    Examples
    --------
    >>> people = pl.DataFrame({"query": [1, 1], "item": ["a", "b"], "relevance": [2, 0]})
    >>> model = pl.DataFrame({"query": [1, 1], "item": ["c", "d"], "relevance": [1, 2]})
    >>> filled = prm.fill_judgments(people, model)
    >>> run = pl.DataFrame({"query": [1] * 4, "item": ["c", "a", "b", "d"], "score": [4.0, 3.0, 2.0, 1.0]})
    >>> prm.judgment_shares(run, filled, k=3)
    shape: (2, 6)
    ┌───────┬────────┬────────┬──────────┬──────┬──────────┐
    │ query ┆ source ┆ judged ┆ relevant ┆ gain ┆ share    │
    │ ---   ┆ ---    ┆ ---    ┆ ---      ┆ ---  ┆ ---      │
    │ i64   ┆ str    ┆ u32    ┆ u32      ┆ f64  ┆ f64      │
    ╞═══════╪════════╪════════╪══════════╪══════╪══════════╡
    │ 1     ┆ model  ┆ 1      ┆ 1        ┆ 1.0  ┆ 0.333333 │
    │ 1     ┆ people ┆ 2      ┆ 1        ┆ 2.0  ┆ 0.666667 │
    └───────┴────────┴────────┴──────────┴──────┴──────────┘
    """
    if not isinstance(source, str):
        raise InvalidInputError.from_type("source", "a column name (str)", source)
    cols = Columns.of(columns)
    cutoff = check_k(k)
    level = check_real(relevance_level, "relevance_level")
    check_choice(per_query, "per_query", (False, True))
    keys = list(normalise_by(by))
    frame = as_polars(run, "run").lazy()
    schema = frame.collect_schema()
    for name in (*keys, cols.query, cols.item):
        if name not in schema:
            raise ColumnNotFoundError.from_missing_and_available(name, "`run`'s", schema.names())
    labels = as_polars(judgments, "judgments").lazy()
    if source not in labels.collect_schema():
        raise ColumnNotFoundError.from_missing_and_available(
            source, "`judgments`' source", labels.collect_schema().names()
        )
    graded = judged(labels.drop(source), "judgments", cols).join(
        labels.select(cols.query, cols.item, source).collect(), on=[cols.query, cols.item]
    )
    if graded.get_column(source).null_count():
        raise InvalidDataError.null_values(source, "every judged row needs a source")
    names = graded.select(pl.col(source).unique()).lazy()
    ranked = _ranked(
        frame.select(*keys, cols.query, cols.item, *(c for c in (cols.score, cols.rank) if c in schema)),
        cols,
        [*keys, cols.query],
    )
    if cutoff is not None:
        ranked = ranked.filter(pl.col(_PLACE) <= cutoff)
    grade = pl.col(cols.relevance)
    relevant = grade >= level
    hits = ranked.join(graded.lazy(), on=[cols.query, cols.item], how="inner")
    group = [*keys, cols.query] if per_query else keys
    lists = ranked.select(*group).unique() if group else pl.LazyFrame({"__prm_all": [0]})
    grid = lists.join(names, how="cross")
    sums = hits.group_by([*group, source]).agg(
        pl.len().alias("judged"),
        relevant.sum().alias("relevant"),
        pl.when(relevant).then(grade).otherwise(0.0).sum().alias("gain"),
    )
    out = grid.join(sums, on=[*group, source], how="left").with_columns(
        pl.col("judged", "relevant").fill_null(0), pl.col("gain").fill_null(0.0)
    )
    total = pl.col("gain").sum().over(group) if group else pl.col("gain").sum()
    out = out.with_columns(pl.when(total > 0).then(pl.col("gain") / total).alias("share"))
    return out.select(*group, source, "judged", "relevant", "gain", "share").sort([*group, source]).collect()
