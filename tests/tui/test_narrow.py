"""What the narrowest supported terminal (80 columns) keeps (README, "Terminal sizes"): the
status bar's segments give way by rank, the connection's state and the outbox count always
shown; a table's columns give up room from those that share it, a date's never."""

from __future__ import annotations

from textual.app import App, ComposeResult

from frontdesk.tui.screens.people.agents import COLUMNS as AGENT_COLUMNS
from frontdesk.tui.screens.people.endusers import COLUMNS as ENDUSER_COLUMNS
from frontdesk.tui.screens.shared.common import FittedTable
from frontdesk.tui.widgets.status_bar import StatusBar


class _Bar(App[None]):
    def compose(self) -> ComposeResult:
        yield StatusBar()


async def test_segments_give_way_by_rank_and_the_connection_and_outbox_stay() -> None:
    app = _Bar()
    async with app.run_test(size=(160, 3)) as pilot:
        bar = app.query_one(StatusBar)
        bar.profile, bar.mode = "support-eu-production", "Inbox"
        bar.presence = "● Working · Email, Chat, Messaging, Speak"
        bar.hours = "Closed · opens Mon 08:00"
        bar.connection = "offline · retrying in 30 s"
        bar.outbox = 12
        await pilot.pause()
        wide = str(bar.render())
        assert all(part in wide for part in (
            "frontdesk", "support-eu-production", "Inbox", "Working", "opens Mon",
            "offline · retrying in 30 s", "outbox 12 (O)"))

        for width, gone, kept in (
                (140, ["opens Mon"], ["Working", "support-eu-production"]),
                (80, ["opens Mon", "Working", "support-eu"], ["Inbox"]),
                (60, ["opens Mon", "Working", "support-eu", "frontdesk"], ["Inbox"])):
            await pilot.resize_terminal(width, 3)
            await pilot.pause()
            shown = str(bar.render())
            assert len(shown) <= bar.size.width, shown
            assert "offline · retrying in 30 s" in shown and "outbox 12 (O)" in shown
            assert all(word not in shown for word in gone), shown
            assert all(word in shown for word in kept), shown

        # the full disk is news that never gives way either
        bar.disk = "disk full"
        await pilot.pause()
        shown = str(bar.render())
        assert "disk full — not saving" in shown and "outbox 12 (O)" in shown
        assert "offline" in shown


def test_tables_at_80_columns_cut_the_shared_columns_and_keep_the_fixed_ones() -> None:
    for columns in (ENDUSER_COLUMNS, AGENT_COLUMNS):
        table = FittedTable(columns)
        for total in (78, 80):
            widths = table.widths(total)
            assert sum(widths) + 2 * len(columns) + 2 <= total
            for column, width in zip(columns, widths, strict=True):
                if not column.share:  # "Since": a whole date
                    assert width == column.minimum
        wide = table.widths(160)
        assert all(w >= c.minimum for c, w in zip(columns, wide, strict=True))
