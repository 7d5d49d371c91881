"""My own presence, as the header shows it, costs little while nothing changes it: it is read
once every :data:`~frontdesk.store.presence.MY_PRESENCE_EVERY` seconds, at once after I change
it here, and a change made by someone else (a supervisor, the service) is shown within that
bound.

One Session against the sandbox on the virtual clock of ``tests/virtual_time.py`` (its polls,
its pacer and the sandbox's clock move together): a minute of polling takes a few real
seconds, while every request is real HTTP. Requests are counted with an httpx2 event hook.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import httpx2
import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.presence import MY_PRESENCE_EVERY
from frontdesk.store.session import Session
from frontdesk.store.topics import MY_PRESENCE
from virtual_time import VirtualTime


@dataclass
class Console:
    """A signed-in session on virtual time, and the presence reads it made."""

    session: Session
    time: VirtualTime
    reads: list[float]

    def shows(self, channel: str) -> bool:
        """Whether the header's presence says I work on ``channel``."""
        return self.session.presence.working(channel)


@pytest.fixture
async def console(sandbox: SandboxServer, tmp_path: Path) -> AsyncIterator[Console]:
    """The demo agent signed in, its header's topics read once; the inbox not watched (its
    polls pause), so that only the header's topics poll."""
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    start = clock.now()
    time = VirtualTime(sandbox, lambda seconds: clock.set(start + timedelta(seconds=seconds)))
    client = time.client(sandbox)
    found = Console(Session(client=client, local=LocalStore(tmp_path / "console.db"),
                            settings=Settings(), profile="presence",
                            identity=DEMO_AGENT_EMAIL), time, [])

    async def on_request(request: httpx2.Request) -> None:
        if request.method == "GET" and request.url.path.endswith("/presence"):
            found.reads.append(time.now)

    client._http.event_hooks["request"].append(on_request)
    session = found.session
    session.live = LiveStore(clock=time.clock, sleep=time.sleep)
    session.wall = lambda: start + timedelta(seconds=time.now)
    try:
        await time.run(session.start())
        topic = session.live.topic(MY_PRESENCE)
        assert topic is not None
        topic.fetch = time.watch_fetch(MY_PRESENCE, topic.fetch)
        await time.until(lambda: session.presence.current is not None)
        yield found
    finally:
        await session.close()


async def _supervisor_sets(sandbox: SandboxServer, agent_id: str, channel: str,
                           working: bool) -> None:
    """Someone else (a supervisor's console, a rule) turns a channel of mine on or off."""
    other = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    try:
        await other.agents.set_working_channel(agent_id, channel, working)
    finally:
        await other.aclose()


async def test_my_presence_is_read_rarely_while_nothing_changes_it(console: Console) -> None:
    before = len(console.reads)
    await console.time.advance(60)
    # once every MY_PRESENCE_EVERY seconds (every 5 s before: twelve a minute)
    assert len(console.reads) - before <= 60 / MY_PRESENCE_EVERY + 1, console.reads


async def test_a_change_by_someone_else_is_shown_within_the_bound(
        console: Console, sandbox: SandboxServer) -> None:
    session = console.session
    me = session.me_id
    assert me
    working = not console.shows("Speak")
    await console.time.advance(1)  # a moment after a read: the longest wait for the next
    await _supervisor_sets(sandbox, me, "Speak", working)
    await console.time.advance(MY_PRESENCE_EVERY)
    assert console.shows("Speak") is working


async def test_a_change_of_my_own_is_shown_at_once(console: Console) -> None:
    working = not console.shows("Email")
    reads = len(console.reads)
    await console.time.run(console.session.presence.set_channel("Email", working))
    assert console.shows("Email") is working  # read again at once, no time passed
    assert len(console.reads) == reads + 1
