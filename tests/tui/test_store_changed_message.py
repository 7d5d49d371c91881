"""A change of the store reaches the screen in front as one typed Textual message,
``StoreChanged``: its topic is the topic's key (even when the store was told a plain name),
the screens that show live topics hear it (a modal without them does not), in the order the
store told the changes, and a bug in a screen's handler is said in one line while the console
goes on (docs/quality.md: no traceback on screen, nothing silent)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from textual.message import Message
from textual.screen import ModalScreen

from frontdesk.store.topics import INBOX, OUTBOX, TopicKey
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.shared.base import LiveModal
from frontdesk.tui.store_changed import StoreChanged, store_change_handler

Console = Any  # the `console` fixture of tests/tui/conftest.py


class Boom(RuntimeError):
    """A bug in a screen's handling of a change."""


class Listening(LiveModal, ModalScreen[None]):
    """A modal that shows a live topic: it keeps every change it hears, and fails on the ones
    it is told to."""

    HELP_NAME = "Listening"

    def __init__(self) -> None:
        super().__init__()
        self.heard: list[StoreChanged] = []
        self.failing = False

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        self.heard.append(message)
        if self.failing:
            raise Boom("the count\nwent \x1b[31maway")


def said(app: FrontdeskApp) -> list[str]:
    return [n.message for n in app._notifications if n.message.startswith("Could not")]


async def test_a_store_change_reaches_the_screen_as_a_typed_message(
        console: Console, caplog: pytest.LogCaptureFixture) -> None:
    dispatched: list[StoreChanged] = []

    def hook(message: Message) -> None:
        if isinstance(message, StoreChanged):
            dispatched.append(message)

    app: FrontdeskApp = console.app()
    async with app.run_test(size=(100, 30), message_hook=hook) as pilot:
        await console.ready(pilot)
        session = app.session
        assert session is not None and isinstance(app.screen, InboxScreen)
        await console.idle(pilot)

        # the inbox screen hears a new inbox version as a message with the key, once (a poll
        # of the inbox's own may announce its own versions meanwhile, the current one again
        # included: the tags and text of the rows on screen are read as they come; so the
        # version told here is one no poll gives)
        dispatched.clear()
        version = session.inbox.version + 1_000_000
        session.live.announce(INBOX, version)
        await pilot.pause()
        inbox = [m for m in dispatched if m.topic == INBOX]
        assert inbox and all(isinstance(m.topic, TopicKey) for m in inbox)
        assert [m.of(INBOX) for m in inbox].count(version) == 1

        # a modal that shows a live topic hears the changes while it is in front, in order,
        # typed: a name the store was told as a plain string arrives as its key
        listening = Listening()
        await app.push_screen(listening)
        await pilot.pause()
        listening.heard.clear()
        session.live.announce("outbox", 7)
        session.live.announce(OUTBOX, 8)
        await pilot.pause()
        heard = [m for m in listening.heard if m.topic == OUTBOX]
        assert [m.of(OUTBOX) for m in heard] == [7, 8]
        assert all(isinstance(m.topic, TopicKey) for m in listening.heard)
        assert heard[0].of(INBOX) is None

        # a modal without live topics over it: nothing is posted to it, nor to the screens
        # under it
        plain: ModalScreen[None] = ModalScreen()
        await app.push_screen(plain)
        await pilot.pause()
        listening.heard.clear()
        dispatched.clear()
        session.live.announce(OUTBOX, 9)
        await pilot.pause()
        assert listening.heard == [] and dispatched == []
        app.pop_screen()
        await pilot.pause()

        # a bug in the handler: logged with its traceback, said once in one line (a topic
        # may change every few seconds), and the console goes on hearing changes
        caplog.set_level(logging.ERROR, logger="frontdesk.tui.workers")
        listening.failing = True
        before = len(said(app))
        session.live.announce(OUTBOX, 10)
        session.live.announce(OUTBOX, 11)
        await pilot.pause()
        assert app.is_running and app.return_code is None
        assert [m.of(OUTBOX) for m in listening.heard][-2:] == [10, 11]
        new = said(app)[before:]
        assert len(new) == 1, new
        line = new[0]
        assert line.startswith("Could not show the change of outbox (Listening): Boom: the "
                               "count"), line
        assert line.endswith("— the details are in the log.")
        assert "\n" not in line and "\x1b" not in line and "Traceback" not in line
        records = [r for r in caplog.records if r.name == "frontdesk.tui.workers"]
        assert len(records) == 2 and all(r.exc_info and r.exc_info[0] is Boom
                                         for r in records)
        listening.failing = False
        session.live.announce(OUTBOX, 12)
        await pilot.pause()
        assert listening.heard[-1].of(OUTBOX) == 12
        assert len(said(app)) == before + 1
