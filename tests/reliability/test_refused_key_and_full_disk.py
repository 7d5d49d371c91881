"""A key the service refuses and a disk that cannot be written, while the console runs.

The whole console (``FrontdeskApp`` on a session built as ``launch.run_console`` builds it, with
a key read again from a key file) against a real sandbox: the sandbox revokes the key
(``SandboxServer.set_keys``), and the local store's disk fills up: the console's store is a
:class:`full_disk.FullDiskStore`, whose every write fails with SQLite's own "database or disk is
full" while its disk is full (SQLITE_FULL from a real limit is
``tests/store/test_local.py::test_a_really_full_database_is_a_write_error``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from frontdesk.api.errors import ApiError
from frontdesk.api.pacing import Pacer
from frontdesk.launch import Target, local_store_path
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer, new_key
from frontdesk.settings import PollSettings, RateSettings, Settings, read_key_file, write_key_file
from frontdesk.store.connection import Link
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.tui import clock
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.widgets.composer import Composer
from frontdesk.tui.widgets.status_bar import StatusBar
from full_disk import FullDiskStore

SIZE = (120, 32)
REPLY = "Written while the key was refused."
#: The timers poll once, then wait an hour: the test polls by itself, as they would.
QUIET = PollSettings(thread=3600, conversations=3600, presence=3600, queues=3600,
                     business_hours=3600)


@pytest.fixture
def key_file(sandbox: SandboxServer, tmp_path: Path) -> Path:
    """The key, kept in a 0600 key file as a profile with ``key_source = "file"`` keeps it."""
    path = tmp_path / "work.key"
    write_key_file(path, sandbox.key)
    return path


@pytest.fixture
def local() -> Iterator[FullDiskStore]:
    """The console's local store, on a disk a test can fill (and empty again)."""
    with FullDiskStore(local_store_path("work")) as store:
        yield store


@pytest.fixture
def session(sandbox: SandboxServer, key_file: Path, local: FullDiskStore) -> Iterator[Session]:
    """A session built like the console's: it reads the key file again when refused."""
    from frontdesk.api.client import ApiClient

    clock.freeze(ManualClock().now())
    target = Target("work", sandbox.base_url, sandbox.integrations_url,
                    read_key_file(key_file), DEMO_AGENT_EMAIL,
                    reread=lambda: read_key_file(key_file))
    client = ApiClient(target.base_url, target.api_key(), target.integrations_url,
                       pacer=Pacer(enabled=False))
    yield Session(client=client, local=local,
                  settings=Settings(poll=QUIET), profile="work", identity=DEMO_AGENT_EMAIL,
                  new_key=target.fresh_key)
    clock.freeze(None)


def header(app: FrontdeskApp) -> str:
    """The status bar as painted."""
    return str(app.screen.query_one(StatusBar).render())


async def settle(pilot: Pilot[Any], session: Session) -> None:
    """Everything started has finished: the sign-in worker, a key pick-up, a repaint."""
    for _ in range(100):  # the session starts once the first frame is painted
        if session.started:
            break
        await pilot.pause()
    with contextlib.suppress(WorkerCancelled):  # one replaced by a newer one: settled too
        await pilot.app.workers.wait_for_complete()
    task = session._rekeying
    if task is not None:
        await task
    await pilot.pause()


async def poll(pilot: Pilot[Any], session: Session, topic: str = "inbox") -> None:
    """Poll ``topic`` now, as its timer would (its error is the header's business)."""
    with contextlib.suppress(ApiError):
        await session.live.refresh(topic)
    await settle(pilot, session)


async def test_a_refused_key_is_said_and_a_new_key_is_picked_up_without_a_restart(
        sandbox: SandboxServer, session: Session, key_file: Path) -> None:
    app = FrontdeskApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        await poll(pilot, session)
        assert "● live" in header(app)
        # The key is revoked mid-session: the header says so, and what fixes it.
        replacement = new_key()
        sandbox.set_keys([replacement])
        for topic in ("inbox", "presence:me", "hours", "inbox"):
            await poll(pilot, session, topic)
            said = header(app)
            assert "key refused — run `frontdesk login`" in said, said
            assert "live" not in said and "unreachable" not in said and "retrying" not in said
        assert app._exception is None and app.is_running
        # A reply written meanwhile waits in the outbox (the key is refused, not the reply).
        chat = next(cid for cid in session.inbox.rows
                    if session.inbox.records[cid].channel == "WidgetChat")
        session.send_reply(chat, REPLY)
        await session.outbox.flush()
        assert [item.state for item in session.outbox.items()] == ["pending"]
        # `frontdesk login` in another terminal writes the new key: the next refusal finds it.
        write_key_file(key_file, replacement)
        await poll(pilot, session)
        await poll(pilot, session)
        assert "● live" in header(app), header(app)
        assert session.client.key.reveal() == replacement
        for _ in range(50):  # the store's notice reaches the screen as a message
            if any("new API key" in n.message for n in app._notifications):
                break
            await pilot.pause()
        assert any("new API key" in n.message for n in app._notifications)
        await session.outbox.flush()
        assert session.outbox.items() == []
        sent = sandbox.query("SELECT count(*) AS n FROM messages WHERE conversation_id = ? "
                             "AND body_text = ?", (chat, REPLY))
        assert sent[0]["n"] == 1


async def test_a_full_disk_is_said_quitting_asks_and_it_recovers(
        sandbox: SandboxServer, session: Session, local: FullDiskStore) -> None:
    local.full = True  # the console starts on a full disk
    app = FrontdeskApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        await poll(pilot, session)
        said = header(app)
        assert "● live" in said and "disk full — not saving" in said, said  # not "connecting"
        rows = list(session.inbox.rows)
        assert rows, "the inbox fills although nothing can be cached"
        # A draft typed now cannot be kept: it is said, and ctrl+q asks before losing it.
        chat = next(cid for cid in rows if session.inbox.records[cid].channel == "WidgetChat")
        screen = app.screen
        app.push_screen(ThreadScreen(chat))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, ThreadScreen) and app.screen is not screen
        app.screen.query_one(Composer).focus_editor()
        await pilot.press(*"unsaved words")
        await pilot.pause()
        assert session.local.unsaved_drafts == {chat}
        assert any("cannot be written" in n.message or "cannot be saved" in n.message
                   for n in app._notifications)
        await pilot.press("ctrl+q")
        await pilot.pause()
        question = app.screen
        assert isinstance(question, ConfirmScreen), question
        assert "not saved (disk full)" in question.question
        await pilot.press("n")
        await pilot.pause()
        assert app.is_running and app._exception is None
        # Space returns: the next keystroke saves the draft, the header clears by itself.
        local.full = False
        await pilot.press("!")
        await pilot.pause()
        draft = session.local.draft(chat)
        assert draft is not None and draft.text == "unsaved words!"
        assert session.local.unsaved_drafts == set()
        assert "disk full" not in header(app)
        # Full again, and this time the person chooses to quit: it ends cleanly.
        local.full = True
        await pilot.press("?")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
    assert app.return_code in (0, None) and app._exception is None
    with LocalStore(local_store_path("work")) as kept:
        assert kept.draft(chat) is not None  # what was saved before stays


async def test_signed_out_for_want_of_a_key_signs_in_once_it_is_there(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    from frontdesk.launch import connect

    key_file = tmp_path / "later.key"  # `frontdesk login` has not written it yet
    target = Target("later", sandbox.base_url, sandbox.integrations_url, None,
                    DEMO_AGENT_EMAIL, read_key=lambda: read_key_file(key_file))
    # connected as the console connects, paced far above the sandbox's (unlimited) budget
    settings = Settings(poll=QUIET, rate=RateSettings(rate=10_000, burst=1_000))
    session = Session(connect=lambda: connect(target, settings),
                      local=LocalStore(local_store_path("later")), settings=settings,
                      profile="later", identity=DEMO_AGENT_EMAIL, new_key=target.fresh_key)
    clock.freeze(ManualClock().now())
    try:
        app = FrontdeskApp(session)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(200):  # until signing in has given up
                if session.live.connection.link is not Link.CONNECTING:
                    break
                await pilot.pause()
            await settle(pilot, session)
            assert "signed out — no API key" in header(app)
            assert not await session.sign_in_again()  # still none: still signed out
            assert "signed out — no API key" in header(app)
            write_key_file(key_file, sandbox.key)
            assert await session.sign_in_again()  # as its timer would, every few seconds
            await poll(pilot, session)
            assert "● live" in header(app), header(app)
            assert session.me is not None and session.me.email == DEMO_AGENT_EMAIL
            assert session.inbox.rows
    finally:
        clock.freeze(None)
