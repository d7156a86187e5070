"""The full join of a run with its judgments, and its duplicate-judgment check at the join's cost.

A (query, item) pair judged on several rows would silently multiply a run's
row, so the join refuses it. The check costs one hash of the judgments'
pairs (a distinct count); the message naming the pairs is built only when
that count falls short of the rows, on the few rows concerned:

- DataFrames: the join is a lookup. With integer ids whose ranges allow it,
  query and item are packed into one exact ``UInt64`` key; other ids (text,
  wide integers) take a 64-bit hash of the pair, every matched row's ids
  compared with the judgment's (a collision falls back to the join on the
  ids themselves). The key's distinct count is the check; an inner join of
  the run's keys finds each retrieved judgment, whose grade is set beside the
  run's own columns (not copied, as a full join's output would copy them),
  and the judgments no run row matched are appended;
- LazyFrames: the same count inside the plan, the message built from the rows
  it keeps (none when nothing repeats), failing at ``collect()``.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping

import polars as pl

from polars_rankmetrics._plans import as_plan
from polars_rankmetrics._schema import Columns
from polars_rankmetrics.exceptions import ColumnNotFoundError, ColumnTypeError, InvalidDataError
from polars_rankmetrics.exceptions import _plan as _errors

_LISTED = 3  # duplicate judgments named in a message
_KEY = "__prm_pair"
_MESSAGE = "__prm_duplicate_judgments"
_TEXT = (pl.String, pl.Categorical, pl.Enum)
# Integer ids this far from zero subtract without overflow in Int64, so a packed key never wraps.
_SAFE = 2**62
_SEEDS = (0x9E3779B9, 0x85EBCA6B, 0xC2B2AE35)  # one per id column hashed (query, item, intent)
_HASHED = (pl.String, pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32, pl.UInt64)
_ROW = "__prm_judgment"  # a judgment's row number
_AT = "__prm_at"  # a run row's number


def _shown(values: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """Values as they read in a message: text quoted, long ids cut, null as None."""
    cut = _errors.shown_expr(values.cast(pl.String))
    text = pl.format("'{}'", cut) if dtype in _TEXT else cut
    return text.fill_null("None")


def repeated_rows(ids: list[str]) -> pl.Expr:
    """True on each row whose (query, item) pair is on several rows: the rows a duplicate message names."""
    return pl.len().over(ids) > 1


def duplicate_message(ids: list[str], schema: pl.Schema, note: str) -> pl.Expr:
    """The message naming the pairs of the frame's rows, all repeated ones, or null: one value per frame.

    Select it from the rows :func:`repeated_rows` keeps, rechunked (Polars 2.1 panicked,
    ``assertion failed: i < self.len()``, formatting the filtered rows of a frame of several
    chunks, such as a concatenation, in one expression).
    """
    pairs = pl.format(", ".join(f"{k}={{}}" for k in ids), *(_shown(pl.col(k), schema[k]) for k in ids))
    pairs = pairs.unique().sort()
    more = pl.when(pairs.len() > _LISTED).then(pl.lit("; ...")).otherwise(pl.lit(""))
    message = pl.format(
        f"the qrels judge {{}} ({', '.join(ids)}) pair(s) more than once, on {{}} rows: {{}}{{}}{note}; "
        "keep one judgment per pair",
        pairs.len(),
        pl.len(),
        pairs.head(_LISTED).str.join("; "),
        more,
    )
    return pl.when(pl.len() > 0).then(message)


def _pair_hash(ids: list[str]) -> pl.Expr:
    """A 64-bit hash of the pair: the columns' own hashes, each under its seed, combined.

    Equal pairs hash equal; distinct pairs may collide, so a hash only ever
    proves pairs distinct (cheaper than a struct's hash: no row is assembled).
    """
    hashes = [pl.col(k).hash(seed) for seed, k in zip(_SEEDS, ids, strict=False)]
    return functools.reduce(operator.xor, hashes)


def _pairs_repeat(ids: list[str]) -> pl.Expr:
    """True when some pair is on several rows: fewer distinct pair hashes than rows.

    Distinct hashes prove distinct pairs; a shortfall is confirmed exactly by
    :func:`duplicate_message` on the rows it concerns.
    """
    return _pair_hash(ids).n_unique() < pl.len()


def checked_lazy(judged: pl.LazyFrame, ids: list[str], relevance: str, note: str) -> pl.LazyFrame:
    """`judged` whose relevance fails at collect() when a pair is judged twice.

    The message is computed on the rows kept by the distinct count (none
    when no pair repeats), as a one-row frame that carries the in-plan
    failure; its column gates the relevance, so no projection drops it.
    """
    message = duplicate_message(ids, judged.collect_schema(), note)
    suspects = judged.filter(_pairs_repeat(ids)).filter(repeated_rows(ids))
    failure = suspects.select(_errors.in_plan(message).alias(_MESSAGE))
    gated = pl.when(pl.col(_MESSAGE).is_null()).then(pl.col(relevance)).alias(relevance)
    return judged.join(failure, how="cross").with_columns(gated).drop(_MESSAGE)


def check_frame(qrels: pl.DataFrame, ids: list[str], note: str) -> None:
    """Raise :class:`InvalidDataError` naming the pairs `qrels` judges on several rows."""
    if not qrels.select(_pairs_repeat(ids)).item():
        return
    repeated = qrels.filter(repeated_rows(ids)).rechunk()  # pl.format of a chunked filter panics (2.1)
    found = repeated.select(duplicate_message(ids, qrels.schema, note)).item()
    if found is not None:
        raise InvalidDataError.from_worded(found)


def _spans(frames: list[pl.DataFrame], ids: list[str]) -> list[tuple[int, int] | None]:
    """Each integer id column's (min, max) over the frames; None for one that cannot be packed.

    One pass per frame reads every id column's bounds and nulls at once.
    """
    stats = [
        frame.select(
            *(pl.col(k).min().cast(pl.Int128).alias(f"lo{i}") for i, k in enumerate(ids)),
            *(pl.col(k).max().cast(pl.Int128).alias(f"hi{i}") for i, k in enumerate(ids)),
            *(pl.col(k).null_count().alias(f"nulls{i}") for i, k in enumerate(ids)),
        ).row(0, named=True)
        for frame in frames
    ]
    spans: list[tuple[int, int] | None] = []
    for i in range(len(ids)):
        lows = [row[f"lo{i}"] for row in stats if row[f"lo{i}"] is not None]  # None: an empty frame
        highs = [row[f"hi{i}"] for row in stats if row[f"hi{i}"] is not None]
        nulls = any(row[f"nulls{i}"] for row in stats)
        fits = bool(lows) and not nulls and min(lows) >= -_SAFE and max(highs) < _SAFE
        spans.append((min(lows), max(highs)) if fits else None)
    return spans


def packed_join(
    run: pl.DataFrame, judged: pl.DataFrame, ids: list[str], keys_by: list[str], note: str
) -> pl.DataFrame | None:
    """The full join on one packed ``UInt64`` (query, item) key, checked; None when the ids do not pack.

    Query ``q`` and item ``i`` become ``(q - q_min) * span + (i - i_min)``
    with ``span = i_max - i_min + 1``: exact and collision-free when the
    product of the two ranges fits in 64 bits, and null-free ids, which is
    checked here.
    """
    query, item = ids
    frames = [run, judged]
    if not all(f.schema[k].is_integer() for f in frames for k in ids):
        return None
    spans = _spans(frames, ids)
    if spans[0] is None or spans[1] is None:
        return None
    (q_low, q_high), (i_low, i_high) = spans[0], spans[1]
    width = i_high - i_low + 1
    if (q_high - q_low + 1) * width > 2**64:
        return None
    key = (pl.col(query).cast(pl.Int64) - q_low).cast(pl.UInt64) * width + (
        pl.col(item).cast(pl.Int64) - i_low
    ).cast(pl.UInt64)
    return _looked_up(run, judged, ids, keys_by, note=note, key=key, exact=True)


def _by_runs(run: pl.DataFrame | pl.LazyFrame, right: pl.LazyFrame, keys_by: list[str]) -> pl.LazyFrame:
    """The judgments once per `keys_by` run of `run` (unchanged without `keys_by`)."""
    return run.lazy().select(keys_by).unique().join(right, how="cross") if keys_by else right


def hashed_join(
    run: pl.DataFrame, judged: pl.DataFrame, ids: list[str], keys_by: list[str], note: str
) -> pl.DataFrame | None:
    """The full join on a 64-bit hash of the (query, item) pair, checked; None to join on the ids.

    Every run row the hash matches to a judgment has its ids compared with
    the judgment's: a collision of two distinct pairs returns None, as do null
    ids (a join does not match nulls; a hash would) and id types outside
    integers and text.
    """
    frames = [run, judged]
    if not all(f.schema[k] in _HASHED for f in frames for k in ids) or any(
        f.get_column(k).null_count() for f in frames for k in ids
    ):
        return None
    return _looked_up(run, judged, ids, keys_by, note=note, key=_pair_hash(ids), exact=False)


def _looked_up(  # noqa: PLR0913  (the join's parts)
    run: pl.DataFrame,
    judged: pl.DataFrame,
    ids: list[str],
    keys_by: list[str],
    *,
    note: str,
    key: pl.Expr,
    exact: bool,
) -> pl.DataFrame | None:
    """The full join as a lookup of each run row's judgment by `key`: the run's columns are not copied.

    The judgments' distinct key count is the duplicate check (a shortfall is
    confirmed exactly on the rows concerned). An inner join of the keys finds
    each run row's judgment (one at most: the keys are distinct in each `by`
    group); its grades are gathered beside the run's own columns, and the
    judgments no run row matched are appended: the rows of a full join, in no
    particular order. A key that is not `exact` (a hash) has every match's ids
    compared: None when two distinct pairs share a key, to join on the ids.
    """
    if judged.select(key.n_unique()).item() < judged.height:
        check_frame(judged, ids, note)
        return None  # no duplicate: two distinct pairs share a hash
    right = _by_runs(run, judged.lazy(), keys_by).with_row_index(_ROW).collect()
    left = run.lazy().with_row_index(_AT).select(_AT, *keys_by, key.alias(_KEY))
    on = [*keys_by, _KEY]
    pairs = left.join(right.lazy().select(_ROW, *keys_by, key.alias(_KEY)), on=on, how="inner")
    found = pairs.select(_AT, _ROW).collect()
    if not exact and _collide(run, right, found.sort(_AT), ids):
        return None
    rows = _scattered(run.height, found.get_column(_AT), found.get_column(_ROW))
    grades = [right.get_column(c).gather(rows) for c in judged.columns if c not in ids]
    hit = pl.repeat(value=True, n=found.height, eager=True)
    missed = right.filter(_scattered(right.height, found.get_column(_ROW), hit).is_null()).drop(_ROW)
    whole = pl.concat([run.hstack(grades), missed], how="diagonal")
    names = [*run.columns, *(c for c in judged.columns if c not in ids)]
    return pl.DataFrame([whole.get_column(c) for c in names])  # in order, not copied


def _scattered(height: int, at: pl.Series, values: pl.Series) -> pl.Series:
    """A column of `height` nulls with `values` at the positions `at`."""
    empty = pl.select(pl.repeat(None, height, dtype=values.dtype)).to_series()
    return empty.scatter(at, values)


def _collide(run: pl.DataFrame, right: pl.DataFrame, found: pl.DataFrame, ids: list[str]) -> bool:
    """Whether a matched run row's ids differ from its judgment's (two pairs sharing a hash)."""
    at, row = found.get_column(_AT), found.get_column(_ROW)
    return any(bool((run.get_column(k).gather(at) != right.get_column(k).gather(row)).any()) for k in ids)


def full_join(  # noqa: PLR0913  (the intent qrels check their own ids)
    run: pl.DataFrame | pl.LazyFrame,
    judged: pl.DataFrame | pl.LazyFrame,
    ids: list[str],
    keys_by: list[str],
    note: str,
    *,
    unique: list[str] | None = None,
) -> pl.DataFrame | pl.LazyFrame:
    """Every run row, plus the judged pairs it misses (a copy per `keys_by` run), checked.

    `judged` holds the ids and the relevance only, or the ids, an intent and the
    relevance with `unique` the columns judged once (query, item, intent). A
    DataFrame when both inputs are, checked now; else a LazyFrame checked when collected.
    """
    checked = unique or ids
    if isinstance(run, pl.DataFrame) and isinstance(judged, pl.DataFrame):
        if unique is None:
            fast = packed_join(run, judged, ids, keys_by, note)
            fast = hashed_join(run, judged, ids, keys_by, note) if fast is None else fast
            if fast is not None:
                return fast
        check_frame(judged, checked, note)
        right = judged.lazy()
    else:
        relevance = next(c for c in judged.collect_schema().names() if c not in checked)
        right = checked_lazy(judged.lazy(), checked, relevance, note)
    right = _by_runs(run, right, keys_by)
    out = run.lazy().join(right, on=[*keys_by, *ids], how="full", coalesce=True)
    return (
        out.collect() if isinstance(run, pl.DataFrame) and isinstance(judged, pl.DataFrame) else as_plan(out)
    )


def check_columns(
    run: Mapping[str, object], qrels: Mapping[str, object], cols: Columns, by: tuple[str, ...]
) -> None:
    """Refuse a run and judgments that cannot be joined: columns missing, id types that differ.

    `run` and `qrels` map each column to its type (Polars' dtypes, or Spark's type names).
    """
    ids = [cols.query, cols.item]
    for name, role in [*((k, "by") for k in by), (cols.query, "query"), (cols.item, "item")]:
        if name not in run:
            raise ColumnNotFoundError.from_missing_and_available(name, role, list(run), where="the run")
    for name in [*ids, cols.relevance]:
        if name not in qrels:
            raise ColumnNotFoundError.from_missing_and_available(
                name, "qrels", list(qrels), where="the qrels"
            )
    for name in ids:
        if run[name] != qrels[name]:
            raise ColumnTypeError.mismatch(
                f"column {name!r} is {run[name]} in the run", f"{qrels[name]} in the qrels"
            )
    if cols.relevance in run:
        raise ColumnTypeError.taken(cols.relevance, "relevance", "the run")


def join_frames(
    run: pl.DataFrame | pl.LazyFrame,
    qrels: pl.DataFrame | pl.LazyFrame,
    cols: Columns,
    keys_by: tuple[str, ...],
) -> pl.DataFrame | pl.LazyFrame:
    """:func:`join_run_qrels` of Polars frames, with the columns and `by` keys normalised already.

    What an entry point that converted and normalised its inputs once (the
    evaluate request) calls: nothing is converted or normalised again.
    """
    run_lf, qrels_lf = run.lazy(), qrels.lazy()
    run_schema, qrels_schema = run_lf.collect_schema(), qrels_lf.collect_schema()
    check_columns(dict(run_schema), dict(qrels_schema), cols, keys_by)
    ids = [cols.query, cols.item]
    ignored = [k for k in keys_by if k in qrels_schema]
    note = (
        f" (the qrels' {', '.join(map(repr, ignored))} is ignored: every run is judged against all the qrels)"
        if ignored
        else ""
    )
    if cols.intent in qrels_schema:  # intent qrels: a row per (query, item, intent), one judgment each
        judged = qrels.select(*ids, cols.intent, cols.relevance)
        return full_join(run, judged, ids, list(keys_by), note, unique=[*ids, cols.intent])
    return full_join(run, qrels.select(*ids, cols.relevance), ids, list(keys_by), note)
