"""Griffe extension: doctests render as code, and Python's powers (``2**-64``) as math.

The numpy parser turns the ``>>>`` lines of an Examples section into code blocks; a
doctest elsewhere (a module's description, a Notes section) would be read as
Markdown, where ``>>>`` is three nested block quotes. Each such block, up to the
next blank line, is fenced as ``pycon``.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

FENCE = "```"


def fence_doctests(text: str) -> str:
    """Fence the doctest blocks of `text` that are outside an Examples section."""
    lines = text.splitlines()
    out: list[str] = []
    section = ""
    in_block = False
    for i, line in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() and set(following.strip()) == {"-"} and len(following.strip()) == len(line.strip()):
            section = line.strip()
        stripped = line.lstrip()
        if in_block and not stripped:
            out.append(FENCE)
            in_block = False
        elif not in_block and stripped.startswith(">>>") and section != "Examples":
            out.append(f"{line[: len(line) - len(stripped)]}{FENCE}pycon")
            in_block = True
        out.append(line)
    if in_block:
        out.append(FENCE)
    return "\n".join(out)


# A power written as Python writes it (``2**-64``, ``p**(r - f)``, ``0.9**4``) outside code:
# Markdown would read the two stars as bold. It becomes math (``$2^{-64}$``), rendered by
# pymdownx.arithmatex and the docs hook.
_BASE = r"(?:\d+(?:\.\d+)?|[A-Za-z_]\w*|\([^()`]*\))"
_POWER = re.compile(rf"(?<![\w*`.])(?P<base>{_BASE})\*\*(?P<exp>-?{_BASE})(?![\w(])")
_CODE = re.compile(r"(``?)(?:(?!\1).)+?\1|\$[^$\n]+\$")


def _tex(part: str) -> str:
    part = part[1:-1] if part.startswith("(") and part.endswith(")") else part
    return part.replace(" * ", r" \cdot ").replace("_", r"\_")


def powers_as_math(text: str) -> str:
    """Write the powers of `text` (``2**-64``) as math (``$2^{-64}$``), outside code spans and fences."""
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(FENCE):
            fenced = not fenced
        if fenced or line.lstrip().startswith((">>>", "...")):
            out.append(line)
            continue
        pieces, last = [], 0
        for code in _CODE.finditer(line):
            pieces.append(_POWER.sub(_math, line[last : code.start()]))
            pieces.append(code.group(0))
            last = code.end()
        pieces.append(_POWER.sub(_math, line[last:]))
        out.append("".join(pieces))
    return "\n".join(out)


def _math(match: re.Match[str]) -> str:
    return f"${_tex(match.group('base'))}^{{{_tex(match.group('exp'))}}}$"


class DoctestFences(Extension):
    """Fence the doctests griffe's numpy parser would leave to Markdown."""

    def on_object(self, *, obj: Object, **_: Any) -> None:  # noqa: ANN401
        """Rewrite the object's docstring before it is parsed."""
        if obj.docstring is not None:
            obj.docstring.value = powers_as_math(fence_doctests(obj.docstring.value))
