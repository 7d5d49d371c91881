"""Reading keys from the terminal: ``Esc`` followed by another key is two keys.

A terminal sends ``Esc`` as the byte ESC, and Alt+key as ESC followed by the key; Textual's
reader tells them apart by time (a lone ESC waits ``ESCDELAY`` for more). A burst — keys
typed fast over SSH, where several arrive in one read — breaks that: ``Esc`` then ``1``
arrives as ESC ``1``, which Textual reads as the character ``¡`` (typed into the field in
front, then saved by the next ``enter``); ``Esc`` ``Tab`` becomes ``shift+tab``, ``Esc`` ``j``
an ``alt+j`` nothing handles — the ``Esc`` and the key are both lost.

A bracketed paste is read here too, as the protocol says: everything between ``ESC [ 200 ~``
and the exact ``ESC [ 201 ~`` is one :class:`~textual.events.Paste`, whatever it holds — an ESC,
a whole escape sequence, a control character such as ``^S`` — and a marker split across two
reads is still one marker. (Textual's reader reads escape sequences inside a paste and sends
what it cannot make sense of as keys: a pasted ``ESC x … ^S`` sent the half-written reply.)

The console binds no Alt key, so :class:`EscapeFirstParser` reads ESC followed by anything
that cannot continue an escape sequence as the ``Esc`` key followed by that key, whether they
come in one read or two. What can continue a sequence (``[``, ``O``, ``]``, ``P``, ``_``,
``\\``) and Alt+Backspace (delete the word before, in text fields) are left to Textual.
:class:`FrontdeskDriver` is Textual's Linux driver reading through that parser. It also tells
when what the console wrote has reached the terminal (:func:`when_written`): Textual writes on
a thread of its own, and the work that follows the first frame waits for that frame.
"""

from __future__ import annotations

import os
import selectors
import weakref
from codecs import getincrementaldecoder
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from textual import constants, events
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from .textual_private import ParseError, XTermParser, get_time, loop_last

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["EscapeFirstParser", "FrontdeskDriver", "on_our_terminal", "terminal_writer",
           "when_written"]

#: each running app's terminal driver, for what the console writes to the terminal itself
#: (a desktop notification): Textual's public API has the bell, nothing more
_DRIVERS: weakref.WeakKeyDictionary[App[Any], FrontdeskDriver] = weakref.WeakKeyDictionary()


def terminal_writer(app: App[Any]) -> Callable[[str], None] | None:
    """A function writing straight to ``app``'s terminal, or None when it has none of ours
    (headless in tests, a browser tab): what it writes must already be safe."""

    def write(text: str) -> None:
        driver = _DRIVERS.get(app)
        if driver is not None:
            driver.write(text)
            driver.flush()

    return write


def on_our_terminal(app: App[Any]) -> bool:
    """Whether ``app`` writes to a terminal through :class:`FrontdeskDriver` (not headless,
    not a browser tab)."""
    return app in _DRIVERS


def when_written(app: App[Any], callback: Callable[[], None]) -> bool:
    """Have ``callback`` called (on the driver's writer thread) once everything ``app`` has
    written to its terminal so far has been handed to the terminal; False when ``app`` has
    none of ours (headless, a browser tab): there is nothing to wait for."""
    driver = _DRIVERS.get(app)
    if driver is None or not driver.writing:
        return False
    driver.write(_Written(callback))
    return True


class _Written(str):
    """A mark in the driver's output (empty: nothing reaches the terminal): the writer thread
    writes in order, so when it comes to the mark, everything before it has been written."""

    callback: Callable[[], None]

    def __new__(cls, callback: Callable[[], None]) -> _Written:
        mark = super().__new__(cls, "")
        mark.callback = callback
        return mark


class _MarkedOutput:
    """The terminal's output as the driver's writer thread writes to it, calling the callback
    of each :class:`_Written` mark once what came before it is flushed."""

    def __init__(self, output: Any) -> None:
        self._output = output

    def write(self, text: str) -> int:
        if isinstance(text, _Written):
            self._output.flush()
            text.callback()
            return 0
        written: int = self._output.write(text)
        return written

    def __getattr__(self, name: str) -> Any:
        return getattr(self._output, name)


ESC = "\x1b"
#: characters that may follow ESC in a sequence the terminal sends (CSI, SS3, OSC, DCS, APC,
#: the string terminator) or in Alt+Backspace
CONTINUES = frozenset("[O]P_\\\x7f\x08")
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"


def _marker_start(data: str, marker: str) -> int:
    """Where a proper beginning of ``marker`` ends ``data`` (from two characters on: a lone
    ESC is the Esc key's business), else ``len(data)``."""
    for size in range(min(len(marker) - 1, len(data)), 1, -1):
        if data.endswith(marker[:size]):
            return len(data) - size
    return len(data)


class EscapeFirstParser(XTermParser):
    """Textual's terminal reader, with ESC + key read as two keys and a bracketed paste read
    as the protocol says (see the module)."""

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        #: when the last read ended on what may begin a sequence (an ESC, or the first
        #: characters of the paste marker), the time it came: it waits for the next read
        self._held_since: float | None = None
        #: what the last read ended on and the next one continues
        self._carry = ""
        #: the text of the paste being read, in pieces as the reads bring them; None outside
        self._paste: list[str] | None = None

    def feed(self, data: str) -> Iterable[Message]:
        """Parse ``data``, splitting ESC from a key that follows it."""
        return list(self._split(data))

    def tick(self) -> Iterable[Message]:
        """What ended a read and waited ``ESCDELAY`` in vain is what it is: an ESC alone the
        ``Esc`` key, the beginning of a sequence whatever Textual makes of it."""
        out: list[Message] = []
        if self._held_since is not None and self._paste is None and (
                get_time() - self._held_since >= constants.ESCAPE_DELAY):
            held, self._carry, self._held_since = self._carry, "", None
            if held == ESC:
                out.append(events.Key("escape", ESC))
            else:
                out.extend(self._feed(held))
        out.extend(super().tick())
        return out

    def _split(self, data: str) -> Iterator[Message]:
        if not data and not self._carry:
            yield from super().feed(data)  # the end of input
            return
        data, self._carry, self._held_since = self._carry + data, "", None
        while data:
            if self._paste is not None:
                data = yield from self._pasted(data)
                continue
            at = data.find(PASTE_START)
            if at == -1:
                cut = _marker_start(data, PASTE_START)
                yield from self._keys(data[:cut])
                if cut < len(data):
                    self._carry, self._held_since = data[cut:], get_time()
                return
            yield from self._keys(data[:at])
            self._paste = []
            data = data[at + len(PASTE_START):]

    def _pasted(self, data: str) -> Generator[Message, None, str]:
        """Read ``data`` into the paste under way: only the exact end marker ends it, whatever
        the paste holds (ESC, a sequence, a control key); the end marker split across two
        reads still ends it. Returns what follows the paste."""
        paste = self._paste
        assert paste is not None
        at = data.find(PASTE_END)
        if at == -1:
            cut = _marker_start(data, PASTE_END)
            if data.endswith(ESC) and cut == len(data):
                cut -= 1  # an ESC that may begin the end marker
            paste.append(data[:cut])
            self._carry = data[cut:]
            return ""
        paste.append(data[:at])
        self._paste = None
        text = "".join(paste).replace("\x00", "")
        if text:
            yield events.Paste(text)
        return data[at + len(PASTE_END):]

    def _keys(self, data: str) -> Iterator[Message]:
        """Keys outside a paste, an ESC followed by a key that cannot continue a sequence
        read as the ``Esc`` key and that key."""
        start = 0
        at = data.find(ESC)
        while at != -1:
            if at == len(data) - 1:
                # an ESC at the end of a read: the next read (or ESCDELAY) says what it is
                yield from self._feed(data[start:at])
                self._carry, self._held_since = ESC, get_time()
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

    def __init__(self, app: App[Any], **options: Any) -> None:
        super().__init__(app, **options)
        _DRIVERS[app] = self
        # what the writer thread writes to: tells when a frame has been written (when_written);
        # it writes and flushes as the terminal's own file does
        self._file = _MarkedOutput(self._file)  # type: ignore[assignment]

    @property
    def writing(self) -> bool:
        """Whether the driver's writer thread is running (application mode, not suspended)."""
        writer = self._writer_thread
        return writer is not None and writer.is_alive()

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
