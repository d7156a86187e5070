"""The ``rankmetrics compare`` command: evaluate TREC runs on the same judgments and compare them.

``rankmetrics compare QRELS RUN1 RUN2 [RUN...] [-m MEASURE ...] [--test t]
[--correction holm] [--baseline RUN1] [--alpha 0.05] [--seed N]
[--format markdown|latex|html|csv]`` evaluates every run per query, runs
:func:`~polars_rankmetrics.compare` and prints :func:`~polars_rankmetrics.table`
(or the comparison itself as CSV).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl

import polars_rankmetrics as prm
from polars_rankmetrics.compare._compare import TESTS

__all__ = ["main", "metric_names"]

PROG = "rankmetrics compare"
DEFAULT_MEASURES = ("map", "ndcg_cut.10")
FORMATS = ("markdown", "latex", "html", "csv")


def metric_names(specs: Sequence[str]) -> list[str]:
    """Turn ``-m`` specs into metric names :func:`~polars_rankmetrics.evaluate` reads, in order, once each.

    A spec is any name :func:`~polars_rankmetrics.parse` reads (``map``,
    ``ndcg@10``, ``P_10``, ``ndcg_cut_10``), or trec_eval's ``-m`` form with
    a dot: ``ndcg_cut.10`` is read as ``ndcg_cut_10`` and ``P.5,10`` as
    ``P_5`` and ``P_10``.

    Parameters
    ----------
    specs
        The ``-m`` arguments.

    Returns
    -------
    list of str

    Raises
    ------
    UnknownMetricError
        A spec names no metric (the message quotes it).

    Examples
    --------
    >>> metric_names(["ndcg_cut.10", "map", "P.5,10", "ndcg@10"])
    ['ndcg_cut_10', 'map', 'P_5', 'P_10', 'ndcg@10']
    """
    names: list[str] = []
    for spec in specs:
        base, dot, params = spec.partition(".")
        spelled = [f"{base}_{p}" for p in params.split(",")] if dot else [spec]
        for name in spelled:
            try:
                prm.parse(name)
            except prm.UnknownMetricError as err:
                msg = f"measure {spec!r}: {err}"
                raise prm.UnknownMetricError(msg) from err
            if name not in names:
                names.append(name)
    return names


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Evaluate TREC runs per query on the same judgments, test every run against the baseline "
            "(or every pair) and print a table of the means with significant differences marked."
        ),
    )
    add = parser.add_argument
    add("qrels", metavar="QRELS", type=Path, help="judgments: query iteration docno relevance")
    add("runs", metavar="RUN", type=Path, nargs="+", help="two or more runs: query Q0 docno rank score runid")
    add(
        "-m", "--measure", action="append", dest="measures", metavar="MEASURE", default=None,
        help="a metric: map, P_10, ndcg@10, or trec_eval's ndcg_cut.10, P.5,10; repeatable "
        f"(default: {' '.join(DEFAULT_MEASURES)})",
    )  # fmt: skip
    add("--test", choices=TESTS, default="t", help="the paired test (default: t)")
    add(
        "--correction", choices=("holm", "bonferroni", "bh", "none"), default="holm",
        help="correction over each metric's comparisons (default: holm)",
    )  # fmt: skip
    add("--baseline", default=None, help="the run the others are compared with (default: every pair)")
    add("--alpha", type=float, default=0.05, help="significance level (default: 0.05)")
    add("--seed", type=int, default=None, help="seed of the resampling tests")
    add("--resamples", type=int, default=10_000, help="resamples of the resampling tests (default: 10000)")
    add(
        "--missing", choices=("error", "zero", "intersect"), default="error",
        help="a judged query a run did not retrieve: error, score 0 (trec_eval -c), or drop it",
    )  # fmt: skip
    add("--format", choices=FORMATS, default="markdown", help="output format (default: markdown)")
    return parser


def _read(reader: Callable[[Path], pl.DataFrame], path: Path) -> pl.DataFrame:
    """Read a TREC file; an error Polars raises on it (a directory, binary data) names the file."""
    try:
        return reader(path)
    except pl.exceptions.PolarsError as err:
        msg = f"{path}: cannot be read as a TREC file: {err}"
        raise prm.TrecFormatError(msg) from err


def _labels(paths: Sequence[Path]) -> list[str]:
    """Each run's name: its file name, or the path as given when two runs share a file name."""
    names = [path.name for path in paths]
    labels = names if len(set(names)) == len(names) else [str(path) for path in paths]
    if len(set(labels)) < len(labels):
        msg = f"a run is given twice: {', '.join(labels)}"
        raise prm.InvalidParameterError(msg)
    return labels


def _comparison(args: argparse.Namespace) -> pl.DataFrame:
    metrics = metric_names(args.measures or list(DEFAULT_MEASURES))
    labels = _labels(args.runs)
    baseline = args.baseline
    if baseline is not None:
        by_path = {str(path): label for path, label in zip(args.runs, labels, strict=True)}
        baseline = by_path.get(baseline, baseline)
    qrels = _read(prm.read_trec_qrels, args.qrels)
    runs = [
        _read(prm.read_trec_run, path).drop("run").with_columns(pl.lit(label).alias("run"))
        for path, label in zip(args.runs, labels, strict=True)
    ]
    frame = prm.join_run_qrels(pl.concat(runs), qrels, by="run")
    per_query = prm.evaluate(frame, metrics, by="run", per_query=True)
    return prm.compare(
        per_query,
        by="run",
        baseline=baseline,
        metrics=metrics,
        test=args.test,
        correction=None if args.correction == "none" else args.correction,
        alpha=args.alpha,
        n_resamples=args.resamples,
        seed=args.seed,
        missing=args.missing,
    )


def _render(comparison: pl.DataFrame, output: str) -> str:
    if output == "csv":
        return comparison.write_csv()
    if output == "markdown":
        return prm.table_markdown(comparison) + "\n"
    table = prm.table(comparison)
    return (table.as_latex() if output == "latex" else table.as_raw_html()) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``rankmetrics compare``.

    Parameters
    ----------
    argv
        The arguments after ``compare``; None reads ``sys.argv[2:]``.

    Returns
    -------
    int
        0 on success; 1 when a file is malformed or missing, a measure or
        baseline is unknown, or the data cannot be compared (the message
        goes to stderr, prefixed ``rankmetrics compare:``); 2 for a usage
        error.

    Examples
    --------
    >>> from polars_rankmetrics.compare.cli import main
    >>> qrels, run = prm.demo_path("qrels.test"), prm.demo_path("results.test")
    >>> trunc = prm.demo_path("results.trunc")  # results.test cut short; it lacks query 302
    >>> main([str(qrels), str(run), str(trunc), "-m", "map", "-m", "P.10", "--missing", "zero"])
    | run               | map        | P_10       |
    |-------------------|------------|------------|
    | results.test (a)  | **0.1785** | **0.3000** |
    | results.trunc (b) | 0.1016     | 0.2000     |
    <BLANKLINE>
    Bold: the best mean of each metric. A superscript letter marks a mean significantly higher than
    the mean of the system with that letter (paired t test, Holm correction over each metric's 1
    comparison(s); alpha = 0.05; 3 paired queries).
    0
    """
    args_list = list(sys.argv[2:] if argv is None else argv)
    try:
        args = _parser().parse_args(args_list)
        if len(args.runs) < 2:
            _parser().error("compare needs at least two runs")
        text = _render(_comparison(args), args.format)
    except (prm.RankMetricsError, OSError, ImportError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)  # noqa: T201
        return 1
    except SystemExit as err:  # argparse: --help (0) or a usage error (2)
        return err.code if isinstance(err.code, int) else 2
    sys.stdout.write(text)
    return 0
