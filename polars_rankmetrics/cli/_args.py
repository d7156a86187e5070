"""The command line: trec_eval's flags, and the ``demo`` and ``compare`` subcommands'."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

import polars_rankmetrics as prm
from polars_rankmetrics.cli._measures import supported
from polars_rankmetrics.conventions import PRESETS, TIES

__all__ = [
    "COMPARE_FORMATS",
    "DEFAULT_COMPARE_MEASURES",
    "PROG",
    "UNSUPPORTED_FLAGS",
    "compare_parser",
    "demo_parser",
    "parser",
]

PROG = "rankmetrics"

# trec_eval 10.0's flags this command does not support, short and long (trec_eval.c's getopt_long:
# "hvqm:cl:nD:JN:M:R:T:oZ:"); every other trec_eval flag works as in trec_eval.
UNSUPPORTED_FLAGS = (
    ("-D", "--Debug_level"),
    ("-N", "--Number_docs_in_coll"),
    ("-R", "--Rel_info_format"),
    ("-T", "--Results_format"),
    ("-o", "--Output_old_results_format"),
    ("-Z", "--Zscore"),
)


class _Unsupported(argparse.Action):
    """A trec_eval flag this command does not support: say so, naming it as typed, and exit 2."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,  # noqa: ARG002 (argparse's signature)
        values: str | Sequence[str] | None,  # noqa: ARG002
        option_string: str | None = None,
    ) -> NoReturn:
        parser.exit(2, f"{PROG}: trec_eval flag {option_string} is not supported\n")


# The flags that set the evaluation's conventions: what each sets, the values it takes (read as
# trec_eval's atol reads them, but never garbage), and the library's conventions it builds, which check it.
_CONVENTIONS: dict[str, tuple[str, str, Callable[[int], prm.Conventions]]] = {
    "depth": ("the depth", "a positive integer", lambda n: prm.Conventions(depth=n)),
    "relevance_level": ("the relevance level", "an integer", lambda n: prm.Conventions(relevance_level=n)),
}


class _Convention(argparse.Action):
    """``-M`` or ``-l``: an integer the library's conventions accept; an error names the flag as typed."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,  # noqa: ARG002 (argparse's signature)
        namespace: argparse.Namespace,
        values: str | Sequence[str] | None,
        option_string: str | None = None,
    ) -> None:
        what, domain, conventions = _CONVENTIONS[self.dest]
        got: object = values
        try:
            value = int(str(values))
            got = value
            conventions(value)
        except ValueError as err:  # not an integer, or the library's InvalidParameterError
            raise prm.InvalidParameterError.out_of_domain(f"{option_string}: {what}", domain, got) from err
        setattr(namespace, self.dest, value)


def parser() -> argparse.ArgumentParser:
    """The parser of trec_eval's command line: ``QRELS RUN`` and its flags, long names included."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        usage=f"{PROG} [-h] [-v] [-q] [-c] [-n] [-J] [-M N] [-l N] [-m MEASURE[.PARAMS]]\n"
        f"       {' ' * len(PROG)} [--ties POLICY] [--preset NAME] [--refuse-missing] QRELS RUN\n"
        f"       {PROG} demo\n"
        f"       {PROG} compare QRELS RUN RUN [RUN ...] [-m MEASURE] [--test T] [--baseline RUN] ...\n"
        f"       {PROG} fuse --method METHOD RUN RUN [RUN ...] [--norm N] [--weights W,W] ...\n"
        f"       {PROG} cwl GAINS RUN [-m METRICS] [-c COSTS] [-n] [-r] ...",
        description=(
            "Evaluate a TREC run against judgments and print exactly what trec_eval 10.0 prints "
            "(measure, query or 'all', value). "
            f"'{PROG} demo' evaluates trec_eval's bundled test collection; "
            f"'{PROG} compare' tests runs against each other ('{PROG} compare -h'); "
            f"'{PROG} fuse' fuses runs into one ('{PROG} fuse -h')."
        ),
        epilog=f"trec_eval's flags {', '.join(short for short, _ in UNSUPPORTED_FLAGS)} are not supported. "
        "RUN '-' reads the run from standard input. One difference from trec_eval 10.0: without -c, "
        "trec_eval stops with status 4 at a judged query the run has no result for (its message: "
        "\"result qid '...' not found in qrels\"); this command evaluates the other queries, and "
        "--refuse-missing stops as trec_eval does.",
    )
    _trec_eval_flags(parser.add_argument)
    for flags in UNSUPPORTED_FLAGS:
        parser.add_argument(*flags, action=_Unsupported, nargs="?", help=argparse.SUPPRESS)
    return parser


def _trec_eval_flags(add: Callable[..., object]) -> None:
    """trec_eval's arguments and flags, and this command's own (--ties, --preset, --refuse-missing)."""
    add("-v", "--version", action="version", version=f"{PROG} {prm.__version__}")
    add("qrels", metavar="QRELS", type=Path, help="judgments: query iteration docno relevance")
    add(
        "run", metavar="RUN", type=Path, help="the run: query Q0 docno rank score runid ('-': standard input)"
    )
    add("-q", "--query_eval_wanted", action="store_true", dest="per_query", help="also print per query")
    add(
        "-c", "--complete_rel_info_wanted", action="store_true", dest="complete",
        help="average over every judged query; one missing from the run scores 0",
    )  # fmt: skip
    add(
        "--refuse-missing", action="store_true", dest="refuse_missing",
        help="without -c, stop with status 4 at the first judged query the run has no result for, as "
        "trec_eval 10.0 does (by default the command evaluates the other queries)",
    )  # fmt: skip
    add("-n", "--nosummary", action="store_true", dest="no_summary", help="do not print the 'all' lines")
    add(
        "-J", "--Judged_docs_only", action="store_true", dest="judged_only",
        help="drop unjudged documents from each ranking before evaluating",
    )  # fmt: skip
    add(
        "-M", "--Max_retrieved_per_topic", action=_Convention, dest="depth", metavar="N",
        help="keep only the first N retrieved per query",
    )  # fmt: skip
    add(
        "-l", "--level_for_rel", action=_Convention, dest="relevance_level", metavar="N",
        help="a document is relevant when its grade is at least N (default 1)",
    )  # fmt: skip
    add(
        "-m", "--measure", action="append", dest="measures", metavar="MEASURE", default=None,
        help="measure, trec_eval style (P.5,10; map; ndcg.1=3,2=9; official; set; all_trec); "
        f"repeatable. Default: official. Measures: {supported()}",
    )  # fmt: skip
    add(
        "--ties", choices=TIES, default=None,
        help="order inside a tie of scores: text (trec_eval's, the default), average (the expected value "
        "over every order), optimistic / pessimistic (higher / lower grade first)",
    )  # fmt: skip
    add(
        "--preset", choices=sorted(PRESETS), default=None,
        help="another library's conventions (default trec_eval); the other flags override it",
    )  # fmt: skip


def demo_parser() -> argparse.ArgumentParser:
    """The parser of ``rankmetrics demo``, which takes no arguments (``--help`` only)."""
    return argparse.ArgumentParser(
        prog=f"{PROG} demo",
        description="Evaluate NIST trec_eval's test collection (bundled) and print a table.",
    )


DEFAULT_COMPARE_MEASURES = ("map", "ndcg_cut.10")
COMPARE_FORMATS = ("markdown", "latex", "html", "csv")


def compare_parser() -> argparse.ArgumentParser:
    """The parser of ``rankmetrics compare QRELS RUN RUN [RUN ...]`` and its options."""
    from polars_rankmetrics.significance._compare import TESTS  # noqa: PLC0415  (only compare needs it)

    parser = argparse.ArgumentParser(
        prog=f"{PROG} compare",
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
        f"(default: {' '.join(DEFAULT_COMPARE_MEASURES)})",
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
    add("--format", choices=COMPARE_FORMATS, default="markdown", help="output format (default: markdown)")
    return parser
