"""Live state: snapshots of what the screens show, refreshed by polling that costs little.

The service has no push channel for a terminal, so the console polls. Each *topic* (my
conversations, the open thread, presence, queues, business hours, …) has a fetch coroutine
and an interval. A topic's loop fetches, compares the result with the last snapshot and tells
subscribers only when something changed, then sleeps for its interval: one-shot timing
re-armed after each fetch, so polls of one topic never overlap. Topics nobody watches pause;
``poke`` refreshes one now. When the service fails, the topic backs off with jitter and the
store's connection state says "retrying in N s" or "offline"; when it answers again every
topic resumes by itself.

No Textual here: the app subscribes with a plain callback and turns it into messages. What
the connection state says, and how a poll's outcome sets it, is
:mod:`~frontdesk.store.connection`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, overload

from ..api.errors import (
    ApiError,
    RateLimited,
    ServiceUnavailable,
    TransportError,
    Unauthorized,
    UnexpectedResponse,
)
from ..api.retry import RetryPolicy, backoff
from .connection import ConnectionState, Link, reason_of
from .live_topic import Fetch, Listener, Topic
from .topics import CONNECTION, TopicKey
from .wake import sleep_or_wake

log = logging.getLogger("frontdesk.store.live")

T = TypeVar("T")


class LiveStore:
    """Polled snapshots with change notification, backoff and a connection state."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        max_backoff: float = 60.0,
        rng: random.Random | None = None,
    ) -> None:
        self._topics: dict[str, Topic[Any]] = {}
        self._listeners: list[Listener] = []
        self._clock = clock
        self._sleep = sleep
        #: the waits after failed polls: from 2 s, doubling, at least half of each drawn
        self._policy = RetryPolicy(base_delay=min(2.0, max_backoff), max_delay=max_backoff,
                                   jitter=0.5)
        self._rng = rng or random.Random()
        self._running = False
        #: watchers of topics not registered yet (a screen shown before the session started)
        self._early: dict[str, int] = {}
        self.connection = ConnectionState()
        #: called each time the service refuses the key (the session looks for a new one)
        self.on_refused: Callable[[], None] | None = None
        #: called once per topic whose fetch or listener failed with an unexpected error
        #: (a bug): the session tells the user; the traceback is in the log
        self.on_failure: Callable[[str, Exception], None] | None = None
        self._failed: set[str] = set()

    # ------------------------------------------------------------------ topics

    def add(self, name: TopicKey[T] | str, fetch: Fetch[T], interval: float, *,
            always: bool = False, initial: T | None = None) -> Topic[T]:
        """Register a topic; ``initial`` is the cached value shown before the first fetch."""
        topic: Topic[T] = Topic(name, fetch, interval, always=always, value=initial)
        old = self._topics.get(name)
        if old is not None:
            topic.watchers = old.watchers
            self._cancel(old)
        else:
            topic.watchers = self._early.pop(name, 0)
        self._topics[name] = topic
        if self._running:
            self._start(topic)
        return topic

    def remove(self, name: str) -> None:
        """Stop and forget a topic."""
        topic = self._topics.pop(name, None)
        if topic is not None:
            self._cancel(topic)

    def topic(self, name: str) -> Topic[Any] | None:
        """A registered topic."""
        return self._topics.get(name)

    @overload
    def get(self, name: TopicKey[T]) -> T | None: ...
    @overload
    def get(self, name: str) -> Any: ...

    def get(self, name: str) -> Any:
        """The topic's latest value (None before the first fetch): of the key's type."""
        topic = self._topics.get(name)
        return None if topic is None else topic.value

    @overload
    def put(self, name: TopicKey[T], value: T) -> None: ...
    @overload
    def put(self, name: str, value: Any) -> None: ...

    def put(self, name: str, value: Any) -> None:
        """Set a topic's value from outside a poll (an action's optimistic update, a rollback)."""
        topic = self._topics.get(name)
        if topic is None or topic.value == value:
            return
        topic.value = value
        topic.changes += 1
        self._notify(name, value)

    @overload
    def announce(self, name: TopicKey[T], value: T) -> None: ...
    @overload
    def announce(self, name: str, value: Any) -> None: ...

    def announce(self, name: str, value: Any) -> None:
        """Tell subscribers about a change that is not a polled topic (the outbox count)."""
        self._notify(name, value)

    def watch(self, name: str) -> None:
        """A screen shows this topic: poll it (now, if it was paused)."""
        topic = self._topics.get(name)
        if topic is None:
            self._early[name] = self._early.get(name, 0) + 1
            return
        topic.watchers += 1
        if topic.watchers == 1:
            topic._wake.set()

    def unwatch(self, name: str) -> None:
        """A screen no longer shows this topic: let it pause."""
        topic = self._topics.get(name)
        if topic is None:
            if self._early.get(name, 0) > 0:
                self._early[name] -= 1
            return
        if topic.watchers > 0:
            topic.watchers -= 1

    def poke(self, name: str | None = None) -> None:
        """Refresh one topic (or every one) now instead of at its next tick, if a screen
        shows it: a paused topic is not fetched for a poke (``watch`` fetches it when a
        screen shows it again)."""
        for topic in self._topics.values():
            if (name is None or topic.name == name) and topic.active:
                topic._wake.set()

    # ------------------------------------------------------------------ listeners

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(topic_name, value)`` on every change; returns the unsubscriber."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return unsubscribe

    def _notify(self, name: str, value: Any) -> None:
        for listener in list(self._listeners):
            try:
                listener(name, value)
            except Exception as error:  # a boundary: one listener's bug must not stop the rest
                log.exception("a listener of %s failed", name)
                self._failure(name, error)

    def _failure(self, name: str, error: Exception) -> None:
        """Say an unexpected failure of a topic once (it is logged every time)."""
        if name in self._failed or self.on_failure is None:
            return
        self._failed.add(name)
        try:
            self.on_failure(name, error)
        except Exception:  # reporting must never take the polls down
            log.exception("could not report the failure of %s", name)

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        """Start polling (call from the running event loop)."""
        if self._running:
            return
        self._running = True
        for topic in self._topics.values():
            self._start(topic)

    async def stop(self) -> None:
        """Stop every poll and wait for the loops to end."""
        self._running = False
        tasks = [t._task for t in self._topics.values() if t._task is not None]
        for topic in self._topics.values():
            self._cancel(topic)
        for task in tasks:
            # a boundary: stopping goes on (a loop's failure was logged where it happened)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _start(self, topic: Topic[Any]) -> None:
        topic._task = asyncio.get_running_loop().create_task(
            self._loop(topic), name=f"poll:{topic.name}")

    @staticmethod
    def _cancel(topic: Topic[Any]) -> None:
        if topic._task is not None:
            topic._task.cancel()
            topic._task = None

    @overload
    async def refresh(self, name: TopicKey[T]) -> T | None: ...

    @overload
    async def refresh(self, name: str) -> Any: ...

    async def refresh(self, name: str) -> Any:
        """Fetch one topic now and return its value (raises the service's error)."""
        topic = self._topics[name]
        await self._poll(topic, raise_errors=True)
        return topic.value

    async def _loop(self, topic: Topic[Any]) -> None:
        while True:
            if not topic.active:
                topic._wake.clear()
                await topic._wake.wait()
            topic._wake.clear()
            delay = await self._poll(topic)
            await sleep_or_wake(self._sleep, delay, topic._wake)

    async def _poll(self, topic: Topic[Any], *, raise_errors: bool = False) -> float:
        """One fetch; returns how long to wait before the next."""
        topic.polls += 1
        refused_before = isinstance(topic.error, Unauthorized)
        failed_before = topic.error is not None
        try:
            value = await topic.fetch()
        except ApiError as error:
            topic.error = error
            topic.failures += 1
            delay = self._backoff(topic.failures, error)
            self._set_connection(error, delay, topic.failures)
            if raise_errors:
                raise
            return delay
        except asyncio.CancelledError:
            raise
        except Exception as bug:  # a bug in a fetch must not kill the poll loop
            log.exception("poll of %s failed", topic.name)
            self._failure(topic.name, bug)
            topic.failures += 1
            if raise_errors:
                raise
            return self._backoff(topic.failures, None)
        topic.error = None
        topic.failures = 0
        topic.fetched_at = self._clock()
        # While the key is refused, only a topic the service refused, answering now, proves
        # the key works again (a topic with nothing to ask, say before I am known, does not).
        # Likewise, at an address that is not the service only a topic that failed there,
        # answering now, proves the service is found.
        link = self.connection.link
        if (link is Link.REFUSED and refused_before) \
                or (link is Link.NO_SERVICE and failed_before) \
                or link not in (Link.REFUSED, Link.NO_SERVICE):
            self._set_live()
        if value != topic.value:
            topic.value = value
            topic.changes += 1
            self._notify(topic.name, value)
        return topic.interval

    def _backoff(self, failures: int, error: ApiError | None) -> float:
        delay = backoff(self._policy, failures, self._rng)
        if error is not None and error.retry_after:
            delay = max(delay, error.retry_after)
        return delay

    async def sleep(self, seconds: float) -> None:
        """Wait as the polls wait (the store's injectable sleep)."""
        await self._sleep(seconds)

    # ------------------------------------------------------------------ figures

    def stats(self) -> dict[str, dict[str, int]]:
        """Polls and changes per topic (benchmarks and tests count repaint causes with it)."""
        return {name: {"polls": t.polls, "changes": t.changes, "watchers": t.watchers}
                for name, t in self._topics.items()}

    # ------------------------------------------------------------------ the connection's state

    def report(self, error: ApiError) -> None:
        """An error outside a poll (signing in) that says something about the connection."""
        self._set_connection(error, 0.0, 1)

    def key_changed(self) -> None:
        """A new key is in use: connect again (every topic polls now)."""
        for topic in self._topics.values():
            if isinstance(topic.error, Unauthorized):
                topic.failures = 0
        self.connection = ConnectionState(Link.CONNECTING)
        self._notify(CONNECTION, self.connection)
        self.poke()

    def _set_connection(self, error: ApiError, delay: float, failures: int) -> None:
        if isinstance(error, Unauthorized):
            state = ConnectionState(Link.REFUSED, None, str(error), "key refused")
            if self.connection.link is not Link.REFUSED:
                self.connection = state
                self._notify(CONNECTION, state)
            if self.on_refused is not None:
                try:
                    self.on_refused()
                except Exception:  # a boundary: a listener's bug must not stop the polls
                    log.exception("refused-key listener failed")
            return
        unreachable = isinstance(error, TransportError | ServiceUnavailable | RateLimited)
        if not unreachable or self.connection.link is Link.NO_SERVICE:
            return  # the service answered: a refusal is the topic's problem, not the link's
        garbled = isinstance(error, UnexpectedResponse)
        offline = isinstance(error, TransportError) and not garbled and failures >= 2
        link = Link.OFFLINE if offline else Link.RETRYING
        state = ConnectionState(link, self._clock() + delay, str(error), reason_of(error))
        if state.link != self.connection.link or state.problem != self.connection.problem:
            self.connection = state
            self._notify(CONNECTION, state)
        else:
            self.connection = state

    def sign_out(self, reason: str, problem: str) -> None:
        """The console cannot reach the service as anyone (no key): say so in the header."""
        self.connection = ConnectionState(Link.SIGNED_OUT, None, problem, reason)
        self._notify(CONNECTION, self.connection)

    def no_service(self, problem: str) -> None:
        """The base URL answers, but not as the service: say so in the header until a topic
        that failed there answers (``problem`` is the one line saying what it answered)."""
        if self.connection.link is Link.REFUSED:
            return  # the key's refusal is the fix to make first
        state = ConnectionState(Link.NO_SERVICE, None, problem, "no service")
        if state != self.connection:
            self.connection = state
            self._notify(CONNECTION, state)

    def _set_live(self) -> None:
        if self.connection.link is not Link.LIVE:
            self.connection = ConnectionState(Link.LIVE)
            self._notify(CONNECTION, self.connection)
