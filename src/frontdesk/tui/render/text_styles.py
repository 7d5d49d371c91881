"""The styles message bodies are drawn with, and the bounds that keep hostile input cheap."""

from __future__ import annotations

from typing import Final

from rich.style import Style

BOLD: Final = Style(bold=True)
ITALIC: Final = Style(italic=True)
BOLD_ITALIC: Final = Style(bold=True, italic=True)
STRIKE: Final = Style(strike=True)
CODE: Final = Style(bold=True, color="cyan")
CODE_BLOCK: Final = Style(color="cyan")
URL: Final = Style(underline=True)
QUOTE_BAR: Final = Style(color="magenta")
QUOTE_TEXT: Final = Style(italic=True)
HEADING: Final = Style(bold=True)
HEADING_1: Final = Style(bold=True, underline=True)
MARKER: Final = Style(bold=True)
RULE: Final = Style(dim=True)

#: Lines longer than this are shown without inline formatting (bounded work on hostile input).
MAX_INLINE_LINE: Final = 5_000
#: Nesting depth of inline styles beyond which inner text is shown as is.
MAX_INLINE_DEPTH: Final = 4
#: Quote and list nesting shown at most (deeper levels are shown at this depth).
MAX_BLOCK_DEPTH: Final = 8

BULLETS: Final = ("•", "◦", "▪")
QUOTE_GLYPH: Final = "▌ "
