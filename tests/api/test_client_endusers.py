"""client.endusers against the sandbox: list (paged, filtered), create, read, conversations."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


def unique_email() -> str:
    return f"{uuid.uuid4().hex[:12]}@example.org"


async def test_create_and_get(client: ApiClient) -> None:
    email = unique_email()
    user = await client.endusers.create(display_name="Ada Customer", email=email,
                                        phone_number="+4512345678", external_id="crm-1")
    assert user.email == email and user.display_name == "Ada Customer"
    fetched = await client.endusers.get(user.id)
    assert fetched.id == user.id and fetched.external_id == "crm-1"
    assert fetched.custom_attributes is not None  # a single read includes them


async def test_create_from_a_mapping(client: ApiClient) -> None:
    user = await client.endusers.create({"displayName": "Bo", "email": unique_email()})
    assert user.display_name == "Bo"


async def test_create_errors(client: ApiClient) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.endusers.create(email="not an address")
    assert caught.value.status is None
    await client.endusers.create(external_id="taken-1")
    with pytest.raises(InvalidRequest) as caught:
        await client.endusers.create(external_id="taken-1")
    assert caught.value.status == 400


async def test_list_pages_through_everyone(client: ApiClient, sandbox: SandboxServer,
                                           caplog: pytest.LogCaptureFixture) -> None:
    mine = {(await client.endusers.create(email=unique_email())).id for _ in range(3)}
    total = sandbox.query("SELECT count(*) AS n FROM users WHERE kind = 'enduser'")[0]["n"]
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"):
        seen = [user.id async for user in client.endusers.list(page_size=100)]
    assert len(seen) == len(set(seen)) == total
    assert mine <= set(seen)
    requests = [r for r in caplog.records if getattr(r, "api_path", None) == "/v1/endusers"
                and getattr(r, "api_status", None) == 200]
    assert len(requests) == -(-total // 100)


async def test_the_iterator_is_lazy(client: ApiClient, caplog: pytest.LogCaptureFixture
                                    ) -> None:
    seen: list[str] = []
    with caplog.at_level(logging.DEBUG, logger="frontdesk.api"):
        users = client.endusers.list(page_size=2)
        async for user in users:
            seen.append(user.id)
            if len(seen) == 3:
                break
        await users.aclose()  # type: ignore[attr-defined]
    assert len(seen) == 3
    assert len([r for r in caplog.records if getattr(r, "api_status", None) == 200]) == 2


async def test_filters(client: ApiClient) -> None:
    email, phone = unique_email(), "+45" + str(uuid.uuid4().int)[:8]
    user = await client.endusers.create(email=email, phone_number=phone, external_id="ext-9")
    assert [u.id async for u in client.endusers.list(email=email.upper())] == [user.id]
    assert [u.id async for u in client.endusers.list(phone=phone)] == [user.id]
    assert [u.id async for u in client.endusers.list(external_id="ext-9")] == [user.id]
    with pytest.raises(InvalidRequest) as caught:
        await client.endusers.list_page(email=email, phone=phone)
    assert caught.value.status is None


async def test_list_page(client: ApiClient) -> None:
    first = await client.endusers.list_page(page_size=2)
    assert len(first.items) == 2 and first.next_key is not None
    second = await client.endusers.list_page(page_size=2, page_key=first.next_key)
    assert {u.id for u in first.items}.isdisjoint({u.id for u in second.items})
    with pytest.raises(InvalidRequest) as caught:
        await client.endusers.list_page(page_key="garbage!")
    assert caught.value.status == 400
    with pytest.raises(InvalidRequest) as caught:
        await client.endusers.list_page(page_size=0)
    assert caught.value.status is None


async def test_conversations_of_an_end_user(client: ApiClient) -> None:
    user = await client.endusers.create(email=unique_email())
    created = [
        (await client.conversations.create_chat(user.id, str(uuid.uuid4()), f"q{i}")).id
        for i in range(5)
    ]
    listed = [c async for c in client.endusers.conversations(user.id, page_size=2)]
    assert sorted(c.id for c in listed) == sorted(created)
    assert all(c.custom_attributes is None for c in listed)  # omitted in this list
    page = await client.endusers.conversations_page(user.id, page_size=4)
    assert len(page.items) == 4 and page.has_more
    rest = await client.endusers.conversations_page(user.id, page_size=4,
                                                    page_key=page.next_key)
    assert len(rest.items) == 1 and not rest.has_more


async def test_unknown_and_malformed_ids(client: ApiClient) -> None:
    with pytest.raises(NotFound):
        await client.endusers.get(str(uuid.uuid4()))
    with pytest.raises(NotFound):
        await client.endusers.conversations_page(str(uuid.uuid4()))
    with pytest.raises(InvalidRequest) as caught:
        await client.endusers.get("12")
    assert caught.value.status is None


async def test_update_patch_and_bulk(client: ApiClient) -> None:
    user = await client.endusers.create(display_name="Alice", first_name="Alice",
                                        phone_number="+551155256325")
    patched = await client.endusers.patch(user.id, last_name="Brown")
    assert (patched.first_name, patched.last_name) == ("Alice", "Brown")
    cleared = await client.endusers.patch(user.id, {"phoneNumber": None})
    assert cleared.phone_number is None and cleared.last_name == "Brown"
    replaced = await client.endusers.update(user.id, display_name="Alice B.")
    assert (replaced.display_name, replaced.first_name, replaced.last_name) == (
        "Alice B.", None, None)

    created = await client.endusers.bulk_create([{"displayName": "Bulk 1"},
                                                 {"displayName": "Bulk 2",
                                                  "externalId": f"#{uuid.uuid4().hex}"}])
    assert [o.ok for o in created] == [True, True]
    ids = [o.data.id for o in created if o.data is not None]
    assert len(ids) == 2
    updated = await client.endusers.bulk_update([{"id": ids[0], "displayName": "B1"},
                                                 {"id": str(uuid.uuid4()), "displayName": "?"}])
    assert [o.ok for o in updated] == [True, False]
    assert updated[1].error is not None and updated[1].error.type == "NotFound"
    patched_many = await client.endusers.bulk_patch([{"id": ids[1], "lastName": None},
                                                     {"id": ids[0]}])
    assert [o.ok for o in patched_many] == [True, False]
    assert patched_many[1].error is not None and patched_many[1].error.type == "EmptyPatchSet"


async def test_update_errors(client: ApiClient) -> None:
    user = await client.endusers.create(display_name="Bob")
    with pytest.raises(NotFound):
        await client.endusers.update(str(uuid.uuid4()), display_name="x")
    with pytest.raises(NotFound):
        await client.endusers.patch(str(uuid.uuid4()), display_name="x")
    with pytest.raises(InvalidRequest) as caught:  # the service refuses a patch of nothing
        await client.endusers.patch(user.id)
    assert caught.value.status == 400
    refused_before_sending = [
        client.endusers.update(user.id),  # no display name
        client.endusers.update("nope", display_name="x"),
        client.endusers.patch(user.id, {"displayNmae": "typo"}),
        client.endusers.bulk_update([]),
        client.endusers.bulk_patch([{"lastName": "no id"}]),
        client.endusers.bulk_create([{"email": "not-an-address"}]),
    ]
    for call in refused_before_sending:
        with pytest.raises(InvalidRequest) as caught:
            await call
        assert caught.value.status is None
