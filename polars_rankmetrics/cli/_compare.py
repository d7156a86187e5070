"""``rankmetrics compare``: evaluate TREC runs on the same judgments per query and compare them.

``rankmetrics compare QRELS RUN1 RUN2 [RUN...] [-m MEASURE ...] [--test t]
[--correction holm] [--baseline RUN1] [--alpha 0.05] [--seed N]
[--format markdown|latex|html|csv]`` (its parser: :func:`_args.compare_parser`)
evaluates every run per query, runs :func:`~polars_rankmetrics.significance` and
prints :func:`~polars_rankmetrics.table` (or the comparison itself as CSV).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import polars as pl

import polars_rankmetrics as prm
from polars_rankmetrics.cli._args import DEFAULT_COMPARE_MEASURES, compare_parser
from polars_rankmetrics.cli._run import read_file
from polars_rankmetrics.exceptions import MissingQueriesError

__all__ = ["compare", "metric_names"]


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
                raise prm.UnknownMetricError.bad_measure(spec, str(err)) from err
            if name not in names:
                names.append(name)
    return names


def _labels(paths: Sequence[Path]) -> list[str]:
    """Each run's name: its file name, or the path as given when two runs share a file name."""
    names = [path.name for path in paths]
    labels = names if len(set(names)) == len(names) else [str(path) for path in paths]
    if len(set(labels)) < len(labels):
        raise prm.InvalidParameterError.refused("a run", f"is given twice: {', '.join(labels)}")
    return labels


def _comparison(args: argparse.Namespace) -> pl.DataFrame:
    metrics = metric_names(args.measures or list(DEFAULT_COMPARE_MEASURES))
    labels = _labels(args.runs)
    baseline = args.baseline
    if baseline is not None:
        by_path = {str(path): label for path, label in zip(args.runs, labels, strict=True)}
        baseline = by_path.get(baseline, baseline)
    qrels = read_file(prm.read_trec_qrels, args.qrels)
    runs = [
        read_file(prm.read_trec_run, path).drop("run").with_columns(pl.lit(label).alias("run"))
        for path, label in zip(args.runs, labels, strict=True)
    ]
    frame = prm.join_run_qrels(pl.concat(runs), qrels, by="run")
    # --missing zero is trec_eval's -c: every judged query counts, 0 for a run that retrieved nothing
    # for it, even when no run retrieved anything for it (compare alone sees only the queries some
    # run has).
    per_query = prm.evaluate(
        frame, metrics, by="run", per_query=True, missing="zero" if args.missing == "zero" else "skip"
    )
    try:
        return _compared(per_query, metrics, baseline, args)
    except MissingQueriesError as err:
        remedy = "Pass --missing zero to score them 0 (trec_eval -c) or --missing intersect to compare on "
        raise MissingQueriesError.with_remedy(err.detail, remedy + "the queries every run has") from None


def _compared(
    per_query: pl.DataFrame, metrics: list[str], baseline: str | None, args: argparse.Namespace
) -> pl.DataFrame:
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


def compare(argv: Sequence[str]) -> int:
    """``rankmetrics compare``: evaluate the runs per query, compare them and print the table.

    Parameters
    ----------
    argv
        The arguments after ``compare``.

    Returns
    -------
    int
        0; the command's errors propagate to :func:`polars_rankmetrics.cli.main`,
        which prints them (``rankmetrics: ...``) and returns 1 (2 for a
        usage error).

    Raises
    ------
    RankMetricsError
        A malformed file, an unknown measure or baseline, data that cannot
        be compared.
    OSError
        A file that cannot be opened.
    ModuleNotFoundError
        The ``compare`` extra (scipy, great_tables) is not installed.

    Examples
    --------
    >>> from polars_rankmetrics.cli._compare import compare
    >>> qrels, run = prm.demo_path("qrels.test"), prm.demo_path("results.test")
    >>> trunc = prm.demo_path("results.trunc")  # results.test cut short; it lacks query 302
    >>> compare([str(qrels), str(run), str(trunc), "-m", "map", "-m", "P.10", "--missing", "zero"])
    | run               | map        | P_10       |
    |-------------------|------------|------------|
    | results.test (a)  | **0.1785** | **0.3000** |
    | results.trunc (b) | 0.1016     | 0.2000     |
    <BLANKLINE>
    Bold: the best mean of each metric. A superscript letter marks a mean significantly higher than
    the mean of the system with that letter (paired t test, Holm correction over each metric's 1
    comparison(s); alpha = 0.05; 3 paired queries). Queries a system has no value for score 0 for it
    (missing-query policy: zero, as trec_eval's -c): its mean here can be lower than its own mean from
    evaluate, which skips them.
    0
    """
    parser = compare_parser()
    args = parser.parse_args(list(argv))
    if len(args.runs) < 2:
        parser.error("compare needs at least two runs")
    sys.stdout.write(_render(_comparison(args), args.format))
    return 0
