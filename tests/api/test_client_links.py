"""client.links against the sandbox: link a conversation to a parent, list the children, and
each published error."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from desk_rows import conversation_and_agent

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.api.models import LinkType
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False),
                         retry=FAST) as api:
        yield api


async def test_link_and_list(client: ApiClient, sandbox: SandboxServer) -> None:
    parent, _ = conversation_and_agent(sandbox)
    side, _ = conversation_and_agent(sandbox)
    related, _ = conversation_and_agent(sandbox)
    await client.links.link(side, parent)
    await client.links.link(related, parent, LinkType.RELATED)
    children = await client.links.linked(parent)
    assert [(c.id, c.link.type if c.link else None) for c in children] == [
        (side, "SideConversation"), (related, "Related")]
    assert await client.links.linked(side) == []

    with pytest.raises(InvalidRequest) as caught:  # a child has one parent
        await client.links.link(side, related)
    assert caught.value.status == 400
    with pytest.raises(NotFound):
        await client.links.link(987654321, parent)
    with pytest.raises(NotFound):
        await client.links.linked(987654321)
    for bad in (client.links.link(side, parent, "Sibling"), client.links.link(side, 0),
                client.links.linked("x")):  # type: ignore[arg-type]
        with pytest.raises(InvalidRequest) as caught:
            await bad
        assert caught.value.status is None
