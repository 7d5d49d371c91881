"""client.queues against the sandbox: queues, members, availability, waiting positions."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import ApiClient, Conflict, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.api.models import QueueRequest
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


async def new_agent(client: ApiClient) -> str:
    agent = await client.agents.create(display_name="Queue Agent",
                                       email=f"qa-{uuid.uuid4().hex[:10]}@example.com")
    return agent.id


async def test_create_get_list(client: ApiClient) -> None:
    queue = await client.queues.create("Priority support", call_functionality=True)
    assert queue.name == "Priority support" and not queue.is_default
    assert (await client.queues.get(queue.id)).id == queue.id
    assert queue.id in {q.id for q in await client.queues.list()}
    detailed = await client.queues.create(request=QueueRequest(
        name="Tuned", call_functionality=False, is_default=False,
        is_do_not_offer_enabled=True, offer_timeout=30, offer_algorithm="LongestIdle"))
    assert detailed.offer_timeout == 30 and detailed.offering_algorithm == "LongestIdle"


async def test_create_errors(client: ApiClient) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.queues.create(request={"name": "x", "callFunctionality": False,
                                            "isDefault": False, "isDoNotOfferEnabled": False,
                                            "offerTimeout": -1})
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.queues.create("   ")
    assert caught.value.status == 400


async def test_members(client: ApiClient) -> None:
    queue = await client.queues.create("Members")
    agent = await new_agent(client)
    enduser = await client.endusers.create(display_name="Not an agent")
    outcomes = await client.queues.add_members(queue.id, [agent, str(uuid.uuid4()), enduser.id])
    assert [o.ok for o in outcomes] == [True, False, False]
    assert outcomes[0].data == agent
    assert outcomes[1].error is not None and outcomes[1].error.type == "NotFound"
    assert [m.agent_id for m in await client.queues.members(queue.id)] == [agent]
    await client.queues.remove_members(queue.id, [agent])
    assert await client.queues.members(queue.id) == []


async def test_availability(client: ApiClient, sandbox: SandboxServer) -> None:
    queue = await client.queues.create("Chat queue")
    agent = await new_agent(client)
    await client.queues.add_members(queue.id, [agent])
    outcomes = await client.queues.availability(queue.id)
    channels = {o.channel_availability.generic_channel_name: o.channel_availability
                for o in outcomes if o.channel_availability is not None}
    assert set(channels) == {"adachat", "kindlychat", "digitalgeniuschat"}
    assert all(c.availability == "NotAvailable" for c in channels.values())

    def no_channels(ctx: SandboxContext) -> None:
        with ctx.db.tx():
            ctx.db.set_meta("chat_channels", "none")
    sandbox.call(no_channels)
    with pytest.raises(Conflict) as caught:
        await client.queues.availability(queue.id)
    assert caught.value.status == 409


async def test_conversation_position(client: ApiClient) -> None:
    queue = await client.queues.create("Waiting room")
    user = await client.endusers.create(display_name="Patient")
    ids = []
    for text in ("first", "second"):
        created = await client.conversations.create_chat(user.id, str(uuid.uuid4()), text)
        await client.conversations.transfer(created.id, queue.id)
        ids.append(created.id)
    positions = [await client.queues.conversation_position(i) for i in ids]
    assert [p.position for p in positions] == [1, 2]
    await client.conversations.close(ids[0])
    with pytest.raises(NotFound):
        await client.queues.conversation_position(ids[0])
    assert (await client.queues.conversation_position(ids[1])).position == 1


async def test_unknown_and_malformed_ids(client: ApiClient) -> None:
    unknown = str(uuid.uuid4())
    for call in (client.queues.get, client.queues.members):
        with pytest.raises(NotFound):
            await call(unknown)
    with pytest.raises(InvalidRequest) as caught:
        await client.queues.availability(unknown)  # the contract's 400 for this one
    assert caught.value.status == 400
    with pytest.raises(NotFound):
        await client.queues.conversation_position(2**40)
    with pytest.raises(InvalidRequest) as caught:
        await client.queues.conversation_position(-1)
    assert caught.value.status is None
