"""The sandbox's sense of time: real by default, settable and advanceable in tests."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta


class Clock:
    """Wall-clock time in UTC."""

    def now(self) -> datetime:
        """The current time, aware, UTC."""
        return datetime.now(UTC)


class ManualClock(Clock):
    """A clock that moves only when told: tests use it to expire follow-ups and run work."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
        self._lock = threading.Lock()

    def now(self) -> datetime:
        """The clock's current time."""
        with self._lock:
            return self._now

    def set(self, value: datetime) -> None:
        """Jump to ``value``."""
        with self._lock:
            self._now = value if value.tzinfo else value.replace(tzinfo=UTC)

    def advance(self, seconds: float) -> datetime:
        """Move forward by ``seconds`` and return the new time."""
        with self._lock:
            self._now += timedelta(seconds=seconds)
            return self._now
