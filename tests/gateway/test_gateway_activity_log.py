"""Through a team gateway, a member's inbox learns what changed as the member's role allows:
a supervisor's from the organisation's activity log, an agent's (whose role the gateway
refuses the log) from the search for activity, never asking for the log.

Headless consoles (the real session) sign in through a real gateway in front of the real
sandbox; their polls run when the test asks.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx2

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.api.transport import GATEWAY_TIMEOUT
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.topics import INBOX
from gateway_harness import running_gateway

LOG = "/v1/conversations/activitylog"
SEARCH = "/v1/search/conversations"


def test_a_supervisor_reads_the_log_and_an_agent_searches(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    with running_gateway(sandbox, tmp_path) as gateway:
        agent, supervisor = gateway.agent_ids()[:2]
        keys = {"agent": gateway.add_member(agent, "agent"),
                "supervisor": gateway.add_member(supervisor, "supervisor")}
        who = {"agent": agent, "supervisor": supervisor}

        async def looks(role: str) -> tuple[int, int, bool | None]:
            paths: list[str] = []

            async def noted(request: httpx2.Request) -> None:
                paths.append(request.url.path)

            client = ApiClient(gateway.base_url, keys[role], gateway.integrations_url,
                               timeout=GATEWAY_TIMEOUT, pacer=Pacer(enabled=False))
            client._http.event_hooks["request"].append(noted)
            session = Session(client=client, local=LocalStore(tmp_path / f"{role}.db"),
                              settings=Settings(), profile=role, identity=who[role],
                              gateway=True)
            try:
                await session.start()
                for _ in range(40):  # the first fill, then looks for what changed
                    await session.live.refresh(INBOX)
                    if session.inbox.filled and paths.count(LOG) + paths.count(SEARCH) > 4:
                        break
                return paths.count(LOG), paths.count(SEARCH), session.inbox.log_available
            finally:
                await session.close()

        logs, _, available = asyncio.run(looks("supervisor"))
        assert logs > 0 and available is True
        logs, searches, available = asyncio.run(looks("agent"))
        assert logs == 0 and searches > 0 and available is None
