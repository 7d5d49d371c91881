"""What an agent writes reaches the customer as written: a Persian word's zero-width
non-joiner, an emoji family's joiners, a right-to-left name with its mark and a flag's tag
characters, typed, pasted, from a quick response and in a note, are read back from the
service byte for byte; control characters in a paste are not sent. The sanitiser is for what
the terminal shows (the composer paints its lines through it), never for what is sent."""

from __future__ import annotations

import json
import uuid
from typing import Any

from textual import events
from textual.pilot import Pilot

from frontdesk.sandbox.context import SandboxContext
from frontdesk.tui.screens.inbox.thread import ThreadScreen

Console = Any  # the `console` fixture of tests/tui/conftest.py

#: "I want" in Persian: the non-joiner keeps its first two letters apart from the rest.
PERSIAN = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
#: A family: four people joined by three zero-width joiners.
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
#: A right-to-left name led by a right-to-left mark.
RTL_NAME = "\u200f\u0633\u0627\u0631\u0627"  # Sara
#: The flag of England: a black flag and tag characters.
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
WRITTEN = f"{PERSIAN} {FAMILY} {RTL_NAME} {ENGLAND}"


async def settle(pilot: Pilot[Any]) -> None:
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def paste(pilot: Pilot[Any], text: str) -> None:
    """A bracketed paste as the terminal driver delivers it."""
    driver = pilot.app._driver
    assert driver is not None
    event = events.Paste(text)
    event.set_sender(pilot.app)
    driver.send_message(event)


def last_message(console: Console, cid: int) -> str:
    stored = console.sandbox.query("SELECT attributes FROM messages WHERE conversation_id = ? "
                                   "ORDER BY seq DESC LIMIT 1", (cid,))
    return str(json.loads(stored[0]["attributes"])["content"]["value"])


def plant_quick_response(console: Console) -> None:
    def plant(ctx: SandboxContext) -> None:
        with ctx.db.tx():
            author = ctx.db.all("SELECT id FROM users WHERE kind = 'agent' LIMIT 1")[0]["id"]
            ctx.db.run("INSERT INTO templates (id, type, name, content, created_by, created_at) "
                       "VALUES (?, 'QuickResponse', 'Zarrin', ?, ?, '2026-01-05T10:00:00.000Z')",
                       (str(uuid.uuid4()), WRITTEN, author))
    console.sandbox.call(plant)


async def test_what_is_written_is_sent_byte_for_byte(console: Console) -> None:
    cid = int(console.sandbox.query("SELECT id FROM conversations WHERE channel = 'WidgetChat' "
                                    "AND state = 'Open' ORDER BY id LIMIT 1")[0]["id"])
    plant_quick_response(console)
    app = console.app()
    async with app.run_test(size=(140, 40)) as pilot:
        await console.ready(pilot)
        session = app.session
        screen = ThreadScreen(cid)
        await app.push_screen(screen)
        await settle(pilot)
        editor = screen.composer.editor

        # typed, key by key in one burst
        await console.burst(pilot, "i", *PERSIAN, "space", *FAMILY)
        assert editor.text == f"{PERSIAN} {FAMILY}"
        await console.burst(pilot, "ctrl+s")
        await session.outbox.flush()
        assert last_message(console, cid) == f"{PERSIAN} {FAMILY}"

        # pasted, with control characters among the text: those alone are left out
        paste(pilot, f"{RTL_NAME}\x1b]52;c;ZXZpbA==\x07 {ENGLAND}\u0085 {PERSIAN}")
        await settle(pilot)
        assert editor.text == f"{RTL_NAME}]52;c;ZXZpbA== {ENGLAND} {PERSIAN}"
        await console.burst(pilot, "ctrl+s")
        await session.outbox.flush()
        sent = last_message(console, cid)
        assert sent == f"{RTL_NAME}]52;c;ZXZpbA== {ENGLAND} {PERSIAN}"
        assert sent.encode() == f"{RTL_NAME}]52;c;ZXZpbA== {ENGLAND} {PERSIAN}".encode()

        # a quick response, inserted and sent
        await console.burst(pilot, "ctrl+o", *"zarrin")
        await settle(pilot)
        await console.burst(pilot, "enter")
        await settle(pilot)
        assert editor.text == WRITTEN
        await console.burst(pilot, "ctrl+s")
        await session.outbox.flush()
        assert last_message(console, cid).encode() == WRITTEN.encode()

        # a note, pasted
        await console.burst(pilot, "ctrl+n")
        paste(pilot, WRITTEN)
        await settle(pilot)
        await console.burst(pilot, "ctrl+s")
        await session.outbox.flush()
        notes = console.sandbox.query("SELECT message FROM notes WHERE conversation_id = ? "
                                      "ORDER BY created_at DESC LIMIT 1", (cid,))
        assert notes[0]["message"].encode() == WRITTEN.encode()

        # what the terminal is shown of the composer is still cleaned: a pasted override
        # is painted as its placeholder (the composer still has the focus)
        paste(pilot, "exe\u202e.doc")
        await settle(pilot)
        assert editor.text == "exe\u202e.doc"
        painted = "".join(s.text for y in range(editor.size.height)
                          for s in editor.render_line(y) if not s.control)
        assert "\u202e" not in painted and "⟨U+202E⟩" in painted
