"""The sandbox the pictures are drawn from, the sessions signed in to it and their poll
timers (frozen once a console has settled)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from .scene import KEY, NOW, PROFILE, SEED, Skip

__all__ = ["CURRENT", "TIMERS", "PollTimers", "Sandbox"]


class PollTimers:
    """A session's poll sleep for pictures: real sleeps until frozen; then no poll timer fires
    again (a poke, a refresh or a newly shown screen still polls), so nothing the service says
    between two steps changes a picture."""

    def __init__(self) -> None:
        self.frozen = False

    async def sleep(self, delay: float) -> None:
        """Sleep ``delay`` seconds; once frozen, wait until the loop is woken instead."""
        await asyncio.sleep(delay)
        if self.frozen:
            await asyncio.get_running_loop().create_future()


#: the poll timers of each session made for a picture (by ``id`` of the session)
TIMERS: dict[int, PollTimers] = {}


class Sandbox:
    """The sandbox the pictures are drawn from, and the sessions signed in to it."""

    def __init__(self, folder: Path) -> None:
        from ..sandbox import clock as clock_module
        from ..sandbox import seed as seed_module
        from ..sandbox import server as server_module

        self.identity: str = seed_module.DEMO_AGENT_EMAIL
        self.server: Any = server_module.SandboxServer(
            folder / "sandbox.db", keys=[KEY], seed=SEED, clock=clock_module.ManualClock(NOW),
            rate_limit=False, simulator=False)

    def start(self) -> None:
        """Seed (at NOW) and serve."""
        self.server.start()

    def stop(self) -> None:
        """Stop serving."""
        self.server.stop()

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """Rows of a query on the sandbox's database."""
        rows: list[dict[str, Any]] = self.server.query(sql, params)
        return rows

    def first_id(self, where: str) -> int:
        """The demo agent's first conversation matching ``where`` (anyone's, if the demo
        agent has none)."""
        mine = ("assigned_agent_id = (SELECT id FROM users WHERE email = ? "
                "COLLATE NOCASE) AND ")
        rows = self.query(f"SELECT id FROM conversations WHERE {mine}{where} ORDER BY id "
                          "LIMIT 1", (self.identity,))
        if not rows:
            rows = self.query(f"SELECT id FROM conversations WHERE {where} ORDER BY id LIMIT 1")
        if not rows:
            raise Skip(f"no conversation matches {where}")
        return int(rows[0]["id"])

    def session(self) -> Any:
        """A new session signed in, once started, as the demo agent (its local store in the
        current FRONTDESK_HOME)."""
        from .. import launch
        from ..api import client as client_module
        from ..api import pacing
        from ..settings import Settings
        from ..store import live as live_module
        from ..store import local as local_module
        from ..store import session as session_module

        profile = PROFILE
        client = client_module.ApiClient(self.server.base_url, KEY, self.server.integrations_url,
                                         pacer=pacing.Pacer(enabled=False))
        local = local_module.LocalStore(launch.local_store_path(profile))
        session = session_module.Session(client=client, local=local, settings=Settings(),
                                         profile=profile, identity=self.identity)
        timers = PollTimers()
        session.live = live_module.LiveStore(sleep=timers.sleep)
        TIMERS[id(session)] = timers
        return session


CURRENT: Sandbox  # the sandbox of the run in progress (set by take_all)
