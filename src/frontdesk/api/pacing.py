"""Client-side pacing: a token bucket with priorities, matching the service's rate budget.

The service allows 10 requests per second per key with a burst of 4 and answers 429 beyond
that. Rather than hit the limit and wait out Retry-After, the client spends its budget itself,
and spends it on what matters first: a call the user just asked for (``INTERACTIVE``) goes
ahead of one refreshing what is on screen (``VISIBLE``), which goes ahead of background polling
(``BACKGROUND``). Waiters are served strictly by priority, then first come first served.

One :class:`Pacer` is shared by every call made with one key, on one event loop. A single
dispatcher task, alive only while someone waits, hands out tokens in order and sleeps exactly
until the next token is due; it never polls.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time
from collections.abc import Awaitable, Callable
from enum import IntEnum

__all__ = ["Pacer", "Priority"]

# Tolerances for float drift: a token of 0.9999999999 is a token, and a timer may fire a
# clock tick early (asyncio runs timers up to its clock resolution ahead of time).
_EPSILON = 1e-9
_TIME_EPSILON = 1e-9


class Priority(IntEnum):
    """Who is waiting: a lower value is served first."""

    INTERACTIVE = 0
    """The user just asked for this (a key press, a send, a claim)."""
    VISIBLE = 1
    """Refreshes what the user is looking at."""
    BACKGROUND = 2
    """Polling and prefetching nobody is waiting for."""


_Entry = tuple[int, float, int, "asyncio.Future[None]"]


class Pacer:
    """A token bucket of ``burst`` tokens refilled at ``rate`` per second, served by priority.

    The bucket starts full. :meth:`acquire` takes one token, waiting for it if none is left or
    others are already waiting. :meth:`penalise` holds every token back for a while after the
    service answered 429. ``clock`` and ``sleep`` are injectable so tests can run on fake time;
    they must agree (``sleep(d)`` lets ``clock()`` advance by at least ``d``).
    """

    def __init__(
        self,
        rate: float = 10.0,
        burst: int = 4,
        clock: Callable[[], float] = time.monotonic,
        enabled: bool = True,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if not (rate > 0 and math.isfinite(rate)):
            raise ValueError("rate must be a positive number of requests per second")
        if burst < 1:
            raise ValueError("burst must be at least 1")
        self._rate = float(rate)
        self._burst = burst
        self._clock = clock
        self._sleep = sleep
        self._enabled = enabled
        self._tokens = float(burst)
        self._updated = clock()
        self._not_before = -math.inf
        self._heap: list[_Entry] = []
        self._waiting = 0  # live (not cancelled, not yet served) entries in the heap
        self._order = itertools.count()
        self._dispatcher: asyncio.Task[None] | None = None

    @property
    def rate(self) -> float:
        """Tokens added per second."""
        return self._rate

    @property
    def burst(self) -> int:
        """Size of the bucket: how many calls may go at once after a quiet spell."""
        return self._burst

    @property
    def enabled(self) -> bool:
        """``False`` turns pacing off (a sandbox run with ``--no-rate-limit``)."""
        return self._enabled

    @property
    def waiting(self) -> int:
        """How many callers are waiting for a token now."""
        return self._waiting

    def available(self) -> float:
        """Tokens in the bucket now (fractional), ignoring any penalty."""
        self._refill(self._clock())
        return self._tokens

    async def acquire(self, priority: Priority = Priority.VISIBLE, *, turn: float = 0.0) -> None:
        """Wait until this caller may send one request, then take the token.

        Returns at once when pacing is disabled, or when nobody is waiting and a token is
        available. Cancelling a waiting caller gives up its place; a token handed to a caller
        that was cancelled before it could use it goes back to the bucket. Within a priority,
        waiters are served by ``turn`` and then first come first served (the team gateway
        gives each member's requests their turns, so no member's burst starves another).
        """
        if not self._enabled:
            return
        now = self._clock()
        self._refill(now)
        if self._waiting == 0 and not self._penalised(now) and self._tokens >= 1 - _EPSILON:
            self._tokens = max(self._tokens - 1, 0.0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, (int(priority), turn, next(self._order), future))
        self._waiting += 1
        self._ensure_dispatcher()
        try:
            await future
        except BaseException:
            if not future.done():
                future.cancel()
            if future.cancelled():
                self._waiting -= 1  # its heap entry is dropped when it reaches the head
            else:
                self._give_back()
            raise

    def penalise(self, seconds: float) -> None:
        """Hand out no token before ``seconds`` from now (the service's Retry-After).

        Applies to every caller of this pacer. After the penalty one call may go at once and
        the rest follow at ``rate``: the service's own bucket has just been emptied. A shorter
        penalty than one already in force changes nothing.
        """
        if not (seconds > 0 and math.isfinite(seconds)):
            return
        now = self._clock()
        until = now + seconds
        if until <= self._not_before:
            return
        self._not_before = until
        self._tokens = 1.0
        self._updated = until
        # A sleeping dispatcher wakes at its old time, sees the penalty and sleeps again.

    # ---------------------------------------------------------------------------------------

    def _refill(self, now: float) -> None:
        """Add the tokens earned since the last update, up to ``burst``."""
        if now > self._updated:
            self._tokens = min(self._tokens + (now - self._updated) * self._rate, self._burst)
            self._updated = now

    def _penalised(self, now: float) -> bool:
        """Whether a Retry-After penalty still holds every token back at ``now``."""
        return now + _TIME_EPSILON < self._not_before

    def _give_back(self) -> None:
        """Return a token that was handed out but not used, and pass it on if someone waits."""
        self._refill(self._clock())
        self._tokens = min(self._tokens + 1, float(self._burst))
        if self._grant_ready() is not None:
            self._ensure_dispatcher()

    def _grant_ready(self) -> float | None:
        """Serve waiters in order while tokens last.

        Returns ``None`` when nobody waits any more, else the seconds until the head waiter
        could be served.
        """
        now = self._clock()
        self._refill(now)
        heap = self._heap
        while heap:
            future = heap[0][3]
            if future.done():  # cancelled while waiting
                heapq.heappop(heap)
                continue
            if self._penalised(now):
                return self._not_before - now
            if self._tokens < 1 - _EPSILON:
                return (1 - self._tokens) / self._rate
            heapq.heappop(heap)
            self._tokens = max(self._tokens - 1, 0.0)
            self._waiting -= 1
            future.set_result(None)
        return None

    def _ensure_dispatcher(self) -> None:
        """Start the dispatcher task unless it is already running."""
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.get_running_loop().create_task(
                self._dispatch(), name="frontdesk-pacer"
            )

    async def _dispatch(self) -> None:
        """Hand out tokens until nobody waits, sleeping until each next token is due."""
        try:
            while (delay := self._grant_ready()) is not None:
                await self._sleep(delay)
        except BaseException:
            # Stopped from outside (the loop is shutting down): nobody will serve the waiters
            # any more, so cancel them rather than leave them hanging.
            for *_, future in self._heap:
                future.cancel()
            raise
        finally:
            if self._dispatcher is asyncio.current_task():
                self._dispatcher = None
