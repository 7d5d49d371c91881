"""The conversation keys in the inbox (c, C, x, X, T, f, R), checked against what the sandbox
holds afterwards; a refused claim rolls back and shows the service's message; B tags by names."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from frontdesk.api.wire_time import parse_wire_time
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.store.session import Session
from frontdesk.tui import clock
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.screens.shared.followup_picker import END_FOLLOWUP, FollowupPicker
from frontdesk.tui.screens.shared.pickers import PromptScreen
from frontdesk.tui.screens.shared.queue_picker import QueuePicker
from frontdesk.tui.widgets.conversation_cells import followup_text
from frontdesk.tui.widgets.conversation_list import ConversationList

Console = Any  # the `console` fixture of tests/tui/conftest.py
NOW = ManualClock().now()


def parts(pilot: Pilot[Any]) -> tuple[FrontdeskApp, Session, InboxScreen, ConversationList]:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    session = app.session
    assert session is not None
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    return app, session, screen, screen.conversation_list


async def settle(console: Console, pilot: Pilot[Any]) -> None:
    await console.ready(pilot)
    app, session, _screen, _listing = parts(pilot)
    for _ in range(20):
        version = session.inbox.version
        await app.workers.wait_for_complete()
        await session.live.refresh("inbox")
        await pilot.pause()
        # a console on a filled local store reads Mine and Queue again without a change:
        # wait for that too, not only for a poll that changed nothing
        if session.inbox.version == version and session.inbox.filled and session.inbox.settled:
            break


async def done(pilot: Pilot[Any]) -> None:
    """Every action worker finished and the screen caught up."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def app_of(pilot: Pilot[Any]) -> FrontdeskApp:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    return app


def me(console: Console) -> str:
    return str(console.sandbox.query("SELECT id FROM users WHERE email = ?",
                                     (DEMO_AGENT_EMAIL,))[0]["id"])


def row(console: Console, cid: int) -> dict[str, Any]:
    found: dict[str, Any] = console.sandbox.query(
        "SELECT * FROM conversations WHERE id = ?", (cid,))[0]
    return found


def messages(app: FrontdeskApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def claim_from_the_queue_view(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, screen, listing = parts(pilot)
    # the conversations waiting in my queues, in the working set (the store's first poll
    # may run before my queues are known)
    waiting = [r["id"] for r in console.sandbox.query(
        "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
        "AND queue_id IN (SELECT queue_id FROM queue_members WHERE agent_id = ?) "
        "ORDER BY id LIMIT 10", (me(console),))]
    session.inbox.want(waiting)
    await settle(console, pilot)
    await pilot.press("tab", "tab")  # past Needs reply
    assert screen.view == "queue"
    cid = listing.highlighted_id
    assert cid is not None
    assert row(console, cid)["assigned_agent_id"] is None
    await pilot.press("c")
    await done(pilot)
    assert row(console, cid)["assigned_agent_id"] == me(console)
    assert cid not in listing.shown_ids()
    assert f"#{cid} is yours now." in messages(app)
    await pilot.press("shift+tab", "shift+tab")  # back past Needs reply to Mine
    assert screen.view == "mine"
    assert cid in listing.shown_ids()


async def refused_claim_rolls_back_then_force_claim_takes_it(console: Console,
                                                             pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    agent = me(console)
    other = console.sandbox.query(
        "SELECT id, assigned_agent_id FROM conversations WHERE state = 'Open' "
        "AND assigned_agent_id IS NOT NULL AND assigned_agent_id != ? ORDER BY id LIMIT 1",
        (agent,))[0]
    cid, owner = other["id"], other["assigned_agent_id"]
    _app, session, screen, listing = parts(pilot)
    assert (await session.finder.open_by_id(cid)).id == cid
    screen.show_view("all")
    await pilot.pause()
    assert listing.move_to(cid)
    await pilot.press("c")
    await done(pilot)
    assert row(console, cid)["assigned_agent_id"] == owner
    record = session.inbox.records[cid]
    assert record.assignment is not None and record.assignment.agent_id == owner
    refusal = [m for m in messages(app) if m.startswith(f"Could not claim #{cid}")]
    assert refusal and "assigned" in refusal[0].lower()
    await pilot.press("C")
    await done(pilot)
    assert row(console, cid)["assigned_agent_id"] == agent


async def x_asks_then_closes(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, _session, _screen, listing = parts(pilot)
    cid = listing.highlighted_id
    assert cid is not None
    await pilot.press("x")
    assert isinstance(app.screen, ConfirmScreen)
    await pilot.press("n")
    await done(pilot)
    assert row(console, cid)["state"] == "Open"
    await pilot.press("x")
    assert isinstance(app.screen, ConfirmScreen)
    await pilot.press("y")
    await done(pilot)
    assert row(console, cid)["state"] == "Closed"
    assert cid not in listing.shown_ids()


async def shift_x_closes_without_asking(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, _session, _screen, listing = parts(pilot)
    cid = listing.highlighted_id
    assert cid is not None
    following = listing.shown_ids()[1]
    await pilot.press("X")
    assert isinstance(app.screen, InboxScreen)
    await done(pilot)
    assert row(console, cid)["state"] == "Closed"
    # the cursor moves on to the next conversation at the same place
    assert listing.highlighted_id == following


async def transfer_picks_a_queue(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, _screen, listing = parts(pilot)
    cid = listing.highlighted_id
    assert cid is not None
    before = row(console, cid)
    target = next(q for q in session.directory.queues.values()
                  if q.id != before["queue_id"] and not q.is_default)
    await pilot.press("T")
    picker = app.screen
    assert isinstance(picker, QueuePicker)
    await pilot.press(*target.name.lower()[:6])
    assert picker.highlighted_id() == target.id
    # while the picker is open the queues' waiting counts fill in, beside each name
    for _ in range(30):
        rows = await session.live.refresh("queues")
        if all(r.waiting is not None and r.oldest_exact for r in rows):
            break
    await pilot.pause()
    waiting = console.sandbox.query(
        "SELECT COUNT(*) AS n, MIN(queued_at) AS oldest FROM conversations WHERE "
        "state = 'Open' AND assigned_agent_id IS NULL AND queue_id = ?", (target.id,))[0]
    shown = str(picker.options.get_option(target.id).prompt)
    assert f"{waiting['n']} waiting · oldest " in shown
    assert shown.endswith(clock.ago(parse_wire_time(waiting["oldest"])))
    assert picker.highlighted_id() == target.id  # a refill keeps the highlight
    await pilot.press("enter")
    await done(pilot)
    after = row(console, cid)
    assert after["queue_id"] == target.id
    assert after["assigned_agent_id"] is None


async def followup_in_an_hour(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, _screen, listing = parts(pilot)
    cid = listing.highlighted_id
    assert cid is not None
    await pilot.press("f")
    assert isinstance(app.screen, FollowupPicker)
    await pilot.press("enter")
    await done(pilot)
    after = row(console, cid)
    assert after["state"] == "Pending"
    assert after["followup_until"].startswith("2026-01-05T10:00")
    assert session.inbox.records[cid].state == "Pending"

    # the Pending view shows until when, and f there ends the follow-up early
    until = parse_wire_time(after["followup_until"])
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    screen.show_view("pending")
    await pilot.pause()
    assert "Follow-up" in listing.render_line(0).text
    listing.focus()
    listing.set_rows(screen.rows(), keep=cid)
    await pilot.pause()
    line = listing.render_line(listing.cursor + 1 - round(listing.scroll_y)).text
    assert f"#{cid}" in line
    assert line.rstrip().endswith(followup_text(until, clock.now()))
    await pilot.press("f")
    picker = app.screen
    assert isinstance(picker, FollowupPicker)
    assert "now until" in picker.title_text()
    assert picker.highlighted_id() == END_FOLLOWUP
    await pilot.press("enter")
    await done(pilot)
    assert "the follow-up has ended; it is open." in messages(app)[-1]
    assert row(console, cid)["state"] == "Open"
    assert row(console, cid)["followup_until"] is None
    session.inbox.want([cid])
    await session.live.refresh("inbox")
    await pilot.pause()
    assert cid not in listing.shown_ids()


async def reopen_a_closed_conversation(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, _session, screen, listing = parts(pilot)
    cid = listing.highlighted_id
    assert cid is not None
    await pilot.press("X")
    await done(pilot)
    assert row(console, cid)["state"] == "Closed"
    screen.show_view("closed")
    await pilot.pause()
    assert listing.move_to(cid)
    await pilot.press("R")
    await done(pilot)
    assert row(console, cid)["state"] == "Open"
    assert f"Reopened #{cid}." in messages(app)
    # on an open one, R says so and asks nothing of the service
    screen.show_view("all")
    await pilot.pause()
    assert listing.move_to(cid)
    await pilot.press("R")
    await done(pilot)
    assert f"#{cid} is already open." in messages(app)
    # on a pending one, R ends the follow-up: open now, and said only once it is
    await pilot.press("f", "enter")
    await done(pilot)
    assert row(console, cid)["state"] == "Pending"
    await pilot.press("R")
    await done(pilot)
    assert row(console, cid)["state"] == "Open"
    assert row(console, cid)["followup_until"] is None
    assert f"Follow-up of #{cid} ended: it is open now." in messages(app)


async def keys_without_a_conversation_say_so(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, _session, _screen, listing = parts(pilot)
    await pilot.press("slash", *"zzqqxxzz", "enter")
    assert listing.highlighted_id is None
    await pilot.press("c", "T")
    assert isinstance(app.screen, InboxScreen)
    assert "No conversation is highlighted." in messages(app)


async def shift_b_tags_by_names_and_the_service_applies_them(console: Console,
                                                           pilot: Pilot[Any]) -> None:
    """`B` tags a conversation by names in one request; the service applies them moments
    later and creates the names it does not know."""
    app = app_of(pilot)
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    cid = screen.current_conversation_id()
    assert cid is not None
    await pilot.press("B")
    assert isinstance(app.screen, PromptScreen)
    for key in "brand-new-tag":
        await pilot.press(key)
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    console.sandbox.run_pending(everything=True)
    rows = console.sandbox.query(
        "SELECT t.name FROM conversation_tags ct JOIN tags t ON t.id = ct.tag_id "
        "WHERE ct.conversation_id = ?", (cid,))
    assert "brand-new-tag" in {r["name"] for r in rows}


@pytest.mark.slow
async def test_the_conversation_keys_in_the_inbox(console: Console) -> None:
    """Each key on the highlighted conversation of a freshly settled inbox: nothing
    highlighted, close (asking, then not), transfer, follow up, reopen, a refused claim then a
    forced one, a claim from the Queue view, tags by names with B."""
    async def start(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)

    async def between(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)
        await console.fresh_inbox(pilot)

    await console.walk((100, 30),
                       keys_without_a_conversation_say_so,
                       x_asks_then_closes,
                       shift_x_closes_without_asking,
                       transfer_picks_a_queue,
                       followup_in_an_hour,
                       reopen_a_closed_conversation,
                       refused_claim_rolls_back_then_force_claim_takes_it,
                       claim_from_the_queue_view,
                       shift_b_tags_by_names_and_the_service_applies_them,
                       start=start, between=between)
