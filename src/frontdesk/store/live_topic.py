"""One topic of the live store: a polled piece of state, its fetch coroutine and interval,
what it last held and how its polls went."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..api.errors import ApiError

__all__ = ["Fetch", "Listener", "Topic"]

T = TypeVar("T")

Fetch = Callable[[], Awaitable[T]]
Listener = Callable[[str, Any], None]


@dataclass
class Topic(Generic[T]):
    """One polled piece of state."""

    name: str
    fetch: Fetch[T]
    interval: float
    #: watched topics poll; a topic with ``always`` polls even unwatched (the header's)
    always: bool = False
    value: T | None = None
    fetched_at: float | None = None
    error: ApiError | None = None
    failures: int = 0
    watchers: int = 0
    #: requests a poll costs, as far as its owner knows (topics share the console's budget)
    cost: float = 1.0
    polls: int = 0
    changes: int = 0
    _task: asyncio.Task[None] | None = field(default=None, repr=False)
    _wake: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def active(self) -> bool:
        """Whether the topic should poll now."""
        return self.always or self.watchers > 0
