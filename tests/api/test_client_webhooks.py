"""client.webhooks against the sandbox: create, list, get, update, delete, delivery status
and log, and each published error (refused before sending where the client can tell)."""

from __future__ import annotations

import pytest

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer
from frontdesk.api.models import WebhookEvent
from frontdesk.sandbox.listen import Receiver
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


async def test_webhooks_end_to_end(sandbox: SandboxServer) -> None:
    with Receiver() as receiver:
        async with ApiClient(sandbox.base_url, sandbox.key, pacer=Pacer(enabled=False)) as client:
            made = await client.webhooks.create(
                name="Billing", url=receiver.url, events=[WebhookEvent.CONVERSATION_TAG_ADDED],
                authorization={"_type": "BasicAuth", "username": "hook", "password": "pw"},
                custom_headers={"X-Env": "test"})
            receiver.secret = made.secret_key
            listed = await client.webhooks.list()
            got = await client.webhooks.get(made.id)
            updated = await client.webhooks.update(made.id, {"events": ["ConversationClosed"],
                                                              "name": "Billing 2"})
            conversation = next(iter(sandbox.query(
                "SELECT id FROM conversations WHERE state = 'Open' LIMIT 1")))["id"]
            await client.conversations.close(conversation)
            sandbox.run_pending()
            statuses = await client.webhooks.delivery_status(made.id)
            log = await client.webhooks.delivery_log(made.id, "ConversationClosed")
            for bad in (client.webhooks.get("nope"),
                        client.webhooks.update(made.id, {}),
                        client.webhooks.update(made.id, {"enabled": "yes"}),
                        client.webhooks.delivery_log(made.id, "Nope"),
                        client.webhooks.create(name="x", url="http://127.0.0.1/",
                                               events=["Nope"])):
                with pytest.raises(InvalidRequest) as caught:
                    await bad
                assert caught.value.status is None
            with pytest.raises(InvalidRequest) as caught:
                await client.webhooks.create(name="x", url="gopher://x")
            assert caught.value.status == 400
            await client.webhooks.delete(made.id)
            for gone in (client.webhooks.get(made.id), client.webhooks.delete(UNKNOWN),
                         client.webhooks.delivery_status(made.id)):
                with pytest.raises(NotFound):
                    await gone
            after = await client.webhooks.list()
    assert [w.id for w in listed] == [made.id] and got == made and after == []
    assert made.headers["Authorization"].startswith("Basic ")
    assert made.headers["X-Env"] == "test" and made.enabled
    assert updated.subscribed_events == ["ConversationClosed"] and updated.name == "Billing 2"
    assert [(s.event, s.delivery_status.type, s.delivery_status.success) for s in statuses] \
        == [("ConversationClosed", "DeliveryDetail", True)]
    assert len(log) == 1 and log[0].delivery_detail.response_code == 200
    assert receiver.events() == ["ConversationClosed"] and receiver.received[0].signed
