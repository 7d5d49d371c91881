"""Pacing: every request waits for the pacer, at its priority; the default pacer keeps a busy
client inside the service's budget, and what the user asked for goes first."""

from __future__ import annotations

import asyncio
import logging

import pytest

from frontdesk.api import ApiClient, Pacer, Priority, RateLimited, RetryPolicy
from frontdesk.sandbox.guard import BURST, RATE
from frontdesk.sandbox.server import SandboxServer
from virtual_time import VirtualTime

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


class RecordingPacer(Pacer):
    """A real pacer that also notes who asked for a token and every penalty."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.asked: list[Priority] = []
        self.penalties: list[float] = []

    async def acquire(self, priority: Priority = Priority.VISIBLE, *, turn: float = 0.0
                      ) -> None:
        self.asked.append(priority)
        await super().acquire(priority, turn=turn)

    def penalise(self, seconds: float) -> None:
        self.penalties.append(seconds)
        super().penalise(seconds)


def statuses(caplog: pytest.LogCaptureFixture) -> list[object]:
    return [getattr(r, "api_status", None) for r in caplog.records if hasattr(r, "api_attempt")]


async def test_every_attempt_waits_for_the_pacer_at_its_priority(sandbox: SandboxServer
                                                                 ) -> None:
    pacer = RecordingPacer(enabled=False)
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=pacer, retry=FAST) as api:
        await api.tags.list()
        await api.queues.list(priority=Priority.BACKGROUND)
        sandbox.faults.fail(503, count=1, path_prefix="/v1/teams")
        await api.teams.list(priority=Priority.VISIBLE)
    assert pacer.asked == [Priority.INTERACTIVE, Priority.BACKGROUND,
                           Priority.VISIBLE, Priority.VISIBLE]


async def test_a_disabled_pacer_never_waits(sandbox: SandboxServer) -> None:
    # A pacer this slow would hold 20 calls for minutes if it were consulted.
    pacer = Pacer(rate=0.01, burst=1, enabled=False)
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=pacer, retry=FAST) as api:
        async with asyncio.timeout(20):
            results = await asyncio.gather(*(api.tags.list() for _ in range(20)))
    assert len(results) == 20


async def test_a_429_penalises_the_pacer(sandbox: SandboxServer) -> None:
    pacer = RecordingPacer()
    sandbox.faults.rate_limit(retry_after=60, count=1, path_prefix="/v1/tags")
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=pacer, retry=FAST) as api:
        with pytest.raises(RateLimited):
            await api.tags.list()
    assert pacer.penalties == [FAST.max_retry_after]  # held back, up to the cap


class GrantingPacer(Pacer):
    """The default pacer on virtual time, noting the moment it hands out each token."""

    def __init__(self, time: VirtualTime) -> None:
        default = time.pacer()
        super().__init__(default.rate, default.burst, clock=time.clock, sleep=time.sleep)
        self.granted: list[float] = []
        self._read = time.clock

    async def acquire(self, priority: Priority = Priority.VISIBLE, *, turn: float = 0.0
                      ) -> None:
        # Nobody waiting and a token in the bucket: granted at once, without yielding.
        now = self._read()
        at_once = (self.waiting == 0 and self.available() >= 1 - 1e-9
                   and not self._penalised(now))
        await super().acquire(priority, turn=turn)
        if at_once:
            self.granted.append(now)

    def _grant_ready(self) -> float | None:
        before = self.waiting
        wait = super()._grant_ready()
        self.granted.extend([self._read()] * (before - self.waiting))
        return wait


def refused_by_the_service(sent: list[float]) -> list[int]:
    """Which of requests sent at ``sent`` the service's own bucket would refuse."""
    tokens, last, refused = BURST, sent[0], []
    for index, at in enumerate(sent):
        tokens = min(BURST, tokens + (at - last) * RATE)
        last = at
        if tokens >= 1.0 - 1e-9:
            tokens -= 1.0
        else:
            refused.append(index)
    return refused


async def test_fifty_concurrent_calls_stay_inside_the_budget(
    limited_sandbox: SandboxServer, caplog: pytest.LogCaptureFixture
) -> None:
    """The pacer lets requests go as the service's bucket allows: the pacer and the service
    count on one virtual clock (tests/virtual_time.py), every call ends answered at once."""
    time = VirtualTime(limited_sandbox)
    pacer = GrantingPacer(time)
    async with ApiClient(limited_sandbox.base_url, limited_sandbox.key, pacer=pacer) as api:
        time.watch(api)
        with caplog.at_level(logging.DEBUG, logger="frontdesk.api"):
            results = await time.run(asyncio.gather(*(
                api.tags.list(priority=Priority.BACKGROUND) for _ in range(50))))
    assert len(results) == 50
    assert len(pacer.granted) == 50
    assert refused_by_the_service(sorted(pacer.granted)) == []
    assert statuses(caplog) == [200] * 50
    assert time.now >= (50 - pacer.burst) / pacer.rate - 1e-9  # paced, not all at once


async def test_an_interactive_call_goes_ahead_of_waiting_background_calls(
    limited_sandbox: SandboxServer,
) -> None:
    finished: list[str] = []
    time = VirtualTime(limited_sandbox)

    async def call(api: ApiClient, name: str, priority: Priority) -> None:
        await api.queues.list(priority=priority)
        finished.append(name)

    async with time.client(limited_sandbox) as api:
        background = [asyncio.create_task(call(api, f"bg{i}", Priority.BACKGROUND))
                      for i in range(20)]
        await asyncio.sleep(0)  # let them all ask the pacer (a yield, not a wait)
        assert api.pacer.waiting >= 15
        await time.run(call(api, "user", Priority.INTERACTIVE))
        await time.run(asyncio.gather(*background))
    assert len(finished) == 21
    assert finished.index("user") < 8  # only the burst (and one more) went before it
