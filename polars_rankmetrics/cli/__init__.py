"""The ``rankmetrics`` command: trec_eval's command line and output, byte for byte, and a demo.

``rankmetrics QRELS RUN [-q] [-c] [-n] [-J] [-M N] [-l N] [-m MEASURE[.PARAMS] ...]``
prints what ``trec_eval`` 10.0 prints for the same arguments: every measure
of its ``all_trec`` set (and ``dcg``), with trec_eval's parameter syntax,
line names, measure order and number formats. ``rankmetrics demo``
evaluates the bundled trec_eval test collection.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl

import polars_rankmetrics as prm
from polars_rankmetrics.cli._format import query_rows, summary_rows
from polars_rankmetrics.cli._measures import (
    DEMO_METRICS,
    MEASURES,
    NICKNAMES,
    NOT_SUPPORTED,
    Line,
    Measure,
    parse_measures,
    supported,
)

__all__ = [
    "DEMO_METRICS",
    "MEASURES",
    "NICKNAMES",
    "NOT_SUPPORTED",
    "Line",
    "Measure",
    "main",
    "parse_measures",
]

PROG = "rankmetrics"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        usage=f"{PROG} [-h] [-q] [-c] [-n] [-J] [-M N] [-l N] [-m MEASURE[.PARAMS]] QRELS RUN\n"
        f"       {PROG} demo",
        description=(
            "Evaluate a TREC run against judgments and print exactly what trec_eval 10.0 prints "
            "(measure, query or 'all', value). "
            f"'{PROG} demo' evaluates trec_eval's bundled test collection."
        ),
    )
    add = parser.add_argument
    add("qrels", metavar="QRELS", type=Path, help="judgments: query iteration docno relevance")
    add("run", metavar="RUN", type=Path, help="the run: query Q0 docno rank score runid")
    add("-q", "--query_eval_wanted", action="store_true", dest="per_query", help="also print per query")
    add(
        "-c", "--complete_rel_info_wanted", action="store_true", dest="complete",
        help="average over every judged query; one missing from the run scores 0",
    )  # fmt: skip
    add("-n", "--nosummary", action="store_true", dest="no_summary", help="do not print the 'all' lines")
    add(
        "-J", "--Judged_docs_only", action="store_true", dest="judged_only",
        help="drop unjudged documents from each ranking before evaluating",
    )  # fmt: skip
    add(
        "-M", "--Max_retrieved_per_topic", type=int, dest="depth", metavar="N",
        help="keep only the first N retrieved per query",
    )  # fmt: skip
    add(
        "-l", "--level_for_rel", type=int, dest="relevance_level", metavar="N",
        help="a document is relevant when its grade is at least N (default 1)",
    )  # fmt: skip
    add(
        "-m", "--measure", action="append", dest="measures", metavar="MEASURE", default=None,
        help="measure, trec_eval style (P.5,10; map; ndcg.1=3,2=9; official; set; all_trec); "
        f"repeatable. Default: official. Measures: {supported()}",
    )  # fmt: skip
    return parser


def _read(reader: Callable[[Path], pl.DataFrame], path: Path) -> pl.DataFrame:
    """Read a TREC file; an error Polars raises on it (a directory, binary data) names the file."""
    try:
        return reader(path)
    except pl.exceptions.PolarsError as err:
        msg = f"{path}: cannot be read as a TREC file: {err}"
        raise prm.TrecFormatError(msg) from err


def _values(frame: pl.DataFrame, lines: list[Line], args: argparse.Namespace) -> list[pl.DataFrame]:
    """The summary (one row) and, with -q, the per-query values of every line's metric."""
    # num_q is always computed: it says whether any query was evaluated.
    wanted = [prm.num_q(), *(line.metric for line in lines if line.metric is not None)]
    metrics = list({str(m): m for m in wanted}.values())
    prm.validate(frame)  # evaluate does not check a LazyFrame
    lazy = frame.lazy()

    def plan(per_query: bool) -> pl.LazyFrame:
        return prm.evaluate(
            lazy, metrics, per_query=per_query, missing="zero" if args.complete else "skip",
            depth=args.depth, relevance_level=args.relevance_level, judged_only=args.judged_only,
        )  # fmt: skip

    plans = [plan(per_query=False), *([plan(per_query=True)] if args.per_query else [])]
    try:
        return pl.collect_all(plans)  # one evaluate call per output shape, collected together
    except pl.exceptions.PolarsError as err:  # a parameter the library accepts but cannot compute
        msg = f"the evaluation failed: {str(err).splitlines()[0]}"
        raise prm.InvalidDataError(msg) from err


def _evaluate(args: argparse.Namespace) -> list[str]:
    lines = parse_measures(args.measures or ["official"])
    qrels = _read(prm.read_trec_qrels, args.qrels)
    run = _read(prm.read_trec_run, args.run)
    runid = run["run"][-1] if run.height else ""  # trec_eval keeps the last line's run id
    frame = prm.join_run_qrels(run.drop("run"), qrels)
    summary, *per_query = _values(frame, lines, args)
    if summary.height == 0 or summary["num_q"][0] == 0:
        msg = "no queries with both results and relevance info"
        raise prm.InvalidDataError(msg)
    out = query_rows(lines, per_query[0]) if per_query else []
    if not args.no_summary:
        out += summary_rows(lines, summary, runid)
    return out


def _demo(argv: Sequence[str]) -> int:
    argparse.ArgumentParser(
        prog=f"{PROG} demo",
        description="Evaluate NIST trec_eval's test collection (bundled) and print a table.",
    ).parse_args(list(argv))
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rankmetrics`` command.

    ``rankmetrics QRELS RUN [-q] [-c] [-n] [-J] [-M N] [-l N] [-m MEASURE[.PARAMS] ...]``
    prints exactly what trec_eval 10.0 prints for the same arguments:
    ``name<TAB>query-or-all<TAB>value``, the name padded to 22 characters,
    in trec_eval's measure order, queries ordered by id as text.
    ``rankmetrics demo`` evaluates the bundled trec_eval test collection
    and prints a table.

    Parameters
    ----------
    argv
        The arguments after the program name; None reads ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status: 0 on success, 1 when a file is malformed or
        missing, a measure is unknown or no query could be evaluated (the
        message goes to stderr, prefixed ``rankmetrics:``), 2 for a usage
        error.

    Examples
    --------
    >>> from polars_rankmetrics.cli import main
    >>> qrels, run = prm.demo_path("qrels.test"), prm.demo_path("results.test")
    >>> main([str(qrels), str(run), "-m", "map", "-m", "P.5", "-mndcg.1=3,2=9"])
    map                   	all	0.1785
    P_5                   	all	0.2667
    ndcg_1=3,2=9          	all	0.4021
    0
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list[:1] == ["demo"]:
            return _demo(args_list[1:])
        lines = _evaluate(_parser().parse_args(args_list))
    except (prm.RankMetricsError, OSError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)  # noqa: T201
        return 1
    except SystemExit as err:  # argparse: --help (0) or a usage error (2)
        return err.code if isinstance(err.code, int) else 2
    try:
        sys.stdout.write("".join(lines))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as trec_eval does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
