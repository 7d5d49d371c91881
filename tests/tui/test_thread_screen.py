"""The thread screen against the sandbox: reading, replying exactly once, live messages, drafts,
copying, anonymizing, opening attachments and moving between conversations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from textual.pilot import Pilot

from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.thread import ThreadScreen, copy_text
from frontdesk.tui.screens.shared.confirm import ConfirmScreen, TypeBackScreen
from frontdesk.tui.widgets.composer import Composer
from frontdesk.tui.widgets.status_bar import StatusBar

Console = Any  # the `console` fixture of tests/tui/conftest.py

SIZE = (100, 30)


# --------------------------------------------------------------------------- helpers


def conversation(console: Console, where: str, nth: int = 0) -> int:
    """The first conversation (by id) matching a SQL condition on ``conversations`` (or the
    ``nth`` after it: each step of a flow takes a conversation of its own)."""
    rows = console.sandbox.query(
        f"SELECT id FROM conversations WHERE {where} ORDER BY id LIMIT 1 OFFSET {nth}")
    assert rows, f"the seeded sandbox has no conversation where {where}"
    return int(rows[0]["id"])


def chat(console: Console, nth: int = 0) -> int:
    """An open chat conversation with a few messages (the ``nth`` one by id)."""
    return conversation(console, "channel = 'WidgetChat' AND state = 'Open' AND id IN "
                        "(SELECT conversation_id FROM messages GROUP BY conversation_id "
                        "HAVING count(*) BETWEEN 3 AND 20)", nth)


def demo_agent_id(console: Console) -> str:
    rows = console.sandbox.query("SELECT id FROM users WHERE email = ?", (DEMO_AGENT_EMAIL,))
    return str(rows[0]["id"])


def stored(console: Console, cid: int, text: str) -> list[dict[str, Any]]:
    """Messages of ``cid`` whose body is ``text``."""
    rows: list[dict[str, Any]] = console.sandbox.query(
        "SELECT id, author_id, direction, external_id FROM messages "
        "WHERE conversation_id = ? AND body_text = ?", (cid, text))
    return rows


async def open_thread(pilot: Pilot[Any], cid: int, *, refresh: bool = True,
                      **options: Any) -> ThreadScreen:
    """Push the thread of ``cid`` and wait for its first poll."""
    app = pilot.app
    screen = ThreadScreen(cid, **options)
    await app.push_screen(screen)
    await pilot.pause()
    assert isinstance(app, FrontdeskApp) and app.session is not None
    if refresh:
        await app.session.live.refresh("thread")
    await pilot.pause()
    return screen


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Type ``text`` key by key."""
    names = {" ": "space", "\n": "enter", ",": "comma", ".": "full_stop", "!": "exclamation_mark",
             "*": "asterisk", "_": "underscore", "'": "apostrophe", "?": "question_mark"}
    await pilot.press(*[names.get(ch, ch) for ch in text])


def record_notices(app: FrontdeskApp) -> list[str]:
    """Collect the app's notifications (their text)."""
    seen: list[str] = []
    original: Callable[..., None] = app.notify

    def notify(message: str, *args: Any, **kwargs: Any) -> None:
        seen.append(str(message))
        original(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    return seen


def app_of(pilot: Pilot[Any]) -> FrontdeskApp:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    return app


def session_of(app: FrontdeskApp) -> Any:
    assert app.session is not None
    return app.session


# --------------------------------------------------------------------------- reading


async def open_shows_messages_newest_visible(console: Console, pilot: Pilot[Any]) -> None:
    cid = conversation(console, "channel = 'WidgetChat' AND id IN (SELECT conversation_id "
                       "FROM messages GROUP BY conversation_id HAVING count(*) > 40)")
    count = console.sandbox.query(
        "SELECT count(*) AS n FROM messages WHERE conversation_id = ?", (cid,))[0]["n"]
    screen = await open_thread(pilot, cid)
    view = screen.thread_view
    assert len(view.messages) == count
    assert view.pinned_to_bottom
    newest = view.message_views[-1]
    assert newest.message.id == view.messages[-1].id
    visible = newest.region.intersection(view.region)
    assert visible.height > 0, "the newest message is on screen"
    assert f"#{cid}" in screen.head.text.plain
    assert screen.focused is view


async def leaving_a_thread_the_inbox_polls_on(console: Console, pilot: Pilot[Any]) -> None:
    """The inbox polls while a thread is read and after it is left; the thread's topic ends
    with its screen."""
    live = session_of(app_of(pilot)).live
    cid = conversation(console, "state = 'Open'")
    await open_thread(pilot, cid)
    assert (live.topic("inbox").watchers, live.topic("thread").watchers) == (1, 1)
    await pilot.press("escape")
    for _ in range(3):  # the thread's suspension and unmount, after the inbox's resumption
        await pilot.pause()
    assert live.topic("inbox").watchers == 1
    assert live.topic("thread") is None  # closed with its screen: no more polls of it
    assert session_of(app_of(pilot)).threads.current is None


async def head_says_channel_state_requester_and_tags(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = conversation(console, "state = 'Open' AND id IN (SELECT conversation_id FROM "
                       "conversation_tags) AND assigned_agent_id IS NOT NULL")
    screen = await open_thread(pilot, cid)
    head = screen.head.text.plain
    row = console.sandbox.query(
        "SELECT u.display_name AS name FROM conversations c JOIN users u "
        "ON u.id = c.assigned_agent_id WHERE c.id = ?", (cid,))[0]
    tag = console.sandbox.query(
        "SELECT t.name FROM conversation_tags ct JOIN tags t ON t.id = ct.tag_id "
        "WHERE ct.conversation_id = ? ORDER BY t.name LIMIT 1", (cid,))[0]["name"]
    assert "Open" in head
    assert f"Assigned to {row['name']}" in head
    assert tag in head
    before = screen.head.updates
    await session_of(app).live.refresh("thread")
    await pilot.pause()
    assert screen.head.updates == before, "an unchanged poll does not repaint the head"


# --------------------------------------------------------------------------- replying


async def reply_is_stored_once_and_appears(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console)
    me = demo_agent_id(console)
    screen = await open_thread(pilot, cid)
    await pilot.press("i")
    composer = screen.composer
    assert composer.editor.has_focus
    await type_text(pilot, "Happy to help, Jane")
    assert session_of(app).local.draft(cid).text == "Happy to help, Jane"
    await pilot.press("ctrl+s")
    assert composer.text == ""
    await session_of(app).outbox.flush()
    rows = stored(console, cid, "Happy to help, Jane")
    assert len(rows) == 1
    assert rows[0]["author_id"] == me and rows[0]["direction"] == "Outbound"
    assert session_of(app).local.draft(cid) is None
    await session_of(app).live.refresh("thread")
    await pilot.pause()
    view = screen.thread_view
    assert view.messages[-1].id == rows[0]["id"]
    assert all(v.status is None for v in view.message_views), "the echo was replaced"


async def customer_message_appears_without_a_key(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console, 1)
    screen = await open_thread(pilot, cid)
    shown = list(screen.thread_view.message_views)
    await console.customer_writes(cid, "Is anyone there?")
    await session_of(app).live.refresh("thread")
    await pilot.pause()
    view = screen.thread_view
    assert view.messages[-1].attributes.body is not None
    assert view.messages[-1].attributes.body.value == "Is anyone there?"
    assert view.message_views[: len(shown)] == shown, "appended, not re-rendered"
    assert view.pinned_to_bottom


async def whatsapp_rules_refuse_before_sending(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = conversation(console, "channel = 'WhatsApp' AND state = 'Open'")
    before = console.sandbox.query(
        "SELECT count(*) AS n FROM messages WHERE conversation_id = ?", (cid,))[0]["n"]
    notices = record_notices(app)
    screen = await open_thread(pilot, cid)
    composer = screen.composer
    assert composer.content_type == "Markdown"
    await pilot.press("i")
    await type_text(pilot, "Your invoice")
    await pilot.press("ctrl+a")
    assert app.screen.__class__.__name__ == "AttachScreen"
    await type_text(pilot, "https://files.example.com/notes.txt")
    await pilot.press("enter", "enter")
    assert composer.attachments == [{"url": "https://files.example.com/notes.txt",
                                     "prettyName": "notes.txt"}]
    await pilot.press("ctrl+s")
    await pilot.pause()
    assert any("WhatsApp attachments must be" in n for n in notices)
    assert composer.text == "Your invoice"
    assert len(composer.attachments) == 1
    assert session_of(app).outbox.items() == []
    draft = session_of(app).local.draft(cid)
    assert draft.text == "Your invoice" and len(draft.attachments) == 1
    after = console.sandbox.query(
        "SELECT count(*) AS n FROM messages WHERE conversation_id = ?", (cid,))[0]["n"]
    assert after == before


async def phone_conversation_takes_no_reply(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = conversation(console, "channel = 'PstnPhone' AND anonymized_at IS NULL")
    session = session_of(app)
    # The record as the inbox knows it (the thread's own poll is not needed here).
    session.inbox.upsert([await session.client.conversations.get(cid)], "opened")
    screen = await open_thread(pilot, cid, refresh=False)
    composer = screen.composer
    assert composer.blocked is not None and "cannot take messages" in composer.blocked
    await pilot.press("i")
    assert not composer.editor.has_focus
    assert composer.editor.disabled


async def lost_response_is_sent_exactly_once(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console, 2)
    screen = await open_thread(pilot, cid)
    console.sandbox.faults.drop_after_commit(methods=("POST",),
                                             path_prefix="/v1/conversations/")
    screen.composer.editor.focus()
    await type_text(pilot, "Sent once")
    await pilot.press("ctrl+s")
    outbox = session_of(app).outbox
    for _ in range(5):
        await outbox.flush()
        if not outbox.items():
            break
        outbox.retry(outbox.items()[0].id)
    assert outbox.items() == []
    assert len(stored(console, cid, "Sent once")) == 1
    assert console.sandbox.faults.fired >= 1


async def reply_waits_in_the_outbox_while_the_service_is_down(console: Console,
                                                              pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console, 3)
    screen = await open_thread(pilot, cid)
    session = session_of(app)
    console.sandbox.refuse_connections()
    try:
        screen.composer.editor.focus()
        await type_text(pilot, "Back soon")
        await pilot.press("ctrl+s")
        assert await session.outbox.flush() == 0
        await pilot.pause()
        items = session.outbox.items(cid)
        assert len(items) == 1 and items[0].payload["content"] == "Back soon"
        assert screen.query_one(StatusBar).outbox == 1
        echo = screen.thread_view.message_views[-1]
        assert echo.status is not None and echo.status != "sent"
    finally:
        console.sandbox.accept_connections()
    session.outbox.retry(items[0].id)
    await session.outbox.flush()
    assert session.outbox.items() == []
    assert len(stored(console, cid, "Back soon")) == 1
    await pilot.pause()
    assert screen.query_one(StatusBar).outbox == 0


# --------------------------------------------------------------------------- drafts


async def test_draft_survives_closing_the_app(console: Console) -> None:
    cid = chat(console)
    app: FrontdeskApp = console.app()
    async with app.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        screen = await open_thread(pilot, cid)
        await pilot.press("i")
        await type_text(pilot, "Half a thought")
        assert screen.composer.text == "Half a thought"
    again: FrontdeskApp = console.app()
    async with again.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        screen = await open_thread(pilot, cid)
        assert screen.composer.text == "Half a thought"


# --------------------------------------------------------------------------- a message's keys


async def y_copies_the_focused_message(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console, 1)
    notices = record_notices(app)
    screen = await open_thread(pilot, cid)
    await pilot.press("k")
    focused = screen.thread_view.focused_message
    assert focused is not None
    await pilot.press("y")
    assert app.clipboard == copy_text(focused)
    assert app.clipboard
    assert "Copied" in notices


async def y_with_no_message_focused_copies_the_newest(console: Console, pilot: Pilot[Any]) -> None:
    """With no message under the cursor, ``y`` copies the newest one; in a conversation without
    messages it says there is none and copies nothing."""
    app = app_of(pilot)
    cid = chat(console, 2)
    newest = console.sandbox.query(
        "SELECT id FROM messages WHERE conversation_id = ? ORDER BY created_at DESC, id DESC "
        "LIMIT 1", (cid,))[0]["id"]
    requester = console.sandbox.query("SELECT id FROM users WHERE kind = 'enduser' LIMIT 1")
    queue = console.sandbox.query("SELECT id FROM queues LIMIT 1")
    async with httpx2.AsyncClient(base_url=console.sandbox.base_url,
                                 headers={"Authorization": console.sandbox.key}) as http:
        created = await http.post("/v1/conversations", json={
            "_type": "Callback", "requesterId": requester[0]["id"], "direction": "Inbound",
            "contactEndpointId": "+15550100200", "queueId": queue[0]["id"]})
        assert created.status_code == 200, created.text
    empty = int(created.json()["data"]["id"])
    notices = record_notices(app)
    screen = await open_thread(pilot, cid)
    assert screen.thread_view.focused_message is None
    await pilot.press("y")
    message = screen.thread_view.messages[-1]
    assert str(message.id) == str(newest)
    assert app.clipboard == copy_text(message) and app.clipboard
    assert notices == ["Copied"]
    app.pop_screen()
    await pilot.pause()
    app.copy_to_clipboard("")
    screen = await open_thread(pilot, empty)
    assert not screen.thread_view.messages
    await pilot.press("y")
    assert app.clipboard == ""
    assert notices[-1].startswith("No message to copy yet")


async def anonymize_asks_for_the_id_typed_back(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console, 4)
    screen = await open_thread(pilot, cid)
    await pilot.press("k")
    message = screen.thread_view.focused_message
    assert message is not None
    await pilot.press("A")
    assert isinstance(app.screen, TypeBackScreen)
    await type_text(pilot, "nope")
    await pilot.press("enter")
    assert isinstance(app.screen, TypeBackScreen), "a wrong id does nothing"
    await type_text(pilot, message.id[:8])
    await pilot.press("enter")
    await pilot.pause()
    await app.workers.wait_for_complete()
    rows = console.sandbox.query(
        "SELECT type FROM anonymization_requests WHERE target_entity_id LIKE ?",
        (f"%{message.id}",))
    assert len(rows) == 1 and rows[0]["type"] == "Message"


async def o_opens_an_attachment_only_when_confirmed(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console, 3)
    opened: list[str] = []

    def open_url(url: str, *, new_tab: bool = True) -> None:
        opened.append(url)

    app.open_url = open_url  # type: ignore[method-assign]
    screen = await open_thread(pilot, cid)
    url = "https://files.example.com/report.pdf?x=[bold]"
    async with httpx2.AsyncClient(base_url=console.sandbox.base_url,
                                 headers={"Authorization": console.sandbox.key}) as http:
        reply = await http.post(f"/v1/conversations/{cid}/messages", json={
            "_type": "Inbound", "content": {"_type": "Text", "value": "see attached"},
            "attachments": [{"url": url, "prettyName": "report.pdf"}]})
        assert reply.status_code < 300, reply.text
    await session_of(app).live.refresh("thread")
    await pilot.pause()
    await pilot.press("k")
    assert screen.thread_view.focused_message is not None
    await pilot.press("o")
    assert isinstance(app.screen, ConfirmScreen)
    assert url in app.screen.question
    await pilot.press("n")
    assert opened == []
    await pilot.press("o")
    await pilot.press("y")
    assert opened == [url]


# --------------------------------------------------------------------------- moving


async def J_and_K_move_between_conversations(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    ids = [int(r["id"]) for r in console.sandbox.query(
        "SELECT id FROM conversations WHERE channel = 'WidgetChat' AND id IN (SELECT "
        "conversation_id FROM messages) ORDER BY id LIMIT 3")]
    screen = await open_thread(pilot, ids[1], siblings=ids)
    await pilot.press("i")
    await type_text(pilot, "draft for the middle one")
    await pilot.press("escape", "J")
    assert app.screen is screen and screen.conversation_id == ids[2]
    await session_of(app).live.refresh("thread")
    await pilot.pause()
    first = console.sandbox.query(
        "SELECT id FROM messages WHERE conversation_id = ? ORDER BY seq", (ids[2],))
    assert [m.id for m in screen.thread_view.messages] == [r["id"] for r in first]
    assert f"#{ids[2]}" in screen.head.text.plain
    assert screen.composer.text == ""
    await pilot.press("K", "K")
    assert screen.conversation_id == ids[0]
    await pilot.press("J")
    assert screen.composer.text == "draft for the middle one"
    await pilot.press("escape")
    assert not isinstance(app.screen, ThreadScreen)


async def failed_reply_can_be_edited(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console, 4)
    screen = await open_thread(pilot, cid)
    console.sandbox.faults.fail(400, methods=("POST",), path_prefix="/v1/conversations/")
    await pilot.press("i")
    await type_text(pilot, "Refused")
    await pilot.press("ctrl+s")
    session = session_of(app)
    await session.outbox.flush()
    await pilot.pause()
    items = session.outbox.items(cid)
    assert len(items) == 1 and items[0].state == "failed"
    echo = screen.thread_view.message_views[-1]
    assert echo.status is not None and echo.status.startswith("failed:")
    assert "e edit" in echo.status
    await pilot.press("escape", "e")
    await pilot.pause()
    assert session.outbox.items(cid) == []
    assert screen.composer.text == "Refused"
    assert all(v.status is None for v in screen.thread_view.message_views)


async def i_and_tab_focus_the_composer_and_escape_leaves(console: Console,
                                                         pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console)
    for key in ("i", "tab"):
        screen = await open_thread(pilot, cid)
        await pilot.press(key)
        assert screen.composer.editor.has_focus
        await pilot.press("escape")
        assert app.screen is screen
        assert screen.thread_view.has_focus
        assert isinstance(screen.query_one(Composer), Composer)
        await console.home(pilot)


# --------------------------------------------------------------------------- the inbox's keys


async def waiting_conversation_shows_its_place_and_c_claims_it(console: Console,
                                                               pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = conversation(console, "state = 'Open' AND assigned_agent_id IS NULL AND queue_id IS "
                       "NOT NULL AND channel = 'WidgetChat'")
    queue = console.sandbox.query("SELECT q.name FROM conversations c JOIN queues q "
                                  "ON q.id = c.queue_id WHERE c.id = ?", (cid,))[0]["name"]
    screen = await open_thread(pilot, cid)
    head = screen.head.text.plain
    assert f"in {queue}" in head and "waiting" in head
    await pilot.press("c")
    await app.workers.wait_for_complete()
    await pilot.pause()
    row = console.sandbox.query("SELECT assigned_agent_id FROM conversations WHERE id = ?",
                                (cid,))[0]
    assert row["assigned_agent_id"] == demo_agent_id(console)
    assert "Assigned to Demo" in screen.head.text.plain


async def a_opens_the_custom_attributes(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console)
    await open_thread(pilot, cid)
    await pilot.press("a")
    await pilot.pause()
    assert type(app.screen).__name__ == "AttributesPanel"
    await pilot.press("escape")
    assert isinstance(app.screen, ThreadScreen)


async def failed_reply_can_be_discarded_or_retried(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    cid = chat(console, 5)
    screen = await open_thread(pilot, cid)
    session = session_of(app)
    console.sandbox.faults.fail(400, count=2, methods=("POST",),
                                path_prefix="/v1/conversations/")
    for text in ("First try", "Second try"):
        await pilot.press("i")
        await type_text(pilot, text)
        await pilot.press("ctrl+s")
        await session.outbox.flush()
        await pilot.press("escape")
    await pilot.pause()
    assert [i.state for i in session.outbox.items(cid)] == ["failed", "failed"]
    await pilot.press("d")
    assert isinstance(app.screen, ConfirmScreen)
    await pilot.press("y")
    await pilot.pause()
    assert [i.payload["content"] for i in session.outbox.items(cid)] == ["First try"]
    assert [v.status is not None for v in screen.thread_view.message_views].count(True) == 1
    await pilot.press("ctrl+r")
    await session.outbox.flush()
    assert session.outbox.items() == []
    assert len(stored(console, cid, "First try")) == 1
    assert stored(console, cid, "Second try") == []


async def missing_conversation_says_so_and_takes_no_reply(console: Console,
                                                          pilot: Pilot[Any]) -> None:
    screen = await open_thread(pilot, 987654)
    assert "does not exist" in screen.head.text.plain
    assert screen.composer.blocked is not None
    await pilot.press("i")
    assert not screen.composer.editor.has_focus


async def r_that_fails_says_so_in_one_line(console: Console, pilot: Pilot[Any]) -> None:
    """``r`` while the service refuses: one line says what did not happen, no traceback."""
    app = app_of(pilot)
    cid = chat(console, 6)
    await open_thread(pilot, cid)
    seen = record_notices(app)
    console.sandbox.faults.fail(400, count=None, methods=("GET",),
                                path_prefix=f"/v1/conversations/{cid}")
    await pilot.press("r")
    await console.idle(pilot)
    failed = [m for m in seen if m.startswith("Could not refresh the thread")]
    assert len(failed) == 1, seen
    assert failed[0].endswith("the details are in the log.")
    assert "\n" not in failed[0] and "Traceback" not in failed[0]
    assert app.is_running


# --------------------------------------------------------------------------- the flows
# One console per flow: each step starts from the inbox, on a conversation of its own.


@pytest.mark.slow
async def test_reading_a_thread_and_its_keys(console: Console) -> None:
    """Reading: messages, the head, conversations that take no reply; a message's keys (focus
    the composer, attributes, copy, open an attachment, anonymize); claiming from the thread;
    moving between conversations with J and K; a refresh the service refuses."""
    await console.walk(SIZE,
                       open_shows_messages_newest_visible,
                       leaving_a_thread_the_inbox_polls_on,
                       head_says_channel_state_requester_and_tags,
                       phone_conversation_takes_no_reply,
                       missing_conversation_says_so_and_takes_no_reply,
                       i_and_tab_focus_the_composer_and_escape_leaves,
                       a_opens_the_custom_attributes,
                       y_copies_the_focused_message,
                       y_with_no_message_focused_copies_the_newest,
                       o_opens_an_attachment_only_when_confirmed,
                       anonymize_asks_for_the_id_typed_back,
                       waiting_conversation_shows_its_place_and_c_claims_it,
                       J_and_K_move_between_conversations,
                       r_that_fails_says_so_in_one_line)


@pytest.mark.slow
async def test_replying_exactly_once_through_failures(console: Console) -> None:
    """Replying: stored once and shown, a customer's message arriving, a lost answer, the
    service down, refusals (edit, discard, retry), the WhatsApp rules."""
    await console.walk(SIZE,
                       reply_is_stored_once_and_appears,
                       customer_message_appears_without_a_key,
                       lost_response_is_sent_exactly_once,
                       reply_waits_in_the_outbox_while_the_service_is_down,
                       failed_reply_can_be_edited,
                       failed_reply_can_be_discarded_or_retried,
                       whatsapp_rules_refuse_before_sending)
