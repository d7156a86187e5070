"""The ``rankmetrics`` command's allocator settings, made before Polars is loaded.

Polars allocates through jemalloc, which it configures on import to keep
the pages a process frees for half a second, then a second more as lazily
freed pages (both still count in RSS), and which gives each thread an arena
of its own, whose freed pages serve that thread alone. A command that runs
for a second barely gives any back: its peak RSS approaches the sum of its
stages' peaks rather than the largest one (1M run lines, ``-q -m
all_trec``: 465 MiB, of which about 170 MiB freed pages). For the command
only, one arena and pages returned after 20 ms of disuse bring it near what
it holds live, at a few per cent of CPU time in page faults
(``benchmarks/bench_cli.py`` measures both).

jemalloc reads its settings once, when Polars first allocates; Polars
appends ``_RJEM_MALLOC_CONF`` to its own, so a setting there wins.
:func:`configure` sets that variable if Polars is not loaded yet, the
process is the command, and the user set none; the package imports this
module first, which calls it. A program that imports the library keeps
Polars' settings.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["COMMAND_CONF", "configure", "is_command"]

COMMAND_CONF = "narenas:1,dirty_decay_ms:20,muzzy_decay_ms:0"
_VARIABLE = "_RJEM_MALLOC_CONF"  # the prefixed name of the jemalloc Polars links


def is_command(argv: list[str], orig_argv: list[str]) -> bool:
    """Whether the process runs the command: the ``rankmetrics`` script or ``python -m polars_rankmetrics``.

    While ``-m`` imports the package, ``sys.argv[0]`` is ``"-m"``; the
    interpreter's own arguments (``sys.orig_argv``) name the module.
    """
    if not argv:
        return False
    if Path(argv[0]).stem == "rankmetrics":
        return True
    after = [orig_argv[i + 1] for i, arg in enumerate(orig_argv[:-1]) if arg == "-m"][:1]
    return argv[0] == "-m" and (after == ["polars_rankmetrics"] or "-mpolars_rankmetrics" in orig_argv)


def configure() -> None:
    """Set the command's allocator settings (see the module's docstring); anything else is left alone."""
    if "polars" in sys.modules or _VARIABLE in os.environ:
        return
    if is_command(sys.argv, getattr(sys, "orig_argv", [])):
        os.environ[_VARIABLE] = COMMAND_CONF


configure()
