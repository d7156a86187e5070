"""The evaluation behind the command: read the files, evaluate every line's metric, print; and the demo."""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import polars as pl

import polars_rankmetrics as prm
from polars_rankmetrics.cli._args import demo_parser
from polars_rankmetrics.cli._format import query_rows, summary_rows
from polars_rankmetrics.cli._measures import Line
from polars_rankmetrics.cli._replay import Replay, near_tie, near_ties
from polars_rankmetrics.cli._specs import parse_measures
from polars_rankmetrics.cli._values import (
    complete_num_rel,
    empty_nan_levels,
    is_empty_nan,
    summary_value,
    trec_order,
)

__all__ = ["DEMO_METRICS", "Refusal", "demo", "evaluate", "read_file"]

DEMO_METRICS = ("ndcg@10", "map", "mrr", "P_10", "recall@100", "num_rel_ret")
_NUMERIC_DOCNO = r"^(?:0|[1-9][0-9]{0,8})$"  # a docno whose text is that of a UInt32 (below 10**9)


def read_file(reader: Callable[[Path], pl.DataFrame], path: Path) -> pl.DataFrame:
    """Read a TREC file; an error Polars raises on it (a directory, binary data) names the file."""
    try:
        return reader(path)
    except pl.exceptions.PolarsError as err:
        raise prm.TrecFormatError.unreadable(path, f"cannot be read as a TREC file: {err}") from err


class Refusal(prm.InvalidDataError):
    """trec_eval's refusal (``--refuse-missing``): what it printed before it stopped, and its exit status."""

    def __init__(self, message: str, printed: list[str], status: int) -> None:
        super().__init__(message)
        self.printed = printed
        self.status = status

    @classmethod
    def missing_query(cls, missing: str, printed: list[str]) -> Refusal:
        """A judged query without results: trec_eval 10.0 stops there with status 4."""
        return cls(
            f"judged query {missing!r} has no result in the run: trec_eval 10.0 stops here "
            f"(\"result qid '{missing}' not found in qrels\", status 4); without --refuse-missing "
            "the other queries are evaluated, and -c evaluates it as retrieving nothing",
            printed,
            status=4,
        )


def _read_run(path: Path) -> pl.DataFrame:
    """The run; ``-`` reads it from standard input, as trec_eval 10.0 does."""
    if str(path) != "-":
        return read_file(prm.read_trec_run, path)
    with tempfile.TemporaryDirectory(prefix="rankmetrics-") as tmp:
        copy = Path(tmp) / "stdin.run"
        copy.write_bytes(sys.stdin.buffer.read())
        try:
            return read_file(prm.read_trec_run, copy)
        except prm.TrecFormatError as err:  # name standard input, not the copy
            raise prm.TrecFormatError.from_worded(str(err).replace(str(copy), "-")) from err


def _per_query(frame: pl.DataFrame, lines: list[Line], args: argparse.Namespace) -> pl.DataFrame:
    """Every line's metric per query, with num_ret and num_rel (for -J's empty rankings).

    The data are checked inside the evaluation's plan (it shares the ranking's
    windows); only when that check fails does :func:`prm.validate` run, to name
    the offending rows. A separate check pass before the plan doubled the
    command's peak memory over the joined frame (1M run lines: +145 MiB).
    """
    wanted = [
        prm.num_q(), prm.num_ret(), prm.num_rel(), *(line.metric for line in lines if line.metric is not None)
    ]  # fmt: skip
    metrics = list({str(m): m for m in wanted}.values())
    plan = prm.evaluate(
        frame.lazy(), metrics, per_query=True, missing="zero" if args.complete else None,
        depth=args.depth, relevance_level=args.relevance_level, judged_only=args.judged_only or None,
        ties=args.ties, preset=args.preset,
    )  # fmt: skip
    try:
        return plan.collect()
    except prm.InvalidDataError:  # the plan's check (its message names the query): validate names the rows
        prm.validate(_text_items(frame))
        raise
    except pl.exceptions.PolarsError as err:  # bad data (named by validate), or a parameter it cannot compute
        prm.validate(_text_items(frame))
        raise prm.InvalidDataError.failed(str(err).splitlines()[0]) from err


def _compact(frame: pl.DataFrame) -> pl.DataFrame:
    """The joined frame with its query ids Categorical, and its docnos UInt32 when each is a plain number.

    A docno that is a plain decimal number below 10**9 (no sign, no leading
    zero) is the decimal text of its number, so the ranking's tie break on
    the docno's text is the engine's integer key of it (one Int128 window
    instead of a struct of score and text), and the column takes 4 bytes a
    row instead of 16. The query ids as Categorical make each window over the
    queries (the ranking, the hit ranks, the checks) hash a 4-byte code rather
    than the id's text; they print as text (every reader casts them back), in
    trec_eval's order. At 1M run lines the plan takes 0.03-0.06 s of CPU
    less, and its peak (alphanumeric ids) 40 MiB less.
    """
    item = pl.col("item")
    numeric = (
        frame.schema["item"] == pl.String and frame.select(item.str.contains(_NUMERIC_DOCNO).all()).item()
    )
    converted = [pl.col("query").cast(pl.Categorical)]
    if numeric:
        converted.append(item.str.to_integer(base=10, dtype=pl.UInt32))
    return frame.with_columns(converted)


def _text_items(frame: pl.DataFrame) -> pl.DataFrame:
    """The frame with its ids as text again (validate's messages name them as the files spell them)."""
    frame = frame.with_columns(pl.col("query").cast(pl.String))
    return frame.with_columns(pl.col("item").cast(pl.String)) if frame.schema["item"] == pl.UInt32 else frame


def _columns(
    lines: list[Line], per_query: pl.DataFrame, order: list[str], judged_only: bool
) -> list[list[object]]:
    """Each line's per-query values in trec_eval's query order; NaN where -J left trec_eval 0/0."""
    position = {q: i for i, q in enumerate(per_query["query"].cast(pl.String).to_list())}
    ordered = per_query[[position[q] for q in order]]  # one gather, then a list per column
    num_ret, num_rel = ordered["num_ret"].to_list(), ordered["num_rel"].to_list()
    columns: list[list[object]] = []
    for line in lines:
        if line.metric is None:
            columns.append([None] * len(order))
            continue
        column = ordered[line.column].to_list()
        levels = empty_nan_levels(line) if judged_only else ()
        if levels:
            column = [
                math.nan if num_ret[i] == 0 and is_empty_nan(levels, num_rel[i]) else value
                for i, value in enumerate(column)
            ]
        columns.append(column)
    return columns


def _replayed(line: Line, column: list[object], order: list[str], replay: Replay) -> list[object]:
    """The column with trec_eval's own arithmetic where the printed digit depends on it (see _replay)."""
    if replay.may_be_undefined(line):
        column = [math.nan if replay.undefined(line, q) else v for q, v in zip(order, column, strict=True)]
    if not replay.applies(line):
        return column
    column = list(column)
    for i in near_ties(column):
        column[i] = replay.value(line, order[i], column[i])
    if near_tie(summary_value(line, column, None)):  # the all line's mean: every query as trec_eval adds it
        column = [replay.value(line, q, v) for q, v in zip(order, column, strict=True)]
    return column


def _near_tie_queries(
    lines: list[Line], columns: list[list[object]], order: list[str], replay: Replay
) -> set[str]:
    """The queries whose value of some replayed line lies on a printed tie: the rows `_replayed` reads."""
    return {
        order[i]
        for line, column in zip(lines, columns, strict=True)
        if replay.applies(line)
        for i in near_ties(column)
    }


def _missing(qrels: pl.DataFrame, run: pl.DataFrame) -> str | None:
    """The first judged query (in trec_eval's order) the run has no line for, or None."""
    retrieved = set(run["query"].unique().to_list())
    return next((q for q in trec_order(qrels["query"].unique().to_list()) if q not in retrieved), None)


def evaluate(args: argparse.Namespace) -> Iterator[str]:
    """The output lines of trec_eval's command line, parsed into `args`, made as they are written.

    The frames are let go before the first line is made: only the printed
    values (a list per line) stay while the output is written.

    Raises
    ------
    Refusal
        ``--refuse-missing`` without ``-c`` and a judged query the run lacks.
    RankMetricsError
        A bad measure, a malformed file, or no query to evaluate.
    OSError
        A file that cannot be opened.
    """
    lines = parse_measures(args.measures or ["official"])
    qrels = read_file(prm.read_trec_qrels, args.qrels)
    run = _read_run(args.run)
    runid = run["run"][-1] if run.height else ""  # trec_eval keeps the last line's run id
    run = run.drop("run")  # gone before the join, not after it (1M run lines: 16 MiB of its peak)
    missing = _missing(qrels, run) if args.refuse_missing and not args.complete else None
    frame = prm.join_run_qrels(run, qrels)
    rel = complete_num_rel(qrels, "relevance") if args.complete else None
    del run, qrels  # the joined frame holds what the evaluation reads
    frame = _compact(frame)
    per_query = _per_query(frame, lines, args)
    order = trec_order(per_query["query"].cast(pl.String).to_list())
    columns = _columns(lines, per_query, order, judged_only=args.judged_only)
    del per_query
    replay = Replay(frame, args)
    replay.prefetch(_near_tie_queries(lines, columns, order, replay))
    columns = [_replayed(line, column, order, replay) for line, column in zip(lines, columns, strict=True)]
    del replay, frame
    if missing is not None:  # trec_eval prints the queries before it, then stops
        before = trec_order([*order, missing]).index(missing) if args.per_query else 0
        printed = list(query_rows(lines, order[:before], [column[:before] for column in columns]))
        raise Refusal.missing_query(missing, printed)
    if not order:
        raise prm.InvalidDataError.no_queries("with both results and relevance info")
    summary = (
        summary_rows(
            lines, [summary_value(line, c, rel) for line, c in zip(lines, columns, strict=True)], runid
        )
        if not args.no_summary
        else []
    )
    return itertools.chain(query_rows(lines, order, columns) if args.per_query else (), summary)


def demo(argv: Sequence[str]) -> int:
    """``rankmetrics demo``: evaluate the bundled trec_eval test collection and print a table."""
    demo_parser().parse_args(list(argv))
    run = prm.read_trec_run(prm.demo_path("results.test"))
    qrels = prm.read_trec_qrels(prm.demo_path("qrels.test"))
    frame = prm.join_run_qrels(run.drop("run"), qrels)
    metrics = list(DEMO_METRICS)
    per_query = prm.evaluate(frame, metrics, per_query=True)
    summary = prm.evaluate(frame, metrics).select(pl.lit("all").alias("query"), *metrics)
    table = pl.concat([per_query, summary], how="vertical_relaxed")
    print(  # noqa: T201
        "NIST trec_eval's own test collection (TREC topics 301-303, the run 'STANDARD', "
        f"{run.height} retrieved documents, {qrels.height} judgments), bundled with "
        "polars_rankmetrics; one row per query, then 'all' (the mean; num_rel_ret is summed):"
    )
    with pl.Config(tbl_rows=-1, tbl_hide_dataframe_shape=True, float_precision=4):
        print(table)  # noqa: T201
    return 0
