"""client.activity_log against the sandbox: one conversation's log, the organisation's (paged,
in a window), and each published error."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from desk_rows import conversation_and_agent

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False),
                         retry=FAST) as api:
        yield api


async def test_conversation_and_organisation_logs(client: ApiClient,
                                                  sandbox: SandboxServer) -> None:
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    clock.advance(1)
    since = clock.now()
    csid, agent = conversation_and_agent(sandbox)
    await client.conversations.claim(csid, agent)
    await client.notes.add(csid, "Looked at it", agent_id=agent)
    clock.advance(60)
    await client.conversations.close(csid)

    entries = await client.activity_log.for_conversation(csid)
    assert [e.type for e in entries] == ["ConversationClaimed", "NoteAdded",
                                         "ConversationClosed"]
    assert entries[0].author is not None and entries[0].author.name == "Nora"
    assert entries[1].attributes is not None  # typed as published
    assert entries[1].attributes.message == "Looked at it"
    assert entries[1].attributes.wire() == {"message": "Looked at it"}

    everything = [e async for e in client.activity_log.list(since=since, page_size=1)]
    assert [(e.conversation_id, e.type) for e in everything] == [
        (csid, e.type) for e in entries]
    early = await client.activity_log.list_page(since=since, until=since + timedelta(seconds=1))
    assert [e.type for e in early.items] == ["ConversationClaimed", "NoteAdded"]
    assert not early.has_more


async def test_errors(client: ApiClient) -> None:
    with pytest.raises(NotFound):
        await client.activity_log.for_conversation(987654321)
    with pytest.raises(InvalidRequest) as caught:  # the service refuses a key it did not make
        await client.activity_log.list_page(page_key="not-a-key-of-ours")
    assert caught.value.status == 400
    with pytest.raises(InvalidRequest) as caught:
        await client.activity_log.list_page(page_size=0)
    assert caught.value.status is None
    with pytest.raises(InvalidRequest):
        await client.activity_log.list_page(since="yesterday")  # type: ignore[arg-type]
