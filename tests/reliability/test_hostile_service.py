"""docs/quality.md check 10 at the console (and the "lost connection" and "asks before
quitting" parts of check 9): the service answering garbage or not answering at all, while the
console runs.

The client's own handling of each kind of garbage is ``tests/api/test_client_lenient.py``; here
the whole console (``FrontdeskApp`` on a session) keeps running on the data it has, the status
bar says something is wrong, no crash screen appears, and when the service is well again the
console recovers by itself. Faults come from the sandbox's switches (``faults.garbage``,
``refuse_connections``), never from a mocked transport.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx2
import pytest
from textual.pilot import Pilot

from frontdesk.api.client import ApiClient
from frontdesk.api.errors import ApiError, TransportError
from frontdesk.api.pacing import Pacer
from frontdesk.api.retry import RetryPolicy
from frontdesk.launch import local_store_path
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.faults import Garbage
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import PollSettings, Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.tui import clock
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.widgets.status_bar import StatusBar

SIZE = (120, 32)
#: Every kind of broken answer the sandbox can give.
GARBAGE: tuple[Garbage, ...] = ("html", "truncated", "unknown_type", "wrong_types", "huge",
                                "slow_drip")
REPLY = "Back in a minute, the line is down."
#: Kinds the client cannot read at all (unknown types parse; mistyped items are left out).
UNREADABLE = {"html", "truncated", "huge", "slow_drip"}


#: The tests poll by themselves (``poll``), as the timers would; the timers wait an hour after
#: their first poll, so no request of theirs is under way when a fault is switched on or off.
QUIET = PollSettings(thread=3600, conversations=3600, presence=3600, queues=3600,
                     business_hours=3600)
#: Topics the console polls from the start (the header's, and the inbox's).
STARTED = ("inbox", "presence:me", "hours")


@pytest.fixture
def session(sandbox: SandboxServer) -> Iterator[Session]:
    """A session like the console's, with short timeouts and few retries (so a slow drip or
    a refused connection fails in about a second instead of a minute)."""
    clock.freeze(ManualClock().now())
    client = ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                       pacer=Pacer(enabled=False), timeout=httpx2.Timeout(1.0, connect=1.0),
                       retry=RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.05))
    yield Session(client=client, local=LocalStore(local_store_path("hostile")),
                  settings=Settings(poll=QUIET), profile="hostile", identity=DEMO_AGENT_EMAIL)
    clock.freeze(None)


async def ready(pilot: Pilot[Any]) -> tuple[FrontdeskApp, Session, list[int]]:
    """Signed in, the inbox polled; the rows the inbox shows."""
    app = pilot.app
    assert isinstance(app, FrontdeskApp) and app.session is not None
    await app.workers.wait_for_complete()
    session = app.session
    await session.live.refresh("inbox")
    for _ in range(200):  # until each timer has done its first poll and gone quiet
        topics = [session.live.topic(name) for name in STARTED]
        if all(t is not None and t.fetched_at is not None for t in topics):
            break
        await pilot.pause(0.05)
    else:
        pytest.fail(f"the first polls never ended: {session.live.stats()}")
    await pilot.pause()
    return app, session, shown(app)


def shown(app: FrontdeskApp) -> list[int]:
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    return screen.conversation_list.shown_ids()


def status(app: FrontdeskApp) -> str:
    """The connection part of the status bar, as painted."""
    bar = app.screen.query_one(StatusBar)
    return str(bar.render())


async def poll(pilot: Pilot[Any], session: Session) -> ApiError | None:
    """Poll the inbox now (as its timer would); the error it met, if any."""
    try:
        await session.live.refresh("inbox")
    except ApiError as error:
        return error
    finally:
        await pilot.pause()
    return None


async def failing_poll(pilot: Pilot[Any], session: Session, app: FrontdeskApp,
                       *words: str) -> str:
    """Poll while every request fails until the header says one of ``words``; the header.

    A poll meets the transport's error (or, when the inbox had nothing to ask, none). The
    header follows once the console has handled the connection's change (a message), and a
    request answered before the fault was switched on may still say "live" in between: a
    few polls, each waited out, settle it."""
    errors: list[ApiError | None] = []
    for _ in range(5):
        errors.append(await poll(pilot, session))
        assert all(e is None or isinstance(e, TransportError) for e in errors), errors
        for _ in range(20):
            if any(word in status(app) for word in words) and any(errors):
                return status(app)
            await pilot.pause()
    return status(app)


async def answered_poll(pilot: Pilot[Any], session: Session, app: FrontdeskApp) -> str:
    """Poll once the service answers again, until the header says "live"; the header (a
    request that failed before the fault was switched off may say otherwise in between)."""
    for _ in range(5):
        assert await poll(pilot, session) is None
        for _ in range(20):
            if "live" in status(app):
                return status(app)
            await pilot.pause()
    return status(app)


def assert_alive(app: FrontdeskApp) -> None:
    """Running, on its own screen, no crash recorded."""
    assert app.is_running and app.return_code is None
    assert app._exception is None
    assert isinstance(app.screen, InboxScreen)


async def test_garbage_keeps_the_console_on_its_data_and_it_recovers(
        sandbox: SandboxServer, session: Session) -> None:
    app = FrontdeskApp(session)
    async with app.run_test(size=SIZE) as pilot:
        app, session, rows = await ready(pilot)
        assert rows and "live" in status(app)
        for kind in GARBAGE:
            sandbox.faults.garbage(kind, count=None, seconds=0.2)
            if kind in UNREADABLE:
                header = await failing_poll(pilot, session, app, "retrying", "offline")
                assert "retrying" in header or "offline" in header, (kind, header)
            else:
                await poll(pilot, session)
            # the console runs on what it had: same rows, no crash screen
            assert_alive(app)
            assert shown(app) == rows, kind
            sandbox.faults.clear()
            header = await answered_poll(pilot, session, app)
            assert "live" in header, (kind, header)
            assert shown(app) == rows


async def test_service_down_then_back_and_quitting_asks_about_unsent_replies(
        sandbox: SandboxServer, session: Session) -> None:
    app = FrontdeskApp(session)
    async with app.run_test(size=SIZE) as pilot:
        app, session, rows = await ready(pilot)
        sandbox.refuse_connections()
        try:
            # offline after two failed polls (the topic's own timer may have shared them)
            header = await failing_poll(pilot, session, app, "offline")
            assert "offline" in header, header
            assert_alive(app)
            assert shown(app) == rows  # the cached inbox stays on screen
            # A reply written now waits in the outbox; quitting asks first, and "no" stays.
            chat = next(cid for cid in rows if session.inbox.records[cid].channel == "WidgetChat")
            session.send_reply(chat, REPLY)
            other = next(cid for cid in rows if cid != chat)
            session.local.save_draft(other, "Half a reply")
            await pilot.pause()
            await pilot.press("ctrl+q")
            question = app.screen
            assert isinstance(question, ConfirmScreen)
            assert "still waiting" in question.question
            assert "Your 1 draft is kept too." in question.detail  # said, not left to guess
            session.local.delete_draft(other)
            await pilot.press("n")
            assert_alive(app)
        finally:
            sandbox.accept_connections()
        # Back: the next poll is live again, the outbox sends, quitting no longer asks.
        header = await answered_poll(pilot, session, app)
        assert "live" in header, header
        await session.outbox.flush()
        assert session.outbox.items() == []
        stored = sandbox.query("SELECT count(*) AS n FROM messages WHERE conversation_id = ? "
                               "AND body_text = ?", (chat, REPLY))
        assert stored[0]["n"] == 1
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_the_status_bar_says_the_service_answers_garbage(
        sandbox: SandboxServer, session: Session) -> None:
    app = FrontdeskApp(session)
    async with app.run_test(size=SIZE) as pilot:
        # Unreadable answers are not "offline": the service is there, and the header says
        # what is wrong with it.
        app, session, _rows = await ready(pilot)
        sandbox.faults.garbage("html", count=None)
        for _ in range(2):
            assert await poll(pilot, session) is not None
        sandbox.faults.clear()
        shown_status = status(app)
        assert "offline" not in shown_status, shown_status
        assert "unexpected" in shown_status.lower() or "unreadable" in shown_status.lower()


async def wait_for(pilot: Pilot[Any], what: str, condition: Callable[[], bool],
                   seconds: float = 30.0) -> None:
    """Let the console run until ``condition`` holds (its own timers doing the work: a
    backoff of a few seconds, stretched by a busy machine; the bound only ends a hang)."""
    for _ in range(int(seconds / 0.1)):
        if condition():
            return
        await pilot.pause(0.1)
    pytest.fail(f"the console never got to: {what}")


async def test_the_inbox_polls_by_itself_and_so_recovers_by_itself(
        sandbox: SandboxServer, session: Session) -> None:
    session.settings = Settings(poll=PollSettings(thread=0.2, conversations=0.2,
                                                  presence=0.2, queues=0.2,
                                                  business_hours=0.2))
    app = FrontdeskApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()  # signed in, topics registered
        inbox = session.live.topic("inbox")
        assert inbox is not None
        sandbox.refuse_connections()
        try:
            await wait_for(pilot, "saying the service is away",
                           lambda: "live" not in status(app))
        finally:
            sandbox.accept_connections()
        polls = inbox.polls
        # No key, no explicit refresh: the console's own timers bring it back.
        await wait_for(pilot, "live again, with the inbox polled anew",
                       lambda: "live" in status(app) and inbox.polls >= polls + 2)
        assert_alive(app)
