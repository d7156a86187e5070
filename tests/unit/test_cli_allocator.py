"""The command's allocator settings: set for the command only, before Polars loads, never over the user's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from polars_rankmetrics._allocator import COMMAND_CONF, is_command

ROOT = Path(__file__).resolve().parents[2]
_SHOW = "import os; print(os.environ.get('_RJEM_MALLOC_CONF'))"


@pytest.mark.parametrize(
    ("argv", "orig_argv", "want"),
    [
        (["/venv/bin/rankmetrics", "q", "r"], ["/venv/bin/python", "/venv/bin/rankmetrics", "q", "r"], True),
        (["-m"], ["python", "-m", "polars_rankmetrics", "q", "r"], True),
        (["-m"], ["python", "-X", "importtime", "-mpolars_rankmetrics", "q"], True),
        (["-m"], ["python", "-m", "pytest", "-m", "polars_rankmetrics"], False),
        (["s.py", "-m", "polars_rankmetrics"], ["python", "s.py", "-m", "polars_rankmetrics"], False),
        (["-c"], ["python", "-c", "import polars_rankmetrics"], False),
        ([], [], False),
    ],
)
def test_is_command(argv: list[str], orig_argv: list[str], want: bool) -> None:
    assert is_command(argv, orig_argv) is want


def _shown(code: str, **env: str) -> str:
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", ""), **env},
    )
    return done.stdout.strip()


def test_the_command_sets_the_allocator_before_polars_loads() -> None:
    code = f"import sys; sys.argv[0] = 'rankmetrics'; import polars_rankmetrics; {_SHOW}"
    assert _shown(code).endswith(f",{COMMAND_CONF}")  # after Polars' own settings: it wins


def test_a_program_importing_the_library_keeps_polars_settings() -> None:
    assert COMMAND_CONF not in _shown(f"import polars_rankmetrics; {_SHOW}")


def test_polars_loaded_first_or_a_users_setting_is_left_alone() -> None:
    late = f"import sys; sys.argv[0] = 'rankmetrics'; import polars; import polars_rankmetrics; {_SHOW}"
    assert COMMAND_CONF not in _shown(late)
    own = f"import sys; sys.argv[0] = 'rankmetrics'; import polars_rankmetrics; {_SHOW}"
    shown = _shown(own, _RJEM_MALLOC_CONF="narenas:2")
    assert shown.endswith(",narenas:2")
    assert COMMAND_CONF not in shown
