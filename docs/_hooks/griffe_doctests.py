"""Griffe extension: doctests outside a numpydoc "Examples" section render as code, not as quotes.

The numpy parser turns the ``>>>`` lines of an Examples section into code blocks; a
doctest elsewhere (a module's description, a Notes section) would be read as
Markdown, where ``>>>`` is three nested block quotes. Each such block, up to the
next blank line, is fenced as ``pycon``.
"""

from __future__ import annotations

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


class DoctestFences(Extension):
    """Fence the doctests griffe's numpy parser would leave to Markdown."""

    def on_object(self, *, obj: Object, **_: Any) -> None:  # noqa: ANN401
        """Rewrite the object's docstring before it is parsed."""
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
