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
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import polars as pl

import polars_rankmetrics as prm
from polars_rankmetrics.compare import cli as compare_cli

__all__ = ["main"]

PROG = "rankmetrics"

# How a measure reads its parameters (trec_eval's meas_init.c):
#   none     no parameter ("map")
#   cutoffs  integer cutoffs, sorted, one line each ("P.5,10" -> P_5, P_10)
#   levels   real cutoffs, sorted, one line each ("iprec_at_recall..1" -> iprec_at_recall_0.10)
#   numbers  real parameters in the order given, one line ("utility.2,-1,0,0" -> utility_2,-1,0,0)
#   pairs    name=value parameters, one line ("ndcg.1=3,2=9" -> ndcg_1=3,2=9)
ParamKind = Literal["none", "cutoffs", "levels", "numbers", "pairs"]


@dataclass(frozen=True)
class Measure:
    """One trec_eval measure: its name, parameters and the library metric it prints.

    Attributes
    ----------
    name
        trec_eval's measure name, as written after ``-m``.
    build
        The library metric for one parameter value: a cutoff (``cutoffs``),
        a level (``levels``), the tuple of numbers (``numbers``), the
        ``{name: value}`` pairs (``pairs``), or None (``none``). None only
        for ``runid``, which is text.
    params
        How the measure reads parameters (see ``ParamKind``).
    default
        The parameters trec_eval uses when none are given.
    per_query, summary
        Whether trec_eval prints the measure per query (``-q``) and in the
        ``all`` lines.
    """

    name: str
    build: Callable[..., prm.Metric] | None
    params: ParamKind = "none"
    default: tuple[float, ...] = ()
    per_query: bool = True
    summary: bool = True


@dataclass(frozen=True)
class Line:
    """One output line per query (or ``all``): the name trec_eval prints and the metric."""

    name: str
    measure: Measure
    metric: prm.Metric | None  # None for runid

    @property
    def column(self) -> str:
        """The evaluation's output column of the metric."""
        return str(self.metric)


def _fixed(spelling: str) -> Callable[[None], prm.Metric]:
    return lambda _: prm.parse(spelling)


def _cut(family: str) -> Callable[[int], prm.Metric]:
    return lambda k: prm.Metric(family, k)


def _graded(family: str) -> Callable[[dict[str, float]], prm.Metric]:
    """A gain-based measure: ``level=gain`` pairs whose level is an integer map gains."""
    # The registry checks and stores the {level: gain} mapping (Metric's annotation omits mappings).
    return lambda pairs: prm.Metric(family, params=(_gains(pairs),))  # type: ignore[arg-type]


def _persistence(build: Callable[[float], prm.Metric]) -> Callable[[dict[str, float]], prm.Metric]:
    """The rbp measures: the ``p=`` pair sets the persistence."""

    def metric(pairs: dict[str, float]) -> prm.Metric:
        if _gains(pairs):
            msg = "rbp gains (level=gain parameters) are not supported; only p=..."
            raise prm.UnknownMetricError(msg)
        return build(pairs.get("p", 0.9))

    return metric


def _relstring(numbers: tuple[float, ...]) -> prm.Metric:
    length = int(numbers[0])  # trec_eval truncates the length to an integer
    if length < 1:
        msg = f"the length must be at least 1, got {numbers[0]:g}"
        raise prm.UnknownMetricError(msg)
    return prm.relstring(length)


def _utility(numbers: tuple[float, ...]) -> prm.Metric:
    if len(numbers) != 4:
        msg = f"utility takes 4 coefficients, got {len(numbers)}"
        raise prm.UnknownMetricError(msg)
    return prm.utility(*numbers)


def _eleven_point(levels: tuple[float, ...]) -> prm.Metric:
    if list(levels) != sorted(levels):
        # trec_eval's 11pt_avg scans the levels assuming increasing order; its value for others differs.
        msg = "the recall levels must be in increasing order"
        raise prm.UnknownMetricError(msg)
    return prm.eleven_point_average(levels)


def _set_f(numbers: tuple[float, ...]) -> prm.Metric:
    if numbers[0] != 1.0:
        msg = f"only the default beta 1 is supported, got {numbers[0]:g}"
        raise prm.UnknownMetricError(msg)
    return prm.parse("set_F")


_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # P, recall, ndcg_cut, map_cut, relative_P
_TENTHS = tuple(i / 10 for i in range(11))  # iprec_at_recall, 11pt_avg
_FIFTHS = tuple(i / 5 for i in range(1, 11))  # Rprec_mult

# Every measure this command prints, in trec_eval's order (measures.c,
# te_trec_measures): trec_eval prints measures in this order whatever the
# order of its -m flags. The one table of measures.
MEASURES: tuple[Measure, ...] = (
    Measure("runid", None, per_query=False),
    Measure("num_q", _fixed("num_q"), per_query=False),
    Measure("num_ret", _fixed("num_ret")),
    Measure("num_rel", _fixed("num_rel")),
    Measure("num_rel_ret", _fixed("num_rel_ret")),
    Measure("map", _fixed("map")),
    Measure("gm_map", _fixed("gm_map"), per_query=False),
    Measure("Rprec", _fixed("Rprec")),
    Measure("bpref", _fixed("bpref")),
    Measure("recip_rank", _fixed("recip_rank")),
    Measure("iprec_at_recall", prm.iprec_at_recall, "levels", _TENTHS),
    Measure("P", _cut("precision"), "cutoffs", _CUTOFFS),
    Measure("relstring", _relstring, "numbers", (10,), summary=False),
    Measure("recall", _cut("recall"), "cutoffs", _CUTOFFS),
    Measure("infAP", _fixed("infAP")),
    Measure("gm_bpref", _fixed("gm_bpref"), per_query=False),
    Measure("Rprec_mult", prm.rprec_mult, "levels", _FIFTHS),
    Measure("utility", _utility, "numbers", (1, -1, 0, 0)),
    Measure("11pt_avg", _eleven_point, "numbers", _TENTHS),
    Measure("binG", _fixed("binG")),
    Measure("G", _graded("g"), "pairs"),
    Measure("dcg", _graded("dcg"), "pairs"),
    Measure("ndcg", _graded("ndcg"), "pairs"),
    Measure("ndcg_rel", _graded("ndcg_rel"), "pairs"),
    Measure("Rndcg", _graded("rndcg"), "pairs"),
    Measure("ndcg_cut", _cut("ndcg"), "cutoffs", _CUTOFFS),
    Measure("map_cut", _cut("map"), "cutoffs", _CUTOFFS),
    Measure("relative_P", _cut("relative_precision"), "cutoffs", _CUTOFFS),
    Measure("success", _cut("hit_rate"), "cutoffs", (1, 5, 10)),
    Measure("set_P", _fixed("set_P")),
    Measure("set_relative_P", _fixed("set_relative_P")),
    Measure("set_recall", _fixed("set_recall")),
    Measure("set_map", _fixed("set_map")),
    Measure("set_F", _set_f, "numbers", (1,)),
    Measure("num_nonrel_judged_ret", _fixed("num_nonrel_judged_ret")),
    Measure("rbp", _persistence(prm.rbp), "pairs"),
    Measure("rbp_resid", _persistence(prm.rbp_resid), "pairs"),
    Measure("unj", _cut("unjudged"), "cutoffs", (5, 10, 20)),
)

# trec_eval's nicknames (measures.c), in its spelling.
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
        "bpref", "recip_rank", "iprec_at_recall", "P",
    ),
    "set": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
        "set_relative_P", "set_map", "set_F",
    ),
    "all_trec": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
        "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp",
        "rbp_resid", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P",
        "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G",
        "set_P", "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret",
    ),
}  # fmt: skip

# trec_eval measures and nicknames this command does not print, and why.
_PREFS_MEASURES = (
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
    "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg",
    "P_avgjg", "Rprec_mult_avgjg", "all_prefs", "prefs", "qrels_jg",
)  # fmt: skip
NOT_SUPPORTED: dict[str, str] = {
    "ideal_dcg": "polars_rankmetrics does not compute it yet",
    "yaap": "polars_rankmetrics does not compute it yet",
    **dict.fromkeys(
        _PREFS_MEASURES,
        "it needs trec_eval's preference or jg judgment formats (-R), which this command does not read",
    ),
}

_BY_NAME = {m.name: m for m in MEASURES}
_INT = re.compile(r"\s*[+-]?\d+")
_REAL = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")

DEMO_METRICS = ("ndcg@10", "map", "mrr", "P_10", "recall@100", "num_rel_ret")


def _supported() -> str:
    return ", ".join([*NICKNAMES, *_BY_NAME])


def _number(text: str, pattern: re.Pattern[str]) -> float:
    """Read a parameter as C's atol/atof do (the leading number: cutoff '23.4' is 23), but never garbage."""
    match = pattern.match(text)
    if match is None:
        msg = f"parameter {text!r} is not a number"
        raise prm.UnknownMetricError(msg)
    return float(match.group())


def _unique(values: list[float]) -> list[float]:
    if len(set(values)) < len(values):
        msg = "duplicate cutoffs"
        raise prm.UnknownMetricError(msg)
    return values


def _cutoffs(text: str) -> list[int]:
    values = _unique(sorted(_number(p, _INT) for p in text.split(",")))
    if values[0] <= 0:
        msg = "cutoffs must be positive"
        raise prm.UnknownMetricError(msg)
    return [int(v) for v in values]


def _levels(text: str) -> list[float]:
    return _unique(sorted(_number(p, _REAL) for p in text.split(",")))


def _numbers(text: str) -> tuple[float, ...]:
    return tuple(_number(p, _REAL) for p in text.split(","))


def _pairs(text: str) -> dict[str, float]:
    pairs = [part.split("=") for part in text.split(",")]
    if any(len(pair) != 2 for pair in pairs):
        msg = "parameters must be name=value pairs, separated by ','"
        raise prm.UnknownMetricError(msg)
    return {name: _number(value, _REAL) for name, value in pairs}


def _gains(pairs: dict[str, float]) -> dict[int, float] | None:
    """The ``level=gain`` pairs; trec_eval ignores a name that is not an integer (``p=``)."""
    gains = {int(name): gain for name, gain in pairs.items() if re.fullmatch(r"[+-]?\d+", name)}
    if any(level < 0 for level in gains):
        # trec_eval would give that gain to unjudged documents (its levels -1 and -2).
        msg = "gains of negative relevance levels are not supported"
        raise prm.UnknownMetricError(msg)
    return gains or None


def _lines(measure: Measure, text: str | None) -> list[Line]:
    """The output lines of one measure, its parameters read from `text` (None: the defaults)."""
    name, build, kind = measure.name, measure.build, measure.params
    if build is None:
        return [Line(name, measure, None)]
    if kind == "none":
        return [Line(name, measure, build(None))]
    if kind == "cutoffs":
        ks = measure.default if text is None else _cutoffs(text)
        return [Line(f"{name}_{int(k)}", measure, build(int(k))) for k in ks]
    if kind == "levels":
        xs = measure.default if text is None else _levels(text)
        # trec_eval writes the level with %3.2f into a buffer of len(name) + 10 bytes.
        return [Line(f"{name}_{x:3.2f}"[: len(name) + 9], measure, build(x)) for x in xs]
    printed = name if text is None else f"{name}_{text}"  # trec_eval prints the parameters as given
    if kind == "numbers":
        return [Line(printed, measure, build(measure.default if text is None else _numbers(text)))]
    return [Line(printed, measure, build({} if text is None else _pairs(text)))]


def _members(name: str, spec: str) -> tuple[str, ...]:
    if name in NICKNAMES:
        return NICKNAMES[name]
    if name in _BY_NAME:
        return (name,)
    if name in NOT_SUPPORTED:
        msg = f"measure {spec!r}: trec_eval's {name!r} is not supported: {NOT_SUPPORTED[name]}"
        raise prm.UnknownMetricError(msg)
    msg = f"unknown measure {spec!r} (trec_eval: illegal measure); supported: {_supported()}"
    raise prm.UnknownMetricError(msg)


def _marked(specs: Sequence[str]) -> tuple[set[str], dict[str, tuple[str, str]]]:
    """The measures the specs name, and each one's parameter text (with its spec): the first given."""
    marked: set[str] = set()
    params: dict[str, tuple[str, str]] = {}
    for spec in specs:
        name, dot, text = spec.partition(".")
        marked.update(_members(name, spec))
        if not dot:
            continue
        if name in NICKNAMES or _BY_NAME[name].params == "none":
            msg = f"measure {spec!r}: {name!r} takes no parameters"
            raise prm.UnknownMetricError(msg)
        if not text:
            msg = f"measure {spec!r}: empty parameter list"
            raise prm.UnknownMetricError(msg)
        params.setdefault(name, (text, spec))
    return marked, params


def parse_measures(specs: Sequence[str]) -> list[Line]:
    """Turn trec_eval ``-m`` specs into the output lines, in trec_eval's print order.

    Parameters
    ----------
    specs
        ``-m`` arguments: ``map``, ``P`` (default cutoffs), ``P.5,10``,
        ``iprec_at_recall..1,.5``, ``ndcg.1=3,2=9``, ``utility.2,-1,0,0``,
        or a nickname: ``official``, ``set``, ``all_trec``. As in trec_eval,
        the first spec that gives a measure parameters wins; cutoffs are
        sorted and read as integers (``23.4`` is 23).

    Returns
    -------
    list of Line
        Each line's printed name and metric, measures in trec_eval's order.

    Raises
    ------
    UnknownMetricError
        An unknown or unsupported measure, or a malformed parameter (the
        message quotes the spec).

    Examples
    --------
    >>> [line.name for line in parse_measures(["ndcg_cut.20,5", "map", "iprec_at_recall..5"])]
    ['map', 'iprec_at_recall_0.50', 'ndcg_cut_5', 'ndcg_cut_20']
    """
    marked, params = _marked(specs)
    lines: list[Line] = []
    for measure in MEASURES:
        if measure.name not in marked:
            continue
        text, spec = params.get(measure.name, (None, measure.name))
        try:
            lines += _lines(measure, text)
        except prm.RankMetricsError as err:
            msg = f"measure {spec!r}: {err}"
            raise prm.UnknownMetricError(msg) from err
    return lines


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
        f"repeatable. Default: official. Measures: {_supported()}",
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


def _format(line: Line, value: object) -> str:
    """A value as trec_eval prints it: %ld for counts, quoted text for relstring, else %6.4f."""
    kind = line.metric.family.kind if line.metric is not None else "str"
    if kind == "int":
        return str(value)
    if kind == "str":
        return f"'{'' if value is None else value}'"
    return f"{value:6.4f}"


def _row(name: str, query: str, value: str) -> str:
    return f"{name:<22}\t{query}\t{value}\n"


def _query_rows(lines: list[Line], per_query: pl.DataFrame) -> list[str]:
    rows = {str(row["query"]): row for row in per_query.iter_rows(named=True)}
    return [
        _row(line.name, query, _format(line, rows[query][line.column]))
        for query in sorted(rows)  # by id as text: trec_eval orders queries with strcmp
        for line in lines
        if line.measure.per_query
    ]


def _summary_rows(lines: list[Line], summary: pl.DataFrame, runid: str) -> list[str]:
    return [
        _row(line.name, "all", runid if line.metric is None else _format(line, summary[line.column][0]))
        for line in lines
        if line.measure.summary
    ]


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
    out = _query_rows(lines, per_query[0]) if per_query else []
    if not args.no_summary:
        out += _summary_rows(lines, summary, runid)
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
    if args_list[:1] == ["compare"]:  # rankmetrics compare QRELS RUN RUN...: its own parser and table
        return compare_cli.main(args_list[1:])
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
