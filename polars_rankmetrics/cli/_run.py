"""The evaluation behind the command: read the files, evaluate every line's metric, print; and the demo."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl

import polars_rankmetrics as prm
from polars_rankmetrics.cli._args import demo_parser
from polars_rankmetrics.cli._format import query_rows, summary_rows
from polars_rankmetrics.cli._measures import Line
from polars_rankmetrics.cli._specs import parse_measures

__all__ = ["DEMO_METRICS", "demo", "evaluate", "read_file"]

DEMO_METRICS = ("ndcg@10", "map", "mrr", "P_10", "recall@100", "num_rel_ret")


def read_file(reader: Callable[[Path], pl.DataFrame], path: Path) -> pl.DataFrame:
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
            lazy, metrics, per_query=per_query, missing="zero" if args.complete else None,
            depth=args.depth, relevance_level=args.relevance_level, judged_only=args.judged_only or None,
            ties=args.ties, preset=args.preset,
        )  # fmt: skip

    plans = [plan(per_query=False), *([plan(per_query=True)] if args.per_query else [])]
    try:
        return pl.collect_all(plans)  # one evaluate call per output shape, collected together
    except pl.exceptions.PolarsError as err:  # a parameter the library accepts but cannot compute
        msg = f"the evaluation failed: {str(err).splitlines()[0]}"
        raise prm.InvalidDataError(msg) from err


def evaluate(args: argparse.Namespace) -> list[str]:
    """The output lines of trec_eval's command line, parsed into `args`.

    Raises
    ------
    RankMetricsError
        A bad measure, a malformed file, or no query to evaluate.
    OSError
        A file that cannot be opened.
    """
    lines = parse_measures(args.measures or ["official"])
    qrels = read_file(prm.read_trec_qrels, args.qrels)
    run = read_file(prm.read_trec_run, args.run)
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
