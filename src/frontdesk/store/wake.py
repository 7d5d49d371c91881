"""The one way the store waits: for some seconds, or less when woken.

Poll loops and the outbox sleep between rounds and are woken early (a poke, a new reply).
The sleep is the caller's own (tests drive it with virtual time).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

Sleep = Callable[[float], Awaitable[None]]


async def sleep_or_wake(sleep: Sleep, delay: float, wake: asyncio.Event) -> None:
    """Wait ``delay`` seconds (with ``sleep``) or until ``wake`` is set, whichever comes
    first; neither wait outlives the call."""
    waker = asyncio.ensure_future(wake.wait())
    sleeper = asyncio.ensure_future(sleep(delay))
    try:
        await asyncio.wait({waker, sleeper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (waker, sleeper):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
