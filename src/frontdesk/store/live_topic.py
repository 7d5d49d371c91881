"""One topic of the live store: a polled piece of state, its fetch coroutine and interval,
what it last held and how its polls went."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

from ..api.errors import ApiError

__all__ = ["Fetch", "Listener", "Topic"]

T = TypeVar("T")

Fetch = Callable[[], Awaitable[T]]
Listener = Callable[[str, Any], None]


class Topic(Generic[T]):
    """One polled piece of state.

    A plain class rather than a dataclass: the live store is made before the console's
    first frame, where a dataclass's generated methods cost their compilation."""

    __slots__ = ("_task", "_wake", "always", "changes", "cost", "error", "failures", "fetch",
                 "fetched_at", "interval", "name", "polls", "value", "watchers")

    def __init__(self, name: str, fetch: Fetch[T], interval: float, *, always: bool = False,
                 value: T | None = None) -> None:
        self.name = name
        self.fetch = fetch
        self.interval = interval
        #: watched topics poll; a topic with ``always`` polls even unwatched (the header's)
        self.always = always
        self.value: T | None = value
        self.fetched_at: float | None = None
        self.error: ApiError | None = None
        self.failures = 0
        self.watchers = 0
        #: requests a poll costs, as far as its owner knows (topics share the console's
        #: budget)
        self.cost = 1.0
        self.polls = 0
        self.changes = 0
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def __repr__(self) -> str:
        return f"Topic({self.name!r}, every {self.interval} s, {self.watchers} watching)"

    @property
    def active(self) -> bool:
        """Whether the topic should poll now."""
        return self.always or self.watchers > 0
