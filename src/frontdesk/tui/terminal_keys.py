"""Reading keys from the terminal: ``Esc`` followed by another key is two keys.

A terminal sends ``Esc`` as the byte ESC, and Alt+key as ESC followed by the key; Textual's
reader tells them apart by time (a lone ESC waits ``ESCDELAY`` for more). A burst — keys
typed fast over SSH, where several arrive in one read — breaks that: ``Esc`` then ``1``
arrives as ESC ``1``, which Textual reads as the character ``¡`` (typed into the field in
front, then saved by the next ``enter``); ``Esc`` ``Tab`` becomes ``shift+tab``, ``Esc`` ``j``
an ``alt+j`` nothing handles — the ``Esc`` and the key are both lost.

The console binds no Alt key, so :class:`EscapeFirstParser` reads ESC followed by anything
that cannot continue an escape sequence as the ``Esc`` key followed by that key, whether they
come in one read or two. What can continue a sequence (``[``, ``O``, ``]``, ``P``, ``_``,
``\\``) and Alt+Backspace (delete the word before, in text fields) are left to Textual.
:class:`FrontdeskDriver` is Textual's Linux driver reading through that parser.
"""

from __future__ import annotations

import os
import selectors
from codecs import getincrementaldecoder
from collections.abc import Iterable, Iterator

from textual import constants, events
from textual._loop import loop_last
from textual._parser import ParseError
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

__all__ = ["EscapeFirstParser", "FrontdeskDriver"]

ESC = "\x1b"
#: characters that may follow ESC in a sequence the terminal sends (CSI, SS3, OSC, DCS, APC,
#: the string terminator) or in Alt+Backspace
CONTINUES = frozenset("[O]P_\\\x7f\x08")
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"


class EscapeFirstParser(XTermParser):
    """Textual's terminal reader, with ESC + key read as two keys (see the module)."""

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        #: when an ESC ended the last read, the time it came (it waits for the next read)
        self._held_since: float | None = None
        self._in_paste = False

    def feed(self, data: str) -> Iterable[Message]:
        """Parse ``data``, splitting ESC from a key that follows it."""
        return list(self._split(data))

    def tick(self) -> Iterable[Message]:
        """An ESC that ended a read and waited ``ESCDELAY`` in vain is the ``Esc`` key."""
        out: list[Message] = []
        if self._held_since is not None and (
                get_time() - self._held_since >= constants.ESCAPE_DELAY):
            self._held_since = None
            out.append(events.Key("escape", ESC))
        out.extend(super().tick())
        return out

    def _split(self, data: str) -> Iterator[Message]:
        if self._held_since is not None:
            self._held_since = None
            data = ESC + data
        if not data:
            yield from super().feed(data)  # the end of input
            return
        start = 0
        at = data.find(ESC)
        while at != -1:
            if data.startswith(PASTE_START, at):
                self._in_paste = True
            elif data.startswith(PASTE_END, at):
                self._in_paste = False
            elif not self._in_paste:
                if at == len(data) - 1:
                    # an ESC at the end of a read: the next read (or ESCDELAY) says what it is
                    yield from self._feed(data[start:at])
                    self._held_since = get_time()
                    return
                if data[at + 1] not in CONTINUES:
                    yield from self._feed(data[start:at])
                    yield events.Key("escape", ESC)
                    start = at + 1
            at = data.find(ESC, at + 1)
        yield from self._feed(data[start:])

    def _feed(self, data: str) -> Iterable[Message]:
        # an empty feed would tell Textual's parser the input has ended
        return super().feed(data) if data else ()


class FrontdeskDriver(LinuxDriver):
    """Textual's Linux driver, reading keys through :class:`EscapeFirstParser`.

    ``run_input_thread`` is Textual's own (8.x), with the parser swapped.
    """

    def run_input_thread(self) -> None:
        """Wait for input and dispatch events."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        fileno = self.fileno
        parser = EscapeFirstParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode

        def process_selector_events(
                selector_events: list[tuple[selectors.SelectorKey, int]],
                final: bool = False) -> None:
            for last, (_key, mask) in loop_last(selector_events):
                if mask & selectors.EVENT_READ:
                    unicode_data = decode(os.read(fileno, 1024 * 4), final=final and last)
                    if not unicode_data:
                        break
                    for event in parser.feed(unicode_data):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set():
                process_selector_events(selector.select(0.1))
            selector.unregister(self.fileno)
            process_selector_events(selector.select(0.1), final=True)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass
