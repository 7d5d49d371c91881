"""The outbox screen against the sandbox: opened from the header count, the key and the
palette; retry now, discard after a question, edit in the thread; the draft marker in the
inbox afterwards."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from textual.widgets import DataTable

from frontdesk.store.outbox import Outbox, OutboxItem
from frontdesk.store.outbox_payloads import note_payload, reply_payload
from frontdesk.tui import clock
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.inbox.outbox import OutboxScreen, item_cells, waited
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.widgets.conversation_cells import DRAFT_MARK
from frontdesk.tui.widgets.conversation_list import ConversationList
from frontdesk.tui.widgets.status_bar import StatusBar

Console = Any  # the `console` fixture of tests/tui/conftest.py


def open_chats(console: Console, count: int) -> list[int]:
    rows = console.sandbox.query(
        "SELECT id FROM conversations WHERE channel = 'WidgetChat' AND state = 'Open' "
        "ORDER BY id LIMIT ?", (count,))
    return [int(row["id"]) for row in rows]


def stored(console: Console, cid: int, text: str) -> int:
    rows = console.sandbox.query(
        "SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ? AND body_text = ?",
        (cid, text))
    return int(rows[0]["n"])


def table_rows(screen: OutboxScreen) -> list[str]:
    table = screen.query_one("#outbox-table", DataTable)
    return [" ".join(str(cell.plain) for cell in table.get_row_at(index))
            for index in range(table.row_count)]


async def test_the_outbox_screen_retries_discards_and_edits(console: Console) -> None:
    app: FrontdeskApp = console.app()
    async with app.run_test(size=(120, 30)) as pilot:
        await console.ready(pilot)
        session = app.session
        assert session is not None
        first, second, third = open_chats(console, 3)
        # the service refuses every reply for now: they stay in the outbox, refused
        console.sandbox.faults.fail(400, count=None, methods=("POST",),
                                    path_prefix="/v1/conversations/")
        for cid, text in ((first, "Retry me"), (second, "Drop me"), (third, "Edit me")):
            session.send_reply(cid, text)
            await session.outbox.flush()
        await pilot.pause()
        bar = app.screen.query_one(StatusBar)
        assert bar.outbox == 3
        assert "outbox 3 (O)" in str(bar.render())

        # the header's count opens the outbox
        await pilot.click(StatusBar, offset=(bar.size.width - 3, 0))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OutboxScreen)
        rows = table_rows(screen)
        assert [row.split()[0] for row in rows] == [f"#{first}", f"#{second}", f"#{third}"]
        assert all("refused" in row for row in rows)
        assert "Retry me" in rows[0]

        # r: the service takes it now
        console.sandbox.faults.clear()
        await pilot.press("r")
        await session.outbox.flush()
        await pilot.pause()
        assert stored(console, first, "Retry me") == 1
        assert [row.split()[0] for row in table_rows(screen)] == [f"#{second}", f"#{third}"]

        # d asks; n keeps it, y drops it (the service never gets it)
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert len(table_rows(screen)) == 2
        await pilot.press("d", "y")
        await pilot.pause()
        assert [row.split()[0] for row in table_rows(screen)] == [f"#{third}"]
        assert stored(console, second, "Drop me") == 0

        # e: into the thread's composer, out of the outbox
        await pilot.press("e")
        await app.workers.wait_for_complete()
        await pilot.pause()
        thread = app.screen
        assert isinstance(thread, ThreadScreen)
        assert thread.conversation_id == third
        assert thread.composer.text == "Edit me"
        assert session.outbox.items() == []
        assert app.screen.query_one(StatusBar).outbox == 0

        # back in the inbox the conversation carries the draft mark
        await pilot.press("escape", "escape")
        await pilot.pause()
        inbox = app.screen
        assert isinstance(inbox, InboxScreen)
        inbox.show_view("all")
        listing = inbox.query_one(ConversationList)
        listing.set_rows(inbox.rows(), keep=third)
        await pilot.pause()
        line = listing.render_line(listing.cursor + 1 - round(listing.scroll_y)).text
        assert f"#{third}{DRAFT_MARK}" in line

        # O (and the palette) open it too, empty now
        await pilot.press("O")
        await pilot.pause()
        assert isinstance(app.screen, OutboxScreen)
        assert table_rows(app.screen) == []
        assert "empty" in str(app.screen.query_one("#outbox-title").render())
        await pilot.press("escape")
        assert not isinstance(app.screen, OutboxScreen)


def test_a_note_in_the_outbox_is_marked_as_a_note() -> None:
    note = OutboxItem(1, 7, "x-1", note_payload("check billing", agent_id="a",
                                                created_at="2026-01-05T09:00:00.000Z"),
                      "pending", 0, None, 0.0, 0.0)
    reply = OutboxItem(2, 7, "x-2", reply_payload("hello", agent_id="a"), "failed", 1,
                       "Refused", 0.0, 0.0)
    assert item_cells(note, 40, 0.0)[-1].plain == "◆ note check billing"
    assert item_cells(reply, 40, 0.0)[-1].plain == "Refused · hello"
    # its first minute in seconds (seven tries in it do not read as "now"), then as ages
    assert waited(clock.now() - timedelta(seconds=42)) in ("42 s", "43 s")
    assert waited(clock.now() - timedelta(minutes=5)) == "5 min"


async def _never_sent(item: OutboxItem) -> None:
    raise AssertionError(f"the last session's outbox sends nothing: {item.id}")


async def test_replies_left_unsent_are_counted_in_the_first_frame(console: Console) -> None:
    app: FrontdeskApp = console.app()
    session = app.session
    assert session is not None
    left = Outbox(session.local, _never_sent)  # the last session's, never confirmed
    for cid in open_chats(console, 2):
        left.enqueue(cid, reply_payload("Still on its way", agent_id="me"))
    # refused from now on: they stay (refused) where this session can send them
    console.sandbox.faults.fail(400, count=None, methods=("POST",),
                                path_prefix="/v1/conversations/")
    async with app.run_test(size=(120, 30)) as pilot:
        bar = app.screen.query_one(StatusBar)
        assert bar.outbox == 2  # the count is on disk: told before the outbox is made
        await console.ready(pilot)
        await session.outbox.flush()
        await pilot.pause()
        assert session.outbox.failed_count == 2 and bar.outbox == 2
