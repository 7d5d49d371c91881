"""The inbox list tells the inbox which rows are on screen (the store reads the tags and text
of those, the others' only once they are shown): at first, after a move past the screenful,
after another view."""

from __future__ import annotations

from typing import Any

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen

Console = Any  # the `console` fixture of tests/tui/conftest.py
SIZE = (120, 30)


async def test_the_rows_on_screen_are_told_to_the_inbox(console: Console) -> None:
    app = console.app()
    async with app.run_test(size=SIZE) as pilot:
        await console.settled(pilot)
        assert isinstance(app, FrontdeskApp) and app.session is not None
        inbox = app.session.inbox
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        listing = screen.conversation_list
        screen.show_view("all")
        await pilot.pause()
        first = listing.window_ids()
        assert first and len(first) < listing.row_count  # more rows than a screenful
        assert inbox.shown == frozenset(first)

        await console.burst(pilot, "G")  # the last row: the list scrolled
        last = listing.window_ids()
        assert last and last[-1] == listing.shown_ids()[-1] and not set(last) & set(first)
        assert inbox.shown == frozenset(last)
        await console.settled(pilot)  # the rows brought on screen are read
        assert inbox.on_screen_settled and all(cid in inbox.tags for cid in last)

        screen.show_view("mine")
        await pilot.pause()
        assert inbox.shown == frozenset(listing.window_ids())
