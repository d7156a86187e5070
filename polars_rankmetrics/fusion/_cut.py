"""optimize_fusion's plan for a metric at a cutoff k: candidates as columns, each list cut at k.

For the methods whose fused score is a sum over the runs of a value each
run gives the item (``wsum``, ``wmnz``, ``mixed``: the normalised score;
``rrf``: the rank), the runs are normalised (or ranked) once and laid out
wide: one row per (query, item) any run lists, a column per run. Every
candidate of a batch is then one expression over those columns, its fused
score computed as :func:`fuse` computes it, bit for bit (the same terms,
the same exact sum). Each candidate's list is cut at k: the top k items of
each query by (score descending, item id text descending), evaluate's own
order, ranked 1..k, the rest of the list dropped. The judgments are joined
once per candidate to those rows, so every judged item past k arrives as a
judged item the run did not retrieve; of those, the ones no cut family
reads (neither relevant nor of positive gain) are left out. (``wmnz``'s
sum of the weights of the runs listing an item is a float sum, runs in
name order: with three runs or more its last bit may differ from
:func:`fuse`'s, whose sum follows the rows' order.)

Why the cut keeps the value: the families whose spec says ``top_k_only``
at a cutoff k read the grades of the first k retrieved items, the number of
retrieved items only as ``min(k, n)`` (which the cut keeps), and the
judgments of the query (R, the ideal ranking), retrieved or not. Under
conventions that read more of the list (a depth, ``judged_only``, ties
other than by text, judgments of the retrieved items only) the search
evaluates every candidate's whole list instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from polars_rankmetrics._engine import collect
from polars_rankmetrics._kernel import fixed_point, from_fixed_point
from polars_rankmetrics._registry import parse
from polars_rankmetrics._schema import Columns
from polars_rankmetrics.checks import validate
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.evaluation import evaluate
from polars_rankmetrics.fusion._normalize import RANK, RUN, VALUE, normalized
from polars_rankmetrics.fusion._plan import FusionRequest, base_frame, prepared
from polars_rankmetrics.io import join_run_qrels

__all__ = ["WIDE_METHODS", "coded", "cutoff", "evaluate_cut", "wide_runs"]

CANDIDATE = "candidate"
WIDE_METHODS = frozenset({"wsum", "wmnz", "mixed", "rrf"})
"""The methods whose candidates are columns of the wide frame."""

_CODE_BASE = 10**12  # codes of one width: their decimal text sorts as their numbers do
_ROWS = "__fuse_rows"  # the runs' rows for the (query, item)


def cutoff(method: str, metric: str, conventions: Conventions | str | None) -> int | None:
    """The cutoff k each candidate's list is cut at, or None when the whole lists are evaluated."""
    if method not in WIDE_METHODS:
        return None
    parsed = parse(metric)
    conv = Conventions.resolve(conventions)
    if parsed.k is None or not parsed.spec.top_k_only:
        return None
    if conv.depth is not None or conv.judged_only or conv.ties != "text" or conv.judgments != "all":
        return None
    return parsed.k


def coded(ready: pl.LazyFrame, qrels: pl.LazyFrame, cols: Columns) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """The runs and the qrels with query and item ids replaced by Int64 codes.

    Every candidate's rows are grouped, joined and evaluated on these ids;
    an item's code follows the order of its id as text (byte order), so the
    evaluation breaks tied scores as it would on the ids themselves.
    """
    for name in (cols.query, cols.item):
        ids = pl.concat([ready.select(name), qrels.select(name)]).unique()
        order = ids.sort(pl.col(name).cast(pl.String)).with_row_index("__fuse_code")
        code = (pl.col("__fuse_code").cast(pl.Int64) + _CODE_BASE).alias(name)
        mapping = order.select(name, code.alias("__fuse_id"))
        ready = ready.join(mapping, on=name).drop(name).rename({"__fuse_id": name})
        qrels = qrels.join(mapping, on=name).drop(name).rename({"__fuse_id": name})
    return ready, qrels


def _column(i: int) -> str:
    return f"__fuse_run{i}"


def wide_runs(
    source: pl.LazyFrame, req: FusionRequest, names: Sequence[object], judged: pl.LazyFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """One row per (query, item) any run lists, each run's value a column; the coded judgments.

    The value is the normalised score, or the rank for ``rrf``; null where
    the run does not list the item. Ids are :func:`coded`. A run listing
    an item twice raises :class:`InvalidDataError` (:func:`validate`'s).
    """
    base = base_frame(source, req)
    lay = req.layout
    if req.method.name == "rrf":
        runs = prepared(base, req).select(RUN, lay.query, lay.item, pl.col(RANK).alias(VALUE))
    else:
        runs = normalized(base, req.norm, lay).select(RUN, lay.query, lay.item, VALUE)
    runs, judged = coded(runs, judged, req.columns)
    dtype = base.collect_schema()[RUN]
    per_run = [
        pl.when(pl.col(RUN) == pl.lit(name, dtype=dtype)).then(pl.col(VALUE)).max().alias(_column(i))
        for i, name in enumerate(names)
    ]
    wide = collect(runs.group_by(lay.query, lay.item).agg(*per_run, pl.len().alias(_ROWS)))
    listed = pl.sum_horizontal(pl.col(_column(i)).is_not_null() for i in range(len(names)))
    if not wide.select((pl.col(_ROWS) == listed).all()).item():
        cols = req.columns
        validate(source.select(req.by, cols.query, cols.item, cols.score), columns=cols, by=req.by)
    return wide.drop(_ROWS), collect(judged)


def _score(
    method: str, n_runs: int, candidate: Mapping[object, float] | float, names: Sequence[object]
) -> pl.Expr:
    """A candidate's fused score over the wide columns: the terms and exact sum of :func:`fuse`."""
    values = [pl.col(_column(i)) for i in range(n_runs)]
    if method == "rrf":
        k = pl.lit(candidate, dtype=pl.Float64)
        terms = [1.0 / (k + v) for v in values]
    elif method == "wmnz":
        terms = values
    else:
        assert isinstance(candidate, Mapping)
        terms = [pl.lit(candidate[name], dtype=pl.Float64) * v for name, v in zip(names, values, strict=True)]
    total = from_fixed_point(pl.sum_horizontal([fixed_point(t) for t in terms]))
    if method == "mixed":
        listed = pl.sum_horizontal([v.is_not_null().cast(pl.UInt32) for v in values])
        return total * listed.cast(pl.Float64).sqrt()
    if method == "wmnz":
        assert isinstance(candidate, Mapping)
        weights = [
            pl.when(v.is_not_null()).then(pl.lit(candidate[n], dtype=pl.Float64))
            for n, v in zip(names, values, strict=True)
        ]
        return total * pl.sum_horizontal(weights)
    return total


def evaluate_cut(  # noqa: PLR0913
    wide: pl.DataFrame,
    judged: pl.DataFrame,
    req: FusionRequest,
    candidates: Sequence[tuple[int, Mapping[object, float] | float]],
    names: Sequence[object],
    *,
    k: int,
    evaluation: tuple[str, Conventions | str | None],
) -> pl.DataFrame:
    """The metric of every candidate of the batch, (CANDIDATE, metric): one plan over the wide frame."""
    metric, conventions = evaluation
    cols, method = req.columns, req.method.name
    q, i = cols.query, cols.item
    scores = {f"__fuse_c{c}": _score(method, len(names), cand, names) for c, cand in candidates}
    tops = (
        wide.lazy()
        .with_columns(**scores)
        .group_by(q)
        .agg(pl.col(i).sort_by([name, i], descending=True).head(k).alias(name) for name in scores)
    )
    long = tops.unpivot(index=q, variable_name=CANDIDATE, value_name=i).with_columns(
        pl.col(CANDIDATE).str.strip_prefix("__fuse_c").cast(pl.Int64),
        pl.int_ranges(1, pl.col(i).list.len() + 1, dtype=pl.Int32).alias(cols.rank),
    )
    run = collect(long.explode(i, cols.rank))
    frame = join_run_qrels(run, judged, by=CANDIDATE, columns=cols).lazy()
    read = _read_past_cut(Conventions.resolve(conventions), cols, wide.get_column(q).unique())
    if read is not None:
        frame = frame.filter(pl.col(cols.rank).is_not_null() | read)
    # The frame is built here: ids non-null and unique per candidate, ranks 1..k per list.
    return collect(evaluate(frame, metric, by=CANDIDATE, columns=cols, conventions=conventions, check=False))


def _read_past_cut(conv: Conventions, cols: Columns, listed: pl.Series) -> pl.Expr | None:
    """The judged rows past the cut that a ``top_k_only`` family reads; None: every one.

    Past the cut a judgment counts only when it is relevant (R) or has a
    gain (the ideal ranking): a grade ``>= relevance_level`` or above 0
    (a non-positive grade gains 0, unless a gain mapping says otherwise:
    then every row stays). The rows of a query no run lists all stay: they
    make it a judged query, which the `missing` convention counts.
    """
    if isinstance(conv.gain, Mapping):
        return None
    grade = pl.col(cols.relevance)
    return (grade >= conv.relevance_level) | (grade > 0) | ~pl.col(cols.query).is_in(listed.implode())
