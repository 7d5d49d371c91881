"""client.messages against the sandbox: the thread, sending, channel rules, and exactly-once
sending when the answer is lost."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import (
    ApiClient,
    InvalidRequest,
    NotFound,
    Pacer,
    RetryPolicy,
    ServiceUnavailable,
)
from frontdesk.api.models import InboundMessageInput, Message
from frontdesk.api.resources.messages import WireMessage
from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)
DROP = {"methods": ("POST",), "path_prefix": "/v1/conversations/"}


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


def new_user(sandbox: SandboxServer, kind: str = "enduser") -> str:
    def insert(ctx: SandboxContext) -> str:
        with ctx.db.tx():
            return records.insert_user(ctx.db, kind=kind, created_at=ctx.now_iso(),
                                       display_name=f"{kind} {uuid.uuid4().hex[:6]}",
                                       email=f"{uuid.uuid4().hex[:10]}@example.org",
                                       phone_number="+4512345678")
    return sandbox.call(insert)


def new_conversation_of(sandbox: SandboxServer, type_: str, channel: str) -> int:
    requester = new_user(sandbox)

    def insert(ctx: SandboxContext) -> int:
        with ctx.db.tx():
            return records.insert_conversation(ctx.db, type=type_, channel=channel,
                                               requester_id=requester,
                                               created_at=ctx.now_iso(), direction="Inbound")
    return sandbox.call(insert)


async def new_chat(client: ApiClient, sandbox: SandboxServer) -> int:
    created = await client.conversations.create_chat(new_user(sandbox), str(uuid.uuid4()),
                                                     "first")
    return created.id


def stored_count(sandbox: SandboxServer, conversation_id: int) -> int:
    rows = sandbox.query("SELECT count(*) AS n FROM messages WHERE conversation_id = ?",
                         (conversation_id,))
    return int(rows[0]["n"])


async def test_list_and_add(client: ApiClient, sandbox: SandboxServer) -> None:
    conversation_id = await new_chat(client, sandbox)
    agent = new_user(sandbox, "agent")
    inbound = await client.messages.add(conversation_id, "Any news?")
    assert inbound.direction == "Inbound"
    assert inbound.external_id is not None and len(inbound.external_id) == 32
    outbound = await client.messages.add(conversation_id, "**Yes**", agent_id=agent,
                                         content_type="Markdown", external_id="reply-1")
    assert outbound.direction == "Outbound" and outbound.author_id == agent
    assert outbound.external_id == "reply-1"
    assert outbound.content is not None and outbound.content.type == "Markdown"
    thread = await client.messages.list(conversation_id)
    assert [m.attributes.body.value for m in thread] == [  # type: ignore[union-attr]
        "first", "Any news?", "**Yes**"]
    assert thread[-1].id == outbound.message_id
    assert thread[-1].attributes.type == "ChatAttributes"
    # the same thread kept compact: each message its wire JSON, a model again on demand
    wires, etag = await client.messages.list_wires_if_changed(conversation_id, None)
    assert wires is not None and etag is not None
    assert [w.id for w in wires] == [m.id for m in thread]
    assert [Message.model_validate_json(w.wire) for w in wires] == thread
    assert wires[-1].author_id == agent and wires[-1].external_id == "reply-1"
    assert await client.messages.list_wires_if_changed(conversation_id, etag) == (None, etag)
    # told once when the request has left, before the call returns
    events: list[str] = []
    await client.messages.list_wires_if_changed(conversation_id, None,
                                                on_sent=lambda: events.append("sent"))
    events.append("answered")
    assert events == ["sent", "answered"]


async def test_a_thread_read_again_takes_the_messages_it_knows(
        client: ApiClient, sandbox: SandboxServer) -> None:
    conversation_id = await new_chat(client, sandbox)
    await client.messages.add(conversation_id, "Any news?")
    first, _ = await client.messages.list_wires_if_changed(conversation_id, None)
    assert first is not None and len(first) == 2
    await client.messages.add(conversation_id, "Hello?")
    asked: list[bool] = []

    def known() -> dict[str, WireMessage]:
        asked.append(True)
        return {wire.wire: wire for wire in first}

    again, _ = await client.messages.list_wires_if_changed(conversation_id, None,
                                                           known=known)
    assert again is not None and asked == [True]
    # the messages read before are those very ones; the new one is read and checked
    assert again[0] is first[0] and again[1] is first[1]
    assert again[2] not in first
    assert Message.model_validate_json(again[2].wire).attributes.body is not None
    assert [w.id for w in again] == [m.id for m in await client.messages.list(conversation_id)]


async def test_add_from_an_input(client: ApiClient, sandbox: SandboxServer) -> None:
    conversation_id = await new_chat(client, sandbox)
    message = InboundMessageInput.model_validate(
        {"_type": "Inbound", "content": {"_type": "Text", "value": "from a model"}})
    added = await client.messages.add(conversation_id, message=message)
    assert added.external_id  # one was given, since the input had none


async def test_attachments_are_sent(client: ApiClient, sandbox: SandboxServer) -> None:
    conversation_id = await new_chat(client, sandbox)
    await client.messages.add(conversation_id, "see attached",
                              attachments=["https://example.org/invoice.pdf"])
    thread = await client.messages.list(conversation_id)
    files = thread[-1].attributes.attachments or []
    assert [f.url for f in files] == ["https://example.org/invoice.pdf"]


async def test_a_lost_answer_stores_exactly_one_message(client: ApiClient,
                                                        sandbox: SandboxServer) -> None:
    conversation_id = await new_chat(client, sandbox)
    before = stored_count(sandbox, conversation_id)
    sandbox.faults.drop_after_commit(**DROP)
    added = await client.messages.add(conversation_id, "sent once", external_id="once-1")
    assert added.external_id == "once-1" and added.message_id is not None
    assert stored_count(sandbox, conversation_id) == before + 1
    rows = sandbox.query("SELECT id FROM messages WHERE conversation_id = ? AND "
                         "external_id = 'once-1'", (conversation_id,))
    assert [r["id"] for r in rows] == [added.message_id]


async def test_every_answer_lost_is_confirmed_by_reading_the_thread_back(
    client: ApiClient, sandbox: SandboxServer
) -> None:
    conversation_id = await new_chat(client, sandbox)
    before = stored_count(sandbox, conversation_id)
    sandbox.faults.drop_after_commit(count=10, **DROP)
    added = await client.messages.add(conversation_id, "still once")
    assert stored_count(sandbox, conversation_id) == before + 1
    assert added.content is not None and added.content.value == "still once"


async def test_gateway_errors_are_retried_with_the_same_external_id(
    client: ApiClient, sandbox: SandboxServer
) -> None:
    conversation_id = await new_chat(client, sandbox)
    before = stored_count(sandbox, conversation_id)
    sandbox.faults.fail(503, count=2, **DROP)
    await client.messages.add(conversation_id, "after two 503s")
    assert stored_count(sandbox, conversation_id) == before + 1


async def test_a_send_that_never_arrives_fails(client: ApiClient,
                                               sandbox: SandboxServer) -> None:
    conversation_id = await new_chat(client, sandbox)
    before = stored_count(sandbox, conversation_id)
    sandbox.faults.fail(503, count=10, **DROP)
    with pytest.raises(ServiceUnavailable):
        await client.messages.add(conversation_id, "never stored")
    assert stored_count(sandbox, conversation_id) == before


async def test_sending_again_with_the_same_external_id_returns_the_stored_message(
    client: ApiClient, sandbox: SandboxServer
) -> None:
    conversation_id = await new_chat(client, sandbox)
    first = await client.messages.add(conversation_id, "outbox item", external_id="ob-7")
    again = await client.messages.add(conversation_id, "outbox item", external_id="ob-7")
    assert again.message_id == first.message_id
    assert stored_count(sandbox, conversation_id) == 2


async def test_whatsapp_rules_are_checked_before_sending(client: ApiClient,
                                                         sandbox: SandboxServer) -> None:
    conversation_id = new_conversation_of(sandbox, "WhatsAppConversation", "WhatsApp")
    agent = new_user(sandbox, "agent")
    refused = [
        {"content": "plain text", "agent_id": agent},
        {"content": "*hi*", "agent_id": agent, "content_type": "Markdown",
         "attachments": ["https://x.org/a.pdf", "https://x.org/b.pdf"]},
        {"content": "*hi*", "agent_id": agent, "content_type": "Markdown",
         "attachments": ["https://x.org/a.exe"]},
        {"content": "inbound"},
    ]
    for kwargs in refused:
        with pytest.raises(InvalidRequest) as caught:
            await client.messages.add(conversation_id, channel="WhatsApp", **kwargs)  # type: ignore[arg-type]
        assert caught.value.status is None
        with pytest.raises(InvalidRequest) as caught:
            await client.messages.add(conversation_id, check_channel=True, **kwargs)  # type: ignore[arg-type]
        assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:  # unchecked: the sandbox refuses it too
        await client.messages.add(conversation_id, "plain text", agent_id=agent)
    assert caught.value.status == 400
    assert stored_count(sandbox, conversation_id) == 0
    added = await client.messages.add(conversation_id, "**ok**", agent_id=agent,
                                      content_type="Markdown", check_channel=True,
                                      attachments=["https://x.org/photo.jpg"])
    assert added.direction == "Outbound"


async def test_sms_is_outbound_only(client: ApiClient, sandbox: SandboxServer) -> None:
    conversation_id = new_conversation_of(sandbox, "SmsConversation", "Sms")
    with pytest.raises(InvalidRequest) as caught:
        await client.messages.add(conversation_id, "from the customer", check_channel=True)
    assert caught.value.status is None and "outbound" in caught.value.message.lower()
    added = await client.messages.add(conversation_id, "from us", channel="Sms",
                                      agent_id=new_user(sandbox, "agent"))
    assert added.direction == "Outbound"


async def test_errors(client: ApiClient, sandbox: SandboxServer) -> None:
    conversation_id = await new_chat(client, sandbox)
    with pytest.raises(NotFound):
        await client.messages.list(2**40)
    with pytest.raises(NotFound):
        await client.messages.add(2**40, "hello?")
    with pytest.raises(InvalidRequest) as caught:
        await client.messages.add(conversation_id, "x", direction="Outbound")
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.messages.add(conversation_id, "x", agent_id="not-a-uuid")
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.messages.add(conversation_id, "x", agent_id=str(uuid.uuid4()))
    assert caught.value.status == 400  # no such agent
    with pytest.raises(InvalidRequest):
        await client.messages.add(conversation_id)  # no content
    with pytest.raises(InvalidRequest):
        await client.messages.add(conversation_id, "x", attachments=["ftp://x.org/a"])
