"""The inbox: views, the filter, search, open by id, new conversations, the preview pane, and
hostile text, and a few conversations a poll changed updated in place — against the seeded
sandbox."""

from __future__ import annotations

import contextlib
from datetime import UTC, timedelta
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from frontdesk.api.errors import TransportError
from frontdesk.api.models.messages import Message
from frontdesk.sandbox import records
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.store.errors import Refused
from frontdesk.store.inbox import NAMES_CHANGED, VIEW_TITLES, VIEWS
from frontdesk.store.session import Session
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.inbox.new_conversation import NewConversationScreen
from frontdesk.tui.screens.inbox.open_conversation import (
    OpenConversationScreen,
    parse_conversation_id,
)
from frontdesk.tui.screens.shared.confirm import ConfirmScreen
from frontdesk.tui.screens.shared.pickers import PromptScreen
from frontdesk.tui.widgets.conversation_list import ConversationList
from frontdesk.tui.widgets.preview_pane import PreviewPane
from frontdesk.tui.widgets.view_tabs import ViewTabs

Console = Any  # the `console` fixture of tests/tui/conftest.py
NOW = ManualClock().now()  # the sandbox fixtures' frozen time


def parts(pilot: Pilot[Any]) -> tuple[FrontdeskApp, Session, InboxScreen, ConversationList]:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    session = app.session
    assert session is not None
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    return app, session, screen, screen.conversation_list


def app_of(pilot: Pilot[Any]) -> FrontdeskApp:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    return app


async def settle(console: Console, pilot: Pilot[Any]) -> None:
    """Signed in, and the inbox polled until nothing more changes (names resolved too)."""
    await console.ready(pilot)
    app, session, _screen, _listing = parts(pilot)
    for _ in range(20):
        version = session.inbox.version
        await app.workers.wait_for_complete()
        await session.live.refresh("inbox")
        await pilot.pause()
        # a console on a filled local store reads Mine and Queue again without a change:
        # wait for that too, not only for a poll that changed nothing
        if session.inbox.version == version and session.inbox.filled and session.inbox.settled:
            break


def demo_agent_id(console: Console) -> str:
    rows = console.sandbox.query("SELECT id FROM users WHERE email = ?", (DEMO_AGENT_EMAIL,))
    return str(rows[0]["id"])


async def mine_rows_after_ready(console: Console, pilot: Pilot[Any]) -> None:
    _app, session, screen, listing = parts(pilot)
    me = demo_agent_id(console)
    open_mine = {r["id"] for r in console.sandbox.query(
        "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = 'Open'",
        (me,))}
    shown = listing.shown_ids()
    assert screen.view == "mine"
    assert len(shown) >= 20
    assert set(shown) == open_mine
    assert shown == [c.id for c in session.inbox.view("mine")]
    assert listing.has_focus
    assert listing.highlighted_id == shown[0]


async def views_switch_with_tab_and_a_click(console: Console, pilot: Pilot[Any]) -> None:
    _app, session, screen, listing = parts(pilot)
    await pilot.press("tab")
    assert screen.view == "needs_reply"  # beside Mine
    await pilot.press("tab")
    assert screen.view == "queue"
    assert listing.shown_ids() == [c.id for c in session.inbox.view("queue")]
    await pilot.press("tab", "tab")
    assert screen.view == "closed"
    await pilot.press("shift+tab")
    assert screen.view == "pending"
    assert listing.shown_ids() == [c.id for c in session.inbox.view("pending")]
    assert all(session.inbox.records[c].state in ("Pending", "AwaitingPending")
               for c in listing.shown_ids())
    tabs = screen.query_one(ViewTabs)
    start, _end = tabs.spans()["view-all"]
    await pilot.hover(ViewTabs, offset=(start + 1, 0))
    assert tabs.hovered == "view-all"  # the label under the mouse brightens
    await pilot.click(ViewTabs, offset=(start + 1, 0))
    await pilot.pause()
    assert screen.view == "all"
    assert listing.total_count == len(session.inbox.records)
    assert listing.has_focus
    commands = {title: run for title, _help, run in screen.palette_commands()}
    commands[f"Inbox: show {VIEW_TITLES['closed']}"]()
    await pilot.pause()
    assert screen.view == "closed"


async def closed_holds_mine_closed_in_the_last_seven_days(
        console: Console, pilot: Pilot[Any]) -> None:
    """The Closed view is read from the service (one search once the first fill is done), not
    only what closed while the console ran: every conversation of mine closed in the last
    7 days, and its tab and empty line say so."""
    app, session, screen, listing = parts(pilot)
    me = demo_agent_id(console)
    since = (NOW - timedelta(days=7)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")
    expected = {r["id"] for r in console.sandbox.query(
        "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = 'Closed' "
        "AND closed_at >= ?", (me, since))}
    older = {r["id"] for r in console.sandbox.query(
        "SELECT id FROM conversations WHERE assigned_agent_id = ? AND state = 'Closed' "
        "AND closed_at < ?", (me, since))}
    assert len(expected) >= 5 and older
    for _ in range(30):  # its records come in the background, a batch a tick
        if session.inbox.closed_known:
            break
        await session.live.refresh("inbox")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert session.inbox.closed_known
    screen.show_view("closed")
    await console.idle(pilot)
    shown = set(listing.shown_ids())
    assert expected <= shown and not shown & older
    assert all(session.inbox.rows[c].agent_id == me for c in shown)
    label = str(screen.query_one(ViewTabs).label_of("view-closed"))
    assert label == f"Closed 7d {len(shown)}"
    screen.show_view("mine")
    await pilot.pause()


async def filter_narrows_as_typed_and_esc_restores(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, _screen, listing = parts(pilot)
    everything = listing.shown_ids()
    target = session.inbox.records[everything[3]]
    name = session.directory.name(target.requester_id)
    await pilot.press("slash")
    box = app.screen.query_one("#inbox-filter", Input)
    assert box.has_focus
    await pilot.press(*name.split()[0].lower()[:5])
    narrowed = listing.shown_ids()
    assert target.id in narrowed
    assert listing.search_strings == listing.total_count  # made while a filter is in use
    assert 0 < len(narrowed) < len(everything)
    # the arrows move the list while the filter line has the focus
    await pilot.press("down")
    assert box.has_focus
    assert listing.cursor == min(1, len(narrowed) - 1)
    await pilot.press("up")
    assert listing.cursor == 0
    # an id narrows to that conversation
    box.value = f"#{target.id}"
    await pilot.pause()
    assert listing.shown_ids() == [target.id]
    assert listing.highlighted_id == target.id
    await pilot.press("escape")
    assert listing.shown_ids() == everything
    assert listing.has_focus
    assert not box.has_class("-shown")
    # nothing matches: the list says so
    await pilot.press("slash", "z", "q", "x", "z", "q")
    assert listing.row_count == 0
    assert "Nothing matches" in listing.render_line(1).text
    await pilot.press("escape")
    assert listing.row_count == len(everything)
    assert listing.search_strings == 0  # the filter closed: its strings are gone
    # the filter line is built once the first frame is on screen: a "/" read before that,
    # with the keys after it in the same burst, still types them there
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    await screen.filter_input.remove()
    screen._filter = None
    await console.burst(pilot, "slash", *"zqx")
    box = screen.filter_input
    assert box.has_focus and box.value == "zqx"
    assert listing.row_count == 0
    await pilot.press("escape")
    assert listing.row_count == len(everything)


async def cursor_keys_and_selection_kept_across_updates(console: Console,
                                                        pilot: Pilot[Any]) -> None:
    _app, session, screen, listing = parts(pilot)
    shown = listing.shown_ids()
    await pilot.press("j", "j", "down")
    assert listing.highlighted_id == shown[3]
    await pilot.press("k")
    assert listing.highlighted_id == shown[2]
    await pilot.press("G")
    assert listing.highlighted_id == shown[-1]
    await pilot.press("g")
    assert listing.highlighted_id == shown[0]
    await pilot.press("j", "j")
    kept = listing.highlighted_id
    # another conversation changes in the service; a poll brings it; the cursor stays
    other = shown[5]
    console.sandbox.query("UPDATE conversations SET subject = 'Changed meanwhile' "
                          "WHERE id = ?", (other,))
    session.inbox.want([other])
    await session.live.refresh("inbox")
    await pilot.pause()
    assert session.inbox.records[other].subject == "Changed meanwhile"
    assert listing.highlighted_id == kept
    assert screen.current_conversation_id() == kept


async def a_poll_that_changes_nothing_repaints_nothing(console: Console, pilot: Pilot[Any]) -> None:
    app_, session, _screen, listing = parts(pilot)
    renders = app_.renders["inbox.list"]
    builds = listing.builds
    for _ in range(3):
        await session.live.refresh("inbox")
        await pilot.pause()
    assert app_.renders["inbox.list"] == renders
    assert listing.builds == builds


async def enter_opens_the_thread(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, _session, _screen, listing = parts(pilot)
    cid = listing.highlighted_id
    await pilot.press("enter")
    await pilot.pause()
    try:
        from frontdesk.tui.screens.inbox.thread import ThreadScreen
    except ImportError:
        assert isinstance(app.screen, InboxScreen)
        assert any(f"#{cid}" in str(n.message) for n in app._notifications)
    else:
        assert isinstance(app.screen, ThreadScreen)
        assert app.screen.conversation_id == cid


async def open_by_id(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    assert parse_conversation_id("#12") == 12
    assert isinstance(parse_conversation_id("12a"), str)
    assert isinstance(parse_conversation_id(""), str)
    _app, session, _screen, _listing = parts(pilot)
    me = demo_agent_id(console)
    other = console.sandbox.query(
        "SELECT id FROM conversations WHERE assigned_agent_id IS NOT NULL "
        "AND assigned_agent_id != ? ORDER BY id LIMIT 1", (me,))[0]["id"]
    assert other not in session.inbox.records
    await pilot.press("o")
    assert isinstance(app.screen, OpenConversationScreen)
    # an unknown id is said, and what was typed stays
    await pilot.press("9", "9", "9", "9", "9", "9", "enter")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert isinstance(app.screen, OpenConversationScreen)
    assert app.screen.query_one(Input).value == "999999"
    assert "no conversation #999999" in str(app.screen.query_one("#open-hint").render())
    app.screen.query_one(Input).value = f"#{other}"
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert other in session.inbox.records
    assert not isinstance(app.screen, OpenConversationScreen)


async def search_shows_a_temporary_view(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, screen, listing = parts(pilot)
    subject = console.sandbox.query(
        "SELECT subject FROM conversations WHERE subject LIKE '%router%' LIMIT 1")
    assert subject
    await pilot.press("s")
    assert isinstance(app.screen, PromptScreen)
    # a slow service: while the search runs, the Search view says so
    console.sandbox.faults.latency(3.0, count=None, path_prefix="/v1/search")
    await pilot.press(*"router", "enter")
    await pilot.pause()
    assert screen.view == "search"
    assert "searching" in str(screen.query_one(ViewTabs).label_of("view-search"))
    assert "Searching the service for “router”" in listing.render_line(1).text
    await app.workers.wait_for_complete()
    console.sandbox.faults.clear()
    await pilot.pause()
    assert screen.view == "search"
    assert "searching" not in str(screen.query_one(ViewTabs).label_of("view-search"))
    found = listing.shown_ids()
    assert found
    assert all(cid in session.inbox.records for cid in found)
    assert any("router" in (session.inbox.records[c].subject or "").lower()
               for c in found)
    await pilot.press("tab")
    assert screen.view == "mine"
    await pilot.press("shift+tab")
    assert screen.view == "search"
    await pilot.press("escape")
    await pilot.pause()
    assert screen.view == "mine"
    assert screen.query_one(ViewTabs).label_of("view-search") is None

    # a search the service refuses says why and leaves no "searching" behind
    console.sandbox.faults.fail(400, count=None, path_prefix="/v1/search")
    await pilot.press("s", *"router", "enter")
    await app.workers.wait_for_complete()
    console.sandbox.faults.clear()
    await pilot.pause()
    assert any("Could not search" in str(n.message) for n in app._notifications)
    assert screen.view == "mine"
    assert screen.query_one(ViewTabs).label_of("view-search") is None


async def open_new_conversation(pilot: Pilot[Any]) -> NewConversationScreen:
    """Press ``n`` and wait until the new-conversation form has read what it offers."""
    app = app_of(pilot)
    await pilot.press("n")
    form = app.screen
    assert isinstance(form, NewConversationScreen)
    await app.workers.wait_for_complete()
    return form


def an_end_user_email(console: Console) -> str:
    """The email of an end user of the seeded organisation."""
    email: str = console.sandbox.query(
        "SELECT email FROM users WHERE kind = 'enduser' AND email IS NOT NULL LIMIT 1"
    )[0]["email"]
    return email


async def new_email_conversation_checks_then_creates(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, _screen, _listing = parts(pilot)
    requester = an_end_user_email(console)
    form = await open_new_conversation(pilot)
    form.query_one("#email-requester", Input).value = requester
    await pilot.press("ctrl+s")
    assert isinstance(app.screen, NewConversationScreen)
    assert "subject" in str(form.query_one("#new-error").render())
    assert form.query_one("#email-requester", Input).value == requester
    form.query_one("#email-subject", Input).value = "Your [bold]order[/] \x1b[2J"
    form.query_one("#email-body").text = "Hello, it has shipped."  # type: ignore[attr-defined]
    await pilot.press("ctrl+s")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert not isinstance(app.screen, NewConversationScreen), \
        str(form.query_one("#new-error").render())
    made = console.sandbox.query(
        "SELECT id, subject, assigned_agent_id FROM conversations "
        "WHERE subject LIKE 'Your [bold]order%'")
    assert len(made) == 1
    assert made[0]["assigned_agent_id"] == demo_agent_id(console)
    assert made[0]["id"] in session.inbox.records


async def new_conversation_to_a_new_address_offers_to_create_them(console: Console,
                                                               pilot: Pilot[Any]) -> None:
    """An address no end user has: the form asks whether to create them; no keeps the form
    as typed (nothing created), yes creates the end user and the conversation with them."""
    app = app_of(pilot)
    address = "new.customer@nowhere.example"
    form = await open_new_conversation(pilot)
    form.query_one("#email-requester", Input).value = address
    form.query_one("#email-subject", Input).value = "Welcome"
    form.query_one("#email-body").text = "Hi, welcome aboard."  # type: ignore[attr-defined]
    await pilot.press("ctrl+s")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert isinstance(app.screen, ConfirmScreen)
    assert address in str(app.screen.query_one("#question").render())
    await pilot.press("n")
    await pilot.pause()
    assert app_of(pilot).screen is form  # the question closed
    assert "Nothing was created" in str(form.query_one("#new-error").render())
    assert form.query_one("#email-subject", Input).value == "Welcome"
    assert not console.sandbox.query("SELECT id FROM users WHERE email = ?", (address,))
    await pilot.press("ctrl+s")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert isinstance(app.screen, ConfirmScreen)
    await pilot.press("y")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert not isinstance(app.screen, (NewConversationScreen, ConfirmScreen)), \
        str(form.query_one("#new-error").render())
    users = console.sandbox.query("SELECT id FROM users WHERE kind = 'enduser' AND email = ?",
                                  (address,))
    assert len(users) == 1
    made = console.sandbox.query("SELECT requester_id FROM conversations WHERE subject = ?",
                                 ("Welcome",))
    assert [row["requester_id"] for row in made] == [users[0]["id"]]


async def test_a_preview_read_before_the_console_connected_is_read_again_when_shown(
        console: Console, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read that never left (the console still connecting) is not the preview's answer for
    good: the next time the list shows the row it is read again — and not in a loop meanwhile."""
    app = console.app()
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(console, pilot)
        _app, _session, _screen, listing = parts(pilot)
        pane = app.screen.query_one(PreviewPane)
        monkeypatch.setattr(PreviewPane, "DEBOUNCE", 30.0)  # reads only when flushed
        real = pane._load
        asked: list[int] = []

        async def first_unsent(conversation_id: int) -> list[Message]:
            asked.append(conversation_id)
            if len(asked) == 1:  # as the session says while it is still connecting
                raise Refused("Could not read the messages: Not connected: still connecting "
                              "to the service",
                              error=TransportError("Not connected: still connecting to the "
                                                   "service", sent=False))
            read: list[Message] = await real(conversation_id)
            return read

        pane._load = first_unsent
        await pilot.press("j")
        cid = listing.highlighted_id
        assert cid is not None and pane.conversation_id == cid
        worker = pane.flush()
        assert worker is not None
        await worker.wait()
        await pilot.pause()
        assert "still connecting" in str(pane.render())
        assert pane._timer is None and asked == [cid]  # no read again by itself
        # the list shows the row again (its next rebuild): read again, and shown
        _screen.rebuild()
        await pilot.pause()
        worker = pane.flush()
        assert worker is not None
        await worker.wait()
        await pilot.pause()
        assert asked == [cid, cid]
        assert "still connecting" not in str(pane.render())
        assert "Loading the last messages" not in str(pane.render())


async def test_preview_pane_when_wide(console: Console, monkeypatch: pytest.MonkeyPatch) -> None:
    app = console.app()
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(console, pilot)
        _app, _session, _screen, listing = parts(pilot)
        pane = app.screen.query_one(PreviewPane)
        assert pane.display
        # the rest before a read is long here: on a loaded machine the key's handling alone
        # can outlast the real 0.3 s, and the read would be under way before flush() asks
        monkeypatch.setattr(PreviewPane, "DEBOUNCE", 30.0)
        await pilot.press("j")
        assert pane.conversation_id == listing.highlighted_id
        worker = pane.flush()
        assert worker is not None
        await worker.wait()
        await pilot.pause()
        last = console.sandbox.query(
            "SELECT body_text FROM messages WHERE conversation_id = ? "
            "ORDER BY created_at DESC LIMIT 1", (listing.highlighted_id,))[0]["body_text"]
        assert last.split()[0] in str(pane.render())
        # running down the list asks for nothing until the cursor rests (the long rest set
        # above: three key presses on a loaded machine can take longer than the real 0.3 s)
        fetches = pane.fetches
        await pilot.press("j", "k")
        assert pane.fetches == fetches
        # a poll changing the shown conversation's record keeps its messages on screen
        # while they are read again (the list re-announces its row at every rebuild)
        cid = listing.highlighted_id
        assert cid is not None
        record = _session.inbox.records.get(cid)
        assert record is not None
        _session.inbox.upsert([record.model_copy(update={"subject": "Changed meanwhile"})])
        _screen.rebuild()
        await pilot.pause()
        shown = str(pane.render())
        assert "Changed meanwhile" in shown and last.split()[0] in shown
        assert "Loading the last messages" not in shown
        # the inbox rebuilding again and again while a read is pending does not put that
        # read off: the rest counts from when the cursor came to the conversation
        pending = pane._timer
        assert pending is not None
        for _ in range(3):
            _screen.rebuild()
            await pilot.pause()
        assert pane._timer is pending
        worker = pane.flush()
        assert worker is not None
        await worker.wait()
        assert pane.fetches == fetches + 1
        await pilot.press("j", "j", "j")
        assert pane.fetches == fetches + 1
        # a customer writes in: the record reads the same but its activity moved, so the
        # pane reads the messages again and shows the new one
        _screen.show_view("all")
        chats = {r["id"] for r in console.sandbox.query(
            "SELECT id FROM conversations WHERE channel = 'WidgetChat' AND state = 'Open'")}
        target = next(cid for cid in listing.shown_ids() if cid in chats)
        assert listing.move_to(target)
        await pilot.pause()
        if (worker := pane.flush()) is not None:
            await worker.wait()
        await console.customer_writes(target, "Preview me, please")
        await _session.live.refresh("inbox")
        await pilot.pause()
        worker = pane.flush()
        assert worker is not None, "the pane took its old messages for the new activity's"
        await worker.wait()
        await pilot.pause()
        assert "Preview me, please" in str(pane.render())
    narrow = console.app()
    async with narrow.run_test(size=(100, 30)) as pilot:
        await settle(console, pilot)
        assert not narrow.screen.query(PreviewPane)  # never built while too narrow


def insert_hostile_conversation(console: Console) -> int:
    """A conversation of mine whose requester's name, subject and tag are hostile."""
    me = demo_agent_id(console)
    evil_name = "\x1b]52;c;ZXZpbA==\x07[bold red]Evil[/]"
    evil_subject = "[@click=app.quit]x\x1b[2J"
    evil_tag = "[link=http://evil.example]tag[/link]\u202e"
    at = NOW.strftime("%Y-%m-%dT%H:%M:%S.000Z")

    def insert(ctx: Any) -> int:
        with ctx.db.tx():
            user = records.insert_user(ctx.db, kind="enduser", created_at=at,
                                       display_name=evil_name, email="evil@example.com")
            cid = records.insert_conversation(
                ctx.db, type="EmailConversation", channel="Email", requester_id=user,
                created_at=at, subject=evil_subject, assigned_agent_id=me, assigned_at=at,
                last_activity_at=at)
            tag = records.insert_tag(ctx.db, name=evil_tag, created_at=at)
            records.tag_conversation(ctx.db, cid, tag, at)
            return cid

    return int(console.sandbox.call(insert))


async def hostile_names_subjects_and_tags_show_literally(console: Console,
                                                         pilot: Pilot[Any]) -> None:
    app = pilot.app
    cid = int(console.sandbox.query("SELECT id FROM conversations WHERE subject = ?",
                                    ("[@click=app.quit]x\x1b[2J",))[0]["id"])
    _app, _session, _screen, listing = parts(pilot)
    assert listing.move_to(cid)
    await pilot.pause()
    line = listing.render_line(listing.cursor + 1 - round(listing.scroll_y)).text
    assert "␛]52;c;ZXZpbA==" in line
    assert "[@click=app.quit]x␛[2J" in line
    assert "\x1b" not in line
    pane = app.screen.query_one(PreviewPane)
    assert "[@click=app.quit]x␛[2J" in str(pane.render())
    assert "␛]52;c;ZXZpbA==␇[bold red]Evil[/]" in str(pane.render())
    assert "[link=http://evil.example]tag[/link]⟨U+202E⟩" in str(pane.render())
    await pilot.press("slash", *"evil")
    assert listing.shown_ids() == [cid]
    assert app.is_running
    assert isinstance(app.screen, InboxScreen)


async def import_checks_the_json_then_imports_from_the_form(console: Console,
                                                            pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, _screen, _listing = parts(pilot)
    requester = an_end_user_email(console)
    form = await open_new_conversation(pilot)
    form.show_kind("import")
    await pilot.pause()
    json_box = form.query_one("#import-json")
    json_box.text = '{"_type": "GenericConversationImport",'  # type: ignore[attr-defined]
    await pilot.press("ctrl+s")
    assert app.screen is form
    assert "JSON is not valid" in str(form.query_one("#new-error").render())
    json_box.text = '{"_type": "GenericConversationImport"}'  # type: ignore[attr-defined]
    await pilot.press("ctrl+s")
    assert "not valid" in str(form.query_one("#new-error").render())
    json_box.text = ""  # type: ignore[attr-defined]
    form.query_one("#import-requester", Input).value = requester
    form.query_one("#import-subject", Input).value = "Moved from the old system"
    form.query_one("#import-message").text = "My order never came."  # type: ignore[attr-defined]
    await pilot.press("ctrl+s")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert app.screen is not form, str(form.query_one("#new-error").render())
    made = console.sandbox.query(
        "SELECT c.id, c.channel, count(m.id) AS n FROM conversations c "
        "JOIN messages m ON m.conversation_id = c.id "
        "WHERE c.subject = 'Moved from the old system' GROUP BY c.id")
    assert len(made) == 1 and made[0]["n"] == 1 and made[0]["channel"] == "Email"
    assert made[0]["id"] in session.inbox.records


async def new_chat_needs_a_widget_id(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    requester = console.sandbox.query(
        "SELECT id FROM users WHERE kind = 'enduser' LIMIT 1")[0]["id"]
    form = await open_new_conversation(pilot)
    form.show_kind("chat")
    await pilot.pause()
    form.query_one("#chat-requester", Input).value = requester
    form.query_one("#chat-widget", Input).value = "not-a-uuid"
    form.query_one("#chat-body").text = "Hi! How can I help?"  # type: ignore[attr-defined]
    await pilot.press("ctrl+s")
    assert "UUID" in str(form.query_one("#new-error").render())
    form.query_one("#chat-widget", Input).value = "0b4f8e0a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"
    await pilot.press("ctrl+s")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert app.screen is not form, str(form.query_one("#new-error").render())
    made = console.sandbox.query(
        "SELECT id FROM conversations WHERE requester_id = ? AND channel = 'WidgetChat' "
        "ORDER BY id DESC LIMIT 1", (requester,))
    assert made


async def rows_without_a_subject_show_the_last_message_from_the_first_fill(
        console: Console, pilot: Pilot[Any]) -> None:
    _app, session, screen, listing = parts(pilot)
    screen.show_view("all")
    await pilot.pause()
    await console.settled(pilot)  # the rows on screen read (the others once shown)
    rows = [session.inbox.rows[cid] for cid in listing.window_ids()]
    chats = [r for r in rows if not (r.subject or "").strip()]
    assert chats, "the seeded inbox has conversations without a subject"
    for row in chats:
        last = console.sandbox.query(
            "SELECT body_text FROM messages WHERE conversation_id = ? "
            "ORDER BY seq DESC LIMIT 1", (row.id,))
        if last and last[0]["body_text"].strip():
            assert session.inbox.previews.get(row.id), row
    # a call has no messages: its row says so
    calls = [r for r in chats if r.channel == "PstnPhone"]
    if calls:
        position = listing.shown_ids().index(calls[0].id)
        assert listing.move_to(calls[0].id)
        await pilot.pause()
        strip = listing.render_line(position + 1 - round(listing.scroll_y))
        assert "Phone call, no messages" in "".join(s.text for s in strip)
        listing.action_cursor_first()
        await pilot.pause()
    # and on screen: the first such row's line carries its text
    first = chats[0]
    position = listing.shown_ids().index(first.id)
    if position < 40:
        strip = listing.render_line(position + 1 - round(listing.scroll_y))
        line = "".join(segment.text for segment in strip)
        words = " ".join(session.inbox.previews[first.id].split())[:12]
        assert words in line


def tab_labels(screen: InboxScreen) -> dict[str, str]:
    tabs = screen.query_one(ViewTabs)
    labels = {}
    for name in VIEWS:
        label = tabs.label_of(f"view-{name}")
        assert label is not None
        labels[name] = label
    return labels


def expect_consistent(session: Session, screen: InboxScreen, listing: ConversationList) -> None:
    """What the list and the tabs show is what a rebuild would show."""
    assert listing.shown_ids() == [row.id for row in session.inbox.view(screen.view)]
    counts = session.inbox.counts()
    assert tab_labels(screen) == {n: f"{VIEW_TITLES[n]} {counts[n]}" for n in VIEWS}


async def poll(app: FrontdeskApp, session: Session, pilot: Any, *ids: int) -> None:
    session.inbox.want(ids)
    await session.live.refresh("inbox")
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def a_poll_changing_one_conversation_updates_it_in_place(
        console: Console, pilot: Pilot[Any]) -> None:
    """A few changed conversations are updated in place: their lines, their places and the
    view counts change, and the list is not rebuilt (builds are counted, never timed)."""
    app_, session, screen, listing = parts(pilot)
    await pilot.pause()
    expect_consistent(session, screen, listing)
    builds, rebuilds = listing.builds, app_.renders["inbox.list"]
    shown = listing.shown_ids()
    await pilot.press("j", "j")
    kept = listing.highlighted_id
    assert kept == shown[2]

    # a new subject: the same place, the new text, no build
    other = shown[5]
    console.sandbox.query("UPDATE conversations SET subject = 'Changed in place' "
                          "WHERE id = ?", (other,))
    await poll(app_, session, pilot, other)
    assert session.inbox.rows[other].subject == "Changed in place"
    assert listing.shown_ids() == shown
    assert "Changed in place" in "".join(
        s.text for s in listing.render_line(1 + shown.index(other) - round(listing.scroll_y)))
    assert listing.highlighted_id == kept

    # closed elsewhere: it leaves Mine, the counts follow
    console.sandbox.query("UPDATE conversations SET state = 'Closed' WHERE id = ?",
                          (other,))
    await poll(app_, session, pilot, other)
    assert other not in listing.shown_ids()
    expect_consistent(session, screen, listing)
    assert listing.highlighted_id == kept

    # activity on the last one: it moves to the top, the cursor stays on its conversation
    last = listing.shown_ids()[-1]
    session.inbox.touch(last)
    session.live.put("inbox", session.inbox.version)
    await pilot.pause()
    assert listing.shown_ids()[0] == last
    expect_consistent(session, screen, listing)
    assert listing.highlighted_id == kept

    # a name resolved by a poll: the lines read anew, nothing is rebuilt
    top = session.inbox.rows[listing.shown_ids()[0]]
    session.directory.names[top.requester_id] = "Renamed Ann"
    session.inbox._bump(NAMES_CHANGED)
    session.live.put("inbox", session.inbox.version)
    await pilot.pause()
    assert "Renamed Ann" in "".join(
        s.text for s in listing.render_line(1 - round(listing.scroll_y)))
    assert listing.highlighted_id == kept

    assert listing.builds == builds
    assert app_.renders["inbox.list"] == rebuilds
    assert app_.renders["inbox.update"] >= 3
    # the other views are still right when shown (rebuilt from the store)
    await pilot.press("tab")
    expect_consistent(session, screen, listing)


@pytest.mark.slow
async def test_reading_the_inbox(console: Console) -> None:
    """The Mine view once signed in; a poll that changes nothing; the filter; the views; the
    cursor across updates; enter, open by id and search; a few conversations changed by a
    poll, updated in place (last: it closes one of Mine and renames a requester)."""
    async def start(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)

    await console.walk((100, 30),
                       mine_rows_after_ready,
                       a_poll_that_changes_nothing_repaints_nothing,
                       filter_narrows_as_typed_and_esc_restores,
                       views_switch_with_tab_and_a_click,
                       closed_holds_mine_closed_in_the_last_seven_days,
                       cursor_keys_and_selection_kept_across_updates,
                       enter_opens_the_thread,
                       open_by_id,
                       search_shows_a_temporary_view,
                       a_poll_changing_one_conversation_updates_it_in_place,
                       start=start, between=console.fresh_inbox)


async def test_new_conversations(console: Console) -> None:
    """The new-conversation form: an email (checked, then created), a new address (asked,
    refused then created), an import, a chat that needs a widget id."""
    async def start(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)

    await console.walk((100, 40),
                       import_checks_the_json_then_imports_from_the_form,
                       new_email_conversation_checks_then_creates,
                       new_conversation_to_a_new_address_offers_to_create_them,
                       new_chat_needs_a_widget_id,
                       start=start, between=console.fresh_inbox)


async def test_rows_shown_wide(console: Console) -> None:
    """Hostile names, subjects and tags show literally; rows without a subject show their last
    message from the first fill."""
    insert_hostile_conversation(console)

    async def start(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)

    await console.walk((160, 45),
                       hostile_names_subjects_and_tags_show_literally,
                       rows_without_a_subject_show_the_last_message_from_the_first_fill,
                       start=start, between=console.fresh_inbox)


async def test_an_empty_view_says_loading_until_the_first_fill(console: Console) -> None:
    # the service's search does not answer (yet): the inbox cannot be filled
    console.sandbox.faults.fail(503, count=None, methods=("POST",), path_prefix="/v1/search")
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.idle(pilot)
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        listing = screen.conversation_list
        session = app.session
        assert session is not None and not session.inbox.filled
        assert listing.row_count == 0
        assert listing.empty_text == "Loading…"
        console.sandbox.faults.clear()
        for _ in range(40):  # a tick brings a batch of records: as many ticks as it takes
            await session.live.refresh("inbox")
            if session.inbox.filled:
                break
        await console.idle(pilot)
        assert session.inbox.filled
        assert listing.empty_text != "Loading…"


async def test_view_counts_are_never_a_false_zero_while_loading(console: Console) -> None:
    """Before the first fill the views say "…", not 0; once the service answered, numbers."""
    from frontdesk.store.inbox import VIEWS
    from frontdesk.tui.widgets.view_tabs import ViewTabs

    def labels(screen: InboxScreen) -> list[str]:
        tabs = screen.query_one(ViewTabs)
        found = [tabs.label_of(f"view-{name}") for name in VIEWS]
        return [label for label in found if label is not None]

    for prefix in ("/v1/conversations", "/v1/search"):
        console.sandbox.faults.fail(503, count=None, path_prefix=prefix)
    app = console.app()
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(3):  # the first polls, refused
                await pilot.pause()
                with contextlib.suppress(Exception):
                    await app.workers.wait_for_complete()
            screen = app.screen
            assert isinstance(screen, InboxScreen)
            assert app.session is not None and not app.session.inbox.filled
            shown = labels(screen)
            assert shown and all(label.endswith(" …") for label in shown), shown
            console.sandbox.faults.clear()
            await settle(console, pilot)
            shown = labels(screen)
            assert all(label.split()[-1].isdigit() for label in shown), shown
            assert any(label.split()[-1] != "0" for label in shown), shown
    finally:
        console.sandbox.faults.clear()
