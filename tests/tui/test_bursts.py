"""Keys in bursts: several keys in one read of the terminal (over SSH, a paste, a fast
typist) act exactly as the same keys typed one by one, and the console falls back to idle."""

from __future__ import annotations

import logging
import time
from functools import partial
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from frontdesk.store.inbox import VIEWS
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.key_order import KEY_STUCK, OrderedKey
from frontdesk.tui.screens.admin.admin import AdminScreen
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.screens.shared.tag_picker import TagPicker

Console = Any  # the `console` fixture of tests/tui/conftest.py


def inbox(app: FrontdeskApp) -> InboxScreen:
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    return screen


def app_of(pilot: Pilot[Any]) -> FrontdeskApp:
    app = pilot.app
    assert isinstance(app, FrontdeskApp)
    return app


async def bursts_in_the_inbox_its_filter_the_tag_picker_and_admin(
        console: Console, pilot: Pilot[Any]) -> None:
    app = app_of(pilot)
    await console.idle(pilot)
    session = app.session
    assert session is not None
    # two tabs in one read: two views on, once, and the console idle again
    renders = app.renders.get("inbox.list", 0)
    version = session.inbox.version
    two_on = VIEWS[VIEWS.index(inbox(app).view) + 2]
    await console.burst(pilot, "tab", "tab")
    screen = inbox(app)
    assert screen.view == two_on
    assert screen.query_one("#inbox-views").active == f"view-{two_on}"  # type: ignore[attr-defined]
    # one rebuild per view, besides one per change a poll brought meanwhile
    assert app.renders.get("inbox.list", 0) - renders <= 2 + session.inbox.version - version
    to_all = VIEWS.index("all") - VIEWS.index(screen.view)  # on past the views between
    await console.burst(pilot, "tab", "tab", "shift+tab", *["tab"] * (to_all - 1))
    assert screen.view == "all"
    # moving and opening in the same burst opens the row the keys reached
    listing = screen.conversation_list
    expected = listing.shown_ids()[2]
    await console.burst(pilot, "g", "j", "j", "enter")
    thread = app.screen
    assert isinstance(thread, ThreadScreen)
    assert thread.conversation_id == expected
    await console.burst(pilot, "escape")
    # typing a filter and moving in it: the arrow acts on the filtered rows
    assert isinstance(app.screen, InboxScreen)
    await console.burst(pilot, "slash", *"open", "enter", "g", "j", "j", "k")
    assert listing.filter_text == "open"
    assert listing.has_focus
    assert listing.cursor == 1
    await console.burst(pilot, "slash", "down", "down", "up")
    assert listing.filter_text == "open"
    assert listing.cursor == 2
    assert isinstance(app.focused, Input)
    await console.burst(pilot, "escape", "escape")
    assert listing.filter_text == ""
    # the tag picker: a name typed and toggled with space in the same burst
    cid = screen.current_conversation_id()
    assert cid is not None
    applied = set(session.inbox.tags.get(cid, ()))
    name = next(t.name for t in sorted(session.directory.tags.values(),
                                       key=lambda t: t.name)
                if t.active and t.id not in applied and t.name.isascii()
                and t.name.isalpha())
    await console.burst(pilot, "t")
    picker = app.screen
    assert isinstance(picker, TagPicker)
    await console.burst(pilot, *name, "space")
    tag = session.directory.tag_by_name(name)
    assert tag is not None
    assert picker.chosen == applied | {tag.id}
    await console.burst(pilot, "escape")

    # the admin menu shows the section under its cursor: a burst of moves ends at one
    await console.burst(pilot, "5")
    admin = app.screen
    assert isinstance(admin, AdminScreen)
    menu = admin.query_one("#admin-menu", OptionList)
    menu.focus()
    await console.idle(pilot)
    await console.burst(pilot, "down", "down", "down", "up")
    assert menu.highlighted == 2


async def a_key_that_is_never_done_with_holds_no_key_after_it(
        console: Console, pilot: Pilot[Any], caplog: pytest.LogCaptureFixture) -> None:
    """Whatever goes wrong with one key (lost on its way, a handler that never says done),
    the keys after it are not held for good: the next key that comes moves them on, and the
    log says so (the soak of tests/tui/test_key_soak.py asserts it never happens by itself)."""
    caplog.set_level(logging.WARNING, logger="frontdesk.tui")
    app = app_of(pilot)
    await console.idle(pilot)
    # a key stuck in flight since long ago (never done, its patience timer gone)
    stuck = OrderedKey("x", "x", lambda key: None)
    app._key_in_flight = stuck
    app._key_since = time.monotonic() - KEY_STUCK - 1
    two_on = VIEWS[VIEWS.index(inbox(app).view) + 2]
    await console.burst(pilot, "tab", "tab")
    assert inbox(app).view == two_on
    assert app.keys_waiting == 0
    given_up = [r.getMessage() for r in caplog.records if "never done with" in r.getMessage()]
    assert len(given_up) == 1 and "'x' in flight" in given_up[0]


async def test_bursts_walked(console: Console, caplog: pytest.LogCaptureFixture) -> None:
    """Bursts on one console: a key stuck in flight first, then the inbox, its filter, the
    tag picker and the admin menu (last: it leaves the console in Admin mode)."""
    async def between(pilot: Pilot[Any]) -> None:
        if isinstance(pilot.app.screen, InboxScreen):
            await console.fresh_inbox(pilot)

    await console.walk((100, 30),
                       partial(a_key_that_is_never_done_with_holds_no_key_after_it,
                               caplog=caplog),
                       bursts_in_the_inbox_its_filter_the_tag_picker_and_admin,
                       between=between)
