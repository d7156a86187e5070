"""The ``rankmetrics`` command: trec_eval's command line and output, byte for byte, and a demo.

``rankmetrics QRELS RUN [-q] [-c] [-n] [-J] [-M N] [-l N] [-m MEASURE[.PARAMS] ...]``
prints what ``trec_eval`` 10.0 prints for the same arguments: every measure
of its ``all_trec`` set (and ``dcg``), with trec_eval's parameter syntax,
line names, measure order and number formats. ``rankmetrics demo``
evaluates the bundled trec_eval test collection; ``rankmetrics compare
QRELS RUN RUN [RUN...]`` tests runs against each other and prints a table;
``rankmetrics fuse --method rrf RUN RUN [RUN...]`` prints the fused run;
``rankmetrics cwl GAINS RUN [-m METRICS] [-c COSTS] [-n] [-r]`` prints what
cwl_eval 1.0.12 prints.

Modules: ``_args`` (the command line), ``_measures`` (trec_eval's measure
table), ``_specs`` (``-m`` specs into output lines), ``_values`` (trec_eval's
arithmetic on the per-query values: its ``all`` line and ``-nan``),
``_format`` (trec_eval's number formats and line layout), ``_run`` (the
evaluation and the demo), ``_compare`` (the ``compare`` subcommand), ``_fuse`` (the ``fuse`` subcommand),
``_cwl`` (the ``cwl`` subcommand: ``_cwl_files``, ``_cwl_measures``, ``_cwl_values``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import NoReturn

import polars_rankmetrics as prm
from polars_rankmetrics.cli._args import PROG, UNSUPPORTED_FLAGS, parser
from polars_rankmetrics.cli._measures import MEASURES, NICKNAMES, NOT_SUPPORTED, Line, Measure
from polars_rankmetrics.cli._run import DEMO_METRICS, Refusal, demo, evaluate
from polars_rankmetrics.cli._specs import parse_measures

__all__ = [
    "DEMO_METRICS",
    "MEASURES",
    "NICKNAMES",
    "NOT_SUPPORTED",
    "UNSUPPORTED_FLAGS",
    "Line",
    "Measure",
    "main",
    "parse_measures",
    "run",
]


def main(argv: Sequence[str] | None = None) -> int:  # noqa: PLR0911  (one return per subcommand)
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
        The exit status: 0 on success; 1 when a file is malformed or
        missing, a measure is unknown, a flag's value is out of its domain
        (``-M 0``) or no query could be evaluated; 2 for a usage error or a
        trec_eval flag the command does not support (``-N``). Every message
        goes to stderr, prefixed ``rankmetrics:``, naming what was typed.

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
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        # ---- Subcommand dispatch, the one place: the first argument names a subcommand, a
        # function (its arguments) -> exit status, run inside this try so that its errors print
        # as `rankmetrics: ...`. Name a new one in _args.parser's usage too. ----
        if args[:1] == ["demo"]:
            return demo(args[1:])
        if args[:1] == ["compare"]:  # imported here: a plain evaluation needs no statistics
            from polars_rankmetrics.cli._compare import compare  # noqa: PLC0415

            return compare(args[1:])
        if args[:1] == ["fuse"]:
            from polars_rankmetrics.cli._fuse import fuse  # noqa: PLC0415

            return fuse(args[1:])
        if args[:1] == ["cwl"]:
            from polars_rankmetrics.cli._cwl import cwl  # noqa: PLC0415

            return cwl(args[1:])
        # ---- End of subcommand dispatch: anything else is trec_eval's command line. ----
        lines = evaluate(parser().parse_args(args))
    except (prm.RankMetricsError, OSError, ModuleNotFoundError) as err:  # the last: an extra not installed
        # --refuse-missing: what trec_eval prints before it stops, and its status
        printed, status = (err.printed, err.status) if isinstance(err, Refusal) else ([], 1)
        sys.stdout.write("".join(printed))
        print(f"{PROG}: {err}", file=sys.stderr)  # noqa: T201
        return status
    except SystemExit as err:  # argparse: --help (0) or a usage error (2)
        return err.code if isinstance(err.code, int) else 2
    try:
        sys.stdout.writelines(lines)  # no joined copy of a million output lines
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as trec_eval does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


def run() -> NoReturn:
    """The ``rankmetrics`` program: :func:`main` on ``sys.argv``, then exit at once with its status.

    Once the output is flushed the process ends without tearing down the
    interpreter (``os._exit``): freeing every module and Polars' threads and
    memory one by one would add 40-60 ms to each run, a fifth of the
    command's start-up on a small collection. An exception :func:`main` does
    not handle propagates as usual (its traceback printed, status 1).

    Examples
    --------
    >>> import subprocess, sys
    >>> qrels, results = prm.demo_path("qrels.test"), prm.demo_path("results.test")
    >>> command = [sys.executable, "-m", "polars_rankmetrics", "-m", "map", str(qrels), str(results)]
    >>> done = subprocess.run(command, capture_output=True, text=True)
    >>> print(done.stdout, end="")
    map                   	all	0.1785
    >>> done.returncode
    0
    """
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):  # the reader went away, or a stream is closed
        status = status or 1
    os._exit(status)
