"""Esc followed by a key in one terminal read: Textual's reader delivers one key, not two.

Feeds the bytes a terminal sends straight to Textual's terminal reader (``XTermParser``, what
the Linux driver reads the terminal with), lets ``ESCDELAY`` pass, and prints the keys it
delivers. Run: ``python repro_escape_burst.py`` (no terminal needed).
"""

from __future__ import annotations

import time

import textual
from textual import constants, events
from textual._xterm_parser import XTermParser
from textual.message import Message


def keys(*reads: str) -> list[str]:
    """The keys Textual delivers for ``reads`` (each one ``os.read`` of the terminal)."""
    parser = XTermParser()
    delivered: list[Message] = []
    for data in reads:
        delivered += parser.feed(data)
    time.sleep(constants.ESCAPE_DELAY * 2)  # a lone Esc is only delivered after ESCDELAY
    delivered += parser.tick()
    return [event.key for event in delivered if isinstance(event, events.Key)]


def main() -> None:
    print(f"textual {textual.__version__}, ESCDELAY {constants.ESCAPE_DELAY * 1000:.0f} ms")
    cases = [
        ("Esc, j", ["\x1bj"]),
        ("Esc, 1", ["\x1b1"]),
        ("Esc, Tab", ["\x1b\t"]),
        ("Esc, :", ["\x1b:"]),
        ("Esc, j (two reads, quick)", ["\x1b", "j"]),
    ]
    for typed, reads in cases:
        shown = " + ".join(repr(data) for data in reads)
        print(f"{typed:30} reads {shown:14} -> {keys(*reads)}")
    # the same two keys further apart than ESCDELAY: what the person meant
    parser = XTermParser()
    apart = [*parser.feed("\x1b")]
    time.sleep(constants.ESCAPE_DELAY * 2)
    apart += [*parser.tick(), *parser.feed("j")]
    shown = "'\\x1b' + (pause) + 'j'"
    print(f"{'Esc, pause, j':30} reads {shown} -> "
          f"{[e.key for e in apart if isinstance(e, events.Key)]}")


if __name__ == "__main__":
    main()
