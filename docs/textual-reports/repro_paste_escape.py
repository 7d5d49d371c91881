"""A bracketed paste holding an ESC: Textual's reader ends the paste there and delivers the
rest of the pasted text as key presses (a pasted Ctrl+S included), before the paste.

Feeds the bytes a terminal sends for a bracketed paste straight to Textual's terminal reader
(``XTermParser``) and prints what it delivers. Run: ``python repro_paste_escape.py``.
"""

from __future__ import annotations

import time

import textual
from textual import constants, events
from textual._xterm_parser import XTermParser

START, END = "\x1b[200~", "\x1b[201~"


def delivered(data: str) -> list[str]:
    """What Textual delivers for ``data``, read in one read."""
    parser = XTermParser()
    out = [*parser.feed(data)]
    time.sleep(constants.ESCAPE_DELAY * 2)
    out += parser.tick()
    return [f"Paste({event.text!r})" if isinstance(event, events.Paste)
            else f"Key({event.key})" if isinstance(event, events.Key)
            else type(event).__name__ for event in out]


def main() -> None:
    print(f"textual {textual.__version__}")
    for pasted in ["echo hi", "echo hi\x1bx\x13done", "say \x1b[31mred\x1b[0m"]:
        print(f"pasted {pasted!r}\n    -> {', '.join(delivered(START + pasted + END))}")


if __name__ == "__main__":
    main()
