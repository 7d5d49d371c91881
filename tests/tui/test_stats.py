"""Stats against the seeded sandbox (the console's clock frozen at the sandbox's now): the
tiles say what the sandbox's data says, a filter narrows them, the records table follows the
chosen tile, a refused refresh is said; and how it looks at 80 by 24, 100 by 30 and 160 by 45."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Select, Static

from frontdesk.store.stats import STATS_INTERVAL, STATS_TOPIC
from frontdesk.tui.screens.stats.stats import StatsScreen, duration, spark

#: the least supported terminal, the usual one and a large one
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((100, 30), id="100x30"),
         pytest.param((160, 45), id="160x45")]


async def settle(pilot: Pilot[Any]) -> None:
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def front(app: Any) -> Any:
    return app.screen


def tile(screen: StatsScreen, metric: str) -> str:
    return str(screen.query_one(f"#tile-{metric}", Static).render())


def test_spark_and_duration() -> None:
    assert spark((0.0, 4.0, None, 8.0)) == "▁▅ █"
    assert spark((None, None)) == "  "
    assert [duration(s) for s in (45, 250, 7500, 300000)] == ["45 s", "4 m 10 s", "2 h 5 m",
                                                              "3 d 11 h"]


async def test_stats_tiles_filters_and_records(console: Any) -> None:
    sandbox = console.sandbox
    created_today = sandbox.query(
        "SELECT COUNT(*) AS n FROM conversations WHERE created_at >= '2026-01-05T00:00:00Z'"
    )[0]["n"]
    emails_today = sandbox.query(
        "SELECT COUNT(*) AS n FROM conversations WHERE created_at >= '2026-01-05T00:00:00Z' "
        "AND channel = 'Email'")[0]["n"]
    waiting = sandbox.query(
        "SELECT COUNT(*) AS n FROM conversations WHERE state = 'Open' AND queue_id IS NOT NULL "
        "AND assigned_agent_id IS NULL")[0]["n"]
    assert 0 < emails_today < created_today
    app = console.app()
    async with app.run_test(size=(160, 45)) as pilot:
        await console.ready(pilot)
        await pilot.press("6")
        await settle(pilot)
        await app.session.live.refresh(STATS_TOPIC)
        await settle(pilot)
        screen = front(app)
        assert isinstance(screen, StatsScreen)
        assert app.session.live.topic(STATS_TOPIC).interval == STATS_INTERVAL >= 60
        assert f"{created_today}  today" in tile(screen, "created_conversations")
        assert f"{waiting}  now" in tile(screen, "queue_waits")
        assert "max 7 d" in tile(screen, "queue_waits")
        assert "%" in tile(screen, "csat") and "m" in tile(screen, "first_response_time")
        table = screen.query_one("#stats-records", DataTable)
        assert table.row_count > created_today
        assert "Created" in str(screen.query_one("#stats-records-title").render())

        await pilot.press("right", "right")
        await settle(pilot)
        assert "each day's end" in str(screen.query_one("#stats-records-title").render())
        stays = app.session.stats.snapshot.tiles[2]
        assert stays.series[-1] == waiting and stays.week == max(stays.series)
        await pilot.press("right")
        await settle(pilot)
        assert "First reply" in str(screen.query_one("#stats-records-title").render())
        assert "▶ First reply" in tile(screen, "first_response_time")

        screen.query_one("#stats-channel", Select).value = "EMAIL"
        await settle(pilot)
        assert f"{emails_today}  today" in tile(screen, "created_conversations")
        channels = {str(table.get_row_at(i)[2]) for i in range(table.row_count)}
        assert channels == {"Email"}
        info = str(screen.query_one("#stats-info").render())
        assert "Channel: Email" in info and "channel" not in info  # named, not raw
        screen.query_one("#stats-channel", Select).value = "__all__"
        await settle(pilot)
        assert f"{created_today}  today" in tile(screen, "created_conversations")

        # a refused refresh: the client's line on the info line, the figures kept
        sandbox.faults.fail(400, path_prefix="/v1/analytics/records")
        await pilot.press("r")
        await settle(pilot)
        info = str(screen.query_one("#stats-info").render())
        assert info.startswith("Invalid request (400)") and "analytics/records" in info
        assert f"{created_today}  today" in tile(screen, "created_conversations")
        await pilot.press("r")
        await settle(pilot)
        assert "r refreshes" in str(screen.query_one("#stats-info").render())


def _prepare(console: Any) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        await console.settled(pilot)
        await pilot.press("6")
        await settle(pilot)
        app: Any = pilot.app
        await app.session.live.refresh(STATS_TOPIC)
        await settle(pilot)
        await pilot.press("right")
        await settle(pilot)

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_stats_look(console: Any, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(console.app(), terminal_size=size, run_before=_prepare(console))
