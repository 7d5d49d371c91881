"""Internal notes in the thread: ctrl+n switches the composer to Note (shown plainly), the note
goes through the outbox (kept while the service is down), lands in the service's notes and
never in its messages, and is drawn among the messages as a note."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from rich.text import Text
from textual.pilot import Pilot

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.thread_notes import NOTE_PREFIX
from frontdesk.tui.widgets.message_view import MessageView

Console = Any  # the `console` fixture of tests/tui/conftest.py


def _shown(widget: Any) -> str:
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


def app_of(pilot: Pilot[Any]) -> FrontdeskApp:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    return app


async def a_note_is_written_kept_while_down_and_shown_as_a_note(
        console: Console, pilot: Pilot[Any]) -> None:
    cid = int(console.sandbox.query("SELECT id FROM conversations WHERE channel = 'WidgetChat' "
                                    "AND state = 'Open' ORDER BY id LIMIT 1")[0]["id"])
    app = app_of(pilot)
    session = app.session
    assert session is not None
    screen = await console.open_thread(pilot, cid)
    composer = screen.composer
    assert composer.mode == "reply" and "Reply" in str(composer.border_title)

    # ctrl+n: the mode is shown on the border, the line and the placeholder
    await pilot.press("i", "ctrl+n")
    await pilot.pause()
    assert composer.has_class("-note") and str(composer.mode) == "note"
    assert "Note · only agents see this" in str(composer.border_title)
    assert "NOTE" in _shown(composer.query_one("#composer-info"))
    keys = {b.binding.description for b in app.screen.active_bindings.values()
            if b.enabled and b.binding.key == "ctrl+s"}
    assert keys == {"Add note"}  # the footer's send key says what it does

    # the service is down: the note waits in the outbox, shown as a note "not sent yet"
    console.sandbox.faults.fail(503, count=None, path_prefix=f"/v1/conversations/{cid}/notes")
    await pilot.press(*"Refund ok")
    await pilot.press("ctrl+s")
    await app.workers.wait_for_complete()
    await pilot.pause()
    items = session.outbox.items(cid)
    assert [i.payload["kind"] for i in items] == ["note"] and items[0].state != "failed"
    assert console.sandbox.query("SELECT id FROM notes WHERE message = 'Refund ok'") == []
    assert composer.text == "" and composer.mode == "reply"  # the next words: a reply
    echo = screen.thread_view.message_views[-1]
    assert echo.has_class("-internal") and echo.has_class("-pending")
    assert echo.message.external_id == items[0].external_id
    assert "Note · only agents see this" in _shown(echo)

    # back up: sent once, into notes, not messages; drawn as a note in the thread
    console.sandbox.faults.clear()
    await session.outbox.flush()
    assert session.outbox.items() == []
    assert len(console.sandbox.query("SELECT id FROM notes WHERE conversation_id = ? AND "
                                     "message = 'Refund ok'", (cid,))) == 1
    assert console.sandbox.query("SELECT id FROM messages WHERE conversation_id = ? AND "
                                 "attributes LIKE '%Refund ok%'", (cid,)) == []
    await session.live.refresh("thread")
    await pilot.pause()
    notes = [v for v in screen.thread_view.query(MessageView)
             if v.message.id.startswith(NOTE_PREFIX)]
    assert len(notes) == 1 and notes[0].has_class("-internal")
    assert "Refund ok" in _shown(notes[0])
    assert not [v for v in screen.thread_view.message_views if v.has_class("-pending")]


async def history_of_a_conversation_and_the_organisations_activity(
        console: Console, pilot: Pilot[Any]) -> None:
    from frontdesk.tui.screens.shared.history import ActivityScreen, HistoryScreen
    from frontdesk.tui.widgets.safe import DataTable

    cid = int(console.sandbox.query("SELECT id FROM conversations WHERE channel = 'WidgetChat' "
                                    "AND state = 'Open' ORDER BY id DESC LIMIT 1")[0]["id"])
    app = app_of(pilot)
    session = app.session
    assert session is not None
    queue = console.sandbox.query("SELECT id, name FROM queues ORDER BY name LIMIT 1")[0]
    tag = console.sandbox.query("SELECT id, name FROM tags WHERE state = 'Active' "
                                "ORDER BY name LIMIT 1")[0]
    await session.actions.transfer(cid, queue["id"])
    await session.actions.set_tags(cid, [tag["id"]], [])
    until = session.server_now().replace(microsecond=0) + timedelta(days=2)
    await session.actions.followup(cid, until)
    await session.client.notes.add(cid, "Escalated to <b>\x1b[31mbilling")

    def rows(screen: Any) -> list[str]:
        table = screen.query_one("#history-table", DataTable)
        return [" | ".join(str(c) for c in table.get_row_at(n))
                for n in range(table.row_count)]

    # h in the thread: the conversation's log, newest first, in words (a refused read said,
    # then r reads it again)
    await app.push_screen(ThreadScreen(cid))
    await pilot.pause()
    console.sandbox.faults.fail(400, path_prefix=f"/v1/conversations/{cid}/activitylog")
    await pilot.press("h")
    await app.workers.wait_for_complete()
    await pilot.pause()
    history = app.screen
    assert isinstance(history, HistoryScreen)
    status = history.query_one("#history-status")
    assert str(status.render()).startswith("The history could not be read: ")
    assert status.has_class("-error")
    await pilot.press("r")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert not status.has_class("-error")
    shown = rows(history)
    assert shown and "added an internal note" in shown[0]
    # where a transfer went, until when a follow-up runs (this console set it), and a tag
    # added through the API, whose author the service does not record, not blamed on the
    # system
    from frontdesk.tui import clock

    assert f"set a follow-up until {clock.shown(until, 'day')}" in shown[1]
    assert f"not recorded | added the tag {tag['name']}" in shown[2]
    assert f"transferred the conversation to the queue {queue['name']}" in shown[3]
    assert "system" not in " ".join(shown[:4])
    assert "\x1b" not in "".join(shown)
    await pilot.press("escape")
    await pilot.pause()
    assert isinstance(app.screen, ThreadScreen)

    # the organisation's activity, filtered by kind and by conversation
    app.action_activity()
    await pilot.pause()  # mounted: its load has started (a busy day is several pages)
    await app.workers.wait_for_complete()
    await pilot.pause()
    activity = app.screen
    assert isinstance(activity, ActivityScreen)
    assert len(activity.entries) >= 1
    await pilot.press(*"note", "space", "#", *str(cid))
    await pilot.pause()
    kept = rows(activity)
    assert kept and all(f"#{cid}" in row and "note" in row for row in kept)
    await pilot.press("escape")


async def linking_under_a_parent_and_opening_it_from_the_head(
        console: Console, pilot: Pilot[Any]) -> None:
    from frontdesk.tui.screens.inbox.links import LinkedScreen, LinkParentScreen

    rows = console.sandbox.query("SELECT id FROM conversations WHERE channel = 'WidgetChat' "
                                 "AND state = 'Open' AND link IS NULL ORDER BY id LIMIT 2 OFFSET 1")
    child, parent = (int(row["id"]) for row in rows)
    app = app_of(pilot)
    session = app.session
    assert session is not None
    screen = ThreadScreen(child)
    await app.push_screen(screen)
    await pilot.pause()
    await session.live.refresh("thread")
    await pilot.pause()

    # L: wrong numbers are said in one line, and nothing is linked
    await pilot.press("L")
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, LinkParentScreen)
    status = dialog.query_one("#history-status")
    await pilot.press(*str(child), "enter")
    await pilot.pause()
    assert "cannot be linked to itself" in _shown(status)
    dialog.query_one("#link-parent").value = "987654"  # type: ignore[attr-defined]
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert "There is no conversation #987654" in _shown(status)
    dialog.query_one("#link-parent").value = str(parent)  # type: ignore[attr-defined]
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert app.screen is screen
    stored = console.sandbox.query("SELECT link FROM conversations WHERE id = ?", (child,))
    assert json.loads(stored[0]["link"])["parentId"] == parent
    await session.live.refresh("thread")
    await pilot.pause()
    assert f"under #{parent} (side conversation)" in screen.head.text.plain

    # l: the parent, opened in place; its head lists the child
    await pilot.press("l")
    await pilot.pause()
    assert isinstance(app.screen, LinkedScreen)
    await pilot.press("enter")
    await pilot.pause()
    assert app.screen is screen and screen.conversation_id == parent
    await session.live.refresh("thread")
    await pilot.pause()
    assert f"1 linked: #{child}" in screen.head.text.plain


async def test_notes_history_and_links_walked(console: Console) -> None:
    """Notes, history and links on one console, each on a conversation of its own: a note
    kept while the service is down, the history and the organisation's activity, a link
    under a parent (the size the linked head needs)."""
    await console.walk((160, 40),
                       a_note_is_written_kept_while_down_and_shown_as_a_note,
                       history_of_a_conversation_and_the_organisations_activity,
                       linking_under_a_parent_and_opening_it_from_the_head)


def test_notes_placed_among_compact_rows_reading_only_around_them() -> None:
    from datetime import UTC, datetime

    from frontdesk.api.models import InternalNote
    from frontdesk.api.resources.messages import WireMessage
    from frontdesk.store.message_rows import MessageRows
    from frontdesk.tui.thread_notes import with_notes

    def wire(n: int) -> WireMessage:
        raw = {"id": f"m{n}", "authorId": "a1", "createdAt": f"2026-01-01T10:{n:02d}:00Z",
               "attributes": {"_type": "ChatAttributes", "direction": "Inbound",
                              "content": {"_type": "Text", "value": f"body {n}"}}}
        return WireMessage(f"m{n}", "a1", None, json.dumps(raw))

    def note(minute: int, second: int) -> InternalNote:
        return InternalNote.model_validate({
            "id": f"n{minute}", "authorId": "a1", "message": f"note {minute}", "csid": 1,
            "createdAt": datetime(2026, 1, 1, 10, minute, second, tzinfo=UTC).isoformat()})

    rows = MessageRows.of_wires([wire(n) for n in range(40)])
    assert with_notes(rows, ()) is rows  # nothing to place: the rows as they are
    merged = with_notes(rows, [note(39, 30), note(5, 30), note(0, 0)])
    assert isinstance(merged, MessageRows) and len(merged) == 43
    # each note before the first message newer than it (one of the same time goes after it)
    assert merged.ids[:2] == ["m0", f"{NOTE_PREFIX}n0"]
    assert merged.ids[6:9] == ["m5", f"{NOTE_PREFIX}n5", "m6"]
    assert merged.ids[-2:] == ["m39", f"{NOTE_PREFIX}n39"]
    assert len(rows._cache) < 20, "not every message was read back into a model"
    assert merged[-1].attributes.direction == "Internal"
    plain = with_notes(list(rows), [note(5, 30)])
    assert [m.id for m in plain][5:7] == ["m5", f"{NOTE_PREFIX}n5"]
