"""The site's Griffe extension (mkdocs.yml): hazard's docstrings as mkdocstrings renders them.

The docstrings are written for ``help()`` and the doctests: Sphinx roles (:class:`Session`) and bare ``>>>``
examples. Markdown would show the roles as text and read ``>>>`` as a quotation, so each docstring is
rewritten once the package is loaded: a role naming a hazard object becomes a cross-reference to its page
(resolved in the docstring's own scope, as Python would resolve the name; one that resolves to nothing is
left as a reference that the strict build refuses), a role naming another library's object becomes code,
and each example becomes a ``pycon`` code block.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|mod|data|exc|obj|const):`(~?)([^`]+)`")
EXAMPLE = re.compile(r"^(\s*)>>> ")


def target_path(obj: griffe.Object, name: str) -> str | None:
    """The full path that ``name`` names in ``obj``'s docstring, or None where it is not hazard's."""
    head, _, rest = name.partition(".")
    if head == "hazard":
        return name
    try:
        path = obj.resolve(head)
    except griffe.NameResolutionError:
        # not a name in scope: another library's object (fractions.Fraction) or a module path
        return None if head in {"fractions", "numpy", "secrets", "decimal", "random"} else name
    if not path.startswith("hazard"):
        return None
    return f"{path}.{rest}" if rest else path


def cross_references(obj: griffe.Object, text: str) -> str:
    """``text`` with each Sphinx role as a Markdown cross-reference (or as code, for another library)."""

    def link(match: re.Match[str]) -> str:
        short, name = match.group(1), match.group(2)
        shown = name.rsplit(".", 1)[-1] if short else name
        path = target_path(obj, name)
        return f"`{shown}`" if path is None else f"[`{shown}`][{path}]"

    return ROLE.sub(link, text)


def fenced_examples(text: str) -> str:
    """``text`` with each doctest (a ``>>>`` line up to the next blank line) fenced as a pycon block."""
    out: list[str] = []
    fence: str | None = None  # the open block's indentation
    for line in text.splitlines():
        if fence is None and (start := EXAMPLE.match(line)):
            fence = start.group(1)
            out.append(f"{fence}```pycon")
        elif fence is not None and not line.strip():
            out.append(f"{fence}```")
            fence = None
        out.append(line)
    if fence is not None:
        out.append(f"{fence}```")
    return "\n".join(out)


def objects(obj: griffe.Object) -> list[griffe.Object]:
    """``obj`` and every object defined in it (aliases are the objects they name, rewritten there)."""
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            found.extend(objects(member))  # type: ignore[arg-type]
    return found


class HazardDocstrings(griffe.Extension):
    """Rewrites every docstring of the loaded package for Markdown (the module's docstring says how)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = fenced_examples(cross_references(obj, obj.docstring.value))
