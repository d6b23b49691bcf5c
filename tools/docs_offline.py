"""The site's MkDocs hook (mkdocs.yml): the built site loads nothing from outside itself.

Material's defaults fetch fonts from Google; mkdocs.yml turns them off, and this check keeps any page, style
or script from bringing an outside resource back (a link a reader follows is fine: only what loads counts).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

# what a browser loads by itself: a script, style, image, frame or font named by an absolute address
LOADED = re.compile(
    r"""<(?:script|img|iframe|source|audio|video|embed)\b[^>]*\bsrc=["']?(?:https?:)?//"""
    r"""|<link\b[^>]*\bhref=["']?(?:https?:)?//"""
    r"""|@import\s+(?:url\()?["']?(?:https?:)?//"""
    r"""|url\(["']?(?:https?:)?//""",
    re.IGNORECASE,
)


def on_post_build(config: Any, **kwargs: Any) -> None:
    """Fails the build, naming the files, where the site would load something from outside itself."""
    site = Path(config["site_dir"])
    found = [
        str(path.relative_to(site))
        for path in sorted(site.rglob("*"))
        if path.suffix in {".html", ".css"} and LOADED.search(path.read_text(encoding="utf-8"))
    ]
    if found:
        raise PluginError(f"the site would load resources from outside itself: {', '.join(found)}")
