"""A base URL that does not lead to the service (a path too many: ``…/v1``): the console says
so in its header and in one line, and never claims to be live over an empty inbox."""

from __future__ import annotations

import contextlib
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Label

from frontdesk.api.client import ApiClient
from frontdesk.api.errors import ApiError
from frontdesk.api.pacing import Pacer
from frontdesk.launch import local_store_path
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.settings import PollSettings, Settings
from frontdesk.store.connection import Link
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.widgets.status_bar import StatusBar

#: The timers poll once, then wait an hour: the test polls by itself, as they would.
QUIET = PollSettings(thread=3600, conversations=3600, presence=3600, queues=3600,
                     business_hours=3600)


def _header(app: FrontdeskApp) -> str:
    return str(app.screen.query_one(StatusBar).render())


async def _poll(pilot: Pilot[Any], session: Session, topic: str) -> None:
    """Poll ``topic`` now, as its timer would (its error is the header's business)."""
    with contextlib.suppress(ApiError):
        await session.live.refresh(topic)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def _said(pilot: Pilot[Any], words: str) -> list[str]:
    """The notices shown so far that contain ``words`` (waiting for the first to arrive)."""
    app = pilot.app
    for _ in range(50):
        found = [n.message for n in app._notifications if words in n.message]
        if found:
            return found
        await pilot.pause()
    return []


async def test_a_wrong_base_url_is_said_in_the_header_and_in_one_line(console: Any) -> None:
    url = console.sandbox.base_url + "/v1"
    client = ApiClient(url, console.sandbox.key, None, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(local_store_path("wrong-url")),
                      settings=Settings(poll=QUIET), profile="wrong-url",
                      identity=DEMO_AGENT_EMAIL)
    app = FrontdeskApp(session)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(100):  # the session starts once the first frame is painted
            if session.started:
                break
            await pilot.pause()
        await app.workers.wait_for_complete()
        line = f"No Conversation Service at {url} (it answered 404 to GET /v1/agents): " \
            "check the address."
        assert await _said(pilot, "No Conversation Service") == [line]
        assert not [n for n in app._notifications if "No such route" in n.message]  # once
        # Every topic polls (the ones with nothing to ask answer at once): never "live".
        for topic in ("inbox", "presence:me", "hours", "inbox", "presence:me"):
            await _poll(pilot, session, topic)
            header = _header(app)
            assert "no service at this address" in header, header
            assert "live" not in header, header
        assert session.live.connection.link is Link.NO_SERVICE
        # Opening a conversation by its number says why it cannot, in one line.
        await console.burst(pilot, "o", "7", "7", "7", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        hint = str(app.screen.query_one("#open-hint", Label).render())
        assert hint == line, hint
        assert app._exception is None and app.is_running
