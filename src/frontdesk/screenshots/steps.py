"""The steps from a signed-in console to a picture: keys, topics fetched now, the settled
inbox, a thread opened, a reply typed, a position followed."""

from __future__ import annotations

import contextlib
from typing import Any

from textual.pilot import Pilot

from ..tui.widgets.safe import TextArea
from . import sandbox as drawn
from .sandbox import TIMERS
from .scene import REPLY, Skip, Step, project_module

__all__ = ["follow_position", "open_thread", "press", "ready", "refresh", "settle",
           "write_reply"]


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def press(*keys: str) -> Step:
    """Press ``keys`` one after the other, settling after each."""

    async def step(pilot: Pilot[Any]) -> None:
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    return step


def refresh(*topics: str) -> Step:
    """Fetch these live topics now (the picture shows their data, not "loading")."""

    async def step(pilot: Pilot[Any]) -> None:
        session = getattr(pilot.app, "session", None)
        if session is None:
            return
        live = session.live
        for topic in topics:
            if live.topic(topic) is not None:
                await live.refresh(topic)
        if "queues" in topics and live.topic("queues") is not None:
            # shown queues fill a few requests per poll: poll until every shown one is whole
            for _ in range(30):
                rows = await live.refresh("queues")
                if all(row.channels and row.members is not None and row.waiting is not None
                       and row.oldest_exact for row in rows):
                    break
        if "team:load" in topics and live.topic("team:load") is not None:
            for _ in range(30):  # every shown agent's load, a few per poll
                loads = await live.refresh("team:load")
                if set(session.team.shown_agents()) <= {load.agent_id for load in loads}:
                    break
        await settle(pilot)

    return step


async def ready(pilot: Pilot[Any]) -> None:
    """Signed in, the inbox complete (every wanted record, tag and name fetched, every view's
    count known, a poll changing nothing), the poll timers frozen, the header's topics
    fetched and the preview pane (when shown) filled: the settled state the snapshot tests
    wait for."""
    app = pilot.app
    session = getattr(app, "session", None)
    await app.workers.wait_for_complete()
    if session is None:
        return
    inbox = session.inbox
    # the service's clock first: the Closed view's window and the read floor are set by it
    if session.live.topic("hours") is not None:
        await session.live.refresh("hours")
    for _ in range(500):
        version = inbox.version
        with contextlib.suppress(Exception):
            await app.workers.wait_for_complete()
        if session.live.topic("inbox") is not None:
            await session.live.refresh("inbox")
        await pilot.pause()
        # Conversations with recent activity are read again for a few seconds, and their
        # tags with them: wait for every row's tags, not for an empty re-read list.
        complete = (inbox.settled and not session.directory._pending
                    and all(cid in inbox.tags for cid in inbox.rows)
                    and inbox.turns_known and (inbox.closed_known or not session.me_id))
        if complete and inbox.version == version:
            break
    timers = TIMERS.get(id(session))
    if timers is not None:
        timers.frozen = True
    for topic in ("presence:me", "hours"):
        if session.live.topic(topic) is not None:
            await session.live.refresh(topic)
    pane = next(iter(app.screen.query("PreviewPane")), None)
    flush = getattr(pane, "flush", None)
    if pane is not None and pane.display and flush is not None:
        worker = flush()
        if worker is not None:
            await worker.wait()
    await settle(pilot)


def open_thread(where: str, then: list[Step] | None = None) -> Step:
    """Open the first conversation matching ``where`` (SQL on the sandbox) in the thread
    screen, wait until it has been polled and painted, then run ``then``."""

    async def step(pilot: Pilot[Any]) -> None:
        thread_module = project_module("frontdesk.tui.screens.inbox.thread")
        screen_class = getattr(thread_module, "ThreadScreen", None)
        if screen_class is None:
            raise Skip("frontdesk.tui.screens.inbox.thread has no ThreadScreen")
        conversation_id = drawn.CURRENT.first_id(where)
        app = pilot.app
        await app.push_screen(screen_class(conversation_id))
        await pilot.pause()
        session = getattr(app, "session", None)
        if session is not None and session.live.topic("thread") is not None:
            await session.live.refresh("thread")
        await settle(pilot)
        app.clear_notifications()
        for more in then or []:
            await more(pilot)
        await settle(pilot)

    return step


async def write_reply(pilot: Pilot[Any]) -> None:
    """Put the cursor in the composer and type a Markdown reply."""
    await pilot.press("i")
    await pilot.pause()
    screen = pilot.app.screen
    composer = getattr(screen, "composer", None)
    editor = getattr(composer, "editor", None)
    if not isinstance(editor, TextArea):
        raise Skip("the thread screen has no composer editor")
    editor.cursor_blink = False
    editor.insert(REPLY)
    await pilot.pause()


async def follow_position(pilot: Pilot[Any]) -> None:
    """In Queues mode, follow the position of the third conversation waiting."""
    waiting = drawn.CURRENT.query(
        "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
        "AND queue_id IS NOT NULL ORDER BY queue_id, queued_at, id LIMIT 3")
    if len(waiting) < 3:
        raise Skip("fewer than three conversations are waiting")
    await pilot.press("P")
    await pilot.pause()
    if not pilot.app.screen.query("#position-input"):
        raise Skip("Queues mode has no position input (key P)")
    await pilot.press(*str(waiting[2]["id"]), "enter")
    await settle(pilot)
