"""Tag colours: a tag's ``color`` from the service, made safe to paint.

A colour is the service's text like any other: only a plain ``#rrggbb`` ever becomes a
style (a style string could carry a link or anything Rich parses); anything else paints as
the surrounding text does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from rich.style import Style
from rich.text import Text

from ..text import one_line

__all__ = ["COLOR", "tag_style", "tags_text"]

COLOR: Final = re.compile(r"^#[0-9a-fA-F]{6}$")


def tag_style(color: str | None) -> Style | None:
    """The style of a tag's colour, or None when it has none (or one that is not
    ``#rrggbb``)."""
    if not color or not COLOR.match(color):
        return None
    return _styles(color.lower())


_CACHE: dict[str, Style] = {}


def _styles(color: str) -> Style:
    style = _CACHE.get(color)
    if style is None:
        style = _CACHE[color] = Style(color=color)
    return style


def tags_text(names: Sequence[str], colors: Sequence[str | None], width: int) -> Text:
    """Tag names, comma-separated, each in its colour, cleaned and cut to ``width`` cells."""
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    for index, name in enumerate(names):
        if index:
            out.append(", ")
        style = tag_style(colors[index]) if index < len(colors) else None
        out.append(one_line(name, width), style or "")
    out.truncate(width, overflow="ellipsis")
    return out
