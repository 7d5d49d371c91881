"""Virtual time for tests of what paces and polls: a sleep ends when the test moves time on.

The client's pacer (``clock``/``sleep``), the live store's polls (``clock``/``sleep``) and the
sandbox's rate budget (``SandboxContext.rate_clock``) all read the one clock here, so "ten
requests a second" is counted per virtual second while every request is real HTTP over
loopback. Time moves only when nothing real is under way: no call of a watched client is
between its token and its answer, and no watched fetch does anything but wait for a token.
It models a service that answers at once, so a minute of steady polling costs only the real
time of its requests, and no wait in a test depends on how busy the machine is.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from frontdesk.api.client import ApiClient, default_pacer
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.server import SandboxServer

__all__ = ["VirtualTime"]

T = TypeVar("T")

#: Turns of the event loop with nothing real under way before time may move: enough for a
#: token's holder, a finished fetch's follow-up or a woken poll to reach its next wait.
CALM_TURNS = 20
#: Real seconds to wait for the real part (HTTP, a thread) before calling it a hang: a guard
#: on a machine busy with other work, never a bound on speed.
PATIENCE = 120.0


class VirtualTime:
    """One virtual clock (seconds from 0) with sleeps that end as the test moves it on.

    ``sandbox``, when given, counts its rate budget on this clock (set before its first
    request); ``on_move`` hears every move (to move the sandbox's ``ManualClock`` along).
    """

    def __init__(self, sandbox: SandboxServer | None = None,
                 on_move: Callable[[float], None] | None = None) -> None:
        self._now = 0.0
        self._on_move = on_move
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._pacers: list[Pacer] = []
        #: calls of watched clients under way (waiting for a token included)
        self.calls = 0
        #: watched fetches under way, by name
        self.flying: Counter[str] = Counter()
        if sandbox is not None:
            sandbox.ctx.rate_clock = self.clock

    # ------------------------------------------------------------------ the clock

    @property
    def now(self) -> float:
        """Virtual seconds since the start."""
        return self._now

    def clock(self) -> float:
        """The clock to inject (``clock=``)."""
        return self._now

    async def sleep(self, delay: float) -> None:
        """The sleep to inject (``sleep=``): ends when time has moved ``delay`` on."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + delay, next(self._order), future))
        await future

    def _move(self, value: float) -> None:
        self._now = value
        if self._on_move is not None:
            self._on_move(value)

    # ------------------------------------------------------------------ what it watches

    def pacer(self) -> Pacer:
        """The default pacer (the service's budget with its reserve), on this clock."""
        default = default_pacer()
        return Pacer(default.rate, default.burst, clock=self.clock, sleep=self.sleep)

    def client(self, sandbox: SandboxServer) -> ApiClient:
        """A client of ``sandbox`` with :meth:`pacer`, watched."""
        client = ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                           pacer=self.pacer())
        self.watch(client)
        return client

    def watch(self, client: ApiClient) -> None:
        """Count ``client``'s calls under way; its pacer must run on this clock."""
        transport = client._transport
        send = transport.send

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            try:
                return await send(*args, **kwargs)
            finally:
                self.calls -= 1

        transport.send = counted  # type: ignore[method-assign]
        self._pacers.append(client.pacer)

    def watch_fetch(self, name: str, fetch: Callable[[], Awaitable[T]]
                    ) -> Callable[[], Awaitable[T]]:
        """``fetch`` counted while under way: its work beyond HTTP (the local store) is real."""

        async def counted() -> T:
            self.flying[name] += 1
            try:
                return await fetch()
            finally:
                self.flying[name] -= 1

        return counted

    # ------------------------------------------------------------------ moving on

    def _waiting(self) -> int:
        return sum(pacer.waiting for pacer in self._pacers)

    def busy(self) -> bool:
        """Whether something real is under way: a call holding a token (or between its
        attempts), or a fetch doing more than waiting for one."""
        waiting = self._waiting()
        return self.calls > waiting or sum(self.flying.values()) > waiting

    async def quiet(self, done: Callable[[], bool] = lambda: False) -> None:
        """Wait (in real time) until nothing real is under way and every task waits for
        virtual time, or until ``done()``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PATIENCE
        calm = 0
        while calm < CALM_TURNS and not done():
            busy = self.busy()
            await asyncio.sleep(0.005 if busy else 0)
            calm = 0 if busy else calm + 1
            if loop.time() > deadline:
                raise AssertionError(f"never quiet: {self.calls} calls, {self._waiting()} "
                                     f"waiting, fetches {+self.flying}")

    def _wake_next(self, limit: float | None = None) -> bool:
        """Move to the next sleeper's time (no further than ``limit``) and wake it."""
        while self._sleepers:
            due, _, future = self._sleepers[0]
            if limit is not None and due > limit:
                return False
            heapq.heappop(self._sleepers)
            if future.done():
                continue
            self._move(max(due, self._now))
            future.set_result(None)
            return True
        return False

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, waking each sleeper at its due time and letting what
        it started finish before the next."""
        target = self._now + seconds
        await self.quiet()
        while self._wake_next(target):
            await self.quiet()
        self._move(target)

    async def until(self, condition: Callable[[], bool]) -> None:
        """Move time on, sleeper by sleeper, until ``condition()`` holds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PATIENCE
        while True:
            await self.quiet(condition)
            if condition():
                return
            if self._wake_next():
                deadline = loop.time() + PATIENCE
                continue
            await asyncio.sleep(0.005)  # nobody sleeps: something real is still to come
            if loop.time() > deadline:
                raise AssertionError("nothing sleeps and the condition never held")

    async def run(self, work: Awaitable[T]) -> T:
        """Await ``work``, moving time on whenever all else waits for it."""
        task = asyncio.ensure_future(work)
        try:
            await self.until(task.done)
        finally:
            if not task.done():
                task.cancel()
        return task.result()
