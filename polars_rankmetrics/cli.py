"""The ``rankmetrics`` command: trec_eval's command line and output format, and a demo.

``rankmetrics QRELS RUN [-q] [-c] [-M N] [-l N] [-n] [-m MEASURE ...]`` prints
what ``trec_eval`` 10.0 prints for the measures the library supports, line for
line; ``rankmetrics demo`` evaluates the bundled trec_eval test collection.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

import polars_rankmetrics as prm

__all__ = ["main"]

PROG = "rankmetrics"

# trec_eval's measure table order (measures.c, te_trec_measures, plus unj):
# trec_eval prints measures in this order whatever the order of its -m flags.
TREC_ORDER: tuple[str, ...] = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
    "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP",
    "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg",
    "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret",
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
    "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
    "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
    "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap", "rbp",
    "rbp_resid", "unj",
)  # fmt: skip

# trec_eval's measure sets (-m official, -m all_trec), in its spelling; only
# the members this command supports are used.
OFFICIAL: tuple[str, ...] = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
    "bpref", "recip_rank", "iprec_at_recall", "P",
)  # fmt: skip
ALL_TREC: tuple[str, ...] = (
    *OFFICIAL, "relstring", "recall", "infAP", "gm_bpref", "utility", "11pt_avg",
    "ideal_dcg", "dcg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
    "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P",
    "set_map", "set_F", "num_nonrel_judged_ret",
)  # fmt: skip

_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # trec_eval's P, recall, *_cut
_SUCCESS_CUTOFFS = (1, 5, 10)


@dataclass(frozen=True)
class Measure:
    """One trec_eval measure the command prints.

    Attributes
    ----------
    name
        trec_eval's measure name, as written after ``-m``.
    metric
        The library's trec_eval spelling of the metric (see ``prm.parse``);
        ``{k}`` stands for a cutoff. None only for ``runid``, which is text.
    cutoffs
        Default cutoffs (``-m P`` means ``-m P.5,10,...``); empty when the
        measure takes no parameter.
    per_query
        Whether ``-q`` prints it per query (trec_eval prints ``runid`` and
        ``num_q`` only in the ``all`` lines).
    """

    name: str
    metric: str | None
    cutoffs: tuple[int, ...] = ()
    per_query: bool = True

    def line_names(self, cutoffs: Sequence[int]) -> list[str]:
        """Return the names of the output lines, e.g. ``P_5``, ``P_10``."""
        if self.metric is None or not self.cutoffs:
            return [self.name]
        return [self.metric.format(k=k) for k in cutoffs]


# The supported measures. To support another trec_eval measure once the
# library registers it, append one row; TREC_ORDER fixes where it prints.
MEASURES: tuple[Measure, ...] = (
    Measure("runid", None, per_query=False),
    Measure("num_q", "num_q", per_query=False),
    Measure("num_ret", "num_ret"),
    Measure("num_rel", "num_rel"),
    Measure("num_rel_ret", "num_rel_ret"),
    Measure("map", "map"),
    Measure("Rprec", "Rprec"),
    Measure("recip_rank", "recip_rank"),
    Measure("P", "P_{k}", _CUTOFFS),
    Measure("recall", "recall_{k}", _CUTOFFS),
    Measure("ndcg", "ndcg"),
    Measure("ndcg_cut", "ndcg_cut_{k}", _CUTOFFS),
    Measure("map_cut", "map_cut_{k}", _CUTOFFS),
    Measure("success", "success_{k}", _SUCCESS_CUTOFFS),
    Measure("set_P", "set_P"),
    Measure("set_recall", "set_recall"),
    Measure("set_F", "set_F"),
)

_BY_NAME = {m.name: m for m in MEASURES}
_NICKNAMES = {"official": OFFICIAL, "all_trec": ALL_TREC}

DEMO_METRICS = ("ndcg@10", "map", "mrr", "P_10", "recall@100", "num_rel_ret")


def _order(measure: Measure) -> tuple[int, int]:
    known = measure.name in TREC_ORDER
    return (TREC_ORDER.index(measure.name) if known else len(TREC_ORDER), MEASURES.index(measure))


def _supported() -> str:
    return ", ".join([*_NICKNAMES, *(m.name for m in MEASURES)])


def _cutoff(text: str, spec: str) -> int:
    """Parse one cutoff as trec_eval does: a number, truncated to an integer, at least 1."""
    try:
        value = int(float(text))
    except (ValueError, OverflowError):  # not a number, nan, inf
        value = 0
    if value < 1:
        msg = f"measure {spec!r}: cutoff {text!r} is not a positive number"
        raise prm.UnknownMetricError(msg)
    return value


def parse_measures(specs: Sequence[str]) -> list[tuple[Measure, list[str]]]:
    """Turn trec_eval ``-m`` specs into measures and their output line names.

    Parameters
    ----------
    specs
        ``-m`` arguments: ``P.5,10``, ``P`` (default cutoffs), ``map``,
        ``official``, ``all_trec``. Several accumulate; cutoffs given for the
        same measure twice are merged.

    Returns
    -------
    list of (Measure, list of str)
        The requested measures in trec_eval's print order, each with its
        output line names (cutoffs ascending).

    Raises
    ------
    UnknownMetricError
        A measure this command does not support, or a malformed parameter.
    """
    cutoffs: dict[str, set[int]] = {}
    for spec in specs:
        name, dot, params = spec.partition(".")
        if name in _NICKNAMES and not dot:
            for member in _NICKNAMES[name]:
                if member in _BY_NAME:
                    cutoffs.setdefault(member, set()).update(_BY_NAME[member].cutoffs)
            continue
        measure = _BY_NAME.get(name)
        if measure is None:
            known = (
                "a trec_eval measure this command does not support yet"
                if name in TREC_ORDER
                else "unknown measure"
            )
            msg = f"{known}: {name!r}; supported: {_supported()}"
            raise prm.UnknownMetricError(msg)
        if not dot:
            cutoffs.setdefault(name, set()).update(measure.cutoffs)
        elif not measure.cutoffs:
            msg = f"measure {name!r} takes no parameters, got {spec!r}"
            raise prm.UnknownMetricError(msg)
        else:
            ks = {_cutoff(p, spec) for p in params.split(",")}
            cutoffs.setdefault(name, set()).update(ks)
    chosen = sorted((_BY_NAME[n] for n in cutoffs), key=_order)
    return [(m, m.line_names(sorted(cutoffs[m.name]))) for m in chosen]


def _format(value: object, integer: bool) -> str:
    if integer:
        return str(value)
    return f"{float(value):.4f}"  # type: ignore[arg-type]


def _line(name: str, query: str, value: str) -> str:
    return f"{name:<22}\t{query}\t{value}"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        usage=f"{PROG} [-h] [-q] [-c] [-n] [-M N] [-l N] [-m MEASURE] QRELS RUN\n       {PROG} demo",
        description=(
            "Evaluate a TREC run against judgments and print trec_eval 10.0's output "
            "format (measure, query or 'all', value). "
            f"'{PROG} demo' evaluates trec_eval's bundled test collection."
        ),
    )
    parser.add_argument(
        "qrels", metavar="QRELS", type=Path, help="judgments: query iteration docno relevance"
    )
    parser.add_argument("run", metavar="RUN", type=Path, help="the run: query Q0 docno rank score runid")
    parser.add_argument("-q", action="store_true", dest="per_query", help="also print each query's values")
    parser.add_argument(
        "-c", action="store_true", dest="complete",
        help="average over every judged query; one missing from the run scores 0",
    )  # fmt: skip
    parser.add_argument("-n", action="store_true", dest="no_summary", help="do not print the 'all' lines")
    parser.add_argument(
        "-M", type=int, dest="depth", metavar="N", help="keep only the first N retrieved per query"
    )
    parser.add_argument(
        "-l", type=int, dest="relevance_level", metavar="N",
        help="a document is relevant when its grade is at least N (default 1)",
    )  # fmt: skip
    parser.add_argument(
        "-m", action="append", dest="measures", metavar="MEASURE", default=None,
        help=f"measure, trec_eval style (P.5,10; map; official; all_trec); repeatable. "
        f"Default: official. Supported: {_supported()}",
    )  # fmt: skip
    return parser


def _read(reader: Callable[[Path], pl.DataFrame], path: Path) -> pl.DataFrame:
    """Read a TREC file; an error Polars raises on it (a directory, binary data) names the file."""
    try:
        return reader(path)
    except pl.exceptions.PolarsError as err:
        msg = f"{path}: cannot be read as a TREC file: {err}"
        raise prm.TrecFormatError(msg) from err


def _evaluate(args: argparse.Namespace) -> list[str]:
    requested = parse_measures(args.measures or ["official"])
    qrels = _read(prm.read_trec_qrels, args.qrels)
    run = _read(prm.read_trec_run, args.run)
    runid = run["run"][0] if run.height else ""
    frame = prm.join_run_qrels(run.drop("run"), qrels)

    metric_lines = [(m, n) for m, names in requested if m.metric is not None for n in names]
    names = [n for _, n in metric_lines]
    # num_q is always computed: it says whether any query was evaluated.
    names_eval = names if "num_q" in names else ["num_q", *names]
    integer = {n: prm.parse(n).family.kind == "int" for n in names_eval}
    options = {
        "missing": "zero" if args.complete else "skip",
        "depth": args.depth,
        "relevance_level": args.relevance_level,
    }
    summary = prm.evaluate(frame, names_eval, **options)
    if summary.height == 0 or summary["num_q"][0] == 0:
        msg = "no queries with both results and relevance info"
        raise prm.InvalidDataError(msg)

    lines: list[str] = []
    if args.per_query:
        per_query = prm.evaluate(frame, names_eval, per_query=True, **options)
        rows = {str(row["query"]): row for row in per_query.iter_rows(named=True)}
        for query in sorted(rows):  # by id as text, as trec_eval orders them
            lines.extend(
                _line(n, query, _format(rows[query][n], integer[n])) for m, n in metric_lines if m.per_query
            )
    if not args.no_summary:
        for measure, line_names in requested:
            if measure.metric is None:
                lines.append(_line(measure.name, "all", runid))
                continue
            lines.extend(_line(n, "all", _format(summary[n][0], integer[n])) for n in line_names)
    return lines


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

    ``rankmetrics QRELS RUN [-q] [-c] [-M N] [-l N] [-n] [-m MEASURE ...]``
    prints trec_eval 10.0's output for the supported measures, in trec_eval's
    measure order: ``name<TAB>query-or-all<TAB>value``, the name padded to 22
    characters, floats with 4 decimals. ``rankmetrics demo`` evaluates the
    bundled trec_eval test collection and prints a table.

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
    >>> main([str(qrels), str(run), "-m", "map", "-m", "P.5"])
    map                   	all	0.1785
    P_5                   	all	0.2667
    0
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list[:1] == ["demo"]:
            return _demo(args_list[1:])
        lines = _evaluate(_parser().parse_args(args_list))
    except prm.RankMetricsError as err:
        print(f"{PROG}: {err}", file=sys.stderr)  # noqa: T201
        return 1
    except OSError as err:
        print(f"{PROG}: {err}", file=sys.stderr)  # noqa: T201
        return 1
    except SystemExit as err:  # argparse: --help (0) or a usage error (2)
        return err.code if isinstance(err.code, int) else 2
    try:
        sys.stdout.write("".join(f"{line}\n" for line in lines))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as trec_eval does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
