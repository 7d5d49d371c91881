"""Tag colours: a tag's ``color`` from the service, made safe to paint.

A colour is the service's text like any other: only a plain ``#rrggbb`` ever becomes a
style (a style string could carry a link or anything Rich parses); anything else paints as
the surrounding text does. A colour too near black or white to read on a dark or a light
theme (a black tag) is painted on a chip of the opposite shade, so it reads on both.
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


#: Relative luminance (WCAG) below which a colour gets a light chip, and above which a dark.
DARK, LIGHT = 0.04, 0.75
#: The chips behind colours too dark or too light to read on one of the themes.
LIGHT_CHIP, DARK_CHIP = "#c8c8c8", "#3a3a3a"


def luminance(color: str) -> float:
    """The relative luminance of a ``#rrggbb`` colour, 0 (black) to 1 (white)."""
    channels = [int(color[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _styles(color: str) -> Style:
    style = _CACHE.get(color)
    if style is None:
        shade = luminance(color)
        chip = LIGHT_CHIP if shade < DARK else DARK_CHIP if shade > LIGHT else None
        style = _CACHE[color] = Style(color=color, bgcolor=chip)
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
