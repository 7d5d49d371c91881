"""client.agents against the sandbox: list, create, bulk, update, downgrade, teams, presence."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.api.models import BulkPatchAgentItem, CreateAgentInput
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


def unique_email() -> str:
    return f"agent-{uuid.uuid4().hex[:10]}@example.com"


async def test_create_get_update_patch(client: ApiClient) -> None:
    email = unique_email()
    agent = await client.agents.create(display_name="Ann Agent", email=email,
                                       phone_number="+4587654321")
    assert agent.email == email and agent.roles == ["Agent"]
    assert (await client.agents.get(agent.id)).display_name == "Ann Agent"
    updated = await client.agents.update(agent.id, display_name="Ann B. Agent")
    assert updated.display_name == "Ann B. Agent" and updated.email == email
    patched = await client.agents.patch(agent.id, first_name="Ann")
    assert patched.first_name == "Ann" and patched.display_name == "Ann B. Agent"


async def test_create_errors(client: ApiClient) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.agents.create(display_name="No Email")
    assert caught.value.status is None
    email = unique_email()
    await client.agents.create(display_name="One", email=email)
    with pytest.raises(InvalidRequest) as caught:
        await client.agents.create(display_name="Two", email=email)
    assert caught.value.status == 400


async def test_an_empty_patch_is_refused_by_the_service(client: ApiClient) -> None:
    agent = await client.agents.create(display_name="Idle", email=unique_email())
    with pytest.raises(InvalidRequest) as caught:
        await client.agents.patch(agent.id)
    assert caught.value.status == 400


async def test_list_and_filters(client: ApiClient) -> None:
    email = unique_email()
    agent = await client.agents.create(display_name="Findable", email=email,
                                       phone_number="+4511112222")
    everyone = [a.id async for a in client.agents.list(page_size=5)]
    assert agent.id in everyone and len(everyone) == len(set(everyone))
    assert [a.id async for a in client.agents.list(email=email)] == [agent.id]
    assert [a.id async for a in client.agents.list(phone="+4511112222")] == [agent.id]
    page = await client.agents.list_page(page_size=1)
    assert len(page.items) == 1 and page.next_key


async def test_email_and_phone_together_are_refused_before_sending(client: ApiClient) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.agents.list_page(email="a@b.co", phone="+4511112222")
    assert caught.value.status is None
    with pytest.raises(InvalidRequest):
        async for _ in client.agents.list(email="a@b.co", phone="+4511112222"):
            pass


async def test_bulk_operations(client: ApiClient) -> None:
    taken = unique_email()
    await client.agents.create(display_name="Taken", email=taken)
    outcomes = await client.agents.bulk_create([
        CreateAgentInput(display_name="Bulk One", email=unique_email()),
        {"displayName": "Bulk Two", "email": taken},
    ])
    assert [o.ok for o in outcomes] == [True, False]
    assert outcomes[0].data is not None  # the agent made, typed
    created_id = outcomes[0].data.id
    updated = await client.agents.bulk_update([
        {"id": created_id, "displayName": "Bulk One Renamed"},
        {"id": str(uuid.uuid4()), "displayName": "Ghost"},
    ])
    assert [o.ok for o in updated] == [True, False]
    assert updated[1].error is not None and updated[1].error.type == "NotFound"
    patched = await client.agents.bulk_patch([
        BulkPatchAgentItem(id=created_id, last_name="One"),
        {"id": created_id},
    ])
    assert [o.ok for o in patched] == [True, False]
    assert (await client.agents.get(created_id)).last_name == "One"
    with pytest.raises(InvalidRequest):
        await client.agents.bulk_update([])


async def test_downgrade(client: ApiClient) -> None:
    agent = await client.agents.create(display_name="Leaving", email=unique_email())
    await client.agents.downgrade(agent.id)
    with pytest.raises(NotFound):
        await client.agents.get(agent.id)
    with pytest.raises(NotFound):
        await client.agents.downgrade(agent.id)


async def test_teams_of_an_agent(client: ApiClient) -> None:
    agent = await client.agents.create(display_name="Teamed", email=unique_email())
    assert await client.agents.teams(agent.id) == []
    team = await client.teams.create("Agent test team")
    await client.teams.add_members(team.id, [agent.id])
    assert [t.id for t in await client.agents.teams(agent.id)] == [team.id]


async def test_presence_and_working_channel(client: ApiClient) -> None:
    agent = await client.agents.create(display_name="Present", email=unique_email())
    presence = await client.agents.presence(agent.id)
    assert presence.user_id == agent.id and presence.active_channels == []
    await client.agents.set_working_channel(agent.id, "Email", True)
    presence = await client.agents.presence(agent.id)
    assert presence.presence_status == "Working" and presence.connection_status == "Online"
    assert presence.active_channels == ["Email"]
    everyone = {p.user_id: p for p in await client.agents.list_presence()}  # a bare array
    assert everyone[agent.id].active_channels == ["Email"]
    await client.agents.set_working_channel(agent.id, "Email", False)
    assert (await client.agents.presence(agent.id)).presence_status == "Away"
    with pytest.raises(InvalidRequest) as caught:
        await client.agents.set_working_channel(agent.id, "Telepathy", True)
    assert caught.value.status is None


async def test_unknown_and_malformed_ids(client: ApiClient) -> None:
    unknown = str(uuid.uuid4())
    for call in (client.agents.get, client.agents.teams, client.agents.presence):
        with pytest.raises(NotFound):
            await call(unknown)
    with pytest.raises(NotFound):
        await client.agents.update(unknown, display_name="x")
    with pytest.raises(NotFound):
        await client.agents.set_working_channel(unknown, "Email", True)
    with pytest.raises(InvalidRequest) as caught:
        await client.agents.get("../tags")
    assert caught.value.status is None
