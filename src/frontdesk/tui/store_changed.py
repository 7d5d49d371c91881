"""How a change of the store's live topics reaches a screen: as one typed Textual message.

The live store has no Textual in it: the app subscribes to it with a plain callback (called
on the app's loop with the topic's name and its new value), keeps the status bar up to date,
and posts a :class:`StoreChanged` to the screen in front when that screen shows live topics
(a ``ModeScreen``, or a modal with the ``LiveModal`` mix-in: ``screens/shared/base.py``).
The screen's queue hands the changes over in the order the store told them; the Admin screen
passes its section's own topics on to the section the same way.

The message carries the topic's typed key (:class:`~frontdesk.store.topics.TopicKey`; a
topic registered under a plain name is given its key here, the one place a name becomes a
key) and the value. A handler compares the key with the keys the stores declare, never with
a string, and reads the value typed::

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        if (state := message.of(THREAD)) is not None:
            self._apply(state)
        elif message.topic == INBOX:
            self.rebuild()

A key is its name (a ``str``): compare with ``==``, as the key a store declared and the one a
change carries are equal but not always the same object.

:func:`store_change_handler` is Textual's ``@on(StoreChanged)`` behind the boundary a message
handler needs: Textual ends the console, traceback on screen, when a handler raises. A bug in
a screen's handling of a change is logged with its traceback and said in one line instead
(once per screen and topic: a topic may change every few seconds), and the next change is
handled as usual.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from textual import on
from textual.message import Message
from textual.widget import Widget

from ..store.topics import TopicKey
from .worker_failures import failure_said, place_of

__all__ = ["StoreChanged", "store_change_handler"]

T = TypeVar("T")
W = TypeVar("W", bound=Widget)


class StoreChanged(Message, bubble=False):
    """A live topic of the store changed: ``topic`` is its typed key, ``value`` what it holds
    now. It does not bubble: the screen it is posted to (or the section the Admin screen
    hands it to) is the one that shows it."""

    def __init__(self, topic: str, value: Any) -> None:
        super().__init__()
        #: the topic's key (a topic registered under a plain name is given one here)
        self.topic: TopicKey[Any] = topic if isinstance(topic, TopicKey) else TopicKey(topic)
        #: what the topic holds now (read it typed with :meth:`of`)
        self.value = value

    def of(self, key: TopicKey[T]) -> T | None:
        """The value, typed, when the change is of ``key``'s topic; else None."""
        return key.of(self.topic, self.value)


#: per receiving widget, the topics whose failed handling was already said on screen
_said: WeakKeyDictionary[Widget, set[str]] = WeakKeyDictionary()


def store_change_handler(
        handler: Callable[[W, StoreChanged], None]) -> Callable[[W, StoreChanged], None]:
    """Declare ``handler`` the handler of :class:`StoreChanged` (Textual's ``@on``), behind a
    boundary: an unexpected error is logged with its traceback and said in one line (once per
    widget and topic) rather than ending the console."""

    @functools.wraps(handler)
    def guarded(node: W, message: StoreChanged) -> None:
        try:
            handler(node, message)
        except Exception as error:  # a boundary: a message handler's error ends the console
            place = place_of(node)
            line = failure_said(f"show the change of {message.topic}"
                                + (f" ({place})" if place else ""), error)
            said = _said.setdefault(node, set())
            if message.topic not in said:
                said.add(message.topic)
                node.notify(line, severity="error", markup=False, timeout=15)

    return on(StoreChanged)(guarded)
