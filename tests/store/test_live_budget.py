"""One console's steady requests stay within the service's patience: ≤ 1 request a second, and
never a 429 under the service's budget of 10 requests a second (burst 4).

One Session with the default pacer against ``limited_sandbox`` (the sandbox enforcing the
budget) watches the inbox, an open thread, my presence, the queues and the business hours.
The LiveStore's polls, the pacer and the sandbox's budget run on one virtual clock
(tests/virtual_time.py): the test moves time on sleeper by sleeper, waiting for every request
to be answered before the next, so a minute of polling takes a few real seconds and a second
of the budget is a virtual second, while the HTTP requests are all real. Requests are counted
with an httpx2 event hook on the client's own connection pool.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import httpx2
import pytest

from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.live import LiveStore
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from virtual_time import VirtualTime

#: The steady budget: one request a second.
BUDGET_PER_MINUTE = 60


def instrument(live: LiveStore, time: VirtualTime, names: tuple[str, ...]) -> None:
    """Count fetches in flight, so time moves on only when their work is done."""
    for name in names:
        topic = live.topic(name)
        assert topic is not None, name
        topic.fetch = time.watch_fetch(name, topic.fetch)


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
    time = VirtualTime(sandbox, lambda seconds: clock.set(start + timedelta(seconds=seconds)))
    client = time.client(sandbox)  # the default pacer (10/s, burst 4, a reserve) on virtual time
    requests: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    counting = False

    async def on_request(request: httpx2.Request) -> None:
        if counting:
            parts = ["{id}" if part.isdigit() or len(part) == 36 else part
                     for part in request.url.path.split("/")]
            requests[request.method + " " + "/".join(parts)] += 1

    async def on_response(response: httpx2.Response) -> None:
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
        await time.run(session.start())
        live = session.live

        def header_fetched() -> bool:  # the header's topics have had their first fetch
            header = [live.topic(name) for name in ("presence:me", "hours")]
            return all(t is not None and t.fetched_at is not None for t in header)

        await time.until(header_fetched)
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
            await time.run(queues.follow(waiting[0]["id"]))

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


async def test_an_agent_watching_everything_polls_at_most_one_request_a_second(
        limited_sandbox: SandboxServer, tmp_path: Path) -> None:
    measured = await measure(limited_sandbox, tmp_path,
                             ("inbox", "thread", "presence:me", "queues", "hours"))
    assert measured.statuses[429] == 0, f"429 seen: {dict(measured.statuses)}"
    polls = measured.polls
    assert polls["inbox"] >= 11 and polls["thread"] >= 19 and polls["queues"] >= 5, \
        measured.report()
    assert measured.total <= BUDGET_PER_MINUTE, measured.report()
    print(measured.report())


@pytest.mark.parametrize("topics", [
    ("queues", "position", "presence:me", "hours"),
    ("team:presence", "team:list", "team:load", "presence:me", "hours"),
], ids=["queues-mode", "team-mode"])
async def test_queues_and_team_modes_poll_at_most_one_request_a_second(
        limited_sandbox: SandboxServer, tmp_path: Path, topics: tuple[str, ...]) -> None:
    measured = await measure(limited_sandbox, tmp_path, topics)
    assert measured.statuses[429] == 0, f"429 seen: {dict(measured.statuses)}"
    assert measured.total <= BUDGET_PER_MINUTE, measured.report()
    assert all(count >= 1 for count in measured.polls.values()), measured.report()
    print(measured.report())
