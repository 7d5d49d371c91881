"""client.custom_attributes against the sandbox: definitions, and values on end users and
conversations."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)

OPTIONS = [
    {"id": str(uuid.uuid4()), "label": "Hardware", "value": "hardware", "isDeactivated": False,
     "orderIndex": 0, "nestedOptions": [
         {"id": str(uuid.uuid4()), "label": "Laptop", "value": "laptop",
          "isDeactivated": False, "orderIndex": 0, "nestedOptions": []}]},
]


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


def define(sandbox: SandboxServer, entity_type: str, kind: str) -> str:
    spec = ({"_type": "Text", "placeholder": "e.g. 123"} if kind == "Text"
            else {"_type": "Select", "options": OPTIONS})

    def insert(ctx: SandboxContext) -> str:
        with ctx.db.tx():
            return records.insert_attribute_definition(
                ctx.db, entity_type=entity_type, identifier=f"attr_{uuid.uuid4().hex[:6]}",
                label=f"{kind} attribute", input_definition=spec, created_at=ctx.now_iso())
    return sandbox.call(insert)


async def test_definitions(client: ApiClient, sandbox: SandboxServer) -> None:
    text_id = define(sandbox, "Contact", "Text")
    select_id = define(sandbox, "Conversation", "Select")
    listed = {d.id: d for d in await client.custom_attributes.list()}
    assert listed[text_id].entity_type == "Contact"
    assert listed[text_id].input_definition.type == "Text"
    select = await client.custom_attributes.get(select_id)
    assert select.input_definition.options is not None
    assert select.input_definition.options[0].nested_options[0].value == "laptop"
    with pytest.raises(NotFound):
        await client.custom_attributes.get(str(uuid.uuid4()))


async def test_patch_an_end_user(client: ApiClient, sandbox: SandboxServer) -> None:
    attribute = define(sandbox, "Contact", "Text")
    user = await client.endusers.create(display_name="Attributed")
    values = await client.custom_attributes.patch_enduser(user.id, {attribute: "A-42"})
    assert [(v.id, v.value) for v in values] == [(attribute, "A-42")]
    assert (await client.endusers.get(user.id)).custom_attributes[0].value == "A-42"  # type: ignore[index]
    assert await client.custom_attributes.patch_enduser(user.id, {attribute: None}) == []


async def test_patch_a_conversation(client: ApiClient, sandbox: SandboxServer) -> None:
    attribute = define(sandbox, "Conversation", "Select")
    user = await client.endusers.create(display_name="Attributed")
    conversation = await client.conversations.create_chat(user.id, str(uuid.uuid4()), "hi")
    values = await client.custom_attributes.patch_conversation(
        conversation.id, {attribute: ["hardware", "laptop"]})
    assert values[0].value == ["hardware", "laptop"]
    fetched = await client.conversations.get(conversation.id)
    assert fetched.custom_attributes is not None
    assert fetched.custom_attributes[0].value == ["hardware", "laptop"]


async def test_errors(client: ApiClient, sandbox: SandboxServer) -> None:
    contact_attr = define(sandbox, "Contact", "Text")
    user = await client.endusers.create(display_name="Attributed")
    conversation = await client.conversations.create_chat(user.id, str(uuid.uuid4()), "hi")
    with pytest.raises(InvalidRequest) as caught:  # an end user's attribute on a conversation
        await client.custom_attributes.patch_conversation(conversation.id, {contact_attr: "x"})
    assert caught.value.status == 400
    with pytest.raises(InvalidRequest) as caught:
        await client.custom_attributes.patch_enduser(user.id, {"not-a-uuid": "x"})
    assert caught.value.status is None
    with pytest.raises(InvalidRequest) as caught:
        await client.custom_attributes.patch_enduser(user.id, {contact_attr: 42})  # type: ignore[dict-item]
    assert caught.value.status is None
    with pytest.raises(InvalidRequest):
        await client.custom_attributes.patch_enduser(user.id, {})
    with pytest.raises(NotFound):
        await client.custom_attributes.patch_enduser(str(uuid.uuid4()), {contact_attr: "x"})
    with pytest.raises(NotFound):
        await client.custom_attributes.patch_conversation(2**40, {contact_attr: "x"})
