"""Unit tests of frontdesk.tui.render: Markdown and HTML bodies as Rich text, times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from rich.console import Console
from rich.style import Style
from rich.text import Text

from frontdesk.tui.clock import ago
from frontdesk.tui.render import (
    body_cache_clear,
    format_duration,
    html_to_markdown_text,
    markdown_to_text,
    render_body,
    render_body_cached,
)

HOSTILE = (
    "\x1b]52;c;ZXZpbA==\x07 \x1b[2J \x9b6n \x00 \u202e "
    "[bold red]x[/] [@click=app.quit] [link=http://evil]y[/link]"
)
FORBIDDEN = ("\x1b", "\x9b", "\x00", "\u202e", "\x07")


def styles_at(text: Text, start: int, end: int) -> Style:
    """The combined style of ``text[start:end]`` (every character must share it)."""
    styles = {str(text.get_style_at_offset(_console(), offset)) for offset in range(start, end)}
    assert len(styles) == 1, styles
    return text.get_style_at_offset(_console(), start)


def _console() -> Console:
    return Console()


def style_of(text: Text, word: str) -> Style:
    """The style of the first occurrence of ``word`` in ``text``."""
    start = text.plain.index(word)
    return styles_at(text, start, start + len(word))


def no_links(text: Text) -> None:
    """No span of ``text`` carries a hyperlink (which would become OSC 8)."""
    for span in text.spans:
        style = span.style
        assert isinstance(style, Style), "styles are Style objects, never parsed strings"
        assert style.link is None


# ------------------------------------------------------------------ Markdown --


def test_bold_italic_strike_code() -> None:
    text = markdown_to_text(
        "a **bold** b __strong__ c _it_ d *em* e ***both*** f ~~gone~~ g `code` h"
    )
    assert text.plain == "a bold b strong c it d em e both f gone g code h"
    assert style_of(text, "bold").bold
    assert style_of(text, "strong").bold
    assert style_of(text, "it").italic and not style_of(text, "it").bold
    assert style_of(text, "em").italic
    both = style_of(text, "both")
    assert both.bold and both.italic
    assert style_of(text, "gone").strike
    assert style_of(text, "code").bold
    no_links(text)


def test_nested_emphasis() -> None:
    text = markdown_to_text("**bold _and italic_**")
    assert text.plain == "bold and italic"
    inner = style_of(text, "italic")
    assert inner.bold and inner.italic


def test_snake_case_and_arithmetic_are_not_italic() -> None:
    text = markdown_to_text("my_var_name and 2 * 3 * 4 and a_b")
    assert text.plain == "my_var_name and 2 * 3 * 4 and a_b"
    assert not text.spans


def test_inline_code_is_literal() -> None:
    text = markdown_to_text("run `**not bold** [x](y)` now, ``a ` b``")
    assert text.plain == "run **not bold** [x](y) now, a ` b"


def test_backslash_escapes() -> None:
    assert markdown_to_text(r"\*not italic\* \_x\_ \[y\]").plain == "*not italic* _x_ [y]"


def test_blockquotes() -> None:
    text = markdown_to_text("> quoted **bold**\n>> nested\nafter")
    lines = text.plain.split("\n")
    assert lines[0] == "▌ quoted bold"
    assert lines[1] == "▌ ▌ nested"
    assert lines[2] == "after"
    assert style_of(text, "quoted").italic
    assert style_of(text, "bold").bold


def test_unordered_lists_nest_by_indentation() -> None:
    text = markdown_to_text("- one\n* two\n+ three\n  - sub\n    - subsub")
    assert text.plain.split("\n") == ["• one", "• two", "• three", "  ◦ sub", "    ▪ subsub"]


def test_ordered_lists_keep_numbers() -> None:
    text = markdown_to_text("1. first\n2) second\n10. tenth **b**")
    assert text.plain.split("\n") == ["1. first", "2) second", "10. tenth b"]
    assert style_of(text, "b").bold


def test_headings_rules_and_fences() -> None:
    text = markdown_to_text("# Title\n## Sub ##\n---\n```\ncode **x**\n  kept\n```\nend")
    lines = text.plain.split("\n")
    assert lines[0] == "Title"
    assert lines[1] == "Sub"
    assert set(lines[2]) == {"─"}
    assert lines[3:6] == ["code **x**", "  kept", "end"]
    assert style_of(text, "Title").bold


def test_newlines_are_kept() -> None:
    assert markdown_to_text("line one\nline two\n\nline four").plain == (
        "line one\nline two\n\nline four"
    )


def test_links_show_their_target_and_are_not_hyperlinks() -> None:
    text = markdown_to_text("[click](http://evil.example) and ![logo](http://img.example/a.png)")
    assert text.plain == ("click (http://evil.example) and image: logo (http://img.example/a.png)")
    no_links(text)


def test_link_whose_label_is_its_target_is_shown_once() -> None:
    assert markdown_to_text("[http://a.example](http://a.example)").plain == "http://a.example"


def test_lookalike_host_is_shown_in_ascii() -> None:
    lookalike = "\u0440\u0430\u0443\u0440\u0430l"  # Cyrillic letters that look like "paypa"
    text = markdown_to_text(f"[bank](http://{lookalike}.example/login)")
    assert "xn--" in text.plain
    assert lookalike not in text.plain


def test_bare_and_auto_links_are_verbatim() -> None:
    text = markdown_to_text("see https://x.example/a_b_c*d*. or <https://y.example/**z**>")
    assert text.plain == "see https://x.example/a_b_c*d*. or https://y.example/**z**"
    no_links(text)


def test_markup_is_never_interpreted() -> None:
    source = "[bold red]x[/] [@click=app.quit] [link=http://evil]y[/link] :smile:"
    for kind in ("Markdown", "Text", "Html"):
        rendered = render_body(kind, source)
        assert isinstance(rendered, Text)
        assert "[bold red]x[/]" in rendered.plain
        assert "[@click=app.quit]" in rendered.plain
        assert "[link=http://evil]y[/link]" in rendered.plain
        assert ":smile:" in rendered.plain
        no_links(rendered)


@pytest.mark.parametrize("kind", ["Markdown", "Text", "Html", "Unknown"])
def test_control_characters_are_cleaned(kind: str) -> None:
    rendered = render_body(kind, HOSTILE)
    assert isinstance(rendered, Text)
    for char in FORBIDDEN:
        assert char not in rendered.plain
    assert "␛" in rendered.plain
    assert "⟨U+202E⟩" in rendered.plain


def test_text_is_plain() -> None:
    rendered = render_body("Text", "**not bold** _x_")
    assert isinstance(rendered, Text)
    assert rendered.plain == "**not bold** _x_"
    assert not rendered.spans


@pytest.mark.parametrize(
    "source",
    [
        "**a " * 1250,
        "*a " * 1666,
        "_a " * 1666,
        "~~a " * 1250,
        "*" * 5000,
        "".join("`" * i + "a" for i in range(1, 90)),
        "[" * 4000 + "] (x)",
        "**_~~`[" * 700,
        "**_" * 800 + "x" + "_**" * 800,
        ("**a " * 200 + "\n") * 100,
        ">" * 50_000 + " deep",
        (" " * 20_000 + "- item\n") * 5,
        "word " * 20000,
    ],
)
def test_hostile_markdown_renders(source: str) -> None:
    """Bodies built to make a backtracking parser slow render (bench `local` times them)."""
    text = markdown_to_text(source)
    assert text.plain  # rendered something


# ---------------------------------------------------------------------- HTML --


def test_deeply_nested_html_renders_bounded() -> None:
    """Nesting 5,000 deep renders to a short text (bench `local` times it)."""
    source = "<blockquote>" * 5_000 + "<ul><li>" * 5_000 + "x" + "<b>" * 5_000 + "y"
    rendered = render_body("Html", source)
    assert isinstance(rendered, Text)
    assert "x" in rendered.plain
    assert len(rendered.plain) < 1_000


def test_html_paragraphs_breaks_and_entities() -> None:
    out = html_to_markdown_text(
        "<p>Hello &amp; welcome,</p><p>line one<br>line two<br/>line  \n three</p>"
    )
    assert out == "Hello & welcome,\n\nline one\nline two\nline three"


def test_html_drops_script_style_and_head() -> None:
    out = html_to_markdown_text(
        "<html><head><title>T</title><style>p {color: red}</style></head>"
        "<body><script>alert('x')</script><p>Visible</p><noscript>ns</noscript></body></html>"
    )
    assert out == "Visible"


def test_html_unclosed_head_ends_at_body() -> None:
    assert html_to_markdown_text("<head><meta charset=utf-8><body><p>Hi</p>") == "Hi"


def test_html_inline_styles_across_lines_and_unclosed() -> None:
    out = html_to_markdown_text("<p><b>one<br>two</b> <i>open")
    assert out == "**one**\n**two** _open_"
    assert html_to_markdown_text("a</b> b</i>") == "a b"


def test_html_inline_styles() -> None:
    out = html_to_markdown_text(
        "<p>a <b>bold </b>b <strong>s</strong> <i> it</i> <em>em</em> <code>x()</code> "
        "<del>old</del></p>"
    )
    assert out == "a **bold** b **s** _it_ _em_ `x()` ~~old~~"
    text = markdown_to_text(out)
    assert text.plain == "a bold b s it em x() old"
    assert style_of(text, "bold").bold
    assert style_of(text, "it").italic


def test_html_links_show_target() -> None:
    out = html_to_markdown_text(
        '<p><a href="http://evil.example/x">click here</a>, '
        '<a href="https://same.example">https://same.example</a>, '
        '<a href="mailto:ann@example.com">ann@example.com</a>, '
        '<a href="#top">top</a></p>'
    )
    assert out == ("click here (http://evil.example/x), https://same.example, ann@example.com, top")
    assert render_body("Html", '<a href="http://evil.example/x">click here</a>').plain == (  # type: ignore[union-attr]
        "click here (http://evil.example/x)"
    )


def test_html_lists() -> None:
    out = html_to_markdown_text(
        "<p>Intro</p><ul><li>one</li><li>two<ul><li>sub</li></ul></li></ul>"
        '<ol start="3"><li>three</li><li>four</li></ol>'
    )
    assert out == "Intro\n\n- one\n- two\n   - sub\n\n3. three\n4. four"
    assert markdown_to_text(out).plain == "Intro\n\n• one\n• two\n  ◦ sub\n\n3. three\n4. four"


def test_html_blockquote() -> None:
    out = html_to_markdown_text(
        "<p>Reply</p><blockquote><p>quoted</p><blockquote>deeper</blockquote></blockquote>"
        "<p>after</p>"
    )
    assert out == "Reply\n\n> quoted\n>\n> > deeper\n\nafter"
    assert markdown_to_text(out).plain.split("\n")[2] == "▌ quoted"


def test_html_headings_pre_hr_tables() -> None:
    out = html_to_markdown_text(
        "<h1>Title</h1><h3>Sub</h3><pre>\nx = 1\n\n  y = *2*\n</pre><hr>"
        "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>"
    )
    assert out == "# Title\n\n### Sub\n\n```\nx = 1\n\n  y = *2*\n```\n\n---\n\na | b\nc | d"
    rendered = markdown_to_text(out).plain
    assert "x = 1\n\n  y = *2*" in rendered


def test_html_text_with_markdown_characters_shows_literally() -> None:
    out = html_to_markdown_text("<p>5*3*2 and snake_case_ and [x](y) and `tick`</p>")
    assert markdown_to_text(out).plain == "5*3*2 and snake_case_ and [x](y) and `tick`"


def test_html_decoded_control_characters_are_cleaned() -> None:
    out = html_to_markdown_text("<p>a&#x202E;b &#155;6n &#x9b; c\u202ed</p>")
    for char in FORBIDDEN:
        assert char not in out
    assert "⟨U+202E⟩" in out


def test_html_images_show_alt_only() -> None:
    out = html_to_markdown_text('<p>Logo: <img src="data:image/png;base64,AAAA" alt="ACME"></p>')
    assert out == "Logo: (image: ACME)"


# -------------------------------------------------------------------- caching --


def test_cache_by_id_and_value() -> None:
    body_cache_clear()
    first = render_body_cached("m1", "Markdown", "**a**")
    assert render_body_cached("m1", "Markdown", "**a**") is first
    changed = render_body_cached("m1", "Markdown", "anonymised")
    assert changed is not first
    assert changed.plain == "anonymised"


# ---------------------------------------------------------------------- times --


def test_relative_time() -> None:
    now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def said(age: timedelta) -> str:
        return ago(now - age, reference=now, words=True)

    assert said(timedelta(seconds=10)) == "just now"
    assert said(-timedelta(seconds=10)) == "just now"
    assert said(timedelta(minutes=5)) == "5 min ago"
    assert said(timedelta(hours=3)) == "3 h ago"
    assert said(timedelta(days=2)) == "2 d ago"
    assert said(timedelta(days=30)) == "4 w ago"
    assert ago(now - timedelta(days=30), reference=now) == "4 w"  # a list's column


def test_format_duration() -> None:
    assert format_duration(45) == "45 s"
    assert format_duration(200) == "3 min 20 s"
    assert format_duration(180) == "3 min"
    assert format_duration(3720) == "1 h 2 min"
    assert format_duration(-5) == "0 s"
