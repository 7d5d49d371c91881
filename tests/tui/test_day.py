"""An agent's day in one console session, with the sandbox's simulator on (customers write,
conversations arrive, other agents come and go, claim, reply and close): keys in bursts and
one at a time, every mode visited, a conversation worked from the queue to closed; after every
burst the service's state is checked and the console has fallen back to idle (no message
waiting anywhere, no worker running, no key held, a bounded number of list rebuilds).

The simulator is stepped from the test with a seeded random source, between the agent's
actions, so the day is the same on every run. It never acts as the demo agent nor touches
their conversations, except that customers write into them; so it is given no turn between
an action and its check, nor while the worked conversation waits in a queue, is pending or
closed (where a customer's message or another agent would rightly move it on)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.simulator import Simulator
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.inbox.thread import ThreadScreen

Console = Any  # the `console` fixture of tests/tui/conftest.py


def palette_titles(app: FrontdeskApp) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


def assert_palette_once_each(app: FrontdeskApp) -> None:
    titles = palette_titles(app)
    assert len(titles) == len({t.casefold() for t in titles}), sorted(titles)
    assert titles.count("Quit") == 1


def assert_footer_fits(app: FrontdeskApp) -> None:
    """Every key the footer shows is whole on screen (the others are left out, not cut)."""
    from frontdesk.tui.textual_private import FooterKey

    shown = [key for key in app.screen.query(FooterKey) if key.display]
    assert shown
    assert all(key.region.right <= app.size.width for key in shown), \
        [(key.key, key.region) for key in shown]


def conversation(console: Console, cid: int) -> dict[str, Any]:
    found: dict[str, Any] = console.sandbox.query(
        "SELECT * FROM conversations WHERE id = ?", (cid,))[0]
    return found


class Life:
    """The sandbox's simulator, stepped on the sandbox's own thread."""

    def __init__(self, console: Console, seed: int = 11) -> None:
        self.console = console

        def make(ctx: SandboxContext) -> Simulator:
            return Simulator(ctx, rng=random.Random(seed))

        self.simulator: Simulator = console.sandbox.call(make)
        self.acts: list[str] = []

    async def goes_on(self, pilot: Any, acts: int = 3) -> None:
        """``acts`` acts of the simulator, then the console polls and falls back to idle."""
        simulator = self.simulator
        self.acts += self.console.sandbox.call(
            lambda _ctx: [simulator.step() for _ in range(acts)])
        app = pilot.app
        assert isinstance(app, FrontdeskApp) and app.session is not None
        await app.session.live.refresh("inbox")
        await self.console.idle(pilot)


async def step(console: Console, pilot: Any, *keys: str, life: Life | None = None) -> None:
    """The world goes on (when ``life`` is given), then one burst, then idle: nothing queued,
    no key held, the list rebuilt a bounded number of times (a few per key, and one per change
    a poll brought)."""
    app = pilot.app
    assert isinstance(app, FrontdeskApp) and app.session is not None
    if life is not None:
        await life.goes_on(pilot)
    before = app.renders.get("inbox.list", 0)
    version = app.session.inbox.version
    await console.burst(pilot, *keys)
    assert app.keys_waiting == 0
    changes = app.session.inbox.version - version
    assert app.renders.get("inbox.list", 0) - before <= 2 * len(keys) + 2 + changes


@pytest.mark.slow
async def test_an_agents_day(console: Console) -> None:
    me = str(console.sandbox.query("SELECT id FROM users WHERE email = ?",
                                   (DEMO_AGENT_EMAIL,))[0]["id"])
    messages_before = console.sandbox.query("SELECT count(*) AS n FROM messages")[0]["n"]
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        session = app.session
        assert session is not None
        life = Life(console)
        await life.goes_on(pilot)
        waiting = [r["id"] for r in console.sandbox.query(
            "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
            "AND queue_id IN (SELECT queue_id FROM queue_members WHERE agent_id = ?) "
            "ORDER BY id LIMIT 10", (me,))]
        session.inbox.want(waiting)
        await session.live.refresh("inbox")
        await console.idle(pilot)
        # every mode, in one burst and back
        await step(console, pilot, "2", "3", "4", "5", "1", life=life)
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        assert_palette_once_each(app)
        assert_footer_fits(app)
        # the queue: claim the first waiting conversation
        await step(console, pilot, "tab", "tab")  # past Needs reply
        assert screen.view == "queue"
        # the first row still waiting at the service: a colleague of the simulator's may
        # have taken a row the console has not read again yet (claiming it is refused, as
        # it should be, but that is another test's)
        listing = screen.conversation_list
        cid = next(row for row in listing.shown_ids()
                   if conversation(console, row)["assigned_agent_id"] is None)
        assert listing.move_to(cid)
        await step(console, pilot, "c")
        assert conversation(console, cid)["assigned_agent_id"] == me
        # open it, tag it, transfer it, claim it back, follow up, end the follow-up, close
        await step(console, pilot, "shift+tab", life=life)
        assert screen.conversation_list.move_to(cid)
        await step(console, pilot, "enter", life=life)
        thread = app.screen
        assert isinstance(thread, ThreadScreen) and thread.conversation_id == cid
        assert_palette_once_each(app)
        assert_footer_fits(app)
        await step(console, pilot, "i", *"On it today", "ctrl+s", "escape", life=life)
        for _ in range(10):
            sent = console.sandbox.query(
                "SELECT body_text FROM messages WHERE conversation_id = ? "
                "AND body_text LIKE '%On it today%'", (cid,))
            if sent:
                break
            await console.idle(pilot)
        assert sent
        tag = next(t for t in sorted(session.directory.tags.values(), key=lambda t: t.name)
                   if t.active and t.name.isascii() and t.name.isalpha())
        await step(console, pilot, "t", life=life)
        await step(console, pilot, *tag.name, "space", "enter")
        assert tag.id in {r["tag_id"] for r in console.sandbox.query(
            "SELECT tag_id FROM conversation_tags WHERE conversation_id = ?", (cid,))}
        await step(console, pilot, "T", "enter", life=life)
        moved = conversation(console, cid)
        assert moved["assigned_agent_id"] is None and moved["queue_id"] is not None
        await step(console, pilot, "c")  # not a turn for others: it waits in a queue
        assert conversation(console, cid)["assigned_agent_id"] == me
        await step(console, pilot, "f", "enter", life=life)
        assert conversation(console, cid)["state"] == "Pending"
        await step(console, pilot, "R")
        assert conversation(console, cid)["state"] == "Open"
        await step(console, pilot, "X", life=life)
        assert conversation(console, cid)["state"] == "Closed"
        # back in the inbox, views cycled in one burst, at human pace too
        await step(console, pilot, "escape", "tab", "tab", "tab", "tab", life=life)
        assert isinstance(app.screen, InboxScreen) and app.screen.view == "all"
        for key in ("shift+tab", "shift+tab", "j", "k", "g"):
            await step(console, pilot, key, life=life)
        assert app.screen.view == "pending"
        # a question is never cut: the quit question wraps in its box
        from frontdesk.tui.screens.shared.confirm import ConfirmScreen

        app.push_screen(ConfirmScreen(
            "1 reply is still waiting to be sent.",
            "Quit anyway? They are kept and sent the next time frontdesk starts."))
        await console.idle(pilot)
        detail = app.screen.query_one("#detail")
        assert detail.size.height >= 2
        assert detail.region.right <= app.size.width
        await step(console, pilot, "n")
        assert isinstance(app.screen, InboxScreen)
    # the world did go on around the agent: customers wrote, others worked
    assert len(life.acts) >= 30 and "nothing happened" not in life.acts
    messages_after = console.sandbox.query("SELECT count(*) AS n FROM messages")[0]["n"]
    assert messages_after > messages_before + 1
