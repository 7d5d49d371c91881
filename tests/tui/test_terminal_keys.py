"""Esc followed by a key, in one read or two, is two keys (``tui/terminal_keys.py``)."""

from __future__ import annotations

import pytest
from textual import events

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


HOSTILE_PASTES = [
    "hello \x1b x world \x13 after-send",            # ESC, then ^S: Textual sent the reply
    "see \x1b]52;c;ZXZpbA==\x07 done",               # OSC 52 ended by BEL (^G: articles)
    "nested \x1b[200~ start marker, \x1b[A an arrow",  # sequences are text in a paste
    "\x1b",                                           # an ESC alone
    "ends on ESC \x1b[201",                           # all but the end marker's last byte
]


@pytest.mark.parametrize("text", HOSTILE_PASTES)
def test_only_the_exact_end_marker_ends_a_paste(text: str) -> None:
    burst = f"\x1b[200~{text}\x1b[201~xy"
    assert keys(EscapeFirstParser().feed(burst)) == [f"paste:{text}", "x", "y"]


@pytest.mark.parametrize("text", HOSTILE_PASTES)
def test_a_paste_split_anywhere_across_reads_is_one_paste(text: str) -> None:
    burst = f"a\x1b[200~{text}\x1b[201~x"
    for cut in range(1, len(burst)):
        parser = EscapeFirstParser()
        messages = [*parser.feed(burst[:cut]), *parser.feed(burst[cut:])]
        assert keys(messages) == ["a", f"paste:{text}", "x"], f"cut at {cut}"


def test_a_paste_in_many_reads_and_keys_after_it() -> None:
    parser = EscapeFirstParser()
    text = "0123456789\x1b" * 1000
    burst = f"\x1b[200~{text}\x1b[201~j\x1bk"
    messages = [m for at in range(0, len(burst), 4096) for m in parser.feed(burst[at:at + 4096])]
    assert keys(messages) == [f"paste:{text}", "j", "escape", "k"]


def test_a_read_ending_on_the_paste_marker_begun_waits_for_the_next() -> None:
    parser = EscapeFirstParser()
    assert keys(parser.feed("j\x1b[20")) == ["j"]
    assert keys(parser.feed("0~hi\x1b[201~")) == ["paste:hi"]
    # what only looked like the marker's beginning is what it is once the next read comes
    assert keys(parser.feed("\x1b[")) == []
    assert keys(parser.feed("A")) == ["up"]


def test_the_console_reads_its_terminal_through_the_parser() -> None:
    assert FrontdeskApp(None, start_session=False).driver_class is FrontdeskDriver
