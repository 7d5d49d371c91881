"""The store's one wait: a cancel that arrives at any moment of it ends the waiter.

A poll loop is stopped by cancelling it; if the wait swallowed that cancel (arriving while
it tidies up its own sleeper), the loop would poll on and ``stop`` would wait forever.
"""

from __future__ import annotations

import asyncio

import pytest

from frontdesk.store.wake import sleep_or_wake


async def _quick_sleep(_: float) -> None:
    await asyncio.sleep(0)


@pytest.mark.parametrize("steps", range(12))
async def test_a_cancel_at_any_step_of_the_wait_ends_the_waiter(steps: int) -> None:
    wake = asyncio.Event()

    async def loop() -> None:
        while True:  # as a poll loop does: wait, then wait again
            await sleep_or_wake(_quick_sleep, 0.0, wake)

    task = asyncio.ensure_future(loop())
    for _ in range(steps):
        await asyncio.sleep(0)
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=5)
    assert task in done and task.cancelled()


async def test_the_wait_ends_when_woken_and_when_the_time_is_up() -> None:
    wake = asyncio.Event()
    wake.set()
    await sleep_or_wake(asyncio.sleep, 3600, wake)  # woken: no hour passes
    await sleep_or_wake(_quick_sleep, 0.0, asyncio.Event())  # slept
