"""``rankmetrics fuse``: fuse TREC runs into one and print it as a TREC run.

``rankmetrics fuse --method rrf RUN1 RUN2 [RUN...] [--norm min-max]
[--weights 0.3,0.7] [--param k=60] [--qrels QRELS] [--depth N] [--name NAME]``
reads every run file (one run each, named by its position: ``run1``,
``run2`` ...), calls :func:`~polars_rankmetrics.fuse` and prints ``query Q0
docno rank score name`` lines: queries in text order, each list by fused
score, highest first, ties by docno descending (trec_eval's order).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import polars as pl

import polars_rankmetrics as prm
from polars_rankmetrics.cli._run import read_file

__all__ = ["fuse", "fuse_parser"]

PROG = "rankmetrics fuse"


def fuse_parser() -> argparse.ArgumentParser:
    """The parser of ``rankmetrics fuse RUN RUN [RUN ...]`` and its options."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Fuse TREC runs into one (ranx's methods) and print it as a TREC run."
    )
    add = parser.add_argument
    add("runs", metavar="RUN", type=Path, nargs="+", help="TREC run files (two or more)")
    add("--method", required=True, help="rrf, wsum, combmnz, bordafuse, ... (see prm.fuse)")
    add(
        "--norm",
        default="min-max",
        help="min-max (default), min-max-inverted, max, sum, zmuv, rank, borda, none",
    )
    add("--weights", default=None, help="one weight per run, in order, comma separated: 0.3,0.7")
    add("--param", action="append", default=[], metavar="NAME=VALUE", help="a method parameter: k=60")
    add("--qrels", type=Path, default=None, help="judgments, for the supervised methods")
    add("--depth", type=int, default=None, help="print at most N items per query")
    add("--name", default=None, help="the fused run's name (default: the method)")
    return parser


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise prm.InvalidParameterError.out_of_domain(what, "a number", text) from None
    return int(value) if value.is_integer() and "." not in text else value


def _options(args: argparse.Namespace, names: list[str]) -> dict[str, object]:
    """fuse()'s keyword arguments from the options: weights, parameters, judgments."""
    kwargs: dict[str, object] = {}
    if args.weights is not None:
        parts = args.weights.split(",")
        if len(parts) != len(names):
            got = f"got {args.weights!r}"
            raise prm.InvalidParameterError.needs("--weights", f"one weight per run ({len(names)})", got)
        kwargs["weights"] = {n: _number(p, "--weights") for n, p in zip(names, parts, strict=True)}
    for spec in args.param:
        name, eq, value = spec.partition("=")
        if not eq:
            raise prm.InvalidParameterError.out_of_domain("--param", "NAME=VALUE", spec)
        kwargs[name.strip()] = _number(value.strip(), f"--param {name.strip()}")
    if args.qrels is not None:
        kwargs["qrels"] = read_file(prm.read_trec_qrels, args.qrels)
    return kwargs


def fuse(argv: Sequence[str]) -> int:
    """``rankmetrics fuse``: fuse the runs and print the fused run.

    Parameters
    ----------
    argv
        The arguments after ``fuse``.

    Returns
    -------
    int
        0; errors propagate to :func:`polars_rankmetrics.cli.main`, which
        prints them (``rankmetrics: ...``) and returns 1 (2 for a usage error).

    Examples
    --------
    >>> from polars_rankmetrics.cli._fuse import fuse
    >>> run, trunc = prm.demo_path("results.test"), prm.demo_path("results.trunc")
    >>> fuse(["--method", "rrf", str(run), str(trunc), "--depth", "2"])
    301 Q0 FBIS4-50478 1 0.03278688524590164 rrf
    301 Q0 FBIS3-21938 2 0.03225806451612903 rrf
    302 Q0 FR940126-2-00106 1 0.01639344262295082 rrf
    302 Q0 FBIS4-67701 2 0.016129032258064516 rrf
    303 Q0 FT934-2516 1 0.03131881575727918 rrf
    303 Q0 FT934-5418 2 0.030834914611005692 rrf
    0
    """
    args = fuse_parser().parse_args(list(argv))
    if len(args.runs) < 2:
        raise prm.InvalidParameterError.needs("fuse", "two or more runs", f"got {len(args.runs)}")
    names = [f"run{k}" for k in range(1, len(args.runs) + 1)]
    frames = [read_file(prm.read_trec_run, path).drop("run") for path in args.runs]
    runs = pl.concat([f.with_columns(pl.lit(n).alias("run")) for n, f in zip(names, frames, strict=True)])
    fused = prm.fuse(runs, args.method, norm=args.norm, **_options(args, names))  # type: ignore[arg-type]
    rank = pl.int_range(1, pl.len() + 1).over("query")
    lines = fused.sort(["query", "score", "item"], descending=[False, True, True]).with_columns(
        rank.alias("rank")
    )
    if args.depth is not None:
        lines = lines.filter(pl.col("rank") <= args.depth)
    name = args.name or args.method
    out = lines.select(
        pl.format("{} Q0 {} {} {} {}", "query", "item", "rank", pl.col("score"), pl.lit(name)).alias("line")
    )
    sys.stdout.write("".join(f"{line}\n" for line in out["line"]))
    return 0
