"""A conversation list's painted lines belong to the layout they were painted for: a line
painted at one width is never shown at another. A terminal shrunk twice in a row (160, then
100, then 80 columns, the preview pane leaving on the way) showed the rows as painted for
100 columns under the titles of 80 — the age column cut off — because a line painted between
a resize and its new width stayed in the painter's cache."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from textual.app import App, ComposeResult

from frontdesk.store.rows import InboxRow
from frontdesk.tui.clock import ago
from frontdesk.tui.widgets.conversation_list import ConversationList, RowLookups

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
ROWS = [InboxRow(n, "Open", "Email", f"u{n}", f"Subject {n}", None, None,
                 NOW - timedelta(minutes=n)) for n in range(1, 31)]
LOOKUPS = RowLookups(name=lambda user: f"Person {user}", queue_name=lambda _q: "—",
                     tag_ids=lambda _c: (), tag_names=lambda _c: [], preview=lambda _c: "",
                     when=lambda row: row.when, ago=lambda m: ago(m, reference=NOW),
                     generation=lambda: 0)


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ConversationList(LOOKUPS, id="list")


async def test_a_line_painted_for_one_width_is_painted_again_for_another() -> None:
    app = ListApp()
    async with app.run_test(size=(100, 30)) as pilot:
        listing = app.query_one(ConversationList)
        listing.set_rows(ROWS)
        await pilot.pause()
        painter, styles = listing.painter, listing._palette()
        row = ROWS[0]
        wide = painter.layout(100)
        assert painter.row(row, False, wide, styles).cell_length == 100
        # the width changes under the painter (no resize told yet): the row's line is the
        # new layout's, as the column titles are
        narrow = painter.layout(80)
        line = painter.row(row, False, narrow, styles)
        assert line.cell_length == 80 == painter.header(narrow, styles).cell_length
        assert line.text.rstrip().endswith(LOOKUPS.ago(row.when))
