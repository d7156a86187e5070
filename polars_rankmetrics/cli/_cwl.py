"""``rankmetrics cwl``: cwl_eval 1.0.12's command line, inputs and output, byte for byte.

``rankmetrics cwl GAIN_FILE RESULT_FILE [-c COST_FILE] [-m METRICS_FILE] [-n] [-r]
[--max_gain G] [--min_gain G] [--max_cost C] [--min_cost C] [--max_depth N]``
reads what ``cwl_eval`` reads (see ``_cwl_files`` and ``_cwl_measures``) and
prints what it prints: with ``-n`` a header, then for each ranking of the run
(in file order) one line per measure (in the metrics file's order, or
``cwl_eval``'s default set): ``topic<TAB>name<TAB>EU<TAB>ETU<TAB>EC<TAB>ETC<TAB>ED``,
and with ``-r`` the five residuals (best case minus worst case), every number
with four decimals. There is no summary line.

Where ``cwl_eval`` stops with a traceback (a malformed line, a gain outside a
measure's range), this command prints what ``cwl_eval`` printed before it
stopped, then the library's error naming the file and line (or the topic and
measure), and exits with status 1. A file that does not exist prints
``cwl_eval``'s ``NAME Not Found`` line. Not done: ``-b`` (the BibTeX file) and
``cwl_eval``'s log file ``cwl.log``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import polars as pl

import polars_rankmetrics as prm
from polars_rankmetrics.cli._cwl_files import CwlRun, read_costs, read_gains, read_run
from polars_rankmetrics.cli._cwl_measures import DEFAULT_MEASURES, CwlMeasure, read_metrics
from polars_rankmetrics.cli._cwl_values import QUANTITIES, Bounds, cwl_values

__all__ = ["cwl", "cwl_parser"]

PROG = "rankmetrics cwl"
_HEADER = "Topic\tMetric\tEU\tETU\tEC\tETC\tED"
_RESIDUAL_HEADER = "\tResEU\tResETU\tResEC\tResETC\tResED"


def _number(text: str) -> float:
    """``--max_cost`` and ``--min_cost``: ``cwl_eval`` keeps them as text and numpy reads them as numbers."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid float value: {text!r}") from None


def cwl_parser() -> argparse.ArgumentParser:
    """The parser of ``rankmetrics cwl``: cwl_eval 1.0.12's arguments, same names, same defaults."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="C/W/L evaluation: print exactly what cwl_eval 1.0.12 prints for the same files.",
        epilog="Not supported: -b/--bib_file. Unlike cwl_eval, no cwl.log file is written.",
    )
    add = parser.add_argument
    add("gain_file", help="TREC qrels, the relevance read as the gain: topic unused doc gain")
    add("result_file", help="TREC run, six fields: topic element_type doc rank score run")
    add("-c", "--cost_file", default=None, help="element_type cost lines (default: cost 1.0)")
    add("-m", "--metrics_file", default=None, help="ClassName(args) lines (default: cwl_eval's)")
    add("-b", "--bib_file", default=None, help="not supported")
    add("-n", "--colnames", action="store_true", help="print a header line")
    add("-r", "--residuals", action="store_true", help="also print the residuals")
    add(
        "--max_gain",
        type=float,
        default=1.0,
        help="the most gain the gain file may hold; an unjudged item's, best case",
    )
    add("--min_gain", type=float, default=0.0, help="the least gain the gain file may hold (default 0.0)")
    add("--max_cost", type=_number, default=1.0, help="an unknown cost, worst case (default 1.0)")
    add("--min_cost", type=_number, default=1.0, help="an unknown cost, best case (default 1.0)")
    add("--max_depth", type=int, default=1000, help="the depth of every ranking (default 1000)")
    return parser


def _check_gains(gains: pl.DataFrame, low: float, high: float, path: Path) -> None:
    """cwl_eval's check of the gain file: every gain in [--min_gain, --max_gain]."""
    bad = gains.filter((pl.col("gain") > high) | (pl.col("gain") < low))
    if bad.height:
        row = bad.row(0, named=True)
        rule = f"gains must be in [{low}, {high}] (--min_gain, --max_gain)"
        where = f"topic {row['topic']!r} doc"
        raise prm.InvalidDataError.out_of_range(str(path), where, row["doc"], "gain", row["gain"], rule=rule)


def _format(topic: str, measure: CwlMeasure, values: Sequence[float]) -> str:
    """One output line: Python's ``{:.4f}`` of each value, as cwl_eval prints them (nan, inf included)."""
    return "\t".join([topic, measure.name, *(f"{v:.4f}" for v in values)]) + "\n"


def _lines(run: CwlRun, measures: Sequence[CwlMeasure], table: pl.DataFrame, blocks: int) -> list[str]:
    """The report's lines of the first `blocks` rankings, in file order, measures in their order."""
    names = [*QUANTITIES, *(f"res_{q}" for q in QUANTITIES)]
    columns = [c for c in names if c in table.columns]
    by_key = {(r[0], r[1]): r[2:] for r in table.select("block", "measure", *columns).iter_rows()}
    return [_format(run.topics[b], m, by_key[b, i]) for b in range(blocks) for i, m in enumerate(measures)]


def _missing(paths: Sequence[str | None]) -> str | None:
    """The first path that does not exist, in cwl_eval's order of checks, as typed."""
    return next((p for p in paths if p and not Path(p).exists()), None)


def cwl(argv: Sequence[str]) -> int:
    r"""``rankmetrics cwl``: evaluate a run as cwl_eval 1.0.12 does and print its report.

    Parameters
    ----------
    argv
        The arguments after ``cwl``.

    Returns
    -------
    int
        0; errors propagate to :func:`polars_rankmetrics.cli.main`, which
        prints them (``rankmetrics: ...``) and returns 1 (2 for a usage error),
        after what cwl_eval would have printed before it stopped.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from polars_rankmetrics.cli._cwl import cwl
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "gains").write_text("T1 0 D1 1\nT1 0 D3 0.5\n")
    >>> _ = (folder / "run").write_text("T1 E D1 1 3 r\nT1 E D2 2 2 r\nT1 E D3 3 1 r\n")
    >>> _ = (folder / "metrics").write_text("PrecisionCWLMetric(3)\nRBPCWLMetric(0.5)\n")
    >>> cwl([str(folder / "gains"), str(folder / "run"), "-m", str(folder / "metrics"), "-n"])
    Topic	Metric	EU	ETU	EC	ETC	ED
    T1	P@3	0.5000	1.5000	1.0000	3.0000	3.0000
    T1	RBP@0.5	0.5625	1.1250	1.0000	2.0000	2.0000
    0
    """
    args = cwl_parser().parse_args(list(argv))
    if args.bib_file is not None:
        raise prm.InvalidParameterError.out_of_domain(
            "-b/--bib_file", "not given (not supported)", args.bib_file
        )
    if args.max_depth < 1:
        raise prm.InvalidParameterError.out_of_domain("--max_depth", "a positive integer", args.max_depth)
    missing = _missing([args.result_file, args.gain_file, args.cost_file, args.metrics_file])
    if missing is not None:
        sys.stdout.write(f"{missing} Not Found\n")  # cwl_eval's words, on its standard output
        raise prm.TrecFormatError.unreadable(missing, "no such file")
    gains = read_gains(Path(args.gain_file))
    _check_gains(gains, args.min_gain, args.max_gain, Path(args.gain_file))
    costs = read_costs(Path(args.cost_file)) if args.cost_file else None
    measures = read_metrics(Path(args.metrics_file)) if args.metrics_file else list(DEFAULT_MEASURES)
    if args.colnames:
        sys.stdout.write(_HEADER + (_RESIDUAL_HEADER if args.residuals else "") + "\n")
    run = read_run(Path(args.result_file))
    bounds = Bounds(
        args.max_depth, args.max_gain, args.min_gain, args.min_cost, args.max_cost, args.residuals
    )
    table, stop = cwl_values(run, gains, costs, measures, bounds)
    complete = run.complete
    error: prm.RankMetricsError | None = run.error
    if stop is not None and stop[0] < complete:
        complete, error = stop
    try:
        sys.stdout.writelines(_lines(run, measures, table, complete))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    if error is not None:
        raise error
    if not run.topics:  # cwl_eval fails on an empty run, after its header
        raise prm.TrecFormatError.unreadable(args.result_file, "holds no ranking (cwl_eval fails on it)")
    return 0
