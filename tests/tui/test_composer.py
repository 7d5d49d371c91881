"""The composer: channel rules, attachments, preview, content type, drafts, and what a keystroke
costs with a long thread open."""

from __future__ import annotations

import asyncio
import base64
import json
import statistics
import time
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events
from textual.pilot import Pilot

from frontdesk.api.models import Conversation, reply_subject
from frontdesk.sandbox import records
from frontdesk.sandbox.db import iso
from frontdesk.store.replies import (
    MAX_FILE_BYTES,
    AttachmentError,
    blocked_reason,
    materialize,
    reply_problem,
)
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.widgets.attachments import attachment_from
from frontdesk.tui.widgets.message_view import MessageView
from frontdesk.tui.widgets.thread_view import ThreadView

Console = Any  # the `console` fixture of tests/tui/conftest.py
SIZE = (100, 30)


def record(channel: str, **extra: Any) -> Conversation:
    """A conversation record of ``channel``."""
    kind = {"WhatsApp": "WhatsAppConversation", "Sms": "SmsConversation",
            "PstnPhone": "PstnPhoneConversation"}.get(channel, "ChatConversation")
    return Conversation.model_validate({
        "id": 7, "_type": kind, "requesterId": "00000000-0000-4000-8000-00000000000a",
        "channel": channel, "createdAt": "2026-01-05T09:00:00Z", "state": "Open", **extra})


def first_id(console: Console, where: str, n: int = 0) -> int:
    """The id of the ``n``-th conversation (by id) that matches ``where``: each step that
    writes takes one of its own."""
    rows = console.sandbox.query(
        f"SELECT id FROM conversations WHERE {where} ORDER BY id LIMIT 1 OFFSET {n}")
    assert rows
    return int(rows[0]["id"])


def app_of(pilot: Pilot[Any]) -> FrontdeskApp:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    return app


# --------------------------------------------------------------------------- rules


def test_whatsapp_takes_markdown_and_one_allowed_attachment() -> None:
    whatsapp = record("WhatsApp")
    photo = {"url": "https://x.example/p.jpg", "prettyName": "p.jpg"}
    assert reply_problem(whatsapp, "hi", "Markdown", [photo]) is None
    assert "Markdown" in (reply_problem(whatsapp, "hi", "Text", []) or "")
    assert "at most one" in (reply_problem(whatsapp, "hi", "Markdown", [photo, photo]) or "")
    notes = {"url": "https://x.example/notes.txt", "prettyName": "notes.txt"}
    assert ".pdf" in (reply_problem(whatsapp, "hi", "Markdown", [notes]) or "")


def test_empty_and_silent_and_oversized_replies_are_refused() -> None:
    chat = record("WidgetChat")
    assert "Nothing to send" in (reply_problem(chat, "  \n", "Text", []) or "")
    assert reply_problem(chat, "", "Text", [{"url": "https://x.example/a.png"}]) is None
    phone = record("PstnPhone")
    assert "cannot take messages" in (blocked_reason(phone) or "")
    assert reply_problem(phone, "hello", "Text", []) == blocked_reason(phone)
    assert "too long" in (reply_problem(chat, "x" * 100_001, "Text", []) or "")
    assert blocked_reason(record("WidgetChat", anonymizedAt="2026-01-01T00:00:00Z"))
    assert reply_problem(record("Sms"), "hello", "Text", []) is None


def test_attachment_from_urls_and_files(tmp_path: Path) -> None:
    assert attachment_from("https://files.example.com/a%20b.pdf?x=1") == {
        "url": "https://files.example.com/a%20b.pdf?x=1", "prettyName": "a b.pdf"}
    assert isinstance(attachment_from("javascript:alert(1)"), str)
    assert isinstance(attachment_from("data:text/plain,hi"), str)
    assert "no file" in str(attachment_from(str(tmp_path / "missing.pdf")))
    assert "not a file" in str(attachment_from(str(tmp_path)))
    small = tmp_path / "scan.png"
    small.write_bytes(b"\x89PNG\r\n\x1a\nrest")
    entry = attachment_from(str(small))
    assert entry == {"path": str(small.resolve()), "prettyName": "scan.png"}
    assert isinstance(entry, dict)
    sent = materialize(entry)
    assert sent["prettyName"] == "scan.png"
    assert sent["url"] == "data:image/png;base64," + base64.b64encode(
        small.read_bytes()).decode()
    big = tmp_path / "big.pdf"
    big.write_bytes(b"0" * (MAX_FILE_BYTES + 1))
    message = attachment_from(str(big))
    assert isinstance(message, str) and "MB" in message and "link" in message
    small.unlink()
    try:
        materialize(entry)
    except AttachmentError as error:
        assert "scan.png" in str(error)
    else:
        raise AssertionError("a vanished file must not be sent")


def test_a_reply_subject_says_re_once() -> None:
    assert reply_subject("Order #123") == "Re: Order #123"
    assert reply_subject("RE: Order #123") == "RE: Order #123"
    assert reply_subject("  ") is None and reply_subject(None) is None


# --------------------------------------------------------------------------- in the app


async def preview_renders_markdown_and_ctrl_k_switches(console: Console,
                                                        pilot: Pilot[Any]) -> None:
    cid = first_id(console, "channel = 'WidgetChat' AND state = 'Open'")
    screen: ThreadScreen = await console.open_thread(pilot, cid)
    composer = screen.composer
    await pilot.press("i")
    composer.editor.insert("**bold** and `code`")
    await pilot.pause()
    assert composer.content_type == "Text"
    await pilot.press("ctrl+k")
    assert composer.content_type == "Markdown"
    await pilot.press("ctrl+t")
    preview = composer.query_one("#composer-preview")
    assert preview.display
    shown = preview.render()
    plain = shown.plain if isinstance(shown, Text) else str(shown)
    assert "bold and code" in plain and "**" not in plain
    await pilot.press("ctrl+t")
    assert not preview.display
    await pilot.press("ctrl+k")
    assert composer.content_type == "Text"


async def whatsapp_is_always_markdown(console: Console, pilot: Pilot[Any]) -> None:
    cid = first_id(console, "channel = 'WhatsApp' AND state = 'Open'")
    screen: ThreadScreen = await console.open_thread(pilot, cid)
    await pilot.press("i", "ctrl+k")
    assert screen.composer.content_type == "Markdown"


async def local_file_is_sent_as_a_data_url(console: Console, pilot: Pilot[Any],
                                            tmp_path: Path) -> None:
    cid = first_id(console, "channel = 'WidgetChat' AND state = 'Open'", 1)
    scan = tmp_path / "scan.png"
    scan.write_bytes(b"\x89PNG\r\n\x1a\n" + b"x" * 100)
    app = app_of(pilot)
    screen: ThreadScreen = await console.open_thread(pilot, cid)
    await pilot.press("i", "ctrl+a")
    await pilot.pause()
    app.screen.query_one("#attach-input").value = str(scan)  # type: ignore[attr-defined]
    await pilot.press("enter", "enter")
    draft = app.session.local.draft(cid)  # type: ignore[union-attr]
    assert draft is not None and draft.attachments[0]["path"] == str(scan.resolve())
    await pilot.press("ctrl+s")
    await app.session.outbox.flush()  # type: ignore[union-attr]
    rows = console.sandbox.query(
        "SELECT content_type, data, name FROM attachments WHERE name = 'scan.png'")
    assert len(rows) == 1
    assert rows[0]["content_type"] == "image/png" and rows[0]["data"] == scan.read_bytes()
    assert screen.composer.attachments == []


async def keystrokes_cost_little_with_5000_messages(console: Console,
                                                    pilot: Pilot[Any]) -> None:
    """Typing touches the composer only: no message widget is mounted or repainted, and a
    draft is saved per keystroke. Prints the keystroke→frame times (median, p90)."""
    cid = first_id(console, "channel = 'WidgetChat' AND state = 'Open'", 4)
    row = console.sandbox.query("SELECT requester_id, created_at FROM conversations "
                                "WHERE id = ?", (cid,))[0]

    def fill(ctx: Any) -> None:
        start = ctx.clock.now() - timedelta(days=30)
        with ctx.db.tx():
            for n in range(5_000):
                records.insert_message(
                    ctx.db, conversation_id=cid, author_id=row["requester_id"],
                    created_at=iso(start + timedelta(seconds=n * 30)), direction="Inbound",
                    attributes={"_type": "ChatAttributes", "direction": "Inbound",
                                "content": {"_type": "Text", "value": f"message {n}"}})

    console.sandbox.call(fill)
    app = app_of(pilot)
    screen: ThreadScreen = await console.open_thread(pilot, cid)
    assert len(screen.thread_view.messages) >= 5_000
    await pilot.press("i")
    await pilot.pause()
    composer = screen.composer
    frames = asyncio.Event()
    original = app._display

    def display(target: Any, renderable: Any) -> None:
        original(target, renderable)
        if renderable is not None:
            frames.set()

    app._display = display  # type: ignore[method-assign,assignment]
    painted: list[Any] = []
    compositor = screen._compositor
    update_widgets = compositor.update_widgets

    def spy(widgets: Any) -> Any:
        painted.extend(widgets)
        return update_widgets(widgets)

    compositor.update_widgets = spy  # type: ignore[method-assign]
    mounted_before = list(screen.thread_view.message_views)
    saves_before = composer.saves
    timings: list[float] = []
    for n, char in enumerate("the quick brown fox jumps over the lazy dog " * 2):
        await asyncio.sleep((n % 7) / 400)  # keystrokes at varied phases of the frame timer
        frames.clear()
        started = time.perf_counter()
        key = "space" if char == " " else char
        app.post_message(events.Key(key, char))
        await asyncio.wait_for(frames.wait(), 5)
        timings.append((time.perf_counter() - started) * 1000)
    await pilot.pause()
    assert composer.text.startswith("the quick brown fox")
    assert composer.saves - saves_before == len(timings)
    assert screen.thread_view.message_views == mounted_before
    assert not [w for w in painted if isinstance(w, MessageView | ThreadView)]
    timings.sort()
    median = statistics.median(timings)
    p90 = timings[int(len(timings) * 0.9)]
    print(f"\nkeystroke→frame with 5,000 messages: median {median:.1f} ms, "
          f"p90 {p90:.1f} ms, max {timings[-1]:.1f} ms ({len(timings)} keys)")


async def markdown_is_remembered_per_channel_and_the_preview_closes_after_sending(
        console: Console, pilot: Pilot[Any]) -> None:
    rows = console.sandbox.query("SELECT id FROM conversations WHERE channel = 'WidgetChat' "
                                 "AND state = 'Open' ORDER BY id LIMIT 2 OFFSET 2")
    first, second = (int(row["id"]) for row in rows)
    email = first_id(console, "channel = 'Email' AND state = 'Open'")
    app = app_of(pilot)
    screen: ThreadScreen = await console.open_thread(pilot, first)
    composer = screen.composer
    await pilot.press("i", "ctrl+k", "ctrl+t")
    composer.editor.insert("**Shipped** today")
    await pilot.pause()
    assert composer.content_type == "Markdown" and composer.preview
    await pilot.press("ctrl+s")
    await pilot.pause()
    assert not composer.preview
    assert not composer.query_one("#composer-preview").display
    await app.session.outbox.flush()
    stored = console.sandbox.query(
        "SELECT attributes FROM messages WHERE conversation_id = ? ORDER BY seq DESC "
        "LIMIT 1", (first,))
    assert json.loads(stored[0]["attributes"])["content"] == {
        "value": "**Shipped** today", "_type": "Markdown"}
    await pilot.press("escape", "escape")
    await pilot.pause()

    # another chat opens in Markdown; an email stays Text
    screen = await console.open_thread(pilot, second)
    assert screen.composer.content_type == "Markdown"
    await pilot.press("escape")
    await pilot.pause()
    screen = await console.open_thread(pilot, email)
    assert screen.composer.content_type == "Text"


async def an_email_reply_shows_its_recipient_and_goes_out_with_re(
        console: Console, pilot: Pilot[Any]) -> None:
    cid = first_id(console, "channel = 'Email' AND state = 'Open' AND direction = 'Inbound' "
                            "AND subject IS NOT NULL AND subject NOT LIKE 'Re:%'")
    conversation = console.sandbox.query(
        "SELECT c.subject, c.from_email, u.display_name FROM conversations c "
        "JOIN users u ON u.id = c.requester_id WHERE c.id = ?", (cid,))[0]
    app = app_of(pilot)
    screen: ThreadScreen = await console.open_thread(pilot, cid)
    await app.session.live.refresh("thread")  # type: ignore[union-attr]
    await pilot.pause()
    header = screen.composer.query_one("#composer-email").render()
    shown = header.plain if isinstance(header, Text) else str(header)
    assert f"To {conversation['display_name']} <{conversation['from_email']}>" in shown
    assert f"Subject Re: {conversation['subject']}" in shown
    await pilot.press("i")
    screen.composer.editor.insert("We have sent a new one.")
    await pilot.press("ctrl+s")
    await app.session.outbox.flush()  # type: ignore[union-attr]
    assert app.session.outbox.items() == []  # type: ignore[union-attr]
    stored = console.sandbox.query(
        "SELECT attributes FROM messages WHERE conversation_id = ? ORDER BY seq DESC "
        "LIMIT 1", (cid,))
    attributes = json.loads(stored[0]["attributes"])
    assert attributes["emailContent"]["content"]["value"] == "We have sent a new one."
    assert attributes["subject"] == f"Re: {conversation['subject']}"
    assert attributes["to"][0]["email"] == conversation["from_email"]


async def test_the_composer_walked(console: Console, tmp_path: Path) -> None:
    """The composer on one console, each step on a conversation of its own: the preview and
    ctrl+k, WhatsApp always Markdown, a local file sent, an email reply, Markdown remembered
    per channel (after the steps that expect Text), and last the keystrokes with a thread of
    5,000 messages (it fills that thread and wraps the app's display)."""
    await console.walk(SIZE,
                       preview_renders_markdown_and_ctrl_k_switches,
                       whatsapp_is_always_markdown,
                       partial(local_file_is_sent_as_a_data_url, tmp_path=tmp_path),
                       an_email_reply_shows_its_recipient_and_goes_out_with_re,
                       markdown_is_remembered_per_channel_and_the_preview_closes_after_sending,
                       keystrokes_cost_little_with_5000_messages)
