"""What the marks of the console mean, and that they show: the state glyphs' legend in help,
tags painted in their colours in the list, the preview, the thread's head and the tag picker
(only a plain ``#rrggbb`` ever becomes a style)."""

from __future__ import annotations

from typing import Any

from rich.color import Color
from rich.style import Style
from textual.widgets import Static

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.screens.shared.help import HelpScreen
from frontdesk.tui.screens.shared.tag_picker import TagPicker
from frontdesk.tui.tag_colors import tag_style, tags_text
from frontdesk.tui.widgets.conversation_list import ConversationList

Console = Any  # the `console` fixture of tests/tui/conftest.py


def test_only_a_plain_hex_colour_becomes_a_style() -> None:
    assert tag_style("#E53935") == Style(color="#e53935")
    for hostile in ("red link=https://evil.example", "#E5393", "bold", "", None,
                    "#e53935\x1b[2J"):
        assert tag_style(hostile) is None
    text = tags_text(["billing", "[bold]x[/]"], ["#E53935", "on red"], 40)
    assert text.plain == "billing, [bold]x[/]"
    assert [span.style for span in text.spans] == [Style(color="#e53935")]
    # black (or white) alone would vanish on a dark (or light) theme: it gets a chip
    assert tag_style("#000000") == Style(color="#000000", bgcolor="#c8c8c8")
    assert tag_style("#111111") == Style(color="#111111", bgcolor="#c8c8c8")
    assert tag_style("#FFFFFF") == Style(color="#ffffff", bgcolor="#3a3a3a")


def colored(console: Console, known: dict[int, tuple[str, ...]]) -> tuple[int, str, str]:
    """A conversation the inbox knows the tags of, with a coloured tag: its id, the tag's
    name and colour (as the service holds them)."""
    for cid, tag_ids in sorted(known.items()):
        for tag_id in tag_ids:
            rows = console.sandbox.query(
                "SELECT name, color FROM tags WHERE id = ? AND color IS NOT NULL "
                "AND color != '#000000'", (tag_id,))
            if rows:
                return cid, str(rows[0]["name"]), str(rows[0]["color"]).lower()
    raise AssertionError("no coloured tag in the inbox")


def has_colour(segments: Any, text: str, color: str) -> bool:
    return any(text in segment.text and segment.style is not None
               and segment.style.color == Color.parse(color) for segment in segments)


async def test_tags_show_their_colours_and_help_explains_the_marks(console: Console) -> None:
    app: FrontdeskApp = console.app()
    async with app.run_test(size=(220, 45)) as pilot:  # the list wide enough for tags
        await console.settled(pilot)  # every row's tags read, and the tags' colours
        session = app.session
        assert session is not None
        cid, name, color = colored(console, session.inbox.tags)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        screen.show_view("all")
        listing = screen.query_one(ConversationList)
        listing.set_rows(screen.rows(), keep=cid)
        await pilot.pause()
        strip = listing.render_line(listing.cursor + 1 - round(listing.scroll_y))
        assert f"#{cid}" in strip.text
        assert has_colour(list(strip), name[:8], color)

        # the thread's head, and the tag picker's swatch
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        thread = app.screen
        assert isinstance(thread, ThreadScreen)
        head = thread.head.text
        start = head.plain.index(name)
        assert any(span.start <= start < span.end and span.style == Style(color=color)
                   for span in head.spans)
        await pilot.press("t")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, TagPicker)
        prompt = picker._prompt(next(t for t in session.inbox.tags[cid]
                                     if session.directory.tags[t].name == name))
        assert "■" in prompt.plain
        assert any(span.style == Style(color=color) for span in prompt.spans)
        await pilot.press("escape", "escape")
        await pilot.pause()

        # help: the legend of the marks
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = str(app.screen.query_one("#help-legend", Static).render())
        for mark in ("● Open", "◐ Pending", "○ Closed", "✎ after the id", "tags are painted"):
            assert mark in shown
