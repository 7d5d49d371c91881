"""Admin → Business hours against the sandbox (its clock: Monday 5 January 2026, 09:00 UTC):
the definition, the coming days as a calendar (``+`` to 14 days), and "open at" a typed
time."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from frontdesk.store.session import HoursNow
from frontdesk.tui import clock
from frontdesk.tui.screens.admin.admin import AdminScreen
from frontdesk.tui.screens.admin.hours import DAY_STEPS, HoursPane
from frontdesk.tui.screens.shared.form import FormScreen
from frontdesk.tui.widgets.status_bar import StatusBar, describe_hours


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()

def front(app: Any) -> Any:
    """The screen in front now (a call, so a type checker does not carry an earlier check)."""
    return app.screen


async def open_hours(console: Any, pilot: Pilot[Any]) -> tuple[AdminScreen, HoursPane]:
    await console.ready(pilot)
    await pilot.press("5")
    await settle(pilot)
    await pilot.press("down", "down", "down", "down", "down", "enter")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, AdminScreen) and screen.section == "hours"
    return screen, screen.query_one(HoursPane)


async def calendar_of_fourteen_days(console: Any, pilot: Pilot[Any]) -> None:
    app: Any = pilot.app
    pane = app.screen.query_one(HoursPane)
    assert pane.current is not None and pane.current.name == "Copenhagen support"
    assert pane.calendar is not None and len(pane.calendar.days) == 7
    status = str(pane.query_one("#hours-status", Static).render())
    assert "Europe/Copenhagen" in status and "Open" in status and "closes 17:00" in status
    # the header says it in the user's own time (UTC here), not the schedule's
    assert app.screen.query_one(StatusBar).hours == "Open · closes 16:00"
    definition = str(pane.query_one("#hours-definition", Static).render())
    assert "Fri 08:00\u201315:30" in definition and "Sat\u2013Sun closed" in definition
    assert "Christmas Day (every 25 Dec) closed" in definition
    await pilot.press("plus")
    await settle(pilot)
    calendar = pane.calendar
    assert calendar is not None and len(calendar.days) == 14
    days = {d.day.isoformat(): d for d in calendar.days}
    assert calendar.days[0].day.isoformat() == "2026-01-05"
    assert days["2026-01-05"].intervals == [("08:00", "17:00")]
    assert not days["2026-01-11"].is_open  # a Sunday
    assert days["2026-01-15"].intervals == [("08:00", "12:00")]  # the training day
    assert "coming 14 days (10 open)" in str(pane.query_one("#hours-calendar-title")
                                              .render())
    shown = app.export_screenshot()
    assert "15&#160;Jan" in shown and "18&#160;Jan" in shown and "19&#160;Jan" not in shown
    await pilot.press("minus", "minus")
    await settle(pilot)
    assert pane.days == 1 == DAY_STEPS[0]
    await pilot.press("minus")
    await settle(pilot)
    assert pane.days == 1


async def open_at_a_typed_time(console: Any, pilot: Pilot[Any]) -> None:
    app: Any = pilot.app
    screen = app.screen
    pane = screen.query_one(HoursPane)
    await pilot.press("a")
    await pilot.pause()
    form = app.screen
    assert isinstance(form, FormScreen)
    assert "Europe/Copenhagen" in form.intro
    await pilot.press(*"noon", "enter")
    await settle(pilot)
    assert front(app) is form
    assert "not a time" in str(form.query_one("#form-problem").render())
    form.set_values({"when": ""})
    await pilot.press(*"2026-01-10 12:00", "enter")  # a Saturday
    await settle(pilot)
    assert front(app) is screen
    status = str(pane.query_one("#hours-status", Static).render())
    assert "At Sat 10 Jan 2026 12:00: closed" in status
    assert "opens Mon 08:00" in status
    await pilot.press("a")
    await pilot.pause()
    await pilot.press(*"wed 12:00", "enter")
    await settle(pilot)
    status = str(pane.query_one("#hours-status", Static).render())
    assert "At Wed 07 Jan 2026 12:00: open" in status and "closes 17:00" in status



async def test_business_hours_walked(console: Any) -> None:
    """Admin → Business hours on one console: the calendar (its screenshot needs the large
    size), then "open at" a typed time."""
    async def start(pilot: Pilot[Any]) -> None:
        await open_hours(console, pilot)

    await console.walk((160, 45), calendar_of_fourteen_days, open_at_a_typed_time,
                       start=start)


@contextmanager
def local_zone(zone: str) -> Iterator[None]:
    """The process's local time zone set to ``zone`` for a while."""
    original = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        yield
    finally:
        if original is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = original
        time.tzset()


def test_header_hours_are_in_the_users_local_time() -> None:
    """17:00 in Copenhagen (16:00 UTC) is shown as the user's own clock reads it, with the
    weekday only when it falls on another local day than the user's today."""
    closes = HoursNow(True, datetime(2026, 1, 5, 16, 0, tzinfo=UTC))
    opens = HoursNow(False, datetime(2026, 1, 5, 19, 0, tzinfo=UTC))
    clock.freeze(datetime(2026, 1, 5, 12, 0, tzinfo=UTC))
    try:
        with local_zone("UTC"):
            assert describe_hours(closes) == "Open · closes 16:00"
            assert describe_hours(opens) == "Closed · opens 19:00"
        with local_zone("Asia/Kolkata"):  # Monday 17:30 there
            assert describe_hours(closes) == "Open · closes 21:30"
            assert describe_hours(opens) == "Closed · opens Tue 00:30"
        with local_zone("America/New_York"):
            assert describe_hours(closes) == "Open · closes 11:00"
            assert describe_hours(opens) == "Closed · opens 14:00"
        assert describe_hours(HoursNow(True, None)) == "Open"
        assert describe_hours(None) == ""
    finally:
        clock.freeze(None)
