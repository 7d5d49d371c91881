"""Markdown's block structure read line by line: quotes, lists, headings, rules and fenced
code; lines kept as the author wrote them."""

from __future__ import annotations

import re
from typing import Final

from rich.text import Text

from .inline import Builder, add_inline
from .text_styles import (
    BULLETS,
    CODE_BLOCK,
    HEADING,
    HEADING_1,
    MARKER,
    MAX_BLOCK_DEPTH,
    QUOTE_BAR,
    QUOTE_GLYPH,
    QUOTE_TEXT,
    RULE,
)

_FENCE: Final = re.compile(r" {0,3}(`{3,}|~{3,})")
_QUOTE: Final = re.compile(r" {0,3}>[ ]?")
_HEADING: Final = re.compile(r" {0,3}(#{1,6})(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$")
_RULE: Final = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_BULLET: Final = re.compile(r"( *)[-*+][ \t]+(.*)")
_ORDERED: Final = re.compile(r"( *)(\d{1,9})([.)])[ \t]+(.*)")


def markdown_to_text(value: str) -> Text:
    """Render Markdown (already cleaned) as Rich text: no markup parsed, no hyperlinks.

    Supported: bold (``**``/``__``), italic (``*``/``_``), bold italic (``***``),
    strikethrough (``~~``), inline code, fenced code blocks, blockquotes (nested),
    ordered and unordered lists (nested by indentation), headings, horizontal rules, links
    and images (``text (target)``), autolinks and bare URLs, backslash escapes.
    """
    out = Builder()
    fence: str | None = None
    emitted = False
    for line in value.split("\n"):
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                fence = None
                continue
            if emitted:
                out.add("\n")
            emitted = True
            out.add(line, CODE_BLOCK)
            continue
        opened = _FENCE.match(line)
        if opened is not None:
            fence = opened.group(1)
            continue
        if emitted:
            out.add("\n")
        emitted = True
        depth = 0
        while depth < MAX_BLOCK_DEPTH:
            quote = _QUOTE.match(line)
            if quote is None:
                break
            depth += 1
            line = line[quote.end() :]
        if depth:
            out.add(QUOTE_GLYPH * depth, QUOTE_BAR)
            start = out.offset
            _block_line(out, line)
            out.styled(start, QUOTE_TEXT)
        else:
            _block_line(out, line)
    return out.text()


def _block_line(out: Builder, line: str) -> None:
    """One line outside code blocks: heading, rule, list item or paragraph text."""
    if not line.strip():
        return
    if _RULE.match(line):
        out.add("─" * 20, RULE)
        return
    heading = _HEADING.match(line)
    if heading is not None:
        start = out.offset
        add_inline(out, heading.group(2))
        out.styled(start, HEADING_1 if len(heading.group(1)) == 1 else HEADING)
        return
    bullet = _BULLET.match(line)
    if bullet is not None:
        level = min(len(bullet.group(1)) // 2, MAX_BLOCK_DEPTH)
        out.add("  " * level)
        out.add(BULLETS[min(level, len(BULLETS) - 1)] + " ", MARKER)
        add_inline(out, bullet.group(2))
        return
    ordered = _ORDERED.match(line)
    if ordered is not None:
        level = min(len(ordered.group(1)) // 2, MAX_BLOCK_DEPTH)
        out.add("  " * level)
        out.add(f"{ordered.group(2)}{ordered.group(3)} ", MARKER)
        add_inline(out, ordered.group(4))
        return
    add_inline(out, line)
