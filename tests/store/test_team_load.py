"""Team mode's load column: every shown agent's open conversations counted in as many searches
as the number of agents has bits (25 agents: 5), all of them in one tick, and the next tick
follows what moved (a conversation taken from one agent by another, one closed); a renamed
agent's row follows the rename."""

from __future__ import annotations

from pathlib import Path

import httpx2

from frontdesk.api.client import ApiClient
from frontdesk.api.pacing import Pacer
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.store.team import LOAD_TOPIC, PRESENCE_TOPIC, Load


def open_assigned(sandbox: SandboxServer) -> dict[str, int]:
    """Each agent's open conversations, as the service holds them."""
    rows = sandbox.query(
        "SELECT u.id, (SELECT COUNT(*) FROM conversations c WHERE c.state = 'Open' "
        "AND c.assigned_agent_id = u.id) AS n FROM users u WHERE u.kind = 'agent'")
    return {row["id"]: int(row["n"]) for row in rows}


async def test_one_tick_counts_every_agent_in_a_few_searches_and_follows_changes(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    client = ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False))
    session = Session(client=client, local=LocalStore(tmp_path / "local.db"),
                      settings=Settings(), profile="work", identity=DEMO_AGENT_EMAIL)
    requests: list[str] = []

    async def on_request(request: httpx2.Request) -> None:
        requests.append(f"{request.method} {request.url.path}")

    client._http.event_hooks["request"].append(on_request)
    try:
        team = session.team
        await session.live.refresh(PRESENCE_TOPIC)
        expected = open_assigned(sandbox)
        assert len(expected) == 25 and len(set(expected.values())) > 3
        assert sorted(team.shown_agents()) == sorted(expected)

        requests.clear()
        loads = await session.live.refresh(LOAD_TOPIC)
        assert requests == ["POST /v1/search/conversations"] * 5  # 25 agents: 5 bits
        assert loads == tuple(Load(agent_id, n) for agent_id, n in sorted(expected.items()))

        # one agent takes a conversation from another; a third's is closed
        busy = sorted((n, agent_id) for agent_id, n in expected.items() if n)
        giver, taker, closer = busy[-1][1], busy[0][1], busy[-2][1]
        taken = sandbox.query("SELECT id FROM conversations WHERE state = 'Open' AND "
                              "assigned_agent_id = ? ORDER BY id LIMIT 1", (giver,))[0]["id"]
        closed = sandbox.query("SELECT id FROM conversations WHERE state = 'Open' AND "
                               "assigned_agent_id = ? ORDER BY id LIMIT 1", (closer,))[0]["id"]
        await client.conversations.claim(taken, agent_id=taker, force=True)
        await client.conversations.close(closed)
        requests.clear()
        loads = await session.live.refresh(LOAD_TOPIC)
        assert len(requests) == 5
        now = open_assigned(sandbox)
        assert now[giver] == expected[giver] - 1 and now[taker] == expected[taker] + 1
        assert loads == tuple(Load(agent_id, n) for agent_id, n in sorted(now.items()))
        assert team.loads[taker].open == expected[taker] + 1

        # an agent renamed (People → Agents) shows the new name at the next presence tick
        await session.directory.load()
        await session.live.refresh(PRESENCE_TOPIC)
        await session.people.update_agent(taker, {"display_name": "Renamed Agent"})
        snapshot = await session.live.refresh(PRESENCE_TOPIC)
        assert snapshot is not None
        assert [row.name for row in snapshot.rows if row.agent_id == taker] == ["Renamed Agent"]
    finally:
        await session.close()
