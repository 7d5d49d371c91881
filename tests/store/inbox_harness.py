"""An inbox against the sandbox without a console, for the tests of what it reads: a signed-in
session whose polls run only when the test asks, on the sandbox's (manual) clock, every
request it makes noted.

The rows on screen are told as the inbox screen tells them; time moves for the service and
the console together when the test moves it, and never by itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.inbox import SLACK, InboxStore
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import HOURS, INBOX

__all__ = ["Console", "filled_console", "http", "service_client"]


async def _no_timer(delay: float) -> None:
    """Polls run only when the test asks."""
    await asyncio.get_running_loop().create_future()


@dataclass
class Console:
    """A signed-in session whose inbox is filled, and the requests it made."""

    session: Session
    clock: ManualClock
    requests: list[tuple[str, str]] = field(default_factory=list)

    @property
    def inbox(self) -> InboxStore:
        return self.session.inbox

    async def settled(self) -> list[tuple[str, str]]:
        """Poll until the inbox has nothing left to read; the requests those polls made."""
        before = len(self.requests)
        for _ in range(60):
            await self.session.live.refresh(INBOX)
            if self.inbox.filled and self.inbox.settled:
                return self.requests[before:]
        raise AssertionError("the inbox never settled")

    async def later(self, seconds: float) -> list[tuple[str, str]]:
        """Time goes on (the service's and the console's); one poll, then until settled."""
        self.clock.advance(seconds)
        return await self.settled()


@asynccontextmanager
async def service_client(sandbox: SandboxServer) -> AsyncIterator[httpx2.AsyncClient]:
    """The service's API as anyone else (a colleague, a customer) uses it."""
    async with httpx2.AsyncClient(base_url=sandbox.base_url,
                                 headers={"Authorization": sandbox.key}, timeout=60) as client:
        yield client


@pytest.fixture
async def http(sandbox: SandboxServer) -> AsyncIterator[httpx2.AsyncClient]:
    """The service's API as anyone else (a colleague, a customer) uses it: a fixture for a
    test module to take as its own (``http = inbox_harness.http``)."""
    async with service_client(sandbox) as client:
        yield client


@asynccontextmanager
async def filled_console(sandbox: SandboxServer, folder: Path, *,
                         searching: bool = False) -> AsyncIterator[Console]:
    """The demo agent's first start (its local store in ``folder``), filled, nothing on
    screen, the first fill's overlap over. It learns what changed from the organisation's
    activity log, as the service's key may; ``searching``: from the search for activity,
    as a role without the log does."""
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(folder / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    session.wall = clock.now  # the console's clock is the service's
    session.live = LiveStore(sleep=_no_timer)
    found = Console(session, clock)
    if searching:
        session.inbox.log_available = False

    async def on_request(request: httpx2.Request) -> None:
        found.requests.append((request.method, request.url.path))

    client._http.event_hooks["request"].append(on_request)
    try:
        await session.start()
        await session.live.refresh(HOURS)  # the service's clock measured
        await found.settled()
        await found.later(2 * SLACK.total_seconds())  # the first fill's overlap is over
        yield found
    finally:
        await session.close()


#: what the inbox asks to learn what changed: the activity log, or the search for activity
CHANGE_READS = ("/v1/conversations/activitylog", "/v1/search/conversations")


def change_reads(requests: list[tuple[str, str]]) -> int:
    """How many of ``requests`` asked what changed (the log, or a search)."""
    return sum(1 for _, path in requests if path in CHANGE_READS)

