"""HTML email to the Markdown subset the renderer draws: paragraphs, lines, lists, quotes,
emphasis, code and links; scripts, styles and hidden parts dropped."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Final

from frontdesk.text import clean, link_label

from .text_styles import MAX_BLOCK_DEPTH, MAX_INLINE_DEPTH

_SKIP_TAGS: Final = frozenset(
    {"script", "style", "head", "title", "template", "noscript", "svg", "iframe", "object"}
)
_VOID_TAGS: Final = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)
_PARAGRAPH_TAGS: Final = frozenset(
    {"p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "address", "dl", "figure", "form"}
)
_LINE_TAGS: Final = frozenset(
    {
        "div",
        "section",
        "article",
        "header",
        "footer",
        "main",
        "nav",
        "aside",
        "center",
        "tr",
        "dt",
        "dd",
        "caption",
        "figcaption",
        "tbody",
        "thead",
        "tfoot",
        "fieldset",
        "details",
        "summary",
    }
)
# Inline tags and the Markdown marker each becomes.
_INLINE_MARKERS: Final[dict[str, str]] = {
    **dict.fromkeys(("b", "strong"), "**"),
    **dict.fromkeys(("i", "em", "cite", "dfn", "var"), "_"),
    **dict.fromkeys(("code", "kbd", "samp", "tt"), "`"),
    **dict.fromkeys(("s", "strike", "del"), "~~"),
}
# Sentinels for inline markers, resolved when a line is finished (so whitespace can be moved
# outside them: ``<b> x </b>`` must become `` **x** `` to be bold in Markdown).
_OPEN: Final = "\ue000"
_CLOSE: Final = "\ue001"
_SENTINELS: Final = re.compile("[\ue000-\ue001]")
_MARKDOWN_SPECIALS: Final = re.compile(r"([\\`*_~\[\]])")
_SPACES: Final = re.compile(r"\s+")
_DOUBLE_SPACES: Final = re.compile(r"  +")
_SPACE_BEFORE_CLOSE: Final = re.compile(r"(\s+)(\ue001[^\ue000\ue001]+\ue001)")
_SPACE_AFTER_OPEN: Final = re.compile(r"(\ue000[^\ue000\ue001]+\ue000)(\s+)")
_MARKER: Final = re.compile(r"[\ue000\ue001]([^\ue000\ue001]+)[\ue000\ue001]")
_MARKERS_ANY: Final = re.compile(r"[\ue000\ue001][^\ue000\ue001]*[\ue000\ue001]")
_EMPTY_PAIR: Final = re.compile(r"\ue000([^\ue000\ue001]+)\ue000\ue001\1\ue001")


class _HtmlToMarkdown(HTMLParser):
    """Walks an HTML email and writes readable Markdown lines.

    Lines are finished lazily: a block element ends the current line, and asks for a blank
    line before the next text (paragraphs, headings, lists) or not (``div``, table rows).
    Each line starts with the prefixes of where it is: ``> `` per blockquote, the list
    indentation and, for a list item's first line, its marker.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.parts: list[str] = []
        self.prefix = ""
        self.skipping: list[str] = []
        self.pre = 0
        self.quote = 0
        self.lists: list[list[int]] = []  # [ordered (0/1), next number]
        self.marker: str | None = None
        self.blank = False
        self.links: list[tuple[str, int]] = []  # (target, index of the label's first part)
        self.marks: list[tuple[str, bool]] = []  # open inline markers, (marker, shown)

    # -- output ------------------------------------------------------------ #

    def _quote_prefix(self) -> str:
        return "> " * min(self.quote, MAX_BLOCK_DEPTH)

    def _empty_line(self) -> None:
        self.lines.append(self._quote_prefix().rstrip())

    def _line(self) -> None:
        """Finish the current line (inline markers still open are closed, and reopened
        when the next line starts)."""
        if self.parts:
            for marker, active in reversed(self.marks):
                if active:
                    self.parts.append(_CLOSE + marker + _CLOSE)
            line = _finish_inline("".join(self.parts))
            line = line.rstrip() if self.pre else _DOUBLE_SPACES.sub(" ", line.strip())
            if line:
                self.lines.append(self.prefix + line)
        self.parts = []

    def _paragraph(self) -> None:
        """Finish the current line and ask for a blank line before what comes next."""
        self._line()
        if self.lines:
            self.blank = True

    def _write(self, text: str) -> None:
        """Add text to the current line, starting it (blank line, prefixes) if needed."""
        if not self.parts:
            if not self.pre:
                text = text.lstrip()
                if not text:
                    return
            if self.blank and self.lines:
                self._empty_line()
            self.blank = False
            indent = "   " * min(max(0, len(self.lists) - 1), MAX_BLOCK_DEPTH)
            if self.marker is not None:
                self.prefix = self._quote_prefix() + indent + self.marker
                self.marker = None
            elif self.lists:
                self.prefix = self._quote_prefix() + indent + "   "
            else:
                self.prefix = self._quote_prefix()
            reopen = "".join(_OPEN + marker + _OPEN for marker, active in self.marks if active)
            text = reopen + text
        self.parts.append(text)

    def _mark(self, marker: str, opening: bool) -> None:
        """An inline marker (``**``, ``_``, ``~~``, `````), as sentinels until the line ends."""
        if self.pre:
            return
        if opening:
            # A marker already open, or nesting beyond what the renderer shows, is ignored
            # (but kept on the stack, so closing tags still match).
            shown = [open_marker for open_marker, on in self.marks if on]
            active = marker not in shown and len(shown) < MAX_INLINE_DEPTH
            if active:
                self._write(_OPEN + marker + _OPEN)
            self.marks.append((marker, active))
            return
        for index in range(len(self.marks) - 1, -1, -1):
            if self.marks[index][0] == marker:
                _marker, active = self.marks.pop(index)
                if active and self.parts:
                    self.parts.append(_CLOSE + marker + _CLOSE)
                return

    # -- parser callbacks ---------------------------------------------------- #

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body" and "head" in self.skipping:
            self.skipping.clear()  # an unclosed <head> ends where the body starts
        if tag in _SKIP_TAGS:
            self.skipping.append(tag)
            return
        if self.skipping:
            return
        attributes = dict(attrs)
        marker = _INLINE_MARKERS.get(tag)
        if marker is not None:
            self._mark(marker, True)
        elif tag == "a":
            href = clean(attributes.get("href") or "", multiline=False).strip()
            self.links.append((href, len(self.parts)))
        elif tag == "img":
            alt = _SPACES.sub(" ", clean(attributes.get("alt") or "")).strip()
            if alt:
                self._write(" " + _escape_text("(image: " + alt + ")") + " ")
        else:
            self._open_block(tag, attributes)

    def _open_block(self, tag: str, attributes: dict[str, str | None]) -> None:
        """Where a block-level tag opens: a line break, a rule, a paragraph, a quote, a list."""
        if tag == "br":
            if self.parts:
                self._line()
            else:
                self._empty_line()
        elif tag == "hr":
            self._paragraph()
            self.blank = False
            if self.lines:
                self._empty_line()
            self.lines.append(self._quote_prefix() + "---")
            self.blank = True
        elif tag in _PARAGRAPH_TAGS:
            if self.marker is None:
                self._paragraph()
            else:
                self._line()
            if tag[0] == "h" and tag[1:].isdigit():
                self._write("#" * int(tag[1:]) + " ")
        elif tag in _LINE_TAGS:
            self._line()
        elif tag in ("td", "th"):
            if self.parts:
                self.parts.append(" | ")
        elif tag == "blockquote":
            self._line()
            if self.lines:
                self._empty_line()
            self.blank = False
            self.quote += 1
        elif tag in ("ul", "ol", "li"):
            self._open_list(tag, attributes)
        elif tag == "pre":
            self._paragraph()
            self._write("```")
            self._line()
            self.pre += 1

    def _open_list(self, tag: str, attributes: dict[str, str | None]) -> None:
        """A list opens (numbered from its ``start``), or one of its items starts a line."""
        if tag == "li":
            self._line()
            if self.lists and self.lists[-1][0]:
                number = self.lists[-1][1]
                self.lists[-1][1] += 1
                self.marker = f"{number}. "
            else:
                self.marker = "- "
            return
        if self.lists:
            self._line()
        else:
            self._paragraph()
        start = (attributes.get("start") or "1").strip()
        self.lists.append([int(tag == "ol"), int(start) if start.isdigit() else 1])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID_TAGS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            if tag in self.skipping:
                while self.skipping.pop() != tag:
                    pass
            return
        if self.skipping:
            return
        if tag in _PARAGRAPH_TAGS:
            self._paragraph()
        elif tag == "blockquote":
            self._line()
            self.quote = max(0, self.quote - 1)
            self.blank = bool(self.lines)
        elif tag in _LINE_TAGS or tag == "li":
            self._line()
        elif tag in ("ul", "ol"):
            self._line()
            if self.lists:
                self.lists.pop()
            if not self.lists:
                self._paragraph()
        elif tag == "pre":
            self._line()
            self.pre = max(0, self.pre - 1)
            self._write("```")
            self._paragraph()
        elif tag == "a" and self.links:
            self._end_link(*self.links.pop())
        elif tag in _INLINE_MARKERS:
            self._mark(_INLINE_MARKERS[tag], False)

    def _end_link(self, target: str, first: int) -> None:
        """After a link's label: its real target in parentheses, unless the label is it."""
        if not target or target.startswith("#"):
            return
        label = _unescape(_MARKERS_ANY.sub("", "".join(self.parts[first:]))).strip()
        shown = link_label(target)
        if label in (shown, target, target.removeprefix("mailto:")):
            return
        self._write(f" ({_escape_url(shown)})" if label else _escape_url(shown))

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        data = clean(_SENTINELS.sub("\ufffd", data))
        if self.pre:
            for index, line in enumerate(data.split("\n")):
                if index:
                    if self.parts:
                        self._line()
                    elif self.pre_started():
                        self._empty_line()
                if line:
                    self._write(line)
            return
        data = _SPACES.sub(" ", data)
        if self.parts and self.parts[-1].endswith(" ") and data.startswith(" "):
            data = data[1:]
        if data:
            self._write(_escape_text(data))

    def pre_started(self) -> bool:
        """Whether the ``<pre>`` block already has a line (its first newline is dropped)."""
        return bool(self.lines) and not self.lines[-1].endswith("```")

    def result(self) -> str:
        """The Markdown text, with runs of blank lines collapsed."""
        self._line()
        out: list[str] = []
        for line in self.lines:
            if not line.strip(" >") and (not out or not out[-1].strip(" >")):
                continue
            out.append(line)
        while out and not out[-1].strip(" >"):
            out.pop()
        return "\n".join(out)


def _escape_text(s: str) -> str:
    """Text from an HTML text node: Markdown specials shown literally."""
    return _MARKDOWN_SPECIALS.sub(r"\\\1", s)


def _escape_url(url: str) -> str:
    """A URL for Markdown text: only a bare ``http(s)://`` URL stays unescaped (it is
    rendered verbatim); anything else is escaped like text."""
    if re.match(r"(?:https?|ftp)://[^\s<>\"'`]+$", url):
        return url
    return _escape_text(url)


def _unescape(s: str) -> str:
    """Undo :func:`_escape_text` (to compare a link's label with its target)."""
    return re.sub(r"\\(.)", r"\1", s)


def _finish_inline(line: str) -> str:
    """Resolve the inline-marker sentinels of one line."""
    if _OPEN not in line:
        return line
    # Whitespace just inside a marker moves outside it; then empty pairs disappear.
    for _ in range(4):
        moved = _SPACE_AFTER_OPEN.sub(r"\2\1", line)
        moved = _SPACE_BEFORE_CLOSE.sub(r"\2\1", moved)
        moved = _EMPTY_PAIR.sub("", moved)
        if moved == line:
            break
        line = moved
    return _MARKER.sub(r"\1", line)


def html_to_markdown_text(html: str) -> str:
    """Make an HTML email body readable as Markdown text.

    Paragraphs and headings are separated by blank lines, ``<br>`` breaks lines, lists become
    ``-``/``1.`` items, blockquotes ``>`` lines, ``<b>``/``<strong>`` ``**``, ``<i>``/``<em>``
    ``_``, ``<code>`` backticks, ``<pre>`` a fenced block, ``<hr>`` a rule, and a link
    ``text (target)`` with its real target (the host shown in ASCII).  ``<script>``,
    ``<style>``, ``<head>`` and the like are dropped, entities decoded, whitespace collapsed
    as a browser would.  Text from the HTML has its Markdown specials escaped, so it shows
    as written.  The result is cleaned (:func:`frontdesk.text.clean`): a decoded ``&#27;``
    cannot become a raw ESC.
    """
    parser = _HtmlToMarkdown()
    try:
        parser.feed(html)
        parser.close()
    except (AssertionError, ValueError):  # pragma: no cover - html.parser is lenient
        pass
    return clean(parser.result())
