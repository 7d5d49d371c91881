"""client.integrations: the deprecated endpoint listing at the integrations URL."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import httpx2
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


def add_endpoints(sandbox: SandboxServer, n: int) -> list[str]:
    """``n`` email endpoints and one phone endpoint; their legacy ids."""
    def insert(ctx: SandboxContext) -> list[str]:
        ids = []
        with ctx.db.tx():
            for i in range(n):
                legacy = str(uuid.uuid4())
                records.insert_contact_endpoint(
                    ctx.db, address=f"inbox{i}-{legacy[:6]}@example.com", legacy_id=legacy,
                    position=100 + i)
                ids.append(legacy)
            legacy = str(uuid.uuid4())
            records.insert_contact_endpoint(ctx.db, number="+4580" + str(uuid.uuid4().int)[:6],
                                            legacy_id=legacy, position=200)
            ids.append(legacy)
        return ids
    return sandbox.call(insert)


async def test_list_follows_the_cursor_pages(client: ApiClient, sandbox: SandboxServer) -> None:
    mine = add_endpoints(sandbox, 3)
    listed = [e async for e in client.integrations.list_endpoints(page_size=2)]
    ids = [(e.email_address or e.phone_number).id for e in listed]  # type: ignore[union-attr]
    assert set(mine) <= set(ids) and len(ids) == len(set(ids))
    emails = [e async for e in client.integrations.list_endpoints(type="email_address",
                                                                  page_size=2)]
    assert all(e.email_address is not None and e.phone_number is None for e in emails)
    page = await client.integrations.list_endpoints_page(page_size=1)
    assert len(page.items) == 1 and page.next_cursor is not None
    second = await client.integrations.list_endpoints_page(page_size=1, after=page.next_cursor)
    assert second.items != page.items


async def test_get(client: ApiClient, sandbox: SandboxServer) -> None:
    email_id, *_, phone_id = add_endpoints(sandbox, 1)
    email = await client.integrations.get_endpoint(email_id)
    assert email.email_address is not None and email.phone_number is None
    assert email.email_address.internal_email_address.endswith(".invalid")
    phone = await client.integrations.get_endpoint(phone_id)
    assert phone.phone_number is not None and phone.phone_number.phone_number.startswith("+")


async def test_errors(client: ApiClient) -> None:
    with pytest.raises(NotFound):
        await client.integrations.get_endpoint(str(uuid.uuid4()))
    with pytest.raises(InvalidRequest) as caught:
        await client.integrations.list_endpoints_page(type="fax")  # type: ignore[arg-type]
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.integrations.list_endpoints_page(after="not-a-cursor")
    assert caught.value.status == 400


async def test_without_an_integrations_url_the_listing_is_refused(
    sandbox: SandboxServer,
) -> None:
    async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)) as api:
        with pytest.raises(InvalidRequest) as caught:
            await api.integrations.get_endpoint("x")
        assert "integrations URL" in caught.value.message


@pytest.mark.parametrize("scheme", ["", "Bearer "])
def test_the_interface_takes_the_key_plain_or_as_a_bearer_token(sandbox: SandboxServer,
                                                               scheme: str) -> None:
    # The client sends the plain key, as everywhere; the interface also takes Bearer.
    answer = httpx2.get(sandbox.integrations_url + "/v1/endpoints",
                       headers={"Authorization": scheme + sandbox.key}, timeout=10)
    assert answer.status_code == 200 and "data" in answer.json()
    refused = httpx2.get(sandbox.integrations_url + "/v1/endpoints",
                        headers={"Authorization": scheme + "wrong"}, timeout=10)
    assert refused.status_code == 401
