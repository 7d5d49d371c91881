"""Alerts in the console, against the sandbox: a customer's reply in one of mine is told by a
toast naming the conversation, "1 new" in the header until its thread is opened, and a
desktop notification whose bytes carry the customer's hostile text inert; nothing is told
when the kind is switched off. The bytes of a notification are checked exactly."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.settings import AlertSettings
from frontdesk.tui.alerts import desktop_notification, desktop_protocol
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.widgets.status_bar import StatusBar

Console = Any  # the `console` fixture of tests/tui/conftest.py
SIZE = (120, 30)
HOSTILE = "\x1b]0;owned\x07 refund\x9b2J now\u202e\x1b\\ ;;"


def my_chat(console: Console) -> int:
    """An open chat assigned to the demo agent."""
    rows = console.sandbox.query(
        "SELECT c.id FROM conversations c JOIN users u ON u.id = c.assigned_agent_id "
        "WHERE u.email = ? AND c.channel = 'WidgetChat' AND c.state = 'Open' "
        "ORDER BY c.id LIMIT 1", (DEMO_AGENT_EMAIL,))
    assert rows, "the seeded sandbox has no open chat of the demo agent"
    return int(rows[0]["id"])


async def polled_until(pilot: Pilot[Any], done: Any, ticks: int = 10) -> None:
    """Poll the inbox (as its timer would) until ``done()`` holds."""
    app = pilot.app
    assert isinstance(app, FrontdeskApp) and app.session is not None
    for _ in range(ticks):
        await app.session.live.refresh("inbox")
        await pilot.pause()
        if done():
            return
    assert done()


def test_a_desktop_notification_carries_no_control_character() -> None:
    nine = desktop_notification("osc9", "frontdesk", "The customer replied: " + HOSTILE)
    assert nine.startswith("\x1b]9;") and nine.endswith("\x07")
    body = nine[len("\x1b]9;"):-1]
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in body)
    assert "\u202e" not in body and "refund" in body
    seven = desktop_notification("osc777", "a;b\x1b", HOSTILE)
    assert seven.startswith("\x1b]777;notify;a,b␛;") and seven.endswith("\x07")
    assert seven.count("\x1b") == 1 and seven.count("\x07") == 1
    assert len(desktop_notification("osc9", "", "x" * 5000)) < 220


def test_auto_names_a_protocol_only_for_terminals_known_to_show_it() -> None:
    assert desktop_protocol("auto", {"TERM_PROGRAM": "iTerm.app"}) == "osc9"
    assert desktop_protocol("auto", {"TERM": "xterm-kitty"}) == "osc9"
    assert desktop_protocol("auto", {"VTE_VERSION": "7600", "TERM": "xterm-256color"}) == "osc777"
    assert desktop_protocol("auto", {"TERM": "xterm-256color"}) is None
    assert desktop_protocol("auto", {"TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/x"}) is None
    assert desktop_protocol("off", {"TERM_PROGRAM": "iTerm.app"}) is None
    assert desktop_protocol("osc777", {}) == "osc777"


async def test_a_customer_reply_is_told_once_and_new_until_read(console: Console) -> None:
    chat = my_chat(console)
    written: list[str] = []
    app = console.app(alerts=AlertSettings(desktop="osc9", bell=False))
    async with app.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        alerts = app.alerts
        assert alerts is not None and app.session is not None
        alerts.write = written.append
        inbox = app.session.inbox
        await polled_until(pilot, lambda: inbox.filled and inbox.settled)
        await polled_until(pilot, lambda: True)  # the alerts' start: what is known is no news
        assert alerts.told == []

        await console.customer_writes(chat, HOSTILE)
        await polled_until(pilot, lambda: bool(alerts.told))
        assert len(alerts.told) == 1 and alerts.told[0].startswith(f"The customer replied: #{chat}")
        assert written == [desktop_notification("osc9", "frontdesk", alerts.told[0])]
        assert written[0].count("\x1b") == 1  # the sequence's own ESC, no other
        assert app.status_new == 1
        assert "1 new" in app.screen.query_one(StatusBar).render().plain

        await console.open_thread(pilot, chat)
        assert app.status_new == 0 and alerts.new == set()


async def test_a_kind_switched_off_tells_nothing(console: Console) -> None:
    chat = my_chat(console)
    app = console.app(alerts=AlertSettings(reply=False, bell=False, desktop="off"))
    async with app.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        alerts = app.alerts
        assert alerts is not None and app.session is not None
        inbox = app.session.inbox
        await polled_until(pilot, lambda: inbox.filled and inbox.settled)
        await polled_until(pilot, lambda: True)
        await console.customer_writes(chat, "Hello again")
        await polled_until(pilot, lambda: inbox.turns.get(chat) is not None
                           and inbox.turns[chat][0] == "customer", ticks=10)
        assert alerts.told == [] and app.status_new == 0


async def test_the_settings_screen_saves_to_config_and_takes_effect(console: Console) -> None:
    """f2 opens the alerts' settings; keys in one burst switch replies off and save: the
    config file has it and the alerts use it at once. A window that is not a number is said
    in one line and saves nothing."""
    from frontdesk.settings import load_settings, settings_path
    from frontdesk.tui.screens.shared.form import FormScreen

    app = console.app(alerts=AlertSettings())
    async with app.run_test(size=SIZE) as pilot:
        await console.ready(pilot)
        assert app.alerts is not None
        await console.burst(pilot, "f2")
        form = app.screen
        assert isinstance(form, FormScreen) and form.id == "alert-settings"
        await console.burst(pilot, "tab", "space", "ctrl+s")
        await console.settled(pilot)
        assert not isinstance(app.screen, FormScreen)
        assert app.alerts.settings.reply is False and app.alerts.settings.assigned is True
        assert load_settings(settings_path()).alerts.reply is False
        assert "[alerts]" in settings_path().read_text(encoding="utf-8")

        await console.burst(pilot, "f2")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.set_values({"every": "soon"})
        await console.burst(pilot, "ctrl+s")
        await console.settled(pilot)
        assert isinstance(app.screen, FormScreen)  # still open, with what was typed
        assert load_settings(settings_path()).alerts.every == 5.0
