"""Items of a list answer the client could not read: said, never hidden.

A list is read item by item, so one item of a shape the client does not know (a newer
service's, or a broken one's) does not cost the whole list: it is left out. Leaving it out
quietly would hide work from a person (a note, a message, a conversation), so every reader
of a list reports what it left out here: it is logged, and told to whoever listens (the
console says it on screen, once for each list and count).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

__all__ = ["LeftOut", "listen", "report"]

log = logging.getLogger(__name__)


class LeftOut:
    """``left`` of ``total`` items of the answer to ``operation`` could not be read."""

    __slots__ = ("left", "operation", "total", "why")

    def __init__(self, operation: str, left: int, total: int, why: str) -> None:
        self.operation = operation
        self.left = left
        self.total = total
        self.why = why

    def __str__(self) -> str:
        items = "item" if self.total == 1 else "items"
        return (f"{self.left} of {self.total} {items} of {self.operation} could not be read "
                "and are not shown (the log says why)")


_listeners: list[Callable[[LeftOut], None]] = []


def listen(callback: Callable[[LeftOut], None]) -> Callable[[], None]:
    """Call ``callback`` for every list with items left out from now on; returns what stops
    it."""
    _listeners.append(callback)

    def stop() -> None:
        if callback in _listeners:
            _listeners.remove(callback)

    return stop


def report(operation: str, left: int, total: int, why: str) -> None:
    """``left`` of ``total`` items of ``operation``'s answer were left out, for ``why``."""
    log.warning("%s: left out %d of %d items: %s", operation, left, total, why)
    event = LeftOut(operation, left, total, why)
    for callback in list(_listeners):
        callback(event)
