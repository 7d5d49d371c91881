"""client.contact_endpoints against the sandbox."""

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


def add_endpoints(sandbox: SandboxServer) -> tuple[str, str]:
    address = f"help-{uuid.uuid4().hex[:6]}@example.com"
    number = "+4570" + str(uuid.uuid4().int)[:6]

    def insert(ctx: SandboxContext) -> tuple[str, str]:
        with ctx.db.tx():
            return (records.insert_contact_endpoint(ctx.db, address=address, name="Help desk"),
                    records.insert_contact_endpoint(ctx.db, number=number,
                                                    functionality=["VoiceInbound"]))
    return sandbox.call(insert)


async def test_list_and_get(client: ApiClient, sandbox: SandboxServer) -> None:
    address, number = add_endpoints(sandbox)
    everything = {e.key: e for e in await client.contact_endpoints.list()}
    assert everything[address].type == "EmailEndpoint"
    assert everything[number].type == "TelephonyEndpoint"
    emails = await client.contact_endpoints.list(type="EmailEndpoint")
    assert address in {e.key for e in emails} and number not in {e.key for e in emails}
    assert (await client.contact_endpoints.get(address)).name == "Help desk"
    phone = await client.contact_endpoints.get(number)
    assert phone.number == number and phone.functionality == ["VoiceInbound"]


async def test_errors(client: ApiClient) -> None:
    with pytest.raises(NotFound):
        await client.contact_endpoints.get("nobody@example.com")
    with pytest.raises(NotFound):
        await client.contact_endpoints.get("+4599999999")
    for bad in ("not an endpoint", "12345", "", "a/b@c.d"):
        with pytest.raises(InvalidRequest) as caught:
            await client.contact_endpoints.get(bad)
        assert caught.value.status is None
    with pytest.raises(InvalidRequest):
        await client.contact_endpoints.list(type="Fax")  # type: ignore[arg-type]
