"""Pacing: every request waits for the pacer, at its priority; the default pacer keeps a busy
client inside the service's budget, and what the user asked for goes first."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from frontdesk.api import ApiClient, Pacer, Priority, RateLimited, RetryPolicy
from frontdesk.sandbox.guard import BURST, RATE
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


class RecordingPacer(Pacer):
    """A real pacer that also notes who asked for a token and every penalty."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.asked: list[Priority] = []
        self.penalties: list[float] = []

    async def acquire(self, priority: Priority = Priority.VISIBLE) -> None:
        self.asked.append(priority)
        await super().acquire(priority)

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
    """The default pacer, noting on its own clock the moment it hands out each token (not when
    the caller gets to run: on a busy machine that may be later, for several at once)."""

    def __init__(self) -> None:
        self.now = 0.0
        super().__init__(clock=self._read)
        self.granted: list[float] = []

    def _read(self) -> float:
        self.now = time.monotonic()
        return self.now

    async def acquire(self, priority: Priority = Priority.VISIBLE) -> None:
        # Nobody waiting and a token in the bucket: granted at once, without yielding.
        at_once = (self.waiting == 0 and self.available() >= 1 - 1e-9
                   and not self._penalised(self.now))
        at = self.now
        await super().acquire(priority)
        if at_once:
            self.granted.append(at)

    def _grant_ready(self) -> float | None:
        before = self.waiting
        wait = super()._grant_ready()
        self.granted.extend([self.now] * (before - self.waiting))
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
    """The pacer lets requests go as the service's bucket allows. On a busy machine several
    may still reach the service together (they wait for the loop after their token), so a 429
    is then waited out and retried: every call ends answered, nothing fails."""
    pacer = GrantingPacer()
    async with ApiClient(limited_sandbox.base_url, limited_sandbox.key, pacer=pacer) as api:
        with caplog.at_level(logging.DEBUG, logger="frontdesk.api"):
            results = await asyncio.gather(*(api.tags.list(priority=Priority.BACKGROUND)
                                             for _ in range(50)))
    assert len(results) == 50
    assert len(pacer.granted) >= 46  # the burst of 4 may go out before anyone waits
    assert refused_by_the_service(sorted(pacer.granted)) == []
    assert statuses(caplog).count(200) == 50


async def test_an_interactive_call_goes_ahead_of_waiting_background_calls(
    limited_sandbox: SandboxServer,
) -> None:
    finished: list[str] = []

    async def call(api: ApiClient, name: str, priority: Priority) -> None:
        await api.queues.list(priority=priority)
        finished.append(name)

    async with ApiClient(limited_sandbox.base_url, limited_sandbox.key) as api:
        background = [asyncio.create_task(call(api, f"bg{i}", Priority.BACKGROUND))
                      for i in range(20)]
        await asyncio.sleep(0)  # let them all ask the pacer (a yield, not a wait)
        assert api.pacer.waiting >= 15
        await call(api, "user", Priority.INTERACTIVE)
        await asyncio.gather(*background)
    assert len(finished) == 21
    assert finished.index("user") < 8  # only the burst (and one more) went before it
