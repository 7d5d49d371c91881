"""The one way the store waits: for some seconds, or less when woken.

Poll loops and the outbox sleep between rounds and are woken early (a poke, a new reply).
The sleep is the caller's own (tests drive it with virtual time).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

Sleep = Callable[[float], Awaitable[None]]


async def sleep_or_wake(sleep: Sleep, delay: float, wake: asyncio.Event) -> None:
    """Wait ``delay`` seconds (with ``sleep``) or until ``wake`` is set, whichever comes
    first; neither wait outlives the call.

    A cancel of the caller always ends it, whenever it comes: the two waits are tidied up
    with ``asyncio.wait``, which never raises their own cancellation, rather than by
    awaiting each and swallowing a ``CancelledError`` (that swallowed the caller's too when
    it arrived just then, and a poll loop being stopped polled on forever)."""
    waker = asyncio.ensure_future(wake.wait())
    sleeper = asyncio.ensure_future(sleep(delay))
    try:
        await asyncio.wait({waker, sleeper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (waker, sleeper):
            task.cancel()
        await asyncio.wait({waker, sleeper})
    failed = None if sleeper.cancelled() else sleeper.exception()
    if failed is not None:  # the caller's sleep failed: its error is the caller's
        raise failed
