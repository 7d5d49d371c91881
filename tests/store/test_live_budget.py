"""One console's steady requests stay within the service's patience: ≤ 1 request a second, and
never a 429 under the service's budget of 10 requests a second (burst 4).

One Session with the default pacer against ``limited_sandbox`` (the sandbox enforcing the
budget) watches the inbox, an open thread, my presence, the queues and the business hours.
Its LiveStore runs on virtual time: the test moves time on interval by interval, waiting for
every poll in flight to be answered before the next, so a minute of polling takes a few real
seconds while the HTTP requests, the pacer and the sandbox's budget are all real. Requests
are counted with an httpx event hook on the client's own connection pool.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from frontdesk.api.client import ApiClient
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session

#: The steady budget: one request a second.
BUDGET_PER_MINUTE = 60


class VirtualTime:
    """Sleeps that end only when the test moves time on; ``quiet`` waits out real HTTP."""

    def __init__(self, on_move: Callable[[float], None] | None = None) -> None:
        self._now = 0.0
        self._on_move = on_move
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self.in_flight = 0
        self.flying: Counter[str] = Counter()

    @property
    def now(self) -> float:
        return self._now

    @now.setter
    def now(self, value: float) -> None:
        self._now = value
        if self._on_move is not None:
            self._on_move(value)  # the sandbox's clock moves with the console's

    def clock(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + delay, next(self._order), future))
        await future

    async def quiet(self) -> None:
        """Wait (in real time) until no fetch is in flight and every poll loop waits again."""
        calm = 0
        for _ in range(4000):
            await asyncio.sleep(0.005 if self.in_flight else 0)
            calm = calm + 1 if self.in_flight == 0 else 0
            if calm >= 20:
                return
        raise AssertionError(f"polls did not settle: {+self.flying}")

    async def advance(self, seconds: float) -> None:
        """Move time on, waking each sleeper at its due time and letting its poll finish."""
        target = self.now + seconds
        await self.quiet()
        while self._sleepers and self._sleepers[0][0] <= target:
            due, _, future = heapq.heappop(self._sleepers)
            if future.done():
                continue
            self.now = due
            future.set_result(None)
            await self.quiet()
        self.now = target


def instrument(live: LiveStore, time: VirtualTime, names: tuple[str, ...]) -> None:
    """Count fetches in flight, so time moves on only when the service has answered."""
    for name in names:
        topic = live.topic(name)
        assert topic is not None, name
        fetch = topic.fetch

        async def counted(fetch: Any = fetch, name: str = name) -> Any:
            time.in_flight += 1
            time.flying[name] += 1
            try:
                return await fetch()
            finally:
                time.in_flight -= 1
                time.flying[name] -= 1

        topic.fetch = counted


@dataclass
class Measured:
    """What one minute of steady polling cost."""

    requests: Counter[str]
    statuses: Counter[int]
    polls: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    def report(self) -> str:
        return f"{self.total} requests in 60 s: {dict(self.requests)}; polls {self.polls}"


async def measure(sandbox: SandboxServer, folder: Path, topics: tuple[str, ...]) -> Measured:
    """Sign in, watch ``topics`` (opening a thread and following a position when named),
    let half a minute of virtual time settle the start-up, then count a minute of polling."""
    start = sandbox.clock.now()
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    time = VirtualTime(lambda seconds: clock.set(start + timedelta(seconds=seconds)))
    client = ApiClient(sandbox.base_url, sandbox.key,
                       sandbox.integrations_url)  # the default pacer: 10/s, burst 4
    requests: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    counting = False

    async def on_request(request: httpx.Request) -> None:
        if counting:
            parts = ["{id}" if part.isdigit() or len(part) == 36 else part
                     for part in request.url.path.split("/")]
            requests[request.method + " " + "/".join(parts)] += 1

    async def on_response(response: httpx.Response) -> None:
        statuses[response.status_code] += 1

    http = client._http
    http.event_hooks["request"].append(on_request)
    http.event_hooks["response"].append(on_response)

    session = Session(client=client, local=LocalStore(folder / "console.db"),
                      settings=Settings(), profile="budget", identity=DEMO_AGENT_EMAIL)
    session.live = LiveStore(clock=time.clock, sleep=time.sleep)
    session.wall = lambda: start + timedelta(seconds=time.now)
    # The first inbox poll fetches every conversation of mine and of my queues (two requests
    # each): a start-up fill, not steady polling, and minutes of a 10/s budget. Start from an
    # inbox that has had it; its steady "what changed since" search is what is measured.
    primed = getattr(session.inbox, "_primed", None)
    if isinstance(primed, set):
        primed.update(("mine", "queue"))
    try:
        await session.start()
        live = session.live
        for _ in range(4000):  # the header's topics have had their first fetch (real HTTP)
            header = [live.topic(name) for name in ("presence:me", "hours")]
            if all(t is not None and t.fetched_at is not None for t in header):
                break
            await asyncio.sleep(0.005)
        if "thread" in topics:
            mine = sandbox.query(
                "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = 'Open' "
                "ORDER BY id LIMIT 1", (session.me_id,))
            session.threads.open(mine[0]["id"])
        if "queues" in topics:
            queues = session.queues
        if "team:presence" in topics:
            session.team  # noqa: B018 - made on first use: its topics start
        instrument(live, time, topics)
        for name in topics:
            if name not in ("presence:me", "hours"):  # these two always poll
                live.watch(name)
        if "position" in topics:
            waiting = sandbox.query(
                "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
                "AND queue_id IS NOT NULL ORDER BY queued_at DESC, id DESC LIMIT 1")
            await queues.follow(waiting[0]["id"])

        await time.advance(30)  # sign-in and first fills: not steady yet
        before = {name: live.stats()[name]["polls"] for name in topics}
        counting = True
        await time.advance(60)
        counting = False
        await time.quiet()
        polls = {name: live.stats()[name]["polls"] - before[name] for name in topics}
        return Measured(requests, statuses, polls)
    finally:
        await session.close()


@pytest.mark.slow
async def test_an_agent_watching_everything_polls_at_most_one_request_a_second(
        limited_sandbox: SandboxServer, tmp_path: Path) -> None:
    measured = await measure(limited_sandbox, tmp_path,
                             ("inbox", "thread", "presence:me", "queues", "hours"))
    assert measured.statuses[429] == 0, f"429 seen: {dict(measured.statuses)}"
    polls = measured.polls
    assert polls["inbox"] >= 11 and polls["thread"] >= 19 and polls["queues"] >= 5, \
        measured.report()
    assert measured.total <= BUDGET_PER_MINUTE, measured.report()


@pytest.mark.slow
@pytest.mark.parametrize("topics", [
    ("queues", "position", "presence:me", "hours"),
    ("team:presence", "team:list", "presence:me", "hours"),
], ids=["queues-mode", "team-mode"])
async def test_queues_and_team_modes_poll_at_most_one_request_a_second(
        limited_sandbox: SandboxServer, tmp_path: Path, topics: tuple[str, ...]) -> None:
    measured = await measure(limited_sandbox, tmp_path, topics)
    assert measured.statuses[429] == 0, f"429 seen: {dict(measured.statuses)}"
    assert measured.total <= BUDGET_PER_MINUTE, measured.report()
    assert all(count >= 1 for count in measured.polls.values()), measured.report()
    print(measured.report())
