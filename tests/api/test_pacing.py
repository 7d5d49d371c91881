"""The pacer: burst then rate, strict priorities, cancellation, penalties; fake and real time."""

from __future__ import annotations

import asyncio
import math
import random
import time

import pytest

from frontdesk.api.pacing import Pacer, Priority


class FakeTime:
    """A clock and a matching sleep.

    With ``auto`` a sleep advances the clock by its delay at once (the run takes no real
    time); otherwise sleepers wait until the test calls :meth:`advance`.
    """

    def __init__(self, *, auto: bool = False) -> None:
        self.now = 0.0
        self.auto = auto
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        if self.auto:
            self.now += max(delay, 0.0)
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + delay, future))
        await future

    def wake_due(self) -> None:
        """Wake the sleepers whose time has come, without yielding to them."""
        for entry in list(self._sleepers):
            deadline, future = entry
            if deadline <= self.now + 1e-12:
                self._sleepers.remove(entry)
                if not future.done():
                    future.set_result(None)

    async def advance(self, seconds: float) -> None:
        self.now += seconds
        self.wake_due()
        await settle()


async def settle() -> None:
    """Let every ready task run until nothing changes any more."""
    for _ in range(20):
        await asyncio.sleep(0)


def fake_pacer(ft: FakeTime, rate: float = 10.0, burst: int = 4) -> Pacer:
    return Pacer(rate=rate, burst=burst, clock=ft.clock, sleep=ft.sleep)


async def drain(pacer: Pacer) -> None:
    for _ in range(pacer.burst):
        await pacer.acquire()


# ------------------------------------------------------------------------------ fake time


async def test_burst_then_rate_fake_time() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=4)
    for _ in range(4):  # the bucket starts full: no wait at all
        await pacer.acquire()
    assert ft.now == 0.0
    task = asyncio.create_task(pacer.acquire())
    await settle()
    assert not task.done() and pacer.waiting == 1
    await ft.advance(0.099)
    assert not task.done()
    await ft.advance(0.001)
    assert task.done()
    assert pacer.waiting == 0


async def test_grant_times_follow_the_rate() -> None:
    ft = FakeTime(auto=True)
    pacer = fake_pacer(ft, rate=10, burst=4)
    times = []
    for _ in range(8):
        await pacer.acquire()
        times.append(ft.now)
    assert times == pytest.approx([0, 0, 0, 0, 0.1, 0.2, 0.3, 0.4])


async def test_refill_is_capped_at_burst() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=4)
    await drain(pacer)
    ft.now += 100.0  # a long quiet spell earns no more than the burst
    assert pacer.available() == pytest.approx(4)
    await drain(pacer)
    task = asyncio.create_task(pacer.acquire())
    await settle()
    assert not task.done()
    await ft.advance(0.1)
    assert task.done()


async def test_fifty_concurrent_acquires_take_4_6_seconds_of_fake_time() -> None:
    ft = FakeTime(auto=True)
    pacer = fake_pacer(ft, rate=10, burst=4)
    await asyncio.gather(*(pacer.acquire(Priority.BACKGROUND) for _ in range(50)))
    assert ft.now == pytest.approx(4.6)
    assert pacer.waiting == 0


async def test_interactive_jumps_ahead_of_waiting_background() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=1)
    await drain(pacer)
    served: list[str] = []

    async def call(name: str, priority: Priority) -> None:
        await pacer.acquire(priority)
        served.append(name)

    background = [asyncio.create_task(call(f"bg{i}", Priority.BACKGROUND)) for i in range(5)]
    await settle()
    assert pacer.waiting == 5  # the bucket is empty: everybody waits
    interactive = asyncio.create_task(call("ui", Priority.INTERACTIVE))
    await settle()
    await ft.advance(0.1)
    assert served == ["ui"]
    assert interactive.done()
    for _ in range(5):
        await ft.advance(0.1)
    assert served == ["ui", "bg0", "bg1", "bg2", "bg3", "bg4"]
    assert all(task.done() for task in background)


async def test_priority_then_fifo_with_many_waiters() -> None:
    ft = FakeTime(auto=True)
    pacer = fake_pacer(ft, rate=10, burst=4)
    await drain(pacer)
    rng = random.Random(7)
    served: list[tuple[int, int]] = []

    async def call(index: int, priority: Priority) -> None:
        await pacer.acquire(priority)
        served.append((int(priority), index))

    tasks = [asyncio.create_task(call(i, rng.choice(list(Priority)))) for i in range(100)]
    await asyncio.gather(*tasks)
    assert served == sorted(served)
    assert ft.now == pytest.approx(10.0)


async def test_cancelled_waiter_does_not_lose_a_token_or_block_others() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=1)
    await drain(pacer)
    a, b, c = (asyncio.create_task(pacer.acquire()) for _ in range(3))
    await settle()
    b.cancel()
    await settle()
    assert b.cancelled()
    assert pacer.waiting == 2
    await ft.advance(0.1)
    assert a.done() and not c.done()
    await ft.advance(0.1)  # c gets the next token; b's place is not kept
    assert c.done()
    assert pacer.waiting == 0


async def test_cancelled_head_passes_its_turn_on() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=1)
    await drain(pacer)
    a = asyncio.create_task(pacer.acquire(Priority.INTERACTIVE))
    b = asyncio.create_task(pacer.acquire(Priority.BACKGROUND))
    await settle()
    a.cancel()
    await ft.advance(0.1)
    assert a.cancelled()
    assert b.done() and not b.cancelled()


async def test_token_granted_to_a_cancelled_caller_goes_back() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=1)
    await drain(pacer)
    a = asyncio.create_task(pacer.acquire())
    b = asyncio.create_task(pacer.acquire())
    await settle()
    ft.now += 0.1
    ft.wake_due()
    await asyncio.sleep(0)  # the dispatcher hands the token to `a`; `a` has not resumed yet
    assert pacer.waiting == 1 and not a.done()
    a.cancel()
    await settle()
    assert a.cancelled()
    assert b.done() and not b.cancelled()  # the token went on to the next waiter at once
    assert ft.now == pytest.approx(0.1)


async def test_token_granted_to_a_cancelled_caller_returns_to_the_bucket() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=1)
    await drain(pacer)
    a = asyncio.create_task(pacer.acquire())
    await settle()
    ft.now += 0.1
    ft.wake_due()
    await asyncio.sleep(0)
    assert pacer.waiting == 0 and not a.done()
    a.cancel()
    await settle()
    assert a.cancelled()
    assert pacer.available() == pytest.approx(1.0)
    await asyncio.wait_for(pacer.acquire(), 0.5)  # served from the returned token


async def test_penalise_delays_everybody() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=4)
    pacer.penalise(1.0)
    ui = asyncio.create_task(pacer.acquire(Priority.INTERACTIVE))
    bg = asyncio.create_task(pacer.acquire(Priority.BACKGROUND))
    await settle()
    assert not ui.done() and not bg.done()  # even with a full bucket
    await ft.advance(0.999)
    assert not ui.done()
    await ft.advance(0.001)
    assert ui.done() and not bg.done()  # one call goes at once, the rest at the rate
    await ft.advance(0.1)
    assert bg.done()


async def test_penalise_while_waiters_sleep() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=1)
    await drain(pacer)
    task = asyncio.create_task(pacer.acquire())
    await settle()
    pacer.penalise(0.5)
    await ft.advance(0.1)
    assert not task.done()
    await ft.advance(0.399)
    assert not task.done()
    await ft.advance(0.001)
    assert task.done()


async def test_shorter_or_invalid_penalty_changes_nothing() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=4)
    pacer.penalise(1.0)
    pacer.penalise(0.2)
    pacer.penalise(-5)
    pacer.penalise(math.nan)
    pacer.penalise(math.inf)
    task = asyncio.create_task(pacer.acquire())
    await settle()
    await ft.advance(0.5)
    assert not task.done()
    await ft.advance(0.5)
    assert task.done()


async def test_penalty_applies_to_later_callers_too() -> None:
    ft = FakeTime(auto=True)
    pacer = fake_pacer(ft, rate=10, burst=4)
    pacer.penalise(2.0)
    await pacer.acquire()
    assert ft.now == pytest.approx(2.0)
    await pacer.acquire()
    assert ft.now == pytest.approx(2.1)


async def test_disabled_pacer_never_waits() -> None:
    ft = FakeTime()
    pacer = Pacer(rate=1, burst=1, clock=ft.clock, enabled=False, sleep=ft.sleep)
    pacer.penalise(100)
    for _ in range(100):
        await asyncio.wait_for(pacer.acquire(Priority.BACKGROUND), 0.5)
    assert pacer.waiting == 0
    assert not pacer.enabled


async def test_dispatcher_stops_when_nobody_waits() -> None:
    ft = FakeTime(auto=True)
    pacer = fake_pacer(ft, rate=10, burst=1)
    await asyncio.gather(*(pacer.acquire() for _ in range(5)))
    await settle()
    assert asyncio.all_tasks() == {asyncio.current_task()}


async def test_stopped_dispatcher_cancels_its_waiters() -> None:
    ft = FakeTime()
    pacer = fake_pacer(ft, rate=10, burst=1)
    await drain(pacer)
    waiter = asyncio.create_task(pacer.acquire())
    await settle()
    (dispatcher,) = [t for t in asyncio.all_tasks() if t.get_name() == "frontdesk-pacer"]
    dispatcher.cancel()
    await settle()
    assert waiter.cancelled()
    assert pacer.waiting == 0


@pytest.mark.parametrize(("rate", "burst"), [(0, 1), (-1, 1), (math.inf, 1), (10, 0)])
def test_rejects_bad_settings(rate: float, burst: int) -> None:
    with pytest.raises(ValueError):
        Pacer(rate=rate, burst=burst)


def test_priorities_order() -> None:
    assert Priority.INTERACTIVE < Priority.VISIBLE < Priority.BACKGROUND
    assert Pacer().rate == 10.0 and Pacer().burst == 4


# ------------------------------------------------------------------------------ real time
# The pacer on the real clock: only lower bounds (waiting less than the rate allows is wrong on
# any machine, and a busy one only waits longer); how long exactly is the fake-time tests' job.


async def test_burst_then_rate_real_time() -> None:
    pacer = Pacer(rate=50, burst=2)
    start = time.monotonic()
    for _ in range(6):
        await pacer.acquire()
    assert time.monotonic() - start >= 0.075  # a burst of 2, then 4 tokens at 50/s = 0.08 s


async def test_priority_real_time() -> None:
    pacer = Pacer(rate=50, burst=2)
    await drain(pacer)
    served: list[str] = []

    async def call(name: str, priority: Priority) -> None:
        await pacer.acquire(priority)
        served.append(name)

    background = [f"bg{i}" for i in range(20)]
    tasks = [asyncio.create_task(call(name, Priority.BACKGROUND)) for name in background]
    await settle()  # they wait, the dispatcher sleeps until the next token
    # Granted before the interactive caller asks: none, unless the machine stalled this
    # process for a token's time or more (20 ms; all twenty would take 0.4 s). The new
    # caller is registered before the loop can grant another (its first step is already
    # queued when a timer comes due).
    ahead = len(background) - pacer.waiting
    tasks.append(asyncio.create_task(call("ui", Priority.INTERACTIVE)))
    await asyncio.gather(*tasks)
    assert ahead < len(background)
    assert served[ahead] == "ui"  # before every background caller still waiting
    assert [name for name in served if name != "ui"] == background


async def test_cancellation_real_time() -> None:
    pacer = Pacer(rate=20, burst=1)
    await drain(pacer)
    tasks = [asyncio.create_task(pacer.acquire()) for _ in range(4)]
    await asyncio.sleep(0)
    tasks[0].cancel()
    tasks[2].cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert [isinstance(r, asyncio.CancelledError) for r in done] == [True, False, True, False]
    assert pacer.waiting == 0


async def test_penalise_real_time() -> None:
    pacer = Pacer(rate=50, burst=2)
    start = time.monotonic()
    pacer.penalise(0.05)
    await asyncio.gather(*(pacer.acquire() for _ in range(3)))
    assert time.monotonic() - start >= 0.05


async def test_many_concurrent_acquires_real_time() -> None:
    pacer = Pacer(rate=200, burst=4)
    start = time.monotonic()
    await asyncio.gather(*(pacer.acquire(Priority(i % 3)) for i in range(50)))
    assert time.monotonic() - start >= 0.22  # 46 tokens at 200/s = 0.23 s
