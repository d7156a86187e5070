"""What a newcomer meets first: the README's two commands are CI's first, and Spark without Java skips."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPARK_TESTS = "tests/spark/test_spark_options.py"


def quickstart_commands() -> list[str]:
    """The command lines of the README's Quickstart block."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quickstart", 1)[1]
    block = re.search(r"```[a-z]*\n(.*?)```", section, re.DOTALL)
    assert block is not None, "the Quickstart has no code block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_quickstart_is_two_commands_ci_runs_first_and_verbatim() -> None:
    commands = quickstart_commands()
    assert len(commands) == 2
    assert "rankmetrics demo" in commands[0]
    assert "pytest" in commands[1]
    script = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    runs = [line for line in script if not line.startswith("#")]
    first_install = next(i for i, line in enumerate(runs) if line.startswith("pip install"))
    for offset, command in enumerate(commands):
        assert runs[first_install + offset].startswith(command + " "), (command, runs[first_install + offset])
    made = [i for i, line in enumerate(runs) if "-m venv" in line]
    # The oracles kept in venvs of their own (cwl_eval, Open Bandit Pipeline) are made in the gates' step.
    oracles = [i for i in made if '"$tmp/cwl"' in runs[i] or '"$tmp/obp"' in runs[i]]
    venvs = [i for i in made if i not in oracles]
    assert len(venvs) == 3  # the quickstart's, the gates', the documentation site's
    assert len(oracles) == 2
    assert all(venvs[1] < i < venvs[2] for i in oracles)
    assert venvs[0] < first_install < first_install + 1 < venvs[1]
    # The third: the docs extra alone, then the site built strictly (every code block run).
    docs = runs[venvs[2] :]
    build = next(line for line in docs if "mkdocs build" in line)
    assert build.startswith('pip install ".[docs]" && '), build
    assert "--strict" in build


def test_without_java_the_spark_tests_skip_naming_java_17(tmp_path: Path) -> None:
    env = {**os.environ, "JAVA_HOME": str(tmp_path / "no-java"), "PATH": str(Path(sys.executable).parent)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            "tests/spark/test_spark_options.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\d+ skipped", done.stdout), done.stdout
    assert "passed" not in done.stdout
    assert "error" not in done.stdout.lower()
    assert "Java 17" in done.stdout
