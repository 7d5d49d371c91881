"""SVG snapshots of the inbox and of the tag, transfer and follow-up pickers, at 80x24, 100x30 and
160x45 (with the preview pane), on the seeded demo data with the console's clock frozen.

Update them with ``pytest tests/tui/test_inbox_snapshots.py --snapshot-update`` and look at
the pictures before committing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.widgets.preview_pane import PreviewPane

Console = Any  # the `console` fixture of tests/tui/conftest.py
#: the least supported terminal, the usual one and a large one (with the preview pane)
SIZES = [(80, 24), (100, 30), (160, 45)]


def prepared(console: Console, *keys: str,
             queues: bool = False) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Sign in, poll until the inbox is complete and every name known, fill the header and
    the preview (and with ``queues`` every queue's waiting count), then press ``keys``."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await console.settled(pilot)
        app = pilot.app
        assert isinstance(app, FrontdeskApp) and app.session is not None
        session = app.session
        if queues:
            session.queues  # noqa: B018 - made on first use: its topics start
            for _ in range(30):
                rows = await session.live.refresh("queues")
                if rows and all(r.waiting is not None and r.oldest_exact for r in rows):
                    break
            await app.workers.wait_for_complete()
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        for pane in screen.query(PreviewPane):  # built only where the terminal is wide
            worker = pane.flush() if pane.display else None
            if worker is not None:
                await worker.wait()
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_inbox(console: Console, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(console.app(), terminal_size=size, run_before=prepared(console))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_tag_picker(console: Console, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(console.app(), terminal_size=size,
                        run_before=prepared(console, "t"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_transfer_picker(console: Console, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(console.app(), terminal_size=size,
                        run_before=prepared(console, "T", queues=True))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_followup_picker(console: Console, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(console.app(), terminal_size=size,
                        run_before=prepared(console, "f"))
