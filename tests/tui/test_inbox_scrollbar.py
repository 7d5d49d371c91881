"""The inbox list's scrollbar waits for the console's first frame: when the rows overflow the
list, that frame keeps the scrollbar's column blank and the scrollbar comes with the next one
(Textual's scrollbar is a widget of its own, styled, laid out and painted before the frame
otherwise); when they fit, the list is as its stylesheet has it from the start, so no column
moves."""

from __future__ import annotations

from typing import Any

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.widgets.conversation_list import ConversationList

Console = Any  # the `console` fixture of tests/tui/conftest.py


class Watched(FrontdeskApp):
    """The console, noting how its inbox list stood when its first frame was painted."""

    at_first_frame: dict[str, Any] | None = None

    def first_frame_painted(self) -> None:
        if self.at_first_frame is None:
            listing = self.screen.query_one("#inbox-list", ConversationList)
            self.at_first_frame = {
                "overflow_y": listing.styles.overflow_y,
                "scrollbar": listing.show_vertical_scrollbar,
                "content_width": listing.scrollable_content_region.width,
                "width": listing.size.width,
            }
        super().first_frame_painted()


async def first_frame_and_after(console: Console, size: tuple[int, int]
                                ) -> tuple[dict[str, Any], dict[str, Any], int]:
    """The list at the first frame and once the console settled after it, and its rows."""
    app = Watched(console.session(), alerts=console.settings.alerts)
    async with app.run_test(size=size) as pilot:
        await console.settled(pilot)
        assert app.first_frame_shown and app.at_first_frame is not None
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        listing = screen.conversation_list
        after = {"overflow_y": listing.styles.overflow_y,
                 "scrollbar": listing.show_vertical_scrollbar,
                 "content_width": listing.scrollable_content_region.width,
                 "width": listing.size.width}
        return app.at_first_frame, after, listing.total_count


async def test_rows_that_overflow_get_their_scrollbar_after_the_first_frame(
        console: Console) -> None:
    first, after, rows = await first_frame_and_after(console, (120, 15))
    assert rows > 15  # more rows than the list has lines
    assert first["overflow_y"] == "hidden" and not first["scrollbar"]
    assert after["overflow_y"] == "auto" and after["scrollbar"]
    # the scrollbar's column was kept: the rows are laid out the same before and after
    assert first["content_width"] == after["content_width"] < after["width"]


async def test_rows_that_fit_leave_the_list_as_it_is(console: Console) -> None:
    first, after, rows = await first_frame_and_after(console, (120, 80))
    assert 0 < rows < 70  # every row fits the list
    assert first == after
    assert first["overflow_y"] == "auto" and not first["scrollbar"]
    assert first["content_width"] == first["width"]
