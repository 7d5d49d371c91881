"""client.tags against the sandbox: every operation, and each error the contract names."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


def new_enduser(sandbox: SandboxServer) -> str:
    def insert(ctx: SandboxContext) -> str:
        with ctx.db.tx():
            return records.insert_user(ctx.db, kind="enduser", created_at=ctx.now_iso(),
                                       display_name="Tag Tester",
                                       email=f"{uuid.uuid4().hex[:8]}@example.org")
    return sandbox.call(insert)


async def new_conversation(client: ApiClient, sandbox: SandboxServer) -> int:
    created = await client.conversations.create_chat(new_enduser(sandbox), str(uuid.uuid4()),
                                                     "Hello, I need help")
    return created.id


async def test_create_get_and_list(client: ApiClient) -> None:
    tag = await client.tags.create("vip-client-test", color="#ff0000")
    assert tag.name == "vip-client-test" and tag.color == "#ff0000" and tag.active
    assert (await client.tags.get(tag.id)) == tag
    assert tag.id in {t.id for t in await client.tags.list()}


async def test_creating_an_existing_name_returns_that_tag(client: ApiClient) -> None:
    first = await client.tags.create("repeat-me")
    again = await client.tags.create("repeat-me", color="#00ff00")
    assert again.id == first.id


async def test_deactivate_and_activate(client: ApiClient) -> None:
    tag = await client.tags.create("seasonal-test")
    await client.tags.deactivate(tag.id)
    assert tag.id not in {t.id for t in await client.tags.list()}
    listed = {t.id: t for t in await client.tags.list(include_deactivated=True)}
    assert listed[tag.id].state == "Inactive"
    await client.tags.activate(tag.id)
    assert (await client.tags.get(tag.id)).active


async def test_delete(client: ApiClient) -> None:
    tag = await client.tags.create("short-lived")
    await client.tags.delete(tag.id)
    with pytest.raises(NotFound) as caught:
        await client.tags.get(tag.id)
    assert caught.value.status == 404
    assert caught.value.operation == "GET /v1/tags/{tagId}"


async def test_unknown_tag_is_not_found(client: ApiClient) -> None:
    unknown = str(uuid.uuid4())
    for call in (client.tags.get, client.tags.delete, client.tags.activate,
                 client.tags.deactivate):
        with pytest.raises(NotFound):
            await call(unknown)


async def test_bad_input_is_refused_before_sending(client: ApiClient) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.tags.get("not-a-uuid")
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.tags.create("x", color=5)  # type: ignore[arg-type]
    assert caught.value.status is None and "color" in caught.value.message
    with pytest.raises(InvalidRequest):
        await client.tags.create("")


async def test_the_sandbox_refuses_a_blank_name(client: ApiClient) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.tags.create("   ")
    assert caught.value.status == 400


async def test_tag_and_untag_a_conversation(client: ApiClient, sandbox: SandboxServer) -> None:
    conversation_id = await new_conversation(client, sandbox)
    tag = await client.tags.create("needs-callback")
    await client.tags.tag_conversation(conversation_id, tag.id)
    await client.tags.tag_conversation(conversation_id, tag.id)  # harmless twice
    assert [t.id for t in await client.tags.list_for_conversation(conversation_id)] == [tag.id]
    await client.tags.untag_conversation(conversation_id, tag.id)
    assert await client.tags.list_for_conversation(conversation_id) == []


async def test_an_inactive_tag_cannot_be_applied_but_can_be_removed(
    client: ApiClient, sandbox: SandboxServer
) -> None:
    conversation_id = await new_conversation(client, sandbox)
    tag = await client.tags.create("retired")
    await client.tags.tag_conversation(conversation_id, tag.id)
    await client.tags.deactivate(tag.id)
    other = await client.tags.create("retired-too")
    await client.tags.deactivate(other.id)
    with pytest.raises(InvalidRequest) as caught:
        await client.tags.tag_conversation(conversation_id, other.id)
    assert caught.value.status == 400
    await client.tags.untag_conversation(conversation_id, tag.id)
    assert await client.tags.list_for_conversation(conversation_id) == []


async def test_bulk_tagging_is_done_asynchronously(client: ApiClient,
                                                   sandbox: SandboxServer) -> None:
    conversation_id = await new_conversation(client, sandbox)
    await client.tags.bulk_tag_conversation(conversation_id, ["bulk-one", "bulk-two"])
    sandbox.run_pending(everything=True)
    names = {t.name for t in await client.tags.list_for_conversation(conversation_id)}
    assert names == {"bulk-one", "bulk-two"}


async def test_conversation_errors(client: ApiClient) -> None:
    tag = await client.tags.create("orphan")
    with pytest.raises(NotFound):
        await client.tags.list_for_conversation(2**40)
    with pytest.raises(NotFound):
        await client.tags.tag_conversation(2**40, tag.id)
    with pytest.raises(NotFound):
        await client.tags.bulk_tag_conversation(2**40, ["x"])
    with pytest.raises(InvalidRequest) as caught:
        await client.tags.tag_conversation(0, tag.id)
    assert caught.value.status is None
    with pytest.raises(InvalidRequest):
        await client.tags.bulk_tag_conversation(1, [])
