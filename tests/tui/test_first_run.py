"""The first-run app: the choices, the connect form against a real sandbox (profile and
key saved only once the service accepted them), its refusals, and going back."""

from __future__ import annotations

from typing import Any

import keyring
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from frontdesk.api.secrets import ApiKey
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import KEYRING_SERVICE, load_settings, settings_path
from frontdesk.tui.screens.first_run import (
    ConnectScreen,
    FirstRunApp,
    FirstRunResult,
    WelcomeScreen,
)

SIZE = (100, 40)


def status(app: FirstRunApp) -> str:
    """The connect form's status line, as text."""
    return str(app.screen.query_one("#connect-status", Static).render())


async def open_connect(pilot: Pilot[Any]) -> None:
    """From the welcome screen, choose "Connect to a service"."""
    await pilot.pause()
    assert isinstance(pilot.app.screen, WelcomeScreen)
    await pilot.press("enter")  # the first choice is highlighted
    await pilot.pause()
    assert isinstance(pilot.app.screen, ConnectScreen)


async def fill(pilot: Pilot[Any], **values: str) -> None:
    """Put values into the connect form's fields (by id, ``_`` for ``-``)."""
    screen = pilot.app.screen
    for field, value in values.items():
        box = screen.query_one(f"#{field.replace('_', '-')}", Input)
        box.focus()
        box.value = value
    await pilot.pause()


async def test_the_two_choices_and_the_demo() -> None:
    app = FirstRunApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        choices = app.screen.query_one("#welcome-choices", OptionList)
        prompts = [str(choices.get_option_at_index(i).prompt)
                   for i in range(choices.option_count)]
        assert prompts == ["Connect to a service", "Connect through my team's gateway",
                           "Try the demo"]
        await pilot.press("down", "down", "enter")
        await pilot.pause()
    assert app.return_value == FirstRunResult("demo")
    assert load_settings().profiles == {}


async def test_quit_without_choosing() -> None:
    app = FirstRunApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_value is None


async def test_connect_saves_the_profile_and_the_key(sandbox: SandboxServer) -> None:
    app = FirstRunApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(pilot)
        name_box = app.screen.query_one("#name", Input)
        name_box.focus()
        await pilot.press("ctrl+a", "ctrl+k", "w", "o", "r", "k")  # typed, like a person
        assert name_box.value == "work"
        await fill(pilot, base_url=sandbox.base_url,
                   integrations_url=sandbox.integrations_url, key=sandbox.key,
                   identity=DEMO_AGENT_EMAIL)
        key_box = app.screen.query_one("#key", Input)
        assert key_box.password
        assert sandbox.key not in str(key_box.render())  # never on the screen
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
    result = app.return_value
    assert result is not None and result.choice == "connected"
    assert result.profile is not None and result.profile.name == "work"
    assert result.key == ApiKey(sandbox.key)
    assert sandbox.key not in repr(result)
    settings = load_settings()
    assert settings.default_profile == "work"
    profile = settings.profiles["work"]
    assert (profile.base_url, profile.integrations_url, profile.agent_email,
            profile.key_source) == (sandbox.base_url, sandbox.integrations_url,
                                    DEMO_AGENT_EMAIL, "keyring")
    assert keyring.get_keyring().get_password(KEYRING_SERVICE, "work") == sandbox.key
    assert sandbox.key not in settings_path().read_text()


async def test_a_refused_key_saves_nothing(sandbox: SandboxServer) -> None:
    app = FirstRunApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(pilot)
        await fill(pilot, base_url=sandbox.base_url, key="sbx_wrong-key-here",
                   identity=DEMO_AGENT_EMAIL)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, ConnectScreen)
        assert "refused" in status(app)
        assert "sbx_wrong-key-here" not in status(app)
        assert app.screen.query_one("#connect-status").has_class("problem")
        # an unknown email, with the right key
        await fill(pilot, key=sandbox.key, identity="nobody@nowhere.example")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "nobody@nowhere.example" in status(app)
    assert app.return_value is None
    assert load_settings().profiles == {}
    assert keyring.get_keyring().get_password(KEYRING_SERVICE, "default") is None


async def test_the_form_checks_before_asking_the_service() -> None:
    app = FirstRunApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(pilot)
        await fill(pilot, base_url="ftp://example.com", key="k", identity="me@example.com")
        await pilot.press("enter")
        await pilot.pause()
        assert "http" in status(app)
        await fill(pilot, base_url="https://example.com", key="k", identity="just-a-name")
        await pilot.press("enter")
        await pilot.pause()
        assert "email" in status(app)
        screen = app.screen
        screen.query_one("#key", Input).value = ""
        await fill(pilot, identity="me@example.com")
        await pilot.press("enter")
        await pilot.pause()
        assert "API key" in status(app)


async def test_escape_goes_back_to_the_choices() -> None:
    app = FirstRunApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, WelcomeScreen)
        await pilot.press("down", "down", "enter")
        await pilot.pause()
    assert app.return_value == FirstRunResult("demo")


async def test_a_burst_fills_the_fields_in_turn(sandbox: SandboxServer) -> None:
    """Keys of one terminal read (over SSH, a paste, a fast typist) go to the field the keys
    before them reached: tab moves on before the next character lands, so the API key never
    lands in the Base URL field in clear text."""
    from tui_conftest import tui_fixtures

    key_event = tui_fixtures().key_event
    app = FirstRunApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(pilot)
        screen = app.screen
        assert screen.query_one("#base-url", Input).has_focus
        keys = [*"abc", "tab", *"def", "tab", *"ghi"]
        driver = app._driver
        assert driver is not None
        for key in keys:  # every key posted before the app handles any, as one read
            event = key_event(key)
            event.set_sender(app)
            driver.send_message(event)
        for _ in range(200):
            await pilot.pause()
            if not getattr(app, "keys_waiting", 0):
                break
        await pilot.pause()
        values = {field: screen.query_one(f"#{field}", Input).value
                  for field in ("base-url", "integrations-url", "key")}
        assert values == {"base-url": "abc", "integrations-url": "def", "key": "ghi"}
        assert screen.query_one("#key", Input).password
