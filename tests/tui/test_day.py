"""An agent's day in one console session: keys in bursts and one at a time, every mode
visited, a conversation worked from the queue to closed; after every burst the service's
state is checked and the console has fallen back to idle (no message waiting anywhere, no
worker running, no key held, a bounded number of list rebuilds)."""

from __future__ import annotations

from typing import Any

from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox import InboxScreen
from frontdesk.tui.screens.thread import ThreadScreen

Console = Any  # the `console` fixture of tests/tui/conftest.py


def palette_titles(app: FrontdeskApp) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


def assert_palette_once_each(app: FrontdeskApp) -> None:
    titles = palette_titles(app)
    assert len(titles) == len({t.casefold() for t in titles}), sorted(titles)
    assert titles.count("Quit") == 1


def assert_footer_fits(app: FrontdeskApp) -> None:
    """Every key the footer shows is whole on screen (the others are left out, not cut)."""
    from textual.widgets._footer import FooterKey

    shown = [key for key in app.screen.query(FooterKey) if key.display]
    assert shown
    assert all(key.region.right <= app.size.width for key in shown), \
        [(key.key, key.region) for key in shown]


def conversation(console: Console, cid: int) -> dict[str, Any]:
    found: dict[str, Any] = console.sandbox.query(
        "SELECT * FROM conversations WHERE id = ?", (cid,))[0]
    return found


async def step(console: Console, pilot: Any, *keys: str) -> None:
    """One burst, then idle: nothing queued, no key held, the list rebuilt a bounded number of
    times (a few per key, and one per change a poll brought)."""
    app = pilot.app
    assert isinstance(app, FrontdeskApp) and app.session is not None
    before = app.renders.get("inbox.list", 0)
    version = app.session.inbox.version
    await console.burst(pilot, *keys)
    assert app.keys_waiting == 0
    changes = app.session.inbox.version - version
    assert app.renders.get("inbox.list", 0) - before <= 2 * len(keys) + 2 + changes


async def test_an_agents_day(console: Console) -> None:
    me = str(console.sandbox.query("SELECT id FROM users WHERE email = ?",
                                   (DEMO_AGENT_EMAIL,))[0]["id"])
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        session = app.session
        assert session is not None
        waiting = [r["id"] for r in console.sandbox.query(
            "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
            "AND queue_id IN (SELECT queue_id FROM queue_members WHERE agent_id = ?) "
            "ORDER BY id LIMIT 10", (me,))]
        session.inbox.want(waiting)
        await session.live.refresh("inbox")
        await console.idle(pilot)
        # every mode, in one burst and back
        await step(console, pilot, "2", "3", "4", "5", "1")
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        assert_palette_once_each(app)
        assert_footer_fits(app)
        # the queue: claim the first waiting conversation
        await step(console, pilot, "tab")
        assert screen.view == "queue"
        cid = screen.current_conversation_id()
        assert cid is not None
        await step(console, pilot, "c")
        assert conversation(console, cid)["assigned_agent_id"] == me
        # open it, tag it, transfer it, claim it back, follow up, end the follow-up, close
        await step(console, pilot, "shift+tab")
        assert screen.conversation_list.move_to(cid)
        await step(console, pilot, "enter")
        thread = app.screen
        assert isinstance(thread, ThreadScreen) and thread.conversation_id == cid
        assert_palette_once_each(app)
        assert_footer_fits(app)
        await step(console, pilot, "i", *"On it today", "ctrl+s", "escape")
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
        await step(console, pilot, "t")
        await step(console, pilot, *tag.name, "space", "enter")
        assert tag.id in {r["tag_id"] for r in console.sandbox.query(
            "SELECT tag_id FROM conversation_tags WHERE conversation_id = ?", (cid,))}
        await step(console, pilot, "T", "enter")
        moved = conversation(console, cid)
        assert moved["assigned_agent_id"] is None and moved["queue_id"] is not None
        await step(console, pilot, "c")
        assert conversation(console, cid)["assigned_agent_id"] == me
        await step(console, pilot, "f", "enter")
        assert conversation(console, cid)["state"] == "Pending"
        await step(console, pilot, "R")
        assert conversation(console, cid)["state"] == "Open"
        await step(console, pilot, "X")
        assert conversation(console, cid)["state"] == "Closed"
        # back in the inbox, views cycled in one burst, at human pace too
        await step(console, pilot, "escape", "tab", "tab", "tab", "tab")
        assert isinstance(app.screen, InboxScreen) and app.screen.view == "all"
        for key in ("shift+tab", "shift+tab", "j", "k", "g"):
            await step(console, pilot, key)
        assert app.screen.view == "pending"
        # a question is never cut: the quit question wraps in its box
        from frontdesk.tui.screens.confirm import ConfirmScreen

        app.push_screen(ConfirmScreen(
            "1 reply is still waiting to be sent.",
            "Quit anyway? They are kept and sent the next time frontdesk starts."))
        await console.idle(pilot)
        detail = app.screen.query_one("#detail")
        assert detail.size.height >= 2
        assert detail.region.right <= app.size.width
        await step(console, pilot, "n")
        assert isinstance(app.screen, InboxScreen)
