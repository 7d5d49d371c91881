"""client.notes against the sandbox: add, list, bulk add, and each published error."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from desk_rows import conversation_and_agent

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.api.models import InternalNote
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)
UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False),
                         retry=FAST) as api:
        yield api


async def test_add_list_and_bulk_add(client: ApiClient, sandbox: SandboxServer) -> None:
    csid, agent = conversation_and_agent(sandbox)
    note = await client.notes.add(csid, "Customer prefers email", agent_id=agent)
    assert (note.csid, note.author_id, note.message) == (csid, agent, "Customer prefers email")
    dated = await client.notes.add(csid, "Earlier call",
                                   created_at=datetime(2021, 12, 1, 12, 46, tzinfo=UTC))
    assert dated.created_at == datetime(2021, 12, 1, 12, 46, tzinfo=UTC)
    assert [n.id for n in await client.notes.list(csid)] == [dated.id, note.id]

    outcomes = await client.notes.bulk_add(csid, [
        {"message": "one", "agentId": agent}, {"message": "two", "agentId": UNKNOWN}])
    assert [o.ok for o in outcomes] == [True, False]
    assert InternalNote.model_validate(outcomes[0].data).message == "one"
    assert outcomes[1].error is not None and outcomes[1].error.type is None
    assert len(await client.notes.list(csid)) == 3


async def test_errors(client: ApiClient, sandbox: SandboxServer) -> None:
    csid, _ = conversation_and_agent(sandbox)
    with pytest.raises(NotFound):
        await client.notes.list(987654321)
    with pytest.raises(NotFound):
        await client.notes.add(987654321, "x")
    with pytest.raises(InvalidRequest) as caught:  # the service refuses: not an agent
        await client.notes.add(csid, "x", agent_id=UNKNOWN)
    assert caught.value.status == 400
    refused_before_sending = [
        client.notes.add(csid, ""),
        client.notes.add(csid, "x", agent_id="nope"),
        client.notes.add("abc", "x"),  # type: ignore[arg-type]
        client.notes.bulk_add(csid, []),
        client.notes.bulk_add(csid, [{"message": "x", "agnetId": UNKNOWN}]),
    ]
    for call in refused_before_sending:
        with pytest.raises(InvalidRequest) as caught:
            await call
        assert caught.value.status is None
