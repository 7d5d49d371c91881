"""client.teams against the sandbox: teams, members and their presence."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


async def new_agent(client: ApiClient) -> str:
    agent = await client.agents.create(display_name="Team Player",
                                       email=f"tp-{uuid.uuid4().hex[:10]}@example.com")
    return agent.id


async def test_create_get_list_delete(client: ApiClient) -> None:
    team = await client.teams.create("Night shift")
    assert team.name == "Night shift"
    assert await client.teams.get(team.id) == team
    assert team.id in {t.id for t in await client.teams.list()}
    await client.teams.delete(team.id)
    with pytest.raises(NotFound):
        await client.teams.get(team.id)
    with pytest.raises(NotFound):
        await client.teams.delete(team.id)


async def test_members(client: ApiClient) -> None:
    team = await client.teams.create("Billing")
    first, second = await new_agent(client), await new_agent(client)
    await client.teams.add_members(team.id, [first, second])
    await client.teams.add_members(team.id, [first])  # harmless twice
    assert sorted(m.id for m in await client.teams.members(team.id)) == sorted([first, second])
    await client.teams.remove_members(team.id, [first])
    assert [m.id for m in await client.teams.members(team.id)] == [second]


async def test_member_errors(client: ApiClient) -> None:
    team = await client.teams.create("Strict")
    with pytest.raises(InvalidRequest) as caught:
        await client.teams.add_members(team.id, [str(uuid.uuid4())])
    assert caught.value.status == 400
    with pytest.raises(InvalidRequest) as caught:
        await client.teams.add_members(team.id, [])
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.teams.add_members(team.id, ["agent-1"])
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.teams.create("")
    assert caught.value.status is None
    with pytest.raises(NotFound):
        await client.teams.members(str(uuid.uuid4()))


async def test_presence_is_paged(client: ApiClient) -> None:
    team = await client.teams.create("Present company")
    members = [await new_agent(client) for _ in range(3)]
    await client.teams.add_members(team.id, members)
    await client.agents.set_working_channel(members[0], "Messaging", True)
    presence = {p.user_id: p async for p in client.teams.presence(team.id, page_size=2)}
    assert set(presence) == set(members)
    assert presence[members[0]].active_channels == ["Messaging"]
    page = await client.teams.presence_page(team.id, page_size=2)
    assert len(page.items) == 2 and page.next_key is not None
    rest = await client.teams.presence_page(team.id, page_size=2, page_key=page.next_key)
    assert len(rest.items) == 1 and rest.next_key is None
    with pytest.raises(NotFound):
        await client.teams.presence_page(str(uuid.uuid4()))
