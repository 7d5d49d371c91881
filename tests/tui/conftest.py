"""Fixtures for console tests: a signed-in session on a real sandbox, and the app around it.

    async def test_something(console):
        app = console.app()
        async with app.run_test(size=(100, 30)) as pilot:
            await console.ready(pilot)      # signed in, directory and inbox loaded
            ...
            rows = console.sandbox.query("SELECT ...")

Snapshot tests start from ``await console.settled(pilot)`` instead: the inbox complete with
its tags and names and every view's count known, nothing in flight, and the polling timers
frozen, so nothing the service says can change the picture while it is taken.

A console starts as a returning agent's does, from a local store already filled from the
seeded organisation (``tests/local_template.py``), while its sandbox is still exactly that
organisation; a test that changes the service first starts from an empty store, and a test of
the first fill itself asks for one: ``console.app(fresh=True)``, ``console.session(fresh=True)``
or ``console.walk(..., fresh=True)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
import unicodedata
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx2
import pytest
from textual import events
from textual.binding import Binding, InvalidBinding
from textual.keys import ASCII_KEY_NAMES, REPLACED_KEYS, key_to_character
from textual.pilot import Pilot
from textual.widgets import Input, TextArea
from textual.worker import WorkerCancelled, WorkerFailed

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.api.tls import shared_tls_context
from frontdesk.launch import local_store_path
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import AlertSettings, ComposeSettings, Settings
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.tui import clock
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from local_template import LocalTemplate
from pilot_waits import busy_nodes

NOW = ManualClock().now()  # the sandbox fixtures' frozen time


class PollTimers:
    """The live store's sleep in console tests: real sleeps until frozen; then no poll timer
    fires again (a poke, a refresh or a newly shown screen still polls)."""

    def __init__(self) -> None:
        self.frozen = False

    async def sleep(self, delay: float) -> None:
        await asyncio.sleep(delay)
        if self.frozen:  # wait until the loop is woken (its sleeper is then cancelled)
            await asyncio.get_running_loop().create_future()


#: a step of a flow walked on one console (see :meth:`Console.walk`)
Step = Callable[[Any, Pilot[Any]], Awaitable[None]]


#: alerts switched off, for the tests that are not about them
QUIET_ALERTS = AlertSettings(assigned=False, reply=False, queue=False, bell=False,
                             desktop="off")


@dataclass
class Console:
    """Builds sessions and apps against one sandbox."""

    sandbox: SandboxServer
    #: a reply leaves at once (no hold for undo) unless a test is about undo send, and work
    #: arriving is told by no toast unless a test is about alerts (another test's notices
    #: and pictures stay its own)
    settings: Settings = field(
        default_factory=lambda: Settings(compose=ComposeSettings(undo_seconds=0),
                                         alerts=QUIET_ALERTS))
    sessions: list[Session] = field(default_factory=list)
    timers: dict[int, PollTimers] = field(default_factory=dict)
    #: the seeded organisation's filled local store (None: every session starts empty)
    template: LocalTemplate | None = None

    def session(self, identity: str = DEMO_AGENT_EMAIL, profile: str = "test", *,
                fresh: bool = False) -> Session:
        """A session signed in (once started) as ``identity``: on a copy of the filled local
        store while the sandbox is still the seeded organisation and the profile has no store
        yet, unless ``fresh`` (an empty store: the first fill is what the test is about)."""
        client = ApiClient(self.sandbox.base_url, self.sandbox.key, self.sandbox.integrations_url,
                           pacer=Pacer(enabled=False))
        path = local_store_path(profile)
        template = None if fresh else self.template
        warm = template is not None and template.lay(path, self.sandbox, identity)
        local = LocalStore(path)
        session = Session(client=client, local=local, settings=self.settings, profile=profile,
                          identity=identity)
        timers = PollTimers()
        session.live = LiveStore(sleep=timers.sleep)
        self.timers[id(session)] = timers
        self.sessions.append(session)
        if warm:
            assert template is not None
            self._check_at_start(session, template)
        return session

    def _check_at_start(self, session: Session, template: LocalTemplate) -> None:
        """Fail a warm session's start when the sandbox changed after the session was made
        (its local store would show the organisation as it was before the change)."""
        start = session.start

        async def checked_start() -> None:
            assert template.fits(self.sandbox), (
                "the sandbox changed after this console's session was made on a filled local "
                "store: change it before console.app(), or pass fresh=True")
            await start()

        session.start = checked_start  # type: ignore[method-assign]

    def app(self, session: Session | None = None, *, fresh: bool = False,
            **options: Any) -> FrontdeskApp:
        """The console on a new session (``fresh``: on an empty local store) or the one
        given."""
        options.setdefault("alerts", self.settings.alerts)
        return FrontdeskApp(session or self.session(fresh=fresh), **options)

    async def customer_writes(self, conversation_id: int, text: str) -> None:
        """A customer's message arrives in a conversation (posted to the service as the
        channel would, not through the console)."""
        async with httpx2.AsyncClient(base_url=self.sandbox.base_url,
                                     headers={"Authorization": self.sandbox.key},
                                     verify=shared_tls_context()) as http:
            said = await http.post(f"/v1/conversations/{conversation_id}/messages", json={
                "_type": "Inbound", "content": {"_type": "Text", "value": text}})
            assert said.status_code < 300, said.text

    async def agent_writes(self, conversation_id: int, agent_id: str, text: str) -> None:
        """An agent's message goes out in a conversation (posted to the service as another
        console would, not through this one)."""
        async with httpx2.AsyncClient(base_url=self.sandbox.base_url,
                                     headers={"Authorization": self.sandbox.key},
                                     verify=shared_tls_context()) as http:
            said = await http.post(f"/v1/conversations/{conversation_id}/messages", json={
                "_type": "Outbound", "agentId": agent_id,
                "content": {"_type": "Text", "value": text}})
            assert said.status_code < 300, said.text

    async def open_thread(self, pilot: Pilot[Any], conversation_id: int) -> ThreadScreen:
        """Open a conversation's thread over whatever is in front and wait until its
        messages are read and shown (one poll of the thread topic)."""
        app = pilot.app
        assert isinstance(app, FrontdeskApp) and app.session is not None
        screen = ThreadScreen(conversation_id)
        await app.push_screen(screen)
        await pilot.pause(0)
        await app.session.live.refresh("thread")
        await pilot.pause(0)
        return screen

    async def ready(self, pilot: Pilot[Any]) -> None:
        """Wait until the session has signed in and the first inbox poll is done."""
        app = pilot.app
        assert isinstance(app, FrontdeskApp)
        await app.workers.wait_for_complete()
        session = app.session
        assert session is not None
        if session.live.topic("inbox") is not None:
            await session.live.refresh("inbox")
        await pilot.pause(0)

    async def burst(self, pilot: Pilot[Any], *keys: str) -> None:
        """Send ``keys`` in one burst, as one read of the terminal brings them (over SSH, a
        paste, a fast typist): every Key event is posted before the app handles any (unlike
        ``pilot.press``, which waits for idle between keys); then wait until the console
        has fallen back to idle."""
        app = pilot.app
        driver = app._driver
        assert driver is not None
        for key in keys:
            event = key_event(key)
            event.set_sender(app)
            driver.send_message(event)
        await self.idle(pilot)

    async def idle(self, pilot: Pilot[Any], rounds: int = 20) -> None:
        """Wait until every message queue of the console is empty, no key of a burst is held
        and no worker runs; fails when that does not happen in ten times ``rounds`` pauses (a
        screen reacting to its own changes forever never gets there)."""
        app = pilot.app

        def quiet() -> bool:  # keys of a burst still held count as work to do
            return not busy_nodes(app) and not getattr(app, "keys_waiting", 0)

        for _ in range(rounds * 10):
            await pilot.pause(0)  # the screen has handled what it was sent
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await app.workers.wait_for_complete()
            if quiet():
                await pilot.pause(0)
                if quiet():
                    return
            await pilot.pause()  # still busy (keys held until a screen is up): let it work
        raise AssertionError(f"the console never fell back to idle: {busy_nodes(app)}, "
                             f"{getattr(app, 'keys_waiting', 0)} keys waiting"
                             + _keys_state(app))

    async def home(self, pilot: Pilot[Any]) -> None:
        """Close every screen above the current mode's own (a thread, a modal, a picker) and
        wait until the console is idle: the next step of a flow starts where a fresh console
        would, without paying the sign-in again."""
        app = pilot.app
        while len(app.screen_stack) > 1:
            await app.pop_screen()
            await pilot.pause(0)
        await self.idle(pilot)

    async def fresh_inbox(self, pilot: Pilot[Any]) -> None:
        """Back to what the inbox shows once signed in: no filter, the Mine view, its first
        row, the list focused (a flow's ``between``, after :meth:`home`)."""
        screen = pilot.app.screen
        assert isinstance(screen, InboxScreen)
        screen.action_clear()
        screen.show_view("mine")
        screen.conversation_list.action_cursor_first()
        screen.conversation_list.focus()
        await pilot.pause(0)

    async def walk(self, size: tuple[int, int], *steps: Step,
                   start: Callable[[Pilot[Any]], Awaitable[None]] | None = None,
                   between: Callable[[Pilot[Any]], Awaitable[None]] | None = None,
                   fresh: bool = False) -> None:
        """One console for a whole flow: sign in once (``start``, by default :meth:`ready`),
        then run each step; after each, every screen above the mode's own is closed, every
        fault switched off, and ``between`` puts back what a fresh console shows (a view, a
        cursor). A step is ``async def step(console, pilot)``: what was a test of its own,
        without paying the sign-in again."""
        app = self.app(fresh=fresh)
        async with app.run_test(size=size) as pilot:
            await (start or self.ready)(pilot)
            for step in steps:
                await step(self, pilot)
                self.sandbox.faults.clear()
                await self.home(pilot)
                if between is not None:
                    await between(pilot)

    async def settled(self, pilot: Pilot[Any]) -> None:
        """Wait until the inbox is complete (every wanted record, tag and name fetched, the
        Needs reply and Closed counts known), the header's topics read and no worker running;
        then freeze the poll timers."""
        await self.ready(pilot)
        app = pilot.app
        assert isinstance(app, FrontdeskApp) and app.session is not None
        session = app.session
        live, inbox = session.live, session.inbox
        # the service's clock first: the Closed view's window and the read floor are set by it
        await live.refresh("hours")
        for _ in range(500):
            version = inbox.version
            await app.workers.wait_for_complete()
            await live.refresh("inbox")
            await pilot.pause(0)
            # Conversations with recent activity are read again for a few seconds, and their
            # tags with them: wait for the tags of every row on screen, not for an empty
            # re-read list (the others' are read once they are shown).
            # The Closed view is read from the service after the first fill, and the Needs
            # reply count follows the turns: both counts known, or a picture shows "…" or
            # a count caught half-way.
            complete = (inbox.filled and inbox.settled and not session.directory._pending
                        and inbox.on_screen_settled
                        and all(cid in inbox.tags for cid in inbox.shown)
                        and inbox.turns_known
                        and (inbox.closed_known or not session.me_id))
            if complete and inbox.version == version:
                break
        else:
            raise AssertionError("the inbox never came complete")
        self.timers[id(session)].frozen = True
        await live.refresh("presence:me")
        await live.refresh("hours")
        await app.workers.wait_for_complete()
        await pilot.pause(0)


def _keys_state(app: Any) -> str:
    """Where the keys of a burst stand (the key in flight and for how long, or whether the
    keys are settling), for a failure's message."""
    if not getattr(app, "keys_waiting", 0):
        return ""
    flight = getattr(app, "_key_in_flight", None)
    since = time.monotonic() - getattr(app, "_key_since", time.monotonic())
    where = "settling" if flight is None else f"{flight.key!r} in flight"
    screen = type(app.screen).__name__ if app.screen_stack else None
    return f" ({where} for {since:.1f} s, on {screen})"


def key_event(key: str) -> events.Key:
    """The Key event the terminal driver makes of ``key`` (a key name or one character),
    named through Textual's public ways: a character's key as a binding of it is named (the
    comma and the space, which separate a binding's keys, by hand), a key's character as
    Textual's ``key_to_character`` gives it (``slash`` by its Unicode name, ``solidus``)."""
    if len(key) == 1:  # a character: the driver keeps it as it came
        return events.Key(character_key(key), key)
    return events.Key(key, key_to_character(REPLACED_KEYS.get(key, key)))


def character_key(character: str) -> str:
    """The key Textual names ``character`` by (``?`` is ``question_mark``)."""
    if character.isalnum():
        return character
    named = {",": "comma", " ": "space", **ASCII_KEY_NAMES}.get(character)
    if named is not None:
        return named
    try:
        return next(iter(Binding.make_bindings([(character, "")]))).key
    except InvalidBinding:  # a blank that is not a space: its Unicode name, as Textual does
        return unicodedata.name(character, character).lower().replace("-", "_").replace(" ", "_")


async def hold_still(pilot: Pilot[Any]) -> None:
    """Stop every text cursor on screen blinking and let every animation (a scroll to the
    end) finish: a blink or a scroll in flight would show in one picture and not the next."""
    screen = pilot.app.screen
    for box in screen.query(Input):
        box.cursor_blink = False
    for area in screen.query(TextArea):
        area.cursor_blink = False
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


@pytest.fixture
def snap_compare(snap_compare: Callable[..., bool]) -> Callable[..., bool]:
    """pytest-textual-snapshot's comparison, with the text cursors and animations held still
    before the picture is taken (after ``run_before``)."""

    def compare(app: Any, *args: Any, run_before: Callable[[Pilot[Any]], Any] | None = None,
                **kwargs: Any) -> bool:
        async def before(pilot: Pilot[Any]) -> None:
            if run_before is not None:
                result = run_before(pilot)
                if inspect.isawaitable(result):
                    await result
            await hold_still(pilot)

        return snap_compare(app, *args, run_before=before, **kwargs)

    return compare


@pytest.fixture
def console(sandbox: SandboxServer, local_template: LocalTemplate) -> Iterator[Console]:
    """Sessions and apps on the seeded sandbox, with the console's clock frozen at NOW; a
    session starts on a copy of the filled local store where it may (see Console.session)."""
    clock.freeze(NOW)
    yield Console(sandbox, template=local_template)
    clock.freeze(None)
