"""Marks in the inbox and the conversation keys acting on every marked conversation, typed in
bursts; each outcome read back from the sandbox and shown in the report, a refused one tried
again with ``r``."""

from __future__ import annotations

from typing import Any

import pytest
from test_inbox_actions import (  # type: ignore[import-not-found]
    app_of,
    me,
    parts,
    row,
    settle,
)
from textual.pilot import Pilot

from frontdesk.tui.screens.inbox.bulk_report import BulkReport
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.widgets.conversation_cells import MARKED

Console = Any  # the `console` fixture of tests/tui/conftest.py


def shown_line(pilot: Pilot[Any], cid: int) -> str:
    _app, _session, _screen, listing = parts(pilot)
    position = listing.shown_ids().index(cid)
    return str(listing.render_line(position + 1 - round(listing.scroll_y)).text)


async def marks_then_close_in_one_burst(console: Console, pilot: Pilot[Any]) -> None:
    """``space j space j space x y`` in one read closes the three marked conversations."""
    app = app_of(pilot)
    _app, _session, screen, listing = parts(pilot)
    first = listing.shown_ids()[:3]
    assert len(first) == 3
    await console.burst(pilot, "space", "j", "space", "j", "space", "x", "y")
    report = app.screen
    assert isinstance(report, BulkReport)
    await console.idle(pilot)
    assert report.lines() == [f"#{cid}  done" for cid in first]
    assert report.summary().startswith("3 done · 0 refused")
    for cid in first:
        assert row(console, cid)["state"] == "Closed"
    await console.burst(pilot, "escape")
    assert isinstance(app.screen, InboxScreen)
    assert screen.marks == {}  # the done ones are no longer marked


async def marks_show_and_esc_clears_them(console: Console, pilot: Pilot[Any]) -> None:
    _app, _session, screen, listing = parts(pilot)
    cid = listing.highlighted_id
    assert cid is not None
    await console.burst(pilot, "space")
    assert shown_line(pilot, cid).startswith(MARKED)
    label = str(screen.query_one("#inbox-marks").render())
    assert "1 marked" in label
    await console.burst(pilot, "space")  # toggles
    assert not shown_line(pilot, cid).startswith(MARKED)
    await console.burst(pilot, "asterisk")
    assert list(screen.marks) == listing.shown_ids()
    # a refresh of the list keeps them (by conversation id)
    screen.rebuild()
    await pilot.pause()
    assert shown_line(pilot, cid).startswith(MARKED)
    await console.burst(pilot, "escape")
    assert screen.marks == {}
    assert not shown_line(pilot, cid).startswith(MARKED)


async def claim_many_with_one_refused_then_retry(console: Console,
                                                 pilot: Pilot[Any]) -> None:
    """One marked conversation is held by another agent: the others are claimed once, the
    report says why that one was refused, ``r`` tries only that one again."""
    app = app_of(pilot)
    agent = me(console)
    held = console.sandbox.query(
        "SELECT id, assigned_agent_id FROM conversations WHERE state = 'Open' "
        "AND assigned_agent_id IS NOT NULL AND assigned_agent_id != ? ORDER BY id LIMIT 1",
        (agent,))[0]
    free = [r["id"] for r in console.sandbox.query(
        "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
        "AND queue_id IS NOT NULL ORDER BY id LIMIT 2")]
    wanted = [held["id"], *free]
    _app, session, screen, listing = parts(pilot)
    for cid in wanted:
        assert (await session.finder.open_by_id(cid)).id == cid
    screen.show_view("all")
    await pilot.pause()
    for cid in wanted:
        assert listing.move_to(cid)
        await console.burst(pilot, "space")
    assert list(screen.marks) == wanted
    await console.burst(pilot, "c")
    question = app.screen
    assert isinstance(question, ConfirmScreen)
    assert question.question == "Claim 3 conversations?"
    await console.burst(pilot, "y")
    report = app.screen
    assert isinstance(report, BulkReport)
    await console.idle(pilot)
    lines = report.lines()
    assert lines[0].startswith(f"#{held['id']}  refused: Could not claim #{held['id']}")
    assert lines[1:] == [f"#{cid}  done" for cid in free]
    assert row(console, held["id"])["assigned_agent_id"] == held["assigned_agent_id"]
    for cid in free:
        assert row(console, cid)["assigned_agent_id"] == agent
    before = activity(console, free)
    assert before  # the claims were logged: a second claim would add to them
    await console.burst(pilot, "r")
    await console.idle(pilot)
    assert report.lines()[0].startswith(f"#{held['id']}  refused:")
    assert report.lines()[1:] == [f"#{cid}  done" for cid in free]
    assert activity(console, free) == before  # the done ones were not claimed again
    await console.burst(pilot, "escape")
    assert list(screen.marks) == [held["id"]]  # the refused one stays marked


def activity(console: Console, ids: list[int]) -> int:
    """How many things the sandbox logged on these conversations."""
    marks = ",".join("?" * len(ids))
    return int(console.sandbox.query(
        f"SELECT COUNT(*) AS n FROM activity_log WHERE conversation_id IN ({marks})",
        tuple(ids))[0]["n"])


@pytest.mark.slow
async def test_marks_and_actions_on_many(console: Console) -> None:
    """Marks show and clear; a burst marks and closes three; a claim of three with one held
    by another agent, and its retry."""
    async def start(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)

    async def between(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)
        await console.fresh_inbox(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, InboxScreen)
        screen.action_clear()

    await console.walk((100, 30),
                       marks_show_and_esc_clears_them,
                       marks_then_close_in_one_burst,
                       claim_many_with_one_refused_then_retry,
                       start=start, between=between)
