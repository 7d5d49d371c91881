"""Undo send in the console against the sandbox: a reply or note held in the outbox counts down
in its thread, ctrl+z (in the same burst of keys as its ctrl+s, too) puts it back in the
composer as it was and the sandbox never receives it; after the hold it is received once; 0
turns the hold off; undo racing the send is told truly; each thread's held reply has its own
countdown and the outbox undoes one; quitting while one is held asks.

The hold is read on the session's wall clock, which these tests move by hand: a hold ends
when the test says so, however busy the machine is."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from test_thread_screen import (  # type: ignore[import-not-found]
    app_of,
    chat,
    open_thread,
    record_notices,
    session_of,
    stored,
)
from textual.pilot import Pilot

from frontdesk.settings import ComposeSettings, Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.outbox import OutboxScreen
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.screens.shared.quit_question import QuitQuestion
from frontdesk.tui.widgets.safe import DataTable

Console = Any  # the `console` fixture of tests/tui/conftest.py

SIZE = (100, 30)
HOLD = 5


class Wall:
    """The session's wall clock, moved on by the test."""

    def __init__(self) -> None:
        self.moment = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


def held_console(console: Console) -> tuple[FrontdeskApp, Wall]:
    """A console whose replies are held ``HOLD`` seconds, on a wall clock the test moves."""
    console.settings = Settings(compose=ComposeSettings(undo_seconds=HOLD))
    app: FrontdeskApp = console.app()
    wall = Wall()
    session_of(app).wall = wall
    return app, wall


async def until(pilot: Pilot[Any], condition: Callable[[], bool]) -> None:
    """Wait until ``condition()`` holds (a countdown's next tick): fail after some rounds."""
    for _ in range(400):
        if condition():
            return
        await pilot.pause(0.025)
    raise AssertionError("never came to be")


def echo_statuses(screen: ThreadScreen) -> list[str]:
    return [view.status for view in screen.thread_view.message_views if view.status]


async def undo_within_the_hold_never_reaches_the_sandbox(console: Console, wall: Wall,
                                                         pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    session: Session = session_of(app)
    notices = record_notices(app)
    cid = chat(console)
    screen = await open_thread(pilot, cid)
    # typed, sent and taken back in one burst (the ctrl+z comes while it is being queued)
    await console.burst(pilot, "i", *"Wrong thread", "ctrl+s", "ctrl+z")
    composer = screen.composer
    assert (composer.text, composer.mode) == ("Wrong thread", "reply")
    draft = session.local.draft(cid)
    assert session.outbox.items() == [] and draft is not None and draft.text == "Wrong thread"
    assert any(n.startswith("Undone: the reply was not sent") for n in notices)
    # a note, sent: counted down in the thread, then taken back as a note
    await console.burst(pilot, *["backspace"] * len("Wrong thread"), "ctrl+n", *"VIP",
                        "ctrl+s")
    assert echo_statuses(screen) == [f"sending in {HOLD} s · ctrl+z undo"]
    wall.advance(2)
    await until(pilot, lambda: echo_statuses(screen) == [f"sending in {HOLD - 2} s · ctrl+z undo"])
    assert composer.text == ""
    await console.burst(pilot, "ctrl+z")
    assert (composer.text, composer.mode) == ("VIP", "note")
    assert echo_statuses(screen) == [] and session.outbox.items() == []
    wall.advance(60)  # long past both holds: nothing is left to leave
    assert await session.outbox.flush() == 0
    assert stored(console, cid, "Wrong thread") == []
    assert console.sandbox.query("SELECT count(*) AS n FROM notes WHERE conversation_id = ? "
                                 "AND message = 'VIP'", (cid,))[0]["n"] == 0
    await console.burst(pilot, *["backspace"] * 3, "ctrl+n")  # leave the composer empty


async def after_the_hold_it_is_received_once(console: Console, wall: Wall,
                                             pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    session: Session = session_of(app)
    notices = record_notices(app)
    cid = chat(console, 1)
    screen = await open_thread(pilot, cid)
    await console.burst(pilot, "i", *"On its way", "ctrl+s")
    assert await session.outbox.flush() == 0, "held: it waits"
    wall.advance(HOLD)
    assert await session.outbox.flush() == 1
    await console.burst(pilot, "ctrl+z")
    assert len(stored(console, cid, "On its way")) == 1
    assert "Too late to undo: the reply was already sent." in notices
    assert screen.composer.text == "", "a sent reply is not put back as if it were not"


async def undo_racing_the_send_is_told_truly(console: Console, wall: Wall,
                                            pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    session: Session = session_of(app)
    notices = record_notices(app)
    cid = chat(console, 2)
    screen = await open_thread(pilot, cid)
    await console.burst(pilot, "i", *"Raced", "ctrl+s")
    [item] = session.outbox.items(cid)
    console.sandbox.faults.latency(2.0, methods=("POST",), path_prefix="/v1/conversations/",
                                   count=1)
    wall.advance(HOLD)
    sending = asyncio.create_task(session.outbox.flush())

    def in_flight() -> bool:
        now = session.outbox.item(item.id)
        return now is not None and now.state == "sending"

    await until(pilot, in_flight)
    await console.burst(pilot, "ctrl+z")  # while the request is on its way: it lost
    assert "Too late to undo: the reply is being sent right now." in notices
    assert await sending == 1
    await console.burst(pilot, "ctrl+z")
    assert notices[-1] == "Too late to undo: the reply was already sent."
    assert len(stored(console, cid, "Raced")) == 1 and screen.composer.text == ""


async def zero_sends_at_once(console: Console, wall: Wall, pilot: Pilot[Any]) -> None:
    session: Session = session_of(app_of(pilot))
    held = session.settings
    session.settings = Settings(compose=ComposeSettings(undo_seconds=0))
    try:
        cid = chat(console, 3)
        screen = await open_thread(pilot, cid)
        await console.burst(pilot, "i", *"At once", "ctrl+s")
        assert session.outbox.held() == [], "no hold"
        await session.outbox.flush()
        assert len(stored(console, cid, "At once")) == 1
        await console.burst(pilot, "ctrl+z")  # the editor's own undo: nothing comes back
        assert screen.composer.text == "" and session.outbox.items() == []
    finally:
        session.settings = held


async def each_thread_counts_its_own_and_the_outbox_undoes_one(
        console: Console, wall: Wall, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    session: Session = session_of(app)
    first, second = chat(console, 4), chat(console, 5)
    screen = await open_thread(pilot, first)
    await console.burst(pilot, "i", *"First", "ctrl+s")
    wall.advance(2)
    other = await open_thread(pilot, second)
    await console.burst(pilot, "i", *"Second", "ctrl+s")
    assert echo_statuses(other) == [f"sending in {HOLD} s · ctrl+z undo"]
    await console.burst(pilot, "escape", "escape")  # out of the composer, back to the first
    assert app.screen is screen
    await until(pilot, lambda: echo_statuses(screen) == [f"sending in {HOLD - 2} s · ctrl+z undo"])
    await console.burst(pilot, "escape", "O")
    outbox = app.screen
    assert isinstance(outbox, OutboxScreen)
    table = outbox.query_one("#outbox-table", DataTable)
    states = [str(table.get_row_at(row)[1]) for row in range(2)]
    assert states == [f"held {HOLD - 2} s", f"held {HOLD} s"]
    await console.burst(pilot, "j", "u")  # the second one: back in its thread's composer
    thread = app.screen
    assert isinstance(thread, ThreadScreen) and thread.conversation_id == second
    assert thread.composer.text == "Second"
    wall.advance(HOLD)
    assert await session.outbox.flush() == 1
    assert len(stored(console, first, "First")) == 1 and stored(console, second, "Second") == []
    await console.burst(pilot, *["backspace"] * len("Second"))


async def test_undo_send(console: Console) -> None:
    """Undo within the hold (in a burst, a note too), received once after it, the race told
    truly, 0 = off, several threads' holds and the outbox's undo: one console."""
    app, wall = held_console(console)
    steps = (undo_within_the_hold_never_reaches_the_sandbox,
             after_the_hold_it_is_received_once,
             undo_racing_the_send_is_told_truly,
             zero_sends_at_once,
             each_thread_counts_its_own_and_the_outbox_undoes_one)
    async with app.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        for step in steps:
            await step(console, wall, pilot)
            console.sandbox.faults.clear()
            await console.home(pilot)


async def test_quitting_while_a_reply_is_held_asks(console: Console) -> None:
    """ctrl+q with a reply held asks: wait stays; undo when one has left undoes nothing and
    says so; send now sends them (once each) and quits. Then, started again, undo takes the
    held reply back into its draft and quits: the sandbox never receives it."""
    app, _ = held_console(console)
    session: Session = session_of(app)
    cid = chat(console, 6)
    async with app.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        notices = record_notices(app)
        await open_thread(pilot, cid)
        await console.burst(pilot, "i", *"Kept", "ctrl+s", "ctrl+q")
        assert isinstance(app.screen, QuitQuestion)
        assert "1 reply is waiting to be sent" in str(
            app.screen.query_one("#quit-question").render())
        await console.burst(pilot, "w")  # wait: the console stays, the reply still held
        assert isinstance(app.screen, ThreadScreen)
        [kept] = session.outbox.held()
        await console.burst(pilot, *"Kept too", "ctrl+s", "ctrl+q")
        assert isinstance(app.screen, QuitQuestion) and len(session.outbox.held()) == 2
        session.outbox.release([kept.id])  # one leaves while the question is open
        assert await session.outbox.flush() == 1
        await console.burst(pilot, "u")
        assert isinstance(app.screen, ThreadScreen), "not quit: one had left"
        assert notices[-1].startswith("Too late to undo 1 reply")
        assert len(session.outbox.held()) == 1, "nothing was undone"
        await console.burst(pilot, "ctrl+q", "s")  # send now, then quit
        await app.workers.wait_for_complete()
    assert len(stored(console, cid, "Kept")) == 1
    assert len(stored(console, cid, "Kept too")) == 1

    again, _ = held_console(console)
    async with again.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        await open_thread(pilot, cid)
        await console.burst(pilot, "i", *"Never", "ctrl+s", "ctrl+q")
        assert isinstance(again.screen, QuitQuestion)
        path = session_of(again).local.path
        await pilot.press("u")  # undo, then quit
    with LocalStore(path) as local:
        draft = local.draft(cid)
        assert draft is not None and draft.text == "Never"
        assert local.execute("SELECT count(*) FROM outbox") == [(0,)]
    assert stored(console, cid, "Never") == []
