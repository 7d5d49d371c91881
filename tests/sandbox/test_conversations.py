"""The sandbox's conversations: create, import, read, and the actions on their state."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from factories_conversations import (
    EMAIL_INTEGRATION,
    SMS_NUMBER,
    Org,
    advance,
    agent,
    conversation,
    count_rows,
    create_chat,
    create_email,
    enduser,
    inbound,
    messages,
    org,
    outbound,
    stored_conversation,
    text,
)

from frontdesk.api.models import Conversation, Message
from frontdesk.api.models.messages import EmailContact
from frontdesk.sandbox.db import iso
from frontdesk.sandbox.server import SandboxServer


@pytest.fixture
def world(sandbox: SandboxServer) -> Org:
    """A customer, two agents and two queues (one the default)."""
    return org(sandbox)


def _check(record: dict[str, Any]) -> Conversation:
    """The record parses as the contract's Conversation and has no unknown members."""
    parsed = Conversation.model_validate(record)
    assert not parsed.model_extra, parsed.model_extra
    return parsed


def _state(http: httpx2.Client, cid: int) -> tuple[str, str | None, str | None]:
    record = conversation(http, cid)
    return (record["state"], (record.get("assignment") or {}).get("agentId"),
            (record.get("queue") or {}).get("id"))


# ---------------------------------------------------------------- create


def test_inbound_chat_is_open_and_queued_in_the_default_queue(
        http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester, inbound("Where is my parcel?"))
    record = conversation(http, cid)
    parsed = _check(record)
    assert parsed.type == "ChatConversation"
    assert record["channel"] == "WidgetChat"
    assert record["direction"] == "Inbound"
    assert record["state"] == "Open"
    assert record["queue"]["id"] == world.default_queue
    assert "assignment" not in record
    assert record["customAttributes"] == []
    [message] = messages(http, cid)
    parsed_message = Message.model_validate(message)
    assert parsed_message.author_id == world.requester
    assert message["attributes"] == {
        "_type": "ChatAttributes", "direction": "Inbound",
        "content": {"value": "Where is my parcel?", "_type": "Text"},
        "attachments": [], "isAutomated": False,
    }


def test_outbound_chat_is_assigned_to_its_author(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester, outbound(world.agent, "Hi from us"))
    record = conversation(http, cid)
    _check(record)
    assert record["direction"] == "Outbound"
    assert record["assignment"]["agentId"] == world.agent
    assert "queue" not in record
    [message] = messages(http, cid)
    assert message["authorId"] == world.agent
    assert message["attributes"]["direction"] == "Outbound"


def test_email_conversation_records_addresses_and_subject(
        sandbox: SandboxServer, http: httpx2.Client, world: Org) -> None:
    cid = create_email(http, world.requester, "Broken lamp", inbound("It flickers"))
    record = conversation(http, cid)
    _check(record)
    email = sandbox.query("SELECT email FROM users WHERE id = ?", (world.requester,))[0]["email"]
    assert record["_type"] == "EmailConversation"
    assert record["channel"] == "Email"
    assert record["subject"] == "Broken lamp"
    assert record["language"] == "en"
    assert record["integrationEmail"] == EMAIL_INTEGRATION
    assert record["fromEmail"] == email
    assert record["toEmail"] == EMAIL_INTEGRATION
    [message] = messages(http, cid)
    attributes = Message.model_validate(message).attributes
    assert attributes.type == "EmailAttributes"
    assert attributes.email_content is not None
    assert attributes.email_content.type == "Regular"
    assert attributes.body is not None and attributes.body.value == "It flickers"
    assert isinstance(attributes.from_, EmailContact) and attributes.from_.email == email
    assert [c if isinstance(c, str) else c.email for c in attributes.to or []] == [
        EMAIL_INTEGRATION]
    assert attributes.is_auto_reply is False
    assert attributes.subject == "Broken lamp"


def test_outbound_email_goes_from_the_integration_to_the_customer(
        http: httpx2.Client, world: Org) -> None:
    cid = create_email(http, world.requester, "Your order",
                       outbound(world.agent, "It shipped"))
    record = conversation(http, cid)
    assert record["fromEmail"] == EMAIL_INTEGRATION
    assert record["assignment"]["agentId"] == world.agent
    [message] = messages(http, cid)
    assert message["attributes"]["from"]["email"] == EMAIL_INTEGRATION
    assert message["attributes"]["to"][0]["email"] == record["toEmail"]


def test_contact_form_conversation(http: httpx2.Client, world: Org) -> None:
    cid = create_email(http, world.requester, "Contact", inbound("Call me"), kind="ContactForm")
    record = conversation(http, cid)
    _check(record)
    assert (record["_type"], record["channel"]) == ("ContactFormConversation", "ContactForm")
    [message] = messages(http, cid)
    assert message["attributes"]["_type"] == "ContactFormAttributes"
    Message.model_validate(message)


def test_sms_conversation_takes_an_outbound_first_message_only(
        sandbox: SandboxServer, http: httpx2.Client, world: Org) -> None:
    body = {"_type": "Sms", "requesterId": world.requester, "contactEndpointId": SMS_NUMBER,
            "message": outbound(world.agent, "Your code is 1234")}
    response = http.post("/v1/conversations", json=body)
    assert response.status_code == 200, response.text
    record = conversation(http, response.json()["data"]["id"])
    _check(record)
    assert (record["_type"], record["channel"]) == ("SmsConversation", "Sms")
    assert record["fromNumber"] == SMS_NUMBER
    assert record["toNumber"] == "+4561234567"
    assert messages(http, record["id"])[0]["attributes"]["_type"] == "SmsAttributes"

    before = count_rows(sandbox, "conversations")
    response = http.post("/v1/conversations", json={**body, "message": inbound("hi")})
    assert response.status_code == 400
    assert "outbound" in response.json()["message"]
    assert count_rows(sandbox, "conversations") == before


def test_callback_is_queued_in_its_queue_without_a_message(
        http: httpx2.Client, world: Org) -> None:
    response = http.post("/v1/conversations", json={
        "_type": "Callback", "requesterId": world.requester, "direction": "Inbound",
        "contactEndpointId": SMS_NUMBER, "queueId": world.queue})
    assert response.status_code == 200, response.text
    cid = response.json()["data"]["id"]
    record = conversation(http, cid)
    _check(record)
    assert (record["_type"], record["channel"]) == ("PstnPhoneConversation", "Callback")
    assert record["queue"]["id"] == world.queue
    assert record["state"] == "Open"
    assert messages(http, cid) == []


@pytest.mark.parametrize("case", [
    "unknown requester", "agent as requester", "outbound author not an agent",
    "unknown queue", "no email address",
])
def test_create_refusals_write_nothing(sandbox: SandboxServer, http: httpx2.Client, world: Org,
                                       case: str) -> None:
    chat: dict[str, Any] = {"_type": "Chat", "requesterId": world.requester,
                            "widgetId": world.queue, "message": inbound()}
    body = {
        "unknown requester": {**chat, "requesterId": "00000000-0000-4000-8000-00000000abcd"},
        "agent as requester": {**chat, "requesterId": world.agent},
        "outbound author not an agent": {**chat, "message": outbound(world.requester)},
        "unknown queue": {"_type": "Callback", "requesterId": world.requester,
                          "direction": "Inbound", "contactEndpointId": SMS_NUMBER,
                          "queueId": "00000000-0000-4000-8000-00000000abcd"},
        "no email address": {"_type": "Email", "requesterId": enduser(sandbox, email=None),
                             "emailIntegrationId": EMAIL_INTEGRATION, "subject": "s",
                             "message": inbound()},
    }[case]
    before = (count_rows(sandbox, "conversations"), count_rows(sandbox, "messages"))
    response = http.post("/v1/conversations", json=body)
    assert response.status_code == 400, response.text
    assert response.json()["message"]
    assert (count_rows(sandbox, "conversations"), count_rows(sandbox, "messages")) == before


@pytest.mark.parametrize("body", [
    {"_type": "Fax", "requesterId": "00000000-0000-4000-8000-000000000001"},
    {"_type": "Chat"},
    {"_type": "Chat", "requesterId": "not-a-uuid", "widgetId": "x", "message": {}},
    [],
    "text",
])
def test_create_rejects_a_malformed_body(http: httpx2.Client, body: Any) -> None:
    response = http.post("/v1/conversations", json=body)
    assert response.status_code == 400
    assert response.json()["message"].startswith("Invalid value in request")


def test_create_rejects_invalid_json(http: httpx2.Client) -> None:
    response = http.post("/v1/conversations", content=b"{nope",
                         headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert "Decoding failure" in response.json()["message"]


# ---------------------------------------------------------------- read


@pytest.mark.parametrize("path", ["0", "-3", "1.5", str(2**63)])
def test_malformed_conversation_ids_are_400(http: httpx2.Client, path: str) -> None:
    response = http.get(f"/v1/conversations/{path}")
    assert response.status_code == 400
    assert response.json()["message"]


def test_ids_python_would_read_as_numbers_are_not_ids(http: httpx2.Client) -> None:
    assert http.get("/v1/conversations/1").status_code == 200
    # signs, blanks, underscores, an Arabic-Indic and a fullwidth one
    for path in ("+1", "%201", "1%20", "1_0", "%D9%A1", "%EF%BC%91"):
        for url in (f"/v1/conversations/{path}", f"/v1/conversations/{path}/messages",
                    f"/v1/queues/conversation-position/{path}"):
            response = http.get(url)
            assert response.status_code == 400, (url, response.text)
            assert "digits only" in response.json()["message"]


def test_unknown_conversation_is_404_for_every_action(http: httpx2.Client, world: Org) -> None:
    missing = "/v1/conversations/987654321"
    assert http.get(missing).status_code == 404
    assert http.get(missing + "/messages").status_code == 404
    assert http.put(missing + "/close").status_code == 404
    assert http.put(missing + "/reopen").status_code == 404
    assert http.put(missing + "/claim", json={"agentId": world.agent}).status_code == 404
    assert http.put(missing + "/transfer/queue", json={"queueId": world.queue}).status_code \
        == 404
    assert http.put(missing + "/followup",
                    json={"timestamp": "2099-01-01T00:00:00Z"}).status_code == 404
    response = http.post(missing + "/messages", json=inbound())
    assert response.status_code == 404
    assert "987654321" in response.json()["message"]


# ---------------------------------------------------------------- close and reopen


def test_close_with_no_body_empty_body_or_a_user(http: httpx2.Client, world: Org) -> None:
    first, second, third = (create_chat(http, world.requester) for _ in range(3))
    assert http.put(f"/v1/conversations/{first}/close").status_code == 204
    assert http.put(f"/v1/conversations/{second}/close", json={}).status_code == 204
    assert http.put(f"/v1/conversations/{third}/close",
                    json={"userId": world.agent}).status_code == 204
    for cid in (first, second, third):
        record = conversation(http, cid)
        _check(record)
        assert record["state"] == "Closed"
        assert "queue" not in record
    # closing again is harmless
    assert http.put(f"/v1/conversations/{first}/close").status_code == 204


def test_close_keeps_the_assignment(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester, outbound(world.agent))
    assert http.put(f"/v1/conversations/{cid}/close").status_code == 204
    assert _state(http, cid) == ("Closed", world.agent, None)


@pytest.mark.parametrize("who", ["unknown", "enduser", "malformed"])
def test_close_refuses_a_user_who_is_not_an_agent(sandbox: SandboxServer, http: httpx2.Client,
                                                  world: Org, who: str) -> None:
    cid = create_chat(http, world.requester)
    user = {"unknown": "00000000-0000-4000-8000-00000000abcd", "enduser": world.requester,
            "malformed": "nobody"}[who]
    response = http.put(f"/v1/conversations/{cid}/close", json={"userId": user})
    assert response.status_code == 400
    assert _state(http, cid)[0] == "Open"


def test_reopen_queues_it_again_unassigned(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester, outbound(world.agent))
    assert http.put(f"/v1/conversations/{cid}/close").status_code == 204
    assert http.put(f"/v1/conversations/{cid}/reopen").status_code == 204
    assert _state(http, cid) == ("Open", None, world.default_queue)
    # reopening an open conversation changes nothing
    assert http.put(f"/v1/conversations/{cid}/reopen", json={}).status_code == 204
    assert _state(http, cid) == ("Open", None, world.default_queue)
    response = http.put(f"/v1/conversations/{cid}/reopen", json={"userId": world.requester})
    assert response.status_code == 400


# ---------------------------------------------------------------- follow-up


def test_followup_is_pending_until_it_expires(sandbox: SandboxServer, http: httpx2.Client,
                                              world: Org) -> None:
    cid = create_chat(http, world.requester)
    until = sandbox.clock.now() + timedelta(hours=2)
    response = http.put(f"/v1/conversations/{cid}/followup",
                        json={"timestamp": iso(until), "userId": world.agent})
    assert response.status_code == 204, response.text
    record = conversation(http, cid)
    _check(record)
    assert record["state"] == "Pending"
    advance(sandbox, 3600)
    sandbox.run_pending()
    assert _state(http, cid)[0] == "Pending"
    advance(sandbox, 3601)
    sandbox.run_pending()
    record = conversation(http, cid)
    assert record["state"] == "Open"
    assert record["stateUpdatedAt"] == iso(sandbox.clock.now())


def test_inbound_message_opens_a_pending_conversation(
        sandbox: SandboxServer, http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester)
    until = sandbox.clock.now() + timedelta(days=1)
    assert http.put(f"/v1/conversations/{cid}/followup",
                    json={"timestamp": iso(until)}).status_code == 204
    assert http.post(f"/v1/conversations/{cid}/messages", json=inbound("any news?")
                     ).status_code == 200
    assert _state(http, cid)[0] == "Open"
    assert sandbox.query("SELECT followup_until FROM conversations WHERE id = ?",
                         (cid,))[0]["followup_until"] is None


def test_reopen_ends_a_follow_up_keeping_the_assignment(
        sandbox: SandboxServer, http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester, outbound(world.agent))
    until = sandbox.clock.now() + timedelta(days=1)
    assert http.put(f"/v1/conversations/{cid}/followup",
                    json={"timestamp": iso(until)}).status_code == 204
    assert http.put(f"/v1/conversations/{cid}/reopen").status_code == 204
    assert _state(http, cid) == ("Open", world.agent, None)
    assert sandbox.query("SELECT followup_until FROM conversations WHERE id = ?",
                         (cid,))[0]["followup_until"] is None


@pytest.mark.parametrize("body", [None, {}, {"timestamp": "tomorrow"},
                                  {"timestamp": "2020-01-01T00:00:00Z"},
                                  {"timestamp": "2099-01-01T00:00:00Z", "userId": "x"}])
def test_followup_refuses_a_bad_body(http: httpx2.Client, world: Org, body: Any) -> None:
    cid = create_chat(http, world.requester)
    response = http.put(f"/v1/conversations/{cid}/followup", json=body)
    assert response.status_code == 400
    assert _state(http, cid)[0] == "Open"


def test_followup_of_a_closed_conversation_is_refused(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester)
    http.put(f"/v1/conversations/{cid}/close")
    response = http.put(f"/v1/conversations/{cid}/followup",
                        json={"timestamp": "2099-01-01T00:00:00Z"})
    assert response.status_code == 400
    assert "closed" in response.json()["message"]


# ---------------------------------------------------------------- transfer and claim


def test_transfer_unassigns_and_queues(sandbox: SandboxServer, http: httpx2.Client,
                                       world: Org) -> None:
    cid = create_chat(http, world.requester, outbound(world.agent))
    advance(sandbox, 5)
    response = http.put(f"/v1/conversations/{cid}/transfer/queue",
                        json={"queueId": world.queue, "userId": world.agent})
    assert response.status_code == 204
    record = conversation(http, cid)
    assert _state(http, cid) == ("Open", None, world.queue)
    assert record["queue"]["queuedAt"] == iso(sandbox.clock.now())


@pytest.mark.parametrize("body", [{"queueId": "00000000-0000-4000-8000-00000000abcd"},
                                  {"queueId": "queue-1"}, {}, None])
def test_transfer_refuses_an_unknown_or_malformed_queue(http: httpx2.Client, world: Org,
                                                        body: Any) -> None:
    cid = create_chat(http, world.requester)
    response = http.put(f"/v1/conversations/{cid}/transfer/queue", json=body)
    assert response.status_code == 400
    assert _state(http, cid)[2] == world.default_queue


def test_claim_assigns_and_leaves_the_queue(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester)
    assert http.put(f"/v1/conversations/{cid}/claim",
                    json={"agentId": world.agent}).status_code == 204
    assert _state(http, cid) == ("Open", world.agent, None)
    # claiming what one already has is harmless, even without force
    assert http.put(f"/v1/conversations/{cid}/claim",
                    json={"agentId": world.agent, "force": False}).status_code == 204


def test_claim_without_force_does_not_take_over(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester, outbound(world.agent))
    response = http.put(f"/v1/conversations/{cid}/claim",
                        json={"agentId": world.other_agent, "force": False})
    assert response.status_code == 409
    assert "force" in response.json()["message"]
    assert _state(http, cid)[1] == world.agent


@pytest.mark.parametrize("force", [True, None])
def test_claim_with_force_or_by_default_takes_over(http: httpx2.Client, world: Org,
                                                   force: bool | None) -> None:
    cid = create_chat(http, world.requester, outbound(world.agent))
    body: dict[str, Any] = {"agentId": world.other_agent}
    if force is not None:
        body["force"] = force
    assert http.put(f"/v1/conversations/{cid}/claim", json=body).status_code == 204
    assert _state(http, cid)[1] == world.other_agent


def test_claim_of_a_closed_conversation_opens_it(http: httpx2.Client, world: Org) -> None:
    cid = create_chat(http, world.requester)
    http.put(f"/v1/conversations/{cid}/close")
    assert http.put(f"/v1/conversations/{cid}/claim",
                    json={"agentId": world.agent}).status_code == 204
    assert _state(http, cid) == ("Open", world.agent, None)


@pytest.mark.parametrize("who", ["unknown", "enduser", "malformed", "missing"])
def test_claim_refuses_someone_who_is_not_an_agent(http: httpx2.Client, world: Org,
                                                   who: str) -> None:
    cid = create_chat(http, world.requester)
    body = {"unknown": {"agentId": "00000000-0000-4000-8000-00000000abcd"},
            "enduser": {"agentId": world.requester}, "malformed": {"agentId": "bob"},
            "missing": {"force": True}}[who]
    response = http.put(f"/v1/conversations/{cid}/claim", json=body)
    assert response.status_code == 400
    assert _state(http, cid)[1] is None


def test_concurrent_claims_leave_exactly_one_owner(sandbox: SandboxServer, http: httpx2.Client,
                                                   world: Org) -> None:
    cid = create_chat(http, world.requester)
    agents = [agent(sandbox) for _ in range(20)]
    barrier = threading.Barrier(len(agents))
    statuses: dict[str, int] = {}

    def claim(agent_id: str) -> None:
        with httpx2.Client(base_url=sandbox.base_url, headers={"Authorization": sandbox.key},
                          timeout=30) as client:
            barrier.wait()
            response = client.put(f"/v1/conversations/{cid}/claim",
                                  json={"agentId": agent_id, "force": False})
            statuses[agent_id] = response.status_code

    threads = [threading.Thread(target=claim, args=(a,)) for a in agents]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(statuses.values()) == [204] + [409] * 19
    [winner] = [a for a, status in statuses.items() if status == 204]
    rows = sandbox.query("SELECT assigned_agent_id FROM conversations WHERE id = ?", (cid,))
    assert rows == [{"assigned_agent_id": winner}]


# ---------------------------------------------------------------- anonymized


def test_an_anonymized_conversation_takes_no_actions(sandbox: SandboxServer, http: httpx2.Client,
                                                     world: Org) -> None:
    cid = stored_conversation(sandbox, world.requester, channel="WidgetChat",
                              type="AnonymizedConversation", state="Closed",
                              anonymized_at="2026-01-01T00:00:00.000Z")
    record = conversation(http, cid)
    _check(record)
    assert "anonymizedAt" in record
    assert http.put(f"/v1/conversations/{cid}/claim",
                    json={"agentId": world.agent}).status_code == 400
    assert http.put(f"/v1/conversations/{cid}/reopen").status_code == 400
    assert http.put(f"/v1/conversations/{cid}/transfer/queue",
                    json={"queueId": world.queue}).status_code == 400
    assert http.post(f"/v1/conversations/{cid}/messages", json=inbound()).status_code == 400
    assert http.put(f"/v1/conversations/{cid}/close").status_code == 204


# ---------------------------------------------------------------- import


def _import(http: httpx2.Client, body: dict[str, Any]) -> httpx2.Response:
    return http.post("/v1/conversations/import",
                     json={"_type": "GenericConversationImport", **body})


def test_import_generic_messages_in_order_and_assigned(http: httpx2.Client, world: Org) -> None:
    response = _import(http, {
        "genericChannelName": "genericapimessaging", "requesterId": world.requester,
        "requesterConnectionStatus": "Connected", "direction": "Inbound",
        "createdAt": "2021-12-01T11:00:00.001Z",
        "messages": [
            {"_type": "Outbound", "agentId": world.agent, "content": text("Sure"),
             "createdAt": "2021-12-01T14:00:00.004Z", "externalId": "m2"},
            {"_type": "Inbound", "content": text("Help with my order"),
             "createdAt": "2021-12-01T13:00:00.003Z", "externalId": "m1"},
        ],
        "assignment": {"agentId": world.agent, "assignedAt": "2021-12-01T12:00:00.002Z"},
    })
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data["partialErrors"] == []
    record = conversation(http, data["id"])
    _check(record)
    assert (record["_type"], record["channel"]) == ("GenericConversation", "Messenger")
    assert record["createdAt"] == "2021-12-01T11:00:00.001Z"
    assert record["state"] == "Open"
    assert record["assignment"] == {"agentId": world.agent,
                                    "assignedAt": "2021-12-01T12:00:00.002Z"}
    assert "queue" not in record
    thread = messages(http, data["id"])
    assert [m["externalId"] for m in thread] == ["m1", "m2"]
    assert [m["authorId"] for m in thread] == [world.requester, world.agent]
    assert thread[0]["createdAt"] == "2021-12-01T13:00:00.003Z[GMT]"
    assert {m["attributes"]["_type"] for m in thread} == {"GenericAttributes"}


def test_import_email_closed_with_duplicate_external_ids(http: httpx2.Client,
                                                         world: Org) -> None:
    response = _import(http, {
        "genericChannelName": "email", "requesterId": world.requester, "direction": "Inbound",
        "createdAt": "2021-12-01T11:00:00.000Z",
        "attributes": {"emailIntegrationId": EMAIL_INTEGRATION, "subject": "Shipping"},
        "messages": [
            {"_type": "Inbound", "content": text("Not shipped"), "externalId": "a",
             "createdAt": "2021-12-01T13:00:00.000Z"},
            {"_type": "Outbound", "agentId": world.agent, "content": text("Sorry"),
             "externalId": "a", "createdAt": "2021-12-01T14:00:00.000Z",
             "attributes": {"cc": ["boss@acme.example"]}},
            {"_type": "Outbound", "agentId": world.agent, "content": text("Shipped now"),
             "createdAt": "2021-12-01T14:00:00.000Z", "attributes": {"cc": ["x@y.example"]}},
        ],
        "closing": {"closedAt": "2021-12-01T15:00:00.000Z", "closedBy": world.agent},
    })
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert len(data["partialErrors"]) == 1
    assert "duplicate externalId" in data["partialErrors"][0]["message"]
    record = conversation(http, data["id"])
    _check(record)
    assert record["_type"] == "EmailConversation"
    assert record["subject"] == "Shipping"
    assert record["state"] == "Closed"
    assert record["stateUpdatedAt"] == "2021-12-01T15:00:00.000Z"
    thread = messages(http, data["id"])
    assert [m["attributes"]["emailContent"]["content"]["value"] for m in thread] == \
        ["Not shipped", "Shipped now"]
    assert thread[1]["attributes"]["cc"] == [{"email": "x@y.example"}]
    for message in thread:
        Message.model_validate(message)


def test_import_email_without_an_integration_id(http: httpx2.Client, world: Org,
                                                sandbox: SandboxServer) -> None:
    """``emailIntegrationId`` is optional as published: the organisation's first email
    address receives the imported conversation."""
    response = _import(http, {
        "genericChannelName": "email", "requesterId": world.requester, "direction": "Inbound",
        "createdAt": "2021-12-01T11:00:00.000Z", "attributes": {"subject": "No integration"},
        "messages": [{"_type": "Inbound", "content": text("Where is it?"),
                      "createdAt": "2021-12-01T13:00:00.000Z"}],
    })
    assert response.status_code == 200, response.text
    record = conversation(http, response.json()["data"]["id"])
    _check(record)
    first = sandbox.query("SELECT key FROM contact_endpoints WHERE type = 'EmailEndpoint' "
                          "ORDER BY position, key LIMIT 1")[0]["key"]
    assert record["_type"] == "EmailConversation" and record["subject"] == "No integration"
    assert record["toEmail"] == first


def test_import_keeps_message_times_strictly_increasing(http: httpx2.Client,
                                                        world: Org) -> None:
    same = "2022-03-01T10:00:00.000Z"
    response = _import(http, {
        "genericChannelName": "genericapimessaging", "requesterId": world.requester,
        "direction": "Inbound", "createdAt": same,
        "messages": [{"_type": "Inbound", "content": text(f"m{n}"), "createdAt": same}
                     for n in range(3)],
    })
    assert response.status_code == 200, response.text
    cid = response.json()["data"]["id"]
    times = [m["createdAt"] for m in messages(http, cid)]
    assert times == ["2022-03-01T10:00:00.000Z[GMT]", "2022-03-01T10:00:00.001Z[GMT]",
                     "2022-03-01T10:00:00.002Z[GMT]"]
    # neither closed nor assigned: Open, queued
    assert _state(http, cid) == ("Open", None, world.default_queue)


@pytest.mark.parametrize("case", ["outbound without agent", "unknown agent",
                                  "unknown requester", "unknown closer",
                                  "enduser assignment"])
def test_import_refusals_write_nothing(sandbox: SandboxServer, http: httpx2.Client, world: Org,
                                       case: str) -> None:
    base: dict[str, Any] = {"genericChannelName": "genericapimessaging",
                            "requesterId": world.requester, "direction": "Inbound",
                            "createdAt": "2021-12-01T11:00:00Z",
                            "messages": [{"_type": "Inbound", "content": text("hi"),
                                          "createdAt": "2021-12-01T11:00:00Z"}]}
    nobody = "00000000-0000-4000-8000-00000000abcd"
    body = {
        "outbound without agent": {**base, "messages": [
            {"_type": "Outbound", "content": text("hi"), "createdAt": "2021-12-01T11:00:00Z"}]},
        "unknown agent": {**base, "messages": [
            {"_type": "Outbound", "agentId": nobody, "content": text("hi"),
             "createdAt": "2021-12-01T11:00:00Z"}]},
        "unknown requester": {**base, "requesterId": nobody},
        "unknown closer": {**base, "closing": {"closedAt": "2021-12-01T12:00:00Z",
                                               "closedBy": nobody}},
        "enduser assignment": {**base, "assignment": {"agentId": world.requester,
                                                      "assignedAt": "2021-12-01T12:00:00Z"}},
    }[case]
    before = (count_rows(sandbox, "conversations"), count_rows(sandbox, "messages"))
    response = _import(http, body)
    assert response.status_code == 400, response.text
    assert response.json()["message"]
    assert (count_rows(sandbox, "conversations"), count_rows(sandbox, "messages")) == before


def test_import_rejects_a_malformed_body(http: httpx2.Client, world: Org) -> None:
    response = _import(http, {"genericChannelName": "fax", "requesterId": world.requester,
                              "direction": "Inbound", "createdAt": "2021-12-01T11:00:00Z"})
    assert response.status_code == 400
    response = http.post("/v1/conversations/import", json={"genericChannelName": "email"})
    assert response.status_code == 400


def test_routes_are_documented(http: httpx2.Client) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    for path in ("/v1/conversations", "/v1/conversations/import",
                 "/v1/conversations/{conversationId}",
                 "/v1/conversations/{conversationId}/claim",
                 "/v1/conversations/{conversationId}/messages",
                 "/v1/search/conversations", "/files/{fileId}"):
        assert path in paths
    claim = paths["/v1/conversations/{conversationId}/claim"]["put"]
    assert {"204", "400", "404", "409"} <= set(claim["responses"])
