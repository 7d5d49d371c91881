"""Esc followed by a key, in one read or two, is two keys (``tui/terminal_keys.py``)."""

from __future__ import annotations

import pytest
from textual import events
from textual._xterm_parser import XTermParser
from textual.message import Message

from frontdesk.tui import terminal_keys
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.terminal_keys import EscapeFirstParser, FrontdeskDriver


def keys(messages: object) -> list[str]:
    """The keys among parsed messages (pastes as ``paste:<text>``)."""
    out: list[str] = []
    for message in messages:  # type: ignore[attr-defined]
        if isinstance(message, events.Key):
            out.append(message.key)
        elif isinstance(message, events.Paste):
            out.append(f"paste:{message.text}")
    return out


@pytest.mark.parametrize(("burst", "expected"), [
    ("\x1b1", ["escape", "1"]),                     # Textual alone: "¡", typed into a field
    ("\x1b\t", ["escape", "tab"]),                  # Textual alone: shift+tab
    ("\x1bjj\r", ["escape", "j", "j", "enter"]),    # Textual alone: alt+j, then j enter
    ("\x1bb", ["escape", "b"]),                     # Textual alone: ctrl+left
    ("\x1b\x1bj", ["escape", "escape", "j"]),
    ("a\x1b2b", ["a", "escape", "2", "b"]),
    ("\x1b[A\x1b[B", ["up", "down"]),               # sequences are still sequences
    ("\x1bOP", ["f1"]),
    ("\x1b[Z", ["shift+tab"]),
    ("\x1b\x7f", ["ctrl+w"]),                       # Alt+Backspace still deletes a word
])
def test_esc_and_a_key_in_one_read_are_two_keys(burst: str, expected: list[str]) -> None:
    assert keys(EscapeFirstParser().feed(burst)) == expected


def test_an_esc_ending_a_read_waits_for_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = EscapeFirstParser()
    assert keys(parser.feed("j\x1b")) == ["j"]
    assert keys(parser.feed("1")) == ["escape", "1"]
    assert keys(parser.feed("\x1b")) == []
    assert keys(parser.feed("[A")) == ["up"]
    # an ESC alone is the Esc key once ESCDELAY has passed (the clock is the parser's)
    now = [100.0]
    monkeypatch.setattr(terminal_keys, "get_time", lambda: now[0])
    assert keys(parser.feed("\x1b")) == []
    assert keys(parser.tick()) == []
    now[0] += 1.0
    assert keys(parser.tick()) == ["escape"]
    assert keys(parser.tick()) == []


def test_a_paste_is_read_as_textual_reads_it() -> None:
    burst = "\x1b[200~a\x1bjb\x1b[201~x"
    messages: list[Message] = list(EscapeFirstParser().feed(burst))
    assert keys(messages) == keys(XTermParser().feed(burst))


def test_the_console_reads_its_terminal_through_the_parser() -> None:
    assert FrontdeskApp(None, start_session=False).driver_class is FrontdeskDriver
