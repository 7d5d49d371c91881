"""The one sanitiser for untrusted text.

Everything that a customer or another system wrote (names, subjects, message
bodies, tags, file names, URLs...) passes through this module before it reaches
the terminal.  Two separate dangers are handled:

* **Terminal escape injection.**  Raw control characters (ESC, the 8-bit C1
  controls such as CSI U+009B / OSC U+009D, BEL, NUL, DEL...) could make the
  terminal change its title, write the clipboard (OSC 52), emit hyperlinks
  (OSC 8), query the terminal (``ESC [ 6 n``) or clear the screen.  Bidi
  overrides and invisible format characters can make text *look* different from
  what it is (Trojan Source style spoofing).  :func:`clean` replaces all of them
  with *visible, inert* placeholders, so an agent can see that something odd was
  sent without the terminal acting on it.

* **Markup injection.**  Rich console markup and Textual content markup both use
  square brackets: ``[bold]``, ``[link=...]`` and, worst of all,
  ``[@click=app.quit]`` (an action run on click).  :func:`escape_markup` makes
  any string show literally in *both* dialects; :func:`safe` is the one call
  widgets use when they build markup strings.

Widgets that take renderables rather than markup should use :func:`to_text`,
which never parses markup at all.

This module is pure standard library; :func:`to_text` imports Rich lazily.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rich.style import Style
    from rich.text import Text

__all__ = [
    "clean",
    "escape_markup",
    "link_label",
    "one_line",
    "safe",
    "to_text",
    "written",
]

# --------------------------------------------------------------------------- #
# clean()
# --------------------------------------------------------------------------- #

TAB_SIZE: Final = 4
"""Tab stops used when expanding ``\\t`` (tabs never reach the terminal)."""

ELLIPSIS: Final = "…"
"""Marker appended by :func:`one_line` when text is truncated."""

TRAILING_BACKSLASH: Final = "\u29f5"
"""Look-alike (U+29F5 REVERSE SOLIDUS OPERATOR) for a trailing backslash.

See :func:`escape_markup` for why a trailing backslash cannot be kept as is.
"""

# Invisible / bidi format characters that are replaced by a bracketed code.
# U+200B-U+200F: zero width space / non-joiner / joiner, LRM, RLM.
# U+202A-U+202E: bidi embeddings and overrides (LRE, RLE, PDF, LRO, RLO).
# U+2066-U+2069: bidi isolates (LRI, RLI, FSI, PDI).
# The rest are further invisible characters used for spoofing or smuggling:
# soft hyphen, Arabic letter mark, Mongolian vowel separator, word joiner and
# invisible operators, deprecated format characters, line / paragraph
# separators (zero width in Rich and not a line break in Rich or Textual),
# BOM / zero width no-break space, interlinear annotation characters and the
# "tag" characters of plane 14 (used for hidden-text smuggling).
_FORMAT_RANGES: Final[tuple[tuple[int, int], ...]] = (
    (0x00AD, 0x00AD),
    (0x061C, 0x061C),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0xE0000, 0xE007F),
)
_SURROGATES: Final = (0xD800, 0xDFFF)
_C1: Final = (0x80, 0x9F)


def _code(codepoint: int) -> str:
    """Bracketed hex placeholder for a character without a control picture."""
    return f"⟨U+{codepoint:04X}⟩"


def _build_table(*, multiline: bool) -> dict[int, str]:
    """Build the ``str.translate`` table for :func:`clean`."""
    table: dict[int, str] = {}
    # C0 controls -> Unicode "control pictures" (U+2400 + code), e.g. ESC -> ␛.
    for codepoint in range(0x20):
        table[codepoint] = chr(0x2400 + codepoint)
    table[0x09] = " "  # tabs are expanded before translation; belt and braces
    if multiline:
        del table[0x0A]  # keep newlines
        table[0x0D] = "\n"  # a lone CR becomes a line break (CRLF handled before)
    table[0x7F] = "\u2421"  # DEL -> ␡
    ranges = (_C1, *_FORMAT_RANGES, _SURROGATES)
    for first, last in ranges:
        for codepoint in range(first, last + 1):
            table[codepoint] = _code(codepoint)
    return table


def _char_class(*, multiline: bool) -> str:
    """Regex character class matching every character :func:`clean` replaces (as ranges
    of literal characters: cheaper to compile than escapes)."""
    ranges = [(0x00, 0x09) if multiline else (0x00, 0x1F), (0x7F, 0x9F),
              *_FORMAT_RANGES, _SURROGATES]
    if multiline:
        ranges.insert(1, (0x0B, 0x1F))
    parts = []
    for first, last in sorted(ranges):
        low, high = re.escape(chr(first)), re.escape(chr(last))
        parts.append(low if first == last else f"{low}-{high}")
    return "[" + "".join(parts) + "]+"


@functools.cache
def _cleaner(multiline: bool) -> tuple[re.Pattern[str], dict[int, str]]:
    """What the slow path of :func:`clean` needs: a pattern finding runs of characters to
    replace, and their ``str.translate`` table. Made on first use (most text needs neither,
    and building them costs start-up time)."""
    return (re.compile(_char_class(multiline=multiline)),
            _build_table(multiline=multiline))


def clean(s: str, *, multiline: bool = True) -> str:
    """Make every control, escape and invisible format character inert and visible.

    * C0 controls become their Unicode control picture (ESC -> ``␛``,
      NUL -> ``␀``, BEL -> ``␇``), DEL becomes ``␡``.
    * C1 controls (U+0080-U+009F, including the 8-bit CSI U+009B, OSC U+009D
      and ST U+009C), bidi controls, zero-width and other invisible format
      characters and lone surrogates become a bracketed code such as
      ``⟨U+202E⟩``.
    * Tabs are expanded to spaces (tab stops every :data:`TAB_SIZE` columns).
    * With ``multiline=True`` newlines are kept and ``\\r\\n`` / ``\\r`` become
      ``\\n``; with ``multiline=False`` they are shown as ``␊`` / ``␍`` so that a
      name or subject can never break a single-line row.

    The result contains no character below U+0020 except ``\\n`` (and not even
    that when ``multiline=False``), no DEL, no C1 control, no bidi or invisible
    format character and no surrogate, so it can always be encoded as UTF-8.
    ``clean`` is idempotent.  It never raises for any ``str``.

    Why placeholders rather than deletion: deleting would hide the fact that a
    message tried to inject escape sequences, and could join harmless pieces
    into something misleading.  Placeholders are visible and inert.
    """
    if s.isprintable():  # no control, format or separator character at all
        return s
    runs, table = _cleaner(multiline)
    if runs.search(s) is None:
        return s
    if multiline and "\r" in s:
        s = s.replace("\r\n", "\n")
    if "\t" in s:
        s = s.expandtabs(TAB_SIZE)
    if s.isascii():
        # CPython caches ASCII lookups: translating the whole string is fastest.
        return s.translate(table)
    # For non-ASCII text translate() does a dict lookup per character; only
    # translate the runs of characters that actually need replacing.
    return runs.sub(lambda match: match.group().translate(table), s)


# --------------------------------------------------------------------------- #
# written(): text a person writes, as it is sent
# --------------------------------------------------------------------------- #

# C0 controls but tab and line feed, DEL, the C1 controls and lone surrogates: what can never be
# part of text written for a customer (it could only command a terminal, or not encode at all).
# (compiled when first used: a pattern compiled as the module loads costs the first frame)
@functools.cache
def _not_written() -> re.Pattern[str]:
    return re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]+")


def written(s: str, *, multiline: bool = True) -> str:
    """What a person typed or pasted, as it is kept and sent: as written, less the control
    characters that cannot be part of a message.

    :func:`clean` is for what the terminal *shows* and makes every invisible character a
    visible placeholder; that must never reach what an agent sends: a Persian name's
    zero-width non-joiner, an emoji family's joiners, the tag characters of a flag or a
    right-to-left mark are part of the text. Here only C0 controls (tab and newline kept, a
    carriage return becoming a newline), DEL, C1 controls (U+0080-U+009F) and lone
    surrogates are dropped: nothing left can start an escape sequence, and everything else
    reaches the customer byte for byte. With ``multiline=False`` (a one-line input) tabs and
    line breaks become spaces. Idempotent; never raises for any ``str``."""
    if "\r" in s:
        s = s.replace("\r\n", "\n").replace("\r", "\n")
    if not s.isascii() or not s.isprintable():
        s = _not_written().sub("", s)
    if not multiline and ("\n" in s or "\t" in s):
        s = s.replace("\t", " ").replace("\n", " ")
    return s


# --------------------------------------------------------------------------- #
# Markup escaping
# --------------------------------------------------------------------------- #

# A tag pair that renders as nothing in both Rich and Textual markup.  It is
# used to separate characters that the two parsers would otherwise treat
# differently.  Textual adds no span for it; Rich adds a zero-length span with
# the null style "none", which has no effect.
_EMPTY_TAG: Final = "[none][/none]"

# Characters that can appear in a Rich emoji code (``:smile:``, ``:+1:``,
# ``:thumbs_up-text:``).  Rich replaces such codes in markup by emoji; a tag
# after the first colon stops that (Rich looks for codes per text segment).
_EMOJI_NAME: Final = "[\\w!#&()*+\\-.'\u2019]"



@functools.cache
def _emoji_colon() -> re.Pattern[str]:
    """A colon that starts a possible Rich emoji code (compiled when first used)."""
    return re.compile(f":(?={_EMOJI_NAME}+:)")


def escape_markup(s: str) -> str:
    """Escape ``s`` so it shows literally in Rich *and* Textual content markup.

    The result can be placed anywhere in *content* position of a markup string
    (``f"[b]{escape_markup(name)}[/b]"``) and nothing in it is interpreted as a
    tag: no styles, no ``[link=...]`` (so no OSC 8 hyperlinks) and no
    ``[@click=...]`` actions.  It must never be put inside a tag's parameters
    (``[link={...}]``), and must not be used with Textual template variables
    (``Content.from_markup(markup, name=...)`` substitutes ``$name`` anywhere in
    the text); pass untrusted text *as* the variable value instead.

    Why not ``rich.markup.escape`` / ``textual.markup.escape`` (the same code):
    they only escape ``[`` followed by a lowercase letter, ``#``, ``/`` or
    ``@``, which is Rich's tag syntax.  Textual also parses ``[URGENT]``,
    ``[50%]`` or ``[ bold]`` as tags (the text vanishes), and treats a backslash
    before ``[`` differently from Rich.  Here every ``[`` is escaped, and
    backslashes right before a ``[`` are kept exact in both dialects.

    Rich markup also replaces emoji codes such as ``:smile:``; a zero-width
    empty tag is inserted after the colon so Rich shows the code literally.

    A trailing backslash would escape the ``[`` of whatever markup the caller
    appends (``f"{escape_markup(s)}[/b]"`` would then raise a markup error, or
    leave a tag unclosed).  Textual offers no way to keep a backslash directly
    before a live tag, so the *last* character, if it is a backslash, is
    replaced by the look-alike :data:`TRAILING_BACKSLASH` (U+29F5).  This is the
    only case where the rendered text differs from ``s``.
    """
    if "[" in s:
        # Every "[" gets one more backslash: Textual turns k+1 backslashes + "["
        # into k backslashes + "[" whatever follows, and so does Rich for a "["
        # that does not start a tag.  For a "[" that does start a Rich tag,
        # Rich instead halves the backslashes before it; that only differs
        # when the text already had a backslash there (k >= 1), and then an
        # empty tag right after the "[" stops Rich from seeing a tag at all.
        s = s.replace("[", "\\[")
        if "\\\\[" in s:
            s = s.replace("\\\\[", "\\\\[" + _EMPTY_TAG)
    if ":" in s:
        # After the brackets: the empty tag must not be escaped itself.
        s = _emoji_colon().sub(":" + _EMPTY_TAG, s)
    if s.endswith("\\"):
        s = s[:-1] + TRAILING_BACKSLASH
    return s


def safe(s: str) -> str:
    """Untrusted text ready to embed in a Rich or Textual markup string.

    ``escape_markup(clean(s))``: no terminal escapes, no invisible characters,
    no markup.  This is the one call widgets use when they build markup.
    """
    return escape_markup(clean(s))


def to_text(s: str, style: str | Style = "") -> Text:
    """A Rich :class:`~rich.text.Text` of ``clean(s)``, without parsing markup.

    For widgets that take renderables: brackets in ``s`` are plain characters,
    so no escaping is needed (or wanted; escaping would show the backslashes).
    """
    from rich.text import Text

    return Text(clean(s), style=style)


# --------------------------------------------------------------------------- #
# Single-line labels
# --------------------------------------------------------------------------- #


_CELLS_CACHE: Final[dict[str, int]] = {}


def _char_cells(char: str) -> int:
    """Terminal cells taken by one character (stdlib approximation of wcwidth)."""
    if char < "\u0300":  # Latin-1 and Latin Extended: always one cell once cleaned
        return 1
    cells = _CELLS_CACHE.get(char)
    if cells is None:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            cells = 0
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            cells = 2
        else:
            cells = 1
        if len(_CELLS_CACHE) < 65536:
            _CELLS_CACHE[char] = cells
    return cells


def _cells(s: str) -> int:
    """Terminal cells taken by ``s``."""
    if s.isascii():
        return len(s)
    return sum(_char_cells(char) for char in s)


def _truncate(s: str, width: int) -> str:
    """Cut ``s`` to at most ``width`` cells, ending with :data:`ELLIPSIS` if cut.

    Only looks at characters until the width is exceeded, so it is cheap on
    long text.
    """
    if width <= 0:
        return ""
    if len(s) <= width // 2:  # no character takes more than two cells
        return s
    if s.isascii():
        return s if len(s) <= width else s[: width - 1].rstrip() + ELLIPSIS
    used = 0
    cut = 0  # longest prefix that leaves room for the ellipsis
    for index, char in enumerate(s):
        used += _char_cells(char)
        if used > width:
            return s[:cut].rstrip() + ELLIPSIS
        if used < width:
            cut = index + 1
    return s


_LINE_BREAKS: Final = str.maketrans({"\r": " ", "\n": " "})


def _single_line(s: str) -> str:
    """``clean(s, multiline=False)`` with line breaks as spaces and whitespace runs
    collapsed."""
    return " ".join(clean(s.translate(_LINE_BREAKS), multiline=False).split())


def one_line(s: str, width: int | None = None) -> str:
    """Clean ``s`` for a single-line slot: list rows, subjects, names, tags.

    Line breaks become spaces (a message's lines read as one line), the rest
    goes through ``clean(s, multiline=False)``, then runs of whitespace are collapsed to
    one space and
    leading/trailing whitespace removed.  If ``width`` is given and the text
    takes more than ``width`` terminal cells, it is cut and ends with ``…``;
    the result never takes more than ``width`` cells (wide CJK and emoji
    characters count as two).

    The result is plain text: use :func:`escape_markup` before embedding it in
    markup.
    """
    if width is None:
        return _single_line(s)
    # Long text (a message body shown as a preview row): work on a prefix.
    # Cleaning and collapsing are applied character by character, so the
    # prefix's result is a prefix of the whole result; if it already overflows
    # the width, the cut falls inside it and the rest of ``s`` cannot matter.
    limit = 4 * max(width, 0) + 64
    if len(s) > limit:
        head = _single_line(s[:limit])
        cut = _truncate(head, width)
        if cut != head:
            return cut
    return _truncate(_single_line(s), width)


def _ascii_host(host: str) -> str:
    """Host name in ASCII (IDNA / punycode), so look-alike domains are exposed."""
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        labels: list[str] = []
        for label in host.split("."):
            if label.isascii():
                labels.append(label)
            else:
                labels.append("xn--" + label.encode("punycode").decode("ascii"))
        return ".".join(labels)


def link_label(url: str) -> str:
    """Show a URL as plain text with its real target.

    The label is the URL itself, never a friendlier text, and is never turned
    into a terminal hyperlink (OSC 8); it is returned as plain text, to be shown
    via :func:`to_text` or embedded with :func:`escape_markup`.  The host is
    shown in its ASCII (punycode) form, so that a look-alike host spelt
    with Cyrillic letters shows as ``xn--...``, and the result is cleaned as a
    single line (control characters become visible placeholders).
    """
    text = clean(url.strip(), multiline=False)
    try:
        parts = urlsplit(text)
        host = parts.hostname
    except ValueError:
        return text
    if not host or host.isascii():
        return text
    try:
        ascii_host = _ascii_host(host)
        port = parts.port
    except (UnicodeError, ValueError):
        return text
    netloc = parts.netloc.rpartition("@")
    userinfo = netloc[0] + netloc[1]
    if ":" in ascii_host:  # IPv6 literal (cannot be non-ASCII, but be exact)
        ascii_host = f"[{ascii_host}]"
    new_netloc = userinfo + ascii_host + (f":{port}" if port is not None else "")
    return clean(urlunsplit(parts._replace(netloc=new_netloc)), multiline=False)
