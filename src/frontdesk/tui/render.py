"""Message bodies as Rich renderables: Markdown, HTML email and plain text.

Pure functions, no widgets.  Everything here works on text a customer wrote, so:

* the text goes through :func:`frontdesk.text.clean` first (and HTML is cleaned again after
  its entities are decoded, since ``&#27;`` decodes to ESC);
* the result is a :class:`rich.text.Text` built from plain strings and spans: no Rich or
  Textual markup is ever parsed, so ``[bold]`` or ``[@click=app.quit]`` shows literally;
* links are never hyperlinks (no OSC 8, no ``link`` style): a Markdown link shows as
  ``text (target)`` with the real target, its host in ASCII (see
  :func:`frontdesk.text.link_label`).

Markdown is converted by a small hand-written renderer rather than ``rich.markdown``: Rich's
renders through a console at a fixed width (about 3 ms for a ten-line message, against about
0.1 ms here) and Textual would then have to wrap the result again.  Block structure is read
line by line (quotes, lists, headings, rules, fenced code), inline constructs by regular
expressions (bold, italic, bold italic, strikethrough, inline code, links, autolinks, bare
URLs, backslash escapes).  Each inline search is bounded by the last place its closing
delimiter can be, so hostile input such as thousands of unclosed ``**`` stays linear rather
than quadratic; very long lines are shown without inline formatting, deep nesting is capped.

Lines are kept as the author wrote them (a single newline is a line break, as in chat), not
joined into paragraphs as strict Markdown would.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Hashable
from datetime import datetime
from html.parser import HTMLParser
from typing import Final

from rich.console import RenderableType
from rich.style import Style
from rich.text import Span, Text

from frontdesk.text import clean, link_label

__all__ = [
    "BODY_CACHE_SIZE",
    "body_cache_clear",
    "exact_time",
    "format_duration",
    "html_to_markdown_text",
    "markdown_to_text",
    "render_body",
    "render_body_cached",
]

# --------------------------------------------------------------------------- #
# Styles (Rich Style objects: never parsed from strings, never carrying a link)
# --------------------------------------------------------------------------- #

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

_BULLETS: Final = ("•", "◦", "▪")
_QUOTE_GLYPH: Final = "▌ "

# --------------------------------------------------------------------------- #
# Inline Markdown
# --------------------------------------------------------------------------- #


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


class _Builder:
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


def _link(out: _Builder, label: str, target: str, depth: int, image: bool) -> None:
    """A link as ``label (target)``: the real target is always visible, never clickable."""
    shown = link_label(target) if target else ""
    if image:
        out.add("image: ", RULE)
    if label.strip() and label.strip() != shown:
        _inline(out, label, depth + 1)
        if shown:
            out.add(" (")
            out.add(shown, URL)
            out.add(")")
    elif shown:
        out.add(shown, URL)
    else:
        _inline(out, label, depth + 1)


def _inline(out: _Builder, s: str, depth: int = 0) -> None:
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
            _inline(out, best.group(1), depth + 1)
            out.styled(start, _EMPHASIS[name])
    out.add(s[pos:])


# --------------------------------------------------------------------------- #
# Block Markdown
# --------------------------------------------------------------------------- #

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
    out = _Builder()
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
            out.add(_QUOTE_GLYPH * depth, QUOTE_BAR)
            start = out.offset
            _block_line(out, line)
            out.styled(start, QUOTE_TEXT)
        else:
            _block_line(out, line)
    return out.text()


def _block_line(out: _Builder, line: str) -> None:
    """One line outside code blocks: heading, rule, list item or paragraph text."""
    if not line.strip():
        return
    if _RULE.match(line):
        out.add("─" * 20, RULE)
        return
    heading = _HEADING.match(line)
    if heading is not None:
        start = out.offset
        _inline(out, heading.group(2))
        out.styled(start, HEADING_1 if len(heading.group(1)) == 1 else HEADING)
        return
    bullet = _BULLET.match(line)
    if bullet is not None:
        level = min(len(bullet.group(1)) // 2, MAX_BLOCK_DEPTH)
        out.add("  " * level)
        out.add(_BULLETS[min(level, len(_BULLETS) - 1)] + " ", MARKER)
        _inline(out, bullet.group(2))
        return
    ordered = _ORDERED.match(line)
    if ordered is not None:
        level = min(len(ordered.group(1)) // 2, MAX_BLOCK_DEPTH)
        out.add("  " * level)
        out.add(f"{ordered.group(2)}{ordered.group(3)} ", MARKER)
        _inline(out, ordered.group(4))
        return
    _inline(out, line)


# --------------------------------------------------------------------------- #
# HTML email → Markdown text
# --------------------------------------------------------------------------- #

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
_BOLD_TAGS: Final = frozenset({"b", "strong"})
_ITALIC_TAGS: Final = frozenset({"i", "em", "cite", "dfn", "var"})
_CODE_TAGS: Final = frozenset({"code", "kbd", "samp", "tt"})
_STRIKE_TAGS: Final = frozenset({"s", "strike", "del"})
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
        elif tag in ("ul", "ol"):
            if self.lists:
                self._line()
            else:
                self._paragraph()
            start = (attributes.get("start") or "1").strip()
            self.lists.append([int(tag == "ol"), int(start) if start.isdigit() else 1])
        elif tag == "li":
            self._line()
            if self.lists and self.lists[-1][0]:
                number = self.lists[-1][1]
                self.lists[-1][1] += 1
                self.marker = f"{number}. "
            else:
                self.marker = "- "
        elif tag == "pre":
            self._paragraph()
            self._write("```")
            self._line()
            self.pre += 1
        elif tag == "a":
            href = clean(attributes.get("href") or "", multiline=False).strip()
            self.links.append((href, len(self.parts)))
        elif tag == "img":
            alt = _SPACES.sub(" ", clean(attributes.get("alt") or "")).strip()
            if alt:
                self._write(" " + _escape_text("(image: " + alt + ")") + " ")
        elif tag in _BOLD_TAGS:
            self._mark("**", True)
        elif tag in _ITALIC_TAGS:
            self._mark("_", True)
        elif tag in _STRIKE_TAGS:
            self._mark("~~", True)
        elif tag in _CODE_TAGS:
            self._mark("`", True)

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
        elif tag in _BOLD_TAGS:
            self._mark("**", False)
        elif tag in _ITALIC_TAGS:
            self._mark("_", False)
        elif tag in _STRIKE_TAGS:
            self._mark("~~", False)
        elif tag in _CODE_TAGS:
            self._mark("`", False)

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


# --------------------------------------------------------------------------- #
# Bodies
# --------------------------------------------------------------------------- #


def render_body(content_type: str, value: str) -> RenderableType:
    """A message body as a Rich :class:`~rich.text.Text`.

    ``Markdown`` is rendered (see :func:`markdown_to_text`), ``Html`` converted with
    :func:`html_to_markdown_text` and then rendered, anything else (``Text``, unknown types)
    shown as plain text.  The value is cleaned first; no markup is ever interpreted.
    """
    return _render(content_type, value)


def _render(content_type: str, value: str) -> Text:
    value = clean(value)
    kind = content_type.lower()
    if kind == "markdown":
        return markdown_to_text(value)
    if kind == "html":
        return markdown_to_text(html_to_markdown_text(value))
    return Text(value, end="")


BODY_CACHE_SIZE: Final = 4_096
_cache: OrderedDict[Hashable, Text] = OrderedDict()


def render_body_cached(key: Hashable, content_type: str, value: str) -> Text:
    """:func:`render_body` remembered under ``key`` (a message id) for this type and value.

    The cached text is shared: callers must copy it (``Text.copy``/``append_text``) before
    changing it.  A changed value (an anonymised message keeps its id) renders afresh.
    The cache keeps the :data:`BODY_CACHE_SIZE` most recently used bodies.
    """
    cache_key = (key, content_type, value)
    text = _cache.get(cache_key)
    if text is not None:
        _cache.move_to_end(cache_key)
        return text
    text = _render(content_type, value)
    _cache[cache_key] = text
    if len(_cache) > BODY_CACHE_SIZE:
        _cache.popitem(last=False)
    return text


def body_cache_clear() -> None:
    """Forget every cached body (for tests and benchmarks)."""
    _cache.clear()


# --------------------------------------------------------------------------- #
# Times and durations
# --------------------------------------------------------------------------- #


def exact_time(then: datetime, to_local: Callable[[datetime], datetime] | None = None) -> str:
    """The exact time, in the local zone (or as converted by ``to_local``)."""
    local = then.astimezone() if to_local is None else to_local(then)
    return local.strftime("%Y-%m-%d %H:%M:%S %Z").rstrip()


def format_duration(seconds: int) -> str:
    """``45 s``, ``3 min 20 s``, ``1 h 2 min``."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"
