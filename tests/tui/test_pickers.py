"""The pickers: tags (toggle, inactive tags, create), queues, follow-up times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from frontdesk.sandbox.clock import ManualClock
from frontdesk.store.session import Session
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.shared.followup_picker import (
    FollowupPicker,
    followup_presets,
    parse_followup,
)
from frontdesk.tui.screens.shared.queue_picker import QueuePicker, waiting_text
from frontdesk.tui.screens.shared.tag_picker import TagChoice, TagPicker

Console = Any  # the `console` fixture of tests/tui/conftest.py
NOW = ManualClock().now()


def parts(pilot: Pilot[Any]) -> tuple[FrontdeskApp, Session, InboxScreen]:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    session = app.session
    assert session is not None
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    return app, session, screen


async def settle(console: Console, pilot: Pilot[Any]) -> None:
    await console.ready(pilot)
    app, session, _screen = parts(pilot)
    for _ in range(20):
        version = session.inbox.version
        await app.workers.wait_for_complete()
        await session.live.refresh("inbox")
        await pilot.pause()
        # a console on a filled local store reads Mine and Queue again without a change:
        # wait for that too, not only for a poll that changed nothing
        if session.inbox.version == version and session.inbox.filled and session.inbox.settled:
            break


def app_of(pilot: Pilot[Any]) -> FrontdeskApp:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    return app


async def done(pilot: Pilot[Any]) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def sandbox_tags(console: Console, cid: int) -> set[str]:
    return {r["name"] for r in console.sandbox.query(
        "SELECT t.name FROM conversation_tags ct JOIN tags t ON t.id = ct.tag_id "
        "WHERE ct.conversation_id = ?", (cid,))}


def tagged_conversation(console: Console, session: Session) -> int:
    """A conversation of mine, in the list, with at least one tag."""
    mine = [c.id for c in session.inbox.view("mine")]
    tagged = {r["conversation_id"] for r in console.sandbox.query(
        "SELECT conversation_id FROM conversation_tags ct JOIN tags t ON t.id = ct.tag_id "
        "WHERE t.state = 'Active'")}
    return next(cid for cid in mine if cid in tagged)


# --------------------------------------------------------------------------- follow-up times


def test_parse_followup_relative_and_absolute() -> None:
    base = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    assert parse_followup("+2h", base) == base + timedelta(hours=2)
    assert parse_followup("+30m", base) == base + timedelta(minutes=30)
    assert parse_followup("+1d", base) == base + timedelta(days=1)
    assert parse_followup(" +1h30m ", base) == base + timedelta(hours=1, minutes=30)
    absolute = parse_followup("2026-01-06 14:00", base)
    assert isinstance(absolute, datetime)
    local = absolute.astimezone(absolute.tzinfo)
    assert (local.year, local.month, local.day, local.hour, local.minute) == (2026, 1, 6, 14, 0)
    clock = parse_followup("23:59", base)
    assert isinstance(clock, datetime) and base < clock <= base + timedelta(days=1)


def test_parse_followup_refusals() -> None:
    base = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    for typed in ("", "soon", "+", "2026-13-01 10:00", "25:00", "2025-01-01 10:00", "+400d"):
        assert isinstance(parse_followup(typed, base), str), typed


def test_presets_are_in_the_future() -> None:
    base = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    presets = {key: moment for key, _label, moment in followup_presets(base)}
    assert presets["1h"] == base + timedelta(hours=1)
    assert presets["4h"] == base + timedelta(hours=4)
    tomorrow = presets["tomorrow"].astimezone(presets["tomorrow"].tzinfo)
    assert (tomorrow.hour, tomorrow.minute) == (9, 0)
    assert timedelta(0) < presets["tomorrow"] - base < timedelta(days=2)


async def followup_with_a_typed_time(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, _session, screen = parts(pilot)
    cid = screen.current_conversation_id()
    assert cid is not None
    await pilot.press("f")
    picker = app.screen
    assert isinstance(picker, FollowupPicker)
    await pilot.press("n", "o", "p", "e", "enter")
    assert app.screen is picker  # not a time: it says so and stays
    assert "not a time" in str(picker.query_one("#picker-hint").render())
    picker.query_one(Input).value = "+2h"
    await pilot.pause()
    assert "pending until" in str(picker.query_one("#picker-hint").render())
    await pilot.press("enter")
    await done(pilot)
    row = console.sandbox.query("SELECT state, followup_until FROM conversations "
                                "WHERE id = ?", (cid,))[0]
    assert row["state"] == "Pending"
    assert row["followup_until"].startswith("2026-01-05T11:00")


# --------------------------------------------------------------------------- queues


async def queue_picker_filters_and_esc_cancels(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, screen = parts(pilot)
    cid = screen.current_conversation_id()
    assert cid is not None
    before = console.sandbox.query("SELECT queue_id, assigned_agent_id FROM conversations "
                                   "WHERE id = ?", (cid,))[0]
    await pilot.press("T")
    picker = app.screen
    assert isinstance(picker, QueuePicker)
    assert picker.options.option_count == len(session.directory.queues)
    # every queue says how many wait, or "…" while not counted yet: never an empty cell
    prompts = [str(picker.options.get_option_at_index(i).prompt)
               for i in range(picker.options.option_count)]
    assert all("waiting" in p or "…" in p for p in prompts), prompts
    assert waiting_text(None).plain.strip() == "…"
    await pilot.press("down", "down")
    assert picker.options.highlighted == 2
    await pilot.press("up")
    assert picker.options.highlighted == 1
    await pilot.press("z", "z", "z")
    assert picker.options.option_count == 0
    await pilot.press("enter")
    assert app.screen is picker
    await pilot.press("escape")
    await done(pilot)
    assert isinstance(app.screen, InboxScreen)
    after = console.sandbox.query("SELECT queue_id, assigned_agent_id FROM conversations "
                                  "WHERE id = ?", (cid,))[0]
    assert after == before


# --------------------------------------------------------------------------- tags


async def tag_picker_toggles_removes_and_creates(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, screen = parts(pilot)
    cid = tagged_conversation(console, session)
    assert screen.conversation_list.move_to(cid)
    before = sandbox_tags(console, cid)
    removed = sorted(before)[0]
    added = next(t.name for t in sorted(session.directory.tags.values(),
                                        key=lambda t: t.name)
                 if t.active and t.name not in before and t.name.isascii())
    removed_tag = session.directory.tag_by_name(removed)
    added_tag = session.directory.tag_by_name(added)
    assert removed_tag is not None and added_tag is not None
    await pilot.press("t")
    await done(pilot)
    picker = app.screen
    assert isinstance(picker, TagPicker)
    # untick one that is applied
    await pilot.press(*removed)
    assert picker.highlighted_id() == f"tag:{removed_tag.id}"
    await pilot.press("space")
    picker.query_one(Input).value = ""
    # tick one that is not
    await pilot.press(*added)
    await pilot.press("space")
    picker.query_one(Input).value = ""
    await pilot.pause()
    # a new name: offered as "create tag", ticked with space
    await pilot.press(*"brand-new-tag")
    assert picker.highlighted_id() == "create"
    await pilot.press("space")
    assert picker.creates == ["brand-new-tag"]
    choice = picker.choice()
    assert choice == TagChoice(add=(added_tag.id,), remove=(removed_tag.id,),
                               create=("brand-new-tag",))
    await pilot.press("enter")
    await done(pilot)
    assert isinstance(app.screen, InboxScreen)
    assert sandbox_tags(console, cid) == (before - {removed}) | {added, "brand-new-tag"}
    assert console.sandbox.query("SELECT state FROM tags WHERE name = 'brand-new-tag'")
    names = screen.conversation_list.lookups.tag_names(cid)
    assert "brand-new-tag" in names and removed not in names


async def typed_new_name_and_enter_creates_it(console: Console, pilot: Pilot[Any]) -> None:
    _app, _session, screen = parts(pilot)
    cid = screen.current_conversation_id()
    assert cid is not None
    before = sandbox_tags(console, cid)
    await pilot.press("t")
    await done(pilot)
    await pilot.press(*"fresh-one", "enter")
    await done(pilot)
    assert sandbox_tags(console, cid) == before | {"fresh-one"}


async def inactive_tags_can_only_be_removed(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, screen = parts(pilot)
    cid = screen.current_conversation_id()
    assert cid is not None
    inactive = next(t for t in session.directory.tags.values() if not t.active)
    before = sandbox_tags(console, cid)
    assert inactive.name not in before
    await pilot.press("t")
    await done(pilot)
    picker = app.screen
    assert isinstance(picker, TagPicker)
    await pilot.press(*inactive.name)
    assert picker.highlighted_id() == f"tag:{inactive.id}"
    await pilot.press("space")
    assert inactive.id not in picker.chosen
    assert any("deactivated" in str(n.message) for n in app._notifications)
    await pilot.press("enter")  # nothing changed: closes without a request
    await done(pilot)
    assert isinstance(app.screen, InboxScreen)
    assert sandbox_tags(console, cid) == before


async def esc_cancels_the_tag_picker(console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    _app, session, screen = parts(pilot)
    cid = tagged_conversation(console, session)
    assert screen.conversation_list.move_to(cid)
    before = sandbox_tags(console, cid)
    await pilot.press("t")
    await done(pilot)
    await pilot.press("space", "escape")
    await done(pilot)
    assert isinstance(app.screen, InboxScreen)
    assert sandbox_tags(console, cid) == before


async def test_pickers_on_the_inbox(console: Console) -> None:
    """The tag picker (esc, inactive tags, a typed new name, toggles), the queue picker and a
    typed follow-up time, each on a freshly settled inbox."""
    async def start(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)

    async def between(pilot: Pilot[Any]) -> None:
        await settle(console, pilot)
        await console.fresh_inbox(pilot)

    await console.walk((100, 30),
                       esc_cancels_the_tag_picker,
                       inactive_tags_can_only_be_removed,
                       typed_new_name_and_enter_creates_it,
                       tag_picker_toggles_removes_and_creates,
                       queue_picker_filters_and_esc_cancels,
                       followup_with_a_typed_time,
                       start=start, between=between)
