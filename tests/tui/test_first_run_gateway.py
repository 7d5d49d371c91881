"""The first run's "Connect through my team's gateway": a gateway's URL and a personal key,
checked with a real gateway in front of a real sandbox; the profile is saved as a gateway's,
acting as the member's agent, and nothing is saved while the gateway refuses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import keyring
from textual.pilot import Pilot
from textual.widgets import Input, Static

from frontdesk.api.secrets import ApiKey
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import KEYRING_SERVICE, load_settings
from frontdesk.tui.screens.first_run import FirstRunApp, GatewayConnectScreen, WelcomeScreen
from gateway_harness import DEMO_AGENT_EMAIL, running_gateway

SIZE = (100, 40)


def status(app: FirstRunApp) -> str:
    return str(app.screen.query_one("#connect-status", Static).render())


async def connect(pilot: Pilot[Any], url: str, key: str) -> None:
    """Fill the gateway's URL and the key, and connect; wait for the answer."""
    screen = pilot.app.screen
    for field, value in (("base-url", url), ("key", key)):
        box = screen.query_one(f"#{field}", Input)
        box.focus()
        box.value = value
    await pilot.press("enter")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_connect_through_the_team_s_gateway(sandbox: SandboxServer,
                                                  tmp_path: Path) -> None:
    with running_gateway(sandbox, tmp_path) as gateway:
        key = gateway.add_member(DEMO_AGENT_EMAIL, "supervisor")
        agent = gateway.agent(DEMO_AGENT_EMAIL)
        app = FirstRunApp()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, WelcomeScreen)
            await pilot.press("down", "enter")
            await pilot.pause()
            assert isinstance(app.screen, GatewayConnectScreen)
            assert not app.screen.query("#identity") and not app.screen.query(
                "#integrations-url")  # the gateway says who you are
            # the service itself is no gateway, and a stranger's key is refused
            await connect(pilot, sandbox.base_url, sandbox.key)
            assert "is not a team gateway" in status(app)
            await connect(pilot, gateway.base_url, "fdg_not-a-member")
            assert "refused the key" in status(app) and "fdg_not" not in status(app)
            assert load_settings().profiles == {}
            await connect(pilot, gateway.base_url, key)
        result = app.return_value
        assert result is not None and result.choice == "connected"
        assert result.key == ApiKey(key)
        profile = load_settings().profiles["team"]
        assert (profile.base_url, profile.integrations_url, profile.gateway, profile.agent_id,
                profile.key_source) == (gateway.base_url, gateway.integrations_url, True,
                                        agent["id"], "keyring")
        assert result.profile == profile
        assert keyring.get_keyring().get_password(KEYRING_SERVICE, "team") == key
