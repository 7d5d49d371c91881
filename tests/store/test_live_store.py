"""LiveStore on virtual time with fake fetchers: change notification, pausing, poke, backoff
with jitter, connection states and Retry-After.

No HTTP here (the store's contract with its fetchers is a coroutine that returns a value or
raises an ApiError); the store against the sandbox is covered by tests/tui and
test_live_budget.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import random
from typing import Any

import pytest

from frontdesk.api.errors import (
    NotFound,
    RateLimited,
    ServiceUnavailable,
    TransportError,
    Unauthorized,
)
from frontdesk.store.connection import ConnectionState, Link
from frontdesk.store.live import LiveStore


class VirtualTime:
    """A clock and a sleep that agree: time moves only when the test advances it."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def clock(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        self.slept.append(delay)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + delay, next(self._order), future))
        await future

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, waking each sleeper at its due time, in order."""
        target = self.now + seconds
        await settle()
        while self._sleepers and self._sleepers[0][0] <= target:
            due, _, future = heapq.heappop(self._sleepers)
            if future.done():
                continue
            self.now = due
            future.set_result(None)
            await settle()
        self.now = target
        await settle()


async def settle() -> None:
    """Let every ready task run until it waits again."""
    for _ in range(30):
        await asyncio.sleep(0)


class Source:
    """A fetcher returning the given values in turn (an exception is raised instead)."""

    def __init__(self, *values: Any) -> None:
        self.values = list(values)
        self.calls = 0
        self.running = 0
        self.most_running = 0
        self.gate: asyncio.Event | None = None

    async def __call__(self) -> Any:
        self.calls += 1
        self.running += 1
        self.most_running = max(self.most_running, self.running)
        try:
            if self.gate is not None:
                await self.gate.wait()
            value = self.values.pop(0) if len(self.values) > 1 else self.values[0]
            if isinstance(value, BaseException):
                raise value
            return value
        finally:
            self.running -= 1


def store(time: VirtualTime, seed: int = 1, **options: Any) -> LiveStore:
    return LiveStore(clock=time.clock, sleep=time.sleep, rng=random.Random(seed), **options)


def link(live: LiveStore) -> Link:
    return live.connection.link


def recorder(live: LiveStore) -> list[tuple[str, Any]]:
    seen: list[tuple[str, Any]] = []
    live.subscribe(lambda topic, value: seen.append((topic, value)))
    return seen


# ---------------------------------------------------------------------- change notification


async def test_only_a_changed_value_is_told_and_counted() -> None:
    live = store(VirtualTime())
    live.add("t", Source((1, "a"), (1, "a"), (2, "b"), (2, "b")), 5)
    seen = recorder(live)
    for _ in range(4):
        await live.refresh("t")
    assert [value for topic, value in seen if topic == "t"] == [(1, "a"), (2, "b")]
    assert live.stats()["t"] == {"polls": 4, "changes": 2, "watchers": 0}
    assert live.get("t") == (2, "b")


async def test_put_tells_only_a_change_and_the_initial_value_counts_as_known() -> None:
    live = store(VirtualTime())
    live.add("t", Source(1), 5, initial=1)
    seen = recorder(live)
    await live.refresh("t")
    live.put("t", 1)
    assert [item for item in seen if item[0] == "t"] == []
    live.put("t", 2)
    assert [item for item in seen if item[0] == "t"] == [("t", 2)]


async def test_a_failing_listener_does_not_stop_the_others() -> None:
    live = store(VirtualTime())
    live.add("t", Source(1), 5)

    def broken(topic: str, value: Any) -> None:
        raise RuntimeError("boom")

    live.subscribe(broken)
    seen = recorder(live)
    await live.refresh("t")
    assert seen[-1] == ("t", 1)


async def test_unsubscribe_stops_the_calls() -> None:
    live = store(VirtualTime())
    live.add("t", Source(1, 2), 5)
    seen: list[Any] = []
    stop = live.subscribe(lambda topic, value: seen.append(value) if topic == "t" else None)
    await live.refresh("t")
    stop()
    stop()  # twice is harmless
    await live.refresh("t")
    assert seen == [1]


# ---------------------------------------------------------------------- polling and pausing


async def test_unwatched_topics_pause_and_watched_ones_poll_at_their_interval() -> None:
    time = VirtualTime()
    live = store(time)
    source = Source(1)
    live.add("t", source, 5)
    live.start()
    await time.advance(60)
    assert source.calls == 0  # nobody watches: paused

    live.watch("t")
    await time.advance(0)
    assert source.calls == 1  # watched: polled at once
    await time.advance(4.9)
    assert source.calls == 1
    await time.advance(0.1)
    assert source.calls == 2
    await time.advance(20)
    assert source.calls == 6

    live.unwatch("t")
    await time.advance(60)
    assert source.calls == 6  # paused again (the sleep in progress ends, no poll follows)
    await live.stop()


async def test_two_watchers_keep_a_topic_polling_until_both_leave() -> None:
    time = VirtualTime()
    live = store(time)
    source = Source(1)
    live.add("t", source, 5)
    live.start()
    live.watch("t")
    live.watch("t")
    live.unwatch("t")
    await time.advance(10)
    assert source.calls == 3
    live.unwatch("t")
    live.unwatch("t")  # more unwatches than watches stay at zero
    assert live.stats()["t"]["watchers"] == 0
    await time.advance(30)
    assert source.calls == 3
    await live.stop()


async def test_always_topics_poll_without_watchers() -> None:
    time = VirtualTime()
    live = store(time)
    source = Source(1)
    live.add("header", source, 10, always=True)
    live.start()
    await time.advance(35)
    assert source.calls == 4  # at 0, 10, 20, 30
    await live.stop()


async def test_poke_polls_now_instead_of_at_the_next_tick() -> None:
    time = VirtualTime()
    live = store(time)
    source = Source(1)
    live.add("t", source, 60)
    live.start()
    live.watch("t")
    await time.advance(1)
    assert source.calls == 1
    live.poke("t")
    await settle()
    assert source.calls == 2
    live.poke()  # every topic
    await settle()
    assert source.calls == 3
    await time.advance(59)
    assert source.calls == 3  # the interval counts from the poked poll
    await time.advance(1)
    assert source.calls == 4
    await live.stop()


async def test_polls_of_one_topic_never_overlap() -> None:
    time = VirtualTime()
    live = store(time)
    source = Source(1)
    source.gate = asyncio.Event()
    live.add("t", source, 1)
    live.start()
    live.watch("t")
    await settle()
    for _ in range(5):
        live.poke("t")
        await time.advance(1)
    assert source.calls == 1 and source.most_running == 1
    source.gate.set()
    await time.advance(3)
    assert source.most_running == 1
    assert source.calls >= 3
    await live.stop()


async def test_re_adding_a_topic_keeps_its_watchers_and_remove_stops_it() -> None:
    time = VirtualTime()
    live = store(time)
    first, second = Source(1), Source(2)
    live.add("t", first, 5)
    live.start()
    live.watch("t")
    await time.advance(0)
    live.add("t", second, 5)
    await time.advance(0)
    assert live.stats()["t"]["watchers"] == 1
    assert second.calls == 1 and live.get("t") == 2
    live.remove("t")
    await time.advance(30)
    assert second.calls == 1
    assert live.topic("t") is None and live.get("t") is None
    await live.stop()


# ---------------------------------------------------------------------- failures and backoff


def _sleeps_after_failures(error: Exception, failures: int, seed: int) -> list[float]:
    async def run() -> list[float]:
        time = VirtualTime()
        live = store(time, seed=seed, max_backoff=60)
        live.add("t", Source(error), 5)
        live.start()
        live.watch("t")
        for _ in range(failures):
            await time.advance(time.slept[-1] if time.slept else 0)
        await live.stop()
        return time.slept

    return asyncio.run(run())


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_backoff_doubles_with_jitter_and_is_capped(seed: int) -> None:
    slept = _sleeps_after_failures(TransportError("refused", sent=False), 9, seed)
    assert len(slept) >= 9
    for failures, delay in enumerate(slept[:9], start=1):
        base = min(60.0, 2.0 * 2 ** (failures - 1))
        assert base / 2 <= delay <= base, (failures, delay)
    assert max(slept) <= 60


def test_jitter_spreads_clients_that_fail_together() -> None:
    firsts = {_sleeps_after_failures(ServiceUnavailable("down", status=503), 3, seed)[2]
              for seed in range(8)}
    assert len(firsts) > 1


async def test_retry_after_is_honoured_even_beyond_the_backoff() -> None:
    time = VirtualTime()
    live = store(time)
    source = Source(RateLimited("slow down", status=429, retry_after=30), 1)
    live.add("t", source, 5)
    live.start()
    live.watch("t")
    await time.advance(0)
    assert time.slept[-1] >= 30
    assert link(live) is Link.RETRYING
    await time.advance(29)
    assert source.calls == 1
    await time.advance(1)
    assert source.calls == 2
    assert link(live) is Link.LIVE
    await live.stop()


async def test_success_resets_the_backoff_to_the_interval() -> None:
    time = VirtualTime()
    live = store(time)
    live.add("t", Source(TransportError("x"), TransportError("x"), 7, 7), 5)
    live.start()
    live.watch("t")
    for _ in range(3):
        await time.advance(time.slept[-1] if time.slept else 0)
    assert live.get("t") == 7
    assert time.slept[-1] == 5
    assert live.topic("t").failures == 0  # type: ignore[union-attr]
    await live.stop()


async def test_a_bug_in_a_fetcher_backs_off_without_killing_the_loop() -> None:
    time = VirtualTime()
    live = store(time)
    source = Source(ValueError("bug"), 3)
    live.add("t", source, 5)
    live.start()
    live.watch("t")
    await time.advance(0)
    assert live.get("t") is None
    await time.advance(time.slept[-1])
    assert live.get("t") == 3
    await live.stop()
    other = store(VirtualTime())
    other.add("t", Source(ValueError("bug")), 5)
    with pytest.raises(ValueError):
        await other.refresh("t")  # refresh hands the bug to its caller


# ---------------------------------------------------------------------- connection state


async def test_connection_goes_retrying_offline_and_live_and_tells_each_change() -> None:
    time = VirtualTime()
    live = store(time)
    source = Source(TransportError("refused", sent=False), TransportError("refused", sent=False),
                    TransportError("refused", sent=False), 1)
    live.add("t", source, 5)
    seen = recorder(live)
    assert live.connection.link is Link.CONNECTING
    for _ in range(4):
        with contextlib.suppress(TransportError):
            await live.refresh("t")
    links = [value.link for topic, value in seen if topic == "connection"]
    assert links == [Link.RETRYING, Link.OFFLINE, Link.LIVE]  # the 3rd failure changes nothing
    assert live.connection == ConnectionState(Link.LIVE)


async def test_retrying_says_in_how_many_seconds() -> None:
    time = VirtualTime()
    live = store(time)
    live.add("t", Source(ServiceUnavailable("down", status=503)), 5)
    with pytest.raises(ServiceUnavailable):
        await live.refresh("t")
    state = live.connection
    assert state.link is Link.RETRYING and state.retry_at is not None
    wait = state.retry_at - time.now
    assert state.describe(time.now) == f"service error 503 — retrying in {round(wait)} s"
    assert state.describe(time.now + wait + 5) == "service error 503 — retrying in 0 s"
    assert ConnectionState(Link.OFFLINE).describe(0) == "offline — showing cached data"
    assert ConnectionState(Link.LIVE).describe(0) == "live"


async def test_a_refused_key_is_its_own_state_until_a_refused_topic_answers() -> None:
    time = VirtualTime()
    live = store(time)
    refused = Unauthorized("unknown key", status=401)
    live.add("inbox", Source(refused, refused, 1), 5)
    live.add("quiet", Source(None), 5)  # a topic with nothing to ask (no request made)
    asked: list[bool] = []
    live.on_refused = lambda: asked.append(True)
    for _ in range(2):
        with pytest.raises(Unauthorized):
            await live.refresh("inbox")
        await live.refresh("quiet")
        assert link(live) is Link.REFUSED  # never "live" from a topic that asked nothing
        assert live.connection.describe(time.now) == "key refused — run `frontdesk login`"
    assert asked == [True, True]  # each refusal: look for a new key
    live.report(TransportError("refused", sent=False))  # a lost connection is said as such
    assert link(live) is Link.RETRYING
    live.report(refused)
    await live.refresh("inbox")  # the refused topic answers: the key works again
    assert link(live) is Link.LIVE


async def test_a_refusal_is_the_topics_problem_not_the_connections() -> None:
    time = VirtualTime()
    live = store(time)
    live.add("ok", Source(1), 5)
    live.add("gone", Source(NotFound("no such thing", status=404)), 5)
    await live.refresh("ok")
    seen = recorder(live)
    with pytest.raises(NotFound):
        await live.refresh("gone")
    assert live.connection.link is Link.LIVE
    assert seen == []
    assert isinstance(live.topic("gone").error, NotFound)  # type: ignore[union-attr]
    assert live.get("ok") == 1  # the last good value of other topics stays


async def test_a_failed_poll_keeps_the_last_value() -> None:
    time = VirtualTime()
    live = store(time)
    live.add("t", Source(5, TransportError("x")), 5)
    await live.refresh("t")
    with pytest.raises(TransportError):
        await live.refresh("t")
    assert live.get("t") == 5

