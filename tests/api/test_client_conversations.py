"""client.conversations against the sandbox: create, import, read and every change of state."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.api import ApiClient, Conflict, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.api.models import ChatConversationInput, ImportConversationInput
from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


def new_user(sandbox: SandboxServer, kind: str = "enduser", **fields: object) -> str:
    def insert(ctx: SandboxContext) -> str:
        with ctx.db.tx():
            return records.insert_user(
                ctx.db, kind=kind, created_at=ctx.now_iso(),
                display_name=f"{kind} {uuid.uuid4().hex[:6]}",
                email=f"{uuid.uuid4().hex[:10]}@example.org", **fields)  # type: ignore[arg-type]
    return sandbox.call(insert)


def new_queue(sandbox: SandboxServer) -> str:
    def insert(ctx: SandboxContext) -> str:
        with ctx.db.tx():
            return records.insert_queue(ctx.db, name=f"Q {uuid.uuid4().hex[:6]}",
                                        created_at=ctx.now_iso())
    return sandbox.call(insert)


def now(sandbox: SandboxServer) -> datetime:
    return sandbox.clock.now()


async def test_create_chat_and_get(client: ApiClient, sandbox: SandboxServer) -> None:
    requester = new_user(sandbox)
    created = await client.conversations.create_chat(requester, str(uuid.uuid4()),
                                                     "Where is my parcel?", language="en")
    conversation = await client.conversations.get(created.id)
    assert conversation.id == created.id
    assert conversation.type == "ChatConversation"
    assert conversation.channel == "WidgetChat"
    assert conversation.requester_id == requester
    assert conversation.state == "Open"
    assert conversation.assignment is None


async def test_create_email_outbound_is_assigned_to_its_author(
    client: ApiClient, sandbox: SandboxServer
) -> None:
    agent = new_user(sandbox, "agent")
    created = await client.conversations.create_email(
        new_user(sandbox), "support@example.com", "Your order", "It has shipped.",
        direction="Outbound", agent_id=agent)
    conversation = await client.conversations.get(created.id)
    assert conversation.type == "EmailConversation"
    assert conversation.subject == "Your order"
    assert conversation.assignment is not None and conversation.assignment.agent_id == agent


async def test_create_from_an_input_or_a_mapping(client: ApiClient,
                                                 sandbox: SandboxServer) -> None:
    body = ChatConversationInput.model_validate({
        "_type": "Chat", "requesterId": new_user(sandbox), "widgetId": str(uuid.uuid4()),
        "message": {"_type": "Inbound", "content": {"_type": "Text", "value": "hi"}},
    })
    first = await client.conversations.create(body)
    second = await client.conversations.create(body.wire())
    assert second.id > first.id


async def test_create_errors(client: ApiClient, sandbox: SandboxServer) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.conversations.create({"_type": "Chat", "requesterId": "nobody"})
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.conversations.create_chat(str(uuid.uuid4()), str(uuid.uuid4()), "hi")
    assert caught.value.status == 400  # no such end user: the sandbox refuses
    with pytest.raises(InvalidRequest) as caught:
        await client.conversations.create_chat(new_user(sandbox), str(uuid.uuid4()), "hi",
                                               direction="Outbound")
    assert caught.value.status is None and "agent_id" in caught.value.message


async def test_import(client: ApiClient, sandbox: SandboxServer) -> None:
    agent = new_user(sandbox, "agent")
    start = now(sandbox) - timedelta(days=2)
    body = ImportConversationInput.model_validate({
        "_type": "GenericConversationImport", "genericChannelName": "genericapimessaging",
        "requesterId": new_user(sandbox), "direction": "Inbound", "createdAt": start,
        "messages": [
            {"_type": "Inbound", "content": {"_type": "Text", "value": "old question"},
             "createdAt": start, "externalId": "m1"},
            {"_type": "Outbound", "agentId": agent, "createdAt": start + timedelta(hours=1),
             "content": {"_type": "Text", "value": "old answer"}, "externalId": "m2"},
        ],
        "closing": {"closedAt": start + timedelta(hours=2), "closedBy": agent},
    })
    imported = await client.conversations.import_conversation(body)
    assert imported.partial_errors == []
    conversation = await client.conversations.get(imported.id)
    assert conversation.state == "Closed"
    thread = await client.messages.list(imported.id)
    assert [m.external_id for m in thread] == ["m1", "m2"]


async def test_import_refuses_an_unknown_agent(client: ApiClient,
                                               sandbox: SandboxServer) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.conversations.import_conversation({
            "_type": "GenericConversationImport", "genericChannelName": "genericapimessaging",
            "requesterId": new_user(sandbox), "direction": "Outbound",
            "createdAt": now(sandbox),
            "messages": [{"_type": "Outbound", "agentId": str(uuid.uuid4()),
                          "createdAt": now(sandbox),
                          "content": {"_type": "Text", "value": "x"}}],
        })
    assert caught.value.status == 400


async def test_close_and_reopen(client: ApiClient, sandbox: SandboxServer) -> None:
    agent = new_user(sandbox, "agent")
    created = await client.conversations.create_chat(new_user(sandbox), str(uuid.uuid4()), "hi")
    await client.conversations.close(created.id, user_id=agent)
    assert (await client.conversations.get(created.id)).state == "Closed"
    await client.conversations.close(created.id)  # harmless twice, no body needed
    await client.conversations.reopen(created.id)
    assert (await client.conversations.get(created.id)).state == "Open"


async def test_followup(client: ApiClient, sandbox: SandboxServer) -> None:
    created = await client.conversations.create_chat(new_user(sandbox), str(uuid.uuid4()), "hi")
    await client.conversations.followup(created.id, now(sandbox) + timedelta(hours=4))
    assert (await client.conversations.get(created.id)).state == "Pending"
    with pytest.raises(InvalidRequest) as caught:
        await client.conversations.followup(created.id, now(sandbox) - timedelta(hours=1))
    assert caught.value.status == 400


async def test_transfer(client: ApiClient, sandbox: SandboxServer) -> None:
    queue = new_queue(sandbox)
    created = await client.conversations.create_chat(new_user(sandbox), str(uuid.uuid4()), "hi")
    await client.conversations.transfer(created.id, queue)
    conversation = await client.conversations.get(created.id)
    assert conversation.queue is not None and conversation.queue.id == queue
    with pytest.raises(InvalidRequest) as caught:
        await client.conversations.transfer(created.id, str(uuid.uuid4()))
    assert caught.value.status == 400
    with pytest.raises(InvalidRequest) as caught:
        await client.conversations.transfer(created.id, "queue-7")
    assert caught.value.status is None


async def test_claim_without_force_does_not_take_over(client: ApiClient,
                                                      sandbox: SandboxServer) -> None:
    first, second = new_user(sandbox, "agent"), new_user(sandbox, "agent")
    created = await client.conversations.create_chat(new_user(sandbox), str(uuid.uuid4()), "hi")
    await client.conversations.claim(created.id, first)
    with pytest.raises(Conflict) as caught:
        await client.conversations.claim(created.id, second)
    assert caught.value.status == 409
    assert caught.value.operation == "PUT /v1/conversations/{conversationId}/claim"
    assert (await client.conversations.get(created.id)).assignment.agent_id == first  # type: ignore[union-attr]
    await client.conversations.claim(created.id, second, force=True)
    assert (await client.conversations.get(created.id)).assignment.agent_id == second  # type: ignore[union-attr]


async def test_unknown_conversation_is_not_found(client: ApiClient,
                                                 sandbox: SandboxServer) -> None:
    agent, queue = new_user(sandbox, "agent"), new_queue(sandbox)
    unknown = 2**40
    calls = [
        client.conversations.get(unknown),
        client.conversations.close(unknown),
        client.conversations.reopen(unknown),
        client.conversations.followup(unknown, datetime.now(UTC) + timedelta(days=400)),
        client.conversations.transfer(unknown, queue),
        client.conversations.claim(unknown, agent),
    ]
    for call in calls:
        with pytest.raises(NotFound):
            await call


@pytest.mark.parametrize("bad", [0, -3, 2**63, "12a", True, None, 1.5])
async def test_bad_conversation_ids_are_refused_before_sending(client: ApiClient,
                                                               bad: object) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.conversations.get(bad)  # type: ignore[arg-type]
    assert caught.value.status is None
    assert caught.value.operation == "GET /v1/conversations/{conversationId}"
