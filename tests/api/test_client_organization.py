"""client.organization against the sandbox."""

from __future__ import annotations

from frontdesk.api import ApiClient, Pacer
from frontdesk.sandbox.server import SandboxServer


async def test_get(sandbox: SandboxServer) -> None:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)) as client:
        organisation = await client.organization.get()
    assert (organisation.name, organisation.subdomain, organisation.status) == (
        "Acme Demo", "acme-demo", "Active")
