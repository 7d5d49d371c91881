"""Fixtures for console tests: a signed-in session on a real sandbox, and the app around it.

    async def test_something(console):
        app = console.app()
        async with app.run_test(size=(100, 30)) as pilot:
            await console.ready(pilot)      # signed in, directory and inbox loaded
            ...
            rows = console.sandbox.query("SELECT ...")
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from textual.pilot import Pilot

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.config import Settings
from frontdesk.launch import local_store_path
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.tui import clock
from frontdesk.tui.app import FrontdeskApp

NOW = ManualClock().now()  # the sandbox fixtures' frozen time


@dataclass
class Console:
    """Builds sessions and apps against one sandbox."""

    sandbox: SandboxServer
    settings: Settings = field(default_factory=Settings)
    sessions: list[Session] = field(default_factory=list)

    def session(self, identity: str = DEMO_AGENT_EMAIL, profile: str = "test") -> Session:
        """A session signed in (once started) as ``identity``."""
        client = ApiClient(self.sandbox.base_url, self.sandbox.key, self.sandbox.integrations_url,
                           pacer=Pacer(enabled=False))
        local = LocalStore(local_store_path(profile))
        session = Session(client=client, local=local, settings=self.settings, profile=profile,
                          identity=identity)
        self.sessions.append(session)
        return session

    def app(self, session: Session | None = None, **options: Any) -> FrontdeskApp:
        """The console on a new session (or the one given)."""
        return FrontdeskApp(session or self.session(), **options)

    async def ready(self, pilot: Pilot[Any]) -> None:
        """Wait until the session has signed in and the first inbox poll is done."""
        app = pilot.app
        assert isinstance(app, FrontdeskApp)
        await app.workers.wait_for_complete()
        session = app.session
        assert session is not None
        if session.live.topic("inbox") is not None:
            await session.live.refresh("inbox")
        await pilot.pause()


@pytest.fixture
def console(sandbox: SandboxServer) -> Iterator[Console]:
    """Sessions and apps on the seeded sandbox, with the console's clock frozen at NOW."""
    clock.freeze(NOW)
    yield Console(sandbox)
    clock.freeze(None)
