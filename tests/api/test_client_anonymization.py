"""client.anonymization against the sandbox: conversation, message, end user, the request's
status, and the deprecated request."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import ApiClient, Conflict, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


async def new_conversation(client: ApiClient) -> tuple[str, int]:
    user = await client.endusers.create(display_name="Private Person",
                                        email=f"{uuid.uuid4().hex[:8]}@example.org")
    created = await client.conversations.create_chat(user.id, str(uuid.uuid4()), "my secret")
    return user.id, created.id


async def test_a_conversation_must_be_closed_unless_forced(client: ApiClient,
                                                           sandbox: SandboxServer) -> None:
    _, conversation_id = await new_conversation(client)
    with pytest.raises(Conflict) as caught:
        await client.anonymization.anonymize_conversation(conversation_id)
    assert caught.value.status == 409
    status = await client.anonymization.anonymize_conversation(conversation_id, force=True)
    assert status.type == "Conversation" and status.target_entity_id == str(conversation_id)
    assert not status.processed
    assert (await client.conversations.get(conversation_id)).state == "Closed"
    sandbox.run_pending(everything=True)
    assert (await client.anonymization.get_request(status.id)).processed


async def test_a_message(client: ApiClient) -> None:
    _, conversation_id = await new_conversation(client)
    message = (await client.messages.list(conversation_id))[0]
    status = await client.anonymization.anonymize_message(conversation_id, message.id)
    assert status.type == "Message"
    assert status.target_entity_id == f"{conversation_id}_{message.id}"
    with pytest.raises(NotFound):
        await client.anonymization.anonymize_message(conversation_id, str(uuid.uuid4()))


async def test_an_end_user(client: ApiClient) -> None:
    user_id, _ = await new_conversation(client)
    with pytest.raises(Conflict):
        await client.anonymization.anonymize_enduser(user_id)
    status = await client.anonymization.anonymize_enduser(user_id, force=True)
    assert status.type == "User" and status.target_entity_id == user_id
    with pytest.raises(NotFound):
        await client.anonymization.anonymize_enduser(str(uuid.uuid4()))


async def test_deprecated_request(client: ApiClient) -> None:
    _, conversation_id = await new_conversation(client)
    with pytest.raises(Conflict):
        await client.anonymization.anonymize_deprecated(conversation_id, "Conversation")
    status = await client.anonymization.anonymize_deprecated(
        conversation_id, "Conversation", force_anonymization=True)
    assert status.type == "Conversation"
    with pytest.raises(InvalidRequest) as caught:
        await client.anonymization.anonymize_deprecated("abc", "Conversation")
    assert caught.value.status == 400
    with pytest.raises(InvalidRequest) as caught:
        await client.anonymization.anonymize_deprecated("1", "Tag")  # type: ignore[arg-type]
    assert caught.value.status is None


async def test_request_errors(client: ApiClient) -> None:
    with pytest.raises(NotFound):
        await client.anonymization.get_request(str(uuid.uuid4()))
    with pytest.raises(NotFound):
        await client.anonymization.anonymize_conversation(2**40, force=True)
    with pytest.raises(InvalidRequest) as caught:
        await client.anonymization.get_request("req-1")
    assert caught.value.status is None
