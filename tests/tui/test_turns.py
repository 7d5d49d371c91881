"""Whose turn it is and what is unread, against the sandbox: a customer's message marks the
row (the customer's turn, unread), the Needs reply view lists it, opening the thread reads it
(a "New" divider above the part not read before), and read state survives a restart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from textual.pilot import Pilot

from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.store.inbox import AGENT, CUSTOMER, InboxStore
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.inbox.thread import first_new
from frontdesk.tui.widgets.conversation_cells import turn_text
from frontdesk.tui.widgets.view_tabs import ViewTabs

Console = Any  # the `console` fixture of tests/tui/conftest.py
SIZE = (120, 30)


def my_chat(console: Console) -> int:
    """An open chat assigned to the demo agent, with a few messages."""
    rows = console.sandbox.query(
        "SELECT c.id FROM conversations c JOIN users u ON u.id = c.assigned_agent_id "
        "WHERE u.email = ? AND c.channel = 'WidgetChat' AND c.state = 'Open' AND c.id IN "
        "(SELECT conversation_id FROM messages GROUP BY conversation_id "
        "HAVING count(*) BETWEEN 2 AND 20) ORDER BY c.id LIMIT 1", (DEMO_AGENT_EMAIL,))
    assert rows, "the seeded sandbox has no open chat of the demo agent"
    return int(rows[0]["id"])


def inbox_of(pilot: Pilot[Any]) -> InboxStore:
    app = pilot.app
    assert isinstance(app, FrontdeskApp) and app.session is not None
    return app.session.inbox


async def polled_until(pilot: Pilot[Any], done: Any, ticks: int = 8) -> None:
    """Poll the inbox (its own ticks, as the timer would) until ``done()`` holds (at least
    one tick)."""
    app = pilot.app
    assert isinstance(app, FrontdeskApp) and app.session is not None
    for tick in range(ticks):
        if tick and done():
            return
        await app.session.live.refresh("inbox")
        await pilot.pause()
    assert done()


async def test_unread_is_what_a_customer_wrote_since_the_first_start(console: Console
                                                                     ) -> None:
    """The first start calls nothing unread (what was written before it counts as read, at
    every later start too); a customer's new message marks the row (the customer's turn,
    unread) and the Needs reply view lists it; opening the thread reads it, an agent's
    message is never unread, and after a restart the New divider sits above the part not
    read before."""
    app = console.app(fresh=True)
    cid = my_chat(console)
    async with app.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        inbox = inbox_of(pilot)
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        tabs = screen.query_one(ViewTabs)
        # Needs reply's count says "…" until the turns of Mine's and Queue's rows are known
        # (their last messages follow their records), then the count
        for _ in range(40):
            known = inbox.turns_known
            if not known:
                assert str(tabs.label_of("view-needs_reply")) == "Needs reply …"
            if known and inbox.read_floor is not None:
                break
            await polled_until(pilot, lambda: True)
        await console.idle(pilot)
        needing = inbox.counts()["needs_reply"]
        assert needing > 0 and needing == len(inbox.view("needs_reply"))
        assert str(tabs.label_of("view-needs_reply")) == f"Needs reply {needing}"
        floor = inbox.read_floor
        assert floor is not None
        customers = [c for c, (who, _when) in inbox.turns.items() if who == CUSTOMER]
        assert customers, "the first fill learnt no customer's turn"
        assert not [c for c in inbox.rows if inbox.unread(c)]  # the history is not news
        # waits count the organisation's open hours (the header's schedule, Copenhagen's:
        # from 08:00 on weekdays), not the night: 16:30 to 08:30 the next day is an hour
        assert app.session is not None
        await app.session.live.refresh("hours")
        assert inbox.business_time is not None
        evening = datetime(2026, 1, 7, 15, 30, tzinfo=UTC)
        assert inbox.waited(evening, evening + timedelta(hours=16)) == 3600

        # time goes on; a customer writes: unread, their turn, Needs reply
        console.sandbox.clock.advance(60)
        await console.customer_writes(cid, "Anyone there?")
        await polled_until(pilot, lambda: inbox.unread(cid))
        assert inbox.turns[cid][0] == CUSTOMER
        assert isinstance(app.screen, InboxScreen)
        assert cid in [row.id for row in inbox.view("needs_reply")]
        assert "needs_reply" in inbox.views_of(inbox.rows[cid])
        assert inbox.counts()["needs_reply"] >= 1
        assert [c for c in inbox.rows if inbox.unread(c)] == [cid]

    # a restart: the floor and the mark are still there (kept locally)
    again = console.app(console.session())
    async with again.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        inbox = inbox_of(pilot)
        assert inbox.read_floor == floor
        assert inbox.turns[cid][0] == CUSTOMER and inbox.unread(cid)
        assert [c for c in inbox.rows if inbox.unread(c)] == [cid]
        screen = await console.open_thread(pilot, cid)
        view = screen.thread_view
        divided = [v for v in view.message_views if v.has_class("-first-new")]
        assert len(divided) == 1 and divided[0].border_title == "New"
        assert divided[0].message.id == view.messages[-1].id  # the one unread message
        assert not inbox.unread(cid)
        await console.burst(pilot, "escape")
        await console.home(pilot)

        # an agent answers (a colleague, through the service): their turn is not news
        console.sandbox.clock.advance(60)
        agent = console.sandbox.query("SELECT assigned_agent_id FROM conversations "
                                      "WHERE id = ?", (cid,))[0]["assigned_agent_id"]
        await console.agent_writes(cid, str(agent), "Here I am.")
        await polled_until(pilot, lambda: inbox.turns[cid][0] == AGENT)
        assert not inbox.unread(cid)


def test_the_needs_reply_view_waits_longest_first(console: Console) -> None:
    """Membership and order, on the store's rows: the customer's turn, open, mine or my
    queues'; the longest waiting first; an agent's last word leaves the view."""
    session = console.session()
    inbox = session.inbox
    queue = next(iter(session.directory.my_queue_ids), "q")
    rows = [row for row in inbox.rows.values()][:3]
    if len(rows) < 3:  # an empty store: nothing to order
        return
    start = datetime(2026, 1, 1, tzinfo=UTC)
    inbox.turns.clear()
    for n, row in enumerate(rows):
        inbox.rows[row.id] = row._replace(state="Open", agent_id=None,
                                                queue_id=queue)
        inbox.turns[row.id] = (CUSTOMER, start + timedelta(minutes=10 - n))
    inbox.turns[rows[1].id] = (AGENT, start)
    assert [r.id for r in inbox.view("needs_reply")] == [rows[2].id, rows[0].id]
    inbox.rows[rows[2].id] = inbox.rows[rows[2].id]._replace(state="Closed")
    assert [r.id for r in inbox.view("needs_reply")] == [rows[0].id]


def test_the_turn_cell() -> None:
    now = datetime(2026, 1, 1, 12, tzinfo=UTC)
    assert turn_text(None, False, now) == (" ", 0)
    assert turn_text((AGENT, now), True, now) == ("•→", 0)
    assert turn_text((CUSTOMER, now - timedelta(minutes=12)), True, now) == ("•← 12m", 0)
    assert turn_text((CUSTOMER, now - timedelta(hours=2)), False, now)[1] == 1
    assert turn_text((CUSTOMER, now - timedelta(hours=5)), False, now) == (" ←  5h", 2)
    # counted in open hours: five hours overnight of which half an hour open is not late
    assert turn_text((CUSTOMER, now - timedelta(hours=5)), False, now,
                     lambda _since, _until: 1800.0) == (" ← 30m", 0)


def test_first_new_is_the_oldest_message_after_the_read_mark() -> None:
    class M:
        def __init__(self, id: str, at: datetime) -> None:
            self.id, self.created_at = id, at

    at = datetime(2026, 1, 1, tzinfo=UTC)
    messages: list[Any] = [M(str(n), at + timedelta(minutes=n)) for n in range(5)]
    assert first_new(messages, None) is None
    assert first_new(messages, at + timedelta(minutes=2)) == "3"
    assert first_new(messages, at + timedelta(minutes=9)) is None
