"""Failed sign-in attempts per source address, and how long the next refusal is held back.

A personal key is 32 random bytes, so guessing one is hopeless; holding back the answer to a
source that keeps sending wrong keys still makes a scan slow and keeps it from taking the
gateway's time. The first :data:`FREE_FAILURES` failures within :data:`WINDOW` seconds are
answered at once; each further one waits twice as long as the one before, from a quarter of
a second up to :data:`MAX_DELAY`. A success from the source forgets its failures. At most
:data:`MAX_SOURCES` sources are remembered (the oldest forgotten first).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

__all__ = ["FREE_FAILURES", "MAX_DELAY", "FailedAttempts"]

FREE_FAILURES = 5
WINDOW = 300.0
MAX_DELAY = 5.0
MAX_SOURCES = 10_000
_FIRST_DELAY = 0.25


class FailedAttempts:
    """Recent failed attempts by source address."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._sources: OrderedDict[str, tuple[int, float]] = OrderedDict()

    def failed(self, source: str) -> float:
        """Note a failure from ``source``; the seconds to hold its answer back."""
        now = self._clock()
        count, first = self._sources.pop(source, (0, now))
        if now - first > WINDOW:
            count, first = 0, now
        count += 1
        self._sources[source] = (count, first)
        while len(self._sources) > MAX_SOURCES:
            self._sources.popitem(last=False)
        return self.delay_after(count)

    def succeeded(self, source: str) -> None:
        """Forget ``source``'s failures."""
        self._sources.pop(source, None)

    def failures(self, source: str) -> int:
        """How many failures ``source`` has within the window now."""
        count, first = self._sources.get(source, (0, 0.0))
        return count if self._clock() - first <= WINDOW else 0

    @staticmethod
    def delay_after(count: int) -> float:
        """The seconds the answer to the ``count``-th failure waits."""
        if count <= FREE_FAILURES:
            return 0.0
        return min(_FIRST_DELAY * 2.0 ** (count - FREE_FAILURES - 1), MAX_DELAY)
