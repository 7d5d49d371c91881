"""Tests for frontdesk.text, the one sanitiser for untrusted text.

Three layers are checked: terminal control sequences are made inert and visible
(``clean``), Rich and Textual markup cannot be injected (``escape_markup`` /
``safe``), and what finally reaches a real terminal contains no escape sequence
other than the SGR colour codes the renderer itself writes.
"""

from __future__ import annotations

import io
import re
import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape as rich_escape
from rich.text import Text
from textual.content import Content

from frontdesk import text as sanitiser
from frontdesk.text import (
    ELLIPSIS,
    TRAILING_BACKSLASH,
    clean,
    escape_markup,
    link_label,
    one_line,
    safe,
    to_text,
)

# --------------------------------------------------------------------------- #
# Independent oracle: what must never survive clean().
# --------------------------------------------------------------------------- #

BIDI_AND_INVISIBLE = {
    *range(0x202A, 0x202F),
    *range(0x2066, 0x206A),
    0x200E,
    0x200F,
    0x061C,
    *range(0x200B, 0x200E),
    0x2060,
    0xFEFF,
}
FORBIDDEN = {
    *(chr(c) for c in range(0x20) if c != 0x0A),
    "\x7f",
    *(chr(c) for c in range(0x80, 0xA0)),
    *(chr(c) for c in BIDI_AND_INVISIBLE),
    *(chr(c) for c in range(0xD800, 0xE000)),
}


def forbidden_in(s: str, *, multiline: bool = True) -> set[str]:
    """Characters of ``s`` that clean() must have removed."""
    found = {ch for ch in s if ch in FORBIDDEN}
    if not multiline and "\n" in s:
        found.add("\n")
    return found


HOSTILE = {
    "osc52 clipboard": ("\x1b]52;c;ZXZpbA==\x07", ["\u241b", "\u2407"]),
    "osc0 title": ("\x1b]0;pwned\x07", ["\u241b]0;pwned\u2407"]),
    "osc2 title st": ("\x1b]2;x\x1b\\", ["\u241b]2;x\u241b"]),
    "osc8 link": (
        "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\",
        ["\u241b]8;;http://evil\u241b\\click"],
    ),
    "clear screen": ("\x1b[2J", ["\u241b[2J"]),
    "device status report": ("\x1b[6n", ["\u241b[6n"]),
    "8-bit csi": ("\x9b6n", ["\u27e8U+009B\u27e96n"]),
    "8-bit osc and st": ("\x9d0;t\x9c", ["\u27e8U+009D\u27e9", "\u27e8U+009C\u27e9"]),
    "nul": ("a\x00b", ["a\u2400b"]),
    "rlo": ("invoice_\u202excod.exe", ["\u27e8U+202E\u27e9"]),
    "del": ("x\x7fy", ["x\u2421y"]),
    "bell": ("\x07", ["\u2407"]),
    "backspace overwrite": ("safe\x08\x08\x08\x08evil", ["\u2408"]),
    "lone surrogate": ("x\ud800y", ["\u27e8U+D800\u27e9"]),
    "zero width space": ("pay\u200bpal", ["\u27e8U+200B\u27e9"]),
    "bom": ("\ufeffhi", ["\u27e8U+FEFF\u27e9"]),
    "tag characters": ("hi\U000e0041", ["\u27e8U+E0041\u27e9"]),
}


# --------------------------------------------------------------------------- #
# clean()
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(("hostile", "placeholders"), HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize("multiline", [True, False])
def test_clean_neutralises_and_shows_hostile_input(
    hostile: str, placeholders: list[str], multiline: bool
) -> None:
    out = clean(hostile, multiline=multiline)
    assert forbidden_in(out, multiline=multiline) == set()
    assert "\x1b" not in out
    assert not any(0x80 <= ord(ch) <= 0x9F for ch in out)
    for placeholder in placeholders:
        assert placeholder in out
    out.encode("utf-8")  # never raises


def test_clean_keeps_ordinary_text_unchanged() -> None:
    s = "Hello Zoë, 你好 👋 — [b]not markup here[/b] C:\\path\\ 100% $5 :smile:\nline 2"
    assert clean(s) is s  # fast path returns the very same object


def test_clean_newlines_and_tabs() -> None:
    assert clean("a\r\nb\rc\nd") == "a\nb\nc\nd"
    assert clean("a\r\nb\rc\nd", multiline=False) == "a\u240d\u240ab\u240dc\u240ad"
    assert clean("a\tb") == "a   b"  # tab stops every 4 columns
    assert clean("\tx") == "    x"
    assert "\t" not in clean("a\tb", multiline=False)


@st.composite
def hostile_text(draw: st.DrawFn) -> str:
    """Text biased towards control, bidi, markup and surrogate characters."""
    specials = st.sampled_from(
        [
            "\x1b", "\x9b", "\x9d", "\x9c", "\x00", "\x07", "\x7f", "\r", "\n", "\t",
            "\r\n", "\u202e", "\u2066", "\u200b", "\u200d", "\ufeff", "\ud800", "\udfff",
            "[", "]", "\\", "/", "@", ":", "=", "$", "b", "bold", "link", "smile", " ",
            "\u2028", "\U000e0020", "\u00ad",
        ]
    )  # fmt: skip
    any_char = st.characters(exclude_categories=())  # includes Cc, Cf and Cs
    parts = draw(st.lists(st.one_of(specials, any_char), max_size=40))
    return "".join(parts)


texts = st.one_of(st.text(st.characters(exclude_categories=())), hostile_text())


@given(texts)
@settings(max_examples=500)
@example("\x1b]52;c;ZXZpbA==\x07")
@example("\r\n\r")
def test_clean_property(s: str) -> None:
    multi = clean(s)
    single = clean(s, multiline=False)
    assert forbidden_in(multi, multiline=True) == set()
    assert forbidden_in(single, multiline=False) == set()
    # Idempotent.
    assert clean(multi) == multi
    assert clean(single, multiline=False) == single
    # Always encodable.
    multi.encode("utf-8")
    single.encode("utf-8")
    # Newline handling: CRLF and lone CR become one line break each.
    normalised = s.replace("\r\n", "\n")
    assert multi.count("\n") == normalised.count("\n") + normalised.count("\r")
    assert "\n" not in single
    assert single.count("\u240a") >= s.count("\n")


@given(st.text(st.characters(exclude_categories=["Cc", "Cf", "Cs", "Zl", "Zp"])))
def test_clean_is_identity_on_harmless_text(s: str) -> None:
    assert clean(s) == s
    assert clean(s, multiline=False) == s


# --------------------------------------------------------------------------- #
# Markup escaping
# --------------------------------------------------------------------------- #

MARKUP_CASES = [
    "[bold red]x[/]",
    "[link=http://e]y[/link]",
    "[@click=app.quit]z[/]",
    "[/foo]",
    "\\[b]",
    "\\\\[b]",
    "\\\\\\[i]x[/i]",
    "[URGENT] refund please",  # a Textual tag, not a Rich one
    "[50%] off",
    "[ bold]spaced[/]",
    "[on red]x",
    "[$accent]",
    "[b]unclosed",
    "regex \\[a-z]+ and \\d",
    "[[b]]",
    "]",
    "[",
    "\\",
    "a :smile: b :+1: c :thumbs_up-text:",
    "10:30:45 https://example.com:8080/x",
    "\x1b[31m[red]x[/red]\x1b[0m",
]


def shown(s: str) -> str:
    """What escape_markup(s) renders as: s, except a trailing backslash."""
    if s.endswith("\\"):
        return s[:-1] + TRAILING_BACKSLASH
    return s


def assert_renders_literally(markup: str, expected: str) -> None:
    """Both markup dialects show ``expected`` with no style, link or action."""
    rich_text = Text.from_markup(markup)
    assert rich_text.plain == expected
    # Rich may record zero-length "none" spans for the separator tags; they
    # cover no character and carry no style, link or meta.
    for span in rich_text.spans:
        assert span.start == span.end
        assert span.style == "none"

    content = Content.from_markup(markup)
    assert content.plain == expected
    assert content.spans == []


@pytest.mark.parametrize("s", MARKUP_CASES)
def test_safe_markup_round_trips_in_rich_and_textual(s: str) -> None:
    expected = shown(clean(s))
    assert_renders_literally(safe(s), expected)


def test_trailing_backslash_cannot_escape_the_callers_markup() -> None:
    for s in ["name\\", "x\\\\", "\\", "\x1b]2;x\x1b\\"]:
        markup = f"[b]{safe(s)}[/b] [i]after[/i]"
        shown = clean(s)[:-1] + TRAILING_BACKSLASH
        rich_text = Text.from_markup(markup)
        assert rich_text.plain == f"{shown} after"
        assert {(sp.start, sp.end, sp.style) for sp in rich_text.spans if sp.end > sp.start} == {
            (0, len(shown), "bold"),
            (len(shown) + 1, len(shown) + 6, "italic"),
        }
        content = Content.from_markup(markup)
        assert content.plain == f"{shown} after"
        assert [(sp.start, sp.end) for sp in content.spans] == [
            (0, len(shown)),
            (len(shown) + 1, len(shown) + 6),
        ]


def test_library_escape_is_not_enough_for_textual() -> None:
    """Documents why escape_markup exists: Rich's escape misses Textual tags."""
    assert Content.from_markup(rich_escape("[URGENT] x")).plain != "[URGENT] x"
    assert Content.from_markup(escape_markup("[URGENT] x")).plain == "[URGENT] x"


def test_escape_markup_without_specials_is_identity() -> None:
    s = "plain text, 100% fine; a/b @c"
    assert escape_markup(s) == s


def test_emoji_name_class_covers_every_rich_emoji() -> None:
    from rich._emoji_codes import EMOJI

    name = re.compile(f"{sanitiser._EMOJI_NAME}+")
    for key in EMOJI:
        assert name.fullmatch(key), key
        assert name.fullmatch(key.upper()), key


@given(texts)
@settings(max_examples=500)
@example("\\[b]x[/b]\\")
@example(":smile::smile:")
@example("[@click=app.quit]z[/]")
def test_safe_markup_property(s: str) -> None:
    markup = safe(s)
    expected = shown(clean(s))
    assert_renders_literally(markup, expected)
    # Embedded between the caller's own tags it still renders literally and
    # does not disturb them.
    wrapped = f"[b]{markup}[/b]"
    assert Text.from_markup(wrapped).plain == expected
    content = Content.from_markup(wrapped)
    assert content.plain == expected
    if expected:
        assert [(sp.start, sp.end) for sp in content.spans] == [(0, len(expected))]


# --------------------------------------------------------------------------- #
# What reaches the terminal
# --------------------------------------------------------------------------- #

ESC_SEQUENCE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|.)?", re.DOTALL)
SGR = re.compile(r"\x1b\[[0-9;]*m")


def render(renderable: object, *, markup: bool = False) -> str:
    console = Console(
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        width=120,
        legacy_windows=False,
    )
    console.print(renderable, markup=markup)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(output, str)
    return output


def assert_terminal_safe(output: str) -> None:
    assert "\x1b]" not in output  # no OSC: title, clipboard, hyperlink
    assert "\x9b" not in output
    assert "\x9d" not in output
    assert "\x00" not in output
    assert "\u202e" not in output
    assert "\x07" not in output
    for match in ESC_SEQUENCE.finditer(output):
        assert SGR.fullmatch(match.group()), repr(match.group())


@pytest.mark.parametrize("hostile", [h for h, _ in HOSTILE.values()], ids=HOSTILE.keys())
def test_rendered_output_has_only_sgr_sequences(hostile: str) -> None:
    outputs = [
        render(Text.from_markup(safe(hostile))),
        render(Text.from_markup(f"[bold red]{safe(hostile)}[/]")),
        render(f"[b]{safe(hostile)}[/b]", markup=True),
        render(to_text(hostile, style="bold")),
        render(Text.from_markup(f"[u]{escape_markup(link_label(hostile))}[/u]")),
    ]
    for output in outputs:
        assert_terminal_safe(output)
    assert SGR.search(outputs[1])  # the caller's style really was rendered


def test_only_the_callers_link_becomes_a_hyperlink() -> None:
    hostile = "[link=http://evil]x[/link]\x1b]8;;http://evil\x1b\\y"
    output = render(Text.from_markup(f"{safe(hostile)} [link=https://ok]ok[/link]"))
    assert output.count("\x1b]8;") == 2  # open + close of the caller's own link
    assert "evil" not in "".join(re.findall(r"\x1b\]8;[^\x1b]*", output))


@given(texts)
@settings(max_examples=200)
def test_rendered_output_property(s: str) -> None:
    assert_terminal_safe(render(Text.from_markup(f"[bold]{safe(s)}[/bold]")))
    assert_terminal_safe(render(to_text(s)))


# --------------------------------------------------------------------------- #
# to_text, one_line, link_label
# --------------------------------------------------------------------------- #


def test_to_text_never_parses_markup() -> None:
    s = "[@click=app.quit]z[/] \x1b[2J"
    text = to_text(s)
    assert isinstance(text, Text)
    assert text.plain == clean(s)
    assert text.spans == []
    styled = to_text(s, style="bold")
    assert styled.plain == clean(s)
    assert str(styled.style) == "bold"


def test_one_line_collapses_and_shows_line_breaks() -> None:
    assert one_line("  Hello \t  world \n next\r\n") == "Hello world next"
    assert one_line("first line\n\nsecond\rthird") == "first line second third"
    assert one_line("\u00a0a\u3000\u2003b ") == "a b"
    assert one_line("\x1b[2Jhi") == "\u241b[2Jhi"


def test_one_line_truncates_by_cells() -> None:
    assert one_line("abcdef", 6) == "abcdef"
    assert one_line("abcdefg", 6) == "abcde" + ELLIPSIS
    assert one_line("abc def", 5) == "abc" + ELLIPSIS  # no dangling space before …
    assert one_line("世界世界世界", 7) == "世界世" + ELLIPSIS
    assert one_line("世界世界世界", 6) == "世界" + ELLIPSIS
    assert one_line("abc", 1) == ELLIPSIS
    assert one_line("abc", 0) == ""
    assert one_line("", 3) == ""


@given(
    st.text(
        st.characters(
            exclude_categories=["Cs"],
            include_characters="世界👋é\u0301\x1b\n",
        ),
        max_size=60,
    ),
    st.integers(min_value=0, max_value=40),
)
def test_one_line_property(s: str, width: int) -> None:
    out = one_line(s, width)
    assert forbidden_in(out, multiline=False) == set()
    assert "\n" not in out
    assert "  " not in out
    assert out == out.strip()
    assert sanitiser._cells(out) <= width
    full = one_line(s)
    if sanitiser._cells(full) <= width:
        assert out == full
    elif width == 0:
        assert out == ""
    else:
        assert out.endswith(ELLIPSIS)
        assert full.startswith(out[:-1])


def test_one_line_agrees_with_rich_cells_for_common_scripts() -> None:
    for s in ["héllo wörld", "你好世界", "こんにちは", "👋 hi", "e\u0301", "abc"]:
        assert sanitiser._cells(one_line(s)) == cell_len(s)


def test_link_label_shows_real_target_as_plain_text() -> None:
    assert link_label("https://example.com/a?b=c#d") == "https://example.com/a?b=c#d"
    # Cyrillic er and a: shown as punycode so the look-alike is exposed.
    spoof = "https://\u0440\u0430ypal.com:8080/login"
    label = link_label(spoof)
    assert label.startswith("https://xn--")
    assert label.endswith(".com:8080/login")
    assert label.isascii()
    assert link_label("http://user@b\u00fccher.de/x") == "http://user@xn--bcher-kva.de/x"
    # Userinfo tricks stay visible: the real host is after the "@".
    assert link_label("https://paypal.com@evil.example/") == "https://paypal.com@evil.example/"


@pytest.mark.parametrize(
    "url",
    [
        "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\",
        "http://[::1",
        "http://h\u00e9st:99999/",
        "javascript:alert(1)",
        "  https://e.com/\n\x00 ",
        "https://\u202eexample.com",
        "https://exa\u200bmple.com",
        "http://\ud800.com",
    ],
)
def test_link_label_handles_hostile_urls(url: str) -> None:
    label = link_label(url)
    assert forbidden_in(label, multiline=False) == set()
    assert "\x1b" not in label
    assert link_label(label) == label
    assert_renders_literally(escape_markup(label), shown(label))


def test_module_does_not_import_textual() -> None:
    source = sanitiser.__file__
    with open(source, encoding="utf-8") as handle:
        code = handle.read()
    assert "import textual" not in code
    assert "from textual" not in code


def test_placeholders_are_narrow_and_visible() -> None:
    for ch in "\u241b\u2400\u2421\u240a\u240d\u27e8\u27e9" + TRAILING_BACKSLASH:
        assert unicodedata.east_asian_width(ch) in ("N", "Na")
        assert cell_len(ch) == 1


@given(
    st.text(
        st.characters(exclude_categories=["Cs"], include_characters="世👋\u0301 \t\r\n\x1b"),
        min_size=100,
        max_size=400,
    ),
    st.integers(min_value=0, max_value=20),
)
def test_one_line_on_long_text_matches_full_computation(s: str, width: int) -> None:
    full = " ".join(clean(s.replace("\r", " ").replace("\n", " "), multiline=False).split())
    assert one_line(s, width) == sanitiser._truncate(full, width)
