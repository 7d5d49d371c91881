"""The status bar at the narrowest supported terminal (80 columns): its segments give way by
rank, and the connection's state and the outbox count are always shown (README, "Terminal
sizes")."""

from __future__ import annotations

from textual.app import App, ComposeResult

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
