"""client.flows against the sandbox, and the published error (an unknown channel)."""

from __future__ import annotations

import pytest

from frontdesk.api import ApiClient, InvalidRequest, Pacer
from frontdesk.api.models import Channel
from frontdesk.sandbox.server import SandboxServer


async def test_list_by_channel(sandbox: SandboxServer) -> None:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)) as client:
        phone = await client.flows.list()
        email = await client.flows.list(Channel.EMAIL)
        with pytest.raises(InvalidRequest) as caught:
            await client.flows.list("Fax")
    assert {f.channel for f in phone} == {"PstnPhone"} and len(phone) == 2
    assert email[0].contact_endpoint_id == "support@acme-demo.example"
    assert caught.value.status is None
