"""Inline Markdown (emphasis, code, links, autolinks, bare URLs, escapes) into spans, each
search bounded so that hostile input stays linear; links show their real target, never a
hyperlink."""

from __future__ import annotations

import re
from typing import Final

from rich.style import Style
from rich.text import Span, Text

from frontdesk.text import link_label

from .text_styles import (
    BOLD,
    BOLD_ITALIC,
    CODE,
    ITALIC,
    MAX_INLINE_DEPTH,
    MAX_INLINE_LINE,
    RULE,
    STRIKE,
    URL,
)


class _Kind:
    """One inline construct: its pattern and how far a match can possibly reach.

    ``closer`` finds the places a match can end; the search for the construct never looks
    past the last of them, which keeps failed searches from rescanning the whole line.
    """

    __slots__ = ("closer", "name", "pattern", "trigger")

    def __init__(self, name: str, trigger: str, pattern: str, closer: str | None = None) -> None:
        self.name = name
        self.trigger = trigger
        self.pattern = re.compile(pattern)
        self.closer = re.compile(closer) if closer is not None else None

    def limit(self, s: str) -> int:
        """End of the last possible match in ``s`` (0 when none can exist)."""
        if self.trigger not in s:
            return 0
        if self.closer is None:
            return len(s)
        last = 0
        for match in self.closer.finditer(s):
            last = match.end()
        return last


_URL_CHARS: Final = r"[^\s<>\"'`\[\]\\]"
# Order matters: at the same position the first kind wins.
_KINDS: Final = (
    _Kind("code", "`", r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", r"`+"),
    _Kind("escape", "\\", r"\\([\\`*_{}\[\]()#+\-.!~>|<])"),
    _Kind("autolink", "<", r"<((?:https?|ftp|mailto):[^\s<>]+)>", r">"),
    _Kind("url", "://", rf"\b(?:https?|ftp)://{_URL_CHARS}+"),
    _Kind("image", "![", r"!\[([^\[\]\n]*)\]\(\s*<?([^\s()<>]*)>?(?:\s+\"[^\"\n]*\")?\s*\)", r"\)"),
    _Kind("link", "[", r"\[([^\[\]\n]+)\]\(\s*<?([^\s()<>]*)>?(?:\s+\"[^\"\n]*\")?\s*\)", r"\)"),
    _Kind("bold_italic", "***", r"\*\*\*(?=\S)(.+?)(?<=\S)\*\*\*", r"(?<=\S)\*\*\*"),
    _Kind("bold", "**", r"\*\*(?=\S)(.+?)(?<=\S)\*\*", r"(?<=\S)\*\*"),
    _Kind("bold_u", "__", r"(?<![\w\\])__(?=\S)(.+?)(?<=\S)__(?!\w)", r"(?<=\S)__"),
    _Kind("strike", "~~", r"~~(?=\S)(.+?)(?<=\S)~~", r"(?<=\S)~~"),
    _Kind("italic", "*", r"(?<!\\)\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*", r"(?<=[^\s*])\*"),
    _Kind("italic_u", "_", r"(?<![\w\\])_(?=[^\s_])(.+?)(?<=[^\s_\\])_(?!\w)", r"(?<=[^\s_])_"),
)

#: A line without any of these has no inline construct (the common, fast case).
_SPECIAL: Final = re.compile(r"[`\\<\[*_~]|://")

_EMPHASIS: Final[dict[str, Style]] = {
    "bold_italic": BOLD_ITALIC,
    "bold": BOLD,
    "bold_u": BOLD,
    "strike": STRIKE,
    "italic": ITALIC,
    "italic_u": ITALIC,
}

_TRAILING_URL_PUNCTUATION: Final = ".,;:!?'\""


class Builder:
    """Accumulates plain text and spans, then makes one :class:`Text` (cheaper than appends)."""

    __slots__ = ("offset", "parts", "spans")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[Span] = []
        self.offset = 0

    def add(self, s: str, style: Style | None = None) -> None:
        """Append ``s``, styled with ``style`` when given."""
        if not s:
            return
        end = self.offset + len(s)
        if style is not None:
            self.spans.append(Span(self.offset, end, style))
        self.parts.append(s)
        self.offset = end

    def styled(self, start: int, style: Style) -> None:
        """Style everything added since ``start``."""
        if self.offset > start:
            self.spans.append(Span(start, self.offset, style))

    def text(self) -> Text:
        """The accumulated text."""
        return Text("".join(self.parts), spans=self.spans, end="")


def _split_url(url: str) -> tuple[str, str]:
    """A bare URL without the punctuation that most likely ends the sentence around it."""
    end = len(url)
    while end and url[end - 1] in _TRAILING_URL_PUNCTUATION:
        end -= 1
    if end and url[end - 1] == ")" and url.count("(", 0, end) < url.count(")", 0, end):
        end -= 1
    return url[:end], url[end:]


def _link(out: Builder, label: str, target: str, depth: int, image: bool) -> None:
    """A link as ``label (target)``: the real target is always visible, never clickable."""
    shown = link_label(target) if target else ""
    if image:
        out.add("image: ", RULE)
    if label.strip() and label.strip() != shown:
        add_inline(out, label, depth + 1)
        if shown:
            out.add(" (")
            out.add(shown, URL)
            out.add(")")
    elif shown:
        out.add(shown, URL)
    else:
        add_inline(out, label, depth + 1)


def add_inline(out: Builder, s: str, depth: int = 0) -> None:
    """Append one line of inline Markdown to ``out``."""
    if depth >= MAX_INLINE_DEPTH or len(s) > MAX_INLINE_LINE or _SPECIAL.search(s) is None:
        out.add(s)
        return
    limits = [kind.limit(s) for kind in _KINDS]
    pending: list[re.Match[str] | None] = [None] * len(_KINDS)
    pos = 0
    size = len(s)
    while pos < size:
        best: re.Match[str] | None = None
        best_index = -1
        for index, kind in enumerate(_KINDS):
            limit = limits[index]
            if limit <= pos:
                continue
            match = pending[index]
            if match is None or match.start() < pos:
                match = kind.pattern.search(s, pos, limit)
                pending[index] = match
                if match is None:
                    limits[index] = 0
                    continue
            if best is None or match.start() < best.start():
                best, best_index = match, index
        if best is None:
            break
        out.add(s[pos : best.start()])
        pos = best.end()
        name = _KINDS[best_index].name
        if name == "code":
            code = best.group(2)
            if len(code) > 2 and code[0] == " " and code[-1] == " " and code.strip():
                code = code[1:-1]
            out.add(code, CODE)
        elif name == "escape":
            out.add(best.group(1))
        elif name == "autolink":
            out.add(link_label(best.group(1)), URL)
        elif name == "url":
            url, rest = _split_url(best.group())
            out.add(link_label(url), URL)
            out.add(rest)
        elif name in ("link", "image"):
            _link(out, best.group(1), best.group(2), depth, image=name == "image")
        else:
            start = out.offset
            add_inline(out, best.group(1), depth + 1)
            out.styled(start, _EMPHASIS[name])
    out.add(s[pos:])
