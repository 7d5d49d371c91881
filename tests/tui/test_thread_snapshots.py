"""SVG snapshots of the thread screen, and of the composer with its Markdown preview open, at
80x24, 100x30 and 160x45, on the seeded demo data with the console's clock frozen.

Update them with ``pytest tests/tui/test_thread_snapshots.py --snapshot-update`` and look at
the pictures before committing.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.thread import ThreadScreen

Console = Any  # the `console` fixture of tests/tui/conftest.py
#: the least supported terminal, the usual one and a large one
SIZES = [(80, 24), (100, 30), (160, 45)]

#: An open chat, assigned, tagged, with a dozen messages and no stored files (whose URLs
#: would carry the sandbox's port).
THREAD = ("channel = 'WidgetChat' AND state = 'Open' AND assigned_agent_id IS NOT NULL "
          "AND id IN (SELECT conversation_id FROM conversation_tags) "
          "AND id IN (SELECT conversation_id FROM messages GROUP BY conversation_id "
          "HAVING count(*) BETWEEN 6 AND 30 AND sum(attributes LIKE '%/files/%') = 0)")
WHATSAPP = ("channel = 'WhatsApp' AND state = 'Open' AND id IN (SELECT conversation_id "
            "FROM messages GROUP BY conversation_id HAVING sum(attributes LIKE '%/files/%') = 0)")

REPLY = """Hi **Yara**, thanks for waiting.

Here is what to try:
- unplug the router for _30 seconds_
- press `reset` once
> it should blink green"""


def first_id(console: Console, where: str) -> int:
    rows = console.sandbox.query(f"SELECT id FROM conversations WHERE {where} ORDER BY id LIMIT 1")
    assert rows, where
    return int(rows[0]["id"])


async def show_thread(console: Console, pilot: Pilot[Any], cid: int) -> ThreadScreen:
    """Sign in, open the thread and wait until it has been polled and painted."""
    await console.settled(pilot)
    app = pilot.app
    assert isinstance(app, FrontdeskApp) and app.session is not None
    screen = ThreadScreen(cid)
    await app.push_screen(screen)
    await pilot.pause()
    await app.session.live.refresh("thread")
    await app.workers.wait_for_complete()
    app.clear_notifications()
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_thread(console: Console, snap_compare: Any, size: tuple[int, int]) -> None:
    cid = first_id(console, THREAD)

    async def run_before(pilot: Pilot[Any]) -> None:
        await show_thread(console, pilot, cid)

    assert snap_compare(console.app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_composer_with_preview(console: Console, snap_compare: Any,
                               size: tuple[int, int]) -> None:
    cid = first_id(console, WHATSAPP)

    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await show_thread(console, pilot, cid)
        await pilot.press("i")
        editor = screen.composer.editor
        editor.cursor_blink = False
        editor.insert(REPLY)
        await pilot.press("ctrl+t")
        await pilot.pause()

    assert snap_compare(console.app(), terminal_size=size, run_before=run_before)
