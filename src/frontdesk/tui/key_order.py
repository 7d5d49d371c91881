"""Keys handled one at a time, in the order they came.

A terminal read often brings several keys at once (over SSH, a paste, a fast typist). Textual
hands each key to the widget focused *when the app reads it*, and runs a key's binding when
the key has bubbled back up to the app — so in a burst the next key is already on its way to
the old focus before the previous key's binding moved the focus, opened a picker or
filtered a list: ``/abc`` would send ``abc`` to the list rather than the filter line, and a
typed character could overtake an arrow key.

:class:`OrderedKeysApp` holds the keys of a burst and lets the next one go only when the one
before is done: handled by a priority binding, stopped by the widget that took it (an input
typing it), or back at the app where the bindings run. A key that goes missing (its widget
removed on the way) lets the next go after :data:`KEY_PATIENCE` seconds. Before the next key
goes, what the last one set off in the screen in front (a message moving the focus, a list
refilled for a filter) has played out: a burst acts as the same keys typed one by one.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from textual import events
from textual.app import App, ScreenStackError, UnknownModeError
from textual.screen import Screen

from .textual_private import active_message_pump

__all__ = ["KEY_PATIENCE", "OrderedKey", "OrderedKeysApp"]

log = logging.getLogger("frontdesk.tui")

ReturnType = TypeVar("ReturnType")

#: seconds after which a key never reported done lets the next one go
KEY_PATIENCE = 2.0
#: seconds between two looks for a screen that has become quiet, and looks at most
SETTLE_STEP = 0.002
SETTLE_TRIES = 500
#: seconds after which a key still in flight or settling is given up when the next one comes:
#: whatever went wrong with one key, the keys after it are never held for good
KEY_STUCK = KEY_PATIENCE + SETTLE_STEP * SETTLE_TRIES + 1.0


class OrderedKey(events.Key):
    """A key let through by :class:`OrderedKeysApp`; tells it when a widget stopped it."""

    def __init__(self, key: str, character: str | None,
                 done: Callable[[OrderedKey], None]) -> None:
        super().__init__(key, character)
        self._done = done

    def stop(self, stop: bool = True) -> OrderedKey:
        """Stop the key where it is (a widget took it): the next key may go. (A screen
        stops every key on its way to the app, which still receives it: that one is not
        the end.)"""
        super().stop(stop)
        if stop and not isinstance(active_message_pump.get(None), Screen):
            self._done(self)
        return self


#: handled by every ``on_key``/``_on_key`` as the key it stands for
OrderedKey.handler_name = events.Key.handler_name


class OrderedKeysApp(App[ReturnType]):
    """An app that handles the keys of a burst strictly one after the other."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._held_keys: deque[events.Key] = deque()
        self._key_in_flight: OrderedKey | None = None
        self._keys_settling = False
        #: when the key in flight went, or settling began (``time.monotonic``)
        self._key_since = 0.0

    @property
    def keys_waiting(self) -> int:
        """Keys read but not yet done with (tests: a burst is fully handled at 0)."""
        return len(self._held_keys) + (self._key_in_flight is not None) + self._keys_settling

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not isinstance(event, OrderedKey) \
                and not event.is_forwarded:
            self._unstick()
            if self._key_in_flight is None and not self._keys_settling \
                    and not self._held_keys:
                # nothing before it: handled now, as Textual would
                await self.on_event(self._in_flight(event))
                return
            self._held_keys.append(event)
            if self._key_in_flight is None and not self._keys_settling:
                self._let_next_key_go()  # nothing is moving the queue: move it
            return
        was_forwarded = event.is_forwarded
        await super().on_event(event)
        if isinstance(event, OrderedKey) and (was_forwarded or not event.is_forwarded):
            # back at the app (its bindings ran), or taken at once by a priority binding
            self._key_done(event)

    def _unstick(self) -> None:
        """Give up a key that has been in flight or settling for far longer than any key
        takes (whatever went wrong with it), so that the keys after it are never held for
        good."""
        if (self._key_in_flight is not None or self._keys_settling) \
                and time.monotonic() - self._key_since > KEY_STUCK:
            flight = self._key_in_flight
            log.warning("a key was never done with (%s, %.1f s ago, %d held, screen %s); "
                        "the keys after it go on",
                        "settling" if flight is None else f"{flight.key!r} in flight",
                        time.monotonic() - self._key_since, len(self._held_keys),
                        type(self.screen).__name__ if self.screen_stack else None)
            self._key_in_flight = None
            self._keys_settling = False

    def _in_flight(self, raw: events.Key) -> OrderedKey:
        """The key that stands for ``raw`` while it is handled (the only one in flight)."""
        key = OrderedKey(raw.key, raw.character, self._key_done)
        key.set_sender(self)
        self._key_in_flight = key
        self._key_since = time.monotonic()
        self.set_timer(KEY_PATIENCE, lambda: self._key_done(key), name="key patience")
        return key

    def _let_next_key_go(self) -> None:
        if self._held_keys:
            self.post_message(self._in_flight(self._held_keys.popleft()))

    def _key_done(self, key: OrderedKey) -> None:
        if key is not self._key_in_flight:
            return
        self._key_in_flight = None
        self._keys_settling = True
        self._key_since = time.monotonic()
        self._settle_keys(0)

    def _settle_keys(self, tries: int) -> None:
        """Let the next key go once what the last one set off has played out (a focus
        moved by a message, a list refilled for a filter, a screen pushed)."""
        if self._held_keys and tries < SETTLE_TRIES and self._screen_busy():
            self.set_timer(SETTLE_STEP, partial(self._settle_keys, tries + 1),
                           name="keys settle")
            return
        self._keys_settling = False
        self._let_next_key_go()

    def _screen_busy(self) -> bool:
        """Whether a message waits in the screen in front or one of its widgets."""
        try:
            screen = self.screen
        except (ScreenStackError, UnknownModeError):  # no screen yet, or the app is closing
            return False
        return any(not node._message_queue.empty()
                   for node in (screen, *screen.walk_children()))
